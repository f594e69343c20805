#!/usr/bin/python3
"""quixo-gui keeps a person's work, in a real browser (headless Chromium, as gui_browser_tests).

quixo-gui runs with its own data folder (--data-dir): a reload, and a restart of the server on
the same port, bring the game back; the recent games list opens an older game; a move at an
earlier ply starts a variation that the move list shows and that a click reaches; quick arrow
keys reach the ply they count to; switching to Analysis keeps the game's moves. The variation's
screenshot is the README's picture (--screenshots DIR).

Run by ctest (gui_keep_work_tests):
  gui_keep_work_tests.py --gui BIN --engine BIN --mock BIN --screenshots DIR
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gui_browser_tests as base  # noqa: E402
from gui_browser_tests import start_browser  # noqa: E402

ARGS = None


def start_gui(data_dir, port=0):
    """quixo-gui saving its games in data_dir, with the real engine and the quick mock."""
    return base.launch_gui([
        "--port", str(port), "--data-dir", data_dir,
        "--engine", "name=quixo", "cmd=" + ARGS.engine, "option.Hash=16", "option.Threads=1",
        "--engine", "name=mock", "cmd=" + ARGS.mock, "args=--mode normal --random-seed 7",
    ])


stop_gui = base.stop_gui


class GuiKeepWorkTests(base.GuiBrowserTests):
    """The main browser suite's helpers; only the tests defined here run (see main)."""

    @classmethod
    def setUpClass(cls):
        cls.data_dir = tempfile.mkdtemp(prefix="quixo-gui-keep-work-")
        cls.gui, cls.url = start_gui(cls.data_dir)
        cls.browser = start_browser()

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        stop_gui(cls.gui)
        shutil.rmtree(cls.data_dir, ignore_errors=True)

    def setUp(self):
        # A browser without a kept game: the page starts a new one. The storage is cleared from
        # a file of the same origin that runs no script: a page of quixo-gui could still be
        # receiving its resumed game and write its id back.
        self.browser.get(self.url + "favicon.svg")
        self.browser.execute_script("localStorage.clear()")
        if hasattr(self.browser, "get_log"):
            self.browser.get_log("browser")  # the image's /favicon.ico, not the page's errors
        self.browser.get(self.url)
        self.wait_for(lambda: self.board().get_attribute("data-position") == "5/5/5/5/5 x",
                      "the start position")

    # --- helpers ---------------------------------------------------------------------------
    def state(self):
        return self.browser.execute_script("return window.quixoDebug.app.state")

    def ply(self):
        return int(self.board().get_attribute("data-ply"))

    def play_moves(self, count, choose=0):
        for index in range(count):
            self.click_a_move(choose + index * 5)

    def people_game(self, moves):
        self.new_game("human-human")
        self.wait_for(lambda: self.ply() == 0 and self.state()["players"] == ["human", "human"],
                      "the new game between people")
        self.play_moves(moves)
        self.wait_for(lambda: self.state() and self.state().get("game_id") and
                      len(self.state()["moves"]) == moves, "the saved game")
        return self.state()

    def click_move(self, move):
        """Plays `move` ({from, to}) by clicking its cube and its end."""
        ply = self.ply()
        self.square(move["from"]).click()
        self.wait_for(lambda: "target" in (self.square(move["to"]).get_attribute("class") or ""),
                      "the end " + move["to"] + " lit")
        self.square(move["to"]).click()
        self.wait_for(lambda: self.ply() == ply + 1, "the move " + move["move"])

    def the_game_shows(self, state):
        """The page shows the saved `state`'s game: its position, ply and moves."""
        return (self.board().get_attribute("data-position") == state["position"] and
                self.ply() == state["ply"] and
                [m["move"] for m in (self.state() or {}).get("moves", [])] ==
                [m["move"] for m in state["moves"]])

    # --- tests -----------------------------------------------------------------------------
    def test_a_reload_and_a_closed_tab_keep_the_game(self):
        before = self.people_game(3)
        self.browser.refresh()
        self.wait_for(lambda: self.the_game_shows(before), "the game after the reload")
        self.assertEqual(len(self.browser.find_elements(By.CSS_SELECTOR, "#move-list .move")), 3)
        # A closed tab: the page opened again from nothing.
        self.browser.get("about:blank")
        self.browser.get(self.url)
        self.wait_for(lambda: self.the_game_shows(before), "the game after the tab came back")
        self.wait_for(self.human_to_move, "the person's turn")
        self.click_a_move()

    def test_a_server_restart_keeps_the_game(self):
        before = self.people_game(2)
        port = int(re.search(r":(\d+)/", self.url).group(1))
        stop_gui(self.gui)
        self.wait_for(lambda: "reconnecting" in self.status(), "the page to see the server gone")
        # A state that came before the restart carries this mark; the resumed game's does not.
        self.browser.execute_script("window.quixoDebug.app.state.before_restart = true")
        # The same port (the page's origin, and so its storage) and the same data folder.
        type(self).gui, _ = start_gui(self.data_dir, port)
        self.wait_for(lambda: "before_restart" not in self.state() and
                      self.state()["game_id"] == before["game_id"], "the page reconnected",
                      timeout=40)
        self.wait_for(lambda: self.the_game_shows(before), "the game after the restart")
        self.click_a_move()

    def test_the_recent_games_list_opens_an_older_game(self):
        older = self.people_game(2)
        newer = self.people_game(1)
        self.assertNotEqual(older["game_id"], newer["game_id"])
        selector = '#recent-games [data-game-id="%s"]' % older["game_id"]
        self.wait_for(lambda: self.browser.find_elements(By.CSS_SELECTOR, selector),
                      "the older game in the recent games")
        self.assertTrue(self.by_id("recent-box").is_displayed())
        self.browser.find_element(By.CSS_SELECTOR, selector).click()
        self.wait_for(lambda: self.the_game_shows(older), "the older game")
        self.wait_for(lambda: "current" in self.browser.find_element(
            By.CSS_SELECTOR, selector).get_attribute("class"), "the older game marked")

    def test_a_move_at_an_earlier_ply_makes_a_variation_in_the_move_list(self):
        game = self.people_game(6)
        # Back to ply 2, and another move than the game's third.
        self.browser.find_element(By.CSS_SELECTOR, '#move-list .move[data-ply="2"]').click()
        self.wait_for(lambda: self.ply() == 2, "ply 2")
        other = next(move for move in self.state()["legal"]
                     if move["from"] and move["move"] != game["moves"][2]["move"])
        self.click_move(other)
        self.play_moves(2, choose=3)
        self.by_id("move-comment").send_keys("a try")
        self.by_id("move-comment-save").click()
        self.wait_for(lambda: self.browser.find_elements(By.CSS_SELECTOR, "#move-list .move-comment"),
                      "the comment in the list")

        # Read in one go, after the comment's re-render: a move element found before the list is
        # drawn again is stale after it (a CI run failed so).
        def variation_moves():
            try:
                return [(move.text, move.get_attribute("class")) for move in
                        self.browser.find_elements(By.CSS_SELECTOR,
                                                   "#move-list .variation .variation-move")]
            except StaleElementReferenceException:
                return None
        variation = self.wait_for(variation_moves, "the variation in the list")
        self.assertEqual(len(variation), 3)
        self.assertIn(other["move"], variation[0][0])
        self.assertIn("current", variation[2][1])
        self.screenshot("variation")
        # The game's own sixth move is still there: a click shows it.
        main = self.browser.find_element(By.CSS_SELECTOR,
                                         '#move-list .move-row .move[data-ply="6"]')
        main.click()
        self.wait_for(lambda: self.the_game_shows(game), "the game's last move")
        # And a click on the variation's first move goes there.
        variation = self.browser.find_elements(By.CSS_SELECTOR, "#move-list .variation-move")
        variation[0].click()
        self.wait_for(lambda: self.ply() == 3 and self.state()["moves"][2]["move"] == other["move"],
                      "the variation's first move")
        # The PGN keeps the variation.
        self.by_id("save-pgn").click()
        self.wait_for(lambda: "(" in self.by_id("pgn-output").get_attribute("value") and
                      "{a try}" in self.by_id("pgn-output").get_attribute("value"),
                      "the variation and the comment in the PGN")

    def test_quick_arrow_keys_reach_the_ply_they_count_to(self):
        self.people_game(8)
        body = self.browser.find_element(By.TAG_NAME, "body")
        actions = ActionChains(self.browser)
        for _ in range(6):
            actions.send_keys_to_element(body, Keys.ARROW_LEFT)
        actions.perform()
        self.wait_for(lambda: self.ply() == 2 and self.state()["ply"] == 2, "ply 2 after six lefts")
        # A reply to an earlier goto that arrives between two presses must not cost a step: two
        # presses, then the (late) answer to the first, then a third press, all at once.
        self.browser.execute_script("""
            const press = () => document.dispatchEvent(
                new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
            const app = window.quixoDebug.app;
            press();
            press();
            window.quixoDebug.receive({...app.state, type: 'state', ply: 3,
                                       position: app.state.moves[2].position});
            press();
        """)
        self.wait_for(lambda: self.ply() == 5 and self.state()["ply"] == 5,
                      "ply 5 after three rights")

    def test_a_data_folder_that_cannot_be_used_stops_quixo_gui_with_its_name(self):
        blocker = os.path.join(self.data_dir, "a-file")
        with open(blocker, "w") as out:
            out.write("not a folder")
        folder = os.path.join(blocker, "games")
        run = subprocess.run([ARGS.gui, "--port", "0", "--data-dir", folder],
                             capture_output=True, text=True, timeout=30)
        self.assertEqual(run.returncode, 2, run.stdout + run.stderr)
        self.assertIn("--data-dir", run.stderr)
        self.assertIn(folder, run.stderr)

    def test_switching_to_analysis_keeps_the_game(self):
        self.new_game("human-engine", engines=("mock", "mock"))
        self.wait_for(lambda: self.state()["players"] == ["human", "mock"], "the game against mock")
        self.click_a_move()
        self.wait_for(lambda: self.ply() == 2 and self.human_to_move(), "the engine's reply")
        moves = [move["move"] for move in self.state()["moves"]]
        Select(self.by_id("engine-1")).select_by_value("quixo")
        Select(self.by_id("mode")).select_by_value("analysis")
        self.wait_for(lambda: self.state()["analysis"]["on"] and
                      self.state()["players"] == ["human", "human"], "analysis of the game")
        self.assertEqual([move["move"] for move in self.state()["moves"]], moves)
        self.assertEqual(self.ply(), 2)
        self.wait_for(lambda: self.browser.find_elements(
            By.CSS_SELECTOR, "#analysis-lines [data-multipv]"), "an analysis line")


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    for name in ("gui", "engine", "mock", "screenshots"):
        parser.add_argument("--" + name, required=True)
    ARGS, rest = parser.parse_known_args()
    base.ARGS = ARGS  # the borrowed helpers read it (screenshots)
    sys.exit(base.run_own_tests(GuiKeepWorkTests))


if __name__ == "__main__":
    main()
