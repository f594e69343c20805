#!/usr/bin/env bash
# The test command: install what is missing, build with CMake presets and run every test suite.
#   scripts/test.sh             the presets CI runs: release, asan (ASan+UBSan), tsan
#                               (ThreadSanitizer) and fuzz (short libFuzzer runs); what .ci/run calls
#   scripts/test.sh PRESET...   only those presets, e.g. scripts/test.sh tsan
set -euo pipefail
cd "$(dirname "$0")/.."
presets=("$@")
if [ ${#presets[@]} -eq 0 ]; then
  presets=(release asan tsan fuzz)
fi
scripts/install-deps.sh
for preset in "${presets[@]}"; do
  echo "== preset $preset"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset"
  ctest --preset "$preset" -j "$(nproc)"
done
