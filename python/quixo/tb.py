"""The endgame tables from Python: the exact value of every position with few blanks, as
quixo-tb probes them (the same reader, in C++).

    import quixo, quixo.tb
    tables = quixo.tb.open_tables("tb")          # a folder of quixo-b0.qtb, quixo-b1.qtb, ...
    board = quixo.Board("xoxoo/xxoox/ooxxx/oxxox/xo1oo x")
    tables.probe(board)                          # ('win', 7): a win in 7 plies with best play
    tables.probe_moves(board)                    # {'c1e1': ('win', 7), 'a1e1': ('loss', 38), ...}

Values are for the side to move and count plies to the end (0 for a draw); a move's value is the
mover's after that move, as `quixo-tb probe` prints it. A position outside the loaded layers
gives None. The layers of `tables.exit_layers` (made by `quixo-tb generate --distance-to exit`)
count plies to the layer's exit instead: to the first blank taken, for training and analysis.
"""
from ._quixo import Tables

__all__ = ["Tables", "open_tables"]


def open_tables(folder: str) -> Tables:
    """The tables of `folder`; a ValueError names the files refused when no layer loads."""
    return Tables(folder)
