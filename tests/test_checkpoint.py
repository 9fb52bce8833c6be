"""Checkpoints of a solve: proven bounds kept in a file, and a later run starting from them."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from scopone.cli import main
from scopone.deal import deal
from scopone.errors import FormatError
from scopone.formats import load_position
from scopone.solver import INF, Proven, make_backends, solve
from scopone.rules import PRESETS, parse_rules
from scopone.solver.checkpoint import FORMAT, TABLE_FILE_MAX, Checkpoint, load_checkpoint
from scopone.solver.core import CoreBackend
from scopone.solver.driver import solve_with

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"


def reference_values(pos):
    """Every root move's value by the pure-Python reference (independent of the core)."""
    r = solve(pos, "all", engine="python", line=False)
    return r.value, {m.move: m.value for m in r.moves}


def team_b_to_move(seed):
    pos = deal(seed=seed, cards_per_hand=3)
    pos.push(pos.legal_moves()[0])
    assert pos.to_move & 1 == 1
    return pos


@pytest.mark.parametrize("pos", [deal(seed=3, cards_per_hand=3), team_b_to_move(4)], ids=["A to move", "B to move"])
def test_start_bounds_are_trusted_and_the_values_stay_exact(pos):
    value, moves = reference_values(pos)
    fresh = solve(pos, "all", engine="c", line=False, threads=1)
    # true bounds, loose and tight, for the root and some moves: the same values
    some = dict(list(moves.items())[:2])
    optimal = {m for m, v in moves.items() if v == value}
    for start in (Proven(value - 3, value + 2), Proven(value, value),
                  Proven(moves={m: (v - 1, v + 1) for m, v in some.items()}),
                  Proven(moves={m: (v, v) for m, v in some.items()}),
                  Proven(moves={m: (v, INF) if pos.to_move % 2 == 0 else (-INF, v) for m, v in moves.items()})):
        for mode in ("best", "optimal", "all"):
            r = solve(pos, mode, engine="c", line=False, threads=1, start=start)
            assert r.complete and r.value == value, (start, mode)
            assert all(mv.value == moves[mv.move] for mv in r.moves)
            if mode == "optimal":
                assert {mv.move for mv in r.moves} == optimal
    # every move already exact: no mode searches
    exact = Proven(moves={m: (v, v) for m, v in moves.items()})
    r = solve(pos, "all", engine="c", line=False, threads=1, start=exact)
    assert r.value == value and r.stats["nodes"] == 0 < fresh.stats["nodes"]
    r = solve(pos, "optimal", engine="c", line=False, threads=1, start=exact)
    assert r.value == value and r.stats["nodes"] == 0
    assert {mv.move for mv in r.moves} == {m for m, v in moves.items() if v == value}


@pytest.mark.parametrize("threads", [1, 2])
def test_a_root_move_proven_before_settles_mode_best_without_a_search(threads):
    # a 9-card solve finished from a checkpoint that proved the value and one move: the threads
    # tested the other moves first (each as long as the solve) instead of taking that one
    pos = deal(seed=7, cards_per_hand=3)
    value, moves = reference_values(pos)
    best = [m for m in pos.legal_moves() if moves[m] == value][-1]
    assert best != pos.legal_moves()[0]
    r = solve(pos, "best", engine="c", line=False, threads=threads, start=Proven(value, value, {best: (value, value)}))
    assert r.complete and [(mv.move, mv.value) for mv in r.moves] == [(best, value)]
    assert r.stats["nodes"] == 0


def test_on_proven_reports_what_is_proven_with_the_nodes():
    pos = deal(seed=5, cards_per_hand=3)
    value, moves = reference_values(pos)
    kept: list[Proven] = []
    r = solve(pos, "all", engine="c", line=False, threads=1, on_proven=kept.append)
    last = kept[-1]
    assert (last.lower, last.upper) == (value, value)
    assert {m: b for m, b in last.moves.items()} == {m: (v, v) for m, v in moves.items()}
    assert last.nodes == r.stats["nodes"] > 0


