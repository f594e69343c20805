"""quixo.Tables: the endgame tables probed from Python, against quixo-tb's own probe; and the
scripts that judge the engine by them: tb-move-choice.py (one move at a time), tb-conversion.sh
(whole games against the tables) and tb-conversion-compare.py (two such runs, position by
position)."""
import collections
import importlib.util
import math
import os
import re
import subprocess

import pytest

import quixo
import quixo.pgn
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


def script_path(name):
    return os.path.join(os.path.dirname(__file__), "..", "..", "scripts", name)


def move_choice(tables_dir, *arguments):
    return subprocess.run(["/usr/bin/python3", script_path("tb-move-choice.py"), "--tables",
                           tables_dir, "--engine",
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
    (["--option", "TablebasePath=x"], "TablebasePath x is not a folder"),
    (["--nodes", "0"], "must be at least 1"),
    (["--off-border", "2"], "--off-border must be 0..1 (the layer's blank cubes), not 2"),
    (["--games", "/dev/null", "--off-border", "2"],
     "--off-border must be 0..1 (the layer's blank cubes), not 2"),
    (["--games", "/nonexistent/games.pgn"], "No such file or directory"),
    (["--games", "/dev/null"], "the games hold no position of the attacker won in 41-159 plies"),
    (["--nodes", "10", "10"], "--nodes lists a budget twice"),
    (["--nodes", "10", "20", "--misses", "/dev/null"],
     "--misses writes the misses of one budget; give one --nodes"),
])
def test_tb_move_choice_refuses_a_bad_command_line(tables_dir, arguments, message):
    run = move_choice(tables_dir, "--blanks", "1", "--count", "2", "--nodes", "10", *arguments)
    assert run.returncode != 0
    assert message in run.stderr and "Traceback" not in run.stderr


def test_tb_move_choice_measures_several_budgets_on_the_same_positions(tables_dir):
    # Each budget's row is what a run of that budget alone prints (fixed nodes, every search
    # afresh), and the fall of the misses is the least-squares line through the rows.
    pattern = r"nodes (\d+): the win kept by (\d+) of (\d+) moves.*\(\d+ s\)"
    both = move_choice(tables_dir, "--blanks", "1", "--min", "3", "--count", "30",
                       "--nodes", "1", "3")
    assert both.returncode == 0, both.stderr
    rows = re.findall(pattern, both.stdout)
    assert [row[0] for row in rows] == ["1", "3"]
    for nodes, kept, total in rows:
        alone = move_choice(tables_dir, "--blanks", "1", "--min", "3", "--count", "30",
                            "--nodes", nodes)
        assert alone.returncode == 0, alone.stderr
        assert re.findall(pattern, alone.stdout) == [(nodes, kept, total)]
        assert "misses against nodes" not in alone.stdout
    missed = [int(total) - int(kept) for _, kept, total in rows]
    assert min(missed) > 0, "one node a search gives wins away, three nodes some too"
    factor = (missed[1] / missed[0]) ** (1 / math.log10(3))
    fitted = re.search(r"misses against nodes: x([\d.]+) a tenfold of nodes \((.*?);",
                       both.stdout)
    assert fitted, both.stdout
    assert float(fitted.group(1)) == pytest.approx(factor, abs=0.005)
    assert fitted.group(2) == "%d at 1, %d at 3" % tuple(missed)


def layer_zero_alone(tables_dir, folder):
    """A new folder holding links to the test tables' layer 0 only."""
    folder.mkdir()
    for name in os.listdir(tables_dir):
        if name.startswith("quixo-b0."):
            os.symlink(os.path.join(tables_dir, name), folder / name)
    return folder


def test_tb_move_choice_lets_the_engine_know_the_layers_below_the_measured_one(tables_dir,
                                                                               tmp_path):
    # Layer 0 alone, linked into a folder of its own: allowed, and the engine reports it. The
    # test tables' own folder holds layer 1, the one measured: refused.
    lower = layer_zero_alone(tables_dir, tmp_path / "lower")
    run = move_choice(tables_dir, "--blanks", "1", "--min", "3", "--count", "5", "--nodes", "100",
                      "--option", "TablebasePath=%s" % lower)
    assert run.returncode == 0, run.stderr
    assert re.search(r"TablebasePath=\S+: the win kept by \d+ of 5 moves", run.stdout)
    refused = move_choice(tables_dir, "--blanks", "1", "--count", "2", "--nodes", "10",
                          "--option", "TablebasePath=%s" % tables_dir)
    assert refused.returncode != 0
    assert "measured on, layer 1" in refused.stderr and "Traceback" not in refused.stderr


