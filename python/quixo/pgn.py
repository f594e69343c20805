"""quixo-arena's PGN games from Python, read and written by the arena's own code (C++).

    import quixo.pgn
    with open("tournament.pgn") as handle:
        for game in quixo.pgn.read_games(handle):
            print(game.x, game.o, game.result, game.termination, len(game.moves))
            board = game.end()                     # the position after the last move
    game = quixo.pgn.Game.from_board(board, x="me", o="quixo")
    print(game)                                    # the PGN text

Both games: a four-player game has `seats` (the players of seats 1-4) and `seating`.
"""
import dataclasses
from typing import IO, List, Optional, Union

from . import _quixo
from ._quixo import Board, Board4

PgnError = _quixo.PgnError

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


@dataclasses.dataclass
class Move:
    """A move as the arena records it: its text and the mover's report on it."""

    move: str
    score: Optional[int] = None  # centi-cubes, the mover's point of view
    mate: Optional[int] = None   # moves to a win, negative when losing
    depth: Optional[int] = None
    time: float = 0.0            # seconds the reply took
    nodes: Optional[int] = None
    comment: str = ""


@dataclasses.dataclass
class Game:
    """One game: the players, the start position, the moves and how it ended."""

    x: str = "?"
    o: str = "?"
    start_position: str = "5/5/5/5/5 x"
    opening_moves: List[str] = dataclasses.field(default_factory=list)
    moves: List[Move] = dataclasses.field(default_factory=list)
    result: str = "*"
    termination: str = "unterminated"
    reason: str = ""
    event: str = "quixo-arena"
    site: str = ""
    date: str = ""
    round: str = ""
    time_control: str = ""
    seats: Optional[List[str]] = None
    seating: Optional[str] = None

    def board(self) -> Union[Board, Board4]:
        """The start position (before the opening moves), as a board."""
        return Board4(self.start_position) if self.start_position.split()[-1].isdigit() \
            else Board(self.start_position)

    def end(self) -> Union[Board, Board4]:
        """The board after the opening moves and every move of the game, with its move stack."""
        board = self.board()
        for move in self.opening_moves + [move.move for move in self.moves]:
            board.push(move)
        return board

    @classmethod
    def from_board(cls, board: Union[Board, Board4], *, x: str = "?", o: str = "?",
                   result: Optional[str] = None, **fields) -> "Game":
        """A game of the moves of `board`'s stack from its root; the result is the board's
        unless given (a draw must be given: the board has no draw rule)."""
        if result is not None and result not in RESULTS:
            raise ValueError("result must be one of %s" % ", ".join(RESULTS))
        result = result or board.result()
        termination = "line" if board.is_game_over() else (
            "unterminated" if result == "*" else "repetition")
        return cls(x=x, o=o, start_position=board.root().text(),
                   moves=[Move(move) for move in board.move_stack], result=result,
                   termination=fields.pop("termination", termination), **fields)

    def _as_dict(self) -> dict:
        fields = dataclasses.asdict(self)
        fields["moves"] = [dataclasses.asdict(move) for move in self.moves]
        if self.seats is None:
            del fields["seats"], fields["seating"]
        return fields

    def __str__(self) -> str:
        # A move comment per move only when there is a report to give (a game from the arena):
        # a game made from a board has none, and "{0.000s}" after each move would say nothing.
        reported = any(move.score is not None or move.mate is not None or move.depth is not None
                       or move.nodes is not None or move.time for move in self.moves)
        return _quixo._format_pgn(self._as_dict(), reported)


def _game_of(fields: dict) -> Game:
    fields = dict(fields)
    fields["moves"] = [Move(**move) for move in fields["moves"]]
    return Game(**fields)


def read_games(source: Union[str, IO[str]]) -> List[Game]:
    """Every game of a PGN text or an open text file. Comments in the arena's form
    ({+0.26/6 0.074s}) become the moves' reports; a malformed file raises PgnError."""
    text = source if isinstance(source, str) else source.read()
    return [_game_of(fields) for fields in _quixo._parse_pgn(text)]


def write_games(games: List[Game], handle: IO[str]) -> None:
    """Writes the games to an open text file, as the arena writes them."""
    for game in games:
        handle.write(str(game))
        handle.write("\n")
