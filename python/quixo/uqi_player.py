"""Runs a course-framework Player as a UQI engine, so that it plays in quixo-arena tournaments.

In the student's folder, where their copy of the framework's ``game.py`` sits beside their
player::

    python3 -m quixo.uqi_player mymodule:MyPlayer [--game game:Game] [--attempts 50]

For every ``go`` the wrapper builds a framework ``Game`` (the student's own class, so that a
player that calls its methods finds them) set to the position, and calls
``MyPlayer().make_move(game)`` once; the search limits of ``go`` are not passed on. A move the
position does not allow is asked for again, as the framework's ``play()`` does, with a fresh
game each time, up to ``--attempts`` calls; after that, or when the player raises, the wrapper
plays the first legal move that does not lose at once and says so in an ``info string``. A new
``MyPlayer()`` is made for every ``uqinewgame`` (the framework makes its players per game).

The protocol is SPEC section 5 for the two-player game: ``uqi``/``ugi``, ``isready`` (answered
also while the player thinks, which it does in a thread), ``uqinewgame``, ``position
startpos|fen ... [moves ...]``, ``go`` (``infinite`` and ``ponder`` hold the answer until
``stop`` or ``ponderhit``), ``stop``, ``query p1turn|gameover|result``, ``d``, ``quit``. A
finished position is answered ``bestmove 0000``. The team game is refused: the framework has
none, so a four-player position gives an ``info string error`` and ``bestmove 0000``. Each
answer comes with ``info depth 1 ... score ... pv <move>``: a Player has no evaluation, so the
score is ``cp 0`` unless the move ends the game (``mate 1`` for a win, ``mate -1`` when it makes
the opponent's line); mind this with quixo-arena's draw adjudication. Anything the student's
code prints goes to stderr, so that it cannot corrupt the protocol on stdout.

How the framework's rules differ from the rule sheet, and what the wrapper does, is in
``quixo.compat``'s documentation: here the arena referees by the rule sheet, and the wrapper
notes in an ``info string`` a move of the player that completes lines of both symbols.
"""
import argparse
import importlib
import io
import os
import sys
import threading
import time
import traceback
from typing import Any, Callable, List, Optional, TextIO

from . import Board, Board4, NotationError
from .compat import game_from_board, has_lines_of_both, move_from_framework

NAME = "quixo.uqi_player"
DEFAULT_ATTEMPTS = 50


def _load(spec: str, default_module: Optional[str] = None) -> Any:
    """The attribute named by 'module:Name' (or 'Name' in `default_module`)."""
    module_name, _, attribute = spec.rpartition(":")
    module_name = module_name or default_module or ""
    if not module_name or not attribute:
        raise ValueError(f"expected module:Name, not {spec!r}")
    module = importlib.import_module(module_name)
    try:
        return getattr(module, attribute)
    except AttributeError:
        raise ValueError(f"module {module_name!r} has no {attribute!r}") from None


def _one_line(error: BaseException) -> str:
    text = f"{type(error).__name__}: {error}"
    return " ".join(text.split())


class _Search:
    """One `go`: the position, whether its answer waits for stop/ponderhit, and the answer."""

    def __init__(self, board: Optional[Board], held: bool) -> None:
        self.board = board
        self.held = held
        self.move: Optional[str] = None
        self.answered = False
        self.thread: Optional[threading.Thread] = None


