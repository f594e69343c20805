"""quixo.compat and quixo.uqi_player: the course framework's board and moves against the
project's, the engine as a framework Player, and a framework Player as a UQI engine in
quixo-arena. The framework is tests/python/framework/game.py, written for these tests with the
course's public interface and behaviour (board[y, x], -1 blank, player 0 first, refused moves
asked again, the first-line winner check)."""
import json
import os
import queue
import random
import subprocess
import sys
import threading
import time

import numpy
import pytest

import quixo
from quixo import compat
from conftest import bin_dir, random_positions

FRAMEWORK_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "framework")
sys.path.insert(0, FRAMEWORK_DIR)

import game as framework  # noqa: E402  (the framework-style game.py above)
from random_player import RandomPlayer  # noqa: E402

# A position where X's move b1b5 completes X's top row and O's bottom row: rows are checked from
# the top, so the framework's first-line check gives the game to X, the rule sheet to O.
BOTH_LINES_MOVER_FIRST = "x1xxx/o1x1o/1o1oo/xo1xx/oxooo x"
# Here X's d5d1 completes lines of both, O's found first: both referees give the game to O.
BOTH_LINES_OPPONENT_FIRST = "ooo1o/xx1ox/ox2o/oox1x/xxxox x"
# Positions where one referee or the other changes the engine's move (found by random play at
# depth 3): a double-line win only the framework awards, or an engine move after which the
# opponent has one.
REFEREE_POSITIONS = ["xxooo/o2o1/xoxxo/xxxxo/xooxo x", "xxxox/ooo1o/xx1xo/o1oxx/oxxxx o",
                     "xxxxo/o2oo/xooox/oxxxo/xooxx o", "ooxoo/ooxxx/xoxxo/o1oox/xoxxx x",
                     "xoxxo/xoxxo/xoxxo/x2ox/o1xoo o", "xx1oo/xoxoo/xxooo/oxo1x/xxooo o"]


def framework_game(board):
    return compat.game_from_board(board, framework.Game)


def accepted_by_framework(board):
    """Every ((x, y), Move) the framework-style game accepts on `board`, with the board after."""
    accepted = {}
    for x in range(5):
        for y in range(5):
            for slide in framework.Move:
                game = framework_game(board)
                if game._Game__move((x, y), slide, board.turn):
                    accepted[((x, y), slide)] = game.get_board()
                else:
                    assert (game.get_board() == compat.board_to_framework(board)).all()
    return accepted


# ------------------------------------------------------------------------------ conversions

def test_the_orientation_of_boards_and_moves():
    board = quixo.Board()
    board.push("a1e1")  # X takes a1 and pushes it in at e1: the bottom right corner
    array = compat.board_to_framework(board)
    assert array.dtype == numpy.int16 and array[4, 4] == 0
    assert (array == -1).sum() == 24
    assert compat.board_from_framework(array, 1).text() == "5/5/5/5/4x o"
    assert compat.move_from_framework(((1, 4), framework.Move.TOP)) == "b1b5"
    assert compat.move_from_framework(((0, 4), framework.Move.RIGHT)) == "a1e1"
    assert compat.move_from_framework(((4, 0), framework.Move.LEFT)) == "e5a5"
    assert compat.move_from_framework(((2, 0), framework.Move.BOTTOM)) == "c5c1"
    assert compat.move_to_framework("b1b5", framework.Move) == ((1, 4), framework.Move.TOP)
    assert compat.move_to_framework("e3a3") == ((4, 2), compat.Move.LEFT)
    game = framework.Game()
    game.current_player_idx = 0
    assert game._Game__move((1, 4), framework.Move.TOP, 0)
    assert compat.board_from_framework(game.get_board(), 1).text() == "1x3/5/5/5/5 o"


