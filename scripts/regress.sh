#!/usr/bin/env bash
# The regression workflow before a merge: build two git revisions of the engine into separate
# folders and run an SPRT between them with quixo-arena (configs/sprt.ini), fishtest style.
#
#   scripts/regress.sh BASE [NEW] [-- quixo-arena options...]
#
# BASE and NEW are any git revisions (NEW defaults to HEAD), e.g.
#   scripts/regress.sh main                   # HEAD against main
#   scripts/regress.sh HEAD~1 HEAD -- --sprt elo0=-5 elo1=0 --tc 8+0.08
# Each revision is exported with `git archive` and built once into build/regress/<sha>/; later runs
# reuse the build. The exit code is quixo-arena's: 0 H1 accepted (NEW is better), 1 H0 accepted,
# 3 undecided after all rounds, 2 error, 4 interrupted (run again with `-- --resume`). A second run
# of the same two revisions keeps the first one's files: add `-- --resume` or `-- --overwrite`.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
  sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
base_rev=$1
shift
new_rev=HEAD
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
  new_rev=$1
  shift
fi
[ $# -gt 0 ] && [ "$1" = "--" ] && shift

scripts/install-deps.sh

# Builds the engine of one revision; prints the path of its quixo-engine.
build_revision() {
  local sha dir
  sha=$(git rev-parse --verify --short=12 "$1^{commit}") || {
    echo "regress: no such revision: $1" >&2
    exit 2
  }
  dir=build/regress/$sha
  if [ ! -f "$dir/.built" ]; then
    rm -rf "$dir"
    mkdir -p "$dir/src"
    git archive "$sha" | tar -x -C "$dir/src"
    cmake -S "$dir/src" -B "$dir/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >&2
    cmake --build "$dir/build" --target quixo-engine >&2
    touch "$dir/.built"
  fi
  # Older revisions put the binary under protocol/, newer ones under bin/.
  find "$dir/build" -name quixo-engine -type f -perm -u+x | head -n 1
}

base_engine=$(build_revision "$base_rev")
new_engine=$(build_revision "$new_rev")
[ -n "$base_engine" ] && [ -n "$new_engine" ] || { echo "regress: build failed" >&2; exit 2; }

cmake --preset release >/dev/null
cmake --build --preset release --target quixo-arena

base_sha=$(git rev-parse --short=12 "$base_rev^{commit}")
new_sha=$(git rev-parse --short=12 "$new_rev^{commit}")
echo "SPRT: $new_rev ($new_sha) against $base_rev ($base_sha)"
set +e
build/release/bin/quixo-arena --config configs/sprt.ini \
  --engine name=new cmd="$PWD/$new_engine" --engine name=base cmd="$PWD/$base_engine" \
  --pgn "build/regress/$new_sha-vs-$base_sha.pgn" \
  --results "build/regress/$new_sha-vs-$base_sha.json" "$@"
status=$?
set -e
case $status in
  0) echo "regress: H1 accepted: $new_rev is stronger than $base_rev" ;;
  1) echo "regress: H0 accepted: $new_rev is not stronger than $base_rev" ;;
  3) echo "regress: undecided after all rounds" ;;
  4) echo "regress: interrupted; continue with: $0 $base_rev $new_rev -- --resume" ;;
esac
exit $status
