#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, so that the cluster path of the tournaments
# (scripts/slurm/tournament.sh) can be tried and tested without a cluster. It runs its own munged,
# slurmctld and slurmd, with everything (munge key, socket, slurm.conf, state, spool, logs, pid
# files) in one folder, and touches no system-wide Slurm or munge setup.
#
#   scripts/slurm/local-cluster.sh start     # start the three daemons, wait until the node is idle
#   scripts/slurm/local-cluster.sh status    # which daemons run, and sinfo; exit 0 when all run
#   scripts/slurm/local-cluster.sh stop      # cancel the cluster's jobs, end its daemons
#   scripts/slurm/local-cluster.sh env       # print the line that points sbatch & co. at it
#
#   eval "$(scripts/slurm/local-cluster.sh env)"   # then sbatch, squeue, scancel use this cluster
#
# The folder is $QUIXO_SLURM_DIR (default /tmp/quixo-slurm-<uid>). The node is this machine's short
# hostname with $QUIXO_SLURM_CPUS CPUs (default 4: more than the real cores on purpose, so that four
# 1-CPU shards run at once), in the one partition `quixo`. `start` on a running cluster says so and
# does nothing; otherwise it first clears what a previous (maybe crashed) run left: a fresh key,
# config and state, so job ids start again at 1. It waits at most $QUIXO_SLURM_START_TIMEOUT
# seconds (default 30) for the node. `stop` ends only the daemons whose pid files are in the folder
# (and job steps that their slurmd left), and is harmless when nothing runs. Ports are Slurm's
# defaults, 6817 and 6818, unless $QUIXO_SLURM_PORT sets slurmctld's (slurmd gets the next one).
# Needs the Debian packages slurm-wlm and munge (scripts/install-deps.sh).
set -euo pipefail

usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'
}

DIR=${QUIXO_SLURM_DIR:-/tmp/quixo-slurm-$(id -u)}
CPUS=${QUIXO_SLURM_CPUS:-4}
START_TIMEOUT=${QUIXO_SLURM_START_TIMEOUT:-30}
CTLD_PORT=${QUIXO_SLURM_PORT:-6817}
CONF="$DIR/slurm.conf"
HOST=$(hostname -s)
DAEMONS=(munged slurmctld slurmd)

say() { echo "local-cluster: $*"; }
die() { echo "local-cluster: $*" >&2; exit 1; }

pid_file() { echo "$DIR/$1.pid"; }
log_file() { echo "$DIR/$1.log"; }

# The pid of daemon $1 when its pid file names a live process of that program, else nothing.
daemon_pid() {
  local name=$1 file pid comm stat
  file=$(pid_file "$name")
  pid=$({ tr -dc '0-9' <"$file"; } 2>/dev/null) || return 0
  [ -n "$pid" ] || return 0
  comm=$(cat "/proc/$pid/comm" 2>/dev/null) || return 0
  # An ended daemon that nobody has reaped yet (a zombie) does not count.
  stat=$(cat "/proc/$pid/stat" 2>/dev/null) || return 0
  stat=${stat##*) }
  [ "${stat%% *}" != Z ] || return 0
  # Debian installs the daemons as slurmd-wlm and slurmctld-wlm behind alternatives symlinks.
  case $comm in
    "$name" | "$name-wlm") echo "$pid" ;;
  esac
}

running() { [ -n "$(daemon_pid "$1")" ]; }

# Prints the end of daemon $1's log to stderr, for error messages.
show_log() {
  local log
  log=$(log_file "$1")
  if [ -s "$log" ]; then
    echo "--- last lines of $log:" >&2
    tail -n 20 "$log" >&2
  fi
}

# A hint when daemon $1 could not bind its port (another Slurm, or another such cluster, has it).
port_hint() {
  if grep -q 'Address already in use' "$(log_file "$1")" 2>/dev/null; then
    echo "local-cluster: its port is taken: set QUIXO_SLURM_PORT to another one (now $CTLD_PORT)" >&2
  fi
}

env_line() {
  printf 'export SLURM_CONF=%q\n' "$CONF"
}

# Slurm's clients, pointed at this cluster whatever the caller's environment says.
slurm() { SLURM_CONF="$CONF" "$@"; }

node_state() {
  slurm sinfo -h -N -n "$HOST" -o '%T' 2>/dev/null | head -n 1 || true
}

