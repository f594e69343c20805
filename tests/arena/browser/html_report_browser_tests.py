#!/usr/bin/python3
"""quixo-arena --report-html in a real browser: Debian's headless Chromium driven by Selenium.

Runs the real quixo-arena (the real engine at fixed nodes against quixo-mock-engine), opens the
page it writes while the tournament runs and checks that the page reloads itself and the game
count grows, then checks the final page's DOM against the results file: the rating rows and the
crosstable match the engines, the charts have their bars and points, every game is in the
histograms, the LLR line has a point per game between its two bounds (an SPRT match, resumed
with more rounds); the page logs no error, loads nothing (no network request, no http in it) and
parses as XML. The final page's screenshot goes to --screenshots DIR (the README's picture,
docs/screenshots/arena-report.png, is a copy).

Run by ctest (html_report_browser_tests):
  html_report_browser_tests.py --arena BIN --engine BIN --mock BIN --screenshots DIR
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest
import xml.etree.ElementTree as ElementTree

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "support"))
from headless_chromium import start_browser  # noqa: E402

ARGS = None
# The repository's default opening book, so that the games differ from each other.
BOOK = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                     "..", "configs", "openings.txt"))


def read_games(results_path):
    """The games of a results file and its journal, in the order they finished."""
    with open(results_path, encoding="utf-8") as results:
        games = json.load(results)["games"]
    journal = results_path + ".journal"
    if os.path.exists(journal):
        with open(journal, encoding="utf-8") as lines:
            games += [json.loads(line)["game"] for line in lines if line.strip()]
    return games


def engine_args(name, nodes):
    return ["--engine", "name=" + name, "cmd=" + ARGS.engine, "option.Hash=16",
            "option.Threads=1", "tc=nodes=%d" % nodes]


def mock_args(name, seed):
    return ["--engine", "name=" + name, "cmd=" + ARGS.mock,
            "args=--mode normal --random-seed %d" % seed, "tc=nodes=1"]


class HtmlReportBrowserTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.browser = start_browser(console_log=True)

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()

    def setUp(self):
        self.directory = tempfile.TemporaryDirectory(prefix="quixo-html-report-")
        self.arena = None

    def tearDown(self):
        if self.arena is not None and self.arena.poll() is None:
            self.arena.kill()
            self.arena.wait()
        self.directory.cleanup()

    # --- helpers ---------------------------------------------------------------------------
    def path(self, name):
        return os.path.join(self.directory.name, name)

    def run_arena(self, arguments, expected_codes=(0,), timeout=60):
        result = subprocess.run([ARGS.arena] + arguments, capture_output=True, text=True,
                                timeout=timeout, cwd=self.directory.name)
        self.assertIn(result.returncode, expected_codes, result.stdout + result.stderr)
        return result

    def wait_for(self, condition, what, timeout=30):
        try:
            return WebDriverWait(self.browser, timeout, poll_frequency=0.1).until(
                lambda _: condition())
        except TimeoutException:
            self.fail("timed out waiting for " + what)

    def open_page(self, path):
        self.browser.get("file://" + path)
        self.wait_for(lambda: self.browser.find_elements(By.ID, "summary"), "the page")

    def summary(self, name):
        return self.browser.find_element(By.ID, "summary").get_attribute(name)

    def elements(self, selector, within=None):
        return (within or self.browser).find_elements(By.CSS_SELECTOR, selector)

    def counts(self, selector, within=None):
        return [int(bar.get_attribute("data-count")) for bar in self.elements(selector, within)]

    def polyline_points(self, line):
        return self.browser.execute_script("return arguments[0].points.numberOfItems;", line)

    def check_clean_page(self, path):
        """No error in the console, no request outside file://, no http in the page's text, and
        the page parses as XML (well-formed)."""
        logs = self.browser.get_log("browser")
        self.assertEqual([entry for entry in logs if entry.get("level") == "SEVERE"], [],
                         "the page logged errors")
        resources = self.browser.execute_script(
            "return performance.getEntriesByType('resource').map(e => e.name)"
            ".concat(performance.getEntriesByType('navigation').map(e => e.name));")
        self.assertTrue(resources, "no navigation entry")
        for name in resources:
            self.assertTrue(name.startswith("file://"), "a request for " + name)
        with open(path, encoding="utf-8") as page:
            text = page.read()
        self.assertNotIn("http:", text)
        self.assertNotIn("https:", text)
        self.assertNotIn("<script", text)
        root = ElementTree.fromstring(text)
        self.assertEqual(root.tag, "html")

    def screenshot(self, name):
        height = self.browser.execute_script("return document.documentElement.scrollHeight;")
        self.browser.set_window_size(1280, min(int(height) + 140, 4000))
        try:
            time.sleep(0.3)
            os.makedirs(ARGS.screenshots, exist_ok=True)
            self.browser.save_screenshot(os.path.join(ARGS.screenshots, name + ".png"))
        finally:
            self.browser.set_window_size(1280, 1000)

    # --- tests ---------------------------------------------------------------------------------
    def test_a_round_robin_page_reloads_while_it_runs_and_shows_every_game(self):
        report = self.path("report.html")
        results = self.path("results.json")
        names = ["quixo", "quixo-100", "m<&>"]
        command = ([ARGS.arena] + engine_args(names[0], 1500) + engine_args(names[1], 100) +
                   mock_args(names[2], 5) +
                   ["--rounds", "2", "--wait", "1200", "--max-plies", "80", "--openings",
                    "file=" + BOOK, "order=random", "--results", results,
                    "--report-html", report])
        self.arena = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                      text=True, cwd=self.directory.name)
        # During the run: the page is there before the first game ends, and reloads itself.
        deadline = time.time() + 30
        while not os.path.exists(report) and time.time() < deadline:
            time.sleep(0.1)
        self.assertTrue(os.path.exists(report), "no page after 30 s")
        self.open_page(report)
        self.assertEqual(self.summary("data-status"), "running")
        self.assertEqual(len(self.elements("meta[http-equiv=refresh]")), 1)
        first_count = int(self.summary("data-games"))
        self.assertEqual(self.summary("data-total"), "12")
        self.browser.execute_script("window.quixoMarker = 1;")
        self.wait_for(lambda: self.browser.execute_script("return window.quixoMarker;") is None,
                      "the page to reload itself", 20)
        self.wait_for(lambda: self.elements("#summary") and
                      int(self.summary("data-games")) > first_count,
                      "a reload with more games", 40)
        self.assertIsNone(self.arena.poll(), "the run ended before the page was seen to grow")
        output, _ = self.arena.communicate(timeout=120)
        self.assertEqual(self.arena.returncode, 0, output)

        # The final page.
        self.open_page(report)
        games = read_games(results)
        self.assertEqual(len(games), 12)
        self.assertEqual(self.summary("data-status"), "completed")
        self.assertEqual(self.summary("data-games"), "12")
        self.assertEqual(self.elements("meta[http-equiv=refresh]"), [])
        # Ratings: a row of the table and an error bar with its dot per engine.
        rows = self.elements("table.ranking tbody tr")
        self.assertEqual(sorted(row.find_elements(By.CSS_SELECTOR, "td.name")[0].text
                                for row in rows), sorted(names))
        self.assertEqual(len(self.elements("svg.ratings-chart g.rating-row")), 3)
        self.assertEqual(len(self.elements("svg.ratings-chart line.error-bar")), 3)
        self.assertEqual(len(self.elements("svg.ratings-chart circle.rating")), 3)
        self.assertEqual(sorted(g.get_attribute("data-engine")
                                for g in self.elements("svg.ratings-chart g.rating-row")),
                         sorted(names))
        # The crosstable: every engine against the two others, 4 games each, and each pair of
        # cells adds up to the games between them.
        cells = self.elements("table.crosstable td[data-points]")
        self.assertEqual(len(cells), 6)
        points = {(c.get_attribute("data-row"), c.get_attribute("data-column")):
                  float(c.get_attribute("data-points")) for c in cells}
        for (row, column), value in points.items():
            self.assertEqual(value + points[(column, row)], 4.0)
        for name in names:
            scored = sum(1.0 if g["result"] == ("1-0" if g["x"] == name else "0-1") else
                         0.5 if g["result"] == "1/2-1/2" else 0.0
                         for g in games if name in (g["x"], g["o"]))
            self.assertEqual(sum(v for (row, _), v in points.items() if row == name), scored)
        # Each pairing: five pentanomial bars holding its 2 game pairs, and its Elo line.
        pairings = self.elements("div.pairing")
        self.assertEqual(len(pairings), 3)
        for pairing in pairings:
            bars = self.counts("svg.pentanomial rect.bar", pairing)
            self.assertEqual(len(bars), 5)
            self.assertEqual(sum(bars), 2)
            lines = self.elements("svg.elo-chart polyline.elo", pairing)
            if lines:  # none while every pair was won by one side (no finite estimate)
                self.assertLessEqual(self.polyline_points(lines[0]), 4)
                self.assertGreaterEqual(self.polyline_points(lines[0]), 1)
            self.assertEqual(self.elements("svg.llr-chart", pairing), [])
        # Game lengths and endings: every game, as the results file has them.
        plies = self.counts("svg.plies rect.bar")
        self.assertEqual(sum(plies), 12)
        self.assertEqual(len(plies), max(g["plies"] for g in games) // self.bin_width(games) + 1)
        self.assertEqual(sum(self.counts("svg.endings rect.bar")), 12)
        endings = {}
        for g in games:
            endings[g["termination"]] = endings.get(g["termination"], 0) + 1
        for bar in self.elements("svg.endings rect.bar"):
            label = bar.find_element(By.TAG_NAME, "title").get_attribute("textContent")
            self.assertEqual(label, "%s: %d" % (label.split(":")[0],
                                                endings[label.split(":")[0]]))
        # Time per move: every engine move of every game, in 14 bins per engine.
        moves = {row.get_attribute("data-engine"): int(row.get_attribute("data-moves"))
                 for row in self.elements("table.move-times tbody tr")}
        self.assertEqual(sorted(moves), sorted(names))
        self.assertEqual(sum(moves.values()), sum(g["plies"] for g in games))
        for figure in self.elements("figure.move-time"):
            bars = self.counts("rect.bar", figure)
            self.assertEqual(len(bars), 14)
            self.assertEqual(sum(bars), moves[figure.get_attribute("data-engine")])
        self.check_clean_page(report)
        self.screenshot("arena-report")

    @staticmethod
    def bin_width(games):
        longest = max(g["plies"] for g in games)
        for step in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000):
            if longest // step < 30:
                return step
        return 5000

    def test_an_sprt_match_resumed_shows_the_llr_of_every_game(self):
        report = self.path("match.html")
        results = self.path("match.json")
        common = (engine_args("new", 400) + engine_args("base", 150) +
                  ["--sprt", "elo0=0", "elo1=10", "--max-plies", "80", "--openings",
                   "file=" + BOOK, "order=random", "--results", results,
                   "--report-html", report])
        # Three pairs, no decision (exit 3); then resumed with more rounds, to a decision or the
        # end.
        self.run_arena(common + ["--rounds", "3"], expected_codes=(3,))
        earlier = len(read_games(results))
        self.assertEqual(earlier, 6)
        self.run_arena(common + ["--rounds", "40", "--resume"], expected_codes=(0, 1, 3))
        games = read_games(results)
        self.open_page(report)
        self.assertEqual(self.summary("data-games"), str(len(games)))
        self.assertIn("Resumed: 6 of the games", self.browser.find_element(By.ID, "summary").text)
        chart = self.elements("svg.llr-chart")
        self.assertEqual(len(chart), 1)
        line = self.elements("polyline.llr", chart[0])[0]
        self.assertEqual(self.polyline_points(line), len(games))
        self.assertEqual(len(self.elements("line.bound", chart[0])), 2)
        upper = self.elements("line.bound.upper", chart[0])[0]
        lower = self.elements("line.bound.lower", chart[0])[0]
        self.assertLess(float(upper.get_attribute("y1")), float(lower.get_attribute("y1")))
        # The line's last point is the SPRT line's LLR, which the results file has too.
        with open(results, encoding="utf-8") as file:
            sprt = json.load(file)["standings"]["sprt"]
        last = line.get_attribute("data-values").split()[-1]
        self.assertEqual(last.split(":")[0], str(len(games)))
        self.assertAlmostEqual(float(last.split(":")[1]), sprt["llr"], places=3)
        # Move times: only of the resumed run's games, and the page says so.
        moves = sum(int(row.get_attribute("data-moves"))
                    for row in self.elements("table.move-times tbody tr"))
        self.assertEqual(moves, sum(g["plies"] for g in games[earlier:]))
        self.assertIn("the 6 games of the earlier run were read back from the results file",
                      self.browser.find_element(By.ID, "move-times").text)
        self.check_clean_page(report)
        self.screenshot("arena-report-sprt")

    def test_a_page_that_cannot_be_written_stops_the_run_before_it_starts(self):
        result = self.run_arena(engine_args("quixo", 100) + mock_args("mock", 1) +
                                ["--report-html", self.path("missing/report.html")],
                                expected_codes=(2,))
        self.assertIn("--report-html", result.stderr)
        self.assertIn("missing/report.html", result.stderr)


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    for name in ("arena", "engine", "mock", "screenshots"):
        parser.add_argument("--" + name, required=True)
    ARGS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
