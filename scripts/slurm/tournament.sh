#!/usr/bin/env bash
# One quixo-arena tournament across a Slurm cluster: a job array of pieces of the tournament, each
# one CPU, then a merge job that runs once every piece has ended (however it ended) and writes the
# merged results, PGN and report.
#
#   scripts/slurm/tournament.sh (--chunks N [--at-once M] | --shards N) [--partition P] [--wait]
#       [--tasks LIST] [--shared-dir DIR] [--arena PATH] -- ARENA_OPTIONS...
#
#   scripts/slurm/tournament.sh --chunks 64 --at-once 4 --wait -- --config configs/sprt.ini \
#       --results runs/sprt.json --pgn runs/sprt.pgn
#   scripts/slurm/tournament.sh --chunks 64 --tasks 3 -- ... --resume   # chunk 3 again, resumed
#
# Chunks let Slurm hand out the work: the tournament's game pairs are cut into N contiguous
# chunks (--chunk I/N), many more than the nodes, and the array runs at most M of them at once, so
# a free node takes the next chunk (a slow node plays fewer), and a task that fails with its node
# is requeued by Slurm (--requeue) and resumes its chunk. Shards (--shard I/N, every N-th pair,
# one task each) are the older way: the slowest shard sets the wall time.
#
# ARENA_OPTIONS must hold --results FILE (and may hold --pgn FILE and --output STYLE, which the
# merge's report uses too); every piece gets the same ones plus --chunk I/N (or --shard I/N),
# --shared-dir DIR and --run-id ID, and writes FILE with .chunk-I-of-N (.shard-I-of-N) before its
# extension. Into the results file's folder go <stem>.sbatch (a piece's job script),
# <stem>.merge.sbatch, <stem>.run-id (the run's id), <stem>.chunk-I.out or <stem>.shard-I.out (a
# piece's output), <stem>.merge.out (the merged report) and <stem>.merge.status (the merge's exit
# code), where <stem> is the results file's name without its extension. The jobs run in the
# current folder, so relative paths mean the same to them.
#
#   --chunks N        chunks in the tournament (the array is 1-N); pick many more than nodes
#   --at-once M       run at most M chunks (or shards) at once (sbatch --array=...%M): the CPUs
#                     to use; default: as many as Slurm gives
#   --shards N        shards instead of chunks: N tasks, shard I plays every N-th game pair
#   --tasks LIST      submit only these pieces, as sbatch --array takes them (e.g. 3 or 1,3-4):
#                     for re-running pieces that were cancelled or died; they keep the run's id
#                     (from <stem>.run-id) and their .out files are appended to. The merge still
#                     reads all N pieces' results.
#   --partition P     the partition of both jobs (default: the cluster's default one)
#   --shared-dir DIR  the folder that every piece sees, for SPRT stops (default: the results' one)
#   --arena PATH      the quixo-arena binary (default: build/release/bin/quixo-arena of this repo);
#                     on a real cluster it and the results folder must be on a shared filesystem
#   --wait            wait for the merge job, print its report and exit with its exit code:
#                     0 completed or SPRT H1, 1 H0, 2 error, 3 SPRT undecided, 4 games missing
#
# It prints `run ID`, `array job ID` and `merge job ID`. Slurm's clients find the cluster as
# usual, through SLURM_CONF; for the one-node cluster of scripts/slurm/local-cluster.sh:
#   eval "$(scripts/slurm/local-cluster.sh env)"
# Exit code without --wait: 0 when both jobs were submitted, 2 on a usage or submission error.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SCRIPT_NAME=tournament
SCRIPT_FILE="${BASH_SOURCE[0]}"
# shellcheck source=lib.sh
. "$ROOT/scripts/slurm/lib.sh"

shards=""
chunks=""
at_once=""
partition=""
wait=0
tasks=""
shared_dir=""
arena=""

# Takes an option's value, whether it came as `--opt VALUE` or `--opt=VALUE`.

