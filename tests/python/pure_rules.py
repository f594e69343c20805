"""Two-player Quixo in plain Python, written for the speed comparison with the C++ core
(scripts/python-speed.py); pure_rules_tests.py checks that it agrees with quixo.Board.

It is meant as a good, ordinary Python implementation, the kind a student would write with
care: a list of 25 cells, move tables computed once at import, a copied list per move. It uses
no bit boards, so the comparison is between the C++ core and idiomatic Python, not a port of
the core's tricks.

Squares are indexed 5 * rank + file from a1 = 0 to e5 = 24. Moves are the project's notation:
`b1e1` takes the cube on b1 and pushes it back in at e1 (c1, d1 and e1 slide toward b1).
"""

FILES = "abcde"
SIZE = 5
BLANK, X, O = 0, 1, -1
DRAW = "1/2-1/2"
ONGOING = "*"


def square_name(index):
    return FILES[index % SIZE] + str(index // SIZE + 1)


def _square_index(file, rank):
    return rank * SIZE + file


def _build_moves():
    """The 44 moves: a table from the move's text to how it changes the board, and the moves of
    each border square (in the order quixo.Board lists them, so that one seed plays one game
    in both)."""
    slides = {}
    moves_from_square = []
    for start in range(SIZE * SIZE):
        file, rank = start % SIZE, start // SIZE
        if file not in (0, SIZE - 1) and rank not in (0, SIZE - 1):
            continue  # not on the border: it can never be taken
        ends = {(0, rank), (SIZE - 1, rank), (file, 0), (file, SIZE - 1)} - {(file, rank)}
        square_moves = []
        for end in sorted(_square_index(*end) for end in ends):
            step = 1 if end > start else -1
            if end // SIZE != rank:
                step *= SIZE  # along the file
            path = list(range(start, end + step, step))
            # Each square of the path takes the cube of its neighbour toward the end; the end
            # then receives the taken cube.
            shifts = tuple(zip(path, path[1:]))
            move = square_name(start) + square_name(end)
            slides[move] = (start, shifts, end)
            square_moves.append(move)
        moves_from_square.append((start, tuple(square_moves)))
    return slides, tuple(moves_from_square)


SLIDES, MOVES_FROM_SQUARE = _build_moves()

LINES = tuple(
    [tuple(_square_index(file, rank) for file in range(SIZE)) for rank in range(SIZE)]
    + [tuple(_square_index(file, rank) for rank in range(SIZE)) for file in range(SIZE)]
    + [tuple(_square_index(i, i) for i in range(SIZE)),
       tuple(_square_index(i, SIZE - 1 - i) for i in range(SIZE))])


def line_owners(cells):
    """The symbols (X, O) that have a line of five on the board."""
    owners = set()
    for a, b, c, d, e in LINES:
        owner = cells[a]
        if owner != BLANK and owner == cells[b] == cells[c] == cells[d] == cells[e]:
            owners.add(owner)
    return owners


def result_after_move(cells, mover):
    """The result once `mover` has moved: making the opponent's line loses, even with one's own
    line made at the same time; one's own line alone wins."""
    owners = line_owners(cells)
    if -mover in owners:
        winner = -mover
    elif mover in owners:
        winner = mover
    else:
        return ONGOING
    return "1-0" if winner == X else "0-1"


class Board:
    """A two-player Quixo position (X moves first) with its move stack."""

    def __init__(self, cells=None, turn=X):
        self.cells = list(cells) if cells is not None else [BLANK] * (SIZE * SIZE)
        self.turn = turn
        # A set-up position is judged as if the side not to move had just moved.
        self._result = result_after_move(self.cells, -turn)
        self._stack = []

    @classmethod
    def from_text(cls, text):
        """A board from the project's position string, e.g. '5/5/5/5/5 x'."""
        fields = text.split()
        symbols = {"x": X, "o": O}
        cells = [BLANK] * (SIZE * SIZE)
        for row, rank_text in enumerate(fields[0].split("/")):
            rank = SIZE - 1 - row
            file = 0
            for char in rank_text:
                if char.isdigit():
                    file += int(char)
                else:
                    cells[_square_index(file, rank)] = symbols[char]
                    file += 1
        return cls(cells, symbols[fields[1]])

    def text(self):
        """The project's position string (without a move number)."""
        letters = {X: "x", O: "o"}
        ranks = []
        for rank in reversed(range(SIZE)):
            rank_text, blanks = "", 0
            for file in range(SIZE):
                cell = self.cells[_square_index(file, rank)]
                if cell == BLANK:
                    blanks += 1
                    continue
                if blanks:
                    rank_text += str(blanks)
                    blanks = 0
                rank_text += letters[cell]
            ranks.append(rank_text + (str(blanks) if blanks else ""))
        return "/".join(ranks) + " " + letters[self.turn]

    def __repr__(self):
        return "Board(%r)" % self.text()

    def copy(self):
        board = Board.__new__(Board)
        board.cells = self.cells[:]
        board.turn = self.turn
        board._result = self._result
        board._stack = []
        return board

    def legal_moves(self):
        if self._result != ONGOING:
            return []
        opponent = -self.turn
        moves = []
        for square, square_moves in MOVES_FROM_SQUARE:
            if self.cells[square] != opponent:
                moves.extend(square_moves)
        return moves

    def push(self, move):
        try:
            start, shifts, end = SLIDES[move]
        except KeyError:
            raise ValueError("not a move: %r" % (move,)) from None
        if self._result != ONGOING:
            raise ValueError("%s: the game is over" % move)
        if self.cells[start] == -self.turn:
            raise ValueError("%s: the cube on %s is the opponent's" % (move, move[:2]))
        before = self.cells
        cells = before[:]
        for here, neighbour in shifts:
            cells[here] = before[neighbour]
        cells[end] = self.turn
        self._stack.append((move, before, self._result))
        self.cells = cells
        self._result = result_after_move(cells, self.turn)
        self.turn = -self.turn

    def pop(self):
        move, self.cells, self._result = self._stack.pop()
        self.turn = -self.turn
        return move

    def is_game_over(self):
        return self._result != ONGOING

    def result(self):
        """'1-0' (X won), '0-1' (O won) or '*' (the game goes on)."""
        return self._result

    def perft(self, depth):
        """The number of sequences of exactly `depth` legal moves (the last ply counted, not
        played)."""
        if depth == 0:
            return 1
        moves = self.legal_moves()
        if depth == 1:
            return len(moves)
        total = 0
        for move in moves:
            self.push(move)
            total += self.perft(depth - 1)
            self.pop()
        return total

    def random_playout(self, rng, max_plies=200):
        """Plays random legal moves (rng.choice) on a copy of this position until the game ends
        or `max_plies` were played; returns the result, DRAW at the ply cap."""
        board = self.copy()
        for _ in range(max_plies):
            if board.is_game_over():
                break
            board.push(rng.choice(board.legal_moves()))
        return board.result() if board.is_game_over() else DRAW