def blanks_off_the_border(text):
    return int((quixo.Board(text).to_array()[1:4, 1:4] == 0).sum())


def test_both_scripts_measure_the_positions_off_the_border_asked_for(tables_dir, tmp_path):
    # --off-border 1: every position measured has its blank on one of the nine inner squares.
    misses = tmp_path / "misses.txt"
    run = move_choice(tables_dir, "--blanks", "1", "--min", "3", "--count", "30", "--nodes", "1",
                      "--off-border", "1", "--misses", str(misses))
    assert run.returncode == 0, run.stderr
    assert "1-blank wins of 3-159 plies, 1 off the border, nodes 1:" in run.stdout
    lines = misses.read_text().splitlines()
    assert lines and all(blanks_off_the_border(line.split("\t")[0]) == 1 for line in lines)
    out = tmp_path / "conversion"
    conversion = subprocess.run(
        ["bash", script_path("tb-conversion.sh"), "--tables", tables_dir, "--blanks", "1",
         "--min", "3", "--count", "3", "--seed", "3", "--tc", "nodes=100", "--bin-dir",
         bin_dir(), "--out", str(out), "--off-border", "0"],
        capture_output=True, text=True, timeout=120)
    assert conversion.returncode == 0, conversion.stderr
    book = [line for line in (out / "book-b1-3-107-3-off0.txt").read_text().splitlines()
            if not line.startswith("#")]
    starts = {game.start_position for game in
              quixo.pgn.read_games((out / "conversion-search.pgn").read_text())}
    assert len(book) == 3 and starts == set(book)
    assert all(blanks_off_the_border(text) == 0 for text in book)


def test_tb_move_choice_measures_the_attackers_won_positions_of_conversion_games(tables_dir,
                                                                                 tmp_path):
    # The games' positions, counted here from the PGN and the tables: every position before an
    # attacker's move (X, the even moves) that is won in 1-159 plies with one blank, once, though
    # the file is given twice. Each move written down as given away, replayed from its start and
    # moves, really gives the win away.
    _, _, pgn = conversion_run(tables_dir, tmp_path / "weak", 1)
    tables = quixo.Tables(tables_dir)
    expected = set()
    for game in quixo.pgn.read_games(pgn.read_text()):
        if game.x != "attacker":
            continue
        board = game.board()
        for index, move in enumerate(game.moves):
            value, plies = tables.probe(board) if index % 2 == 0 else ("", 0)
            if (board.to_array() == 0).sum() == 1 and value == "win" and 1 <= plies <= 159:
                expected.add((game.start_position, tuple(board.move_stack)))
            board.push(move.move)
    misses = tmp_path / "misses.txt"
    run = move_choice(tables_dir, "--blanks", "1", "--min", "1", "--nodes", "1", "--games",
                      str(pgn), str(pgn), "--misses", str(misses))
    assert run.returncode == 0, run.stderr
    kept, total, draws, losses = map(int, re.search(
        r"1-blank wins of 1-159 plies in the games of \S+ \S+, nodes 1: the win kept by (\d+) of "
        r"(\d+) moves \(draws (\d+), losses (\d+)\)", run.stdout).groups())
    assert total == len(expected) > 0 and kept + draws + losses == total
    lines = misses.read_text().splitlines()
    assert len(lines) == draws + losses
    for line in lines:
        position, played, _ = line.split("\t")
        start, _, moves = position.partition(" moves ")
        board = quixo.Board(start)
        for move in moves.split():
            board.push(move)
        assert (start, tuple(board.move_stack)) in expected
        move, value = played.split()
        assert tables.probe_moves(board)[move][0] == value != "win"


