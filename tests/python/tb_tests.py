"""quixo.Tables: the endgame tables probed from Python, against quixo-tb's own probe."""
import os
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