def test_an_interrupted_solve_resumes_from_its_checkpoint(tmp_path):
    # a 6-card endgame stopped after a moment, then resumed with ever longer time limits
    # until done (a run too short to finish one test proves nothing): the values of a
    # solve in one go (the core's; the core agrees with the reference elsewhere)
    pos = load_position(EX / "endgame-6.json")
    path = tmp_path / "ck.json"
    whole = solve(pos, "all", engine="c", line=False, threads=1)
    exact = {m.move: m.value for m in whole.moves}
    runs, before = 0, Proven()
    while True:
        ck = Checkpoint(path, pos)
        backend, helpers = make_backends(pos, "c", time_limit=0.02 * 1.5 ** runs)
        r = solve_with(backend, pos, "all", line=False, start=ck.start, on_proven=ck.keep)
        runs += 1
        saved, work = load_checkpoint(path, pos)
        assert saved.lower <= whole.value <= saved.upper
        assert all(lo <= exact[m] <= up for m, (lo, up) in saved.moves.items())
        # nothing proven before is lost
        assert saved.lower >= before.lower and saved.upper <= before.upper
        assert all(saved.moves[m][0] >= lo and saved.moves[m][1] <= up for m, (lo, up) in before.moves.items())
        assert work["runs"] == runs
        before = saved
        if r.complete:
            break
    assert runs > 1, "the time limit should have stopped the first run"
    assert r.value == whole.value and {m.move: m.value for m in r.moves} == exact
    assert (saved.lower, saved.upper) == (whole.value, whole.value)
    # the last run went on from the others' proofs: it searched less than a whole solve
    assert r.stats["nodes"] < whole.stats["nodes"]


def test_a_checkpoint_that_cannot_be_written_stops_the_search():
    # benchmark 7-card endgame 1: a whole solve in mode best searches 68.5 M nodes
    # (benchmarks/solve.py --min-n 7 --max-n 7 --count 1 --per-position), several
    # seconds on any machine here; the first write comes half a second in
    pos = deal(seed=1, cards_per_hand=7)

    def fail(proven):
        raise OSError("disk full")

    backend, helpers = make_backends(pos, "c")
    with pytest.raises(OSError, match="disk full"):
        solve_with(backend, pos, "best", line=False, on_proven=fail)
    # stopped at the first write, long before the end (without the stop: all 68.5 M)
    assert backend.stats()["nodes"] < 20_000_000


def test_a_finished_position_is_solved_with_a_checkpoint(tmp_path):
    pos = deal(seed=1, cards_per_hand=1)
    while not pos.is_over():
        pos.push(pos.legal_moves()[0])
    ck = Checkpoint(tmp_path / "ck.json", pos)
    r = solve(pos, "all", engine="c", start=ck.start, on_proven=ck.keep)
    assert r.value == pos.score().value and load_checkpoint(tmp_path / "ck.json", pos)[0].lower == r.value


def run_cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_cli_checkpoint_round_trip(tmp_path):
    path = tmp_path / "ck.json"
    first = run_cli("solve", EX / "endgame-4.json", "--mode", "best", "--checkpoint", path, "--json")
    assert first.exit_code == 0, first.output
    d = json.loads(path.read_text())
    assert d["format"] == FORMAT and d["lower"] == d["upper"] == json.loads(first.stdout)["value"]
    assert d["runs"] == 1 and d["nodes"] > 0
    again = run_cli("solve", EX / "endgame-4.json", "--mode", "best", "--checkpoint", path, "--json")
    assert again.exit_code == 0 and "resuming from" in again.stderr
    assert json.loads(again.stdout)["value"] == d["lower"]
    assert json.loads(path.read_text())["runs"] == 2
    # the value was known: only a best move was searched for (one thread: reproducible)
    assert json.loads(again.stdout)["stats"]["nodes"] < json.loads(first.stdout)["stats"]["nodes"]