def test_every_slide_maps_both_ways():
    framework_moves = set()
    for origin, target in quixo.SLIDES:
        move = compat.move_to_framework(origin + target, framework.Move)
        framework_moves.add(move)
        assert compat.move_from_framework(move) == origin + target
    assert len(framework_moves) == 44
    mapped = []
    for x in range(5):
        for y in range(5):
            for slide in framework.Move:
                try:
                    mapped.append(compat.move_from_framework(((x, y), slide)))
                except ValueError:
                    pass
    assert sorted(mapped) == sorted(origin + target for origin, target in quixo.SLIDES)


def test_boards_round_trip_on_random_positions():
    for board in random_positions(200, seed=1, ongoing=False):
        array = compat.board_to_framework(board)
        back = compat.board_from_framework(array, board.turn)
        assert back.text() == board.text()
        assert (compat.board_to_framework(back) == array).all()
        assert (board.to_array() == numpy.select([array == 0, array == 1], [1, -1], 0)).all()
        for dtype in (numpy.int8, numpy.int64, numpy.uint8, float):
            stored = compat.board_to_framework(board, dtype=dtype)
            assert compat.board_from_framework(stored, board.turn).text() == board.text()
        assert (compat.board_to_framework(board, numpy.uint8)[array == -1] == 255).all()


def test_legal_moves_agree_with_what_the_framework_accepts():
    for board in random_positions(60, seed=2):
        accepted = accepted_by_framework(board)
        assert {compat.move_from_framework(move) for move in accepted} == set(board.legal_moves())
        array = compat.board_to_framework(board)
        assert sorted(compat.accepted_moves(array, board.turn)) == sorted(board.legal_moves())
        for move, after_array in accepted.items():
            after = board.copy()
            after.push(compat.move_from_framework(move))
            assert (after_array == compat.board_to_framework(after)).all()
        for text in board.legal_moves():
            assert compat.move_to_framework(text, framework.Move) in accepted


def test_impossible_input_is_a_value_error():
    blank = numpy.full((5, 5), -1)
    bad_boards = [numpy.full((4, 5), -1), numpy.full((5, 5), 2), numpy.full((5, 5), "x"),
                  numpy.where(numpy.eye(5) > 0, 7, -1)]
    for array in bad_boards:
        with pytest.raises(ValueError):
            compat.board_from_framework(array, 0)
    for player in (2, -1, None, True):
        with pytest.raises(ValueError):
            compat.board_from_framework(blank, player)
    bad_moves = [((2, 2), framework.Move.TOP), ((5, 0), framework.Move.TOP),
                 ((0, 0), framework.Move.LEFT), ((0, 0), framework.Move.TOP),
                 ((2, 0), framework.Move.TOP), ((1.0, 0), framework.Move.TOP),
                 ((1, 0), "UP"), ((1, 0), 3), (1, 0), None, ((1, 0),)]
    for move in bad_moves:
        with pytest.raises(ValueError):
            compat.move_from_framework(move)
    for text in ("a1a1", "b2b5", "a1e2", "b1e1X", "z1a1", "", None):
        with pytest.raises(ValueError):
            compat.move_to_framework(text)
    with pytest.raises(ValueError):
        compat.move_to_framework("a1e1", move_type=int)
    with pytest.raises(ValueError):
        compat.board_to_framework(quixo.Board4())


# --------------------------------------------------------------------------- the rules' difference

def test_a_double_line_is_the_movers_win_for_the_framework_and_a_loss_by_the_rule_sheet():
    board = quixo.Board(BOTH_LINES_MOVER_FIRST)
    game = framework_game(board)
    assert game._Game__move((1, 4), framework.Move.TOP, 0)  # b1b5
    assert game.check_winner() == 0  # X's top row is found before O's bottom row
    assert compat.first_line_winner(game.get_board()) == 0
    board.push("b1b5")
    assert compat.has_lines_of_both(board)
    assert board.result() == "0-1"  # the rule sheet: X made O's line, so X loses

    board = quixo.Board(BOTH_LINES_OPPONENT_FIRST)
    game = framework_game(board)
    assert game._Game__move(*compat.move_to_framework("d5d1", framework.Move), 0)
    assert game.check_winner() == 1 and compat.first_line_winner(game.get_board()) == 1
    board.push("d5d1")
    assert compat.has_lines_of_both(board) and board.result() == "0-1"


