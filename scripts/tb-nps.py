#!/usr/bin/python3
"""What probing the endgame tables costs the search, and what it brings.

Takes, from each game of a quixo-arena PGN, the first position with at most --blanks blank
cubes (so the search reaches the tables a few plies down), and searches each one for --movetime
ms with one thread, once without the tables and once with them (TablebasePath). Prints, for both,
the total nodes, the nodes per second, the average depth reached and the table hits, and the
ratio of the speeds.

  scripts/tb-nps.py --tables DIR --pgn FILE [--blanks 5] [--count 20] [--movetime 2000]
                    [--option NAME=VALUE ...] [--bin-dir build/release/bin]

--option sets an engine option for the run with tables (TablebaseCache=64, for example). A
folder whose layers have their win/draw/loss files (quixo-b{k}.qtbw) is probed through them.
"""
import argparse
import re
import subprocess
import sys

MOVE = re.compile(r"^[a-e][1-5][a-e][1-5]$")


class Engine:
    def __init__(self, binary, options):
        self.process = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, bufsize=1)
        self.send("uqi")
        self.read_until("uqiok")
        for name, value in options:
            self.send("setoption name %s value %s" % (name, value))
        self.send("isready")
        self.read_until("readyok")

    def send(self, line):
        self.process.stdin.write(line + "\n")

    def read_until(self, token):
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("the engine exited; last lines: %s" % lines[-5:])
            lines.append(line.rstrip("\n"))
            if line.split()[:1] == [token]:
                return lines

    def quit(self):
        self.send("quit")
        self.process.wait(timeout=10)


def games(pgn_text):
    """(FEN, moves) of every game in the PGN text."""
    for block in re.split(r"\n(?=\[Event )", pgn_text):
        fen = re.search(r'\[FEN "([^"]+)"\]', block)
        if not fen:
            continue
        movetext = re.sub(r"\{[^}]*\}", " ", block.split("\n\n", 1)[-1])
        yield fen.group(1), [token for token in movetext.split() if MOVE.match(token)]


def blanks(position):
    return sum(int(c) for c in position.split()[0] if c.isdigit())


def positions(engine, pgn_text, most_blanks, count):
    """The first position with at most most_blanks blanks of each game, distinct, at most count."""
    found = []
    for fen, moves in games(pgn_text):
        for ply in range(len(moves) + 1):
            engine.send("position fen %s%s" % (fen, (" moves " + " ".join(moves[:ply])) if ply else ""))
            engine.send("d")
            engine.send("isready")
            shown = engine.read_until("readyok")
            position = [line for line in shown if line.startswith("Position: ")][-1][10:]
            if "Outcome: ongoing" not in shown:
                break  # the game ended before it came down to so few blanks
            if blanks(position) <= most_blanks:
                if position not in found:
                    found.append(position)
                break
        if len(found) == count:
            break
    return found


def search(engine, position, movetime):
    engine.send("uqinewgame")
    engine.send("position fen " + position)
    engine.send("go movetime %d" % movetime)
    last = {}
    for line in engine.read_until("bestmove"):
        fields = line.split()
        if fields[:1] != ["info"] or "nodes" not in fields:
            continue
        for key in ("depth", "nodes", "time", "tbhits"):
            if key in fields:
                last[key] = int(fields[fields.index(key) + 1])
    return last


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", required=True)
    parser.add_argument("--pgn", required=True)
    parser.add_argument("--blanks", type=int, default=5)
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--movetime", type=int, default=2000)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="an engine option for the run with tables")
    parser.add_argument("--bin-dir", default="build/release/bin")
    args = parser.parse_args()
    table_options = [("TablebasePath", args.tables)]
    for option in args.option:
        name, equals, value = option.partition("=")
        if not equals or not name:
            sys.exit("tb-nps: --option takes NAME=VALUE, not %r" % option)
        table_options.append((name, value))
    binary = args.bin_dir + "/quixo-engine"
    with open(args.pgn, encoding="utf-8") as pgn:
        pgn_text = pgn.read()
    picker = Engine(binary, [])
    chosen = positions(picker, pgn_text, args.blanks, args.count)
    picker.quit()
    if not chosen:
        sys.exit("tb-nps: no game of %s reaches %d blanks" % (args.pgn, args.blanks))
    common = [("Threads", "1"), ("Hash", "64")]
    results = {}
    for label, options in (("without tables", common),
                           ("with tables", common + table_options)):
        engine = Engine(binary, options)
        totals = {"nodes": 0, "time": 0, "depth": 0, "tbhits": 0}
        for position in chosen:
            last = search(engine, position, args.movetime)
            for key in totals:
                totals[key] += last.get(key, 0)
        engine.quit()
        results[label] = totals
        nps = totals["nodes"] * 1000 // max(1, totals["time"])
        print("%-15s %d positions (<= %d blanks), %d ms each: %d nodes, %d nps, "
              "average depth %.1f, %d tbhits" % (label, len(chosen), args.blanks, args.movetime,
                                                 totals["nodes"], nps,
                                                 totals["depth"] / len(chosen), totals["tbhits"]))
    speed = {label: r["nodes"] / max(1, r["time"]) for label, r in results.items()}
    print("speed with tables / without: %.2f" % (speed["with tables"] / speed["without tables"]))


if __name__ == "__main__":
    main()
