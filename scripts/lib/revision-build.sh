# Sourced by scripts/regress.sh and scripts/compare-speed.sh: a git revision's programs built once
# into build/regress/<sha>/ (exported with `git archive`, so the working tree is not touched), and
# reused by later runs.

# build_revision REV TARGET...: builds TARGETs of REV (a release build); prints the build folder.
build_revision() {
  local rev=$1 sha dir
  shift
  sha=$(git rev-parse --verify --short=12 "$rev^{commit}") || {
    echo "$(basename "$0"): no such revision: $rev" >&2
    exit 2
  }
  dir=build/regress/$sha
  if [ ! -f "$dir/src/CMakeLists.txt" ]; then
    rm -rf "$dir"
    mkdir -p "$dir/src"
    git archive "$sha" | tar -x -C "$dir/src"
  fi
  cmake -S "$dir/src" -B "$dir/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >&2
  cmake --build "$dir/build" --target "$@" >&2
  echo "$dir/build"
}

# find_program_in BUILD NAME: the path of program NAME in a build folder (older revisions put the
# engine under protocol/, newer ones everything under bin/).
find_program_in() {
  find "$1" -name "$2" -type f -perm -u+x | head -n 1
}