def test_the_engine_player_plays_for_the_referee_it_is_given():
    differences = 0
    for text in REFEREE_POSITIONS + [BOTH_LINES_MOVER_FIRST]:
        board = quixo.Board(text)
        game = framework_game(board)
        rules = compat.EnginePlayer(depth=3, referee="rules")
        by_rules = compat.move_from_framework(rules.make_move(game))
        assert by_rules == quixo.search(board, depth=3)["bestmove"]
        referee = compat.EnginePlayer(depth=3)
        chosen = compat.move_from_framework(referee.make_move(game))
        assert board.is_legal(chosen)
        after = board.copy()
        after.push(chosen)
        if after.is_game_over():
            # Only a win the game's own check awards: by the rule sheet, or a double line.
            assert compat.first_line_winner(compat.board_to_framework(after)) == board.turn
        else:
            for reply in after.legal_moves():
                after.push(reply)
                if compat.has_lines_of_both(after):
                    assert compat.first_line_winner(compat.board_to_framework(after)) == board.turn
                after.pop()
        differences += chosen != by_rules
        assert (game.get_board() == compat.board_to_framework(board)).all()  # left untouched
    assert differences >= 3
    # Here the only win is a double line with X's column found first: the game awards it.
    board = quixo.Board(REFEREE_POSITIONS[0])
    player = compat.EnginePlayer(depth=3)
    chosen = compat.move_from_framework(player.make_move(framework_game(board)))
    assert "double line" in player.last_reason
    board.push(chosen)
    assert compat.has_lines_of_both(board) and board.result() == "0-1"


# ------------------------------------------------------------------------------ EnginePlayer

class BoundedPlayer:
    """Ends a framework game that goes on too long: the framework has no draw rule."""

    def __init__(self, player, limit=400):
        self.player, self.calls, self.limit = player, 0, limit

    def make_move(self, game):
        self.calls += 1
        if self.calls > self.limit:
            raise RuntimeError("the game did not end")
        return self.player.make_move(game)


def test_the_engine_beats_a_random_player_inside_the_framework_game():
    random.seed(28)
    for game_number in range(6):
        engine = compat.EnginePlayer(depth=3)
        opponent = BoundedPlayer(RandomPlayer())
        game = framework.Game()
        if game_number % 2 == 0:
            assert game.play(engine, opponent) == 0
        else:
            assert game.play(opponent, engine) == 1
        board = compat.board_from_framework(game.get_board(), 0)
        assert board.is_game_over()


def test_the_engine_player_answers_with_the_games_own_move_enum():
    board = quixo.Board()
    board.push("a1e1")
    game = framework_game(board)
    position, slide = compat.EnginePlayer(depth=2).make_move(game)
    assert type(slide) is framework.Move and slide in list(framework.Move)
    assert board.is_legal(compat.move_from_framework((position, slide)))
    _, slide = compat.EnginePlayer(nodes=500, move_type=compat.Move).make_move(game)
    assert type(slide) is compat.Move
    with pytest.raises(ValueError):
        compat.EnginePlayer(referee="nobody")
    with pytest.raises(ValueError):
        compat.EnginePlayer(move_type=int)

    class GettersOnly:
        """A game known only by its public getters."""

        def get_board(self):
            return compat.board_to_framework(board)

        def get_current_player(self):
            return board.turn

    _, slide = compat.EnginePlayer(time=0.05, move_type=framework.Move).make_move(GettersOnly())
    assert type(slide) is framework.Move


# ------------------------------------------------------------------------------ uqi_player

def wrapper_environment():
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(quixo.__file__)))
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(
        [package_root] + [p for p in environment.get("PYTHONPATH", "").split(os.pathsep) if p])
    return environment


