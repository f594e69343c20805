#!/usr/bin/python3
"""The speed figures of `import quixo` (issue 28), measured on this machine, as markdown tables.

  scripts/python-speed.py [--quick] [--repeats N] [--games N] [--perft-depth 5]
                          [--pure-perft-depth 4] [--batch-width 64] [--bin-dir build/release/bin]

a. Perft from the start: quixo.Board.perft (one call into C++) against the native count, as
   quixo-perft-bench times it (its "two-player start, bulk" line runs the same function,
   quixo::perft, timed inside the program) and as `go perft` through quixo-engine end to end (a
   new process: start, divide output, `Nodes searched`); also the pure-Python rules of
   tests/python/pure_rules.py. Leaves per second, and the ratio to quixo-perft-bench.
b. Random playouts from the start, capped at 200 plies (a draw): games per second of each
   contender against the pure-Python rules (pure_rules.Board.random_playout, one game per call).
   The contenders playing one game per call (the Python loop on quixo.Board, the loop on
   legal_move_mask) choose among the legal moves in the same order as the pure rules, so one seed
   plays the same games in all of them: the script checks that their results agree. The batched
   contender plays --batch-width games in lockstep with one legal_move_masks call per ply. Also
   the cost of each call in one ply (microseconds), to show where a ply's time goes. When the
   module has it, Board.random_playout (the whole game in C++, one call) is a contender too.
c. The `analyse` round trip of quixo.engine against the raw engine: a PLACEHOLDER, skipped while
   quixo.engine is missing (see measure_analyse_overhead).

Every figure is the median of --repeats rounds; the contenders of a section alternate within each
round, so that the machine's drift falls on all of them alike. The default run takes some 15 s
on a 2-core Xeon; --quick takes a few seconds (fewer games and rounds: rougher figures).

The package is imported from PYTHONPATH, else from build/release/python of this checkout.
"""
import argparse
import collections
import datetime
import os
import platform
import random
import statistics
import subprocess
import sys
import time
import timeit

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "python"))
import pure_rules  # noqa: E402

try:
    import quixo
except ImportError:
    sys.path.insert(0, os.path.join(ROOT, "build", "release", "python"))
    import quixo
import numpy  # noqa: E402  (after quixo: a missing numpy should not hide a missing quixo)

MAX_PLIES = 200
DRAW = pure_rules.DRAW
# The moves of the mask columns, as text: column i is quixo.SLIDES[i].
MOVE_TEXTS = [start + end for start, end in quixo.SLIDES]


# ---- Machine ------------------------------------------------------------------------------------

def cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def print_header():
    print("## Python speed (issue 28)")
    print()
    print("- date: %s" % datetime.datetime.now().strftime("%Y-%m-%d %H:%M"))
    print("- machine: %s, %d cores (os.cpu_count()), %s" % (cpu_model(), os.cpu_count(),
                                                          platform.platform()))
    print("- Python %s, quixo from %s" % (platform.python_version(),
                                          os.path.dirname(quixo.__file__)))
    print()


def median_of(values):
    return statistics.median(values)


def print_table(header, rows):
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join(" --- " for _ in header) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print()


# ---- a. Perft -----------------------------------------------------------------------------------
# Each contender counts perft(depth) from the start once and returns (leaves, seconds).

def perft_through_python(depth):
    board = quixo.Board()
    start = time.perf_counter()
    leaves = board.perft(depth)
    return leaves, time.perf_counter() - start


def perft_pure_python(depth):
    board = pure_rules.Board()
    start = time.perf_counter()
    leaves = board.perft(depth)
    return leaves, time.perf_counter() - start


