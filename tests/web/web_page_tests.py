#!/usr/bin/python3
"""The static site's page in headless Chromium: build/web/ served by python3 -m http.server, no
project process running. The page runs quixo-gui's session in WebAssembly and its engine in a
Web Worker (gui/web/local-connection.js).

A person plays a whole game against the engine by clicking; the engine plays itself and the team
game; the analysis shows two lines; the endgame tables, downloaded from the site on request,
give a one-blank position the value the native quixo-tb gives; a game saved as PGN is opened
from the person's disk; a reload finds the game kept in the browser's storage; after the first visit the
site works with its server stopped; the page requests nothing outside its own origin; a
phone-sized window with touch plays a move. The screenshots
(--screenshots DIR) are the README's pictures of the site.

Run by ctest (web_page_tests, the wasm preset):
  web_page_tests.py --web DIR --native-bin DIR --screenshots DIR
"""
import argparse
import os
import re
import subprocess
import sys
import time
import unittest

from selenium.webdriver.common.by import By

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "gui", "browser"))
sys.path.insert(0, os.path.join(HERE, "..", "support"))
sys.path.insert(0, HERE)
import gui_browser_tests as base  # noqa: E402
from headless_chromium import start_browser  # noqa: E402
from static_server import start_static_server, stop_static_server  # noqa: E402

ARGS = None


