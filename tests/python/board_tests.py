"""quixo.Board and quixo.Board4: notation, moves, push and pop, results, perft against the C++
engine's `go perft`, symmetries, arrays and masks."""
import copy
import pickle
import random

import numpy
import pytest

import quixo
from conftest import engine_answers


def random_game(board, plies, seed):
    rng = random.Random(seed)
    for _ in range(plies):
        if board.is_game_over():
            break
        board.push(rng.choice(board.legal_moves()))
    return board


def test_the_start_position_and_its_44_moves():
    board = quixo.Board()
    assert board.text() == "5/5/5/5/5 x"
    assert board.turn == 0
    assert len(board.legal_moves()) == 44
    assert not board.is_game_over()
    assert board.result() == "*"
    assert repr(board) == "Board('5/5/5/5/5 x')"


@pytest.mark.parametrize("depth,count", [(1, 44), (2, 1836), (3, 76596), (4, 3018100)])
def test_perft_from_the_start_matches_the_spec(depth, count):
    assert quixo.Board().perft(depth) == count


@pytest.mark.parametrize("seed", range(6))
def test_perft_matches_the_engine_on_random_positions(seed):
    for board in (random_game(quixo.Board(), 12 + seed, seed),
                  random_game(quixo.Board4(), 12 + seed, seed)):
        if board.is_game_over():
            continue
        lines = engine_answers("position fen %s\ngo perft 3\n" % board.text(), "Nodes searched")
        assert int(lines[-1].split(":")[1]) == board.perft(3)
        divide = dict(board.divide(2))
        assert sorted(divide) == sorted(board.legal_moves())
        assert sum(divide.values()) == board.perft(2)


def test_push_and_pop_restore_the_position_and_the_stack():
    board = quixo.Board()
    positions = [board.text()]
    rng = random.Random(7)
    for _ in range(30):
        if board.is_game_over():
            break
        board.push(rng.choice(board.legal_moves()))
        positions.append(board.text())
    assert len(board.move_stack) == len(positions) - 1
    while board.move_stack:
        assert board.text() == positions.pop()
        board.pop()
    assert board.text() == "5/5/5/5/5 x"
    with pytest.raises(IndexError):
        board.pop()


def test_bad_moves_and_positions_are_value_errors_and_change_nothing():
    board = quixo.Board()
    board.push("a1e1")
    for bad in ("", "zz", "a1a1", "c3c5", "b2e2", "a1e1 ", "e1a1x"):
        assert not board.is_legal(bad)
        with pytest.raises(ValueError):
            board.push(bad)
    assert board.move_stack == ["a1e1"]
    for bad in ("", "5/5/5/5 x", "6/5/5/5/5 x", "5/5/5/5/5 z", "xxxxx/5/5/5/5"):
        with pytest.raises(ValueError):
            quixo.Board(bad)
    assert issubclass(quixo.NotationError, ValueError)


def test_a_line_ends_the_game_and_making_the_opponents_loses():
    # X holds a5-d5: pushing a cube in at e5 from e1 completes rank 5
    board = quixo.Board("xxxx1/5/5/5/5 x")
    board.push("e1e5")
    assert board.is_game_over() and board.result() == "1-0" and board.outcome() == "X wins"
    assert board.legal_moves() == [] and board.legal_move_mask().sum() == 0
    # O takes the blank a1 and pushes in at a5: X's a2 slides to a1 and completes X's rank 1
    board = quixo.Board("5/5/5/x4/1xxxx o")
    assert board.turn == 1
    board.push("a1a5")
    assert board.result() == "1-0"


def test_repetitions_are_counted():
    board = quixo.Board("5/5/5/5/5 x")
    assert board.repetition_count() == 1
    # each side takes a blank corner and puts it back: the position recurs after four plies
    for move in ("a1e1", "a5e5", "e1a1", "e5a5"):
        board.push(move)
    first = board.text()
    for move in ("a1e1", "a5e5", "e1a1", "e5a5"):
        board.push(move)
    assert board.text() == first
    assert board.repetition_count() == 2


def test_symmetries_keep_the_move_count_and_canonical_is_the_same_for_all():
    board = random_game(quixo.Board(), 9, 3)
    assert not board.is_game_over()
    images = [board.transform(symmetry) for symmetry in range(8)]
    assert images[0] == board
    assert all(len(image.legal_moves()) == len(board.legal_moves()) for image in images)
    assert all(image.perft(2) == board.perft(2) for image in images)
    keys = {image.canonical_key() for image in images}
    assert len(keys) == 1
    canonical, symmetry = board.canonical()
    assert canonical == board.transform(symmetry)
    assert canonical.key() == board.canonical_key()
    with pytest.raises(ValueError):
        board.transform(8)
    assert len(quixo.SYMMETRIES) == 8


