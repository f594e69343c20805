"""Players in the course framework's style that break the wrapper's assumptions: one that
always answers a move no position allows, one that raises, and one that prints while it plays
(the framework's own Game.print() writes to stdout)."""
import random

from game import Game, Move, Player


class StubbornPlayer(Player):
    """Always the centre square, which is never on the border."""

    def make_move(self, game: Game) -> tuple[tuple[int, int], Move]:
        return (2, 2), Move.TOP


class CrashingPlayer(Player):
    def make_move(self, game: Game) -> tuple[tuple[int, int], Move]:
        raise RuntimeError("this player has a bug")


class ChattyPlayer(Player):
    def __init__(self) -> None:
        print("ChattyPlayer ready")

    def make_move(self, game: Game) -> tuple[tuple[int, int], Move]:
        game.print()
        print("thinking about", game.get_current_player())
        return (random.randint(0, 4), random.randint(0, 4)), random.choice(list(Move))