class Session:
    """The UQI session: reads commands with `handle`, writes to `out` (lines are whole, under a
    lock, as the player's thread writes too)."""

    def __init__(self, player_class: Callable[[], Any], game_class: Any, out: TextIO,
                 attempts: int = DEFAULT_ATTEMPTS, name: str = NAME) -> None:
        self.player_class = player_class
        self.game_class = game_class
        self.out = out
        self.attempts = attempts
        self.name = name
        self.player = player_class()
        self.board: Optional[Board] = Board()
        self.position_error: Optional[str] = None
        self.search: Optional[_Search] = None
        self.lock = threading.Lock()

    # ---------------------------------------------------------------------------- output

    def send(self, line: str) -> None:
        with self.lock:
            self._write(line)

    def _write(self, line: str) -> None:
        try:
            self.out.write(line + "\n")
            self.out.flush()
        except (BrokenPipeError, ValueError):
            pass  # the arena has gone; quit follows with EOF

    def info(self, text: str) -> None:
        self.send("info string " + " ".join(text.split()))

    # ---------------------------------------------------------------------------- commands

    def handle(self, line: str) -> bool:
        """Runs one command line; False when the session ends (quit)."""
        tokens = line.split()
        if not tokens:
            return True
        command, arguments = tokens[0], tokens[1:]
        try:
            if command == "quit":
                return False
            handler = self.HANDLERS.get(command)
            if handler is not None:
                handler(self, arguments)
        except Exception as error:  # a bad line must not end the engine
            self.info(f"error: {command}: {_one_line(error)}")
        return True

    def hello(self, arguments: List[str], ok: str) -> None:
        self.send(f"id name {self.name} ({self._player_name()})")
        self.send("id author the student; wrapper: the quixo project")
        self.send(ok)

    def _player_name(self) -> str:
        module = getattr(self.player_class, "__module__", "?")
        return f"{module}:{getattr(self.player_class, '__name__', '?')}"

    def isready(self, arguments: List[str]) -> None:
        self.send("readyok")

    def newgame(self, arguments: List[str]) -> None:
        self._finish_search()
        self.player = self.player_class()
        self.board, self.position_error = Board(), None

    def position(self, arguments: List[str]) -> None:
        self.board, self.position_error = None, None
        if not arguments or arguments[0] not in ("startpos", "fen"):
            self.position_error = "position needs startpos or fen"
        else:
            split = arguments.index("moves") if "moves" in arguments else len(arguments)
            text = "5/5/5/5/5 x" if arguments[0] == "startpos" else " ".join(arguments[1:split])
            self.board, self.position_error = self._parse_position(text, arguments[split + 1:])
        if self.position_error:
            self.info("error: " + self.position_error)

    @staticmethod
    def _parse_position(text: str, moves: List[str]):
        try:
            board = Board(text)
        except (NotationError, ValueError) as error:
            try:
                Board4(text)
            except (NotationError, ValueError):
                return None, f"position {text!r}: {error}"
            return None, ("four-player positions are not played: the course framework has only"
                          " the two-player game")
        for number, move in enumerate(moves, 1):
            try:
                board.push(move)
            except (NotationError, ValueError) as error:
                return None, f"move {number} ({move}) of the position: {error}"
        return board, None

    def go(self, arguments: List[str]) -> None:
        self._finish_search()
        held = "infinite" in arguments or "ponder" in arguments
        search = _Search(self.board.copy() if self.board is not None else None, held)
        self.search = search
        if search.board is None or search.board.is_game_over():
            if search.board is None:
                self.info(f"error: no usable position ({self.position_error or 'none set'})")
            self._answer(search, "0000")
            return
        search.thread = threading.Thread(target=self._think, args=(search,), daemon=True)
        search.thread.start()

    def release(self, arguments: List[str]) -> None:
        """stop or ponderhit: the held answer may go now (or as soon as the player has one)."""
        search = self.search
        if search is None:
            return
        with self.lock:
            search.held = False
            if search.move is not None and not search.answered:
                self._emit(search)

    def query(self, arguments: List[str]) -> None:
        what = arguments[0] if arguments else ""
        board = self.board
        if board is None:
            self.info("error: query needs a usable position")
            return
        repeated = board.repetition_count() >= 3
        if what == "p1turn":
            self.send("response " + ("true" if board.turn == 0 else "false"))
        elif what == "gameover":
            self.send("response " + ("true" if board.is_game_over() or repeated else "false"))
        elif what == "result":
            result = {"1-0": "p1win", "0-1": "p2win"}.get(board.result())
            self.send("response " + (result or ("draw" if repeated else "none")))
        else:
            self.info("error: expected query p1turn, gameover or result")

    def show(self, arguments: List[str]) -> None:
        if self.board is None:
            self.info(f"no usable position ({self.position_error or 'none set'})")
            return
        self.info(f"position {self.board.text()} outcome {self.board.outcome()}")

    def setoption(self, arguments: List[str]) -> None:
        self.info("this engine has no options")

    HANDLERS = {
        "uqi": lambda self, arguments: self.hello(arguments, "uqiok"),
        "ugi": lambda self, arguments: self.hello(arguments, "ugiok"),
        "isready": isready,
        "uqinewgame": newgame,
        "uginewgame": newgame,
        "position": position,
        "go": go,
        "stop": release,
        "ponderhit": release,
        "query": query,
        "d": show,
        "setoption": setoption,
    }

    # ------------------------------------------------------------------------ the player

    def _think(self, search: _Search) -> None:
        board = search.board
        assert board is not None  # go answers a missing position itself
        try:
            move = self.choose(board)
        except Exception as error:  # the wrapper's own failure: still one legal answer
            self.info(f"error: {_one_line(error)}; playing a fallback move")
            move = _fallback(board)
        self._answer(search, move)

    def choose(self, board: Board) -> str:
        """The student player's move on `board`, asked again while the position refuses it; a
        fallback move after `attempts` refusals or an exception."""
        started = time.monotonic()
        problem = ""
        calls = 0
        for calls in range(1, self.attempts + 1):
            try:
                game = game_from_board(board, self.game_class)
                answer = self.player.make_move(game)
            except Exception as error:
                problem = f"the player raised {_one_line(error)}"
                traceback.print_exc(file=sys.stderr)
                break
            try:
                move = move_from_framework(answer)
            except ValueError as error:
                problem = f"the player answered {answer!r}: {error}"
                continue
            if board.is_legal(move):
                self._report(board, move, calls, started)
                return move
            problem = f"the player answered {answer!r} ({move}), which this position refuses"
        move = _fallback(board)
        self.info(f"{problem}; after {calls} call(s) the wrapper plays {move} instead")
        self._report(board, move, calls, started)
        return move

    def _report(self, board: Board, move: str, calls: int, started: float) -> None:
        after = board.copy()
        after.push(move)
        score = "cp 0"
        if after.is_game_over():
            mover_won = after.result() == ("1-0" if board.turn == 0 else "0-1")
            score = "mate 1" if mover_won else "mate -1"
            if has_lines_of_both(after):
                self.info(f"{move} completes lines of both symbols: the rule sheet (and the arena)"
                          " gives the game to the opponent; the framework's first-line check may"
                          " give it to the mover")
        elapsed = int((time.monotonic() - started) * 1000)
        self.send(f"info depth 1 score {score} nodes {calls} time {elapsed} pv {move}")

    def _answer(self, search: _Search, move: str) -> None:
        with self.lock:
            search.move = move
            if not search.held and not search.answered:
                self._emit(search)

    def _emit(self, search: _Search) -> None:
        search.answered = True
        self._write(f"bestmove {search.move}")

    def _finish_search(self) -> None:
        """Before a new go or game: the last search answered (a held one is released)."""
        search = self.search
        if search is None:
            return
        self.release([])
        if search.thread is not None:
            search.thread.join()
        self.search = None


