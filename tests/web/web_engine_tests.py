#!/usr/bin/python3
"""The WebAssembly engine under Node.js (build/web/engine/quixo-engine-node.js): the same .wasm the
browser's Worker runs, on standard input and output like the native quixo-engine.

It checks that one search gives one node count on both targets (`bench`), that the one-threaded
engine answers isready and stop while it searches and runs every other command after the search
in the order it came, that quit during a search still gives the bestmove, that the endgame tables
(zstd compiled to WebAssembly) give the native values, and that quixo-arena's --compliance checks
pass against it.

Run by ctest (web_engine_tests, the wasm preset):
  web_engine_tests.py --web DIR --native-bin DIR [--tables DIR] [--rounds N]
The README's speed figures: the same with --rounds 7 -k bench.
"""
import argparse
import os
import queue
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import unittest

ARGS = None


def node_engine_command():
    return ["node", os.path.join(ARGS.web, "engine", "quixo-engine-node.js")]


class EngineProcess:
    """The Node engine with its output read on a thread, line by line, with deadlines."""

    def __init__(self):
        self.process = subprocess.Popen(node_engine_command(), stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True, bufsize=1)
        self.lines = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def read_until(self, predicate, timeout=30):
        """The lines up to and with the first that satisfies `predicate`."""
        seen = []
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError("no matching line within %ss; got %r" % (timeout, seen[-10:]))
            if line is None:
                raise AssertionError("the engine ended; got %r" % seen[-10:])
            seen.append(line)
            if predicate(line):
                return seen

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self.process.stdin.close()
        self.process.stdout.close()
        self.process.stderr.close()


def strip_timing(line):
    """An info line without what depends on the machine's speed."""
    return re.sub(r" (nps|time|hashfull) \d+", "", line)


TABLES = None


def tables_folder():
    """Layers 0 and 1: the release suites' (--tables), else generated here by quixo-tb."""
    global TABLES
    if TABLES is None:
        if ARGS.tables and os.path.exists(os.path.join(ARGS.tables, "quixo-b1.qtb")):
            TABLES = ARGS.tables
        else:
            TABLES = tempfile.mkdtemp(prefix="web-engine-tables-")
            subprocess.run([os.path.join(ARGS.native_bin, "quixo-tb"), "generate", "--blanks",
                            "1", "--dir", TABLES], check=True, timeout=600,
                           stdout=subprocess.DEVNULL)
    return TABLES


def bench_nodes(command):
    output = subprocess.run(command, input="bench\nquit\n", capture_output=True, text=True,
                            timeout=300, check=True).stdout
    nodes = re.search(r"Nodes searched\s*:\s*(\d+)", output)
    speed = re.search(r"Nodes/second\s*:\s*(\d+)", output)
    if not nodes:
        raise AssertionError("no bench signature in: " + output[-500:])
    return int(nodes.group(1)), int(speed.group(1))