while [ $# -gt 0 ]; do
  case $1 in
    --) shift; break ;;
    -h | --help) usage; exit 0 ;;
    --wait) wait=1; shift ;;
    --shards=* | --chunks=* | --at-once=* | --partition=* | --tasks=* | --shared-dir=* | --arena=*)
      set -- "${1%%=*}" "${1#*=}" "${@:2}"
      ;;
    --shards) need_value "$@"; shards=$2; shift 2 ;;
    --chunks) need_value "$@"; chunks=$2; shift 2 ;;
    --at-once) need_value "$@"; at_once=$2; shift 2 ;;
    --partition) need_value "$@"; partition=$2; shift 2 ;;
    --tasks) need_value "$@"; tasks=$2; shift 2 ;;
    --shared-dir) need_value "$@"; shared_dir=$2; shift 2 ;;
    --arena) need_value "$@"; arena=$2; shift 2 ;;
    *) die_usage "unknown option '$1' (the arena's options go after --)" ;;
  esac
done
arena_options=("$@")

[ -z "$shards" ] || [ -z "$chunks" ] || die_usage "give --chunks N or --shards N, not both"
if [ -n "$chunks" ]; then
  kind=chunk
  pieces=$chunks
else
  kind=shard
  pieces=$shards
fi
[ -n "$pieces" ] || die_usage "--chunks N (or --shards N) is required"
[[ $pieces =~ ^[1-9][0-9]*$ ]] || die_usage "--${kind}s wants a positive number, not '$pieces'"
if [ -n "$at_once" ]; then
  [[ $at_once =~ ^[1-9][0-9]*$ ]] || die_usage "--at-once wants a positive number, not '$at_once'"
fi
if [ -n "$tasks" ]; then
  [[ $tasks =~ ^[0-9][0-9,%:-]*$ ]] || die_usage "--tasks wants an array list like 3 or 1,3-4, not '$tasks'"
fi

# The arena's --results, --pgn and --output, in either form, and whether it resumes; --shard,
# --chunk, --shared-dir and --run-id are this script's.
results=""
pgn=""
output=""
resume=0
for ((i = 0; i < ${#arena_options[@]}; i++)); do
  option=${arena_options[i]}
  case $option in
    --results | --pgn | --output)
      [ $((i + 1)) -lt ${#arena_options[@]} ] || die_usage "$option needs a value"
      value=${arena_options[i + 1]}
      ;;
    --results=* | --pgn=* | --output=*) value=${option#*=} ;;
    --resume) resume=1; continue ;;
    --shard | --shard=* | --chunk | --chunk=* | --shared-dir | --shared-dir=* | --run-id | --run-id=*)
      die_usage "do not pass ${option%%=*} to the arena: this script sets it for each piece"
      ;;
    *) continue ;;
  esac
  [ -n "$value" ] || die_usage "${option%%=*} needs a value"
  case $option in
    --results*) results=$value ;;
    --pgn*) pgn=$value ;;
    --output*) output=$value ;;
  esac
done
[ -n "$results" ] || die_usage "the arena's options must include --results FILE (after --)"