@pytest.mark.parametrize("edit, message", [
    (lambda d: d.update(position=d["position"].replace("scientifico", "classico")), "position: the checkpoint is of another"),
    (lambda d: d.update(format="x"), "format: expected"),
    (lambda d: d.update(lower=3, upper=1), "lower bound 3 above upper bound 1"),
    (lambda d: d.update(lower="3"), "lower/upper lower: expected an integer"),
    (lambda d: d.update(moves={"9Z": [0, 1]}), "moves: '9Z' is not a legal move"),
    (lambda d: d.update(moves=[1]), "moves: expected an object"),
    (lambda d: d.update(nodes=-1), "nodes: expected a number"),
    (lambda d: d.update(seconds=10 ** 400), "seconds: expected a number"),
    (lambda d: d.update(seconds=float("nan")), "seconds: expected a number"),
    (lambda d: d.update(moves={"6Bx6C": [d["lower"] + 5, d["lower"] + 5]}), "which contradicts lower/upper"),
])
def test_cli_refuses_a_bad_checkpoint_in_one_line(tmp_path, edit, message):
    path = tmp_path / "ck.json"
    assert run_cli("solve", EX / "endgame-4.json", "--mode", "best", "--checkpoint", path).exit_code == 0
    d = json.loads(path.read_text())
    edit(d)
    path.write_text(json.dumps(d))
    before = path.read_text()
    r = run_cli("solve", EX / "endgame-4.json", "--mode", "best", "--checkpoint", path)
    assert r.exit_code == 2, r.output
    err = r.stderr.strip()
    assert len(err.splitlines()) == 1 and err.startswith("Error: ") and str(path) in err and message in err, err
    assert path.read_text() == before  # left as it was
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ck.json", "ck.json.table"]  # no temporary left


def test_cli_checkpoint_errors_before_searching(tmp_path):
    r = run_cli("solve", EX / "endgame-4.json", "--checkpoint", tmp_path / "missing" / "ck.json")
    assert r.exit_code == 2 and "does not exist" in r.stderr and "value" not in r.stdout
    path = tmp_path / "notjson.json"
    path.write_text("{")
    r = run_cli("solve", EX / "endgame-4.json", "--checkpoint", path)
    assert r.exit_code == 2 and "not valid JSON" in r.stderr


def test_load_checkpoint_keeps_infinite_bounds_as_null(tmp_path):
    pos = deal(seed=1, cards_per_hand=2)
    path = tmp_path / "ck.json"
    Checkpoint(path, pos)
    d = json.loads(path.read_text())
    assert d["lower"] is None and d["upper"] is None and d["moves"] == {}
    proven, work = load_checkpoint(path, pos)
    assert (proven.lower, proven.upper, work["runs"]) == (-INF, INF, 0)  # no run counted before a solve
    with pytest.raises(FormatError, match="position"):
        load_checkpoint(path, deal(seed=2, cards_per_hand=2))


# ---------------------------------------------------------------- the saved table

def records(data: bytes) -> list[bytes]:
    """table_entries' records: key, move, check, data (8 bytes each, the host's order)."""
    assert len(data) % 32 == 0
    return [data[i:i + 32] for i in range(0, len(data), 32)]


def work(record: bytes) -> int:
    # the data word: lo, hi, work (log2 of the subtree's nodes), ... (Entry in solver.h)
    return record[24 + 2]


def test_the_saved_entries_are_those_of_the_biggest_subtrees():
    pos = deal(seed=2, cards_per_hand=5)
    b = CoreBackend(pos.rules)
    b.search(pos, -99, 99)
    every = records(b.table_entries(10 ** 7))
    assert len(every) == b.stats()["tt_entries"] > 300
    k = len(every) // 3
    some = records(b.table_entries(k))
    assert len(some) == k and set(some) <= set(every)
    rest = set(every) - set(some)
    assert min(map(work, some)) >= max(map(work, rest))


def test_a_table_reader_takes_no_share_of_the_tables_memory():
    # the searchers sharing a table report shares that add up to it; the checkpoint's
    # reader (which never searches) has none.  2 MB is a whole number of 32-byte
    # entries, a power of two: the table is exactly 2 MB.
    pos = deal(seed=1, cards_per_hand=3)
    a = CoreBackend(pos.rules)
    reader = a.table_reader(memory_mb=2)
    a.search(pos, -99, 99)
    assert (a.stats()["tt_memory_bytes"], reader.stats()["tt_memory_bytes"]) == (2 << 20, 0)
    assert not a.shares_table()  # no other searcher
    b = CoreBackend(pos.rules)
    b.share_table(a, memory_mb=2)
    assert (a.stats()["tt_memory_bytes"], b.stats()["tt_memory_bytes"]) == (1 << 20, 1 << 20)
    assert a.shares_table() and b.shares_table()
    del reader
    assert a.stats()["tt_memory_bytes"] + b.stats()["tt_memory_bytes"] == 2 << 20