class WebEngineTests(unittest.TestCase):
    def setUp(self):
        self.engine = None

    def tearDown(self):
        if self.engine:
            self.engine.close()

    def start(self):
        self.engine = EngineProcess()
        self.engine.send("uqi")
        self.engine.read_until(lambda line: line == "uqiok")
        return self.engine

    def test_bench_counts_the_same_nodes_as_the_native_engine(self):
        # --rounds N alternates the two engines and reports the medians (the README's figure).
        native_speeds, wasm_speeds = [], []
        for _ in range(ARGS.rounds):
            native_nodes, native_speed = bench_nodes([os.path.join(ARGS.native_bin,
                                                                   "quixo-engine")])
            wasm_nodes, wasm_speed = bench_nodes(node_engine_command())
            self.assertEqual(wasm_nodes, native_nodes)
            native_speeds.append(native_speed)
            wasm_speeds.append(wasm_speed)
        native_speed = statistics.median(native_speeds)
        wasm_speed = statistics.median(wasm_speeds)
        print("bench: %d nodes; median of %d rounds: native %d nps, WebAssembly (Node.js) %d nps "
              "(%.0f %%)" % (native_nodes, ARGS.rounds, native_speed, wasm_speed,
                             100.0 * wasm_speed / native_speed))

    def test_isready_and_stop_are_answered_during_a_search_and_the_rest_waits(self):
        engine = self.start()
        engine.send("position startpos")
        engine.send("go infinite")
        engine.read_until(lambda line: line.startswith("info depth 3 "))
        # Sent during the search: `d` waits for the search's end, isready does not.
        engine.send("d")
        engine.send("isready")
        during = engine.read_until(lambda line: line == "readyok")
        self.assertFalse([line for line in during if line.startswith(("bestmove", "Position:"))])
        engine.send("stop")
        after = engine.read_until(lambda line: line.startswith("Position:"))
        bestmoves = [line for line in after if line.startswith("bestmove")]
        self.assertEqual(len(bestmoves), 1, after)
        self.assertLess(after.index(bestmoves[0]), len(after) - 1)
        # The same engine searches again, with a limit, on its own.
        engine.send("position startpos moves a1e1")
        engine.send("go depth 4")
        engine.read_until(lambda line: line.startswith("bestmove "))

    def test_quit_during_a_search_gives_its_bestmove_first(self):
        engine = self.start()
        engine.send("position startpos")
        engine.send("go infinite")
        engine.read_until(lambda line: line.startswith("info depth 2 "))
        engine.send("quit")
        engine.read_until(lambda line: line.startswith("bestmove "))
        self.assertEqual(engine.process.wait(timeout=30), 0)

    def test_a_four_player_search_and_an_error_line(self):
        engine = self.start()
        engine.send("position startpos4")
        engine.send("go depth 3")
        lines = engine.read_until(lambda line: line.startswith("bestmove "))
        self.assertRegex(lines[-1], r"^bestmove [a-e][1-5][a-e][1-5][xoXO]")
        engine.send("position fen not-a-position")
        engine.send("isready")
        lines = engine.read_until(lambda line: line == "readyok")
        self.assertTrue(any(line.startswith("info string error") for line in lines), lines)

    def test_the_tables_give_the_native_values_of_one_blank_positions(self):
        tables = tables_folder()
        sample = subprocess.run([os.path.join(ARGS.native_bin, "quixo-tb"), "sample", "--blanks",
                                 "1", "--dir", tables, "--count", "4", "--seed", "27"],
                                capture_output=True, text=True, timeout=120, check=True).stdout
        positions = [line for line in sample.splitlines() if line and not line.startswith("#")]
        self.assertEqual(len(positions), 4, sample)
        commands = "uqi\nsetoption name TablebasePath value %s\n" % tables
        for position in positions:
            commands += "position fen %s\ntb\ngo depth 1\nisready\n" % position
        commands += "quit\n"

        def answers(command):
            output = subprocess.run(command, input=commands, capture_output=True, text=True,
                                    timeout=120, check=True).stdout
            return [line for line in output.splitlines()
                    if line.startswith(("info string tb", "bestmove"))
                    or (line.startswith("info depth") and " score " in line)]

        native = answers([os.path.join(ARGS.native_bin, "quixo-engine")])
        wasm = answers(node_engine_command())
        self.assertTrue(any(" win " in line or " loss " in line for line in native), native)
        self.assertEqual([strip_timing(line) for line in wasm],
                         [strip_timing(line) for line in native])

    def test_the_arena_compliance_checks_pass(self):
        arena = os.path.join(ARGS.native_bin, "quixo-arena")
        engine_path = os.path.join(ARGS.web, "engine", "quixo-engine-node.js")
        result = subprocess.run([arena, "--compliance", "--engine",
                                 "name=wasm cmd=node args=" + engine_path],
                                capture_output=True, text=True, timeout=600)
        print(result.stdout[-3000:])
        self.assertEqual(result.returncode, 0, result.stdout[-3000:] + result.stderr[-2000:])
        self.assertIn("compliance: PASS", result.stdout)


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--web", required=True, help="build/web, from scripts/build-web.sh")
    parser.add_argument("--native-bin", required=True,
                        help="the release build's bin folder (quixo-engine, quixo-arena)")
    parser.add_argument("--tables", help="layers 0 and 1 of the endgame tables, if there")
    parser.add_argument("--rounds", type=int, default=1,
                        help="bench runs of each engine, alternating (default 1)")
    ARGS, rest = parser.parse_known_args()
    for needed in [os.path.join(ARGS.web, "engine", "quixo-engine.wasm"),
                   os.path.join(ARGS.native_bin, "quixo-arena")]:
        if not os.path.exists(needed):
            sys.exit("web_engine_tests: %s is missing (scripts/build-web.sh builds build/web, "
                     "the release preset the native programs)" % needed)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