def conversion_run(tables_dir, out, nodes, concurrency=1, count=6, tables_below=False):
    run = subprocess.run(["bash", script_path("tb-conversion.sh"), "--tables", tables_dir,
                          "--blanks", "1", "--min", "3", "--count", str(count), "--seed", "3",
                          "--tc", "nodes=%d" % nodes, "--bin-dir", bin_dir(), "--out", str(out),
                          "--concurrency", str(concurrency)]
                         + (["--tables-below"] if tables_below else []),
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    converted, games = map(int, re.search(r"converted (\d+) of (\d+)", run.stdout).groups())
    return converted, games, out / ("conversion-%s.pgn" % ("below" if tables_below else "search"))


def attacker_moves_without_blanks(pgn, tables):
    """The attacker's moves from won positions without a blank cube (layer 0) in these games:
    how many kept the win and how many gave it away, by the tables."""
    module = compare_module()
    records = [record for game in quixo.pgn.read_games(pgn.read_text()) if game.x == "attacker"
               for record in module.moves_while_won(game, "attacker", tables)
               if record.blanks == 0]
    kept = sum(record.kept for record in records)
    return kept, len(records) - kept


def test_tb_conversion_gives_the_engine_under_test_the_tables_below_the_start_layer(tables_dir,
                                                                                  tmp_path):
    # One-blank wins at one node a move: with --tables-below the engine under test has layer 0,
    # linked into a folder of the run's own, and gives no win away once a fill brings the game
    # there; without it, the same search does give one away there.
    tables = quixo.Tables(tables_dir)
    _, games, pgn = conversion_run(tables_dir, tmp_path / "below", 1, count=12, tables_below=True)
    assert games == 12
    assert sorted(os.listdir(tmp_path / "below" / "tables-below-b1")) == ["quixo-b0.qtb",
                                                                         "quixo-b0.qtbw"]
    kept, given = attacker_moves_without_blanks(pgn, tables)
    assert kept > 0 and given == 0
    _, _, pgn = conversion_run(tables_dir, tmp_path / "search", 1, count=12)
    assert attacker_moves_without_blanks(pgn, tables)[1] > 0


@pytest.mark.parametrize("arguments,message", [
    (["--tables-below", "--winner-tables"], "exclude each other"),
    (["--tables-below", "--blanks", "0"], "needs --blanks 1 or more"),
    (["--tables-below", "--blanks", "2"], "quixo-b1.qtb is missing"),
])
def test_tb_conversion_refuses_tables_below_it_cannot_give(tables_dir, tmp_path, arguments,
                                                           message):
    # The test tables' folder with layer 1 left out: layer 2's run cannot have the layers below.
    partial = layer_zero_alone(tables_dir, tmp_path / "partial")
    run = subprocess.run(["bash", script_path("tb-conversion.sh"), "--tables", str(partial),
                          "--bin-dir", bin_dir(), "--out", str(tmp_path / "out")] + arguments,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert message in run.stderr


def compare(*arguments):
    return subprocess.run(["/usr/bin/python3", script_path("tb-conversion-compare.py")]
                          + [str(argument) for argument in arguments],
                          capture_output=True, text=True, timeout=60)


def rows_of_one_run(pgn, *options):
    """What the compare script prints of a run (compared with itself) before the second."""
    run = compare(pgn, pgn, *options)
    assert run.returncode == 0, run.stderr
    return run.stdout.split("after:")[0]


def compare_module():
    """The compare script as a module, for its slip_move() and moves_while_won()."""
    spec = importlib.util.spec_from_file_location("compare", script_path("tb-conversion-compare.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_tb_conversion_compare_pairs_two_runs_and_finds_the_move_that_gave_the_win_away(
        tables_dir, tmp_path):
    # One node a move gives most wins away; 20,000 keep more. At fixed nodes a run repeats
    # itself, with two games at once too.
    weak = conversion_run(tables_dir, tmp_path / "weak", 1)
    strong = conversion_run(tables_dir, tmp_path / "strong", 20000)
    again = conversion_run(tables_dir, tmp_path / "again", 20000, concurrency=2)
    assert weak[1] == strong[1] == 6 and weak[0] < strong[0]
    run = compare(weak[2], strong[2])
    assert run.returncode == 0, run.stderr
    assert "before: converted %d of 6" % weak[0] in run.stdout
    assert "after: converted %d of 6" % strong[0] in run.stdout
    both, only_before, only_after, neither = map(int, re.search(
        r"paired on 6 positions: both (\d+), only before (\d+), only after (\d+), neither (\d+)",
        run.stdout).groups())
    assert both + only_before == weak[0] and both + only_after == strong[0]
    assert both + only_before + only_after + neither == 6
    # The same pairs split by the start position's blank off the border (counted here from
    # the grid, not by the script): the rows cover every position and add up to the totals.
    starts = {game.start_position for game in quixo.pgn.read_games(weak[2].read_text())
              if game.x == "attacker"}
    inside = collections.Counter(blanks_off_the_border(start) for start in starts)
    split = [tuple(map(int, row)) for row in re.findall(
        r"    (\d) off the border: (\d+) positions, before (\d+), after (\d+) \(only before "
        r"(\d+), only after (\d+)\)", run.stdout)]
    assert {row[0]: row[1] for row in split} == dict(inside)
    assert sum(row[2] for row in split) == weak[0] and sum(row[3] for row in split) == strong[0]
    assert (sum(row[4] for row in split), sum(row[5] for row in split)) == (only_before,
                                                                            only_after)
    repeated = compare(strong[2], again[2])
    assert "only before 0, only after 0" in repeated.stdout
    # The move it names, checked against the tables: the first of the attacker's moves after
    # which the defender is no longer lost (or the game is over without the attacker's line).
    module = compare_module()
    tables = quixo.Tables(tables_dir)
    checked = 0
    for game in quixo.pgn.read_games(weak[2].read_text()):
        if game.x != "attacker" or game.result == "1-0":
            continue
        board, expected = game.board(), None
        for index, move in enumerate(game.moves):
            board.push(move.move)
            if index % 2 == 0 and (board.is_game_over() or tables.probe(board)[0] != "loss"):
                expected = index // 2 + 1
                break
        assert module.slip_move(game, "attacker") == expected
        checked += 1
    assert checked == 6 - weak[0]


def test_tb_conversion_compare_counts_every_move_by_distance_and_blanks(tables_dir, tmp_path):
    # One node a move: wins are given away. Each run's rows by distance and by blank cubes count
    # the same moves, and the wins given away there are the games' slips, one each.
    converted, games, pgn = conversion_run(tables_dir, tmp_path / "weak", 1)
    before = rows_of_one_run(pgn, "--tables", tables_dir)
    rows = re.findall(r"    (\d+)-\d+ plies to the win: (\d+) moves, (\d+) gave the win away",
                      before)
    blank_rows = re.findall(r"    (\d) blanks?: (\d+) moves, (\d+) gave the win away", before)
    assert rows and blank_rows
    moves = sum(int(count) for _, count, _ in rows)
    given_away = sum(int(away) for _, _, away in rows)
    assert moves == sum(int(count) for _, count, _ in blank_rows) > 0
    assert given_away == sum(int(away) for _, _, away in blank_rows)
    assert {int(blanks) for blanks, _, _ in blank_rows} <= {0, 1}
    assert all(int(low) % 20 == 0 and int(away) <= int(count) for low, count, away in rows)
    # The moves from positions with blanks, split by whether a fill wins there.
    fill_rows = re.findall(r"    with blanks, (a|no) fill wins: (\d+) moves \((\d+) filled a "
                           r"blank\), (\d+) gave the win away", before)
    assert [kind for kind, _, _, _ in fill_rows] == ["a", "no"]
    assert sum(int(count) for _, count, _, _ in fill_rows) == sum(
        int(count) for blanks, count, _ in blank_rows if int(blanks) > 0)
    assert sum(int(away) for _, _, _, away in fill_rows) == sum(
        int(away) for blanks, _, away in blank_rows if int(blanks) > 0)
    assert all(int(filled) <= int(count) for _, count, filled, _ in fill_rows)
    module = compare_module()
    slips = sum(module.slip_move(game, "attacker") is not None
                for game in quixo.pgn.read_games(pgn.read_text())
                if game.x == "attacker" and game.result != "1-0")
    assert given_away == slips > 0 and games - converted >= slips
    # Whether a fill wins, probed afresh: a move that takes a blank and leaves the defender lost;
    # and whether the move played filled one. The attacker is X and moves first (the sample's
    # positions have X to move).
    tables = quixo.Tables(str(tables_dir))
    checked = 0
    for game in quixo.pgn.read_games(pgn.read_text()):
        if game.x != "attacker":
            continue
        records = module.moves_while_won(game, "attacker", tables)
        board = game.board()
        for index, move in enumerate(game.moves[:2 * len(records)]):
            if index % 2 == 0:
                blanks = module.blank_count(board)
                fill_wins = False
                for candidate in board.legal_moves():
                    child = board.copy()
                    child.push(candidate)
                    if module.blank_count(child) < blanks:
                        fill_wins |= (child.result() == "1-0" if child.is_game_over()
                                      else tables.probe(child)[0] == "loss")
                record = records[index // 2]
                assert (record.blanks, record.fill_wins) == (blanks, fill_wins)
                checked += blanks > 0
            board.push(move.move)
            if index % 2 == 0:
                assert record.filled == (module.blank_count(board) < blanks)
    assert checked > 0
    missing = compare(pgn, pgn, "--tables", tmp_path / "no-tables")
    assert missing.returncode != 0
    assert "no endgame table layer" in missing.stderr and "Traceback" not in missing.stderr


def test_tb_conversion_compare_counts_moves_by_the_plies_to_a_winning_fill(tables_dir, tmp_path):
    # Layer 0 generated to count to its exit (5 s; layer 1 would take 20): with no layer below,
    # its exits are the ends of games, so each of its moves' plies to a winning fill is its
    # distance to the win, while the moves of other layers get none.
    exit_dir = tmp_path / "exit"
    quixo_tb("generate", "--blanks", "0", "--dir", str(exit_dir), "--distance-to", "exit")
    exit_tables = quixo.Tables(str(exit_dir))
    assert exit_tables.exit_layers == [0] and quixo.Tables(tables_dir).exit_layers == []
    _, _, pgn = conversion_run(tables_dir, tmp_path / "weak", 1)
    before = rows_of_one_run(pgn, "--tables", tables_dir, "--exit-tables", exit_dir)
    fill_rows = re.findall(r"    (\d+)-\d+ plies to a winning fill: (\d+) moves, (\d+) gave",
                           before)
    layer0 = re.search(r"    0 blanks: (\d+) moves, (\d+) gave", before)
    assert fill_rows and layer0
    assert sum(int(count) for _, count, _ in fill_rows) == int(layer0.group(1))
    assert sum(int(away) for _, _, away in fill_rows) == int(layer0.group(2))
    module = compare_module()
    tables = quixo.Tables(tables_dir)
    counted = 0
    # The progress row (every distance counted with --far-from-fill 0): the moves that kept the
    # win and the layer, by the games' outcome, and the plies each put the fill off, from the
    # defender's distance after it (the attacker is X and moves first).
    put_off = {True: [], False: []}
    for game in quixo.pgn.read_games(pgn.read_text()):
        if game.x != "attacker":
            continue
        board = game.board()
        records = module.moves_while_won(game, "attacker", tables, exit_tables)
        for index, move in enumerate(game.moves[:2 * len(records)]):
            board.push(move.move)
            if index % 2:
                continue
            record = records[index // 2]
            assert record.to_fill == (record.distance if record.blanks == 0 else None)
            counted += record.to_fill is not None
            if record.to_fill is None or not record.kept or board.is_game_over():
                assert record.put_off is None
            else:
                assert record.put_off == exit_tables.probe(board)[1] + 1 - record.to_fill >= 0
                put_off[game.result == "1-0"].append(record.put_off)
    assert counted == int(layer0.group(1)) > 0
    assert put_off[True] or put_off[False]
    progress = rows_of_one_run(pgn, "--tables", tables_dir, "--exit-tables", exit_dir,
                               "--far-from-fill", "0")
    for label, converted in (("converted", True), ("not converted", False)):
        plies = put_off[converted]
        expected = "in games %s %d, %.0f %% among the fastest toward it, a mean %.1f plies" % (
            label, len(plies), 100.0 * plies.count(0) / max(len(plies), 1),
            sum(plies) / max(len(plies), 1))
        assert expected in progress, progress
    assert "layer 20+ plies from a winning fill" in before
    for extra, message in ((["--tables", tables_dir, "--exit-tables", tables_dir],
                            "counts plies to its exit"),
                           (["--exit-tables", exit_dir], "--exit-tables needs --tables"),
                           (["--tables", tables_dir, "--exit-tables", exit_dir,
                             "--far-from-fill", "-1"], "--far-from-fill must be 0 or more")):
        refused = compare(pgn, pgn, *extra)
        assert refused.returncode != 0
        assert message in refused.stderr and "Traceback" not in refused.stderr


@pytest.mark.parametrize("second, message", [
    ("missing.pgn", "cannot read"),
    ("not-a-pgn.txt", "is not a PGN file of the arena"),
    ("empty.pgn", "holds no game in which 'attacker' has the won side"),
])
def test_tb_conversion_compare_refuses_what_it_cannot_read(tables_dir, tmp_path, second, message):
    _, _, pgn = conversion_run(tables_dir, tmp_path / "run", 1)
    (tmp_path / "not-a-pgn.txt").write_text("converted 1 of 6\n")
    (tmp_path / "empty.pgn").write_text("")
    run = compare(pgn, tmp_path / second)
    assert run.returncode != 0
    assert message in run.stderr and "Traceback" not in run.stderr