@pytest.mark.parametrize("rules", [PRESETS["scientifico"], parse_rules("scientifico+re_bello+napola+primiera=sum"),
                                   parse_rules("assi+asso_scopa"), PRESETS["classico"]], ids=str)
def test_a_table_read_back_gives_the_reference_values(rules):
    # entries saved from solves of some positions, read into a fresh table, then every
    # root move of those positions and of their children solved again: the pure-Python
    # reference's values (the entries hold bounds for other windows and positions)
    for seed in (1, 2, 3):
        pos = deal(seed=seed, rules=rules, cards_per_hand=3)
        first = CoreBackend(rules)
        solve_with(first, pos, "all", line=False)
        second = CoreBackend(rules)
        assert second.load_table_entries(first.table_entries(10 ** 6)) > 0
        for p in [pos] + [child for child in children(pos)][:3]:
            value, moves = reference_values(p)
            r = solve_with(second, p, "all", line=False)
            assert r.value == value and {m.move: m.value for m in r.moves} == moves, (seed, p.line())


def children(pos):
    for m in pos.legal_moves():
        c = pos.copy()
        c.push(m)
        yield c


def test_a_saved_table_carries_the_proofs_to_the_next_run(tmp_path):
    # a whole solve with a checkpoint, then a run with only its table (the bounds file
    # deleted): the root's entries answer MTD(f)'s tests, so it searches next to nothing
    pos = load_position(EX / "endgame-6.json")
    ck = Checkpoint(tmp_path / "ck.json", pos)
    whole = solve(pos, "best", engine="c", line=False, threads=1, checkpoint=ck)
    assert (tmp_path / "ck.json.table").exists()
    (tmp_path / "ck.json").unlink()
    again = Checkpoint(tmp_path / "ck.json", pos)
    assert again.start == Proven() and again.table_entries > 0
    r = solve(pos, "best", engine="c", line=False, threads=1, checkpoint=again)
    assert r.value == whole.value and r.moves[0].value == whole.value
    assert r.stats["nodes"] * 50 < whole.stats["nodes"]


def test_a_checkpoint_saves_at_most_table_max_entries_the_biggest(tmp_path):
    pos = load_position(EX / "endgame-6.json")
    ck = Checkpoint(tmp_path / "ck.json", pos)
    ck.table_max = 100
    solve(pos, "best", engine="c", line=False, threads=1, checkpoint=ck)
    again = Checkpoint(tmp_path / "ck.json", pos)
    assert again.table_entries == ck.table_saved == 100
    _, data = again.table_data
    # the 100 biggest of the table the whole run saves
    full = Checkpoint(tmp_path / "full.json", pos)
    solve(pos, "best", engine="c", line=False, threads=1, checkpoint=full)
    every = records(Checkpoint(tmp_path / "full.json", pos).table_data[1])
    assert len(every) > 1000
    assert sorted(map(work, records(data)), reverse=True) == sorted(map(work, every), reverse=True)[:100]


def test_a_table_and_bounds_carry_over_to_another_mode_on_two_threads(tmp_path):
    # mode best writes bounds and a table; mode all on two threads (one shared table,
    # read once) goes on from them to every move's value, as a whole solve finds them
    pos = load_position(EX / "endgame-6.json")
    whole = solve(pos, "all", engine="c", line=False, threads=1)
    solve(pos, "best", engine="c", line=False, threads=1, checkpoint=Checkpoint(tmp_path / "ck.json", pos))
    ck = Checkpoint(tmp_path / "ck.json", pos)
    assert ck.table_entries > 0 and ck.start.lower == ck.start.upper == whole.value
    r = solve(pos, "all", engine="c", line=False, threads=2, checkpoint=ck)
    assert r.value == whole.value and {m.move: m.value for m in r.moves} == {m.move: m.value for m in whole.moves}


def test_an_interrupted_solve_resumes_with_its_table(tmp_path):
    # as test_an_interrupted_solve_resumes_from_its_checkpoint, through solve(checkpoint=)
    # on two threads, each run reading the last one's table (if it wrote one: how far a
    # run gets in its time depends on the machine; the values do not)
    pos = load_position(EX / "endgame-6.json")
    whole = solve(pos, "all", engine="c", line=False, threads=1)
    runs = 0
    while True:
        ck = Checkpoint(tmp_path / "ck.json", pos)
        r = solve(pos, "all", engine="c", line=False, threads=2, time_limit=0.05 * 1.5 ** runs, checkpoint=ck)
        runs += 1
        assert ck.table_note is None
        if r.complete:
            break
    assert r.value == whole.value and {m.move: m.value for m in r.moves} == {m.move: m.value for m in whole.moves}


