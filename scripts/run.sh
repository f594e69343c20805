#!/usr/bin/env bash
# The main job: install what is missing, build the release preset, then show the rules core at
# work: a perft divide from the start and the perft speed benchmark.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release
build/release/protocol/quixo-engine perft startpos 4
build/release/engine/quixo-perft-bench --depth2 6 --depth4 4
