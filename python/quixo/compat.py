"""Adapters for the course framework (squillero/computational-intelligence, 2023-24/quixo).

University courses hand students a ``game.py`` with a ``Game`` class, a ``Move`` enum (TOP,
BOTTOM, LEFT, RIGHT) and an abstract ``Player`` whose ``make_move(game)`` returns
``((x, y), Move)``. This module converts between that world and the project's, and plays the
project's engine inside it; ``python -m quixo.uqi_player mymodule:MyPlayer`` (``uqi_player``)
goes the other way and runs a student's ``Player`` as a UQI engine for ``quixo-arena``.

The framework's conventions, and how they map:

- Board: a 5x5 numpy array indexed ``board[y, x]`` (row ``y`` from the top, column ``x`` from the
  left), ``-1`` a blank cube, ``0`` and ``1`` the cubes of players 0 and 1 (the published
  ``Game`` builds it as ``uint8`` ones times -1, which numpy 1.x widens to int16 holding -1).
  Player 0 moves first, so player 0 is X and player 1 is O; row 0 is rank 5 and column 0 file a,
  the orientation of ``quixo.Board.to_array()``.
- Move: ``((x, y), slide)`` takes the cube at column x, row y and pushes it back in at the end of
  its row or column named by ``slide``: LEFT ends in column 0 of its row, RIGHT in column 4, TOP
  in row 0 of its column, BOTTOM in row 4. ``((1, 4), Move.TOP)`` is the project's ``b1b5``.
- A move the game refuses is asked for again. ``EnginePlayer`` only answers legal moves;
  ``uqi_player`` asks a student's player again a bounded number of times, then plays a legal
  move itself and says so.
- No draw rule: the framework's ``play()`` loops until a line appears and may never end.
  ``EnginePlayer`` just plays: every call is a fresh search of the position it is given, with
  no game history, so it never steers for a repetition draw the framework would not award; a
  caller that pits it against a strong player must bound the game itself. In ``quixo-arena``
  the arena's own draws (threefold repetition, ply cap) apply; the student's player is not told.
- The winner check: the published ``Game.check_winner()`` returns the symbol of the first
  complete line it finds (rows top to bottom, then columns left to right, then the diagonal from
  the top left, then the other one). The rule sheet (and so the project's engine and arena)
  says that a move that completes a line of the opponent's symbol loses, even when it also
  completes one of the mover's. The two disagree only when one move completes lines of both
  symbols and the mover's line is found first: the framework gives the game to the mover, the
  rule sheet to the opponent (``first_line_winner`` is the published check). Copies of
  ``game.py`` taken in January 2024 carried another check for this case, which is why
  ``EnginePlayer`` asks the game object's own ``check_winner`` rather than this module's copy of
  the rule.

  ``EnginePlayer(referee="game")`` (the default) plays for the referee it is inside: the engine
  searches by the rule sheet, and around the search the adapter takes a move that the game's
  ``check_winner`` scores as an immediate win for it (a double line with its own line found
  first), and declines the engine's move when the opponent could answer it with a double line
  that the game would give to the opponent, if another move avoids that.
  ``referee="rules"`` plays the engine's move as it is. Through ``uqi_player`` the arena is the
  referee and follows the rule sheet; the wrapper never changes a legal move of the student's
  player, and it says in an ``info string`` when that move completes both symbols' lines.

The framework's ``Player`` is an abstract class of the student's own ``game.py``, so this module
never imports ``game.py`` when it is imported: ``EnginePlayer`` is duck-typed (``Game.play()``
only calls ``make_move``). Its answer must be a member of the very ``Move`` enum the game
compares with, which it finds, in this order: the ``move_type`` given to its constructor; a
``Move`` enum in the module that defines the game's class (or one of its bases), the ``Move``
that ``Game``'s own code compares with; a ``Move`` in an importable module named ``game``.
"""
import copy
import enum
import importlib
import numbers
import sys
from typing import Any, List, Optional, Tuple

import numpy

from . import Board, SLIDES, search

__all__ = ["Move", "EnginePlayer", "board_from_framework", "board_to_framework",
           "move_from_framework", "move_to_framework", "accepted_moves", "first_line_winner",
           "game_from_board", "has_lines_of_both"]


