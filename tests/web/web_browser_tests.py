#!/usr/bin/python3
"""The WebAssembly engine in a real browser's Web Worker: build/web/ served by a plain static
server (python3 -m http.server, no project process), opened in Debian's headless Chromium.

It speaks UQI with the Worker over postMessage (handshake, a search, isready and stop during an
infinite search), checks that `bench` counts the native engine's nodes and prints the speeds of
both (the README's figures), prints the depth reached in one second from the start position and
what the engine's first load transfers, and has the Worker fetch the endgame tables of at most
one blank from the site and give the native values of one-blank positions. It also checks that
the suites' static server keeps answering after more requests than its log's pipe holds.

Run by ctest (web_browser_tests, the wasm preset):
  web_browser_tests.py --web DIR --native-bin DIR [--rounds N]
The README's speed figures: the same with --rounds 7 -k bench.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time
import unittest
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from headless_chromium import start_browser  # noqa: E402
from static_server import start_static_server, stop_static_server  # noqa: E402
from web.web_engine_tests import strip_timing  # noqa: E402

ARGS = None
SERVER = None
BASE = None
BROWSER = None

# The page side of the Worker: every string message is an answer line, every object a report.
START_WORKER = """
window.engineLines = [];
window.engineReports = [];
window.engineStart = performance.now();
window.engine = new Worker('engine-worker.js');
window.engine.onmessage = (event) => {
  if (typeof event.data === 'string') {
    if (event.data === 'uqiok' && !window.engineReadyMs)
      window.engineReadyMs = performance.now() - window.engineStart;
    window.engineLines.push(event.data);
  } else {
    window.engineReports.push(event.data);
  }
};
"""


def native_answers(commands):
    output = subprocess.run([os.path.join(ARGS.native_bin, "quixo-engine")], input=commands,
                            capture_output=True, text=True, timeout=300, check=True).stdout
    return output.splitlines()


class WebBrowserTests(unittest.TestCase):
    def setUp(self):
        BROWSER.get(BASE + "engine/")
        BROWSER.execute_script(START_WORKER)
        self.read = 0

    def tearDown(self):
        BROWSER.execute_script("window.engine.terminate();")

    def send(self, *lines):
        for line in lines:
            BROWSER.execute_script("window.engine.postMessage(arguments[0]);", line)

    def read_until(self, predicate, timeout=60):
        """The new answer lines up to and with the first that satisfies `predicate`."""
        deadline = time.monotonic() + timeout
        seen = []
        while time.monotonic() < deadline:
            lines = BROWSER.execute_script("return window.engineLines.slice(arguments[0]);",
                                           self.read)
            for line in lines:
                self.read += 1
                seen.append(line)
                if predicate(line):
                    return seen
            time.sleep(0.05)
        raise AssertionError("no matching line within %ss; got %r" % (timeout, seen[-10:]))

    def handshake(self):
        self.send("uqi")
        self.read_until(lambda line: line == "uqiok")

    def test_a_search_and_isready_and_stop_during_an_infinite_one(self):
        self.handshake()
        self.send("position startpos", "go depth 5")
        lines = self.read_until(lambda line: line.startswith("bestmove "))
        self.assertTrue(any(line.startswith("info depth 5 ") for line in lines), lines)
        self.send("position startpos moves a1e1", "go infinite")
        self.read_until(lambda line: line.startswith("info depth 3 "))
        self.send("isready")
        during = self.read_until(lambda line: line == "readyok")
        self.assertFalse([line for line in during if line.startswith("bestmove")])
        self.send("stop")
        self.read_until(lambda line: line.startswith("bestmove "))
        # One bestmove per go: nothing more comes after another isready.
        self.send("isready")
        after = self.read_until(lambda line: line == "readyok")
        self.assertEqual(after, ["readyok"])

    def test_bench_counts_the_native_nodes_and_the_speeds_are_printed(self):
        # --rounds N alternates browser and native runs, so that the machine's drift falls on
        # both alike, and reports the medians: the README's figure comes from --rounds 7.
        self.handshake()
        browser_speeds, native_speeds = [], []
        for _ in range(ARGS.rounds):
            self.send("bench")
            lines = self.read_until(lambda line: line.startswith("Nodes searched"), timeout=300)
            browser_nodes = int(lines[-1].split(":")[1])
            browser_speeds.append(int(next(line for line in lines
                                           if line.startswith("Nodes/second")).split(":")[1]))
            native = native_answers("bench\nquit\n")
            native_nodes = int(next(line for line in native
                                    if line.startswith("Nodes searched")).split(":")[1])
            native_speeds.append(int(next(line for line in native
                                          if line.startswith("Nodes/second")).split(":")[1]))
            self.assertEqual(browser_nodes, native_nodes)
        browser_speed = statistics.median(browser_speeds)
        native_speed = statistics.median(native_speeds)
        print("bench: %d nodes; median of %d rounds: native %d nps, headless Chromium %d nps "
              "(%.0f %%)" % (native_nodes, ARGS.rounds, native_speed, browser_speed,
                             100.0 * browser_speed / native_speed))

    def test_depth_in_one_second_and_the_first_load(self):
        self.handshake()
        ready_ms = BROWSER.execute_script("return window.engineReadyMs;")
        self.send("position startpos", "go movetime 1000")
        lines = self.read_until(lambda line: line.startswith("bestmove "))
        depths = [int(re.match(r"info depth (\d+)", line).group(1)) for line in lines
                  if line.startswith("info depth")]
        self.assertTrue(depths, lines)
        transferred = sum(os.path.getsize(os.path.join(ARGS.web, "engine", name))
                          for name in ("engine-worker.js", "quixo-engine.js", "quixo-engine.wasm"))
        print("first load: %d bytes (worker, module, wasm), uqiok after %d ms; depth %d in 1 s "
              "from the start position" % (transferred, ready_ms, max(depths)))
        self.assertGreaterEqual(max(depths), 5)

    def test_the_tables_come_from_the_site_and_give_the_native_values(self):
        self.handshake()
        BROWSER.execute_script(
            "window.engine.postMessage({type: 'load-tables', url: '../tables/'});")
        deadline = time.monotonic() + 120
        reports = []
        while not reports and time.monotonic() < deadline:
            reports = BROWSER.execute_script("return window.engineReports;")
            time.sleep(0.1)
        self.assertTrue(reports, "no tables report")
        self.assertNotIn("error", reports[0], reports[0])
        print("tables: %s, %d bytes" % (", ".join(reports[0]["files"]), reports[0]["bytes"]))
        self.assertEqual(reports[0]["files"], ["quixo-b0.qtb", "quixo-b1.qtb"])

        sample = subprocess.run([os.path.join(ARGS.native_bin, "quixo-tb"), "sample", "--blanks",
                                 "1", "--dir", os.path.join(ARGS.web, "tables"), "--count", "3",
                                 "--seed", "5"], capture_output=True, text=True, timeout=120,
                                check=True).stdout
        positions = [line for line in sample.splitlines() if line and not line.startswith("#")]
        commands = ""
        for position in positions:
            commands += "position fen %s\ntb\ngo depth 1\nisready\n" % position

        def kept(lines):
            return [strip_timing(line) for line in lines
                    if line.startswith(("info string tb", "bestmove"))
                    or (line.startswith("info depth") and " score " in line)]

        for line in commands.splitlines():
            self.send(line)
        browser = []
        for _ in positions:
            browser += self.read_until(lambda line: line == "readyok")
        native = native_answers("setoption name TablebasePath value %s\n%squit\n"
                                % (os.path.join(ARGS.web, "tables"), commands))
        self.assertTrue(any(" win " in line or " loss " in line for line in kept(native)))
        self.assertEqual(kept(browser), kept(native))

    def test_the_static_server_keeps_answering_past_its_logs_pipe(self):
        # A long suite makes well over a thousand requests; the server's log must not stop it.
        for number in range(2000):
            with urllib.request.urlopen(BASE + "tables/index.json?%d" % number,
                                        timeout=10) as response:
                self.assertEqual(response.status, 200)


def main():
    global ARGS, SERVER, BASE, BROWSER
    parser = argparse.ArgumentParser()
    parser.add_argument("--web", required=True, help="build/web, from scripts/build-web.sh")
    parser.add_argument("--native-bin", required=True,
                        help="the release build's bin folder (quixo-engine, quixo-tb)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="bench runs of each engine, alternating (default 1)")
    ARGS, rest = parser.parse_known_args()
    for needed in [os.path.join(ARGS.web, "engine", "quixo-engine.wasm"),
                   os.path.join(ARGS.web, "tables", "index.json"),
                   os.path.join(ARGS.native_bin, "quixo-engine")]:
        if not os.path.exists(needed):
            sys.exit("web_browser_tests: %s is missing (scripts/build-web.sh builds build/web, "
                     "the release preset the native programs)" % needed)
    SERVER, BASE = start_static_server(ARGS.web)
    BROWSER = start_browser()
    try:
        program = unittest.main(argv=[sys.argv[0]] + rest, verbosity=2, exit=False)
    finally:
        BROWSER.quit()
        stop_static_server(SERVER)
    sys.exit(0 if program.result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()
