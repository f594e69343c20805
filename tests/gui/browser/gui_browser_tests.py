#!/usr/bin/python3
"""quixo-gui in a real browser: Debian's headless Chromium driven by Selenium (chromedriver).

Starts quixo-gui with the real engine and a mock, opens the page and uses it as a person does:
plays a whole game against the engine by clicking, takes back, sets up a position, runs the
analysis until a line shows, loads a PGN written by quixo-arena and steps through it, plays a
four-player game with a forced pass, watches two engines play, and sees the endgame tables
colour every move of a one-blank position. Each test saves a screenshot
(--screenshots DIR); the README's pictures are those files.

Run by ctest (gui_browser_tests):
  gui_browser_tests.py --gui BIN --engine BIN --mock BIN --arena BIN --screenshots DIR --tb DIR
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
import unittest

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "support"))
from headless_chromium import start_browser  # noqa: E402

ARGS = None


def launch_gui(arguments):
    """quixo-gui with `arguments`: its process and the URL it prints to open (after a line for
    each engine it checked at start-up and for the tables it loaded)."""
    process = subprocess.Popen([ARGS.gui] + arguments, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    printed = ""
    for _ in range(20):
        line = process.stdout.readline()
        printed += line
        match = re.search(r"(http://\S+)", line)
        if match:
            return process, match.group(1)
        if not line:
            break
    process.kill()
    raise RuntimeError("quixo-gui printed no URL: " + printed + process.stdout.read())


def stop_gui(process):
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    process.stdout.close()


def start_gui():
    """quixo-gui on a free port with the real engine ("quixo"), a quick mock ("mock") and the
    test tables (--tb)."""
    arguments = [
        "--port", "0", "--no-save",
        "--engine", "name=quixo", "cmd=" + ARGS.engine, "option.Hash=16", "option.Threads=1",
        "--engine", "name=mock", "cmd=" + ARGS.mock, "args=--mode normal --random-seed 7",
    ]
    if ARGS.tb:
        arguments += ["--tb", ARGS.tb]
    return launch_gui(arguments)


def arena_pgn(folder):
    """A PGN of two games between two mocks, written by quixo-arena in `folder`."""
    pgn_path = os.path.join(folder, "games.pgn")
    subprocess.run(
        [ARGS.arena, "--engine", "name=alpha", "cmd=" + ARGS.mock,
         "args=--mode normal --random-seed 1",
         "--engine", "name=beta", "cmd=" + ARGS.mock, "args=--mode normal --random-seed 2",
         "--each", "tc=nodes=10", "--rounds", "1", "--pgn", pgn_path,
         "--results", os.path.join(folder, "results.json")],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
    with open(pgn_path) as file:
        return file.read()


def run_own_tests(test_class):
    """Runs the tests `test_class` defines itself, not those it inherits from GuiBrowserTests
    (whose helpers and set-up it borrows); the exit status says whether all passed."""
    names = sorted(name for name in vars(test_class) if name.startswith("test_"))
    suite = unittest.TestSuite(test_class(name) for name in names)
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    return 0 if result.wasSuccessful() else 1


class GuiBrowserTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.gui, cls.url = start_gui()
        cls.browser = start_browser()

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        stop_gui(cls.gui)

    # --- helpers ---------------------------------------------------------------------------
    def setUp(self):
        self.browser.get(self.url)
        self.wait_for(lambda: self.board().get_attribute("data-position") == "5/5/5/5/5 x",
                      "the start position")

    def tearDown(self):
        logs = self.browser.get_log("browser") if hasattr(self.browser, "get_log") else []
        errors = [entry for entry in logs if entry.get("level") == "SEVERE"]
        self.assertEqual(errors, [], "the page logged errors")

    def wait_for(self, condition, what, timeout=30):
        try:
            return WebDriverWait(self.browser, timeout, poll_frequency=0.05).until(
                lambda _: condition())
        except TimeoutException:
            self.fail("timed out waiting for " + what + "; status: " + self.status() +
                      "; board: " + str(self.board_attributes()))

    def board(self):
        return self.browser.find_element(By.ID, "board")

    def board_attributes(self):
        board = self.board()
        return {name: board.get_attribute(name) for name in
                ("data-position", "data-to-move", "data-result", "data-ply",
                 "data-human-to-move")}

    def status(self):
        elements = self.browser.find_elements(By.ID, "status")
        return elements[0].text if elements else "(no status element)"

    def by_id(self, name):
        return self.browser.find_element(By.ID, name)

    def square(self, name):
        return self.browser.find_element(By.CSS_SELECTOR, '#board [data-square="%s"]' % name)

    def human_to_move(self):
        return self.board().get_attribute("data-human-to-move") == "true"

    def click_a_move(self, choose=0):
        """Clicks a takeable cube and then one of its lit ends, as a person moves."""
        self.wait_for(self.human_to_move, "the person's turn")
        ply = int(self.board().get_attribute("data-ply"))
        takeable = self.browser.find_elements(By.CSS_SELECTOR, "#board [data-square].takeable")
        self.assertTrue(takeable, "no cube is highlighted as takeable")
        takeable[choose % len(takeable)].click()
        targets = self.wait_for(
            lambda: self.browser.find_elements(By.CSS_SELECTOR, "#board [data-square].target"),
            "the lit ends of the chosen cube")
        targets[choose % len(targets)].click()
        choice = self.browser.find_elements(By.CSS_SELECTOR, "#point-choice [data-point]")
        if choice and choice[0].is_displayed():
            choice[0].click()
        self.wait_for(lambda: int(self.board().get_attribute("data-ply")) > ply, "the move")

    def play_to_the_end(self):
        """A person's moves by clicking, each after the engine's reply, until the game ends."""
        clicks = 0
        while self.board().get_attribute("data-result") == "" and clicks < 150:
            self.wait_for(lambda: self.human_to_move() or
                          self.board().get_attribute("data-result") != "",
                          "the engine's reply")
            if self.board().get_attribute("data-result") != "":
                break
            self.click_a_move(clicks * 7)
            clicks += 1
        self.wait_for(lambda: self.board().get_attribute("data-result") in ("1-0", "0-1", "1/2-1/2"),
                      "the end of the game")

    def analyse_with_two_lines(self):
        """An analysis of the start position with MultiPV 2, until its second line shows."""
        self.new_game("analysis")
        multipv = self.by_id("analysis-multipv")
        multipv.clear()
        multipv.send_keys("2")
        self.new_game("analysis")
        self.wait_for(lambda: self.browser.find_elements(
            By.CSS_SELECTOR, '#analysis-lines [data-multipv="2"]'), "the second analysis line")

    def new_game(self, mode, variant="2p", time_control="", engines=("quixo", "quixo"),
                 human_side="x", ponder=False):
        Select(self.by_id("variant")).select_by_value(variant)
        Select(self.by_id("mode")).select_by_value(mode)
        if mode == "human-engine":
            Select(self.by_id("human-side")).select_by_value(human_side)
        if mode in ("human-engine", "engine-engine", "analysis"):
            Select(self.by_id("engine-1")).select_by_value(engines[0])
        if mode == "engine-engine":
            Select(self.by_id("engine-2")).select_by_value(engines[1])
        field = self.by_id("time")
        field.clear()
        if time_control:
            field.send_keys(time_control)
        if self.by_id("ponder").is_selected() != ponder:
            self.by_id("ponder").click()
        self.by_id("new-game").click()

    def screenshot(self, name):
        time.sleep(0.5)  # past the 150 ms slide, so the picture shows the position itself
        os.makedirs(ARGS.screenshots, exist_ok=True)
        self.browser.save_screenshot(os.path.join(ARGS.screenshots, name + ".png"))

    # --- tests ---------------------------------------------------------------------------------
    def test_a_person_moves_at_once_after_opening_the_page(self):
        self.assertTrue(self.human_to_move())
        self.assertEqual(len(self.browser.find_elements(By.CSS_SELECTOR, "#board [data-square]")), 25)
        self.click_a_move()
        self.assertNotEqual(self.board().get_attribute("data-position"), "5/5/5/5/5 x")

    def test_a_whole_game_against_the_engine_by_clicking_then_take_back(self):
        self.new_game("human-engine", time_control="depth=2")
        self.wait_for(lambda: self.board().get_attribute("data-ply") == "0", "the new game")
        self.play_to_the_end()
        self.screenshot("person-vs-engine")
        moves = self.browser.find_elements(By.CSS_SELECTOR, "#move-list [data-ply]")
        self.assertGreaterEqual(len(moves), 9)
        # Take back: the person is to move again, a move or two earlier.
        ply = int(self.board().get_attribute("data-ply"))
        self.by_id("takeback").click()
        self.wait_for(lambda: int(self.board().get_attribute("data-ply")) < ply, "the take-back")
        self.assertEqual(self.board().get_attribute("data-result"), "")
        self.wait_for(self.human_to_move, "the person's turn after the take-back")

    def test_setting_up_a_position_and_copying_it(self):
        # Person against person: in the page's default game the engine plays O and would move at
        # once in this position, racing the checks below.
        self.new_game("human-human")
        position = "x4/1o3/2x2/3o1/4x o"
        field = self.by_id("setup-position")
        field.clear()
        field.send_keys(position)
        self.by_id("setup-apply").click()
        self.wait_for(lambda: self.board().get_attribute("data-position") == position, "the set-up")
        self.assertEqual(self.board().get_attribute("data-to-move"), "o")
        self.assertEqual(self.square("a5").get_attribute("data-cube"), "x")
        self.assertEqual(self.square("b4").get_attribute("data-cube"), "o")
        self.assertEqual(self.square("c1").get_attribute("data-cube"), "")
        self.assertEqual(self.by_id("position-text").get_attribute("value"), position)
        # A malformed position is refused with a message, and the board stays.
        field.clear()
        field.send_keys("6/5/5/5/5 x")
        self.by_id("setup-apply").click()
        self.wait_for(lambda: self.status() != "", "the error message")
        self.assertEqual(self.board().get_attribute("data-position"), position)

    def test_the_tables_colour_every_move_by_its_value(self):
        # No blank cube (layer 0 is in the test tables of every preset): X wins in 37 plies; of its
        # 20 moves 6 win, 1 draws and 13 lose (quixo-tb probe says so).
        position = "oxooo/xooxx/oxxxo/xxoxx/oooxx x"
        self.new_game("human-human")
        field = self.by_id("setup-position")
        field.clear()
        field.send_keys(position)
        self.by_id("setup-apply").click()
        self.wait_for(lambda: self.board().get_attribute("data-position") == position, "the set-up")
        value = self.by_id("tb-value")
        self.wait_for(lambda: value.get_attribute("data-value") == "win", "the table's value")
        self.assertEqual(value.get_attribute("data-distance"), "37")
        values = [move.get_attribute("data-value")
                  for move in self.browser.find_elements(By.CSS_SELECTOR, "#tb-moves .tb-move")]
        self.assertEqual((values.count("win"), values.count("draw"), values.count("loss")),
                         (6, 1, 13))
        # A cube taken: each lit end carries the colour of the move's value.
        self.wait_for(self.human_to_move, "the person's turn")
        self.browser.find_elements(By.CSS_SELECTOR, "#board [data-square].takeable")[0].click()
        targets = self.wait_for(
            lambda: self.browser.find_elements(By.CSS_SELECTOR, "#board [data-square].target"),
            "the lit ends of the chosen cube")
        for target in targets:
            self.assertRegex(target.get_attribute("class"), r"\btb-(win|draw|loss)\b")
        self.screenshot("tablebase")
        # The fastest win, played from the list: O is lost in 36.
        self.browser.find_element(By.CSS_SELECTOR, '#tb-moves .tb-move[data-value="win"]').click()
        self.wait_for(lambda: self.board().get_attribute("data-to-move") == "o", "O's turn")
        self.wait_for(lambda: value.get_attribute("data-value") == "loss", "O's value")
        self.assertEqual(value.get_attribute("data-distance"), "36")

    def test_analysis_shows_lines_and_follows_the_moves(self):
        self.analyse_with_two_lines()
        self.click_a_move()
        self.wait_for(lambda: self.browser.find_elements(
            By.CSS_SELECTOR, '#analysis-lines [data-multipv="1"]'), "the analysis after a move")
        time.sleep(1)
        self.screenshot("analysis")
        self.by_id("stop").click()

    def test_a_pgn_from_the_arena_is_replayed(self):
        with tempfile.TemporaryDirectory() as folder:
            pgn = arena_pgn(folder)
        self.browser.execute_script(
            "const area = document.getElementById('pgn-text'); area.value = arguments[0];"
            "area.dispatchEvent(new Event('input'));", pgn)
        self.by_id("pgn-load").click()
        games = self.wait_for(lambda: self.browser.find_elements(
            By.CSS_SELECTOR, "#pgn-games [data-game-index]"), "the list of games")
        self.assertEqual(len(games), 2)
        games[1].click()
        self.wait_for(lambda: self.board().get_attribute("data-ply") == "0" and
                      self.browser.find_elements(By.CSS_SELECTOR, "#move-list [data-ply]"),
                      "the opened game")
        body = self.browser.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.ARROW_RIGHT)
        self.wait_for(lambda: self.board().get_attribute("data-ply") == "1", "one step with Right")
        body.send_keys(Keys.END)
        last = len(self.browser.find_elements(By.CSS_SELECTOR, "#move-list [data-ply]"))
        self.wait_for(lambda: self.board().get_attribute("data-ply") == str(last), "End")
        self.assertIn(self.board().get_attribute("data-result"), ("1-0", "0-1", "1/2-1/2"))
        self.browser.find_element(By.CSS_SELECTOR, '#move-list [data-ply="3"]').click()
        self.wait_for(lambda: self.board().get_attribute("data-ply") == "3", "a click in the list")
        body.send_keys(Keys.ARROW_LEFT)
        self.wait_for(lambda: self.board().get_attribute("data-ply") == "2", "one step with Left")

    def test_a_four_player_game_with_a_forced_pass(self):
        self.new_game("human-human", variant="4p")
        self.wait_for(lambda: self.board().get_attribute("data-to-move") == "1", "seat 1 to move")
        self.click_a_move()
        self.assertEqual(self.board().get_attribute("data-to-move"), "2")
        self.screenshot("four-player")
        # Seat 2 has no cube it may take here: the only move is the pass.
        field = self.by_id("setup-position")
        field.clear()
        field.send_keys("xOxOx/O3O/x3x/O3O/xOxOx 2")
        self.by_id("setup-apply").click()
        self.wait_for(lambda: self.by_id("pass").is_displayed(), "the pass button")
        self.by_id("pass").click()
        self.wait_for(lambda: self.board().get_attribute("data-to-move") == "3", "seat 3 to move")

    def test_two_engines_play_while_their_lines_show(self):
        self.new_game("engine-engine", time_control="st=0.1", engines=("quixo", "mock"))
        self.wait_for(lambda: self.browser.find_elements(By.CSS_SELECTOR, "#info-lines *"),
                      "an info line")
        self.wait_for(lambda: int(self.board().get_attribute("data-ply") or 0) >= 6, "six plies")
        self.screenshot("engine-vs-engine")
        self.wait_for(lambda: self.board().get_attribute("data-result") != "", "the end", 120)

    def test_a_narrow_window_still_shows_the_board(self):
        self.browser.set_window_size(420, 900)
        try:
            board = self.board()
            self.assertLessEqual(board.size["width"], 420)
            self.assertGreater(board.size["width"], 200)
            self.click_a_move()
            self.screenshot("narrow")
        finally:
            self.browser.set_window_size(1280, 1000)


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    for name in ("gui", "engine", "mock", "arena", "screenshots", "tb"):
        parser.add_argument("--" + name, required=True)
    ARGS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
