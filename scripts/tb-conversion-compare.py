#!/usr/bin/python3
"""Two runs of scripts/tb-conversion.sh on the same positions, compared position by position:
which long wins each build converted, and where each gave a win away.

  scripts/tb-conversion-compare.py BEFORE.pgn AFTER.pgn [--attacker NAME] [--tables DIR]

Only the games in which the engine under test ("attacker") has the won side count, paired by
their start position. With `--tc nodes=N` both runs' games are the same every time they are
played, so the positions converted by one build only are the whole difference between the
builds; the exact McNemar test (a two-sided binomial test on those positions) says how often
that many or more would differ one way by chance. The defender plays with the tables and
reports their value, so the attacker's move after which it stops reporting a mate against
itself is the move that gave the win away (its move number in the game is printed); a game not
converted in which the defender never stops is one the attacker let end by repetition or at the
ply cap while still won.

--tables DIR (the tables of the runs' layer and those below) looks up every move the attacker
made from a position won for it, up to the one that gave the win away, and counts them by the
tables' distance to the win (20 plies a row) and by the position's blank cubes: how often a move
gives the win away, there. A build that gives fewer away per move but makes less progress
(spends more moves far from the win) can still convert no more games; these rows tell which.
Two more rows split the moves from positions with blank cubes by whether some move that fills a
blank (takes a blank cube) wins there, with how many of them filled one: a win is given away
either by a fill that does not win or in the manoeuvre before a winning fill exists.

--exit-tables DIR (with --tables; a folder whose top layer `quixo-tb generate --distance-to exit`
made, the layers below linked in) counts the moves from that layer's won positions by the plies
to a winning fill the attacker can force (20 plies a row), and the wins given away there. It
also tells whether the attacker's manoeuvres brought the fill nearer: of its moves that kept the
win and the layer, --far-from-fill plies (20) or more from a winning fill, how many were among
the fastest toward it and how many plies a move put it off on average, in the games converted
and in the others. A move and its reply bring the fill 2 plies nearer; a mean of 2 or more plies
put off a move means no progress at all, however many moves keep the win.

When the start positions have blank cubes, the paired counts are split by how many of those
are off the border (among the nine inner squares, where no player can take them until a push
brings them out): the long two-blank wins not converted are nearly all of the kind with both
blanks inside (README, "Where both blanks are inside").

Uses the project's Python package (quixo.pgn), from PYTHONPATH, else from build/release/python
of this checkout.
"""
import argparse
import collections
import math
import os
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
try:
    import quixo.pgn
except ImportError:
    sys.path.insert(0, os.path.join(ROOT, "build", "release", "python"))
    import quixo.pgn


class Outcome:
    """One game of the attacker with the won side: converted or not, and where the win went."""

    def __init__(self, game, attacker):
        self.converted = game.result == attacker_win(game, attacker)
        self.slip = None if self.converted else slip_move(game, attacker)
        self.game = game


def attacker_win(game, attacker):
    """The result that says the attacker won the game."""
    return "1-0" if game.x == attacker else "0-1"


def first_mover(game):
    """The player who makes the first move of the game (after any opening moves)."""
    x_first = (game.start_position.split()[-1] == "x") == (len(game.opening_moves) % 2 == 0)
    return game.x if x_first else game.o


def slip_move(game, attacker):
    """The attacker's move number (1 = its first move of the game) after which the defender's
    report stops being a mate against itself; the attacker's last move if the game ended right
    after it (a line of the defender's made); None if neither (the defender reported nothing)."""
    attacker_first = first_mover(game) == attacker
    attacker_moves = 0
    for index, move in enumerate(game.moves):
        by_attacker = (index % 2 == 0) == attacker_first
        if by_attacker:
            attacker_moves += 1
        elif attacker_moves and move.mate is None and move.score is not None:
            return attacker_moves
        elif attacker_moves and move.mate is not None and move.mate > 0:
            return attacker_moves
    last_by_attacker = (len(game.moves) % 2 == 1) == attacker_first
    return attacker_moves if game.moves and last_by_attacker and game.termination == "line" \
        else None


def read_run(path, attacker):
    """The run's outcomes by start position; exits with a message on a file that cannot be read
    or holds no game of the attacker with the won side."""
    try:
        with open(path) as handle:
            games = quixo.pgn.read_games(handle)
    except OSError as error:
        sys.exit("tb-conversion-compare: cannot read %s: %s" % (path, error.strerror))
    except quixo.pgn.PgnError as error:
        sys.exit("tb-conversion-compare: %s is not a PGN file of the arena: %s" % (path, error))
    outcomes = {}
    for game in games:
        # The won side moves first in every position of the book (tb-conversion.sh).
        if first_mover(game) == attacker:
            outcomes[game.start_position] = Outcome(game, attacker)
    if not outcomes:
        sys.exit("tb-conversion-compare: %s holds no game in which %r has the won side"
                 % (path, attacker))
    return outcomes


