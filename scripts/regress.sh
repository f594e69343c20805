#!/usr/bin/env bash
# The regression workflow before a merge: build two git revisions of the engine into separate
# folders and run an SPRT between them with quixo-arena (configs/sprt.ini), fishtest style.
#
#   scripts/regress.sh [--slurm N [--partition P]] BASE [NEW] [-- quixo-arena options...]
#
# BASE and NEW are any git revisions (NEW defaults to HEAD), e.g.
#   scripts/regress.sh main                   # HEAD against main
#   scripts/regress.sh HEAD~1 HEAD -- --sprt elo0=-5 elo1=0 --tc 8+0.08
# Each revision is exported with `git archive` and built once into build/regress/<sha>/; later runs
# reuse the build. The exit code is quixo-arena's: 0 H1 accepted (NEW is better), 1 H0 accepted,
# 3 undecided after all rounds, 2 error, 4 interrupted (run again with `-- --resume`). A second run
# of the same two revisions keeps the first one's files: add `-- --resume` or `-- --overwrite`.
# --slurm N plays the SPRT as N shards of a Slurm job array (scripts/slurm/tournament.sh --wait),
# which stop together on the decision; build/regress/ must then be on a folder every node sees.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
}
slurm_shards=""
slurm_options=()
while [ $# -gt 0 ]; do
  case $1 in
    --slurm)
      [ $# -ge 2 ] || usage
      slurm_shards=$2
      shift 2
      ;;
    --partition)
      [ $# -ge 2 ] || usage
      slurm_options+=(--partition "$2")
      shift 2
      ;;
    *) break ;;
  esac
done
if [ $# -lt 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
  usage
fi
if [ -n "$slurm_shards" ] && ! [[ $slurm_shards =~ ^[1-9][0-9]*$ ]]; then
  echo "regress: --slurm wants a number of shards, not '$slurm_shards'" >&2
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

. scripts/lib/revision-build.sh

base_engine=$(find_program_in "$(build_revision "$base_rev" quixo-engine)" quixo-engine)
new_engine=$(find_program_in "$(build_revision "$new_rev" quixo-engine)" quixo-engine)
if [ -z "$base_engine" ] || [ -z "$new_engine" ]; then
  echo "regress: build failed" >&2
  exit 2
fi

cmake --preset release >/dev/null
cmake --build --preset release --target quixo-arena

base_sha=$(git rev-parse --short=12 "$base_rev^{commit}")
new_sha=$(git rev-parse --short=12 "$new_rev^{commit}")
echo "SPRT: $new_rev ($new_sha) against $base_rev ($base_sha)"
arena_options=(--config configs/sprt.ini
  --engine name=new cmd="$PWD/$new_engine" --engine name=base cmd="$PWD/$base_engine"
  --pgn "build/regress/$new_sha-vs-$base_sha.pgn"
  --results "build/regress/$new_sha-vs-$base_sha.json" "$@")
set +e
if [ -n "$slurm_shards" ]; then
  # A shard is a 1-CPU task: one game at a time, unless told otherwise.
  [[ " $* " == *" --concurrency"* ]] || arena_options+=(--concurrency 1)
  # The merge's exit code is the tournament's, with 4 when a shard died: resume it with
  # scripts/slurm/tournament.sh --tasks.
  scripts/slurm/tournament.sh --shards "$slurm_shards" "${slurm_options[@]}" --wait \
    --arena "$PWD/build/release/bin/quixo-arena" -- "${arena_options[@]}"
else
  build/release/bin/quixo-arena "${arena_options[@]}"
fi
status=$?
set -e
case $status in
  0) echo "regress: H1 accepted: $new_rev is stronger than $base_rev" ;;
  1) echo "regress: H0 accepted: $new_rev is not stronger than $base_rev" ;;
  3) echo "regress: undecided after all rounds" ;;
  4) if [ -n "$slurm_shards" ]; then
       echo "regress: games are missing (a shard died); see build/regress/$new_sha-vs-$base_sha.merge.out"
     else
       echo "regress: interrupted; continue with: $0 $base_rev $new_rev -- --resume"
     fi ;;
esac
exit $status