class Move(enum.Enum):
    """The framework's slide directions, for use where its ``game.py`` is not at hand (same
    names and values). Where a framework ``Game`` referees, answer with its own ``Move``."""
    TOP = 0
    BOTTOM = 1
    LEFT = 2
    RIGHT = 3


_SLIDE_NAMES = tuple(member.name for member in Move)
_FILES = "abcde"
_LEGAL_SLIDES = frozenset(SLIDES)
# The framework's players against the values of Board.to_array(): 1 X, -1 O, 0 blank.
_BLANK, _PLAYER_X, _PLAYER_O = -1, 0, 1

FrameworkMove = Tuple[Tuple[int, int], Any]


# ------------------------------------------------------------------------------------ boards

def _framework_codes(array: Any) -> numpy.ndarray:
    """The framework board `array` as int64 codes -1, 0, 1; a ValueError for anything else."""
    values = numpy.asarray(array)
    if values.shape != (5, 5):
        raise ValueError(f"a course-framework board is 5x5, not {values.shape}")
    if values.dtype.kind not in "iuf":
        raise ValueError(f"a course-framework board holds numbers, not {values.dtype}")
    if values.dtype.kind == "u":
        # -1 stored in an unsigned array wraps to its largest value (uint8: 255).
        wrapped = values == numpy.iinfo(values.dtype).max
        values = values.astype(numpy.int64)
        values[wrapped] = _BLANK
    bad = ~numpy.isin(values, (_BLANK, _PLAYER_X, _PLAYER_O))
    if bad.any():
        y, x = (int(i) for i in numpy.argwhere(bad)[0])
        raise ValueError(f"a course-framework board holds -1 (blank), 0 or 1, not {values[y, x]}"
                         f" (at x={x}, y={y})")
    return values.astype(numpy.int64)


def _player_index(player: Any) -> int:
    if isinstance(player, bool) or not isinstance(player, numbers.Integral) or player not in (0, 1):
        raise ValueError(f"the player to move is 0 or 1 (player 0 moves first), not {player!r}")
    return int(player)


def board_from_framework(array: Any, player: int) -> Board:
    """The quixo.Board of a framework board (``board[y, x]``, -1 blank, 0/1 the players' cubes)
    with framework player `player` to move (0 is X, who moves first; 1 is O)."""
    codes = _framework_codes(array)
    cells = numpy.zeros((5, 5), dtype=numpy.int8)
    cells[codes == _PLAYER_X] = 1
    cells[codes == _PLAYER_O] = -1
    return Board.from_array(cells, turn=_player_index(player))


def board_to_framework(board: Board, dtype: Any = numpy.int16) -> numpy.ndarray:
    """The framework's 5x5 array of `board`: -1 blank, 0 X, 1 O, in `dtype` (int16 by default,
    what the published Game holds; an unsigned dtype stores -1 as its largest value)."""
    if not isinstance(board, Board):
        raise ValueError("the course framework plays the two-player game: give a quixo.Board")
    cells = board.to_array()
    codes = numpy.full((5, 5), _BLANK, dtype=numpy.int64)
    codes[cells == 1] = _PLAYER_X
    codes[cells == -1] = _PLAYER_O
    kind = numpy.dtype(dtype)
    if kind.kind == "u":
        codes[codes == _BLANK] = numpy.iinfo(kind).max
    return codes.astype(kind)


# ------------------------------------------------------------------------------------- moves

def _square(x: int, y: int) -> str:
    return f"{_FILES[x]}{5 - y}"


def _coordinates(square: str) -> Tuple[int, int]:
    if len(square) != 2 or square[0] not in _FILES or square[1] not in "12345":
        raise ValueError(f"{square!r} is not a square a1..e5")
    return _FILES.index(square[0]), 5 - int(square[1])


def _slide_name(slide: Any) -> str:
    name = slide.upper() if isinstance(slide, str) else getattr(slide, "name", None)
    if name not in _SLIDE_NAMES:
        raise ValueError(f"a slide is Move.TOP, BOTTOM, LEFT or RIGHT, not {slide!r}")
    return name


def _destination(x: int, y: int, slide_name: str) -> Tuple[int, int]:
    return {"LEFT": (0, y), "RIGHT": (4, y), "TOP": (x, 0), "BOTTOM": (x, 4)}[slide_name]


