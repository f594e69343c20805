#!/usr/bin/env bash
# The test command: install what is missing, build with CMake presets and run every test suite.
#   scripts/test.sh             the presets CI runs: release, wasm (the WebAssembly engine and
#                               the static site), asan (ASan+UBSan, with a short run of every
#                               libFuzzer target) and tsan (ThreadSanitizer); what .ci/run calls
#   scripts/test.sh PRESET...   only those presets, e.g. scripts/test.sh tsan
#   scripts/test.sh --quick     the edit-compile-test loop: the release build and the suites
#                               labelled `unit` (in-process, no generated tables, no programs
#                               started; tests/CMakeLists.txt), nothing installed
# Each preset prints how long its build and its tests took, and the run ends with a summary. From
# the second preset on, the build starts while the suites of the one before run.
set -euo pipefail
cd "$(dirname "$0")/.."

jobs=$(nproc)
if [ "${1:-}" = "--quick" ]; then
  shift
  if [ $# -ne 0 ]; then
    echo "usage: scripts/test.sh --quick   (no presets with --quick)" >&2
    exit 2
  fi
  cmake --preset release >/dev/null
  cmake --build --preset release --target quixo_tests
  exec ctest --preset release -j "$jobs" -L '^unit$'
fi

presets=("$@")
if [ ${#presets[@]} -eq 0 ]; then
  presets=(release wasm asan tsan)
fi
scripts/install-deps.sh
. scripts/lib/python-site.sh

# Compiles one preset, and nothing that needs another preset's test run (the wasm preset's site
# takes the release suites' endgame tables, so build-web.sh assembles it later).
compile_preset() {
  if [ "$1" = wasm ]; then
    scripts/build-web.sh --compile-only
  else
    cmake --preset "$1" >/dev/null
    cmake --build --preset "$1"
  fi
}
export -f compile_preset

# Each preset's suites run while the next preset compiles at the lowest priority (nice 19): the
# suites wait much of the time on the programs they start, and the compiler takes only the CPU
# they leave. In its own session, so that a failed run stops all of it.
compiling_pid=""
compiling_log=""
stop_compiling() {
  if [ -n "$compiling_pid" ]; then
    kill -- "-$compiling_pid" 2>/dev/null || true
  fi
}
trap stop_compiling EXIT

summary=()
for index in "${!presets[@]}"; do
  preset=${presets[$index]}
  echo "== preset $preset"
  start=$SECONDS
  if [ -n "$compiling_pid" ]; then
    # Started during the tests before; what it printed comes now, in one piece.
    compiled=true
    wait "$compiling_pid" || compiled=false
    compiling_pid=""
    cat "$compiling_log"
    if ! $compiled; then
      echo "== preset $preset: the build failed" >&2
      exit 1
    fi
  else
    compile_preset "$preset"
  fi
  # The static site (build/web/), from the compiled preset and the release suites' tables.
  [ "$preset" = wasm ] && scripts/build-web.sh
  built=$SECONDS
  [ "$preset" = release ] && register_python_package
  next=${presets[$((index + 1))]:-}
  if [ -n "$next" ]; then
    mkdir -p build
    compiling_log=build/$next-compile.log
    setsid --wait nice -n 19 bash -c 'SECONDS=0; compile_preset "$1" && echo "== compiled in $SECONDS s"' \
      compile "$next" >"$compiling_log" 2>&1 &
    compiling_pid=$!
  fi
  # One suite more than there are cores: many suites spend much of their time waiting on the
  # programs they start (engines at a clock, the arena, Chromium, Slurm), so a third one fills
  # the gaps. On 2 cores (2026-11-28, one built release tree) the release suites took 264 s at
  # -j2 and 226 s at -j3; under the sanitizers a fresh-clone CI run took 329 s (asan) and 169 s
  # (tsan) at -j2, a built tree 235 s and 126 s at -j3 (2026-11-29).
  ctest --preset "$preset" -j "$((jobs + 1))"
  summary+=("$preset: build $((built - start)) s, tests $((SECONDS - built)) s")
  echo "== preset ${summary[-1]}"
done
echo "== times (a preset's build: what was left of it when the suites before had run)"
printf '   %s\n' "${summary[@]}"
