#!/usr/bin/env bash
# The main job: install what is missing, build the release preset, then the engine's bench and a
# short fixed-node match (the engine against itself without its move-ordering heuristics),
# ending in an Elo report. The arena's tournament on configs/ replaces the match when it lands.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release
build/release/protocol/quixo-engine bench
build/release/engine/quixo-selfplay --off killers_and_history --pairs 20 --nodes 20000
