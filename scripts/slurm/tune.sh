#!/usr/bin/env bash
# One `quixo-arena tune` run across a Slurm cluster: a job array of N shards (--shard I/N), each
# one CPU, that tune one theta together through their state files on a folder they all see.
#
#   scripts/slurm/tune.sh --shards N [--at-once M] [--partition P] [--wait] [--arena PATH] \
#       -- TUNE_OPTIONS...
#
#   scripts/slurm/tune.sh --shards 16 --wait -- --engine cmd=build/release/bin/quixo-engine \
#       args=--tune --tc 10+0.1 --openings configs/openings.txt --openings-order random \
#       --param AspirationDelta=20,5,100,4 --iterations 20000 --state runs/tune.jsonl
#
# TUNE_OPTIONS must hold --state FILE; shard I appends to FILE.shard-I-of-N.EXT and, before every
# game pair, reads every shard's file, so all shards play around the theta of all results in so
# far (arena/tune.hpp). A task that Slurm requeues (its node failed) starts again with the same
# command and resumes from its state file. Into the state file's folder go <stem>.tune.sbatch (a
# task's job script) and <stem>.shard-I.out (a task's output, its last lines the theta it saw
# at its end: the shard that ended last saw every pair). The jobs run in the current folder, so
# relative paths mean the same to them; on a real cluster the arena, the engine and the state
# folder must be on a shared filesystem.
#
#   --shards N        tasks in the array
#   --at-once M       run at most M tasks at once (sbatch --array=...%M); default: as Slurm gives
#   --partition P     the partition (default: the cluster's default one)
#   --arena PATH      the quixo-arena binary (default: build/release/bin/quixo-arena of this repo)
#   --wait            wait for every task, print each one's last lines, and exit 0 when every
#                     task ended with exit code 0 (the run complete), else 1
#
# It prints `array job ID`. Slurm's clients find the cluster through SLURM_CONF; for the one-node
# cluster of scripts/slurm/local-cluster.sh: eval "$(scripts/slurm/local-cluster.sh env)".
# Exit code without --wait: 0 when the array was submitted, 2 on a usage or submission error.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SCRIPT_NAME=tune
SCRIPT_FILE="${BASH_SOURCE[0]}"
# shellcheck source=lib.sh
. "$ROOT/scripts/slurm/lib.sh"

shards=""
at_once=""
partition=""
wait=0
arena=""
while [ $# -gt 0 ]; do
  case $1 in
    --) shift; break ;;
    -h | --help) usage; exit 0 ;;
    --wait) wait=1; shift ;;
    --shards=* | --at-once=* | --partition=* | --arena=*)
      set -- "${1%%=*}" "${1#*=}" "${@:2}"
      ;;
    --shards) need_value "$@"; shards=$2; shift 2 ;;
    --at-once) need_value "$@"; at_once=$2; shift 2 ;;
    --partition) need_value "$@"; partition=$2; shift 2 ;;
    --arena) need_value "$@"; arena=$2; shift 2 ;;
    *) die_usage "unknown option '$1' (the tuning run's options go after --)" ;;
  esac
done
tune_options=("$@")

[ -n "$shards" ] || die_usage "--shards N is required"
[[ $shards =~ ^[1-9][0-9]*$ ]] || die_usage "--shards wants a positive number, not '$shards'"
if [ -n "$at_once" ]; then
  [[ $at_once =~ ^[1-9][0-9]*$ ]] || die_usage "--at-once wants a positive number, not '$at_once'"
fi

state=""
for ((i = 0; i < ${#tune_options[@]}; i++)); do
  option=${tune_options[i]}
  case $option in
    --state)
      [ $((i + 1)) -lt ${#tune_options[@]} ] || die_usage "--state needs a value"
      state=${tune_options[i + 1]}
      ;;
    --state=*) state=${option#*=} ;;
    --shard | --shard=* | --chunk | --chunk=*)
      die_usage "do not pass ${option%%=*}: this script gives each task its --shard"
      ;;
  esac
done
[ -n "$state" ] || die_usage "the tuning run's options must include --state FILE (after --)"

state_abs=$(absolute "$state")
state_dir=$(dirname "$state_abs")
[ -d "$state_dir" ] || die "the state folder $state_dir does not exist"
state_name=$(basename "$state_abs")
stem=${state_name%.*}
base="$state_dir/$stem"

arena=$(absolute "${arena:-$ROOT/build/release/bin/quixo-arena}")
[ -x "$arena" ] || die "no quixo-arena at $arena (build the release preset, or pass --arena PATH)"
command -v sbatch >/dev/null || die "sbatch not found: install slurm-client (scripts/install-deps.sh)"

script="$base.tune.sbatch"
{
  echo "#!/usr/bin/env bash"
  echo "# Written by scripts/slurm/tune.sh: shard \$SLURM_ARRAY_TASK_ID of $shards of a quixo-arena"
  echo "# tuning run, one task of a Slurm job array. A requeued task resumes from its state file."
  echo "set -euo pipefail"
  echo "cd $(quote "$PWD")"
  echo "exec $(quote "$arena" tune "${tune_options[@]}") --shard \"\$SLURM_ARRAY_TASK_ID/$shards\""
} >"$script"
chmod +x "$script"

array="1-$shards"
[ -z "$at_once" ] || array+="%$at_once"
sbatch_options=(--parsable --job-name=quixo-tune --ntasks=1 --cpus-per-task=1 --requeue
  "--array=$array" "--output=$base.shard-%a.out" "--open-mode=append")
[ -z "$partition" ] || sbatch_options+=("--partition=$partition")
[ $wait -eq 0 ] || sbatch_options+=(--wait)

if [ $wait -eq 0 ]; then
  job=$(sbatch "${sbatch_options[@]}" "$script") || die "sbatch refused the job array"
  echo "array job ${job%%;*}"
  exit 0
fi
# --wait: sbatch returns when every task has ended, with the highest exit code among them.
status=0
sbatch "${sbatch_options[@]}" "$script" >"$base.tune.job" || status=$?
echo "array job $(cut -d';' -f1 <"$base.tune.job")"
for ((i = 1; i <= shards; i++)); do
  echo "== shard $i/$shards"
  # From the task's last summary (a requeued task appends a second run's output) to the end.
  awk '/^(Finished|Interrupted) after/ { text = "" } { text = text $0 "\n" } END { printf "%s", text }' \
    "$base.shard-$i.out" 2>/dev/null || echo "(no output)"
done
[ $status -eq 0 ] || exit 1
