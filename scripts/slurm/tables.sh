#!/usr/bin/env bash
# Endgame tables generated across a Slurm cluster: for each layer, a job array with one task per
# component of the layer (`quixo-tb generate --component X,O`), then a job that writes the layer's
# file from the components' part files once they have all ended well; each layer's array waits for
# the layer below's file.
#
#   scripts/slurm/tables.sh --blanks K --dir DIR [--from L] [--threads T] [--at-once M]
#       [--partition P] [--tb PATH] [--wait]
#
#   scripts/slurm/tables.sh --blanks 4 --dir /shared/tb --threads 8 --wait
#
# A layer's components are independent once the layer below is there: in-layer moves keep both
# cube counts, and a component {x, o} reads only its own slots and two sections of the layer below
# (engine/tb/gen/generator.hpp). A component's task writes its part files when it has solved it;
# a task that Slurm requeues (its node failed) solves its component again, the others stay done,
# and so does a run that is submitted again: every layer file and part file that is already there
# is kept. The files are the same, byte for byte, as one `quixo-tb generate` on one machine.
#
# Into DIR/slurm/ go layer-K.component.sbatch and layer-K.layer.sbatch (the jobs' scripts),
# layer-K.component-X.out (the task of component {X, cubes - X}) and layer-K.layer.out. The jobs
# run in the current folder; on a real cluster DIR and quixo-tb must be on a shared filesystem.
#
#   --blanks K     the highest layer to generate
#   --dir DIR      the tables' folder
#   --from L       the first layer to submit (default: the lowest one whose file is not in DIR)
#   --threads T    CPUs of each job (quixo-tb --threads; default 1)
#   --at-once M    run at most M components of a layer at once (sbatch --array=...%M)
#   --partition P  the partition of every job (default: the cluster's default one)
#   --tb PATH      the quixo-tb binary (default: build/release/bin/quixo-tb of this repo)
#   --wait         wait for the last layer's job and exit with its exit code (0: every layer
#                  written); a job that fails cancels the jobs that wait on it
#
# It prints `layer K: array job ID (N components), layer job ID` for each layer. Slurm's clients
# find the cluster through SLURM_CONF; for the one-node cluster of
# scripts/slurm/local-cluster.sh: eval "$(scripts/slurm/local-cluster.sh env)".
# Exit code without --wait: 0 when every job was submitted, 2 on a usage or submission error.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SCRIPT_NAME=tables
SCRIPT_FILE="${BASH_SOURCE[0]}"
# shellcheck source=lib.sh
. "$ROOT/scripts/slurm/lib.sh"

blanks=""
dir=""
from=""
threads=1
at_once=""
partition=""
tb=""
wait=0
while [ $# -gt 0 ]; do
  case $1 in
    -h | --help) usage; exit 0 ;;
    --wait) wait=1; shift ;;
    --blanks=* | --dir=* | --from=* | --threads=* | --at-once=* | --partition=* | --tb=*)
      set -- "${1%%=*}" "${1#*=}" "${@:2}"
      ;;
    --blanks) need_value "$@"; blanks=$2; shift 2 ;;
    --dir) need_value "$@"; dir=$2; shift 2 ;;
    --from) need_value "$@"; from=$2; shift 2 ;;
    --threads) need_value "$@"; threads=$2; shift 2 ;;
    --at-once) need_value "$@"; at_once=$2; shift 2 ;;
    --partition) need_value "$@"; partition=$2; shift 2 ;;
    --tb) need_value "$@"; tb=$2; shift 2 ;;
    *) die_usage "unknown option '$1'" ;;
  esac
done

[ -n "$blanks" ] || die_usage "--blanks K is required"
[[ $blanks =~ ^[0-6]$ ]] || die_usage "--blanks wants a layer 0..6, not '$blanks'"
[ -n "$dir" ] || die_usage "--dir DIR is required"
[[ $threads =~ ^[1-9][0-9]*$ ]] || die_usage "--threads wants a positive number, not '$threads'"
if [ -n "$at_once" ]; then
  [[ $at_once =~ ^[1-9][0-9]*$ ]] || die_usage "--at-once wants a positive number, not '$at_once'"