def move_from_framework(move: Any) -> str:
    """The project's notation of a framework move ``((x, y), slide)``: ``((1, 4), Move.TOP)`` is
    ``b1b5``. `slide` is a member of any enum with the framework's names (or the name itself).
    A ValueError when no cube can be moved so, whatever the board: a square off the border, or a
    push back onto the square the cube left."""
    try:
        position, slide = move
        x, y = position
    except (TypeError, ValueError):
        raise ValueError(f"a course-framework move is ((x, y), Move), not {move!r}") from None
    if any(isinstance(value, bool) or not isinstance(value, numbers.Integral)
           for value in (x, y)) or not (0 <= int(x) <= 4 and 0 <= int(y) <= 4):
        raise ValueError(f"x and y are whole numbers 0..4, not {position!r}")
    x, y = int(x), int(y)
    if x not in (0, 4) and y not in (0, 4):
        raise ValueError(f"({x}, {y}) is not on the border: only border cubes are taken")
    slide_name = _slide_name(slide)
    to_x, to_y = _destination(x, y, slide_name)
    if (to_x, to_y) == (x, y):
        raise ValueError(f"({x}, {y}) with {slide_name} pushes the cube back where it was taken")
    return _square(x, y) + _square(to_x, to_y)


def move_to_framework(text: str, move_type: Any = Move) -> FrameworkMove:
    """The framework move ``((x, y), move_type.SLIDE)`` of a project move such as ``b1b5``
    (``((1, 4), TOP)``). `move_type` is the framework's Move enum (this module's by default)."""
    if not isinstance(text, str) or len(text) != 4:
        raise ValueError(f"a two-player move is four characters such as b1e1, not {text!r}"
                         " (the course framework has no four-player game)")
    origin, target = text[:2], text[2:]
    x, y = _coordinates(origin)
    to_x, to_y = _coordinates(target)
    if (origin, target) not in _LEGAL_SLIDES:
        raise ValueError(f"{text} is no slide: a border cube goes back in at another end of its"
                         " row or column")
    if to_y == y:
        slide_name = "LEFT" if to_x == 0 else "RIGHT"
    else:
        slide_name = "TOP" if to_y == 0 else "BOTTOM"
    try:
        slide = move_type[slide_name]
    except (KeyError, TypeError):
        raise ValueError(f"{move_type!r} has no member {slide_name}: give the framework's Move"
                         " enum") from None
    return (x, y), slide


def accepted_moves(array: Any, player: int) -> List[str]:
    """The moves the framework's Game accepts from `player` on `array`, in the project's notation:
    a border cube that is blank or the player's, pushed in at another end. A line on the board
    does not matter to it; where there is none, these are Board.legal_moves()."""
    codes = _framework_codes(array)
    player = _player_index(player)
    moves = []
    for origin, target in SLIDES:
        x, y = _coordinates(origin)
        if codes[y, x] in (_BLANK, player):
            moves.append(origin + target)
    return moves


# ------------------------------------------------------------------------------ the referees

def _lines(codes: numpy.ndarray) -> List[numpy.ndarray]:
    """The twelve lines in the order the published check_winner looks at them."""
    return ([codes[row, :] for row in range(5)] + [codes[:, column] for column in range(5)] +
            [numpy.diagonal(codes), numpy.diagonal(numpy.fliplr(codes))])


def first_line_winner(array: Any) -> int:
    """The winner by the published framework's check: the player (0 or 1) of the first complete
    line in the order rows, columns, then the two diagonals; -1 when there is none."""
    for line in _lines(_framework_codes(array)):
        if line[0] != _BLANK and (line == line[0]).all():
            return int(line[0])
    return -1


def has_lines_of_both(board: Board) -> bool:
    """Whether `board` holds a line of X and one of O: the only case where the framework's
    winner check and the rule sheet can disagree."""
    codes = board_to_framework(board)
    owners = {int(line[0]) for line in _lines(codes)
              if line[0] != _BLANK and (line == line[0]).all()}
    return owners == {_PLAYER_X, _PLAYER_O}