class Wrapper:
    """python3 -m quixo.uqi_player PLAYER in the framework folder, read with deadlines."""

    def __init__(self, player="random_player:RandomPlayer"):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "quixo.uqi_player", player], cwd=FRAMEWORK_DIR,
            env=wrapper_environment(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        self.lines = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, *commands):
        self.process.stdin.write("".join(command + "\n" for command in commands))
        self.process.stdin.flush()

    def read_until(self, prefix, timeout=10.0):
        """The lines up to and including the first that starts with `prefix`."""
        deadline = time.monotonic() + timeout
        lines = []
        while True:
            line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            assert line is not None, f"the wrapper ended before {prefix!r}: {lines}"
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def close(self):
        try:
            self.send("quit")
            self.process.stdin.close()
        except BrokenPipeError:
            pass
        code = self.process.wait(timeout=10)
        stderr = self.process.stderr.read()
        self.process.stderr.close()
        self.process.stdout.close()
        return code, stderr


def bestmove(lines):
    return lines[-1].split()[1]


def test_the_wrapper_shakes_hands_and_answers_go():
    wrapper = Wrapper()
    try:
        wrapper.send("uqi")
        hello = wrapper.read_until("uqiok")
        assert any(line.startswith("id name ") for line in hello)
        assert any(line.startswith("id author ") for line in hello)
        wrapper.send("isready")
        assert wrapper.read_until("readyok") == ["readyok"]
        wrapper.send("uqinewgame", "position startpos moves a1e1 e5a5", "go xtime 1000 otime 1000")
        lines = wrapper.read_until("bestmove")
        board = quixo.Board()
        board.push("a1e1")
        board.push("e5a5")
        assert board.is_legal(bestmove(lines))
        assert any(line.startswith("info depth 1 score cp 0") for line in lines)
        # go infinite: the answer waits for stop, and isready is answered meanwhile.
        wrapper.send("position fen " + BOTH_LINES_MOVER_FIRST, "go infinite", "isready")
        assert not any(line.startswith("bestmove") for line in wrapper.read_until("readyok"))
        wrapper.send("stop")
        held = bestmove(wrapper.read_until("bestmove"))
        assert quixo.Board(BOTH_LINES_MOVER_FIRST).is_legal(held)
        # Finished, four-player and broken positions; an unknown command is ignored.
        wrapper.send("position fen xxxxx/ooooo/5/5/5 x", "go depth 3")
        assert bestmove(wrapper.read_until("bestmove")) == "0000"
        wrapper.send("query result", "query gameover")
        assert wrapper.read_until("response") == ["response p1win"]
        assert wrapper.read_until("response") == ["response true"]
        wrapper.send("position fen 5/5/5/5/5 1", "go nodes 100")
        lines = wrapper.read_until("bestmove")
        assert "four-player" in lines[0] and lines[0].startswith("info string error")
        assert bestmove(lines) == "0000"
        wrapper.send("position startpos moves a1a1 b1b5", "no-such-command 1 2", "go")
        lines = wrapper.read_until("bestmove")
        assert lines[0].startswith("info string error: move 1 (a1a1)")
        assert bestmove(lines) == "0000"
    finally:
        code, stderr = wrapper.close()
    assert code == 0, stderr


@pytest.mark.parametrize("player, complaint",
                         [("misbehaving_players:StubbornPlayer", "not on the border"),
                          ("misbehaving_players:CrashingPlayer", "raised")])
def test_the_wrapper_plays_a_fallback_move_for_a_player_without_a_legal_one(player, complaint):
    wrapper = Wrapper(player)
    try:
        wrapper.send("uqi", "position startpos moves a1e1", "go movetime 100")
        lines = wrapper.read_until("bestmove")
        notes = [line for line in lines if line.startswith("info string")]
        assert len(notes) == 1 and complaint in notes[0] and "instead" in notes[0]
        board = quixo.Board()
        board.push("a1e1")
        assert board.is_legal(bestmove(lines))
    finally:
        code, stderr = wrapper.close()
    assert code == 0
    if complaint == "raised":
        assert "this player has a bug" in stderr


