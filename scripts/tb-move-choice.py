#!/usr/bin/python3
"""How often the engine's search, without tables, keeps a long endgame win with its move: one
search from each of --count positions that the tables call won for the side to move in MIN..MAX
plies, each move looked up in the tables (a win kept, a draw or a loss given away).

  scripts/tb-move-choice.py --tables DIR [--blanks 2] [--count 300] [--min 41] [--max 159]
                            [--seed 11 | --games PGN...] [--off-border K]
                            [--nodes 20000 [N ...] | --movetime MS]
                            [--option NAME=VALUE ...]
                            [--engine build/release/bin/quixo-engine] [--tune] [--misses FILE]

A game of scripts/tb-conversion.sh is lost to a draw by one such move (its README figures: 15
of 20 two-blank wins converted), so this is the same skill measured one move at a time: some
300 positions in a minute, against some 20 games in minutes. The search starts afresh at every
position (uqinewgame). Prints the counts, and among them the positions where a move draws (the
ones where a mistake is possible without losing at once); --misses writes each position whose
move gave the win away, with the move and the winning moves, one per line.

--games measures the positions the games of scripts/tb-conversion.sh reached instead of sampled
ones: every position where the engine under test (the player named attacker, X) moved while the
tables called it won in MIN..MAX plies with --blanks blank cubes (and --off-border K of them
off the border), searched afresh with the game's history, each (start and moves) once over all
the files. The tables' slowest defence leads to positions unlike uniform samples: a search
change that gave a ninth fewer sampled first moves away gave no fewer of these away, and
converted no more games (README, "The defender's replies searched wider"). --misses then writes
each position as its start position and "moves" and the game's moves.

--nodes with several budgets measures each in turn on the same positions (a row each, as a
run of that budget alone prints) and fits how the moves that give the win away fall with the
nodes: the factor a tenfold of nodes multiplies them by. That is how far more search goes
toward keeping every win (README, "How far more search goes").

--option TablebasePath=DIR with the tables of fewer blanks only (a folder of links to the
files of layers below --blanks) gives the search exact values wherever a line fills a blank:
what the search would gain from knowing those positions perfectly. A folder holding the
measured layer is refused.

Uses the project's Python package (quixo.engine, quixo.Tables), from PYTHONPATH, else from
build/release/python of this checkout.
"""
import argparse
import math
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
try:
    import quixo
except ImportError:
    sys.path.insert(0, os.path.join(ROOT, "build", "release", "python"))
    import quixo
import quixo.engine  # noqa: E402
import quixo.pgn  # noqa: E402


def sampled_positions(args):
    """Positions of layer --blanks won for X (to move) in MIN..MAX plies, from quixo-tb sample."""
    command = [os.path.join(os.path.dirname(args.engine), "quixo-tb"), "sample", "--dir",
               args.tables, "--blanks", str(args.blanks), "--value", "win", "--min-distance",
               str(args.min), "--max-distance", str(args.max), "--count", str(args.count),
               "--seed", str(args.seed)]
    if args.off_border is not None:
        command += ["--off-border", str(args.off_border)]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    return [line.strip() for line in output.splitlines()
            if line.strip() and not line.startswith("#")]


def board_blanks(board):
    """The board's blank cubes, and those of them off the border (on the nine inner squares)."""
    blank = board.to_array() == 0
    return int(blank.sum()), int(blank[1:4, 1:4].sum())


def attacker_boards(paths):
    """Each position before a move of the engine under test (attacker, X: the even plies) in
    the tb-conversion.sh games of these files, with its game's start, as a board that holds the
    game's moves."""
    for path in paths:
        with open(path) as pgn:
            games = quixo.pgn.read_games(pgn)
        for game in games:
            if game.x != "attacker":
                continue
            board = game.board()
            for index, move in enumerate(game.moves):
                if index % 2 == 0:
                    yield game.start_position, board.copy()
                board.push(move.move)


