#!/usr/bin/env bash
# Calibrates the engine's levels (UCI_LimitStrength + UCI_Elo, README "Levels") on the Elo scale
# whose 0 is the uniformly random mover (UCI_Elo 0): a ladder of rungs from the random mover up
# to full strength, each neighbouring pair playing one match of GAMES games with quixo-arena at
# one time control, then every rung rated with the arena's --anchor.
#
# Usage: scripts/calibrate-levels.sh BIN_DIR [--out DIR] [--games N] [--tc TC]
#            [--concurrency N] [--rungs "R1 R2 ..."]
#   BIN_DIR        the folder of the release binaries quixo-engine and quixo-arena (nothing is
#                  built here)
#   --out DIR      where the matches' results and PGN files go (default: calibration-levels)
#   --games N      games of each neighbour match (default 1000: game pairs, colours swapped;
#                  200 shows the order of the rungs, but its error bars are +-55 to +-150)
#   --tc TC        the time control of every engine (default nodes=20000: machine independent,
#                  so the table is the same on any machine)
#   --concurrency  games at once (default 2)
#   --rungs LIST   the rungs, weakest first: elo:E (UCI_LimitStrength=true, UCI_Elo=E),
#                  skill:K (Skill Level K) or full (the default options). The first must be the
#                  random mover (elo:0 or skill:0). Default: UCI_Elo 0, then every tenth of
#                  UCI_Elo's range, then full.
#
# Ratings: rung 0 is anchored at 0 (--anchor NAME=0) and each match rates its upper rung with
# the lower one anchored at its own rating, so the ratings are the maximum-likelihood ones of all
# the ladder's games (in a ladder, where each rung meets only its neighbours, the joint
# Bradley-Terry fit splits into the matches); the error bars add up along the ladder (95 %).
# A match already played to GAMES games is not played again, one cut short goes on (--resume,
# also to more games): run again to go on, or delete DIR to start over.
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

[ $# -ge 1 ] || { usage >&2; exit 2; }
case "$1" in -h | --help) usage; exit 0 ;; esac
BIN=$1
shift
OUT=calibration-levels
GAMES=1000
TC=nodes=20000
CONCURRENCY=2
RUNGS=""
while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT=$2; shift 2 ;;
    --games) GAMES=$2; shift 2 ;;
    --tc) TC=$2; shift 2 ;;
    --concurrency) CONCURRENCY=$2; shift 2 ;;
    --rungs) RUNGS=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "calibrate-levels: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
ENGINE=$BIN/quixo-engine
ARENA=$BIN/quixo-arena
for program in "$ENGINE" "$ARENA"; do
  [ -x "$program" ] || { echo "calibrate-levels: $program is not an executable program" >&2; exit 2; }
done
case "$GAMES" in '' | *[!0-9]*) echo "calibrate-levels: --games needs a whole number" >&2; exit 2 ;; esac
if [ "$GAMES" -lt 2 ] || [ $((GAMES % 2)) -ne 0 ]; then
  echo "calibrate-levels: --games must be even and at least 2 (game pairs, colours swapped)" >&2
  exit 2
fi
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OPENINGS=$ROOT/configs/openings.txt

# UCI_Elo's maximum, as the engine declares it.
ELO_MAX=$(printf 'uqi\nquit\n' | "$ENGINE" | sed -n 's/^option name UCI_Elo type spin .* max \([0-9]*\).*/\1/p')
[ -n "$ELO_MAX" ] || { echo "calibrate-levels: $ENGINE declares no UCI_Elo option" >&2; exit 2; }
if [ -z "$RUNGS" ]; then
  RUNGS=""
  for k in 0 1 2 3 4 5 6 7 8 9; do RUNGS="$RUNGS elo:$(((ELO_MAX * k + 5) / 10))"; done
  RUNGS="$RUNGS full"
fi
read -r -a RUNG <<<"$RUNGS"
[ "${#RUNG[@]}" -ge 2 ] || { echo "calibrate-levels: the ladder needs at least two rungs" >&2; exit 2; }
case "${RUNG[0]}" in elo:0 | skill:0) ;; *)
  echo "calibrate-levels: the first rung must be the random mover (elo:0 or skill:0), not ${RUNG[0]}" >&2
  exit 2 ;;
esac