def test_what_the_player_prints_goes_to_stderr_and_a_bad_player_name_is_reported():
    wrapper = Wrapper("misbehaving_players:ChattyPlayer")
    try:
        wrapper.send("uqi", "isready", "position startpos", "go")
        lines = wrapper.read_until("bestmove")
        assert all(line.split()[0] in ("id", "uqiok", "readyok", "info", "bestmove")
                   for line in lines)
        assert quixo.Board().is_legal(bestmove(lines))
    finally:
        code, stderr = wrapper.close()
    assert code == 0 and "ChattyPlayer ready" in stderr and "thinking about 0" in stderr

    missing = subprocess.run([sys.executable, "-m", "quixo.uqi_player", "no_such_module:Player"],
                             cwd=FRAMEWORK_DIR, env=wrapper_environment(), input="uqi\n",
                             capture_output=True, text=True, timeout=30)
    assert missing.returncode == 2
    assert missing.stdout.startswith("info string error: cannot load no_such_module:Player")
    assert "No module named 'no_such_module'" in missing.stderr


# ------------------------------------------------------------------------------ quixo-arena

def program(name):
    """A program of the build, by an absolute path: the arena runs in other folders."""
    return os.path.abspath(os.path.join(bin_dir(), name))


def student_engine_keys(name="student"):
    return ["--engine", f"name={name}", f"cmd={sys.executable}",
            "args=-m quixo.uqi_player random_player:RandomPlayer", f"dir={FRAMEWORK_DIR}"]


def test_the_wrapper_passes_the_arena_compliance_checks_of_the_two_player_game():
    run = subprocess.run([program("quixo-arena"), "--compliance"] +
                         student_engine_keys(), env=wrapper_environment(), capture_output=True,
                         text=True, timeout=120)
    verdicts = {line.split()[1].rstrip(":"): line for line in run.stdout.splitlines()
                if line.split()[:1] in (["PASS"], ["FAIL"], ["SKIP"])}
    assert len(verdicts) == 16, run.stdout
    # The team game is refused (the framework has none): its checks, and the four-player part
    # of the clock check (after its two-player cases passed), fail on `bestmove 0000`.
    refused = {"four-player", "clock"}
    for name, line in verdicts.items():
        if name in refused:
            assert line.startswith("FAIL") and "bestmove 0000" in line, line
        elif name == "ponder":
            assert line.startswith("SKIP"), line  # no Ponder option
        else:
            assert line.startswith("PASS"), line
    assert "s2time" in verdicts["clock"]
    assert "compliance: FAIL (13 passed, 2 failed, 1 skipped)" in run.stdout
    assert run.returncode == 1


def test_a_random_player_loses_an_arena_match_to_the_engine(tmp_path):
    results = tmp_path / "match.json"
    run = subprocess.run(
        [program("quixo-arena"), "--engine", "name=engine", f"cmd={program('quixo-engine')}",
         "tc=nodes=2000"] + student_engine_keys() +
        ["tc=st=2", "--rounds", "3", "--results", str(results), "--pgn",
         str(tmp_path / "match.pgn"), "--log", str(tmp_path / "match.log")],
        cwd=tmp_path, env=wrapper_environment(), capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    games = json.loads(results.read_text())["games"]
    assert len(games) == 6
    engine_points = 0.0
    for game in games:
        assert game["result"] in ("1-0", "0-1", "1/2-1/2"), game
        assert game["termination"] != "illegal-move" and "illegal" not in game["reason"], game
        engine_is_x = game["x"] == "engine"
        engine_points += {"1-0": float(engine_is_x), "0-1": float(not engine_is_x),
                          "1/2-1/2": 0.5}[game["result"]]
    assert engine_points >= 5


def test_an_engine_player_at_a_level():
    level_zero = compat.EnginePlayer(depth=2, elo=0, referee="rules")
    board = quixo.Board()
    moves = {level_zero.choose(board) for _ in range(20)}
    assert len(moves) > 1  # Elo 0 is a random mover
    with pytest.raises(ValueError):
        compat.EnginePlayer(depth=2, skill_level=99).choose(board)
