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


def played_positions(count, seed=7):
    """`count` positions 8 to 30 random plies from the start, the game going on: searches stopped
    by a node limit in these end now and then with a move that beat the best just before."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        board = quixo.Board()
        for _ in range(rng.randrange(8, 31)):
            board.push(rng.choice(board.legal_moves()))
            if board.is_game_over():
                break
        if not board.is_game_over():
            positions.append(board)
    return positions


@pytest.fixture
def tables_dir():
    folder = os.environ.get("QUIXO_TEST_TABLES_DIR")
    if not folder or not os.path.exists(os.path.join(folder, "quixo-b0.qtb")):
        pytest.skip("no test tables (QUIXO_TEST_TABLES_DIR)")
    return folder