results_abs=$(absolute "$results")
results_dir=$(dirname "$results_abs")
[ -d "$results_dir" ] || die "the results folder $results_dir does not exist"
results_name=$(basename "$results_abs")
if [[ $results_name == ?*.* ]]; then
  stem=${results_name%.*}
  extension=.${results_name##*.}
else
  stem=$results_name
  extension=""
fi
base="$results_dir/$stem"

shared_dir=$(absolute "${shared_dir:-$results_dir}")
[ -d "$shared_dir" ] || die "the shared folder $shared_dir does not exist"

arena=$(absolute "${arena:-$ROOT/build/release/bin/quixo-arena}")
[ -x "$arena" ] || die "no quixo-arena at $arena (build the release preset, or pass --arena PATH)"

command -v sbatch >/dev/null || die "sbatch not found: install slurm-client (scripts/install-deps.sh)"

# The pieces' results files, as the arena names them: .chunk-I-of-N before the extension.
shard_results=()
for ((i = 1; i <= pieces; i++)); do
  shard_results+=("$results_dir/$stem.$kind-$i-of-$pieces$extension")
done

# The run's id, which every piece gets: a new one for a new submission, the earlier one's for
# --tasks (pieces of that run submitted again).
run_id_file="$base.run-id"
if [ -n "$tasks" ]; then
  [ -s "$run_id_file" ] || die "--tasks submits pieces of an earlier run, but $run_id_file (its id) is not there"
  run_id=$(tr -dc 'A-Za-z0-9._-' <"$run_id_file")
else
  run_id=$(date -u +%Y%m%d-%H%M%S)-$(od -An -N4 -tx4 /dev/urandom | tr -dc '0-9a-f')
  echo "$run_id" >"$run_id_file"
fi

# The job scripts, with every argument quoted for bash.

shard_script="$base.sbatch"
merge_script="$base.merge.sbatch"
status_file="$base.merge.status"
merge_out="$base.merge.out"

{
  echo "#!/usr/bin/env bash"
  echo "# Written by scripts/slurm/tournament.sh: $kind \$SLURM_ARRAY_TASK_ID of $pieces of a quixo-arena"
  echo "# tournament (run $run_id), one task of a Slurm job array."
  echo "set -euo pipefail"
  echo "cd $(quote "$PWD")"
  echo "# A task that Slurm requeued (its node failed, or scontrol requeue) resumes its $kind."
  echo "resume=()"
  if [ $resume -eq 0 ]; then
    echo "if [ \"\${SLURM_RESTART_COUNT:-0}\" -gt 0 ]; then resume=(--resume); fi"
  fi
  echo "exec $(quote "$arena" "${arena_options[@]}") --$kind \"\$SLURM_ARRAY_TASK_ID/$pieces\" --shared-dir $(quote "$shared_dir") --run-id $(quote "$run_id") \"\${resume[@]}\""
} >"$shard_script"

merge_command=("$arena" merge --results "$results")
[ -n "$pgn" ] && merge_command+=(--pgn "$pgn")
[ -n "$output" ] && merge_command+=(--output "$output")
merge_command+=("${shard_results[@]}")
{
  echo "#!/usr/bin/env bash"
  echo "# Written by scripts/slurm/tournament.sh: merges the $pieces ${kind}s of a quixo-arena tournament"
  echo "# and keeps the merge's exit code in $(basename "$status_file")."
  echo "set -uo pipefail"
  echo "cd $(quote "$PWD")"
  echo "status=0"
  echo "$(quote "${merge_command[@]}") || status=\$?"
  echo "echo \"\$status\" >$(quote "$status_file.tmp") && mv $(quote "$status_file.tmp" "$status_file")"
  echo "exit \"\$status\""
} >"$merge_script"
chmod +x "$shard_script" "$merge_script"
rm -f "$status_file"

common=(--parsable --chdir="$PWD")
[ -n "$partition" ] && common+=(--partition="$partition")

shard_output=(--output="$base.$kind-%a.out")
[ -n "$tasks" ] && shard_output+=(--open-mode=append)
array=${tasks:-1-$pieces}
[ -n "$at_once" ] && array+="%$at_once"
echo "run $run_id"
array_id=$(sbatch "${common[@]}" --array="$array" --requeue --job-name=quixo-arena \
  --ntasks=1 --cpus-per-task=1 "${shard_output[@]}" "$shard_script") ||
  die "sbatch of the ${kind}s failed"
array_id=${array_id%%;*}
echo "array job $array_id"

merge_id=$(sbatch "${common[@]}" --dependency="afterany:$array_id" --job-name=quixo-arena-merge \
  --ntasks=1 --cpus-per-task=1 --output="$merge_out" "$merge_script") ||
  die "sbatch of the merge failed (array job $array_id was submitted: scancel $array_id)"
merge_id=${merge_id%%;*}
echo "merge job $merge_id"

[ $wait -eq 1 ] || exit 0

echo "tournament: waiting for merge job $merge_id (outputs: $base.$kind-*.out)" >&2
while [ -n "$(squeue -h -j "$merge_id" -o '%i' 2>/dev/null)" ]; do
  sleep 2
done
# The status file may take a moment to show on a shared filesystem.
for ((i = 0; i < 10; i++)); do
  [ -s "$status_file" ] && break
  sleep 1
done
[ -f "$merge_out" ] && cat "$merge_out"
if [ ! -s "$status_file" ]; then
  state=$(scontrol show job "$merge_id" 2>/dev/null | grep -o 'JobState=[A-Z_]*' || true)
  die "merge job $merge_id ended without an exit code in $status_file (${state:-its state is no longer known})"
fi
status=$(tr -dc '0-9' <"$status_file")
exit "${status:-2}"
