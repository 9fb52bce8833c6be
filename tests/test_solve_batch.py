"""Batches of positions: scopone deal --count, scopone solve-batch (order, bad lines, resume, workers)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from scopone.cli import main
from scopone.formats import position_from_dict
from scopone.solver import solve
from scopone.solver.batch import solve_batch
from scopone.solver.reference import minimax


def _inputs(tmp_path):
    src = tmp_path / "positions.jsonl"
    r = CliRunner().invoke(main, ["deal", "--count", "6", "--seed", "4", "--cards-per-hand", "2", "-o", str(src)])
    assert r.exit_code == 0, r.output
    rows = src.read_text().splitlines()
    rows.insert(3, "not a position")
    rows.insert(5, "")  # blank lines are skipped, line numbers still count them
    src.write_text("\n".join(rows) + "\n")
    return src


def _values(path):
    return [(r["line"], r.get("value"), "error" in r) for r in map(json.loads, path.read_text().splitlines())]


def test_results_are_in_input_order_and_exact(tmp_path):
    src = _inputs(tmp_path)
    out = tmp_path / "values.jsonl"
    written, bad = solve_batch(src, out, mode="all")
    assert (written, bad) == (7, 1)
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["line"] for r in rows] == [1, 2, 3, 4, 5, 7, 8]
    assert rows[3]["line"] == 4 and "not a position" in rows[3]["error"]
    positions = [json.loads(x) for x in src.read_text().splitlines() if x.startswith("{")]
    for r, p in zip([r for r in rows if "error" not in r], positions):
        pos = position_from_dict(p["position"])
        assert r["id"] == p["id"] and r["value"] == minimax(pos)
        assert {m["move"]: m["value"] for m in r["moves"]} == {
            m.move.text(): m.value for m in solve(pos, "all").moves}


def test_resume_and_workers_give_the_same_file(tmp_path):
    src = _inputs(tmp_path)
    whole, resumed, pooled = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    solve_batch(src, whole)
    lines = whole.read_text().splitlines(keepends=True)
    resumed.write_text("".join(lines[:3]) + lines[3][:25])  # killed while writing line 4
    written, _ = solve_batch(src, resumed)
    assert written == 4
    solve_batch(src, pooled, workers=2)
    assert _values(resumed) == _values(whole) == _values(pooled)


def test_solve_batch_command(tmp_path):
    src = _inputs(tmp_path)
    out = tmp_path / "v.jsonl"
    r = CliRunner().invoke(main, ["solve-batch", str(src), "-o", str(out), "--workers", "1"])
    assert r.exit_code == 1  # one bad line, reported with its number; the rest solved
    assert "line 4: not a position" in r.stderr and "wrote 7 results" in r.stderr
    r = CliRunner().invoke(main, ["solve-batch", str(tmp_path / "missing.jsonl"), "-o", str(out)])
    assert r.exit_code == 2 and "no such file" in r.output


def test_a_dask_cluster_gives_the_same_results(tmp_path):
    from distributed import LocalCluster

    src = _inputs(tmp_path)
    local, remote = tmp_path / "local.jsonl", tmp_path / "dask.jsonl"
    solve_batch(src, local, workers=2)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        written, bad = solve_batch(src, remote, scheduler=cluster.scheduler_address)
    assert (written, bad) == (7, 1)
    assert _values(remote) == _values(local)


def test_an_unreachable_scheduler_is_one_line(tmp_path):
    src = _inputs(tmp_path)
    r = CliRunner().invoke(main, ["solve-batch", str(src), "-o", str(tmp_path / "v.jsonl"),
                                  "--scheduler", "tcp://127.0.0.1:9"])
    assert r.exit_code == 2 and "cannot reach the Dask scheduler" in r.output


def test_matches_and_puzzles_run_on_a_dask_cluster_too(tmp_path):
    from distributed import LocalCluster

    from scopone.players.match import run_match
    from scopone.puzzles import generate

    local = run_match("greedy", "heuristic", 3, seed=2)
    one = generate(tmp_path / "one.json", 2, seed=5, cards=(3, 3))
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        remote = run_match("greedy", "heuristic", 3, seed=2, scheduler=cluster.scheduler_address)
        two = generate(tmp_path / "two.json", 2, seed=5, cards=(3, 3), scheduler=cluster.scheduler_address)
    assert [r["diff"] for r in remote.results] == [r["diff"] for r in local.results]
    assert [p["id"] for p in two["puzzles"]] == [p["id"] for p in one["puzzles"]]


def test_solve_batch_memory_bounds_each_table(tmp_path):
    src = tmp_path / "six.jsonl"
    r = CliRunner().invoke(main, ["deal", "--count", "2", "--seed", "5", "--cards-per-hand", "6", "-o", str(src)])
    assert r.exit_code == 0, r.output
    small, default = tmp_path / "small.jsonl", tmp_path / "default.jsonl"
    r = CliRunner().invoke(main, ["solve-batch", str(src), "-o", str(small), "--workers", "1", "--engine", "c",
                                  "--memory", "1"])
    assert r.exit_code == 0, r.output
    solve_batch(src, default, engine="c")
    a, b = ([json.loads(x) for x in p.read_text().splitlines()] for p in (small, default))
    assert [x["value"] for x in a] == [x["value"] for x in b]
    # a 6-card table grows past its first 1 MB by itself (to 2 MB); the bound stops it at 1
    assert all(0 < x["stats"]["tt_memory_bytes"] <= 1 << 20 for x in a)
    assert max(x["stats"]["tt_memory_bytes"] for x in b) > 1 << 20