def game_from_board(board: Board, game_class: Any) -> Any:
    """A framework `game_class()` set to `board`, its player to move the mover, as ``play()``
    has it during ``make_move``. The framework has no setter: the game is built by its own
    constructor, then its ``_board`` replaced (in the dtype the constructor chose) and its
    ``current_player_idx`` set, the least that makes its getters and its move code see the
    position."""
    game = game_class()
    template = getattr(game, "_board", None)
    if not isinstance(template, numpy.ndarray):
        raise TypeError(f"{game_class!r} keeps no numpy board in _board, as the course framework's"
                        " Game does")
    game._board = board_to_framework(board, dtype=template.dtype)
    game.current_player_idx = board.turn
    return game


def _game_winner(game: Any, board: Board, mover: int) -> int:
    """Who `game`'s own check_winner gives the game to on `board` just after `mover`'s move
    (0, 1, or -1), on a copy: the game itself is left as it was. Without such a method, the
    published check."""
    check = getattr(game, "check_winner", None)
    template = getattr(game, "_board", None)
    if not callable(check) or not isinstance(template, numpy.ndarray):
        return first_line_winner(board_to_framework(board))
    probe = copy.copy(game)  # shallow: the copy gets its own _board below, the game keeps its own
    probe._board = board_to_framework(board, dtype=template.dtype)
    probe.current_player_idx = mover
    return int(probe.check_winner())


# ------------------------------------------------------------------------------ EnginePlayer

def _is_move_enum(candidate: Any) -> bool:
    return (isinstance(candidate, type) and issubclass(candidate, enum.Enum) and
            all(name in candidate.__members__ for name in _SLIDE_NAMES))


def _score_key(result: dict) -> int:
    """A search result's score for comparison, for the side to move: mates beyond any cp."""
    mate = result.get("mate")
    if mate is None:
        return int(result["score"])
    return 10**6 - mate if mate > 0 else -10**6 - mate


