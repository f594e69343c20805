#!/usr/bin/python3
"""quixo-gui for people who play (issue 26), in headless Chromium: a level chosen by name and Elo
and shown in the player's tag and the PGN, an engine option set from the page (and a bad one
refused by the server), an engine-vs-engine game paused and resumed, a loss on time (0:00, and
"Person (O)" in the reason), a game loaded from an arena PGN saved with its tags, a 10,000-game
PGN opened and filtered, and the small defects of issue 26 (an old error cleared, the winning
five outlined, a warning for an unreachable board, a four-player point letter set apart, a stale
engine line gone after a take-back). It saves the screenshot of the level choice.

Run by ctest (gui_people_tests):
  gui_people_tests.py --gui BIN --engine BIN --mock BIN --arena BIN --screenshots DIR
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gui_browser_tests as base  # noqa: E402
from headless_chromium import start_browser  # noqa: E402  (put on the path by base)

ARGS = None
TEMP = None


def start_gui():
    """quixo-gui with a mock that declares the strength options ("levels", writing every option
    it takes to a file) and the real engine ("quixo")."""
    stderr_file = os.path.join(TEMP, "levels.stderr")
    process, url = base.launch_gui([
        "--port", "0", "--no-save",
        "--engine", "name=levels", "cmd=" + ARGS.mock, "args=--mode levels --random-seed 5",
        "stderr=" + stderr_file,
        "--engine", "name=quixo", "cmd=" + ARGS.engine, "option.Hash=16", "option.Threads=1",
    ])
    return process, url, stderr_file


arena_pgn = base.arena_pgn


class GuiPeopleTests(base.GuiBrowserTests):
    """The main browser suite's helpers; only the tests defined here run (see main)."""

    @classmethod
    def setUpClass(cls):
        cls.gui, cls.url, cls.engine_stderr = start_gui()
        cls.browser = start_browser()

    def setUp(self):
        self.browser.get(self.url)
        self.wait_for(lambda: self.board().get_attribute("data-position") == "5/5/5/5/5 x",
                      "the start position")
        # The levels of the first engine are known once it has started.
        self.wait_for(lambda: len(Select(self.by_id("level")).options) > 1, "the levels")

    def tearDown(self):
        # The level a test chose is not the next test's (the page keeps it in localStorage).
        self.browser.execute_script("localStorage.clear()")
        base.GuiBrowserTests.tearDown(self)

    def engine_said(self, text):
        with open(self.engine_stderr) as file:
            return text in file.read()

    def player_tag(self, index):
        return self.by_id("player-name-%d" % index).text

    def set_text(self, element_id, text):
        field = self.by_id(element_id)
        field.clear()
        field.send_keys(text)

    # --- tests ---------------------------------------------------------------------------------
    def test_a_level_is_chosen_by_name_and_shows_in_the_tag_and_the_pgn(self):
        level = Select(self.by_id("level"))
        labels = [option.text for option in level.options]
        self.assertEqual(labels[0], "Random · 0")
        self.assertEqual(labels[-1], "Full strength")
        # A new person's level is the middle one, and the first game is played at it.
        self.assertEqual(level.first_selected_option.text, "Club · 1200")
        self.wait_for(lambda: "Club · 1200" in self.player_tag(1), "the first game's level")
        level.select_by_value("400")
        self.new_game("human-engine", engines=("levels", "quixo"))
        self.wait_for(lambda: self.player_tag(1) == "O: levels (Beginner · 400)", "the level in the tag")
        self.screenshot("level-choice")
        self.click_a_move()
        self.wait_for(self.human_to_move, "the engine's reply")
        self.wait_for(lambda: self.engine_said("set UCI_Elo=400") and
                      self.engine_said("set UCI_LimitStrength=true"), "the level sent to the engine")
        self.by_id("save-pgn").click()
        self.wait_for(lambda: '[BlackElo "400"]' in self.by_id("pgn-output").get_attribute("value"),
                      "the level in the PGN")
        # Kept for the next visit.
        self.browser.refresh()
        self.wait_for(lambda: len(Select(self.by_id("level")).options) > 1, "the levels again")
        self.assertEqual(Select(self.by_id("level")).first_selected_option.text, "Beginner · 400")

    def test_an_engine_option_is_set_in_the_page_and_checked_by_the_server(self):
        Select(self.by_id("options-engine")).select_by_value("levels")
        field = self.wait_for(lambda: self.browser.find_elements(
            By.CSS_SELECTOR, '#engine-options [data-option="Hash"]'), "the options form")[0]
        self.assertEqual(self.browser.find_elements(
            By.CSS_SELECTOR, '#engine-options [data-option="UCI_Elo"]'), [])  # the level's
        field.clear()
        field.send_keys("32")
        self.browser.execute_script("arguments[0].dispatchEvent(new Event('change'))", field)
        self.wait_for(lambda: "Hash = 32" in self.status(), "the option taken")
        # The server checks what a page sends, whatever the form allows.
        self.browser.execute_script(
            "window.quixoDebug.app.send({type: 'set_option', engine: 'levels', name: 'Hash', value: '999'})")
        self.wait_for(lambda: "from 1 to 64" in self.status(), "the bad value refused")
        self.new_game("human-engine", engines=("levels", "quixo"), human_side="o")
        self.wait_for(lambda: self.engine_said("set Hash=32"), "the option sent to the engine")
        # The refusal is gone after the later success.
        self.assertNotIn("from 1 to 64", self.status())

    def test_two_engines_pause_and_resume(self):
        self.new_game("engine-engine", time_control="60+0", engines=("quixo", "quixo"))
        self.wait_for(lambda: int(self.board().get_attribute("data-ply")) >= 1, "a first move")
        self.by_id("pause").click()
        self.wait_for(lambda: self.by_id("pause").get_attribute("aria-pressed") == "true", "paused")
        self.assertEqual(self.browser.find_elements(By.CSS_SELECTOR, ".clock.running"), [])
        ply = self.board().get_attribute("data-ply")
        clocks = [self.by_id("clock-%d" % i).text for i in (0, 1)]
        time.sleep(1.5)
        self.assertEqual(self.board().get_attribute("data-ply"), ply)
        self.assertEqual([self.by_id("clock-%d" % i).text for i in (0, 1)], clocks)
        self.by_id("pause").click()
        self.wait_for(lambda: self.by_id("pause").get_attribute("aria-pressed") == "false", "resumed")
        self.wait_for(lambda: int(self.board().get_attribute("data-ply")) > int(ply), "a move after resuming")
        self.new_game("human-human")

    def test_a_loss_on_time_shows_0_00_and_names_the_person_as_the_page(self):
        Select(self.by_id("level")).select_by_value("full")
        self.new_game("human-engine", time_control="1+0", engines=("levels", "quixo"), human_side="o")
        self.wait_for(lambda: self.board().get_attribute("data-result") == "1-0", "the flag", 15)
        self.wait_for(lambda: self.by_id("clock-1").text == "0:00", "the flagged clock at 0:00")
        self.assertIn("Person (O) lost on time", self.by_id("result-text").text)

    def test_a_game_loaded_from_an_arena_pgn_is_saved_with_its_tags(self):
        with tempfile.TemporaryDirectory() as folder:
            pgn = arena_pgn(folder)
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', pgn.split("\n\n")[0], re.MULTILINE))
        self.browser.execute_script(
            "document.getElementById('pgn-text').value = arguments[0];", pgn)
        self.by_id("pgn-load").click()
        games = self.wait_for(lambda: self.browser.find_elements(
            By.CSS_SELECTOR, "#pgn-games [data-game-index]"), "the list of games")
        games[0].click()
        self.wait_for(lambda: tags["White"] in self.player_tag(0), "the file's players in the tags")
        self.assertIn(tags["Black"], self.player_tag(1))
        self.by_id("save-pgn").click()
        self.wait_for(lambda: self.by_id("pgn-output").get_attribute("value"), "the saved PGN")
        saved = self.by_id("pgn-output").get_attribute("value")
        for name in ("Event", "Site", "Date", "Round", "White", "Black", "TimeControl"):
            self.assertIn('[%s "%s"]' % (name, tags[name]), saved)
        self.assertNotIn("human", saved)
        self.assertNotIn("????.??.??", saved)

    def test_a_ten_thousand_game_pgn_opens_and_is_filtered(self):
        with tempfile.TemporaryDirectory() as folder:
            game = arena_pgn(folder).split("\n\n[Event")[0].strip() + "\n"
            names = ["alpha", "gamma", "delta", "omega"]
            parts = []
            for i in range(10000):
                text = re.sub(r'\[Round "[^"]*"\]', '[Round "%d"]' % (i + 1), game)
                parts.append(text.replace('[White "alpha"]', '[White "%s"]' % names[i % 4])
                             .replace('[White "beta"]', '[White "%s"]' % names[i % 4]))
            path = os.path.join(folder, "big.pgn")
            with open(path, "w") as file:
                file.write("\n".join(parts))
            self.assertGreater(os.path.getsize(path), 4 << 20)
            self.by_id("pgn-file").send_keys(path)
            self.wait_for(lambda: self.by_id("pgn-page").text == "1–100 of 10000", "the first page", 60)
        rows = self.browser.find_elements(By.CSS_SELECTOR, "#pgn-games tbody tr")
        self.assertEqual(len(rows), 100)
        self.assertEqual([cell.text for cell in rows[1].find_elements(By.TAG_NAME, "td")][1:3],
                         ["2", "gamma"])
        self.by_id("pgn-next").click()
        self.wait_for(lambda: self.by_id("pgn-page").text == "101–200 of 10000", "the second page")
        self.set_text("pgn-player", "GAMMA")
        self.wait_for(lambda: self.by_id("pgn-page").text == "1–100 of 2500 (of 10000)", "the filter")
        self.wait_for(lambda: all("gamma" in row.text for row in self.browser.find_elements(
            By.CSS_SELECTOR, "#pgn-games tbody tr")), "only gamma's games")
        result = self.browser.find_element(By.CSS_SELECTOR, "#pgn-games tbody tr td:nth-child(5)").text
        other = next(value for value in ("1-0", "0-1", "1/2-1/2") if value != result)
        Select(self.by_id("pgn-result")).select_by_value(other)
        self.wait_for(lambda: self.by_id("pgn-page").text == "none of 10000", "no game with the other result")
        Select(self.by_id("pgn-result")).select_by_value(result)
        self.wait_for(lambda: self.by_id("pgn-page").text == "1–100 of 2500 (of 10000)", "the result kept")
        self.browser.find_elements(By.CSS_SELECTOR, "#pgn-games [data-game-index]")[3].click()
        self.wait_for(lambda: self.player_tag(0).endswith("gamma"), "a game of the big file opened")

    def test_with_a_token_only_the_printed_url_opens_the_page(self):
        # Defect 4: a token (always off loopback; here given on loopback) is wanted by every
        # request; the printed URL carries it and sets the cookie the page's scripts and its
        # WebSocket then carry, as Jupyter does.
        process, url = base.launch_gui([
            "--port", "0", "--no-save", "--token", "browser-test-token",
            "--engine", "name=mock", "cmd=" + ARGS.mock, "args=--mode normal --random-seed 3",
        ])
        try:
            self.assertTrue(url.endswith("/?token=browser-test-token"), url)
            bare = url[:url.index("?")]
            self.browser.delete_all_cookies()
            self.browser.get(bare)
            self.assertIn("needs its token", self.browser.find_element(By.TAG_NAME, "body").text)
            self.browser.get(bare + "?token=wrong-token-26")
            self.assertIn("needs its token", self.browser.find_element(By.TAG_NAME, "body").text)
            self.browser.get(url)
            self.wait_for(lambda: self.board().get_attribute("data-position") == "5/5/5/5/5 x",
                          "the page over its WebSocket")
            self.click_a_move()
            self.wait_for(lambda: self.board().get_attribute("data-ply") == "2",
                          "the mock's reply over the WebSocket")
            # The cookie now opens the page without the token in its address.
            self.browser.get(bare)
            self.wait_for(lambda: self.board().get_attribute("data-position"),
                          "the page and its WebSocket by the cookie")
        finally:
            self.browser.get(self.url)
            base.stop_gui(process)
            if hasattr(self.browser, "get_log"):
                self.browser.get_log("browser")  # the refused loads above are not page errors

    def test_an_engine_that_cannot_start_stops_quixo_gui_with_its_name(self):
        # Defect 7: each engine is started once at start-up, not found after the first move.
        result = subprocess.run(
            [ARGS.gui, "--port", "0", "--no-save",
             "--engine", "name=fine", "cmd=" + ARGS.mock,
             "--engine", "name=broken", "cmd=/nonexistent/quixo-engine"],
            capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 2)
        self.assertIn('engine "broken"', result.stderr)
        self.assertNotIn("http://", result.stdout)

    def test_the_small_defects_of_issue_26(self):
        # An old error goes after a later success.
        self.new_game("human-human")
        self.set_text("setup-position", "6/5/5/5/5 x")
        self.by_id("setup-apply").click()
        self.wait_for(lambda: "status-error" in self.by_id("status").get_attribute("class"),
                      "the refusal")
        # A board no game reaches is set up with a warning; the error before it is gone.
        self.set_text("setup-position", "ooooo/ooooo/ooooo/ooooo/ooooo x")
        self.by_id("setup-apply").click()
        self.wait_for(lambda: "Warning:" in self.status() and "no X cube" in self.status(), "the warning")
        # A line of five is outlined.
        self.set_text("setup-position", "xxxxx/5/5/5/oooo1 o")
        self.by_id("setup-apply").click()
        self.wait_for(lambda: self.board().get_attribute("data-result") == "1-0", "the line's result")
        outlined = sorted(element.get_attribute("data-square") for element in
                          self.browser.find_elements(By.CSS_SELECTOR, "#board [data-square].win-line"))
        self.assertEqual(outlined, ["a5", "b5", "c5", "d5", "e5"])
        self.assertEqual(self.status(), "")  # the warning went with this success
        # A four-player move's point letter stands apart.
        self.new_game("human-human", variant="4p")
        self.wait_for(lambda: self.board().get_attribute("data-to-move") == "1", "seat 1 to move")
        self.click_a_move()
        point = self.browser.find_element(By.CSS_SELECTOR, '#move-list [data-ply="1"] .move-point')
        self.assertIn(point.text, ("x", "X"))
        # The engine's line goes with the move taken back.
        Select(self.by_id("variant")).select_by_value("2p")
        Select(self.by_id("level")).select_by_value("full")
        self.new_game("human-engine", time_control="st=0.2", engines=("quixo", "quixo"))
        self.click_a_move()
        self.wait_for(lambda: self.human_to_move() and self.browser.find_elements(
            By.CSS_SELECTOR, '#info-lines [data-engine="quixo"]'), "the engine's reply and its line")
        # The evaluation bar's number reads across, at a readable size.
        bar_text = self.by_id("eval-bar-text")
        self.wait_for(lambda: bar_text.text != "", "a score on the evaluation bar")
        mode, size = self.browser.execute_script(
            "const s = getComputedStyle(arguments[0]); return [s.writingMode, parseFloat(s.fontSize)];",
            bar_text)
        self.assertEqual(mode, "horizontal-tb")
        self.assertGreaterEqual(size, 12)
        self.by_id("takeback").click()
        self.wait_for(lambda: self.board().get_attribute("data-ply") == "0", "the take-back")
        self.wait_for(lambda: not self.browser.find_elements(By.CSS_SELECTOR, "#info-lines [data-engine]"),
                      "the stale line gone")


def main():
    global ARGS, TEMP
    parser = argparse.ArgumentParser()
    for name in ("gui", "engine", "mock", "arena", "screenshots"):
        parser.add_argument("--" + name, required=True)
    ARGS, rest = parser.parse_known_args()
    base.ARGS = ARGS
    with tempfile.TemporaryDirectory() as folder:
        TEMP = folder
        status = base.run_own_tests(GuiPeopleTests)
    sys.exit(status)


if __name__ == "__main__":
    main()
