# Sourced by the measuring scripts of scripts/slurm (throughput.sh, slow-node.sh): a one-node
# cluster of their own, local-cluster.sh's with its own folder and ports (so a cluster a developer
# runs is left alone), in a new work folder; both go when the script exits.
#   start_private_cluster NAME    sets $engine and $arena (the release build's, which must be
#                                 there), $work (/tmp/quixo-NAME.XXXXXX) and the cluster's
#                                 SLURM_CONF; needs $root, the project's folder
start_private_cluster() {
  engine="$root/build/release/bin/quixo-engine"
  arena="$root/build/release/bin/quixo-arena"
  if [ ! -x "$engine" ] || [ ! -x "$arena" ]; then
    echo "$1: build the release preset first" >&2
    exit 2
  fi
  work=$(mktemp -d "/tmp/quixo-$1.XXXXXX")
  chmod 755 "$work"
  export QUIXO_SLURM_DIR="$work/cluster"
  export QUIXO_SLURM_PORT=$((20000 + 2 * ($$ % 5000)))
  trap '"$root/scripts/slurm/local-cluster.sh" stop >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
  "$root/scripts/slurm/local-cluster.sh" start >/dev/null
  eval "$("$root/scripts/slurm/local-cluster.sh" env)"
}