@pytest.mark.parametrize("threads", [1, 2])
def test_the_table_is_saved_while_the_search_runs(tmp_path, threads):
    # saves every 0.05 s from a reader sharing the searched table: several during a
    # 7-card solve cut at 1.5 s (it takes several seconds on any machine here), each
    # a file that reads back
    pos = deal(seed=1, cards_per_hand=7)
    ck = Checkpoint(tmp_path / "ck.json", pos)
    ck.table_every = 0.05
    seen = []

    def progress(p):
        if ck.table_saves and not seen:  # a save made while the search was running
            seen.append(ck.table_saves)

    r = solve(pos, "best", engine="c", line=False, threads=threads, time_limit=1.5, on_progress=progress,
              checkpoint=ck)
    assert not r.complete and seen and ck.table_saves > seen[0] and ck.table_note is None
    assert Checkpoint(tmp_path / "ck.json", pos).table_entries == ck.table_saved > 0


def test_a_table_not_used_is_still_saved_while_the_search_runs(tmp_path):
    # a table of other options is not read, with a note; the saves during the run go on
    pos = deal(seed=1, cards_per_hand=7)
    ck = Checkpoint(tmp_path / "ck.json", pos)
    other = CoreBackend(pos.rules, options="all-ppiles")
    other.search(deal(seed=1, cards_per_hand=4, rules=pos.rules), -99, 99)
    ck.table_data = (other.table_fingerprint(), other.table_entries(100))  # as if read from an old file
    ck.table_every = 0.05
    saves = []
    r = solve(pos, "best", engine="c", line=False, threads=1, time_limit=1.5,
              on_progress=lambda p: saves.append(ck.table_saves), checkpoint=ck)
    assert not r.complete and "not used" in ck.table_note and max(saves) >= 2


def test_asking_for_every_entry_returns_each_once():
    pos = deal(seed=2, cards_per_hand=5)
    b = CoreBackend(pos.rules)
    assert b.table_entries(sys.maxsize) == b""  # no table yet
    b.search(pos, -99, 99)
    every = records(b.table_entries(sys.maxsize))
    assert len(every) == len(set(every)) == b.stats()["tt_entries"]


def test_a_small_table_keeps_the_biggest_subtrees_of_each_bucket():
    # every entry of a big table read into a 1 MB one (it cannot grow): each bucket (two
    # slots, by the key's low bits) keeps two of the biggest subtrees that map to it
    pos = deal(seed=1, cards_per_hand=6)
    big = CoreBackend(pos.rules, memory_mb=256)
    big.search(pos, -99, 99)
    every = records(big.table_entries(sys.maxsize))
    small = CoreBackend(pos.rules, memory_mb=1)
    small.load_table_entries(b"".join(every))
    slots = small.stats()["tt_memory_bytes"] // 32
    bucket = lambda rec: int.from_bytes(rec[:8], sys.byteorder) & (slots - 1) & ~1
    want: dict[int, list[int]] = {}
    for rec in every:
        want.setdefault(bucket(rec), []).append(work(rec))
    # most of the slots // 2 buckets get more than two entries, so most must choose
    assert sum(len(w) > 2 for w in want.values()) > slots // 4
    kept = records(small.table_entries(sys.maxsize))
    got: dict[int, list[int]] = {}
    for rec in kept:
        got.setdefault(bucket(rec), []).append(work(rec))
    assert set(kept) <= set(every) and got.keys() == want.keys()
    assert all(sorted(got[k]) == sorted(want[k])[-2:] for k in want)
    # in slot order (the dump's), the bigger first: the search replaces slot 1 first
    assert all(w == sorted(w, reverse=True) for w in got.values())