def game_positions(args, tables):
    """The attacker's won positions of the --games files, each once, with their text for
    --misses."""
    positions, seen = [], set()
    for start, board in attacker_boards(args.games):
        key = (start, tuple(board.move_stack))
        blanks, inside = board_blanks(board)
        if key in seen or blanks != args.blanks or args.off_border not in (None, inside):
            continue
        value, plies = tables.probe(board)
        if value == "win" and args.min <= plies <= args.max:
            seen.add(key)
            moves = " moves " + " ".join(key[1]) if key[1] else ""
            positions.append((board, start + moves))
    return positions


def positive(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1, not %s" % text)
    return value


def parse_options(pairs):
    options = {}
    for pair in pairs:
        name, separator, value = pair.partition("=")
        if not separator or not name:
            sys.exit("tb-move-choice: --option wants NAME=VALUE, not %r" % pair)
        options[name] = value
    return options


def main():
    try:
        run()
    except (quixo.engine.EngineError, OSError, ValueError) as error:
        sys.exit("tb-move-choice: %s" % error)
    except subprocess.CalledProcessError as error:
        sys.exit("tb-move-choice: %s failed: %s" % (" ".join(error.cmd[:2]),
                                                     error.stderr.strip()))


def run():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", required=True, help="folder with the tables of 0..BLANKS")
    parser.add_argument("--blanks", type=positive, default=2)
    parser.add_argument("--count", type=positive, default=300)
    parser.add_argument("--min", type=positive, default=41, help="shortest win, plies")
    parser.add_argument("--max", type=positive, default=159, help="longest win, plies")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--games", nargs="+", metavar="PGN",
                        help="the attacker's won positions of these tb-conversion.sh games, "
                             "not sampled ones (--count and --seed unused)")
    parser.add_argument("--off-border", type=int, metavar="K",
                        help="only positions with K of their blank cubes off the border (quixo-tb "
                             "sample --off-border)")
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--nodes", type=positive, nargs="+", metavar="N",
                       help="nodes a search (default 20000); several budgets are measured in "
                            "turn on the same positions, and the misses' fall fitted")
    limit.add_argument("--movetime", type=positive, help="milliseconds a search")
    parser.add_argument("--option", action="append", default=[], help="engine option NAME=VALUE")
    parser.add_argument("--engine", default=os.path.join(ROOT, "build", "release", "bin",
                                                         "quixo-engine"))
    parser.add_argument("--tune", action="store_true",
                        help="start the engine with --tune, which declares the search's "
                             "parameters as options")
    parser.add_argument("--misses", help="write the positions whose move gave the win away")
    args = parser.parse_args()
    options = parse_options(args.option)
    if "TablebasePath" in options:
        if not os.path.isdir(options["TablebasePath"]):
            sys.exit("tb-move-choice: TablebasePath %s is not a folder (it may hold the tables "
                     "of fewer blanks than layer %d)" % (options["TablebasePath"], args.blanks))
        measured_layer = [name for name in ("quixo-b%d.qtb" % args.blanks,
                                            "quixo-b%d.qtbw" % args.blanks)
                          if os.path.exists(os.path.join(options["TablebasePath"], name))]
        if measured_layer:
            sys.exit("tb-move-choice: the engine under test searches without the table it is "
                     "measured on, layer %d (TablebasePath may hold lower layers only)"
                     % args.blanks)
    if not args.movetime and not args.nodes:
        args.nodes = [20000]
    if args.nodes and len(set(args.nodes)) != len(args.nodes):
        sys.exit("tb-move-choice: --nodes lists a budget twice")
    if args.nodes and len(args.nodes) > 1 and args.misses:
        sys.exit("tb-move-choice: --misses writes the misses of one budget; give one --nodes")

    tables = quixo.Tables(args.tables)
    if args.blanks not in tables.layers:
        sys.exit("tb-move-choice: %s has no table of %d blanks (it has %s)"
                 % (args.tables, args.blanks, tables.layers))
    if args.games:
        if args.off_border is not None and not 0 <= args.off_border <= args.blanks:
            sys.exit("tb-move-choice: --off-border must be 0..%d (the layer's blank cubes), not %d"
                     % (args.blanks, args.off_border))
        positions = game_positions(args, tables)
        if not positions:
            sys.exit("tb-move-choice: the games hold no position of the attacker won in %d-%d "
                     "plies with %d blank cubes" % (args.min, args.max, args.blanks))
    else:
        positions = [(quixo.Board(text), text) for text in sampled_positions(args)]
    # Each move's value for its mover, looked up once for every budget.
    measured = [(board, text, tables.probe_moves(board)) for board, text in positions]
    command = [args.engine] + (["--tune"] if args.tune else [])
    budgets = ([("movetime %d ms" % args.movetime, quixo.engine.Limit(time=args.movetime / 1000))]
               if args.movetime else
               [("nodes %d" % nodes, quixo.engine.Limit(nodes=nodes)) for nodes in args.nodes])
    missed = []
    with quixo.engine.SimpleEngine.popen_uqi(command) as engine:
        engine.configure(options)
        for limit_text, search_limit in budgets:
            started = time.monotonic()
            counts, open_counts, misses = measure(engine, measured, search_limit)
            seconds = time.monotonic() - started
            missed.append(len(misses))
            print(result_row(args, options, limit_text, counts, open_counts, seconds), flush=True)
    if args.misses:  # one budget: refused above with several
        with open(args.misses, "w") as out:
            out.write("".join(line + "\n" for line in misses))
    if len(budgets) > 1:
        print(scaling_text(args.nodes, missed))


