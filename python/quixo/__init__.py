"""Quixo for Python, on the project's C++ core.

The rules (``Board`` for two players, ``Board4`` for the team game): the project's notation,
legal moves, push and pop, the result, symmetries, perft, boards as numpy arrays and legal-move
masks for many boards at once. ``search`` runs the project's engine in this process; ``Tables``
probes the endgame tables.

Moves are the project's notation: ``b1e1`` takes the cube on b1 and pushes it back in at e1;
in the team game a letter says where the cube's dot points (``b1e1X``), and ``0000`` is a pass.
"""
from typing import Optional, Sequence, Union

import numpy

from ._quixo import ELO_MAX, SKILL_LEVEL_MAX, SLIDES, Board, Board4, NotationError, Tables
from . import _quixo

__all__ = ["Board", "Board4", "ELO_MAX", "NotationError", "SKILL_LEVEL_MAX", "SLIDES",
           "SYMMETRIES", "Tables", "legal_move_masks", "search"]

# The eight symmetries of the square, by the index Board.transform() takes.
SYMMETRIES = ("identity", "rotate90", "rotate180", "rotate270", "mirror_files", "mirror_ranks",
              "main_diagonal", "anti_diagonal")

AnyBoard = Union[Board, Board4]


def legal_move_masks(boards: Sequence[AnyBoard]) -> numpy.ndarray:
    """The legal moves of many boards of one game at once: a bool array with a row per board.

    Two players: 44 columns, column i the move SLIDES[i]. Team game: 88 columns, the first 44
    with the cube pointing to the seat to move, the next 44 pointing to its partner.
    """
    boards = list(boards)
    if not boards:
        raise ValueError("legal_move_masks needs at least one board")
    kind = type(boards[0])
    if any(type(board) is not kind for board in boards):
        raise TypeError("legal_move_masks takes boards of one game: all Board or all Board4")
    return _quixo._legal_move_masks(boards)


def search(board: AnyBoard, *, depth: Optional[int] = None, nodes: Optional[int] = None,
           time: Optional[float] = None, multipv: int = 1, threads: int = 1,
           hash_mb: int = 16, skill_level: Optional[int] = None, elo: Optional[int] = None,
           seed: int = 0) -> dict:
    """Searches `board` with the project's engine, in this process, until the first limit.

    Limits: `depth` (plies), `nodes`, `time` (seconds); at least one. The board's move stack is
    the game's history: a repetition of it scores as a draw. Returns a dict: ``bestmove``,
    ``ponder`` (or None), and for the best line ``score`` (centi-cubes for the side to move),
    ``mate`` (moves to a win, negative when losing, or None), ``depth``, ``seldepth``,
    ``nodes``, ``time`` (seconds) and ``pv``; ``lines`` holds one such dict per MultiPV line,
    best first, from the engine's last report: distinct moves, the first of them ``bestmove``.
    A score that is only a bound (a move that beat the best just before a limit stopped the
    search) comes with ``lowerbound`` (or ``upperbound``) True, as in python-chess; the best
    line's flag is in the dict too.

    A level plays weaker, as the engine's options do: `skill_level` 0-SKILL_LEVEL_MAX (Skill
    Level) or `elo` 0-ELO_MAX (UCI_Elo; 0 is a uniformly random mover); `seed` repeats its
    random choices (0: new ones every call).
    """
    return _quixo._search(board, depth=depth or 0, nodes=nodes or 0, time=time,
                          multipv=multipv, threads=threads, hash_mb=hash_mb,
                          skill_level=skill_level, elo=elo, seed=seed)
