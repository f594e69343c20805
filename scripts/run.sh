#!/usr/bin/env bash
# The main job: install what is missing, build the release preset, print the engine's bench
# signature, then play the short tournament of configs/tournament.ini (the engine against weaker
# settings of itself) and end with its rating report. Extra arguments go to quixo-arena, e.g.
#   scripts/run.sh --rounds 20
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release
. scripts/lib/python-site.sh
register_python_package
build/release/bin/quixo-engine bench
build/release/bin/quixo-arena --config configs/tournament.ini "$@"
