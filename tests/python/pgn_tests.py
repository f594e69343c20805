"""quixo.pgn: the arena's PGN read and written by its own code, from Python."""
import os
import subprocess

import pytest

import quixo
import quixo.pgn
from conftest import bin_dir


def arena_games(tmp_path, *extra):
    pgn = tmp_path / "games.pgn"
    subprocess.run([os.path.join(bin_dir(), "quixo-arena"),
                    "--engine", "name=one", "cmd=" + os.path.join(bin_dir(), "quixo-engine"),
                    "--engine", "name=two", "cmd=" + os.path.join(bin_dir(), "quixo-engine"),
                    "--each", "tc=nodes=300", "--rounds", "2", "--pgn", str(pgn)] + list(extra),
                   check=True, capture_output=True, timeout=120)
    return pgn.read_text()


@pytest.mark.parametrize("variant", ["2p", "4p"])
def test_arena_games_read_replay_and_write_back_the_same(tmp_path, variant):
    text = arena_games(tmp_path, "--variant", variant)
    games = quixo.pgn.read_games(text)
    assert len(games) == 4
    for game in games:
        assert {game.x, game.o} <= {"one", "two"} or game.seats
        assert game.result in quixo.pgn.RESULTS
        board = game.end()  # every move replays legally
        if game.termination == "line":
            assert board.is_game_over() and board.result() == game.result
        assert all(move.time >= 0 for move in game.moves)
        assert quixo.pgn.read_games(str(game)) == [game]
    with open(tmp_path / "games.pgn") as handle:
        assert quixo.pgn.read_games(handle) == games
    copy = tmp_path / "copy.pgn"
    with open(copy, "w") as handle:
        quixo.pgn.write_games(games, handle)
    assert quixo.pgn.read_games(copy.read_text()) == games


def test_a_game_from_a_board():
    board = quixo.Board("xxxx1/5/5/5/5 x")
    board.push("e1e5")
    game = quixo.pgn.Game.from_board(board, x="me", o="you")
    assert game.result == "1-0" and game.termination == "line"
    again = quixo.pgn.read_games(str(game))[0]
    assert again.end().text() == board.text() and again.x == "me"
    with pytest.raises(ValueError):
        quixo.pgn.Game.from_board(board, result="2-0")


def test_malformed_pgn_is_a_pgn_error():
    with pytest.raises(quixo.pgn.PgnError):
        quixo.pgn.read_games('[Event "x"]\n[FEN "not a position"]\n\n1. a1e1 *\n')
    with pytest.raises(ValueError):  # PgnError is a ValueError
        quixo.pgn.read_games('[Event "x"]\n\n1. zz9 *\n')
