"""benchmarks/builds.py: builds of the core compared side by side."""

from __future__ import annotations

import importlib.util
import re
import shutil
import statistics
from pathlib import Path

import pytest

from scopone.rules import Rules
from scopone.solver.core import CoreBackend
from scopone.solver.core import _core as core  # the core this interpreter loaded (portable or _core_v2)
from system import needs_system

ROOT = Path(__file__).resolve().parent.parent


def _builds():
    spec = importlib.util.spec_from_file_location("bench_builds", ROOT / "benchmarks" / "builds.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_two_runs_of_one_build_agree_and_each_names_its_own_core(capsys):
    # the directory whose core this interpreter imported is a build; two option sets of it
    # differ in nodes, the same options twice must not (the search is deterministic)
    build = str(Path(core.__file__).resolve().parents[2])
    mod = _builds()
    runs = [mod.run_build(spec, 4, "1,2,3") for spec in (build, build, f"{build}:plain")]
    assert runs[0]["nodes"] == runs[1]["nodes"] > 0
    assert runs[2]["nodes"] != runs[0]["nodes"]  # the options reached the core
    assert runs[0]["values"] == runs[2]["values"]  # and left the values alone
    # each names the module it searched with (the standard module for the default options, where it is built)
    searched = [CoreBackend(Rules(), options=o).module for o in ("all", "all", "plain")]
    assert [Path(r["core"]).resolve() for r in runs] == [Path(m.__file__).resolve() for m in searched]
    assert mod.main([build, build, "--n", "4", "--seeds", "1", "--rounds", "1"]) == 0
    assert "paired ratio" in capsys.readouterr().out
    # every other round runs the builds in reverse order
    assert mod.main([build, f"{build}:plain", "--n", "4", "--seeds", "1", "--rounds", "2", "--per-round"]) == 0
    rounds = [line.split(": ")[0] for line in capsys.readouterr().out.splitlines() if line.startswith("round ")]
    assert rounds == [f"round 1/2  {build}", f"round 1/2  {build}:plain",
                      f"round 2/2  {build}:plain", f"round 2/2  {build}"]
    # --per-endgame pairs each endgame: every build solves it before the next endgame, in
    # alternating order; the table still shows rounds (the nodes of both endgames)
    assert mod.main([build, f"{build}:plain", "--n", "4", "--seeds", "1,2", "--rounds", "1", "--per-endgame",
                     "--mode", "all"]) == 0
    out = capsys.readouterr().out
    runs = [line.split(": ")[0] for line in out.splitlines() if line.startswith("round ")]
    assert runs == [f"round 1/1 endgame 1  {build}", f"round 1/1 endgame 1  {build}:plain",
                    f"round 1/1 endgame 2  {build}:plain", f"round 1/1 endgame 2  {build}"]
    assert "mode all" in out and "paired per endgame" in out
    both = mod.run_build(build, 4, "1,2", mode="all")
    assert f"{both['nodes']:,}" in out.split("paired per endgame")[1].splitlines()[2]
    assert both["nodes"] > mod.run_build(build, 4, "1,2")["nodes"]  # mode all searches more than best


def test_builds_pair_per_endgame_by_default_and_show_the_median_endgame(capsys):
    # without --per-round every build solves an endgame before the next starts; the median
    # endgame column is the median of the times printed per endgame (one round here), and
    # the first build's ratio to itself is 1
    build = str(Path(core.__file__).resolve().parents[2])
    mod = _builds()
    assert mod.main([build, f"{build}:plain", "--n", "4", "--seeds", "1-3", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert "paired per endgame" in out
    times: dict[str, list[float]] = {}
    for line in out.splitlines():
        m = re.match(r"round 1/1 endgame \d+  (\S+): ([\d.]+) s", line)
        if m:
            times.setdefault(m[1], []).append(float(m[2]))
    assert {b: len(t) for b, t in times.items()} == {build: 3, f"{build}:plain": 3}
    table = out.split("paired per endgame")[1].splitlines()
    assert "med. endgame" in table[1]
    for row, b in zip(table[2:4], (build, f"{build}:plain")):
        fields = row.split()
        assert fields[0] == b
        # build, core, isa, min, median, nodes, paired ratio, median endgame, its ratio
        assert fields[7] == f"{statistics.median(times[b]):.2f}"
    assert table[2].split()[8] == "1.000"
    # a build named twice is two builds: each row has its own runs (one per endgame), and the
    # nodes of both endgames as one run of the build finds them
    assert mod.main([build, build, "--n", "4", "--seeds", "1-2", "--rounds", "1"]) == 0
    table = capsys.readouterr().out.split("paired per endgame")[1].splitlines()
    nodes = f"{mod.run_build(build, 4, '1,2')['nodes']:,}"
    for row in table[2:4]:
        fields = row.split()
        assert fields[5] == nodes and len(fields) == 9 + 2  # two ratios: one per endgame


def test_a_directory_without_a_built_core_is_refused(tmp_path):
    with pytest.raises(SystemExit, match=f"builds.py: {tmp_path}: no built core in {tmp_path}"):
        _builds().run_build(str(tmp_path), 4, "1")


def test_a_build_from_before_make_backends_is_timed_through_its_solve(tmp_path):
    # a stand-in for the core before issue 15: a package whose scopone.solver has solve()
    # but no make_backends; its answers (from the line's length) show which endgames it got
    pkg = tmp_path / "scopone"
    (pkg / "solver").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "solver" / "_core.py").write_text("")
    (pkg / "deal.py").write_text("def deal(**kw):\n    raise AssertionError('the endgames are stored')\n")
    (pkg / "position.py").write_text(
        "class Position(str):\n    @classmethod\n    def from_line(cls, line):\n        return cls(line)\n")
    (pkg / "solver" / "__init__.py").write_text(
        "from types import SimpleNamespace\n"
        "def solve(pos, mode, engine, line, threads):\n"
        "    assert (mode, engine, line, threads) == ('best', 'c', False, 1)\n"
        "    return SimpleNamespace(value=len(pos), stats={'nodes': 10 * len(pos)})\n")
    rows = dict(line.split("\t") for line in (ROOT / "benchmarks" / "positions" / "n4.txt").read_text().splitlines()
                if line.strip())
    mod = _builds()
    got = mod.run_build(str(tmp_path), 4, "2,3")
    assert got["values"] == [len(rows["2"]), len(rows["3"])]
    assert got["nodes"] == 10 * (len(rows["2"]) + len(rows["3"]))
    with pytest.raises(SystemExit, match="options are not supported for a build before make_backends"):
        mod.run_build(f"{tmp_path}:all", 4, "2")


def test_seeds_take_ranges_and_endgames_the_benchmark_does_not_store(capsys):
    # --seeds as the other benchmarks take it (1-3, or seeds beyond the stored 20, dealt as
    # those were); the value of a dealt endgame is the pure-Python reference's
    from scopone.deal import deal
    from scopone.solver import solve

    build = str(Path(core.__file__).resolve().parents[2])
    mod = _builds()
    assert mod.main([build, build, "--n", "4", "--seeds", "1-2,21", "--rounds", "1", "--per-endgame"]) == 0
    out = capsys.readouterr().out
    assert [line.split(": ")[0] for line in out.splitlines() if line.startswith("round ")][::2] == \
        [f"round 1/1 endgame {s}  {build}" for s in (1, 2)] + [f"round 1/1 endgame 21  {build}"]
    assert "endgames 1,2,21" in out
    ref = solve(deal(seed=21, cards_per_hand=4), mode="best", engine="python", line=False).value
    assert mod.run_build(build, 4, "21")["values"] == [ref]


@needs_system(shutil.which("valgrind") is not None, "valgrind")
def test_instructions_are_counted_inside_the_search_and_repeat(capsys):
    # the same build counted twice gives nearly the same counts (the allocator and the lock the
    # search releases vary by a few hundred instructions and a few dozen mispredictions: 0.1% of
    # so small a search, far less of a 7-card one), the values of the run without valgrind, and
    # counts of the search alone: a 4-card solve is a few thousand nodes, not the hundreds of
    # millions of instructions the interpreter's start-up takes
    build = str(Path(core.__file__).resolve().parents[2])
    mod = _builds()
    native = mod.run_build(build, 4, "1,2")
    first, second = (mod.run_build(build, 4, "1,2", count=True) for _ in range(2))
    for what, x in first["counts"].items():
        assert abs(x - second["counts"][what]) <= x / 200, what
    assert first["values"] == native["values"]
    c = first["counts"]
    assert 0 < c["mispredicted"] < c["instructions"] and 0 < c["l1_misses"] < c["instructions"]
    assert first["nodes"] * 20 < c["instructions"] < first["nodes"] * 5000
    assert mod.main([build, f"{build}:plain", "--n", "4", "--seeds", "1", "--instructions"]) == 0
    out = capsys.readouterr().out
    assert "counts that repeat" in out and "VALUES DIFFER" not in out
    rows = [line.split() for line in out.split("counts that repeat)")[1].splitlines()[2:]]
    assert [r[0] for r in rows] == [build, f"{build}:plain"] and rows[0][-1] == "1.000"
    assert float(rows[1][-1]) != 1.0  # the plain options run another search


def test_callgrind_totals_are_summed_by_what_they_count(tmp_path):
    f = tmp_path / "callgrind.out"
    f.write_text("version: 1\nevents: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim\n"
                 "fn=ab\n10 5\ntotals: 1000 300 200 7 11 13 1 2 3 150 40 6 2\n")
    assert _builds().callgrind_counts(f) == {"instructions": 1000, "mispredicted": 42, "l1_misses": 24}


def test_instructions_refuse_threads_and_a_machine_without_valgrind(monkeypatch):
    mod = _builds()
    with pytest.raises(SystemExit):
        mod.main([".", ".", "--instructions", "--threads", "2"])
    monkeypatch.setattr(mod.shutil, "which", lambda name: None)
    with pytest.raises(SystemExit, match="--instructions needs valgrind on the PATH"):
        mod.main([".", ".", "--instructions"])


def test_control_times_a_copy_of_the_first_build_and_removes_it(capsys, monkeypatch):
    # --control adds a copy of the first build's package (options kept) in a temporary
    # directory: the child loads the copy's core, which searches the same nodes to the same
    # values, and the copy is gone once the table is printed
    build = str(Path(core.__file__).resolve().parents[2])
    mod = _builds()
    real, seen = mod.run_build, []

    def recording(spec, *a, **k):
        got = real(spec, *a, **k)
        seen.append((spec, got))
        return got

    monkeypatch.setattr(mod, "run_build", recording)
    assert mod.main([f"{build}:plain", "--control", "--n", "4", "--seeds", "1,2", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    specs = {spec for spec, _ in seen}
    assert len(specs) == 2 and f"{build}:plain" in specs
    (copy,) = specs - {f"{build}:plain"}
    copy_dir, _, options = copy.partition(":")
    assert options == "plain" and copy_dir != build
    assert not Path(copy_dir).exists()
    for spec, got in seen:  # each child loaded the core of its own directory
        assert Path(got["core"]).resolve().is_relative_to(Path(spec.partition(":")[0]).resolve())
    table = out.split("paired per endgame")[1].splitlines()
    first, control = table[2].split(), table[3].split()
    assert control[0] == "(control)" and first[0] == f"{build}:plain"
    assert first[5] == control[5]  # the same nodes
    with pytest.raises(SystemExit):
        mod.main([build, "--control", "--instructions"])
    with pytest.raises(SystemExit):
        mod.main([build])