def test_arrays_and_back():
    board = quixo.Board("xo3/5/5/5/4o x")
    array = board.to_array()
    assert array.shape == (5, 5) and array.dtype == numpy.int8
    # row 0 is rank 5: a5 holds X, b5 O; e1 (row 4, column 4) holds O
    assert array[0, 0] == 1 and array[0, 1] == -1 and array[4, 4] == -1
    assert int(numpy.abs(array).sum()) == 3
    assert quixo.Board.from_array(array, 0) == board
    assert quixo.Board.from_array(array.tolist(), 1).turn == 1
    with pytest.raises(ValueError):
        quixo.Board.from_array(numpy.zeros((4, 5)), 0)
    with pytest.raises(ValueError):
        quixo.Board.from_array(numpy.full((5, 5), 2), 0)
    four = quixo.Board4()
    four.push(four.legal_moves()[0])
    assert set(numpy.unique(four.to_array())) <= {0, 1, 2, 3, 4}


def test_legal_move_masks_match_the_legal_moves():
    boards = [random_game(quixo.Board(), plies, plies) for plies in range(0, 40, 3)]
    masks = quixo.legal_move_masks(boards)
    assert masks.shape == (len(boards), 44) and masks.dtype == bool
    for board, mask in zip(boards, masks):
        names = {"%s%s" % quixo.SLIDES[i] for i in numpy.flatnonzero(mask)}
        assert names == set(board.legal_moves())
        assert (board.legal_move_mask() == mask).all()
    fours = [random_game(quixo.Board4(), plies, plies) for plies in range(0, 20, 4)]
    masks = quixo.legal_move_masks(fours)
    assert masks.shape == (len(fours), 88)
    for board, mask in zip(fours, masks):
        moves = [move for move in board.legal_moves() if move != "0000"]
        assert mask.sum() == len(moves)
    with pytest.raises(TypeError):
        quixo.legal_move_masks([quixo.Board(), quixo.Board4()])
    with pytest.raises(ValueError):
        quixo.legal_move_masks([])


def test_the_team_game():
    board = quixo.Board4()
    assert board.text() == "5/5/5/5/5 1" and board.turn == 1
    assert len(board.legal_moves()) == 88
    board.push("a1e1x")
    assert board.turn == 2 and board.move_stack == ["a1e1x"]
    assert board.pop() == "a1e1x"
    assert board.perft(2) == 7344


def test_copies_and_pickles_are_independent():
    board = random_game(quixo.Board(), 5, 1)
    for twin in (board.copy(), copy.copy(board), copy.deepcopy(board),
                 pickle.loads(pickle.dumps(board))):
        assert twin == board and hash(twin) == hash(board)
        twin.push(twin.legal_moves()[0])
        assert twin != board


def test_random_playouts_in_one_call():
    board = quixo.Board()
    results = [board.random_playout(seed) for seed in range(2000)]
    assert set(results) <= {"1-0", "0-1", "*"}
    assert results.count("1-0") > 500 and results.count("0-1") > 500
    assert results == [board.random_playout(seed) for seed in range(2000)]  # seeded
    assert board.move_stack == [] and board.text() == "5/5/5/5/5 x"  # played on a copy
    assert board.random_playout(1, 0) == "*"  # no ply allowed
    done = quixo.Board("xxxx1/5/5/5/5 x")
    done.push("e1e5")
    assert done.random_playout(3) == "1-0"
    four = quixo.Board4()
    assert {four.random_playout(seed) for seed in range(300)} == {"1-0", "0-1"}
    with pytest.raises(ValueError):
        board.random_playout(1, -1)


@pytest.mark.parametrize("call", ["quixo.Board().perft(9)", "quixo.Board().divide(9)",
                                  "quixo.search(quixo.Board(), time=60)"])
def test_ctrl_c_stops_a_long_call(call):
    # Python handles Ctrl-C (SIGINT) while the C++ core counts or searches: KeyboardInterrupt
    # comes within moments, not when the minutes-long call would end.
    import os
    import signal
    import subprocess
    import sys
    import time
    process = subprocess.Popen(
        [sys.executable, "-c", "import sys, quixo; print('started', flush=True); %s" % call],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    assert process.stdout.readline().strip() == "started"
    time.sleep(0.5)
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    _, errors = process.communicate(timeout=20)
    assert time.monotonic() - sent < 5
    assert "KeyboardInterrupt" in errors
