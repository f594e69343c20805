# The small helpers of scripts/slurm/tournament.sh and tune.sh, sourced by both after they set
# SCRIPT_NAME (the word their messages start with) and SCRIPT_FILE (their own path, whose header
# comment is their --help).

usage() {
  sed -n '2,/^set -euo/p' "$SCRIPT_FILE" | sed '$d' | sed 's/^# \{0,1\}//'
}

die_usage() {
  echo "$SCRIPT_NAME: $*" >&2
  echo "$SCRIPT_NAME: see $SCRIPT_FILE --help" >&2
  exit 2
}

die() {
  echo "$SCRIPT_NAME: $*" >&2
  exit 2
}

absolute() {
  case $1 in
    /*) echo "$1" ;;
    *) echo "$PWD/$1" ;;
  esac
}

need_value() {
  [ $# -ge 2 ] || die_usage "$1 needs a value"
}

# Words quoted for a shell script line.
quote() {
  local word out=""
  for word in "$@"; do
    out+=" $(printf '%q' "$word")"
  done
  echo "${out# }"
}