def _fallback(board: Board) -> str:
    """The first legal move that does not lose at once (else the first legal move)."""
    moves = board.legal_moves()
    for move in moves:
        after = board.copy()
        after.push(move)
        if after.result() != ("0-1" if board.turn == 0 else "1-0"):
            return move
    return moves[0] if moves else "0000"


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python3 -m quixo.uqi_player",
        description="Runs a course-framework Player as a UQI engine (run it in the player's"
                    " folder, beside the framework's game.py).")
    parser.add_argument("player", help="the Player class as module:Class, e.g. main:MyPlayer")
    parser.add_argument("--game", default="game:Game",
                        help="the framework's Game class as module:Class (default game:Game)")
    parser.add_argument("--attempts", type=int, default=DEFAULT_ATTEMPTS,
                        help="calls of make_move per move before the wrapper plays a fallback"
                             f" move (default {DEFAULT_ATTEMPTS})")
    parser.add_argument("--name", default=NAME, help="the engine's id name")
    options = parser.parse_args(argv)
    if options.attempts < 1:
        parser.error("--attempts must be at least 1")

    # The protocol owns the real stdout; whatever the student's code prints (print(), a C
    # extension, a subprocess) goes to stderr instead.
    protocol_out = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8", errors="replace")
    sys.stdout.flush()
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    sys.path.insert(0, os.getcwd())  # the student's folder: their module and their game.py

    try:
        player_class = _load(options.player)
        game_class = _load(options.game, "game")
        session = Session(player_class, game_class, protocol_out, options.attempts, options.name)
    except Exception as error:
        message = f"cannot load {options.player} with {options.game}: {_one_line(error)}"
        traceback.print_exc(file=sys.stderr)
        print(f"{parser.prog}: {message}", file=sys.stderr)
        protocol_out.write(f"info string error: {message}\n")
        protocol_out.flush()
        return 2

    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")  # stray bytes make a bad line, not a crash
    while True:
        line = sys.stdin.readline()
        if not line or not session.handle(line):  # EOF acts as quit
            break
    protocol_out.flush()
    # A player still thinking (quit during a search) must not keep the process alive.
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main())
