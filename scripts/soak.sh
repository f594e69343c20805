#!/usr/bin/env bash
# Soak test of quixo-arena: a long gauntlet at a tiny time control, two games at once, between the
# real engine and quixo-mock-engine's misbehaving modes (crash, stall, closed stdout, garbage,
# flag, slow start, illegal and malformed moves). Halfway through, the arena is killed with
# `kill -9` and the run is finished with --resume. Then a checker reads the results file and the
# PGN: every planned game is there exactly once in both, with a classified ending; the PGN parses
# and its moves replay legally; the engines' incident counters agree with the games; nothing is
# lost. It prints a summary (games, incidents by class, wall time, lost: 0) and exits 0 only when
# every check passed.
#
#   scripts/soak.sh                       # 5000 games (about 20 minutes on two cores)
#   scripts/soak.sh --games 60            # the short version CI runs (ctest soak_short)
#   scripts/soak.sh --bin-dir build/asan/bin --work-dir /tmp/soak --keep
#
# The binaries come from --bin-dir (default build/release/bin, built with the release preset when
# missing) and are copied into the work folder first, so a rebuild during the run changes
# nothing. Ten opponents play the real engine, so a round is 20 games and the planned count is
# --games rounded up to a multiple of 20.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
GAMES=5000
BIN_DIR=""
WORK_DIR=""
TC="1+0.01"
CONCURRENCY=2
KEEP=0

usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'
  cat <<'EOF'

Options:
  --games N         games to play at least (default 5000; rounded up to a multiple of 20)
  --bin-dir DIR     folder of quixo-arena, quixo-engine, quixo-mock-engine (default
                    build/release/bin, built with the release preset when missing)
  --work-dir DIR    where the PGN, results and logs go (default: a new temporary folder)
  --tc TC           the time control (default 1+0.01)
  --concurrency N   games at once (default 2)
  --keep            keep the temporary work folder (a --work-dir is always kept)
EOF
}

fail() {
  echo "soak.sh: $*" >&2
  exit 1
}

while [[ $# -gt 0 ]]; do
  case "$1" in
    --games | --bin-dir | --work-dir | --tc | --concurrency)
      [[ $# -ge 2 ]] || { echo "soak.sh: $1 needs a value (see --help)" >&2; exit 2; }
      case "$1" in
        --games) GAMES="$2" ;;
        --bin-dir) BIN_DIR="$2" ;;
        --work-dir) WORK_DIR="$2" ;;
        --tc) TC="$2" ;;
        --concurrency) CONCURRENCY="$2" ;;
      esac
      shift 2
      ;;
    --keep) KEEP=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *)
      echo "soak.sh: unknown option '$1' (accepted: --games N, --bin-dir DIR, --work-dir DIR," \
        "--tc TC, --concurrency N, --keep, --help)" >&2
      exit 2
      ;;
  esac
done
[[ "$GAMES" =~ ^[1-9][0-9]*$ ]] || { echo "soak.sh: --games needs a positive whole number, not '$GAMES'" >&2; exit 2; }
[[ "$CONCURRENCY" =~ ^[1-9][0-9]*$ ]] || { echo "soak.sh: --concurrency needs a positive whole number, not '$CONCURRENCY'" >&2; exit 2; }

# --- binaries ---------------------------------------------------------------------------------
BINARIES=(quixo-arena quixo-engine quixo-mock-engine)
missing() {
  local name
  for name in "${BINARIES[@]}"; do [[ -x "$1/$name" ]] || return 0; done
  return 1
}
if [[ -z "$BIN_DIR" ]]; then
  BIN_DIR="$ROOT/build/release/bin"
  if missing "$BIN_DIR"; then
    echo "soak.sh: building the release binaries"
    (cd "$ROOT" && cmake --preset release && cmake --build --preset release)
  fi
fi
missing "$BIN_DIR" && fail "$BIN_DIR lacks one of ${BINARIES[*]} (build them, or give --bin-dir)"

if [[ -z "$WORK_DIR" ]]; then
  WORK_DIR="$(mktemp -d "${TMPDIR:-/tmp}/quixo-soak.XXXXXX")"
  [[ $KEEP -eq 1 ]] || trap 'rm -rf "$WORK_DIR"' EXIT
