#!/usr/bin/env bash
# slurm_tests: the cluster path end to end, on a real one-node Slurm cluster started for the test
# by scripts/slurm/local-cluster.sh (its own folder and ports, so a cluster a developer runs is
# left alone) and stopped at the end, also when a check fails.
#
#   tests/slurm/slurm_tests.sh QUIXO_ARENA QUIXO_ENGINE QUIXO_MOCK_ENGINE QUIXO_TB TABLES_DIR
#
# 1. A tournament of two engines at fixed nodes and one thread (deterministic), played by one
#    process, and the same tournament as 4 shards, and as 12 chunks at most 4 at once, through
#    scripts/slurm/tournament.sh --wait: the merged results and PGN match the single run game by
#    game (openings, colours, moves, results); the chunks' merge reports in the --output style
#    given to the pieces (cutechess).
# 2. The same tournament as 8 chunks, 2 at once: chunk 1 requeued (scontrol requeue) after its
#    first game, chunk 8 cancelled before it started: Slurm runs chunk 1 again, which resumes
#    its games; the merge reports chunk 8 as not started (exit 4); chunk 8 submitted again with
#    --tasks completes the run, and the merged result is again the single run's.
# 3. A 16-chunk SPRT of the engine against one that plays illegal moves, 4 at once: the first
#    decision is recorded once; the chunks that run stop on it before their share is played,
#    those that start later play nothing, every chunk and the merge report that one decision and
#    its counts, and the merge exits 0 with H1.
# 4. A tuning run (quixo-arena tune, scripts/slurm/tune.sh) as a 2-task array, the mock's tunable
#    mode at nodes=1: both tasks end with 0, and each handed out pairs at iterations past its own
#    count, so each read the other's state file.
# 5. Endgame tables 0-1 generated as Slurm jobs (scripts/slurm/tables.sh: a job per component,
#    then a job per layer file): the files are byte for byte those of TABLES_DIR, which one
#    `quixo-tb generate` wrote on this machine (the ctest fixture tb_tables).
set -euo pipefail