# One move of the attacker from a won position: the tables' distance to the win in plies, the
# position's blank cubes, whether the move kept the win, whether some move that fills a blank
# wins there, and whether the move played filled one.
# to_fill: the plies to a winning fill by --exit-tables, None outside their exit layers;
# put_off: for a move there that kept the win and the layer (no fill, the game not over), the
# plies it put the winning fill off (0: one of the fastest toward it), else None.
MoveRecord = collections.namedtuple(
    "MoveRecord", "distance blanks kept fill_wins filled to_fill put_off", defaults=(None, None))


def blank_count(board):
    return int((board.to_array() == 0).sum())


def fills_and_wins(board, blanks, tables):
    """The moves of `board` (with `blanks` blank cubes) that fill a blank, and whether one of
    them wins."""
    fills = set()
    for move in board.legal_moves():
        child = board.copy()
        child.push(move)
        if blank_count(child) < blanks:
            fills.add(move)
    values = tables.probe_moves(board)
    return fills, any(values[move][0] == "win" for move in fills)


def moves_while_won(game, attacker, tables, exit_tables=None):
    """Every move of the attacker from a position the tables call won for it, in the game's
    order, up to the first that gives the win away, as MoveRecords (with the plies to a winning
    fill where exit_tables count to a layer's exit)."""
    exit_layers = set(exit_tables.exit_layers) if exit_tables is not None else set()
    attacker_first = first_mover(game) == attacker
    board = game.board()
    records = []
    for index, move in enumerate(game.moves):
        if (index % 2 == 0) == attacker_first:
            value = tables.probe(board)
            if value is None or value[0] != "win":
                break
            blanks = blank_count(board)
            fills, fill_wins = fills_and_wins(board, blanks, tables)
            to_fill = put_off = None
            if blanks in exit_layers:
                to_fill = exit_tables.probe(board)[1]
                # the attacker's plies to the fill after each move, counted from here
                after_move = exit_tables.probe_moves(board)[move.move]
            board.push(move.move)
            if board.is_game_over():
                kept = board.result() == attacker_win(game, attacker)
            else:
                after = tables.probe(board)
                kept = after is not None and after[0] == "loss"
                if to_fill is not None and kept and move.move not in fills:
                    put_off = after_move[1] - to_fill
            records.append(MoveRecord(value[1], blanks, kept, fill_wins, move.move in fills,
                                      to_fill, put_off))
            if not kept:
                break
        else:
            board.push(move.move)
    return records


