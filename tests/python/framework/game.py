"""A stand-in for the course framework's game.py (squillero/computational-intelligence,
2023-24/quixo), written for the tests from its public interface and behaviour: ``Move``,
the abstract ``Player`` and ``Game`` with ``get_board()``, ``get_current_player()``, ``print()``,
``check_winner()``, ``play(player1, player2)`` and the private ``__move`` that students call as
``game._Game__move``. What the adapters depend on is kept as the course has it: the board in
``self._board`` (``board[y, x]``, -1 blank, 0 and 1 the players' cubes), the player index in
``self.current_player_idx`` (1 before the first move, so that player 0 moves first), a refused
move asked for again, no draw rule, and a winner check that returns the first complete line in
the order rows, columns, main diagonal, anti-diagonal.
"""
from abc import ABC, abstractmethod
from copy import deepcopy
from enum import Enum

import numpy as np


class Move(Enum):
    """The end of its row or column where the taken cube goes back in."""
    TOP = 0
    BOTTOM = 1
    LEFT = 2
    RIGHT = 3


class Player(ABC):
    @abstractmethod
    def make_move(self, game: "Game") -> tuple[tuple[int, int], Move]:
        """((x, y), Move): x the column from the left, y the row from the top."""


class Game:
    def __init__(self) -> None:
        # The course builds it as uint8 ones times -1, which numpy 1.x widens to int16.
        self._board = np.full((5, 5), -1, dtype=np.int16)
        self.current_player_idx = 1

    def get_board(self) -> np.ndarray:
        return deepcopy(self._board)

    def get_current_player(self) -> int:
        return self.current_player_idx

    def print(self) -> None:
        print(self._board)

    def check_winner(self) -> int:
        """The player of the first complete line (rows, columns, diagonals), or -1."""
        board = self._board
        lines = [board[row, :] for row in range(5)] + [board[:, column] for column in range(5)]
        lines += [np.diagonal(board), np.diagonal(np.fliplr(board))]
        for line in lines:
            if line[0] != -1 and (line == line[0]).all():
                return int(line[0])
        return -1

    def play(self, player1: Player, player2: Player) -> int:
        """Plays until someone has a line; a refused move is asked for again."""
        players = (player1, player2)
        winner = -1
        while winner < 0:
            self.current_player_idx = (self.current_player_idx + 1) % 2
            accepted = False
            while not accepted:
                position, slide = players[self.current_player_idx].make_move(self)
                accepted = self.__move(position, slide, self.current_player_idx)
            winner = self.check_winner()
        return winner

    def __move(self, position: tuple[int, int], slide: Move, player_id: int) -> bool:
        """Takes the cube at (x, y) for `player_id` and pushes it in; False, with the board
        untouched, when the move is refused."""
        x, y = position
        if not (0 <= x <= 4 and 0 <= y <= 4) or (x not in (0, 4) and y not in (0, 4)):
            return False
        if self._board[y, x] not in (-1, player_id):
            return False
        ends = {Move.LEFT: (0, y), Move.RIGHT: (4, y), Move.TOP: (x, 0), Move.BOTTOM: (x, 4)}
        if slide not in ends or ends[slide] == (x, y):
            return False
        if slide in (Move.LEFT, Move.RIGHT):
            row = list(self._board[y, :])
            del row[x]
            row.insert(0 if slide == Move.LEFT else 4, player_id)
            self._board[y, :] = row
        else:
            column = list(self._board[:, x])
            del column[y]
            column.insert(0 if slide == Move.TOP else 4, player_id)
            self._board[:, x] = column
        return True