class WebPageTests(base.GuiBrowserTests):
    @classmethod
    def setUpClass(cls):
        cls.server, cls.url = start_static_server(ARGS.web)
        cls.browser = start_browser(console_log=True)

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        stop_static_server(cls.server)

    def setUp(self):
        # Each test starts afresh: the site keeps the last game in the browser's storage, which
        # is cleared from a page of the origin that runs nothing.
        self.browser.get(self.url + "tables/index.json")
        self.browser.execute_async_script("""
            const done = arguments[arguments.length - 1];
            localStorage.clear();
            indexedDB.databases()
              .then((databases) => Promise.all(databases.map((database) => new Promise((end) => {
                const request = indexedDB.deleteDatabase(database.name);
                request.onsuccess = request.onerror = request.onblocked = end;
              }))))
              .then(() => done(), () => done());
        """)
        self.browser.get_log("browser")  # that page's own (its missing favicon.ico): not the site's
        super().setUp()

    def test_a_whole_game_against_the_engine_in_the_page(self):
        self.assertIn("static-site", self.browser.find_element(By.TAG_NAME, "body")
                      .get_attribute("class"))
        # With pondering: the Worker searches the expected reply on the person's time, and then
        # takes `ponderhit` or `stop` when the person moves.
        self.new_game("human-engine", time_control="depth=2", ponder=True)
        self.wait_for(lambda: self.board().get_attribute("data-ply") == "0", "the new game")
        self.click_a_move()
        self.wait_for(lambda: self.browser.execute_script(
            "return window.quixoDebug.app.state.pondering?.engine === 'quixo';"),
            "the engine pondering on the person's time")
        self.play_to_the_end()
        moves = self.browser.find_elements(By.CSS_SELECTOR, "#move-list [data-ply]")
        self.assertGreaterEqual(len(moves), 9)
        engine_moves = self.browser.execute_script(
            "return window.quixoDebug.app.state.moves.filter((m) => m.by === 'quixo').length;")
        self.assertGreaterEqual(engine_moves, 4)
        self.screenshot("web-person-vs-engine")

    def test_the_engine_plays_itself_and_a_four_player_game_with_engines(self):
        # One engine Worker plays both sides, one search after the other: with pondering on, it
        # does not ponder, as it would wait on itself.
        self.new_game("engine-engine", time_control="depth=1", engines=("quixo", "quixo"),
                      ponder=True)
        self.wait_for(lambda: self.board().get_attribute("data-result") != "", "the end", 180)
        self.assertGreaterEqual(int(self.board().get_attribute("data-ply")), 9)
        # The team game: a person plays team A (seats 1 and 3), the engine team B (2 and 4).
        self.new_game("human-engine", variant="4p", time_control="depth=1")
        self.wait_for(lambda: self.board().get_attribute("data-to-move") == "1", "seat 1")
        self.click_a_move()
        self.wait_for(lambda: self.board().get_attribute("data-to-move") == "3", "seat 2's move")
        self.click_a_move()
        self.wait_for(lambda: self.board().get_attribute("data-to-move") == "1", "seat 4's move")
        self.assertEqual(self.board().get_attribute("data-ply"), "4")

    def test_a_game_saved_as_pgn_is_opened_from_the_persons_disk(self):
        self.new_game("human-human")
        self.wait_for(lambda: self.board().get_attribute("data-ply") == "0", "the new game")
        for choice in (1, 4, 9):
            self.click_a_move(choice)
        self.by_id("save-pgn").click()
        output = self.by_id("pgn-output")
        self.wait_for(lambda: "[QuixoTermination" in output.get_attribute("value"),
                      "the game as PGN")
        path = os.path.abspath(os.path.join(ARGS.screenshots, "..", "web-test.pgn"))
        with open(path, "w") as file:
            file.write(output.get_attribute("value"))
        position = self.board().get_attribute("data-position")
        self.new_game("human-human")
        self.wait_for(lambda: self.board().get_attribute("data-ply") == "0", "another game")
        self.by_id("pgn-file").send_keys(path)
        games = self.wait_for(lambda: self.browser.find_elements(
            By.CSS_SELECTOR, "#pgn-games [data-game-index]"), "the file's list of games")
        self.assertEqual(len(games), 1)
        games[0].click()
        self.wait_for(lambda: len(self.browser.find_elements(
            By.CSS_SELECTOR, "#move-list [data-ply]")) == 3, "the opened game")
        self.by_id("nav-end").click()
        self.wait_for(lambda: self.board().get_attribute("data-position") == position,
                      "the opened game's last position")

    def test_the_site_works_offline_after_the_first_visit(self):
        # A server of its own, stopped after the first visit: the service worker serves the rest.
        server, url = start_static_server(ARGS.web)
        try:
            self.browser.get(url)
            self.wait_for(lambda: self.board().get_attribute("data-human-to-move") == "true",
                          "the playable start position")
            # A new origin, so a first load: the README's figures.
            playable_ms, transferred, files = self.browser.execute_script("""
                const entries = performance.getEntriesByType('navigation')
                  .concat(performance.getEntriesByType('resource'));
                return [performance.now(),
                        entries.reduce((sum, entry) => sum + entry.transferSize, 0),
                        entries.length];""")
            print("first load: %d bytes in %d files, a playable board after %d ms (the engine's "
                  "Worker starts with its first search)" % (transferred, files, playable_ms))
            self.assertGreater(transferred, 1000000)
            self.wait_for(lambda: self.browser.execute_script(
                "return !!navigator.serviceWorker.controller;") or self.browser.refresh(),
                "the service worker in control", 30)
        finally:
            stop_static_server(server)
        self.browser.refresh()
        self.wait_for(lambda: self.board().get_attribute("data-human-to-move") == "true",
                      "the page from the cache")
        self.click_a_move()

    def test_analysis_shows_two_lines(self):
        self.analyse_with_two_lines()
        self.click_a_move()
        self.wait_for(lambda: self.browser.find_elements(
            By.CSS_SELECTOR, '#analysis-lines [data-multipv="2"]'), "two lines after a move")
        self.by_id("stop").click()

    def test_the_tables_give_a_one_blank_position_its_native_value(self):
        button = self.by_id("site-tables-load")
        self.wait_for(lambda: button.is_displayed(), "the tables' button")
        self.assertIn("14.9 MB", button.text)
        # The engine's options, listed when its Worker has started, push the tables' box down
        # the page: a click before that can land where the button was (CI, 2026-12-02, on the
        # first run after the machine sat idle), so the click waits for them.
        self.wait_for(lambda: self.browser.find_elements(
            By.CSS_SELECTOR, "#engine-options [data-option]"), "the engine's options")
        button.click()
        self.wait_for(lambda: not button.is_enabled() or
                      self.by_id("site-tables-box").get_attribute("data-loaded") == "true",
                      "the click on the tables' button to start the download")
        box = self.by_id("site-tables-box")
        self.wait_for(lambda: box.get_attribute("data-loaded") == "true" or button.is_enabled(),
                      "the tables", 120)
        self.assertEqual(box.get_attribute("data-loaded"), "true",
                         self.by_id("site-tables-text").text)  # the page's reason otherwise
        position = "xxoxo/oxxox/xxoxx/oxxxx/o1xox x"
        native = subprocess.run([os.path.join(ARGS.native_bin, "quixo-tb"), "probe", "--dir",
                                 os.path.join(ARGS.web, "tables"), position],
                                capture_output=True, text=True, timeout=60, check=True).stdout
        value, distance = re.search(r"\b(win|loss|draw)(?: (\d+))?", native).groups()
        self.new_game("human-human")
        field = self.by_id("setup-position")
        field.clear()
        field.send_keys(position)
        self.by_id("setup-apply").click()
        self.wait_for(lambda: self.board().get_attribute("data-position") == position,
                      "the set-up")
        shown = self.by_id("tb-value")
        self.wait_for(lambda: shown.get_attribute("data-value") == value, "the table's value")
        self.assertEqual(shown.get_attribute("data-distance"), distance or "")

    def test_a_reload_finds_the_game_kept(self):
        self.new_game("human-human")
        self.wait_for(lambda: self.board().get_attribute("data-ply") == "0", "the new game")
        self.click_a_move(3)
        self.click_a_move(5)
        position = self.board().get_attribute("data-position")
        time.sleep(1)  # the session's files reach IndexedDB a moment after the change
        self.browser.refresh()
        self.wait_for(lambda: self.board().get_attribute("data-position") == position,
                      "the kept game after the reload")
        self.assertEqual(self.board().get_attribute("data-ply"), "2")

    def test_nothing_outside_the_origin_is_requested(self):
        self.click_a_move()
        origin = self.url.rstrip("/")
        resources = self.browser.execute_script(
            "return performance.getEntriesByType('resource').map((entry) => entry.name);")
        self.assertTrue(any(name.endswith("quixo-gui-session.wasm") for name in resources),
                        resources)
        outside = [name for name in resources if not name.startswith(origin)]
        self.assertEqual(outside, [])
        policy = self.browser.find_element(
            By.CSS_SELECTOR, 'meta[http-equiv="Content-Security-Policy"]').get_attribute("content")
        self.assertIn("default-src 'self'", policy)

    def test_a_phone_sized_window_plays_by_touch(self):
        self.browser.set_window_size(390, 844)
        try:
            self.new_game("human-human")
            self.wait_for(lambda: self.board().get_attribute("data-ply") == "0", "the new game")
            board = self.board()
            self.assertLessEqual(board.size["width"], 390)
            self.assertGreater(board.size["width"], 250)
            # A tap is a touch that ends where it began: the browser makes it a click.
            self.browser.execute_cdp_cmd("Emulation.setTouchEmulationEnabled",
                                         {"enabled": True, "maxTouchPoints": 1})
            self.tap(self.browser.find_elements(By.CSS_SELECTOR,
                                                "#board [data-square].takeable")[0])
            target = self.wait_for(lambda: self.browser.find_elements(
                By.CSS_SELECTOR, "#board [data-square].target"), "the lit ends")[0]
            self.tap(target)
            self.wait_for(lambda: self.board().get_attribute("data-ply") == "1", "the tapped move")
            self.browser.execute_script("window.scrollTo(0, 0);")
            self.screenshot("web-phone")
        finally:
            self.browser.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
            self.browser.set_window_size(1280, 1000)

    def tap(self, element):
        rect = self.browser.execute_script(
            "const r = arguments[0].getBoundingClientRect(); return [r.x + r.width / 2, "
            "r.y + r.height / 2];", element)
        point = {"x": rect[0], "y": rect[1]}
        self.browser.execute_cdp_cmd("Input.dispatchTouchEvent",
                                     {"type": "touchStart", "touchPoints": [point]})
        self.browser.execute_cdp_cmd("Input.dispatchTouchEvent",
                                     {"type": "touchEnd", "touchPoints": []})


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--web", required=True, help="build/web, from scripts/build-web.sh")
    parser.add_argument("--native-bin", required=True, help="the release build's bin folder")
    parser.add_argument("--screenshots", required=True)
    ARGS, _ = parser.parse_known_args()
    base.ARGS = ARGS  # the borrowed helpers save screenshots in ARGS.screenshots
    for needed in [os.path.join(ARGS.web, "session", "quixo-gui-session.wasm"),
                   os.path.join(ARGS.native_bin, "quixo-tb")]:
        if not os.path.exists(needed):
            sys.exit("web_page_tests: %s is missing (scripts/build-web.sh builds build/web, "
                     "the release preset the native programs)" % needed)
    sys.exit(base.run_own_tests(WebPageTests))


if __name__ == "__main__":
    main()
