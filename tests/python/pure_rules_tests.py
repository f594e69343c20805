"""The pure-Python rules of pure_rules.py agree with quixo.Board, so that the speed comparison of
scripts/python-speed.py compares two implementations of the same game: perft, legal-move sets,
results (the loss on making the opponent's line included) and random playouts."""
import random

import pytest

import pure_rules
import quixo


def test_the_tables_hold_the_44_moves_of_quixo_in_its_order():
    assert len(pure_rules.SLIDES) == 44
    assert pure_rules.Board().legal_moves() == quixo.Board().legal_moves()
    assert sorted(pure_rules.SLIDES) == sorted(start + end for start, end in quixo.SLIDES)
    assert len(pure_rules.LINES) == 12


@pytest.mark.parametrize("depth,count", [(0, 1), (1, 44), (2, 1836), (3, 76596)])
def test_perft_from_the_start_matches_the_spec_and_quixo(depth, count):
    assert pure_rules.Board().perft(depth) == count == quixo.Board().perft(depth)


def test_a_push_slides_the_line_toward_the_hole():
    board = pure_rules.Board.from_text("5/5/5/5/o1x1o x")  # a1 o, c1 x, e1 o
    board.push("b1e1")
    assert board.text() == "5/5/5/5/ox1ox o"  # c1, d1 and e1 moved to b1, c1 and d1
    board.push("a1a5")
    assert board.text() == "o4/5/5/5/1x1ox x"
    assert board.pop() == "a1a5"
    assert board.text() == "5/5/5/5/ox1ox o"
    reference = quixo.Board("5/5/5/5/o1x1o x")
    reference.push("b1e1")
    reference.push("a1a5")
    assert reference.text() == "o4/5/5/5/1x1ox x"


def test_text_round_trips_and_matches_quixo_on_a_random_game():
    rng = random.Random(3)
    board, pure_board = quixo.Board(), pure_rules.Board()
    while not board.is_game_over():
        assert pure_rules.Board.from_text(board.text()).text() == board.text()
        move = rng.choice(board.legal_moves())
        board.push(move)
        pure_board.push(move)
        assert pure_board.text() == board.text()


@pytest.mark.parametrize("seed", range(4))
def test_moves_and_results_agree_along_random_games(seed):
    """At every position of 150 random games: the same set of legal moves, the same result after
    each of them, the same position after the one played."""
    rng = random.Random(seed)
    both_lines_made = 0
    for _ in range(150):
        board, pure_board = quixo.Board(), pure_rules.Board()
        for _ in range(200):
            moves = board.legal_moves()
            assert sorted(pure_board.legal_moves()) == sorted(moves)
            assert pure_board.is_game_over() == board.is_game_over()
            assert pure_board.result() == board.result()
            if not moves:
                break
            for move in moves:
                board.push(move)
                pure_board.push(move)
                assert pure_board.result() == board.result(), (board.move_stack, move)
                if len(pure_rules.line_owners(pure_board.cells)) == 2:
                    both_lines_made += 1
                board.pop()
                pure_board.pop()
            move = rng.choice(moves)
            board.push(move)
            pure_board.push(move)
            assert pure_board.text() == board.text()
    # The rule that making the opponent's line loses was compared, not only ordinary wins.
    assert both_lines_made > 0


def test_a_move_making_both_lines_loses():
    # X takes c1 and pushes it in at c5: the x on c5 completes rank 5 for X, and the o that was on
    # c5 slides to c4 and completes rank 4 for O.
    text = "xxoxx/oo1oo/5/5/2x2 x"
    board, pure_board = quixo.Board(text), pure_rules.Board.from_text(text)
    board.push("c1c5")
    pure_board.push("c1c5")
    assert pure_rules.line_owners(pure_board.cells) == {pure_rules.X, pure_rules.O}
    assert pure_board.result() == board.result() == "0-1"


@pytest.mark.parametrize("seed", range(6))
def test_perft_agrees_on_random_positions(seed):
    rng = random.Random(100 + seed)
    board = quixo.Board()
    for _ in range(8 + 3 * seed):
        if board.is_game_over():
            break
        board.push(rng.choice(board.legal_moves()))
    pure_board = pure_rules.Board.from_text(board.text())
    depth = 3 if seed < 2 else 2
    assert pure_board.perft(depth) == board.perft(depth)


def test_a_set_up_finished_position_has_its_result_and_no_moves():
    for text in ("xxxxx/5/5/5/5 o", "5/ooooo/5/5/5 x", "x4/1x3/2x2/3x1/4x o"):
        board, pure_board = quixo.Board(text), pure_rules.Board.from_text(text)
        assert pure_board.is_game_over() and board.is_game_over()
        assert pure_board.result() == board.result()
        assert pure_board.legal_moves() == [] == board.legal_moves()
        assert pure_board.perft(2) == 0 == board.perft(2)


def test_bad_moves_are_refused():
    board = pure_rules.Board.from_text("5/5/5/5/o4 x")
    for move in ("a1e1", "a1a1", "c3c5", "b1", ""):  # the opponent's cube, no slide, no move
        with pytest.raises(ValueError):
            board.push(move)
    assert board.text() == "5/5/5/5/o4 x"
    with pytest.raises(ValueError):
        pure_rules.Board.from_text("xxxxx/5/5/5/5 o").push("a1e1")  # the game is over


def quixo_playout(rng):
    """The Python loop on quixo.Board of scripts/python-speed.py."""
    board = quixo.Board()
    for _ in range(200):
        if board.is_game_over():
            break
        board.push(rng.choice(board.legal_moves()))
    return board.result() if board.is_game_over() else pure_rules.DRAW


def test_random_playouts_play_the_same_games_as_a_loop_on_quixo():
    # Both list the moves in one order, so one seed draws the same moves: the same results.
    pure_rng, quixo_rng = random.Random(5), random.Random(5)
    start = pure_rules.Board()
    results = [start.random_playout(pure_rng) for _ in range(300)]
    assert results == [quixo_playout(quixo_rng) for _ in range(300)]
    assert start.text() == "5/5/5/5/5 x"  # played on a copy
    assert set(results) <= {"1-0", "0-1", pure_rules.DRAW}


def test_a_playout_ends_in_a_draw_at_the_ply_cap():
    assert pure_rules.Board().random_playout(random.Random(1), max_plies=3) == pure_rules.DRAW