# A rung's engine name, its arena options (into the array OPTIONS) and its nominal Elo.
name_of() { case "$1" in full) echo full ;; elo:*) echo "elo${1#elo:}" ;; skill:*) echo "skill${1#skill:}" ;; esac; }
options_of() {
  case "$1" in
    full) OPTIONS=() ;;
    elo:*) OPTIONS=(option.UCI_LimitStrength=true "option.UCI_Elo=${1#elo:}") ;;
    # The arena takes a key with a space in double quotes.
    skill:*) OPTIONS=("\"option.Skill Level=${1#skill:}\"") ;;
    *) echo "calibrate-levels: bad rung '$1' (elo:E, skill:K or full)" >&2; exit 2 ;;
  esac
}
for rung in "${RUNG[@]}"; do options_of "$rung"; done

mkdir -p "$OUT"
echo "Ladder: ${RUNG[*]}"
echo "Time control: $TC, $GAMES games per neighbour match, openings $OPENINGS (random order)"
START=$(date +%s)
RATING=0
for ((i = 1; i < ${#RUNG[@]}; i++)); do
  low=${RUNG[i - 1]} high=${RUNG[i]}
  low_name=$(name_of "$low") high_name=$(name_of "$high")
  results=$OUT/match-$i-$low_name-$high_name.json
  if [ -f "$results" ] && python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
sys.exit(d["status"]!="completed" or d["standings"]["total_games"]!=int(sys.argv[2]))' "$results" "$GAMES" 2>/dev/null; then
    echo "match $i: $low_name vs $high_name already played ($results)"
  else
    echo "match $i: $low_name vs $high_name ..."
    resume=()
    [ -f "$results" ] && resume=(--resume)
    options_of "$low"
    low_options=("${OPTIONS[@]}")
    options_of "$high"
    "$ARENA" --engine name="$low_name" cmd="$ENGINE" "${low_options[@]}" \
      --engine name="$high_name" cmd="$ENGINE" "${OPTIONS[@]}" \
      --each tc="$TC" --rounds $((GAMES / 2)) --concurrency "$CONCURRENCY" \
      --openings "$OPENINGS" --openings-order random --openings-seed "$i" \
      --anchor "$low_name=$RATING" --results "$results" --pgn "$OUT/match-$i.pgn" \
      --report-interval 0 --output arena "${resume[@]}" >"$OUT/match-$i.log" 2>&1 || {
      echo "calibrate-levels: match $i failed, see $OUT/match-$i.log" >&2
      exit 2
    }
  fi
  RATING=$(python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
print(next(e["rating"] for e in d["standings"]["engines"] if e["name"]==sys.argv[2]))' "$results" "$high_name")
done

# The table: each rung's rating (anchored chain), its error bar (the matches' errors added in
# quadrature along the ladder) and the score of its match against the rung below.
python3 - "$OUT" "$ELO_MAX" "${RUNG[@]}" <<'EOF'
import glob, json, math, sys
out, elo_max, rungs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
def name(r): return "full" if r == "full" else r.replace(":", "")
def nominal(r):
    return elo_max if r == "full" else int(r[4:]) if r.startswith("elo:") else None
def level(r):
    return "full strength" if r == "full" else ("UCI_Elo " + r[4:]) if r.startswith("elo:") else ("Skill Level " + r[6:])
print()
print("| rung | level | nominal Elo | measured Elo | games | match against the rung below (W-L-D, score) |")
print("|---|---|---|---|---|---|")
variance = 0.0
worst = 0.0
for i, r in enumerate(rungs):
    if i == 0:
        print(f"| 0 | {level(r)} | 0 | 0 (anchor) | - | - |")
        continue
    path = glob.glob(f"{out}/match-{i}-{name(rungs[i-1])}-{name(r)}.json")[0]
    d = json.load(open(path))
    engines = {e["name"]: e for e in d["standings"]["engines"]}
    high = engines[name(r)]
    variance += (high["rating_error"] / 1.96) ** 2
    error = 1.96 * math.sqrt(variance)
    n = nominal(r)
    off = "" if n is None else f" ({high['rating'] - n:+.0f})"
    if n is not None: worst = max(worst, abs(high["rating"] - n))
    score = (high["wins"] + high["draws"] / 2) / max(high["games"], 1)
    print(f"| {i} | {level(r)} | {'-' if n is None else n} | {high['rating']:.0f} ± {error:.0f}{off} | "
          f"{high['games']} | {high['wins']}-{high['losses']}-{high['draws']}, {100*score:.1f} % |")
print()
print(f"Largest distance of a measured Elo from its nominal: {worst:.0f}")
EOF
echo "Took $(( $(date +%s) - START )) s"
