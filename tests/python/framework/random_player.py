"""A random Player in the course framework's style: any square, any slide, and the game asks
again when it refuses the move."""
import random

from game import Game, Move, Player


class RandomPlayer(Player):
    def make_move(self, game: Game) -> tuple[tuple[int, int], Move]:
        position = (random.randint(0, 4), random.randint(0, 4))
        return position, random.choice(list(Move))