def result_row(args, options, limit_text, counts, open_counts, seconds):
    """One budget's counts, with what was measured and how."""
    return ("%d-blank wins of %d-%d plies%s%s, %s%s: the win kept by %d of %d moves (draws %d, "
            "losses %d); where a move draws: %d of %d (%.0f s)"
            % (args.blanks, args.min, args.max,
               "" if args.off_border is None else ", %d off the border" % args.off_border,
               "" if not args.games else " in the games of %s" % " ".join(args.games),
               limit_text, "".join(" %s=%s" % item for item in options.items()),
               counts["win"], sum(counts.values()), counts["draw"], counts["loss"],
               open_counts["win"], sum(open_counts.values()), seconds))


def measure(engine, measured, search_limit):
    """One search afresh from each position: the counts of the moves' values (all, and where a
    move draws) and the lines for --misses."""
    counts = {"win": 0, "draw": 0, "loss": 0}
    open_counts = {"win": 0, "draw": 0, "loss": 0}
    misses = []
    for board, text, values in measured:
        engine.new_game()
        move = engine.play(board, search_limit).move
        value = values[move][0]
        counts[value] += 1
        if any(kind == "draw" for kind, _ in values.values()):
            open_counts[value] += 1
        if value != "win":
            winning = sorted(m for m, (kind, _) in values.items() if kind == "win")
            misses.append("%s\t%s %s\twinning: %s" % (text, move, value, " ".join(winning)))
    return counts, open_counts, misses


def scaling_text(nodes, missed):
    """How the moves that give the win away fall with the nodes: the factor a tenfold of nodes
    multiplies them by, from a least-squares line of log(missed) over log(nodes)."""
    if min(missed) == 0:
        return "misses against nodes: no fit (a budget gave no win away)"
    slope = statistics.linear_regression([math.log10(n) for n in nodes],
                                         [math.log10(m) for m in missed]).slope
    return ("misses against nodes: x%.2f a tenfold of nodes (%s; least squares of log misses "
            "over log nodes)" % (10 ** slope, ", ".join("%d at %d" % (m, n)
                                                        for n, m in zip(nodes, missed))))


if __name__ == "__main__":
    main()