if [ $# -ne 5 ]; then
  sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
arena=$1
engine=$2
mock=$3
tb=$4
tables=$5
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
# enough nodes that a chunk's four games take a second or two, so that one can be requeued in the
# middle (step 2 starts again should it finish first). At 50000 nodes this suite was the longest
# of CI's release preset (104 s beside the other suites); at 20000 it took 65 s alone.
tournament_options=(
  --engine name=learned "cmd=$engine" --engine name=hand "cmd=$engine" option.Evaluation=hand
  --each tc=nodes=20000 option.Threads=1 option.Hash=8
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

step "1. one process against 4 shards and 12 chunks"
mkdir -p "$work/single" "$work/sharded" "$work/chunked" "$work/sprt"
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
start=$(date +%s.%N)
status=0
"$tournament" --chunks 12 --at-once 4 --wait --arena "$arena" -- "${tournament_options[@]}" \
  --output cutechess --results "$work/chunked/r.json" --pgn "$work/chunked/g.pgn" || status=$?
[ $status -eq 0 ] || fail "the chunked tournament exited $status"
echo "12 chunks, 4 at once: $(python3 -c "print(round($(date +%s.%N) - $start, 1))") s"
same_games "$work/single/r.json" "$work/single/g.pgn" "$work/chunked/r.json" "$work/chunked/g.pgn" ||
  fail "the merged chunks are not the single run's"
grep -q '^Elo difference: ' "$work/chunked/r.merge.out" ||
  fail "the merge did not report in the --output style: $(cat "$work/chunked/r.merge.out")"

step "2. a chunk requeued in the middle, a chunk cancelled before it started"
# Chunk 1 is requeued once it has recorded a game, before its fourth and last. Should it win the
# race and finish first (a loaded machine), the step starts again in a new folder.
requeued=""
for attempt in 1 2 3; do
  folder="$work/requeued-$attempt"
  mkdir -p "$folder"
  submitted=$("$tournament" --chunks 8 --at-once 2 --arena "$arena" -- "${tournament_options[@]}" \
    --results "$folder/r.json" --pgn "$folder/g.pgn")
  array=$(sed -n 's/^array job //p' <<<"$submitted")
  merge=$(sed -n 's/^merge job //p' <<<"$submitted")
  if [ -z "$array" ] || [ -z "$merge" ]; then fail "no job ids in: $submitted"; fi
  # Chunk 8 waits behind the limit of 2: cancelled, it never starts.
  scancel "${array}_8"
  played=0
  for ((i = 0; i < 1200; i++)); do
    # Its PGN: the results file is rewritten only every so many games (the journal has the rest).
    played=$(grep -c '^\[Event ' "$folder/g.chunk-1-of-8.pgn" 2>/dev/null || true)
    played=${played:-0}
    [ "$played" -ge 1 ] && break
    sleep 0.05
  done
  [ "$played" -ge 1 ] || fail "chunk 1 recorded no game in 60 s"
  if ! scontrol requeue "${array}_1" 2>/dev/null; then
    echo "chunk 1 finished before it was requeued; again"
    scancel "$array" "$merge"
    continue
  fi
  # Slurm holds a requeued job back for about two minutes (its begin time); the test does not
  # wait that long: once the task is pending again, it may begin now.
  for ((i = 0; i < 200; i++)); do
    [ "$(squeue -h -j "${array}_1" -o %r 2>/dev/null)" = BeginTime ] &&
      scontrol update JobId="${array}_1" StartTime=now && break
    sleep 0.1
  done
  while [ -n "$(squeue -h -j "$merge" -o %i 2>/dev/null)" ]; do sleep 0.5; done
  merge_status=$(cat "$folder/r.merge.status")
  [ "$merge_status" -eq 4 ] || fail "the merge without chunk 8 exited $merge_status, not 4"
  grep -q "chunk 8/8 (.*) has not started (no results file): its 4 games are missing" \
    "$folder/r.merge.out" || fail "the merge did not name chunk 8: $(cat "$folder/r.merge.out")"
  # Chunk 1 was played again by Slurm, and resumed: only chunk 8 is missing.
  if grep -q "has played" "$folder/r.merge.out"; then
    fail "a requeued chunk lacks games: $(cat "$folder/r.merge.out")"
  fi
  python3 - "$folder/r.chunk-1-of-8.json" <<'EOF' || fail "chunk 1 was not resumed after its requeue"
import json, sys
chunk = json.load(open(sys.argv[1]))
assert chunk["status"] == "completed" and chunk["standings"]["games"] == 4, chunk["status"]
EOF
  requeued=$folder
  break
done
[ -n "$requeued" ] || fail "chunk 1 could not be requeued in the middle in 3 attempts"
status=0
"$tournament" --chunks 8 --tasks 8 --wait --arena "$arena" -- "${tournament_options[@]}" \
  --results "$requeued/r.json" --pgn "$requeued/g.pgn" --resume || status=$?
[ $status -eq 0 ] || fail "the merge after submitting chunk 8 again exited $status"
same_games "$work/single/r.json" "$work/single/g.pgn" "$requeued/r.json" "$requeued/g.pgn" ||
  fail "the completed tournament is not the single run's"

step "3. a 16-chunk SPRT stops every chunk on one decision"
status=0
"$tournament" --chunks 16 --at-once 4 --wait --arena "$arena" -- \
  --engine name=engine "cmd=$engine" option.Threads=1 --engine name=illegal "cmd=$mock" "args=--mode illegal" \
  --each tc=nodes=1000 --rounds 1000 --report-interval 0 \
  --sprt elo0=0 elo1=10 --results "$work/sprt/r.json" || status=$?
[ $status -eq 0 ] || fail "the SPRT's merge exited $status, not 0 (H1)"
python3 - "$work/sprt" <<'EOF' || fail "a chunk did not stop on the decision"
import json, sys
total, decisions = 0, set()
for i in range(1, 17):
    chunk = json.load(open("%s/r.chunk-%d-of-16.json" % (sys.argv[1], i)))
    games, share = chunk["standings"]["games"], chunk["standings"]["total_games"]
    decision = chunk["standings"]["sprt"]["shared_decision"]
    print("chunk %d: %s after %d of its %d games; %s by %s" % (
        i, chunk["status"], games, share, decision["decision"], decision["by"]))
    assert chunk["status"] == "H1 accepted", chunk["status"]
    assert games < share
    decisions.add(json.dumps(decision, sort_keys=True))
    total += games
assert len(decisions) == 1, decisions
merged = json.load(open(sys.argv[1] + "/r.json"))
assert merged["status"] == "H1 accepted" and merged["standings"]["games"] == total
assert json.dumps(merged["standings"]["sprt"]["shared_decision"], sort_keys=True) in decisions
print("merged: H1 after %d games, LLR %s" % (total, merged["standings"]["sprt"]["llr"]))
EOF

step "4. a tuning run of 2 shards shares one theta"
tune_run="$root/scripts/slurm/tune.sh"
mkdir -p "$work/tune"
status=0
"$tune_run" --shards 2 --wait --arena "$arena" -- --engine "cmd=$mock" "args=--mode tunable" \
  --tc nodes=1 --param TuneA=100,0,200,10,0.025 --param TuneB=100,0,200,10,0.025 \
  --iterations 120 --report-interval 0 --state "$work/tune/t.jsonl" >"$work/tune/out.txt" ||
  status=$?
cat "$work/tune/out.txt"
[ $status -eq 0 ] || fail "the tuning run's tasks did not all end with 0"
python3 - "$work/tune" <<'EOF' || fail "the shards did not share their reports"
import re, sys
total = sum(len(open("%s/t.shard-%d-of-2.jsonl" % (sys.argv[1], i)).read().splitlines()) - 1
            for i in (1, 2))
# Without sharing each shard would play all 120 pairs; with it, at most one pair in flight each
# beyond them.
assert 120 <= total <= 124, total
# Each shard's summary: "Finished after N of 120 game pairs (M played now)". A shard that read the
# other's reports counts them in N. Which shard does depends on when Slurm starts each task: the
# first may hand out its last pair before the second starts (one such run: 120 of 120 with 120
# played, then 121 of 120 with 1), but the second then counts the first's.
summaries = re.findall(r"Finished after (\d+) of 120 game pairs \((\d+) played now\)",
                       open("%s/out.txt" % sys.argv[1]).read())
assert len(summaries) == 2, summaries
assert any(int(seen) > int(played) for seen, played in summaries), summaries
print("the 2 shards played %d pairs; their summaries (seen, played): %s" % (total, summaries))
EOF

step "5. endgame tables 0-1 as a job per component and per layer"
status=0
"$root/scripts/slurm/tables.sh" --blanks 1 --dir "$work/tables" --tb "$tb" --wait \
  >"$work/tables.txt" || status=$?
tail -n 3 "$work/tables.txt"
[ $status -eq 0 ] || fail "the tables' jobs did not end with 0"
for layer in 0 1; do
  grep -q "^layer $layer {.*: solved" "$work/tables/slurm/layer-$layer.component-0.out" ||
    fail "layer $layer's first component was not solved by its own job"
  cmp "$work/tables/quixo-b$layer.qtb" "$tables/quixo-b$layer.qtb" ||
    fail "layer $layer from the cluster differs from the one-machine file"
done
[ ! -e "$work/tables/quixo-b1.parts" ] || fail "layer 1's part files were left behind"
echo "layers 0 and 1 from $(ls "$work/tables/slurm/"*.component-*.out | wc -l) component jobs:" \
  "the same files as one run's"

echo "slurm_tests: all passed"