class EnginePlayer:
    """A course-framework Player that plays the project's engine: ``make_move(game)`` reads the
    game's board and player to move, searches with ``quixo.search`` and answers
    ``((x, y), Move)`` with the game's own Move enum.

    Limits: `depth` (plies), `nodes`, `time` (seconds), the first reached ends the search; none
    given means depth 4, a few milliseconds a move. A level: `skill_level` (0 to
    quixo.SKILL_LEVEL_MAX) or `elo` (0 to quixo.ELO_MAX), as quixo.search takes them. `referee`: "game" (default) plays for the
    game object's own winner check where it differs from the rule sheet, "rules" plays the
    engine's move as is (see the module's documentation). `move_type`: the framework's Move
    enum, when it cannot be found from the game (see the module's documentation).
    After each move, ``last_search`` holds the search's result (None when none ran) and
    ``last_reason`` why the move was chosen.
    """

    DEFAULT_DEPTH = 4

    def __init__(self, depth: Optional[int] = None, nodes: Optional[int] = None,
                 time: Optional[float] = None, *, referee: str = "game",
                 move_type: Any = None, threads: int = 1, hash_mb: int = 16,
                 skill_level: Optional[int] = None, elo: Optional[int] = None) -> None:
        if referee not in ("game", "rules"):
            raise ValueError(f"referee is 'game' or 'rules', not {referee!r}")
        if move_type is not None and not _is_move_enum(move_type):
            raise ValueError(f"move_type must be an enum with TOP, BOTTOM, LEFT and RIGHT, not"
                             f" {move_type!r}")
        if depth is None and nodes is None and time is None:
            depth = self.DEFAULT_DEPTH
        self.depth, self.nodes, self.time = depth, nodes, time
        self.referee = referee
        self.threads, self.hash_mb = threads, hash_mb
        self.skill_level, self.elo = skill_level, elo
        self._move_type = move_type
        self.last_search: Optional[dict] = None
        self.last_reason = ""

    def make_move(self, game: Any) -> FrameworkMove:
        board = board_from_framework(*self._read(game))
        move = self.choose(board, game)
        return move_to_framework(move, self._move_type_of(game))

    def choose(self, board: Board, game: Any = None) -> str:
        """The move, in the project's notation, for `board`; `game` is the framework game that
        referees (needed for referee="game")."""
        self.last_search = None
        moves = board.legal_moves()
        if not moves:
            # A line is on the board, so the rule sheet has the game over, yet a framework game
            # asks on (a custom board, or a winner check that missed it): any accepted move.
            self.last_reason = "the game is over by the rule sheet; the first accepted move"
            return accepted_moves(board_to_framework(board), board.turn)[0]
        result = search(board, depth=self.depth, nodes=self.nodes, time=self.time,
                        threads=self.threads, hash_mb=self.hash_mb,
                        skill_level=self.skill_level, elo=self.elo)
        self.last_search = result
        best = result["bestmove"]
        self.last_reason = "the engine's move"
        if self.referee == "rules" or game is None or result.get("mate") == 1:
            return best
        framework_win = self._game_only_win(board, game, moves)
        if framework_win is not None:
            self.last_reason = "a double line the game's check_winner gives to the mover"
            return framework_win
        if not self._opens_game_only_win(board, best, game):
            return best
        alternative = self._best_safe_alternative(board, best, game, moves)
        if alternative is None:
            self.last_reason = ("the engine's move, though the opponent may answer with a double"
                                " line the game gives it: every other move allows one too or"
                                " ends the game")
            return best
        self.last_reason = ("not the engine's move, which lets the opponent answer with a double"
                            " line the game gives it")
        return alternative

    # The game object's view of the position and the enum it compares moves with.

    @staticmethod
    def _read(game: Any) -> Tuple[Any, int]:
        get_board = getattr(game, "get_board", None)
        array = get_board() if callable(get_board) else getattr(game, "_board", None)
        get_player = getattr(game, "get_current_player", None)
        player = get_player() if callable(get_player) else getattr(game, "current_player_idx",
                                                                   None)
        if array is None or player is None:
            raise TypeError(f"{game!r} is not a course-framework Game: it has no get_board() and"
                            " get_current_player()")
        return array, player

    def _move_type_of(self, game: Any) -> Any:
        if self._move_type is not None:
            return self._move_type
        for cls in type(game).__mro__:
            candidate = getattr(sys.modules.get(cls.__module__), "Move", None)
            if _is_move_enum(candidate):
                self._move_type = candidate
                return candidate
        try:
            candidate = getattr(importlib.import_module("game"), "Move", None)
        except ImportError:
            candidate = None
        if _is_move_enum(candidate):
            self._move_type = candidate
            return candidate
        raise LookupError("cannot find the course framework's Move enum beside the game's class"
                          " or in a module 'game': give EnginePlayer(move_type=Move)")

    # What the game's own winner check adds to the rule sheet.

    @staticmethod
    def _game_only_win(board: Board, game: Any, moves: List[str]) -> Optional[str]:
        """A move that completes both symbols' lines (a loss by the rule sheet) which the game's
        check_winner gives to the mover, or None."""
        mover = board.turn
        for move in moves:
            board.push(move)
            try:
                if (board.is_game_over() and has_lines_of_both(board) and
                        _game_winner(game, board, mover) == mover):
                    return move
            finally:
                board.pop()
        return None

    @staticmethod
    def _opens_game_only_win(board: Board, move: str, game: Any) -> bool:
        """Whether after `move` the opponent has a double line that the game gives to it."""
        after = board.copy()
        after.push(move)
        if after.is_game_over():
            return False
        return EnginePlayer._game_only_win(after, game, after.legal_moves()) is not None

    def _best_safe_alternative(self, board: Board, best: str, game: Any,
                               moves: List[str]) -> Optional[str]:
        """The best other move, by a shallower search of each, that neither ends the game nor
        opens such a double line; None when there is none."""
        depth = max(1, (self.depth or self.DEFAULT_DEPTH) - 1)
        chosen, chosen_key = None, None
        for move in moves:
            if move == best:
                continue
            after = board.copy()
            after.push(move)
            # Moves that end the game here are losses by both referees: rule-sheet wins
            # (mate 1) and the game's double-line wins were taken before.
            if after.is_game_over() or self._opens_game_only_win(board, move, game):
                continue
            key = -_score_key(search(after, depth=depth, threads=self.threads,
                                     hash_mb=self.hash_mb))
            if chosen_key is None or key > chosen_key:
                chosen, chosen_key = move, key
        return chosen
