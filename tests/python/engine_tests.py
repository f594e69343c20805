"""quixo.engine: the UQI client (quixo-arena's, from Python) against the real engine and the
project's misbehaving mock engines."""
import os
import time

import pytest

import quixo
import quixo.engine
from conftest import bin_dir, random_positions


def engine_command():
    return os.path.join(bin_dir(), "quixo-engine")


def mock(mode, *extra):
    return [os.path.join(bin_dir(), "quixo-mock-engine"), "--mode", mode] + list(extra)


def test_a_whole_game_against_itself_and_the_info_of_a_move():
    with quixo.engine.SimpleEngine.popen_uqi(engine_command()) as engine:
        assert engine.id["name"].startswith("Quixo")
        assert "MultiPV" in engine.options and engine.options["Hash"].type == "spin"
        engine.new_game()
        board = quixo.Board()
        while not board.is_game_over() and len(board.move_stack) < 60:
            result = engine.play(board, quixo.engine.Limit(depth=3))
            assert result.move in board.legal_moves()
            assert result.info["depth"] == 3 and result.info["pv"][0] == result.move
            board.push(result.move)
        timed = engine.play(quixo.Board(), quixo.engine.Limit(time=0.05))
        assert timed.move in quixo.Board().legal_moves()
        clocked = engine.play(quixo.Board(), quixo.engine.Limit(x_clock=1.0, o_clock=1.0,
                                                                x_inc=0.01, o_inc=0.01))
        assert clocked.move in quixo.Board().legal_moves()


def test_analyse_gives_the_info_and_multipv_lines():
    with quixo.engine.SimpleEngine.popen_uqi(engine_command()) as engine:
        board = quixo.Board()
        board.push("a1e1")
        info = engine.analyse(board, quixo.engine.Limit(depth=5))
        assert info["depth"] == 5 and "score" in info and info["pv"][0] in board.legal_moves()
        lines = engine.analyse(board, quixo.engine.Limit(depth=5), multipv=3)
        assert [line["multipv"] for line in lines] == [1, 2, 3]
        assert len({line["pv"][0] for line in lines}) == 3
        # MultiPV goes back to one line for the next search
        assert isinstance(engine.analyse(board, quixo.engine.Limit(depth=3)), dict)
        won = quixo.Board("xxxx1/5/5/5/5 x")
        assert engine.analyse(won, quixo.engine.Limit(depth=3))["mate"] == 1


def test_analyse_multipv_gives_the_last_report_of_each_line():
    # As quixo.search: at a node limit the lines are one report's, distinct moves, and a score
    # that is only a bound keeps its key (python-chess's `lowerbound`).
    bounded = 0
    with quixo.engine.SimpleEngine.popen_uqi(engine_command()) as engine:
        for board in random_positions(20, seed=7, min_plies=8, max_plies=30):
            for nodes in (3000, 20000):
                lines = engine.analyse(board, quixo.engine.Limit(nodes=nodes), multipv=3)
                firsts = [line["pv"][0] for line in lines]
                assert len(set(firsts)) == len(firsts) == 3, (board.text(), nodes, firsts)
                assert [line["multipv"] for line in lines] == [1, 2, 3]
                bounded += any(line.get("lowerbound") for line in lines)
    assert bounded > 0


def test_the_team_game_and_options():
    with quixo.engine.SimpleEngine.popen_uqi([engine_command()]) as engine:
        engine.configure({"Hash": 8, "Threads": 1})
        board = quixo.Board4()
        result = engine.play(board, quixo.engine.Limit(depth=2))
        assert result.move in board.legal_moves()
        clocks = quixo.engine.Limit(seat_clocks=[1, 1, 1, 1], seat_incs=[0, 0, 0, 0])
        assert engine.play(board, clocks).move in board.legal_moves()
        with pytest.raises(quixo.engine.EngineError):
            engine.configure({"NoSuchOption": 1})


def test_a_crash_is_engine_terminated_and_closes_cleanly():
    engine = quixo.engine.SimpleEngine.popen_uqi(mock("crash-on-go"))
    with pytest.raises(quixo.engine.EngineTerminatedError):
        engine.play(quixo.Board(), quixo.engine.Limit(depth=1))
    with pytest.raises(quixo.engine.EngineError):  # closed: no second search
        engine.play(quixo.Board(), quixo.engine.Limit(depth=1))
    engine.quit()  # twice is fine


def test_a_stalled_engine_times_out():
    with quixo.engine.SimpleEngine.popen_uqi(mock("stall")) as engine:
        started = time.monotonic()
        with pytest.raises(quixo.engine.EngineError):
            engine.play(quixo.Board(), quixo.engine.Limit(time=0.2))
        assert time.monotonic() - started < 10


def test_an_illegal_or_malformed_move_is_an_engine_error():
    for mode in ("illegal", "malformed"):
        with quixo.engine.SimpleEngine.popen_uqi(mock(mode)) as engine:
            with pytest.raises(quixo.engine.EngineError, match="illegal"):
                engine.play(quixo.Board(), quixo.engine.Limit(depth=1))


def test_engines_that_do_not_start():
    with pytest.raises(quixo.engine.EngineError):
        quixo.engine.SimpleEngine.popen_uqi("/nonexistent/engine")
    with pytest.raises(quixo.engine.EngineError):
        quixo.engine.SimpleEngine.popen_uqi(mock("crash-on-start"))
    with pytest.raises(quixo.engine.EngineError):
        quixo.engine.SimpleEngine.popen_uqi(mock("no-handshake"), timeout=0.5)


def test_bad_limits_and_finished_games_are_value_errors():
    with quixo.engine.SimpleEngine.popen_uqi(engine_command()) as engine:
        with pytest.raises(ValueError):
            engine.play(quixo.Board(), quixo.engine.Limit(depth=0))
        with pytest.raises(ValueError):
            engine.play(quixo.Board(), quixo.engine.Limit(time=-1))
        done = quixo.Board("xxxx1/5/5/5/5 x")
        done.push("e1e5")
        with pytest.raises(ValueError):
            engine.play(done, quixo.engine.Limit(depth=1))
        assert engine.play(quixo.Board(), quixo.engine.Limit(depth=1)).move  # still usable
