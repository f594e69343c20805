#!/usr/bin/env bash
# The test command: install what is missing, build with CMake presets and run every test suite.
#   scripts/test.sh             the presets CI runs: release, wasm (the WebAssembly engine and
#                               the static site), asan (ASan+UBSan, with a short run of every
#                               libFuzzer target) and tsan (ThreadSanitizer); what .ci/run calls
#   scripts/test.sh PRESET...   only those presets, e.g. scripts/test.sh tsan
#   scripts/test.sh --quick     the edit-compile-test loop: the release build and the suites
#                               labelled `unit` (in-process, no generated tables, no programs
#                               started; tests/CMakeLists.txt), nothing installed
# Each preset prints how long its build and its tests took, and the run ends with a summary.
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
summary=()
for preset in "${presets[@]}"; do
  echo "== preset $preset"
  start=$SECONDS
  if [ "$preset" = wasm ]; then
    # The WebAssembly engine and the static site: build-web.sh fetches zstd's source, configures
    # and builds the preset and fills build/web/, which its suites run (next to the release
    # preset's programs, so release comes first).
    scripts/build-web.sh
  else
    cmake --preset "$preset" >/dev/null
    cmake --build --preset "$preset"
  fi
  built=$SECONDS
  [ "$preset" = release ] && register_python_package
  # One suite more than there are cores: many suites spend much of their time waiting on the
  # programs they start (engines at a clock, the arena, Chromium, Slurm), so a third one fills
  # the gaps. On 2 cores (2026-11-28, one built release tree) the release suites took 264 s at
  # -j2 and 226 s at -j3; under the sanitizers a fresh-clone CI run took 329 s (asan) and 169 s
  # (tsan) at -j2, a built tree 235 s and 126 s at -j3 (2026-11-29).
  ctest --preset "$preset" -j "$((jobs + 1))"
  summary+=("$preset: build $((built - start)) s, tests $((SECONDS - built)) s")
  echo "== preset ${summary[-1]}"
done
echo "== times"
printf '   %s\n' "${summary[@]}"
