#!/usr/bin/env bash
# Games per minute of one tournament played as 1, 2 and 4 shards on the one-node Slurm cluster of
# local-cluster.sh (started and stopped here), through tournament.sh --wait: the README's figures.
#
#   scripts/slurm/throughput.sh [--rounds N] [--shards "1 2 4"] -- ENGINE_KEYS...
#
#   scripts/slurm/throughput.sh --rounds 16 -- tc=nodes=20000     # CPU-bound: fixed nodes
#   scripts/slurm/throughput.sh --rounds 16 -- tc=1+0.01           # clock-bound
#
# The tournament: the release quixo-engine with the learned evaluation against itself with the
# hand-written one, one thread each, the default book, the ENGINE_KEYS given to both (--each).
# Wall time runs from submitting to the merged report, so it includes Slurm's scheduling.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
rounds=16
shard_counts="1 2 4"
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --shards) shard_counts=$2; shift 2 ;;
    --) shift; break ;;
    *) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
done
[ $# -gt 0 ] || { echo "throughput: give the engines' keys after --, e.g. tc=nodes=20000" >&2; exit 2; }
# shellcheck source=../lib/private-cluster.sh
source "$root/scripts/lib/private-cluster.sh"
start_private_cluster throughput

games=$((2 * rounds))
echo "$games games, --each $*, $(nproc) cores, $(date -u '+%Y-%m-%d')"
for shards in $shard_counts; do
  mkdir -p "$work/$shards"
  start=$(date +%s.%N)
  "$root/scripts/slurm/tournament.sh" --shards "$shards" --wait --arena "$arena" -- \
    --engine name=learned "cmd=$engine" --engine name=hand "cmd=$engine" option.Evaluation=hand \
    --each option.Threads=1 option.Hash=16 "$@" --rounds "$rounds" \
    --openings "$root/configs/openings.txt" --report-interval 0 \
    --results "$work/$shards/r.json" >"$work/$shards/report.txt" 2>&1 ||
    { cat "$work/$shards/report.txt"; exit 1; }
  end=$(date +%s.%N)
  python3 - "$shards" "$start" "$end" "$games" "$work/$shards/r.json" <<'EOF'
import json, sys
shards, start, end, games = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
data = json.load(open(sys.argv[5]))
played = data["standings"]["games"]
forfeits = sum(e["time_forfeits"] for e in data["standings"]["engines"])
minutes = (end - start) / 60
print("%d shard%s: %d games in %.1f s, %.1f games a minute, %d time forfeits" % (
    shards, "" if shards == 1 else "s", played, end - start, played / minutes, forfeits))
EOF
done
