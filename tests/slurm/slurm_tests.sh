#!/usr/bin/env bash
# slurm_tests: the cluster path end to end, on a real one-node Slurm cluster started for the test
# by scripts/slurm/local-cluster.sh (its own folder and ports, so a cluster a developer runs is
# left alone) and stopped at the end, also when a check fails.
#
#   tests/slurm/slurm_tests.sh QUIXO_ARENA QUIXO_ENGINE QUIXO_MOCK_ENGINE
#
# 1. A tournament of two engines at fixed nodes and one thread (deterministic), played by one
#    process, and the same tournament as 4 shards through scripts/slurm/tournament.sh --wait: the
#    merged results and PGN match the single run game by game (openings, colours, moves, results).
# 2. The same tournament again, with shard 2 cancelled (scancel) after its first game: the merge
#    reports the games missing (exit 4); shard 2 re-submitted with --resume completes it, and the
#    merged result is again the single run's.
# 3. A 4-shard SPRT of the engine against one that plays illegal moves: every shard stops on the
#    decision (H1) before its share is played, and the merge exits 0 with H1.
set -euo pipefail

if [ $# -ne 3 ]; then
  sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
arena=$1
engine=$2
mock=$3
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cluster="$root/scripts/slurm/local-cluster.sh"
tournament="$root/scripts/slurm/tournament.sh"

work=$(mktemp -d /tmp/quixo-slurm-tests.XXXXXX)
# munged wants every folder above its socket open to all.
chmod 755 "$work"
export QUIXO_SLURM_DIR="$work/cluster"
# Away from Slurm's default ports (a real or developer's cluster), different for each run.
export QUIXO_SLURM_PORT=$((20000 + 2 * ($$ % 5000)))
finish() {
  local status=$?
  "$cluster" stop >/dev/null 2>&1 || true
  if [ $status -ne 0 ]; then
    echo "slurm_tests: FAILED; the cluster's logs:" >&2
    tail -n 20 "$QUIXO_SLURM_DIR"/*.log >&2 2>/dev/null || true
  fi
  rm -rf "$work"
  exit $status
}
trap finish EXIT

fail() {
  echo "slurm_tests: FAILED: $*" >&2
  exit 1
}
step() { echo "== $*"; }

"$cluster" start
eval "$("$cluster" env)"

# Two engines that differ (the learned and the hand evaluation), at fixed nodes with one thread;
# enough nodes that a shard plays for seconds, so that one can be cancelled in the middle.
tournament_options=(
  --engine name=learned "cmd=$engine" --engine name=hand "cmd=$engine" option.Evaluation=hand
  --each tc=nodes=50000 option.Threads=1 option.Hash=8
  --rounds 16 --openings "$root/configs/openings.txt" --report-interval 0
)

# Compares two tournaments game by game: the results files' games (in schedule order) and the
# PGN's games without the clock times in their comments.
same_games() {
  python3 - "$@" <<'EOF'
import json, re, sys
def games(results):
    data = json.load(open(results))
    keys = ("id", "round", "x", "o", "result", "termination", "plies", "opening")
    return sorted((tuple(g[k] for k in keys) for g in data["games"]), key=lambda g: g[0])
def pgn_moves(path):
    text = open(path).read()
    out = []
    for game in re.split(r"\n\n(?=\[Event )", text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', game, re.M))
        body = re.sub(r"\{[^}]*\}", "", "\n".join(l for l in game.splitlines() if not l.startswith("[")))
        moves = [t for t in body.split() if not re.fullmatch(r"\d+\.+", t)]
        out.append((tags["Round"], tags["White"], tags["Black"], tags["FEN"], tags["Result"], moves))
    return sorted(out)
a_results, a_pgn, b_results, b_pgn = sys.argv[1:5]
ga, gb = games(a_results), games(b_results)
if ga != gb:
    sys.exit("results differ: %d against %d games; first difference: %s" % (
        len(ga), len(gb), next(((x, y) for x, y in zip(ga, gb) if x != y), "lengths")))
pa, pb = pgn_moves(a_pgn), pgn_moves(b_pgn)
if pa != pb:
    sys.exit("PGN games differ: %d against %d" % (len(pa), len(pb)))
print("same %d games" % len(ga))
EOF
}

step "1. one process against 4 shards"
mkdir -p "$work/single" "$work/sharded" "$work/sprt"
"$arena" "${tournament_options[@]}" --results "$work/single/r.json" --pgn "$work/single/g.pgn" \
  >"$work/single/out.txt" || fail "the single run exited $?"
start=$(date +%s.%N)
status=0
"$tournament" --shards 4 --wait --arena "$arena" -- "${tournament_options[@]}" \
  --results "$work/sharded/r.json" --pgn "$work/sharded/g.pgn" || status=$?
[ $status -eq 0 ] || fail "the sharded tournament exited $status"
echo "4 shards: $(python3 -c "print(round($(date +%s.%N) - $start, 1))") s"
same_games "$work/single/r.json" "$work/single/g.pgn" "$work/sharded/r.json" "$work/sharded/g.pgn" ||
  fail "the merged tournament is not the single run's"

step "2. a shard cancelled in the middle, then resumed"
# Shard 2 is cancelled once it has recorded a game, before its eighth and last. Should it win the
# race and finish first (a loaded machine), the step starts again in a new folder.
cancelled=""
for attempt in 1 2 3; do
  folder="$work/cancelled-$attempt"
  mkdir -p "$folder"
  submitted=$("$tournament" --shards 4 --arena "$arena" -- "${tournament_options[@]}" \
    --results "$folder/r.json" --pgn "$folder/g.pgn")
  array=$(sed -n 's/^array job //p' <<<"$submitted")
  merge=$(sed -n 's/^merge job //p' <<<"$submitted")
  if [ -z "$array" ] || [ -z "$merge" ]; then fail "no job ids in: $submitted"; fi
  played=0
  for ((i = 0; i < 1200; i++)); do
    # Its PGN: the results file is rewritten only every so many games (the journal has the rest).
    played=$(grep -c '^\[Event ' "$folder/g.shard-2-of-4.pgn" 2>/dev/null || true)
    played=${played:-0}
    [ "$played" -ge 1 ] && break
    sleep 0.05
  done
  [ "$played" -ge 1 ] || fail "shard 2 recorded no game in 60 s"
  scancel "${array}_2"
  while [ -n "$(squeue -h -j "$merge" -o %i 2>/dev/null)" ]; do sleep 0.5; done
  merge_status=$(cat "$folder/r.merge.status")
  if [ "$merge_status" -eq 0 ]; then
    echo "shard 2 finished before it was cancelled; again"
    continue
  fi
  [ "$merge_status" -eq 4 ] || fail "the merge without shard 2's games exited $merge_status, not 4"
  grep -q "shard 2/4 .* has played" "$folder/r.merge.out" ||
    fail "the merge did not say what shard 2 lacks: $(cat "$folder/r.merge.out")"
  cancelled=$folder
  break
done
[ -n "$cancelled" ] || fail "shard 2 could not be cancelled in the middle in 3 attempts"
status=0
"$tournament" --shards 4 --tasks 2 --wait --arena "$arena" -- "${tournament_options[@]}" \
  --results "$cancelled/r.json" --pgn "$cancelled/g.pgn" --resume || status=$?
[ $status -eq 0 ] || fail "the merge after resuming shard 2 exited $status"
same_games "$work/single/r.json" "$work/single/g.pgn" "$cancelled/r.json" "$cancelled/g.pgn" ||
  fail "the resumed tournament is not the single run's"

step "3. a 4-shard SPRT stops every shard"
status=0
"$tournament" --shards 4 --wait --arena "$arena" -- \
  --engine name=engine "cmd=$engine" --engine name=illegal "cmd=$mock" "args=--mode illegal" \
  --each tc=nodes=1000 option.Threads=1 --rounds 1000 --report-interval 0 \
  --sprt elo0=0 elo1=10 --results "$work/sprt/r.json" || status=$?
[ $status -eq 0 ] || fail "the SPRT's merge exited $status, not 0 (H1)"
python3 - "$work/sprt" <<'EOF' || fail "a shard did not stop on the decision"
import json, sys
total = 0
for i in range(1, 5):
    shard = json.load(open("%s/r.shard-%d-of-4.json" % (sys.argv[1], i)))
    games, share = shard["standings"]["games"], shard["standings"]["total_games"]
    print("shard %d: %s after %d of its %d games" % (i, shard["status"], games, share))
    assert shard["status"] == "H1 accepted", shard["status"]
    assert games < share
    total += games
merged = json.load(open(sys.argv[1] + "/r.json"))
assert merged["status"] == "H1 accepted" and merged["standings"]["games"] == total
print("merged: H1 after %d games, LLR %s" % (total, merged["standings"]["sprt"]["llr"]))
EOF

echo "slurm_tests: all passed"