# Ends daemon $1 (TERM, then KILL after 20 s) and removes its pid file.
stop_daemon() {
  local name=$1 pid i
  pid=$(daemon_pid "$name")
  if [ -n "$pid" ]; then
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 200; i++)); do
      [ -n "$(daemon_pid "$name")" ] || break
      sleep 0.1
    done
    if [ -n "$(daemon_pid "$name")" ]; then
      say "$name (pid $pid) did not end in 20 s: killing it"
      kill -KILL "$pid" 2>/dev/null || true
      sleep 0.5
    fi
    say "stopped $name (pid $pid)"
  fi
  rm -f "$(pid_file "$name")"
}

# The process group of each child of process $1: a job step's tasks (proctrack/pgid).
child_groups() {
  local proc stat ppid pgid
  for proc in /proc/[0-9]*; do
    stat=$(cat "$proc/stat" 2>/dev/null) || continue
    stat=${stat##*) }
    read -r _ ppid pgid _ <<<"$stat"
    [ "$ppid" = "$1" ] && echo "$pgid"
  done
  return 0
}

# Job steps (slurmstepd) outlive their slurmd by design, and can only be cancelled through
# slurmctld. Those of this cluster keep its slurmd log open; any left once the jobs are cancelled
# and the daemons are gone (say slurmctld had crashed) are ended here, with their tasks.
stop_leftover_steps() {
  local proc pid comm fd group own_group
  own_group=$(cat /proc/$$/stat)
  own_group=${own_group##*) }
  read -r _ _ own_group _ <<<"$own_group"
  for proc in /proc/[0-9]*; do
    pid=${proc#/proc/}
    comm=$(cat "$proc/comm" 2>/dev/null) || continue
    case $comm in slurmstepd | slurmstepd-wlm) ;; *) continue ;; esac
    for fd in "$proc"/fd/*; do
      if [ "$(readlink "$fd" 2>/dev/null)" = "$(log_file slurmd)" ]; then
        say "ending leftover job step slurmstepd (pid $pid) and its tasks"
        for group in $(child_groups "$pid"); do
          [ "$group" -gt 1 ] && [ "$group" != "$own_group" ] && kill -KILL -- "-$group" 2>/dev/null
        done
        kill -KILL "$pid" 2>/dev/null || true
        break
      fi
    done
  done
}

# Cancels every job of this cluster and waits (at most 30 s) until none is left.
cancel_jobs() {
  local ids i
  running slurmctld || return 0
  ids=$(slurm squeue -h -o '%A' 2>/dev/null | sort -u | tr '\n' ' ') || return 0
  [ -n "${ids// /}" ] || return 0
  say "cancelling jobs $ids"
  # shellcheck disable=SC2086  # a list of numeric job ids
  slurm scancel $ids 2>/dev/null || true
  for ((i = 0; i < 300; i++)); do
    [ -z "$(slurm squeue -h -o '%A' 2>/dev/null)" ] && return 0
    sleep 0.1
  done
  say "jobs still listed after 30 s: $(slurm squeue -h -o '%A %T' 2>/dev/null | tr '\n' ' ')"
}

cmd_stop() {
  cancel_jobs
  stop_daemon slurmd
  stop_daemon slurmctld
  stop_daemon munged
  stop_leftover_steps
  rm -f "$DIR/munge.socket" "$DIR/munge.socket.lock"
}

cmd_status() {
  local name pid all=0
  for name in "${DAEMONS[@]}"; do
    pid=$(daemon_pid "$name")
    if [ -n "$pid" ]; then
      say "$name running (pid $pid)"
    else
      say "$name not running"
      all=1
    fi
  done
  if running slurmctld; then
    slurm sinfo || all=1
  fi
  return $all
}

write_conf() {
  local slurmd_port=$((CTLD_PORT + 1))
  cat >"$CONF" <<EOF
# Written by scripts/slurm/local-cluster.sh: a one-node cluster with all its files in $DIR.
ClusterName=quixo
SlurmctldHost=$HOST(127.0.0.1)
SlurmUser=$(id -un)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$DIR/munge.socket
CredType=cred/munge
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$(pid_file slurmctld)
SlurmdPidFile=$(pid_file slurmd)
SlurmctldLogFile=$(log_file slurmctld)
SlurmdLogFile=$(log_file slurmd)
# No cgroups in containers: processes are tracked by process group, tasks are not bound.
ProctrackType=proctrack/pgid
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
# One job per CPU, so a job array's 1-CPU shards run side by side.
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
# The node claims the CPUs written here, not the ones slurmd finds.
SlurmdParameters=config_overrides
ReturnToService=2
KillWait=5
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=1024 State=UNKNOWN
PartitionName=quixo Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
}

cmd_start() {
  local name some=0 i state
  for name in munged slurmctld slurmd sinfo; do
    command -v "$name" >/dev/null || die "$name not found: run scripts/install-deps.sh"
  done
  for name in "${DAEMONS[@]}"; do
    running "$name" && some=$((some + 1))
  done
  if [ $some -eq ${#DAEMONS[@]} ]; then
    say "already running in $DIR"
    env_line
    return 0
  fi
  if [ $some -gt 0 ]; then
    say "only some daemons are running: restarting all"
  fi
  cmd_stop >/dev/null

  # A clean slate: what a previous run left (key, socket, config, state, spool, logs) goes.
  mkdir -p "$DIR"
  # munged wants every folder above its socket searchable by all, and none writable by others.
  chmod 0755 "$DIR"
  rm -rf "$DIR/state" "$DIR/spool"
  rm -f "$DIR"/munge.key "$DIR"/munge.socket "$DIR"/munge.socket.lock "$DIR"/munged.seed \
    "$DIR"/*.pid "$DIR"/*.log "$DIR"/*.stderr "$CONF"
  mkdir -p "$DIR/state" "$DIR/spool"

  if command -v mungekey >/dev/null; then
    mungekey --create --keyfile="$DIR/munge.key" >/dev/null
  else
    (umask 077 && dd if=/dev/urandom of="$DIR/munge.key" bs=1024 count=1 status=none)
  fi
  chmod 0400 "$DIR/munge.key"

  if ! munged --key-file="$DIR/munge.key" --socket="$DIR/munge.socket" \
    --pid-file="$(pid_file munged)" --log-file="$(log_file munged)" \
    --seed-file="$DIR/munged.seed" 2>/dev/null; then
    show_log munged
    die "munged did not start"
  fi
  for ((i = 0; i < 50; i++)); do
    [ -S "$DIR/munge.socket" ] && running munged && break
    sleep 0.1
  done
  running munged || { show_log munged; die "munged did not start"; }
  say "munged running (pid $(daemon_pid munged))"

  write_conf
  if ! slurmctld -f "$CONF" 2>"$DIR/slurmctld.stderr"; then
    cat "$DIR/slurmctld.stderr" >&2
    show_log slurmctld
    die "slurmctld did not start"
  fi
  # It is up when it answers; it may also die on a bad config or a busy port after forking.
  for ((i = 0; i < START_TIMEOUT * 10; i++)); do
    # It writes its pid file a moment after it forks: give it 5 s to appear.
    [ $i -ge 50 ] && ! running slurmctld && break
    grep -q 'fatal:' "$(log_file slurmctld)" 2>/dev/null && break
    slurm scontrol ping 2>/dev/null | grep -q 'is UP' && break
    sleep 0.1
  done
  if ! running slurmctld || ! slurm scontrol ping 2>/dev/null | grep -q 'is UP'; then
    show_log slurmctld
    port_hint slurmctld
    cmd_stop >/dev/null
    if running slurmctld; then
      die "slurmctld does not answer after $START_TIMEOUT s"
    fi
    die "slurmctld did not start"
  fi
  say "slurmctld running (pid $(daemon_pid slurmctld))"

  if ! slurmd -f "$CONF" 2>"$DIR/slurmd.stderr"; then
    cat "$DIR/slurmd.stderr" >&2
    show_log slurmd
    cmd_stop >/dev/null
    die "slurmd did not start"
  fi
  state=""
  for ((i = 0; i < START_TIMEOUT * 10; i++)); do
    [ $i -ge 50 ] && ! running slurmd && break
    grep -q 'fatal:' "$(log_file slurmd)" 2>/dev/null && break
    state=$(node_state)
    [ "$state" = "idle" ] && break
    sleep 0.1
  done
  if [ "$state" != "idle" ]; then
    show_log slurmd
    show_log slurmctld
    port_hint slurmd
    cmd_stop >/dev/null
    die "node $HOST is not idle after $START_TIMEOUT s (state: ${state:-unknown}; slurmd $(running slurmd && echo running || echo not running))"
  fi
  say "slurmd running (pid $(daemon_pid slurmd)); node $HOST idle with $CPUS CPUs, partition quixo"
  say "for sbatch, squeue and scancel to use this cluster:"
  env_line
}

case ${1:-} in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  env) env_line ;;
  -h | --help) usage ;;
  *)
    usage >&2
    exit 2
    ;;
esac
