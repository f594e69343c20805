#!/usr/bin/env bash
# One quixo-arena tournament across a Slurm cluster: a job array of N shards, each one CPU, then a
# merge job that runs once every shard has ended (however it ended) and writes the merged results,
# PGN and report.
#
#   scripts/slurm/tournament.sh --shards N [--partition P] [--wait] [--tasks LIST]
#       [--shared-dir DIR] [--arena PATH] -- ARENA_OPTIONS...
#
#   scripts/slurm/tournament.sh --shards 4 --wait -- --config configs/sprt.ini \
#       --results runs/sprt.json --pgn runs/sprt.pgn
#   scripts/slurm/tournament.sh --shards 4 --tasks 3 -- ... --resume   # shard 3 again, resumed
#
# ARENA_OPTIONS must hold --results FILE (and may hold --pgn FILE); every shard gets the same ones
# plus --shard I/N and --shared-dir DIR, and writes FILE with .shard-I-of-N before its extension.
# Into the results file's folder go <stem>.sbatch (a shard's job script), <stem>.merge.sbatch,
# <stem>.shard-I.out (a shard's output), <stem>.merge.out (the merged report) and
# <stem>.merge.status (the merge's exit code), where <stem> is the results file's name without
# its extension. The jobs run in the current folder, so relative paths mean the same to them.
#
#   --shards N        shards in the tournament (the array is 1-N)
#   --tasks LIST      submit only these shards, as sbatch --array takes them (e.g. 3 or 1,3-4):
#                     for re-running shards that were cancelled or died; their .out files are
#                     appended to. The merge still reads all N shards' results.
#   --partition P     the partition of both jobs (default: the cluster's default one)
#   --shared-dir DIR  the folder that every shard sees, for SPRT stops (default: the results' one)
#   --arena PATH      the quixo-arena binary (default: build/release/bin/quixo-arena of this repo);
#                     on a real cluster it and the results folder must be on a shared filesystem
#   --wait            wait for the merge job, print its report and exit with its exit code:
#                     0 completed or SPRT H1, 1 H0, 2 error, 3 SPRT undecided, 4 games missing
#
# It prints `array job ID` and `merge job ID`. Slurm's clients find the cluster as usual, through
# SLURM_CONF; for the one-node cluster of scripts/slurm/local-cluster.sh:
#   eval "$(scripts/slurm/local-cluster.sh env)"
# Exit code without --wait: 0 when both jobs were submitted, 2 on a usage or submission error.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'
}

die_usage() {
  echo "tournament: $*" >&2
  echo "tournament: see $0 --help" >&2
  exit 2
}

die() {
  echo "tournament: $*" >&2
  exit 2
}

absolute() {
  case $1 in
    /*) echo "$1" ;;
    *) echo "$PWD/$1" ;;
  esac
}

shards=""
partition=""
wait=0
tasks=""
shared_dir=""
arena=""

# Takes an option's value, whether it came as `--opt VALUE` or `--opt=VALUE`.
need_value() {
  [ $# -ge 2 ] || die_usage "$1 needs a value"
}

while [ $# -gt 0 ]; do
  case $1 in
    --) shift; break ;;
    -h | --help) usage; exit 0 ;;
    --wait) wait=1; shift ;;
    --shards=* | --partition=* | --tasks=* | --shared-dir=* | --arena=*)
      set -- "${1%%=*}" "${1#*=}" "${@:2}"
      ;;
    --shards) need_value "$@"; shards=$2; shift 2 ;;
    --partition) need_value "$@"; partition=$2; shift 2 ;;
    --tasks) need_value "$@"; tasks=$2; shift 2 ;;
    --shared-dir) need_value "$@"; shared_dir=$2; shift 2 ;;
    --arena) need_value "$@"; arena=$2; shift 2 ;;
    *) die_usage "unknown option '$1' (the arena's options go after --)" ;;
  esac
done
arena_options=("$@")

[ -n "$shards" ] || die_usage "--shards N is required"
[[ $shards =~ ^[1-9][0-9]*$ ]] || die_usage "--shards wants a positive number, not '$shards'"
if [ -n "$tasks" ]; then
  [[ $tasks =~ ^[0-9][0-9,%:-]*$ ]] || die_usage "--tasks wants an array list like 3 or 1,3-4, not '$tasks'"
fi

# The arena's --results and --pgn, in either form; --shard and --shared-dir are this script's.
results=""
pgn=""
for ((i = 0; i < ${#arena_options[@]}; i++)); do
  option=${arena_options[i]}
  case $option in
    --results | --pgn)
      [ $((i + 1)) -lt ${#arena_options[@]} ] || die_usage "$option needs a value"
      value=${arena_options[i + 1]}
      ;;
    --results=* | --pgn=*) value=${option#*=} ;;
    --shard | --shard=* | --shared-dir | --shared-dir=*)
      die_usage "do not pass ${option%%=*} to the arena: this script sets it for each shard"
      ;;
    *) continue ;;
  esac
  [ -n "$value" ] || die_usage "${option%%=*} needs a value"
  case $option in
    --results*) results=$value ;;
    --pgn*) pgn=$value ;;
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

# The shards' results files, as the arena names them: .shard-I-of-N before the extension.
shard_results=()
for ((i = 1; i <= shards; i++)); do
  shard_results+=("$results_dir/$stem.shard-$i-of-$shards$extension")
done

# The job scripts, with every argument quoted for bash.
quote() {
  local word out=""
  for word in "$@"; do
    out+=" $(printf '%q' "$word")"
  done
  echo "${out# }"
}

shard_script="$base.sbatch"
merge_script="$base.merge.sbatch"
status_file="$base.merge.status"
merge_out="$base.merge.out"

{
  echo "#!/usr/bin/env bash"
  echo "# Written by scripts/slurm/tournament.sh: shard \$SLURM_ARRAY_TASK_ID of $shards of a quixo-arena"
  echo "# tournament, one task of a Slurm job array."
  echo "set -euo pipefail"
  echo "cd $(quote "$PWD")"
  echo "exec $(quote "$arena" "${arena_options[@]}") --shard \"\$SLURM_ARRAY_TASK_ID/$shards\" --shared-dir $(quote "$shared_dir")"
} >"$shard_script"

merge_command=("$arena" merge --results "$results")
[ -n "$pgn" ] && merge_command+=(--pgn "$pgn")
merge_command+=("${shard_results[@]}")
{
  echo "#!/usr/bin/env bash"
  echo "# Written by scripts/slurm/tournament.sh: merges the $shards shards of a quixo-arena tournament"
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

shard_output=(--output="$base.shard-%a.out")
[ -n "$tasks" ] && shard_output+=(--open-mode=append)
array_id=$(sbatch "${common[@]}" --array="${tasks:-1-$shards}" --job-name=quixo-arena \
  --ntasks=1 --cpus-per-task=1 "${shard_output[@]}" "$shard_script") ||
  die "sbatch of the shards failed"
array_id=${array_id%%;*}
echo "array job $array_id"

merge_id=$(sbatch "${common[@]}" --dependency="afterany:$array_id" --job-name=quixo-arena-merge \
  --ntasks=1 --cpus-per-task=1 --output="$merge_out" "$merge_script") ||
  die "sbatch of the merge failed (array job $array_id was submitted: scancel $array_id)"
merge_id=${merge_id%%;*}
echo "merge job $merge_id"

[ $wait -eq 1 ] || exit 0

echo "tournament: waiting for merge job $merge_id (shard outputs: $base.shard-*.out)" >&2
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