fi
dir=$(absolute "$dir")
mkdir -p "$dir/slurm" || die "cannot create $dir/slurm"
if [ -z "$from" ]; then
  from=0
  while [ "$from" -le "$blanks" ] && [ -f "$dir/quixo-b$from.qtb" ]; do from=$((from + 1)); done
  if [ "$from" -gt "$blanks" ]; then
    echo "every layer 0..$blanks is already in $dir"
    exit 0
  fi
fi
[[ $from =~ ^[0-6]$ ]] && [ "$from" -le "$blanks" ] ||
  die_usage "--from wants a layer 0..$blanks, not '$from'"
for ((k = 0; k < from; k++)); do
  [ -f "$dir/quixo-b$k.qtb" ] || die "--from $from: layer $k is not in $dir"
done

tb=$(absolute "${tb:-$ROOT/build/release/bin/quixo-tb}")
[ -x "$tb" ] || die "no quixo-tb at $tb (build the release preset, or pass --tb PATH)"
command -v sbatch >/dev/null || die "sbatch not found: install slurm-client (scripts/install-deps.sh)"

common=(--parsable --ntasks=1 "--cpus-per-task=$threads" --kill-on-invalid-dep=yes)
[ -z "$partition" ] || common+=("--partition=$partition")

# Writes a job script that runs `quixo-tb generate` with the given arguments, then SUFFIX as it
# is (shell words the job expands itself).
job_script() {
  local path=$1 what=$2 suffix=$3
  shift 3
  {
    echo "#!/usr/bin/env bash"
    echo "# Written by scripts/slurm/tables.sh: $what."
    echo "set -euo pipefail"
    echo "cd $(quote "$PWD")"
    echo "exec $(quote "$tb" generate "$@")$suffix"
  } >"$path"
  chmod +x "$path"
}

previous=""
for ((k = from; k <= blanks; k++)); do
  cubes=$((25 - k))
  last=$((cubes / 2))
  base="$dir/slurm/layer-$k"
  job_script "$base.component.sbatch" "one component of layer $k, {X, $cubes - X} for task X" \
    " --component \"\$SLURM_ARRAY_TASK_ID,\$(($cubes - SLURM_ARRAY_TASK_ID))\"" \
    --blanks "$k" --dir "$dir" --threads "$threads"
  job_script "$base.layer.sbatch" "layer $k's file from its components' part files" "" \
    --blanks "$k" --dir "$dir" --threads "$threads"

  array="0-$last"
  [ -z "$at_once" ] || array+="%$at_once"
  dependency=()
  [ -z "$previous" ] || dependency=("--dependency=afterok:$previous")
  components=$(sbatch "${common[@]}" "${dependency[@]}" --job-name="quixo-tb-$k" --requeue \
    "--array=$array" "--output=$base.component-%a.out" "$base.component.sbatch") ||
    die "sbatch refused layer $k's components"
  components=${components%%;*}
  layer_options=("${common[@]}" "--dependency=afterok:$components" --job-name="quixo-tb-$k-file"
    --requeue "--output=$base.layer.out")
  if [ "$k" -eq "$blanks" ] && [ $wait -eq 1 ]; then
    echo "layer $k: array job $components ($((last + 1)) components), layer job (waited for)"
    status=0
    sbatch "${layer_options[@]}" --wait "$base.layer.sbatch" >/dev/null || status=$?
    for ((j = from; j <= blanks; j++)); do
      echo "== layer $j"
      cat "$dir/slurm/layer-$j.layer.out" 2>/dev/null || echo "(the layer's job did not run)"
    done
    exit $status
  fi
  previous=$(sbatch "${layer_options[@]}" "$base.layer.sbatch") ||
    die "sbatch refused layer $k's file job"
  previous=${previous%%;*}
  echo "layer $k: array job $components ($((last + 1)) components), layer job $previous"
done