def describe_moves(records):
    """The rows of --tables: moves and wins given away, by distance, by blank cubes, by
    whether a fill wins and (with --exit-tables) by the plies to a winning fill."""
    def row(label, group, filled=False):
        given_away = sum(not record.kept for record in group)
        filled_part = (" (%d filled a blank)" % sum(record.filled for record in group)
                       if filled else "")
        return "    %s: %d moves%s, %d gave the win away (%.1f %%)" % (
            label, len(group), filled_part, given_away, 100.0 * given_away / max(len(group), 1))
    rows = ["  every move of the attacker from a won position, by the tables:"]
    for low in sorted({record.distance // 20 * 20 for record in records}):
        rows.append(row("%d-%d plies to the win" % (low, low + 19),
                        [r for r in records if low <= r.distance < low + 20]))
    for blanks in sorted({record.blanks for record in records}):
        rows.append(row("%d blank%s" % (blanks, "" if blanks == 1 else "s"),
                        [r for r in records if r.blanks == blanks]))
    with_blanks = [r for r in records if r.blanks > 0]
    if with_blanks:
        rows.append(row("with blanks, a fill wins", [r for r in with_blanks if r.fill_wins], True))
        rows.append(row("with blanks, no fill wins", [r for r in with_blanks if not r.fill_wins],
                        True))
    counted = [r for r in records if r.to_fill is not None]
    for low in sorted({record.to_fill // 20 * 20 for record in counted}):
        rows.append(row("%d-%d plies to a winning fill" % (low, low + 19),
                        [r for r in counted if low <= r.to_fill < low + 20]))
    return rows


def describe_progress(records_by_game, far):
    """The row of --exit-tables on progress toward a winning fill: the moves that kept the win
    and the layer `far` or more plies from a winning fill, in the games converted and in the
    others, with the share among the fastest toward it and the mean plies put off a move."""
    parts = []
    for label, converted in (("converted", True), ("not converted", False)):
        put_off = [record.put_off for game_converted, records in records_by_game
                   if game_converted == converted for record in records
                   if record.put_off is not None and record.to_fill >= far]
        moves = max(len(put_off), 1)
        fastest = sum(plies == 0 for plies in put_off)
        parts.append("in games %s %d, %.0f %% among the fastest toward it, a mean %.1f plies "
                     "put off a move" % (label, len(put_off), 100.0 * fastest / moves,
                                         sum(put_off) / moves))
    return ("  moves that kept the win and the layer %d+ plies from a winning fill: %s"
            % (far, "; ".join(parts)))


def blanks_inside(board):
    """The blank cubes among the nine squares off the border: none of them can be taken until a
    push brings it out."""
    return int((board.to_array()[1:4, 1:4] == 0).sum())


def describe_by_blanks_inside(positions, before, after):
    """The paired counts split by the start position's blank cubes off the border."""
    groups = collections.defaultdict(list)
    for position in positions:
        groups[blanks_inside(quixo.Board(position))].append(position)
    lines = ["by the start position's blank cubes off the border:"]
    for inside in sorted(groups):
        group = groups[inside]
        lines.append("    %d off the border: %d positions, before %d, after %d (only before %d, "
                     "only after %d)"
                     % (inside, len(group), sum(before[p].converted for p in group),
                        sum(after[p].converted for p in group),
                        sum(before[p].converted and not after[p].converted for p in group),
                        sum(after[p].converted and not before[p].converted for p in group)))
    return lines


def mcnemar_p(only_before, only_after):
    """Two-sided exact McNemar test: the chance of a split at least this uneven of the
    positions that only one build converted, if either were as likely to convert each."""
    discordant = only_before + only_after
    if discordant == 0:
        return 1.0
    tail = sum(math.comb(discordant, k) for k in range(min(only_before, only_after) + 1))
    return min(1.0, 2 * tail / 2 ** discordant)


def describe_slips(outcomes):
    """Where the games not converted went wrong: the moves that gave the win away, and how many
    ended (by repetition or the ply cap) with the tables still calling the attacker won."""
    slips = [outcome.slip for outcome in outcomes if outcome.slip is not None]
    still_won = len(outcomes) - len(slips)
    parts = []
    if slips:
        parts.append("the win given away with its move %d to %d (median %g, %d of %d within its "
                     "first 6)" % (min(slips), max(slips), statistics.median(slips),
                                   sum(s <= 6 for s in slips), len(slips)))
    if still_won:
        parts.append("%d still won at the end (repetition or the ply cap)" % still_won)
    return "; ".join(parts)


def open_tables(folder):
    """The tables of `folder`, or the script's end with the reason none loaded."""
    try:
        return quixo.Tables(folder)
    except ValueError as error:
        sys.exit("tb-conversion-compare: %s" % error)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before", help="the PGN of the first run (the build before)")
    parser.add_argument("after", help="the PGN of the second run (the build after)")
    parser.add_argument("--attacker", default="attacker",
                        help="the name of the engine under test in both PGNs")
    parser.add_argument("--tables", help="the tables' folder: every move of the attacker "
                        "looked up, by distance to the win, by blank cubes and by whether a "
                        "fill wins")
    parser.add_argument("--exit-tables", help="with --tables, a folder whose top layer counts "
                        "plies to its exit (quixo-tb generate --distance-to exit): that layer's "
                        "moves by the plies to a winning fill")
    parser.add_argument("--far-from-fill", type=int, default=20, metavar="PLIES",
                        help="with --exit-tables, the plies to a winning fill from which the "
                        "progress row counts a move (default 20)")
    args = parser.parse_args()
    if args.exit_tables and not args.tables:
        sys.exit("tb-conversion-compare: --exit-tables needs --tables")
    if args.far_from_fill < 0:
        sys.exit("tb-conversion-compare: --far-from-fill must be 0 or more plies")
    before = read_run(args.before, args.attacker)
    after = read_run(args.after, args.attacker)
    tables = open_tables(args.tables) if args.tables else None
    exit_tables = None
    if args.exit_tables:
        exit_tables = open_tables(args.exit_tables)
        if not exit_tables.exit_layers:
            sys.exit("tb-conversion-compare: no layer of %s counts plies to its exit (quixo-tb "
                     "generate --distance-to exit makes one)" % args.exit_tables)
    for name, run in (("before", before), ("after", after)):
        not_converted = [outcome for outcome in run.values() if not outcome.converted]
        print("%s: converted %d of %d" % (name, len(run) - len(not_converted), len(run)))
        if not_converted:
            print("  %s" % describe_slips(not_converted))
        if tables is not None:
            records_by_game = [(outcome.converted,
                                moves_while_won(outcome.game, args.attacker, tables, exit_tables))
                               for outcome in run.values()]
            records = [record for _, game_records in records_by_game for record in game_records]
            if not records:
                sys.exit("tb-conversion-compare: no start position of %s is in the tables of %s"
                         % (name, args.tables))
            print("\n".join(describe_moves(records)))
            if exit_tables is not None:
                print(describe_progress(records_by_game, args.far_from_fill))
    common = sorted(set(before) & set(after))
    if not common:
        sys.exit("tb-conversion-compare: the two runs share no start position")
    unpaired = len(before) + len(after) - 2 * len(common)
    both = sum(before[p].converted and after[p].converted for p in common)
    only_before = sum(before[p].converted and not after[p].converted for p in common)
    only_after = sum(after[p].converted and not before[p].converted for p in common)
    neither = len(common) - both - only_before - only_after
    print("paired on %d positions%s: both %d, only before %d, only after %d, neither %d"
          % (len(common), " (%d unpaired left out)" % unpaired if unpaired else "", both,
             only_before, only_after, neither))
    print("exact McNemar test: p = %.3g" % mcnemar_p(only_before, only_after))
    if any(blank_count(quixo.Board(position)) for position in common):
        print("\n".join(describe_by_blanks_inside(common, before, after)))


if __name__ == "__main__":
    main()
