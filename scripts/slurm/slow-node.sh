#!/usr/bin/env bash
# The wall time of one tournament on the one-node cluster of local-cluster.sh (started and stopped
# here) when one of its "nodes" is slower, played as M shards (every M-th game pair each, one task
# each) and as N chunks of which Slurm runs M at once; and what a chunk costs: the README's
# figures.
#
#   scripts/slurm/slow-node.sh [--rounds R] [--nodes M] [--chunks N] [--delay MS] [--nodes-per-move K]
#
# A "node" is one of M slots: every task takes a free one (an flock on a file) for as long as it
# runs, through a wrapper given to tournament.sh as --arena. The engines of the task in slot 1 sleep
# MS ms before each move (a filter in front of quixo-engine), as on a slower node; the others are
# quixo-engine itself. Each split is played with and without the slow slot. The tournament: the release
# quixo-engine with the learned evaluation against itself with the hand-written one, one thread
# each, K nodes a move, the default book. Wall time runs from submitting to the merged report, so
# it includes Slurm's scheduling and --wait's 2 s polling. The cost of a chunk is also measured
# without Slurm: an arena that plays no game (a chunk that owns no pair) starts and stops both
# engines once, and each engine's start (the handshake to readyok) is timed on its own.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
rounds=64
slots=4
chunks=32
delay=40
nodes=5000
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --nodes) slots=$2; shift 2 ;;
    --chunks) chunks=$2; shift 2 ;;
    --delay) delay=$2; shift 2 ;;
    --nodes-per-move) nodes=$2; shift 2 ;;
    *) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
done
# shellcheck source=../lib/private-cluster.sh
source "$root/scripts/lib/private-cluster.sh"
start_private_cluster slow-node

# The arena in a slot: the first free one, held (fd 9) until the arena ends. slots.log gets
# "slot task start end" for each task.
cat >"$work/arena-in-slot" <<EOF
#!/usr/bin/env bash
for slot in \$(seq 1 $slots); do
  exec 9>"$work/slot-\$slot.lock"
  if flock -n 9; then
    export QUIXO_SLOT=\$slot
    start=\$(date +%s.%N)
    status=0
    "$arena" "\$@" || status=\$?
    echo "\$slot \${SLURM_ARRAY_TASK_ID:-merge} \$start \$(date +%s.%N)" >>"$work/slots.log"
    exit \$status
  fi
  exec 9>&-
done
echo "arena-in-slot: no free slot of $slots" >&2
exit 2
EOF
# The engine: itself, but in slot 1 when QUIXO_SLOW_MS is set behind a filter that sleeps before
# passing on each go.
cat >"$work/engine-in-slot" <<EOF
#!/usr/bin/env bash
if [ "\${QUIXO_SLOT:-}" != 1 ] || [ "\${QUIXO_SLOW_MS:-0}" = 0 ]; then exec "$engine"; fi
exec python3 "$work/slow-filter"
EOF
cat >"$work/slow-filter" <<EOF
import os, subprocess, sys, time
slow = float(os.environ["QUIXO_SLOW_MS"]) / 1000
child = subprocess.Popen(["$engine"], stdin=subprocess.PIPE)
for line in sys.stdin:
    if line.startswith("go"):
        time.sleep(slow)
    child.stdin.write(line.encode())
    child.stdin.flush()
    if line.strip() == "quit":
        break
child.stdin.close()
child.wait()
EOF
chmod +x "$work/arena-in-slot" "$work/engine-in-slot"

games=$((2 * rounds))
options=(--engine name=learned "cmd=$work/engine-in-slot" --engine name=hand "cmd=$work/engine-in-slot"
  option.Evaluation=hand --each "tc=nodes=$nodes" option.Threads=1 option.Hash=16
  --rounds "$rounds" --openings "$root/configs/openings.txt" --report-interval 0 --concurrency 1)
echo "$games games at $nodes nodes a move, $slots slots, slot 1 ${delay} ms a move slower when slow;"
echo "$(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%Y-%m-%d %H:%M UTC')"

# play NAME SLOW_MS SPLIT...: one tournament through tournament.sh --wait.
play() {
  local name=$1 slow=$2
  shift 2
  mkdir -p "$work/$name"
  : >"$work/slots.log"
  local start end
  start=$(date +%s.%N)
  QUIXO_SLOW_MS=$slow "$root/scripts/slurm/tournament.sh" "$@" --wait --arena "$work/arena-in-slot" \
    -- "${options[@]}" --results "$work/$name/r.json" >"$work/$name/report.txt" 2>&1 ||
    { cat "$work/$name/report.txt"; exit 1; }
  end=$(date +%s.%N)
  python3 - "$name" "$start" "$end" "$work/$name/r.json" "$work/slots.log" <<'EOF'
import collections, json, statistics, sys
name, start, end = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
data = json.load(open(sys.argv[4]))
runs = collections.defaultdict(list)
for line in open(sys.argv[5]):
    slot, task, began, ended = line.split()
    if task != "merge":
        runs[slot].append((float(began), float(ended)))
# Slurm's part of a chunk: from one task's end to the next one's start in the same slot.
gaps = [b[0] - a[1] for slot in runs.values() for a, b in zip(sorted(slot), sorted(slot)[1:])]
tasks = [run for slot in runs.values() for run in slot]
print("%-26s %3d games in %6.1f s; tasks per slot %s; first task after %.1f s, last ended %.1f s "
      "before the end, a task ran %.1f s (median)%s" % (
    name, data["standings"]["games"], end - start,
    " ".join("%s:%d" % (slot, len(runs[slot])) for slot in sorted(runs)),
    min(t[0] for t in tasks) - start, end - max(t[1] for t in tasks),
    statistics.median(t[1] - t[0] for t in tasks),
    "; next task after %.2f s (median)" % statistics.median(gaps) if gaps else ""))
EOF
}

if [ -z "${QUIXO_SLOW_NODE_ONLY:-}" ]; then
  play "$slots shards, slot 1 slow" "$delay" --shards "$slots"
  play "$chunks chunks, slot 1 slow" "$delay" --chunks "$chunks" --at-once "$slots"
  play "$slots shards, all alike" 0 --shards "$slots"
fi
play "$chunks chunks, all alike" 0 --chunks "$chunks" --at-once "$slots"

# What a chunk costs without Slurm: the arena with no game to play (chunk 1 of more chunks than
# pairs), and one engine's start, 10 times each.
python3 - "$arena" "$engine" "$root/configs/openings.txt" "$work" <<'EOF'
import statistics, subprocess, sys, time
arena, engine, book, work = sys.argv[1:5]
def timed(run):
    times = []
    for _ in range(10):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000
def empty_chunk():
    subprocess.run([arena, "--engine", "name=a", "cmd=" + engine, "--engine", "name=b", "cmd=" + engine,
                    "--rounds", "4", "--chunk", "1/1000", "--openings", book, "--each", "tc=nodes=100",
                    "--results", work + "/empty.json", "--overwrite"],
                   check=True, stdout=subprocess.DEVNULL)
def engine_start():
    subprocess.run([engine], input=b"uqi\nisready\nquit\n", check=True, stdout=subprocess.DEVNULL)
print("an arena that plays no game: %.0f ms (median of 10); one engine's start to readyok: %.0f ms"
      % (timed(empty_chunk), timed(engine_start)))
EOF
