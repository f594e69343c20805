#!/usr/bin/env bash
# Speed of two git revisions on this machine, measured in interleaved rounds so that the machine's
# drift (other load, clock changes) falls on both alike:
#   scripts/compare-speed.sh [--rounds N] [--games G] BASE [NEW]      (NEW defaults to HEAD)
# Each round runs, for BASE and NEW in alternating order:
#   - `quixo-engine bench`: the search's nodes per second (and its node count, which must agree
#     when the search did not change);
#   - `quixo-perft-bench`: move generation in leaves per second, each line of its table;
#   - a quixo-arena match of G games of the revision's engine against itself at nodes=2000, one
#     game at a time: the arena's and the engine client's cost per game (wall time / games).
# It ends with the median of each figure for both revisions and NEW's change in percent.
# Both revisions are built once into build/regress/<sha>/ (scripts/lib/revision-build.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
}
rounds=5
games=20
while [ $# -gt 0 ]; do
  case $1 in
    --rounds | --games)
      [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || usage
      [ "$1" = --rounds ] && rounds=$2 || games=$2
      shift 2
      ;;
    -h | --help) usage ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] && [ $# -le 2 ] || usage
base_rev=$1
new_rev=${2:-HEAD}

. scripts/lib/revision-build.sh
targets=(quixo-engine quixo-perft-bench quixo-arena)
base_build=$(build_revision "$base_rev" "${targets[@]}")
new_build=$(build_revision "$new_rev" "${targets[@]}")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# measure LABEL BUILD ROUND: appends "label figure value" lines to $work/figures.
measure() {
  local label=$1 build=$2 round=$3 engine arena start end
  engine=$(find_program_in "$build" quixo-engine)
  arena=$(find_program_in "$build" quixo-arena)
  "$engine" bench >"$work/bench" 2>&1
  awk -v l="$label" -F: '/Nodes\/second/ {gsub(/ /, "", $2); print l, "bench_nps", $2}
                        /Nodes searched/ {gsub(/ /, "", $2); print l, "bench_nodes", $2}' \
    "$work/bench" >>"$work/figures"
  "$(find_program_in "$build" quixo-perft-bench)" >"$work/perft" 2>&1
  # "two-player start, bulk   depth 6  leaves  N  T s  R M leaves/s"
  awk -v l="$label" '/M leaves\/s/ {name = $0; sub(/ +depth.*/, "", name); gsub(/[ ,]+/, "_", name);
                                     print l, "perft_" name "_Mleaves_per_s", $(NF - 2)}' \
    "$work/perft" >>"$work/figures"
  start=$(date +%s.%N)
  "$arena" --engine name=a cmd="$PWD/$engine" --engine name=b cmd="$PWD/$engine" \
    --each tc=nodes=2000 option.Hash=16 --rounds "$(((games + 1) / 2))" --concurrency 1 \
    --openings configs/openings.txt --openings-order sequential \
    --pgn "$work/games-$label-$round.pgn" >"$work/arena.out" 2>&1 || {
    echo "compare-speed: the $label arena failed:" >&2
    cat "$work/arena.out" >&2
    exit 1
  }
  end=$(date +%s.%N)
  played=$(grep -c '^\[Result ' "$work/games-$label-$round.pgn")
  echo "$label arena_ms_per_game $(echo "($end - $start) * 1000 / $played" | bc -l)" \
    >>"$work/figures"
}

echo "compare-speed: $rounds rounds, $base_rev ($base_build) against $new_rev ($new_build)"
for round in $(seq 1 "$rounds"); do
  if [ $((round % 2)) -eq 1 ]; then
    measure base "$base_build" "$round"
    measure new "$new_build" "$round"
  else
    measure new "$new_build" "$round"
    measure base "$base_build" "$round"
  fi
  echo "  round $round of $rounds done"
done

python3 - "$work/figures" <<'PY'
import statistics, sys
figures = {}
for line in open(sys.argv[1]):
    label, name, value = line.split()
    figures.setdefault(name, {}).setdefault(label, []).append(float(value))
print(f"{'median of the rounds':48} {'base':>14} {'new':>14} {'change':>8}")
for name, by_label in figures.items():
    base, new = statistics.median(by_label["base"]), statistics.median(by_label["new"])
    change = (new - base) / base * 100 if base else 0.0
    print(f"{name:48} {base:14.1f} {new:14.1f} {change:+7.1f}%")
PY
