#!/usr/bin/env bash
# How well the engine converts long won endgames, measured against perfect defence: positions
# with few blank cubes that the tables call won for the side to move in MIN..MAX plies are played
# out by quixo-arena between the engine without tables (or with them: --winner-tables) and the
# engine with the tables, which then defends perfectly (the slowest loss). Each position is played
# twice, colours swapped; only the games in which the engine under test has the won side count.
#
#   scripts/tb-conversion.sh --tables DIR [--blanks 2] [--count 50] [--min 41] [--max 107]
#                            [--tc st=0.2] [--seed 1] [--winner-tables | --tables-below]
#                            [--bin-dir build/release/bin] [--timemargin 500] [--out DIR]
#                            [--option NAME=VALUE ...] [--concurrency 1] [--off-border K]
#
# --tables-below gives the engine under test the tables of the layers below --blanks only (links
# in a folder of --out): where the tables stop, as they stop for a user at the layers they made,
# the search must keep the win until a fill brings the game into them.
# --option sets an option of the engine under test (repeatable), e.g. NullMovePruning=false to
# measure the search without one of its features. --timemargin (milliseconds) is the arena's
# allowance past the clock. A `go movetime` search keeps only 5 % of the time to spare, and on a
# loaded machine some replies come late; a loss on time is no measure of converting a win. (With
# the arena's default margin of 0, two of these runs at once on 2 cores ended six and nine of
# twenty three-blank games on time, both sides' clocks.)
# --off-border K plays only positions with K of their blank cubes off the border (on the nine inner
# squares, where no player can take one until a push brings it out; `quixo-tb sample
# --off-border`): the long two-blank wins with both blanks there are the ones the engine fails to
# convert (README).
# --tc nodes=N searches a fixed number of nodes a move: the games are then the same on every run
# (one thread), however loaded the machine, and two builds can be compared position by position
# with scripts/tb-conversion-compare.py; --concurrency N (games at once) then changes only how
# long the run takes.
# Prints "converted W of N (losses L, draws D)" and the PGN's path. Files go to --out (default
# build/tb-conversion/ of this checkout; give each of two runs at once its own). Relative paths
# are read from the folder the script is called from.
set -euo pipefail
caller=$PWD
cd "$(dirname "$0")/.."
from_caller() { case "$1" in /*) echo "$1" ;; *) echo "$caller/$1" ;; esac; }

tables="" out=build/tb-conversion concurrency=1 blanks=2 count=50 min=41 max=107 tc=st=0.2 seed=1
winner_tables=false tables_below=false timemargin=500
attacker_options=()
off_border=""
bin_dir=build/release/bin
while [ $# -gt 0 ]; do
  case "$1" in
    --tables) tables=$(from_caller "$2"); shift 2 ;;
    --blanks) blanks=$2; shift 2 ;;
    --count) count=$2; shift 2 ;;
    --min) min=$2; shift 2 ;;
    --max) max=$2; shift 2 ;;
    --tc) tc=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --winner-tables) winner_tables=true; shift ;;
    --tables-below) tables_below=true; shift ;;
    --bin-dir) bin_dir=$(from_caller "$2"); shift 2 ;;
    --out) out=$(from_caller "$2"); shift 2 ;;
    --concurrency) concurrency=$2; shift 2 ;;
    --off-border) off_border=$2; shift 2 ;;
    --timemargin) timemargin=$2; shift 2 ;;
    --option) attacker_options+=("option.$2"); shift 2 ;;
    *) sed -n '2,32p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
done
if [ -z "$tables" ]; then
  echo "tb-conversion: --tables DIR is required" >&2
  exit 2
fi
tables=$(cd "$tables" && pwd)
if [ "$winner_tables" = true ] && [ "$tables_below" = true ]; then
  echo "tb-conversion: --winner-tables and --tables-below exclude each other" >&2
  exit 2
fi
if [ "$tables_below" = true ] && [ "$blanks" -lt 1 ]; then
  echo "tb-conversion: --tables-below needs --blanks 1 or more (no layer is below $blanks)" >&2
  exit 2
fi
mkdir -p "$out"
tag=search
winner_option=()
if [ "$winner_tables" = true ]; then
  tag=tables
  winner_option=(option.TablebasePath="$tables")
elif [ "$tables_below" = true ]; then
  tag=below
  below=$out/tables-below-b$blanks
  rm -rf "$below"
  mkdir -p "$below"
  for ((layer = 0; layer < blanks; ++layer)); do
    for file in "$tables/quixo-b$layer.qtb" "$tables/quixo-b$layer.qtbw"; do
      if [ ! -e "$file" ]; then
        echo "tb-conversion: --tables-below: $file is missing" >&2
        exit 2
      fi
      ln -s "$file" "$below/"
    done
  done
  winner_option=(option.TablebasePath="$below")
fi
book=$out/book-b$blanks-$min-$max-$seed${off_border:+-off$off_border}.txt
"$bin_dir/quixo-tb" sample --dir "$tables" --blanks "$blanks" --value win --min-distance "$min" \
  --max-distance "$max" --count "$count" --seed "$seed" \
  ${off_border:+--off-border "$off_border"} > "$book"
pgn=$out/conversion-$tag.pgn
rm -f "$pgn" "$out/conversion-$tag.json"
"$bin_dir/quixo-arena" \
  --engine name=attacker cmd="$bin_dir/quixo-engine" "${winner_option[@]}" "${attacker_options[@]}" \
  --engine name=defender cmd="$bin_dir/quixo-engine" option.TablebasePath="$tables" \
  --each tc="$tc" --rounds "$count" --timemargin "$timemargin" --concurrency "$concurrency" \
  --openings "$book" --openings-order sequential --max-plies 400 --pgn "$pgn" --results "$out/conversion-$tag.json" \
  > "$out/conversion-$tag.log"
# X (White) moves first in every book position and is the side that is won
awk '/^\[White "/ { white = $2 } /^\[Result "/ { if (white == "\"attacker\"]") {
       games++; if ($2 == "\"1-0\"]") won++; else if ($2 == "\"0-1\"]") lost++; else drawn++ } }
     END { printf "converted %d of %d (losses %d, draws %d)\n", won, games, lost, drawn }' "$pgn"
echo "games: $pgn"
