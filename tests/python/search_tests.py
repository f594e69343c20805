"""quixo.search: the project's engine in this process, against the engine program's answers."""
import re

import pytest

import quixo
from conftest import engine_answers, random_positions


def test_a_fixed_depth_search_agrees_with_the_engine_program():
    board = quixo.Board()
    for move in ("a1e1", "e5a5", "b1b5"):
        board.push(move)
    result = quixo.search(board, depth=5)
    lines = engine_answers("position startpos moves a1e1 e5a5 b1b5\ngo depth 5\n", "bestmove")
    assert result["bestmove"] == lines[-1].split()[1]
    last_info = [line for line in lines if line.startswith("info depth 5 ")][-1]
    assert int(re.search(r" nodes (\d+)", last_info).group(1)) == result["nodes"]
    assert result["depth"] == 5 and result["bestmove"] in board.legal_moves()
    assert result["pv"][0] == result["bestmove"]


def test_a_win_in_one_is_found_and_reported_as_mate():
    result = quixo.search(quixo.Board("xxxx1/5/5/5/5 x"), depth=3)
    assert result["bestmove"] == "e1e5" or result["mate"] == 1
    assert result["mate"] == 1


def test_multipv_lines_and_limits():
    result = quixo.search(quixo.Board(), depth=4, multipv=3)
    assert len(result["lines"]) == 3
    firsts = [line["pv"][0] for line in result["lines"]]
    assert len(set(firsts)) == 3
    scores = [line["score"] for line in result["lines"]]
    assert scores == sorted(scores, reverse=True)
    by_nodes = quixo.search(quixo.Board(), nodes=5000)
    assert by_nodes["bestmove"] in quixo.Board().legal_moves()
    by_time = quixo.search(quixo.Board(), time=0.1)
    assert by_time["time"] < 2


def test_multipv_lines_are_the_last_report_led_by_the_move_played():
    # Searches stopped by a node limit: the lines are one report's, distinct moves with the move
    # played first. When the best line's score is a bound (a move beat the best just before the
    # stop) it says so; such lines used to be dropped, and the lines then mixed two iterations.
    bounded = 0
    for board in random_positions(20, seed=7, min_plies=8, max_plies=30):
        for nodes in (3000, 20000):
            result = quixo.search(board, nodes=nodes, multipv=3)
            firsts = [line["pv"][0] for line in result["lines"]]
            assert len(set(firsts)) == len(firsts) == 3, (board.text(), nodes, firsts)
            assert firsts[0] == result["pv"][0] == result["bestmove"], (board.text(), nodes)
            assert [line["multipv"] for line in result["lines"]] == [1, 2, 3]
            best_line = result["lines"][0]
            assert result["score"] == best_line["score"]
            assert result.get("lowerbound") == best_line.get("lowerbound")
            bounded += any(line.get("lowerbound") or line.get("upperbound")
                           for line in result["lines"])
    assert bounded > 0


def test_the_team_game_is_searched_too():
    board = quixo.Board4()
    result = quixo.search(board, depth=3)
    assert result["bestmove"] in board.legal_moves()


def test_bad_limits_are_value_errors():
    with pytest.raises(ValueError):
        quixo.search(quixo.Board())  # no limit
    with pytest.raises(ValueError):
        quixo.search(quixo.Board(), depth=-1)
    with pytest.raises(ValueError):
        quixo.search(quixo.Board(), time=0)
    with pytest.raises(ValueError):
        quixo.search(quixo.Board(), depth=2, threads=0)
    done = quixo.Board("xxxx1/5/5/5/5 x")
    done.push("e1e5")
    with pytest.raises(ValueError):
        quixo.search(done, depth=2)