else
  mkdir -p "$WORK_DIR"
  rm -f "$WORK_DIR"/soak.pgn "$WORK_DIR"/soak.json "$WORK_DIR"/*.log
fi
WORK_DIR="$(cd "$WORK_DIR" && pwd)"
mkdir -p "$WORK_DIR/bin"
for name in "${BINARIES[@]}"; do cp "$BIN_DIR/$name" "$WORK_DIR/bin/$name"; done
ARENA="$WORK_DIR/bin/quixo-arena"
ENGINE="$WORK_DIR/bin/quixo-engine"
MOCK="$WORK_DIR/bin/quixo-mock-engine"
BOOK_ARGS=()
if [[ -f "$ROOT/configs/openings.txt" ]]; then
  cp "$ROOT/configs/openings.txt" "$WORK_DIR/openings.txt"
  BOOK_ARGS=(--openings "$WORK_DIR/openings.txt" --openings-order random --openings-seed 7)
fi

# --- the tournament ---------------------------------------------------------------------------
OPPONENTS=10
PER_ROUND=$((2 * OPPONENTS))
ROUNDS=$(((GAMES + PER_ROUND - 1) / PER_ROUND))
PLANNED=$((ROUNDS * PER_ROUND))
KILL_AT=$((PLANNED / 2))
PGN="$WORK_DIR/soak.pgn"
RESULTS="$WORK_DIR/soak.json"
MAX_PLIES=200
STALL_TIMEOUT=1500

# The real engine is the seed; each opponent has one fault (or none). The stalling mock has a
# node limit of its own, so its silence is a stall (under a clock it would be a time loss).
ARGS=(
  --tournament gauntlet --seeds 1
  --engine name=engine "cmd=$ENGINE" option.Hash=4
  --engine name=engine-d3 "cmd=$ENGINE" option.Hash=1 tc=depth=3
  --engine name=normal "cmd=$MOCK" "args=--mode normal --random-seed 11"
  --engine name=garbage "cmd=$MOCK" "args=--mode garbage --random-seed 5"
  --engine name=slow-start "cmd=$MOCK" "args=--mode slow-start --delay-ms 250"
  --engine name=crash "cmd=$MOCK" "args=--mode crash-on-go --after 3"
  --engine name=stall "cmd=$MOCK" "args=--mode stall --after 2" tc=nodes=100
  --engine name=close-stdout "cmd=$MOCK" "args=--mode close-stdout --after 2"
  --engine name=flag "cmd=$MOCK" "args=--mode overrun --delay-ms 1500 --after 3"
  --engine name=illegal "cmd=$MOCK" "args=--mode illegal --after 2"
  --engine name=malformed "cmd=$MOCK" "args=--mode malformed --after 1"
  --tc "$TC" --stall-timeout "$STALL_TIMEOUT" --max-plies "$MAX_PLIES"
  --rounds "$ROUNDS" --concurrency "$CONCURRENCY" --report-interval 0
  "${BOOK_ARGS[@]}" --pgn "$PGN" --results "$RESULTS"
)

# The games recorded: the results file's and those of its journal (one JSON line each, a last
# line cut short not yet a game), as the arena's own readers count them.
recorded() {
  python3 - "$RESULTS" <<'EOF' 2>/dev/null || echo 0
import json, sys
ids = {game["id"] for game in json.load(open(sys.argv[1]))["games"]}
try:
    for line in open(sys.argv[1] + ".journal"):
        if line.endswith("\n"):
            ids.add(json.loads(line)["game"]["id"])
except FileNotFoundError:
    pass
print(len(ids))
EOF
}

# The processes of a session (the arena and every engine it started).
session_processes() {
  { ps -o pid= -s "$1" 2>/dev/null || true; } | tr -s ' \n' ' ' | sed 's/^ //; s/ $//'
}

echo "soak: $PLANNED games ($ROUNDS rounds of $PER_ROUND), tc $TC, concurrency $CONCURRENCY," \
  "kill -9 after $KILL_AT; work folder $WORK_DIR"
START=$(date +%s.%N)

# First run, in a session of its own so that its engines can be found after the kill.
setsid "$ARENA" "${ARGS[@]}" >"$WORK_DIR/run1.log" 2>"$WORK_DIR/run1.err" &
ARENA_PID=$!
disown "$ARENA_PID"  # its death by kill -9 is the plan, not news for the shell to report
sleep 0.2
[[ "$(cat "/proc/$ARENA_PID/comm" 2>/dev/null)" == quixo-arena ]] ||
  fail "the arena did not start as process $ARENA_PID: $(cat "$WORK_DIR/run1.err")"
while kill -0 "$ARENA_PID" 2>/dev/null && [[ $(recorded) -lt $KILL_AT ]]; do sleep 0.5; done
kill -0 "$ARENA_PID" 2>/dev/null ||
  fail "the arena ended before game $KILL_AT (see $WORK_DIR/run1.log, run1.err): $(tail -n 3 "$WORK_DIR/run1.err")"
kill -9 "$ARENA_PID"
# Gone once it is reaped or a zombie.
while kill -0 "$ARENA_PID" 2>/dev/null &&
  ! grep -q '^State:[[:space:]]*Z' "/proc/$ARENA_PID/status" 2>/dev/null; do
  sleep 0.05
done
AT_KILL=$(recorded)
PGN_AT_KILL=$(grep -c '^\[Event ' "$PGN" 2>/dev/null || true)
PGN_AT_KILL=${PGN_AT_KILL:-0}
# Orphaned engines see the end of their input and exit; whatever is left after 10 s is counted
# (and killed), since an engine that outlives its arena is a leak.
ORPHANS=""
for _ in $(seq 1 100); do
  ORPHANS=$(session_processes "$ARENA_PID")
  [[ -z "$ORPHANS" ]] && break
  sleep 0.1
done
ORPHAN_COUNT=0
if [[ -n "$ORPHANS" ]]; then
  ORPHAN_COUNT=$(wc -w <<<"$ORPHANS")
  echo "soak: $ORPHAN_COUNT engine processes outlived the killed arena by 10 s: $ORPHANS" >&2
  kill -9 $ORPHANS 2>/dev/null || true
fi
echo "soak: killed the arena (kill -9) with $AT_KILL games in the results file, $PGN_AT_KILL in the PGN"

# Second run: --resume to the end.
set +e
"$ARENA" "${ARGS[@]}" --resume >"$WORK_DIR/run2.log" 2>"$WORK_DIR/run2.err"
CODE=$?
set -e
END=$(date +%s.%N)
[[ $CODE -eq 0 ]] ||
  fail "the resumed arena exited with $CODE (see $WORK_DIR/run2.log, run2.err): $(tail -n 3 "$WORK_DIR/run2.err")"
for log in run1.err run2.err; do
  [[ -s "$WORK_DIR/$log" ]] && fail "the arena wrote to stderr ($WORK_DIR/$log): $(head -n 3 "$WORK_DIR/$log")"
done

# --- the checks -------------------------------------------------------------------------------
python3 - "$RESULTS" "$PGN" "$PLANNED" "$MAX_PLIES" "$AT_KILL" "$PGN_AT_KILL" "$ORPHAN_COUNT" \
  "$START" "$END" "$TC" "$CONCURRENCY" <<'EOF'
import collections, json, re, sys, time, os

(results_path, pgn_path, planned, max_plies, at_kill, pgn_at_kill, orphans, start, end, tc,
 concurrency) = sys.argv[1:]
planned, max_plies, at_kill, pgn_at_kill, orphans = map(int, (planned, max_plies, at_kill,
                                                             pgn_at_kill, orphans))
problems = []
def problem(text):
    if len(problems) < 50:
        problems.append(text)

ENDINGS = {"line", "repetition", "ply cap", "time forfeit", "illegal move", "crash", "stall",
           "resign adjudication", "draw adjudication"}
FAULTS = {"crash": "crashes", "time forfeit": "time_forfeits", "illegal move": "illegal_moves",
          "stall": "stalls"}
STANDARD = {"line": "normal", "repetition": "normal", "ply cap": "adjudication",
            "resign adjudication": "adjudication", "draw adjudication": "adjudication",
            "time forfeit": "time forfeit", "illegal move": "rules infraction",
            "crash": "abandoned", "stall": "abandoned"}

# --- the results file
results = json.load(open(results_path))
if results.get("status") != "completed":
    problem(f"results status is {results.get('status')!r}, not 'completed'")
games = results["games"]
ids = collections.Counter(game["id"] for game in games)
for game_id, count in ids.items():
    if count > 1:
        problem(f"game id {game_id} is in the results file {count} times")
    if not 0 <= game_id < planned:
        problem(f"game id {game_id} is outside the schedule 0..{planned - 1}")
missing_ids = [i for i in range(planned) if i not in ids]
if missing_ids:
    problem(f"{len(missing_ids)} planned games are missing from the results file, e.g. {missing_ids[:5]}")
for game in games:
    if game.get("termination") not in ENDINGS:
        problem(f"game {game['id'] + 1} has no classified ending: {game.get('termination')!r}")
    if game.get("result") not in ("1-0", "0-1", "1/2-1/2"):
        problem(f"game {game['id'] + 1} has result {game.get('result')!r}")
    if not game.get("reason"):
        problem(f"game {game['id'] + 1} has no reason")
standings = results["standings"]
if standings.get("games") != planned or standings.get("total_games") != planned:
    problem(f"standings count {standings.get('games')} of {standings.get('total_games')} games, "
            f"planned {planned}")

# Each engine's incident counters are the games it lost by that fault; restarts the games before
# which one of its processes was started again.
lost_by = collections.Counter()
restarts = collections.Counter()
for game in games:
    if game["termination"] in FAULTS and game["result"] != "1/2-1/2":
        loser = game["o"] if game["result"] == "1-0" else game["x"]
        lost_by[(loser, FAULTS[game["termination"]])] += 1
    restarts[game["x"]] += bool(game.get("x_restarted"))
    restarts[game["o"]] += bool(game.get("o_restarted"))
engine_games = collections.Counter()
for game in games:
    engine_games[game["x"]] += 1
    engine_games[game["o"]] += 1
for engine in standings["engines"]:
    name = engine["name"]
    for counter in FAULTS.values():
        if engine[counter] != lost_by[(name, counter)]:
            problem(f"{name}: {counter} is {engine[counter]} but {lost_by[(name, counter)]} games "
                    "were lost that way")
    if engine["restarts"] != restarts[name]:
        problem(f"{name}: restarts is {engine['restarts']} but {restarts[name]} games say so")
    if engine["games"] != engine_games[name]:
        problem(f"{name}: {engine['games']} games in the standings, {engine_games[name]} recorded")
    if engine["games"] != engine["wins"] + engine["losses"] + engine["draws"]:
        problem(f"{name}: games != wins + losses + draws")

# --- the PGN: tags, movetext, and a replay of every move with the rules of docs/spec.md §1
LINES = [[r * 5 + f for f in range(5)] for r in range(5)] + \
        [[r * 5 + f for r in range(5)] for f in range(5)] + \
        [[i * 5 + i for i in range(5)], [i * 5 + 4 - i for i in range(5)]]

def parse_fen(fen):
    fields = fen.split()
    if len(fields) not in (2, 3) or fields[1] not in ("x", "o"):
        raise ValueError(f"bad FEN {fen!r}")
    ranks = fields[0].split("/")
    if len(ranks) != 5:
        raise ValueError(f"bad FEN {fen!r}")
    board = ["."] * 25
    for i, text in enumerate(ranks):
        rank, file = 4 - i, 0
        for c in text:
            if c in "12345":
                file += int(c)
            elif c in "xo":
                if file > 4:
                    raise ValueError(f"bad FEN {fen!r}")
                board[rank * 5 + file] = c
                file += 1
            else:
                raise ValueError(f"bad FEN {fen!r}")
        if file != 5:
            raise ValueError(f"bad FEN {fen!r}")
    number = int(fields[2]) if len(fields) == 3 else 1
    return board, fields[1], number

def winner(board, mover):
    other = "o" if mover == "x" else "x"
    if any(all(board[s] == other for s in line) for line in LINES):
        return other
    if any(all(board[s] == mover for s in line) for line in LINES):
        return mover
    return None

def play(board, side, move):
    if not re.fullmatch(r"[a-e][1-5][a-e][1-5]", move):
        raise ValueError(f"malformed move {move!r}")
    ff, fr, tf, tr = ord(move[0]) - 97, int(move[1]) - 1, ord(move[2]) - 97, int(move[3]) - 1
    if ff not in (0, 4) and fr not in (0, 4):
        raise ValueError(f"{move}: {move[:2]} is not on the periphery")
    if board[fr * 5 + ff] not in (".", side):
        raise ValueError(f"{move}: {move[:2]} holds the opponent's cube")
    if (ff, fr) == (tf, tr):
        raise ValueError(f"{move}: a cube may not go back where it was taken")
    board = board[:]
    if tr == fr and tf in (0, 4):
        step = 1 if tf > ff else -1
        for f in range(ff, tf, step):
            board[fr * 5 + f] = board[fr * 5 + f + step]
    elif tf == ff and tr in (0, 4):
        step = 1 if tr > fr else -1
        for r in range(fr, tr, step):
            board[r * 5 + ff] = board[(r + step) * 5 + ff]
    else:
        raise ValueError(f"{move}: {move[2:]} is not an end of {move[:2]}'s rank or file")
    board[tr * 5 + tf] = side
    return board

TAG = re.compile(r'\[(\w+) "((?:[^"\\]|\\.)*)"\]')
TOKEN = re.compile(r"\{[^}]*\}|\d+\.(?:\.\.)?|1-0|0-1|1/2-1/2|\*|[^\s{]+")
COMMENT = re.compile(r"(?:(?:[+-](?:\d+\.\d\d|M\d+)|0\.00|\?)(?:/-?\d+)? )?-?\d+\.\d{3}s")

text = open(pgn_path, encoding="utf-8", errors="strict").read()
chunks = [c for c in re.split(r"\n(?=\[Event )", text) if c.strip()]
pgn_games = {}
for index, chunk in enumerate(chunks, 1):
    where = f"PGN game {index}"
    head, _, movetext = chunk.partition("\n\n")
    tags = {}
    for line in head.splitlines():
        match = TAG.fullmatch(line.strip())
        if not match:
            problem(f"{where}: bad tag line {line!r}")
            continue
        tags[match.group(1)] = re.sub(r"\\(.)", r"\1", match.group(2))
    where = f"PGN game {index} (Round {tags.get('Round')})"
    for required in ("Event", "Site", "Date", "Round", "White", "Black", "Result", "FEN",
                     "QuixoTermination", "Termination", "PlyCount"):
        if required not in tags:
            problem(f"{where}: no {required} tag")
    if tags.get("Round") in pgn_games:
        problem(f"{where}: a second game with this Round")
    pgn_games[tags.get("Round")] = tags
    ending = tags.get("QuixoTermination")
    if ending not in ENDINGS:
        problem(f"{where}: unclassified ending {ending!r}")
    elif tags.get("Termination") != STANDARD[ending]:
        problem(f"{where}: Termination {tags.get('Termination')!r} for {ending!r}")
    try:
        board, side, number = parse_fen(tags.get("FEN", ""))
    except ValueError as error:
        problem(f"{where}: {error}")
        continue
    seen = collections.Counter([("".join(board), side)])
    tokens = TOKEN.findall(movetext)
    plies, book, engine_moves, result, over = 0, 0, 0, None, None
    i = 0
    try:
        while i < len(tokens):
            token = tokens[i]
            if token in ("1-0", "0-1", "1/2-1/2", "*"):
                result = token
                if i != len(tokens) - 1:
                    raise ValueError(f"text after the result {token}")
                break
            expected = f"{number}." if side == "x" else f"{number}..."
            if token != expected:
                raise ValueError(f"move number {token!r} where {expected!r} was expected")
            if over:
                raise ValueError(f"a move after the game was over ({over} wins)")
            move, comment = tokens[i + 1], tokens[i + 2]
            i += 3
            board = play(board, side, move)
            if comment == "{book}":
                if engine_moves:
                    raise ValueError(f"book move {move} after the engines' moves")
                book += 1
            elif COMMENT.fullmatch(comment[1:-1]):
                engine_moves += 1
            else:
                raise ValueError(f"bad comment {comment} after {move}")
            over = winner(board, side)
            plies += 1
            if side == "o":
                number += 1
            side = "o" if side == "x" else "x"
            seen[("".join(board), side)] += 1
    except (ValueError, IndexError) as error:
        problem(f"{where}: {error}")
        continue
    tags["_engine_moves"] = engine_moves
    tags["_book"] = book
    if result is None or result != tags.get("Result"):
        problem(f"{where}: the movetext ends in {result!r}, the Result tag says {tags.get('Result')!r}")
    if str(plies) != tags.get("PlyCount"):
        problem(f"{where}: {plies} plies but PlyCount {tags.get('PlyCount')}")
    if ending == "line":
        expected = {"x": "1-0", "o": "0-1"}.get(over)
        if result != expected:
            problem(f"{where}: a line ending, but the board's line gives {expected}, not {result}")
    elif over:
        problem(f"{where}: the board shows a line for {over} but the game ended by {ending!r}")
    if ending == "repetition" and seen[("".join(board), side)] < 3:
        problem(f"{where}: a repetition ending, but the last position occurred "
                f"{seen[(''.join(board), side)]} times")
    if ending == "ply cap" and plies != max_plies:
        problem(f"{where}: a ply cap ending after {plies} plies, the cap is {max_plies}")

# --- the PGN against the results file
for game in games:
    tags = pgn_games.get(str(game["id"] + 1))
    if tags is None:
        problem(f"game {game['id'] + 1} is in the results file but not in the PGN")
        continue
    for key, tag in (("x", "White"), ("o", "Black"), ("result", "Result"),
                     ("termination", "QuixoTermination"), ("reason", "Reason")):
        if game[key] != tags.get(tag, ""):
            problem(f"game {game['id'] + 1}: {key} {game[key]!r} in the results, {tag} "
                    f"{tags.get(tag)!r} in the PGN")
    if "_engine_moves" in tags and tags["_engine_moves"] != game["plies"]:
        problem(f"game {game['id'] + 1}: {game['plies']} engine moves in the results, "
                f"{tags['_engine_moves']} in the PGN")
extra = set(pgn_games) - {str(game["id"] + 1) for game in games}
if extra:
    problem(f"{len(extra)} PGN games are not in the results file, e.g. {sorted(extra)[:5]}")

# --- the summary
lost = planned - len(set(ids) & set(range(planned)))
endings = collections.Counter(game["termination"] for game in games)
wall = float(end) - float(start)
print(f"soak: {planned} games planned, {len(games)} in the results file, {len(chunks)} in the PGN, "
      f"lost: {lost}")
print("soak: endings: " + ", ".join(f"{name} {endings[name]}" for name in sorted(endings)))
print("soak: incidents by class: " + ", ".join(
    f"{counter} {sum(e[counter] for e in standings['engines'])}"
    for counter in ("crashes", "stalls", "time_forfeits", "illegal_moves", "restarts")))
for engine in standings["engines"]:
    print(f"soak:   {engine['name']:<13} {engine['games']:>5} games  +{engine['wins']} "
          f"-{engine['losses']} ={engine['draws']}  crashes {engine['crashes']}  stalls "
          f"{engine['stalls']}  time {engine['time_forfeits']}  illegal {engine['illegal_moves']}  "
          f"restarts {engine['restarts']}")
print(f"soak: kill -9 with {at_kill} games in the results file and {pgn_at_kill} in the PGN; "
      f"resumed to the end; engines left running after the kill: {orphans}")
print(f"soak: wall time {wall:.0f} s ({planned / wall * 60:.0f} games a minute), tc {tc}, "
      f"concurrency {concurrency}, {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores")
if orphans:
    problem(f"{orphans} engine processes outlived the killed arena")
if problems or lost:
    print(f"soak: FAILED, {len(problems)} problems (the first 50):", file=sys.stderr)
    for line in problems:
        print("  " + line, file=sys.stderr)
    sys.exit(1)
print("soak: all checks passed")
EOF
