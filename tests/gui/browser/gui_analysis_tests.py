#!/usr/bin/python3
"""quixo-gui's analysis in a real browser (headless Chromium through Selenium), as a person uses
it: a MultiPV line clicked is shown on the board, stepped through and played; the whole game
analysed at once, with its progress bar, its marks in the move list and on the graph and the
per-side summary (a table win thrown away is a blunder); moves typed and made with the keyboard
cursor. Uses the helpers of gui_browser_tests.py; its screenshot of whole-game analysis is the
README's picture.

Run by ctest (gui_analysis_tests), with the arguments of gui_browser_tests.
"""
import argparse
import os
import sys
import time
import unittest

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gui_browser_tests as base  # noqa: E402

# No blank cube (layer 0 of the test tables): X wins in 37; of its 20 moves 13 lose.
TABLE_POSITION = "oxooo/xooxx/oxxxo/xxoxx/oooxx x"


class GuiAnalysisTests(base.GuiBrowserTests):
    """The base class's helpers and set-up (a fresh page on the start position); only the tests
    defined here run (see main)."""

    def css(self, selector):
        return self.browser.find_elements(By.CSS_SELECTOR, selector)

    def shift_arrow(self, key, times=1):
        for _ in range(times):
            ActionChains(self.browser).key_down(Keys.SHIFT).send_keys(key).key_up(Keys.SHIFT).perform()

    def press(self, key):
        ActionChains(self.browser).send_keys(key).perform()

    def set_up(self, position):
        field = self.by_id("setup-position")
        field.clear()
        field.send_keys(position)
        self.by_id("setup-apply").click()
        self.wait_for(lambda: self.board().get_attribute("data-position") == position, "the set-up")

    def click_line(self, multipv):
        """Presses an analysis line; the list is redrawn with every info line, so a line found
        may be gone by the click: try again."""
        def pressed():
            try:
                self.css('#analysis-lines [data-multipv="%d"]' % multipv)[0].click()
                return True
            except (StaleElementReferenceException, IndexError):
                return False
        self.wait_for(pressed, "a click on analysis line %d" % multipv)

    # --- tests ---------------------------------------------------------------------------------
    def test_a_multipv_line_is_shown_on_the_board_stepped_through_and_played(self):
        multipv = self.by_id("analysis-multipv")
        multipv.clear()
        multipv.send_keys("3")
        self.new_game("analysis")
        self.wait_for(lambda: self.css('#analysis-lines [data-multipv="3"]'), "three lines")
        # One arrow per line's first move, coloured by rank (lines with the same first move
        # share one); read at once, as they are redrawn with every info line.
        def arrow_classes():
            return self.browser.execute_script(
                "return [...document.querySelectorAll('#board .arrows .arrow')]"
                ".map((arrow) => arrow.getAttribute('class'));")
        classes = self.wait_for(lambda: len(arrow_classes()) >= 2 and arrow_classes(),
                                "an arrow per line")
        self.assertIn("arrow arrow-0", classes)
        self.assertTrue(set(classes) & {"arrow arrow-1", "arrow arrow-2"}, classes)
        start = self.board().get_attribute("data-position")
        self.click_line(2)
        board = self.board()
        self.wait_for(lambda: board.get_attribute("data-preview-position") not in ("", None),
                      "the line's first position on the board")
        self.assertTrue(self.by_id("line-preview").is_displayed())
        # The game is as it was; the board draws the line's position.
        self.assertEqual(board.get_attribute("data-position"), start)
        self.assertEqual(board.get_attribute("data-ply"), "0")
        first = self.by_id("preview-text").text.split(":")[1].split()[0]
        self.assertEqual(self.square(first[2:4]).get_attribute("data-cube"), "x")
        after_one = board.get_attribute("data-preview-position")
        # Right steps through the line, not the game; Left comes back.
        steps = self.by_id("preview-step").text
        if not steps.endswith("/ 1"):
            self.press(Keys.ARROW_RIGHT)
            self.wait_for(lambda: self.by_id("preview-step").text.startswith("2 /"), "step 2")
            self.assertNotEqual(board.get_attribute("data-preview-position"), after_one)
            self.press(Keys.ARROW_LEFT)
            self.wait_for(lambda: board.get_attribute("data-preview-position") == after_one,
                          "back to step 1")
        self.assertEqual(board.get_attribute("data-ply"), "0")
        # Esc returns to the game.
        self.press(Keys.ESCAPE)
        self.wait_for(lambda: not self.by_id("line-preview").is_displayed(), "the preview closed")
        self.assertEqual(board.get_attribute("data-preview-position"), "")
        # Shown again and played to its first move: the game takes it.
        self.click_line(2)
        self.wait_for(lambda: board.get_attribute("data-preview-position") not in ("", None),
                      "the line again")
        shown = board.get_attribute("data-preview-position")
        self.screenshot("line-preview")
        self.by_id("preview-play").click()
        self.wait_for(lambda: board.get_attribute("data-ply") == "1", "the line's move played")
        self.assertEqual(board.get_attribute("data-position"), shown)
        self.assertFalse(self.by_id("line-preview").is_displayed())
        self.by_id("stop").click()

    def test_whole_game_analysis_marks_a_thrown_table_win_as_a_blunder(self):
        self.new_game("human-human")
        self.set_up(TABLE_POSITION)
        value = self.by_id("tb-value")
        self.wait_for(lambda: value.get_attribute("data-value") == "win", "X's win")
        # X throws the win away, O takes its win.
        self.wait_for(lambda: self.css('#tb-moves .tb-move[data-value="loss"]'), "a losing move")
        self.css('#tb-moves .tb-move[data-value="loss"]')[0].click()
        self.wait_for(lambda: value.get_attribute("data-value") == "win" and
                      self.board().get_attribute("data-to-move") == "o", "O's win")
        self.css('#tb-moves .tb-move[data-value="win"]')[0].click()
        self.wait_for(lambda: self.board().get_attribute("data-ply") == "2", "O's move")
        time_field = self.by_id("game-analysis-time")
        time_field.clear()
        time_field.send_keys("0.1")
        self.by_id("game-analysis-start").click()
        progress = self.by_id("game-analysis-progress")
        self.wait_for(lambda: progress.get_attribute("data-running") == "false" and
                      progress.get_attribute("data-done") == "3", "the analysis at 100 %")
        self.assertEqual(progress.get_attribute("data-total"), "3")
        self.assertIn("100 %", self.by_id("game-analysis-progress-text").text)
        blunder = self.wait_for(lambda: self.css('#move-list [data-ply="1"][data-mark="blunder"]'),
                                "the blunder's mark in the move list")
        self.assertIn("blunder", blunder[0].get_attribute("title"))
        self.assertEqual(self.css('#move-list [data-ply="2"][data-mark]'), [])
        graph = self.by_id("eval-graph")
        self.assertEqual(graph.get_attribute("data-marks"), "1")
        dot = self.css('#eval-graph [data-mark="blunder"]')[0]
        self.assertEqual(dot.get_attribute("data-ply"), "1")
        self.assertIn("O wins", dot.find_element(By.TAG_NAME, "title").get_attribute("textContent"))
        # At the blunder, the better move is an arrow on the board.
        self.css('#move-list [data-ply="1"]')[0].click()
        self.wait_for(lambda: self.board().get_attribute("data-ply") == "1", "the blunder shown")
        self.wait_for(lambda: self.css("#board .arrows .arrow"), "the better move's arrow")
        cell = self.css('#game-analysis-summary tr[data-side="x"] td[data-mark="blunder"]')[0]
        self.assertEqual(cell.text, "1")
        self.assertEqual(
            self.css('#game-analysis-summary tr[data-side="o"] td[data-mark="blunder"]')[0].text, "0")

    def test_whole_game_analysis_of_an_engine_game_runs_to_the_end_and_can_be_cancelled(self):
        self.new_game("engine-engine", time_control="st=0.05", engines=("quixo", "mock"))
        self.wait_for(lambda: self.board().get_attribute("data-result") != "", "the end", 120)
        plies = int(self.board().get_attribute("data-ply"))
        Select(self.by_id("engine-1")).select_by_value("quixo")
        time_field = self.by_id("game-analysis-time")
        time_field.clear()
        time_field.send_keys("30")
        # Thirty seconds a position: still running when cancelled.
        self.by_id("game-analysis-start").click()
        progress = self.by_id("game-analysis-progress")
        self.wait_for(lambda: progress.get_attribute("data-running") == "true", "the run")
        self.by_id("game-analysis-cancel").click()
        self.wait_for(lambda: progress.get_attribute("data-running") == "false", "the cancel")
        self.assertIn("Cancelled", self.by_id("game-analysis-progress-text").text)
        time_field.clear()
        time_field.send_keys("0.1")
        self.by_id("game-analysis-start").click()
        self.wait_for(lambda: progress.get_attribute("data-running") == "false" and
                      progress.get_attribute("data-done") == str(plies + 1), "100 %", 120)
        # Every move is analysed; each mark is on the graph too.
        marked = self.css("#move-list [data-mark]")
        self.assertEqual(self.by_id("eval-graph").get_attribute("data-marks"), str(len(marked)))
        self.assertEqual(self.by_id("eval-graph").get_attribute("data-points"), str(plies))
        self.assertTrue(self.by_id("game-analysis-summary").is_displayed())
        # The picture: the first blunder shown (else the sixth move), the whole page in view.
        blunders = self.css('#move-list [data-mark="blunder"]')
        ply = blunders[0].get_attribute("data-ply") if blunders else str(min(plies, 6))
        self.browser.find_element(By.CSS_SELECTOR, '#move-list [data-ply="%s"]' % ply).click()
        self.wait_for(lambda: self.board().get_attribute("data-ply") == ply, "the move shown")
        self.browser.set_window_size(1280, 1500)
        try:
            self.browser.execute_script("window.scrollTo(0, 0)")
            self.screenshot("game-analysis")
        finally:
            self.browser.set_window_size(1280, 1000)

    def test_moves_typed_and_made_with_the_keyboard_cursor(self):
        self.new_game("human-human")
        self.wait_for(lambda: self.board().get_attribute("data-ply") == "0", "the new game")
        field = self.by_id("move-input")
        # A file letter typed on the page starts a move in the field.
        self.browser.find_element(By.TAG_NAME, "body").send_keys("b")
        self.wait_for(lambda: field.get_attribute("value") == "b", "the move field")
        field.send_keys("1e1" + Keys.ENTER)
        self.wait_for(lambda: self.board().get_attribute("data-ply") == "1", "the typed move")
        self.assertEqual(self.square("e1").get_attribute("data-cube"), "x")
        self.assertEqual(field.get_attribute("value"), "")
        # An illegal one is named and not sent.
        field.send_keys("c3c1" + Keys.ENTER)
        self.wait_for(lambda: "not a legal move" in self.status(), "the error")
        self.assertEqual(self.board().get_attribute("data-ply"), "1")
        field.clear()
        # The cursor: Shift + arrows from the centre to a5, Enter takes it, to a1, Enter pushes.
        self.browser.execute_script("document.activeElement.blur()")
        self.shift_arrow(Keys.ARROW_LEFT, 3)
        self.shift_arrow(Keys.ARROW_UP, 2)
        focused = self.browser.switch_to.active_element
        self.assertEqual(focused.get_attribute("data-square"), "a5")
        self.press(Keys.ENTER)
        self.wait_for(lambda: "selected" in self.square("a5").get_attribute("class"), "a5 taken")
        self.shift_arrow(Keys.ARROW_DOWN, 4)
        self.assertEqual(self.browser.switch_to.active_element.get_attribute("data-square"), "a1")
        self.press(Keys.ENTER)
        self.wait_for(lambda: self.board().get_attribute("data-ply") == "2", "the cursor's move")
        self.assertEqual(self.square("a1").get_attribute("data-cube"), "o")
        # Plain arrows still step through the game while a square has the focus.
        self.press(Keys.ARROW_LEFT)
        self.wait_for(lambda: self.board().get_attribute("data-ply") == "1", "one step back")


def main():
    parser = argparse.ArgumentParser()
    for name in ("gui", "engine", "mock", "arena", "screenshots", "tb"):
        parser.add_argument("--" + name, required=True)
    base.ARGS, _ = parser.parse_known_args()
    sys.exit(base.run_own_tests(GuiAnalysisTests))


if __name__ == "__main__":
    main()
