"""quixo.Tables: the endgame tables probed from Python, against quixo-tb's own probe; and
scripts/tb-move-choice.py, which judges an engine's moves by them."""
import os
import re
import subprocess

import pytest

import quixo
import quixo.tb
from conftest import bin_dir


def quixo_tb(*arguments):
    return subprocess.run([os.path.join(bin_dir(), "quixo-tb")] + list(arguments),
                          capture_output=True, text=True, check=True).stdout


def parse_value(words):
    return (words[0], int(words[1]) if len(words) > 1 else 0)


@pytest.mark.parametrize("value", ["win", "loss", "draw"])
def test_probes_match_quixo_tb(tables_dir, value):
    tables = quixo.tb.open_tables(tables_dir)
    assert 0 in tables.layers
    blanks = str(max(tables.layers))
    sample = quixo_tb("sample", "--dir", tables_dir, "--blanks", blanks, "--value", value,
                      "--count", "4", "--seed", "3")
    positions = [line.strip() for line in sample.splitlines()
                 if line.strip() and not line.startswith("#")]
    if not positions and value == "draw":
        pytest.skip("no drawn position with %s blanks" % blanks)
    assert positions
    for text in positions:
        board = quixo.Board(text)
        lines = [line.split() for line in quixo_tb("probe", "--dir", tables_dir,
                                                    text).splitlines() if line.strip()]
        assert tables.probe(board) == parse_value(lines[0])
        assert tables.probe(board)[0] == value
        expected_moves = {words[0]: parse_value(words[1:]) for words in lines[1:]}
        assert tables.probe_moves(board) == expected_moves
        assert sorted(expected_moves) == sorted(board.legal_moves())


def test_a_position_outside_the_tables_and_a_missing_folder(tables_dir, tmp_path):
    tables = quixo.Tables(tables_dir)
    assert tables.probe(quixo.Board()) is None  # 25 blanks
    with pytest.raises(ValueError):
        quixo.Tables(str(tmp_path))


def move_choice(tables_dir, *arguments):
    script = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "tb-move-choice.py")
    return subprocess.run(["/usr/bin/python3", script, "--tables", tables_dir, "--engine",
                           os.path.join(bin_dir(), "quixo-engine")] + list(arguments),
                          capture_output=True, text=True, timeout=120)


def test_tb_move_choice_judges_each_move_by_the_tables(tables_dir, tmp_path):
    # One node a search gives moves away; each one written down must really lose the win.
    misses = tmp_path / "misses.txt"
    run = move_choice(tables_dir, "--blanks", "1", "--min", "3", "--count", "30", "--nodes", "1",
                      "--misses", str(misses))
    assert run.returncode == 0, run.stderr
    kept, total, draws, losses, open_kept, open_total = map(int, re.search(
        r"the win kept by (\d+) of (\d+) moves \(draws (\d+), losses (\d+)\); "
        r"where a move draws: (\d+) of (\d+)", run.stdout).groups())
    assert total == 30 and kept + draws + losses == total
    assert open_kept <= kept and open_total <= total
    lines = misses.read_text().splitlines()
    assert len(lines) == draws + losses > 0
    tables = quixo.Tables(tables_dir)
    for line in lines:
        text, played, winning = line.split("\t")
        move, value = played.split()
        values = tables.probe_moves(quixo.Board(text))
        assert tables.probe(quixo.Board(text))[0] == "win"
        assert values[move][0] == value != "win"
        assert winning.split()[1:] == sorted(m for m, v in values.items() if v[0] == "win")


@pytest.mark.parametrize("arguments, message", [
    (["--blanks", "2"], "has no table of 2 blanks"),
    (["--option", "Hash"], "--option wants NAME=VALUE"),
    (["--option", "NoSuchOption=1"], "declares no option 'NoSuchOption'"),
    (["--option", "TablebasePath=x"], "searches without tables"),
    (["--nodes", "0"], "must be at least 1"),
])
def test_tb_move_choice_refuses_a_bad_command_line(tables_dir, arguments, message):
    run = move_choice(tables_dir, "--blanks", "1", "--count", "2", "--nodes", "10", *arguments)
    assert run.returncode != 0
    assert message in run.stderr and "Traceback" not in run.stderr
