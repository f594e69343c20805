"""What the Python suites share: where the build's programs and test tables are (ctest passes
them in the environment: QUIXO_BIN_DIR, QUIXO_TEST_TABLES_DIR; PYTHONPATH names the package)."""
import os
import random
import subprocess

import pytest

import quixo


def bin_dir():
    return os.environ.get("QUIXO_BIN_DIR", os.path.join(os.path.dirname(__file__), "..", "..",
                                                        "build", "release", "bin"))


def engine_answers(commands, until):
    """Runs quixo-engine on `commands`, reading its lines until one starts with `until`."""
    process = subprocess.Popen([os.path.join(bin_dir(), "quixo-engine")], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    try:
        process.stdin.write(commands)
        process.stdin.flush()
        lines = []
        for line in process.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith(until):
                break
        return lines
    finally:
        process.stdin.write("quit\n")
        process.stdin.close()
        process.wait(timeout=30)


def random_positions(count, seed, ongoing=True, min_plies=0, max_plies=89):
    """Boards reached by random legal play from the start, `min_plies` to `max_plies` plies (a
    game that ends sooner stops there), as new boards without the moves that led to them."""
    generator = random.Random(seed)
    boards = []
    while len(boards) < count:
        board = quixo.Board()
        for _ in range(generator.randrange(min_plies, max_plies + 1)):
            moves = board.legal_moves()
            if not moves:
                break
            board.push(generator.choice(moves))
        if ongoing and board.is_game_over():
            continue
        boards.append(quixo.Board(board.text()))
    return boards


@pytest.fixture
def tables_dir():
    folder = os.environ.get("QUIXO_TEST_TABLES_DIR")
    if not folder or not os.path.exists(os.path.join(folder, "quixo-b0.qtb")):
        pytest.skip("no test tables (QUIXO_TEST_TABLES_DIR)")
    return folder