def test_a_table_of_the_deep_table_option_reads_back_right():
    # with deeptt the last eight cards have a table of their own, which is not saved
    rules = PRESETS["scientifico"]
    for seed in (1, 2):
        pos = deal(seed=seed, rules=rules, cards_per_hand=3)
        first = CoreBackend(rules, options="all+deeptt")
        solve_with(first, pos, "all", line=False)
        second = CoreBackend(rules, options="all+deeptt")
        assert second.load_table_entries(first.table_entries(10 ** 6)) > 0
        value, moves = reference_values(pos)
        r = solve_with(second, pos, "all", line=False)
        assert r.value == value and {m.move: m.value for m in r.moves} == moves


def test_a_checkpoint_or_start_not_both(tmp_path):
    pos = deal(seed=1, cards_per_hand=2)
    with pytest.raises(ValueError, match="not both"):
        solve(pos, "best", engine="c", start=Proven(), checkpoint=Checkpoint(tmp_path / "ck.json", pos))


def test_a_table_that_cannot_be_written_leaves_the_result(tmp_path):
    pos = load_position(EX / "endgame-6.json")
    (tmp_path / "ck.json.table").mkdir()  # not a file: refused as an output
    with pytest.raises(FormatError, match="not a regular file"):
        Checkpoint(tmp_path / "ck.json", pos)
    ck = Checkpoint(tmp_path / "other.json", pos)
    ck.table_path = tmp_path / "gone" / "x.table"  # its folder removed since
    r = solve(pos, "best", engine="c", line=False, threads=1, checkpoint=ck)
    assert r.complete and "the table was not saved" in ck.table_note and ck.table_saved == 0
    assert load_checkpoint(tmp_path / "other.json", pos)[0].lower == r.value


def test_a_table_of_other_options_is_not_used(tmp_path):
    pos = deal(seed=1, cards_per_hand=4)
    ck = Checkpoint(tmp_path / "ck.json", pos)
    solve(pos, "best", engine="c", line=False, threads=1, checkpoint=ck)
    again = Checkpoint(tmp_path / "ck.json", pos)
    other = CoreBackend(pos.rules, options="all-ppiles")  # entries keyed on another pile summary
    assert again.warm([other]) == 0 and "another build of the core, rules encoding or options" in again.table_note
    assert other.stats()["tt_entries"] == 0
    # the rules the core is given are part of it too (a position line names its rules,
    # but the capture patterns come from scopone.captures)
    assert CoreBackend(parse_rules("scientifico+napola")).table_fingerprint() != CoreBackend(pos.rules).table_fingerprint()
    same = Checkpoint(tmp_path / "ck.json", pos)
    assert same.warm([CoreBackend(pos.rules)]) == same.table_entries > 0 and same.table_note is None


@pytest.mark.parametrize("edit, message", [
    (lambda b: b"x" + b, "format: expected a first line"),
    (lambda b: b.replace(b"scientifico", b"classico", 1), "position: the table is of another"),
    (lambda b: b[:-32], "entries: the file holds"),
    (lambda b: b[:-1] + bytes([b[-1] ^ 1]), "sha256: the records do not match"),
    (lambda b: b.replace(b'{"position"', b'["position"', 1), "the second line is not a JSON object"),
    (lambda b: b"scopone-table/1\n" + b"[" * 3000 + b"\n", "the second line is not a JSON object"),
    (lambda b: b"scopone-table/1\n" + b" " * 5000, "the second line is not a JSON object"),
    (None, "a table file holds at most"),  # grown (sparse) past TABLE_FILE_MAX
])
def test_cli_refuses_a_bad_table_in_one_line(tmp_path, edit, message):
    path = tmp_path / "ck.json"
    assert run_cli("solve", EX / "endgame-6.json", "--mode", "best", "--checkpoint", path).exit_code == 0
    table = tmp_path / "ck.json.table"
    if edit is None:
        os.truncate(table, TABLE_FILE_MAX + 1)
    else:
        table.write_bytes(edit(table.read_bytes()))

    def state():  # the files as they are: neither rewritten nor replaced
        st = table.stat()
        return st.st_ino, st.st_size, st.st_mtime_ns, table.read_bytes() if edit else None, path.read_text()

    before = state()
    r = run_cli("solve", EX / "endgame-6.json", "--mode", "best", "--checkpoint", path)
    assert r.exit_code == 2, r.output
    err = r.stderr.strip()
    assert len(err.splitlines()) == 1 and err.startswith("Error: ") and str(table) in err and message in err, err
    assert state() == before