def perft_bench(bin_dir, depth):
    """quixo-perft-bench's own timing of quixo::perft(start, depth), the function Board.perft
    calls (the process start and its other lines are not in it; --depth4 1 keeps those short)."""
    output = subprocess.run([os.path.join(bin_dir, "quixo-perft-bench"), "--depth2", str(depth),
                             "--depth4", "1"], check=True, capture_output=True, text=True).stdout
    for line in output.splitlines():
        if line.startswith("two-player start, bulk"):
            fields = line.split()
            leaves = int(fields[fields.index("leaves") + 1])
            leaves_per_second = float(fields[fields.index("M") - 1]) * 1e6
            return leaves, leaves / leaves_per_second
    raise RuntimeError("quixo-perft-bench printed no two-player bulk line:\n" + output)


def perft_engine_end_to_end(bin_dir, depth):
    """`go perft` from the start through a new quixo-engine process, from its start to the
    `Nodes searched` line (the divide lines are printed on the way)."""
    start = time.perf_counter()
    engine = subprocess.Popen([os.path.join(bin_dir, "quixo-engine")], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    engine.stdin.write("position startpos\ngo perft %d\n" % depth)
    engine.stdin.flush()
    leaves = None
    for line in engine.stdout:
        if line.startswith("Nodes searched"):
            leaves = int(line.split(":")[1])
            break
    seconds = time.perf_counter() - start
    engine.stdin.write("quit\n")  # not before: end of input stops the count
    engine.stdin.close()
    engine.wait(timeout=30)
    if leaves is None:
        raise RuntimeError("quixo-engine gave no `Nodes searched` line")
    return leaves, seconds


def measure_perft(args):
    contenders = [
        ("quixo-perft-bench (native, timed inside)", args.perft_depth,
         lambda depth: perft_bench(args.bin_dir, depth)),
        ("quixo-engine `go perft` (new process, end to end)", args.perft_depth,
         lambda depth: perft_engine_end_to_end(args.bin_dir, depth)),
        ("quixo.Board().perft (Python, one call)", args.perft_depth, perft_through_python),
        ("pure_rules.Board().perft (pure Python)", args.pure_perft_depth, perft_pure_python),
    ]
    seconds = collections.defaultdict(list)
    leaves = {}
    for _ in range(args.perft_repeats):
        for name, depth, count in contenders:
            counted, taken = count(depth)
            if leaves.setdefault(name, counted) != counted:
                raise RuntimeError("%s counted %d, then %d" % (name, leaves[name], counted))
            seconds[name].append(taken)
    speeds = {name: leaves[name] / median_of(seconds[name]) for name in seconds}
    native = speeds[contenders[0][0]]
    print("### a. Perft from the start (median of %d rounds)" % args.perft_repeats)
    print()
    print_table(["contender", "depth", "leaves", "seconds", "leaves/s", "vs native"],
                [[name, str(depth), str(leaves[name]), "%.4f" % median_of(seconds[name]),
                  "%.3g" % speeds[name], "%.3gx" % (speeds[name] / native)]
                 for name, depth, _ in contenders])


# ---- b. Random playouts -------------------------------------------------------------------------
# Each contender plays `count` random games from the start with the seed `seed` and returns their
# results ('1-0', '0-1' or DRAW at the ply cap; '*' counts as DRAW). To measure a new one, write
# such a function and add it to playout_contenders().

def pure_python_playouts(seed, count):
    """The pure-Python rules, one game per call (each plays on a copy of the start board)."""
    rng = random.Random(seed)
    start = pure_rules.Board()
    return [start.random_playout(rng, MAX_PLIES) for _ in range(count)]


def quixo_loop_playout(rng):
    """One game, a Python loop on quixo.Board: legal_moves(), random.choice, push."""
    board = quixo.Board()
    for _ in range(MAX_PLIES):
        if board.is_game_over():
            break
        board.push(rng.choice(board.legal_moves()))
    return board.result() if board.is_game_over() else DRAW


def quixo_loop_playouts(seed, count):
    rng = random.Random(seed)
    return [quixo_loop_playout(rng) for _ in range(count)]


def quixo_mask_playout(rng):
    """One game, a Python loop on quixo.Board with legal_move_mask() in place of legal_moves():
    a numpy array of 44 bools rather than a list of new strings."""
    board = quixo.Board()
    for _ in range(MAX_PLIES):
        if board.is_game_over():
            break
        board.push(MOVE_TEXTS[rng.choice(board.legal_move_mask().nonzero()[0])])
    return board.result() if board.is_game_over() else DRAW


def quixo_mask_playouts(seed, count):
    rng = random.Random(seed)
    return [quixo_mask_playout(rng) for _ in range(count)]


def quixo_batched_playouts(seed, count, width):
    """`count` games, `width` at a time in lockstep: per ply one quixo.legal_move_masks call for
    all of them and one numpy draw picking a random legal column of each row; then a push each.
    Not one game per call: the other random numbers, so not the same games."""
    numbers = numpy.random.default_rng(seed)
    results = []
    boards, plies = [], []
    started = 0
    while boards or started < count:
        while len(boards) < width and started < count:
            boards.append(quixo.Board())
            plies.append(0)
            started += 1
        masks = quixo.legal_move_masks(boards)
        # A random number for each legal column, -1 for the others: the largest is a uniform pick.
        picks = numpy.where(masks, numbers.random(masks.shape), -1.0).argmax(axis=1).tolist()
        going_boards, going_plies = [], []
        for board, pick, ply in zip(boards, picks, plies):
            board.push(MOVE_TEXTS[pick])
            if board.is_game_over():
                results.append(board.result())
            elif ply + 1 == MAX_PLIES:
                results.append(DRAW)
            else:
                going_boards.append(board)
                going_plies.append(ply + 1)
        boards, plies = going_boards, going_plies
    return results


def native_random_playouts(seed, count):
    """Board.random_playout: the whole game in C++, one call per game (each plays on a copy of the
    start board), a seed of its own each (its own random numbers: not the same games as the pure
    rules)."""
    first = seed * count
    start = quixo.Board()
    return [start.random_playout(first + game, MAX_PLIES) for game in range(count)]


def playout_contenders(args):
    """(name, plays the same games as the pure rules, function(seed, count) -> results)."""
    contenders = [
        ("pure_rules random_playout (pure Python, 1 game/call)", True, pure_python_playouts),
        ("quixo.Board loop: legal_moves() + random.choice + push", True, quixo_loop_playouts),
        ("quixo.Board loop: legal_move_mask() + random.choice + push", True,
         quixo_mask_playouts),
        ("quixo.legal_move_masks, %d games in lockstep" % args.batch_width, False,
         lambda seed, count: quixo_batched_playouts(seed, count, args.batch_width)),
        ("Board.random_playout(seed) (C++, 1 game/call)", False, native_random_playouts),
    ]
    return contenders


def mean_plies_per_game(seed, count):
    """The average length of the games the same-game contenders play (not timed)."""
    rng = random.Random(seed)
    total = 0
    for _ in range(count):
        board = pure_rules.Board()
        plies = 0
        while plies < MAX_PLIES and not board.is_game_over():
            board.push(rng.choice(board.legal_moves()))
            plies += 1
        total += plies
    return total / count


def measure_playouts(args):
    contenders = playout_contenders(args)
    seconds = collections.defaultdict(list)
    tallies = collections.defaultdict(collections.Counter)
    for round_number in range(args.repeats):
        seed = round_number + 1
        same_game_tally = None
        for name, same_games, play in contenders:
            start = time.perf_counter()
            results = play(seed, args.games)
            seconds[name].append(time.perf_counter() - start)
            tally = collections.Counter(DRAW if result == "*" else result for result in results)
            tallies[name] += tally
            if same_games:
                # One seed, one set of games: a contender whose results differ is not playing
                # by the same rules (or not choosing among the moves in the same order).
                if same_game_tally is not None and tally != same_game_tally:
                    raise RuntimeError("%s: results %s, the pure rules' %s"
                                       % (name, dict(tally), dict(same_game_tally)))
                same_game_tally = tally
    plies = mean_plies_per_game(1, min(args.games, 2000))
    speeds = {name: args.games / median_of(seconds[name]) for name in seconds}
    pure = speeds[contenders[0][0]]
    print("### b. Random playouts from the start (%d games a round, median of %d rounds; "
          "cap %d plies)" % (args.games, args.repeats, MAX_PLIES))
    print()
    rows = []
    for name, _, _ in contenders:
        tally = tallies[name]
        rows.append([name, "%.4f" % median_of(seconds[name]), "%.0f" % speeds[name],
                     "%.2f" % (1e6 / (speeds[name] * plies)), "%.2fx" % (speeds[name] / pure),
                     "%d / %d / %d" % (tally["1-0"], tally["0-1"], tally[DRAW])])
    print_table(["contender", "seconds", "games/s", "us/ply", "vs pure Python",
                 "X wins / O wins / draws"], rows)
    print("Games last %.1f plies on average (us/ply = 1e6 / (games/s x that)). Goal of issue 28: "
          "at least 100x the pure-Python rules, one game per call." % plies)
    print()


def middle_game_boards():
    """The same position, 12 random plies from the start, on quixo.Board and on the pure rules."""
    rng = random.Random(12)
    while True:
        board = quixo.Board()
        for _ in range(12):
            board.push(rng.choice(board.legal_moves()))
            if board.is_game_over():
                break
        if not board.is_game_over():
            return board, pure_rules.Board.from_text(board.text())


def per_call_microseconds(statement, names, repeats, calls):
    timer = timeit.Timer(statement, globals=names)
    return min(timer.repeat(repeats, calls)) / calls * 1e6


def measure_ply_costs(args):
    """What one ply of the playout loops costs, call by call, on one middle-game position."""
    board, pure_board = middle_game_boards()
    moves = board.legal_moves()
    names = {"board": board, "pure_board": pure_board, "rng": random.Random(1), "moves": moves,
             "move": moves[len(moves) // 2]}
    calls = [
        ("legal_moves()", "board.legal_moves()", "pure_board.legal_moves()"),
        ("is_game_over()", "board.is_game_over()", "pure_board.is_game_over()"),
        ("push(move) + pop()", "board.push(move); board.pop()",
         "pure_board.push(move); pure_board.pop()"),
        ("random.choice(moves)", "rng.choice(moves)", "rng.choice(moves)"),
        ("legal_move_mask().nonzero()[0]", "board.legal_move_mask().nonzero()[0]", None),
        ("attribute read (board.turn)", "board.turn", "pure_board.turn"),
    ]
    if hasattr(quixo.Board, "random_playout"):
        calls.append(("Board().random_playout(seed, 0): a call, no ply",
                      "quixo.Board().random_playout(1, 0)",
                      "pure_rules.Board().random_playout(rng, 0)"))
        names.update(quixo=quixo, pure_rules=pure_rules)
    # Every call takes a few microseconds at most: this many take some 10 to 50 ms a repeat.
    count = 5000 if args.quick else 20000
    rows = []
    for label, quixo_statement, pure_statement in calls:
        rows.append([label,
                     "%.3f" % per_call_microseconds(quixo_statement, names, args.repeats, count),
                     "%.3f" % per_call_microseconds(pure_statement, names, args.repeats, count)
                     if pure_statement else "-"])
    print("### b'. One ply, call by call (us, best of %d, position %s, %d moves)"
          % (args.repeats, board.text(), len(moves)))
    print()
    print_table(["call", "quixo.Board", "pure_rules.Board"], rows)


# ---- c. analyse round trip: PLACEHOLDER ---------------------------------------------------------

def raw_analyse(engine, position, limit):
    """One `position` + `go` to quixo-engine's own pipe, read up to its `bestmove`."""
    engine.stdin.write("position %s\ngo %s\n" % (position, limit))
    engine.stdin.flush()
    for line in engine.stdout:
        if line.startswith("bestmove"):
            return line


def measure_analyse_overhead(args):
    """quixo.engine's analyse (the arena's client through pybind11, the info lines parsed into
    dicts) against the raw engine (a pipe kept open: `position` + `go` until `bestmove`), the
    same positions and `go depth 1` (a search of well under a millisecond, so the round trip is
    most of the time), alternating; median microseconds per call."""
    import quixo.engine

    engine_path = os.path.join(args.bin_dir, "quixo-engine")
    positions = []
    board = quixo.Board()
    rng = random.Random(5)
    while len(positions) < 20:
        if board.is_game_over():
            board = quixo.Board()
        positions.append(board.copy())
        board.push(rng.choice(board.legal_moves()))
    calls = 50 if args.quick else 200
    raw = subprocess.Popen([engine_path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           text=True, bufsize=1)
    raw.stdin.write("uqi\nisready\n")
    raw.stdin.flush()
    for line in raw.stdout:
        if line.startswith("readyok"):
            break
    wrapped = quixo.engine.SimpleEngine.popen_uqi(engine_path)
    raw_times, wrapped_times = [], []
    try:
        for _ in range(args.repeats):
            started = time.perf_counter()
            for i in range(calls):
                board = positions[i % len(positions)]
                raw_analyse(raw, "fen %s" % board.text(), "depth 1")
            raw_times.append((time.perf_counter() - started) / calls * 1e6)
            started = time.perf_counter()
            for i in range(calls):
                wrapped.analyse(positions[i % len(positions)], quixo.engine.Limit(depth=1))
            wrapped_times.append((time.perf_counter() - started) / calls * 1e6)
    finally:
        wrapped.quit()
        raw.stdin.write("quit\n")
        raw.stdin.close()
        raw.wait(timeout=30)
    raw_us, wrapped_us = statistics.median(raw_times), statistics.median(wrapped_times)
    print("### c. analyse round trip (`go depth 1`, %d calls a round, median of %d rounds)"
          % (calls, args.repeats))
    print()
    print("| path | us per call |")
    print("| --- | --- |")
    print("| quixo-engine through a pipe (Python writes and reads the lines) | %.0f |" % raw_us)
    print("| quixo.engine.SimpleEngine.analyse | %.0f |" % wrapped_us)
    print("| overhead of quixo.engine | %+.0f us (%+.0f %%) |"
          % (wrapped_us - raw_us, 100.0 * (wrapped_us - raw_us) / raw_us))
    print()


# ---- main ---------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true",
                        help="a few seconds: 300 games, 3 rounds, pure-Python perft 3")
    parser.add_argument("--repeats", type=int, default=None,
                        help="rounds of each measurement, the median reported (default 5)")
    parser.add_argument("--games", type=int, default=None,
                        help="games per contender and round (default 6000)")
    parser.add_argument("--perft-depth", type=int, default=5)
    parser.add_argument("--pure-perft-depth", type=int, default=None,
                        help="perft depth of the pure-Python rules (default 4)")
    parser.add_argument("--batch-width", type=int, default=64,
                        help="games in lockstep for the legal_move_masks contender")
    parser.add_argument("--bin-dir", default=os.path.join(ROOT, "build", "release", "bin"))
    args = parser.parse_args()
    args.repeats = args.repeats or (3 if args.quick else 5)
    args.games = args.games or (300 if args.quick else 6000)
    args.pure_perft_depth = args.pure_perft_depth or (3 if args.quick else 4)
    # A perft round is short (some 0.3 s in all): more of them for a steadier median.
    args.perft_repeats = args.repeats if args.quick else 2 * args.repeats - 1

    print_header()
    measure_perft(args)
    measure_playouts(args)
    measure_ply_costs(args)
    measure_analyse_overhead(args)


if __name__ == "__main__":
    main()
