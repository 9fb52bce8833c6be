"""benchmarks/mtd.py: MTD(f)'s tests logged, alone, and with the first guess moved."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from scopone.solver import solve

ROOT = Path(__file__).resolve().parent.parent


def _mtd():
    sys.path.insert(0, str(ROOT / "benchmarks"))  # mtd.py imports endgames.py beside it
    try:
        spec = importlib.util.spec_from_file_location("bench_mtd", ROOT / "benchmarks" / "mtd.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    return mod


def test_the_logged_tests_bracket_the_reference_value_whatever_the_first_guess():
    mod = _mtd()
    for seed, pos in mod.load(4)[:3]:
        value = solve(pos, mode="best", engine="python", line=False).value  # the pure-Python reference
        for shift, guess in ((-2, "net"), (0, "net"), (3, "net"), (0, "score"), (1, "score")):
            got, tests, nodes = mod.driver_tests(pos, shift, guess)
            assert got == value
            # each answer is a fail-soft bound on the value: >= gamma proves value >= answer, else value <= answer
            for gamma, answer, n, vain in tests:
                assert (value >= gamma) == (answer >= gamma)
                assert answer <= value if answer >= gamma else answer >= value
                assert 0 <= vain <= n  # a test's nodes in vain are some of its nodes
            assert tests[0][0] == mod.driver._guess(pos, guess) + shift  # the first test is at the moved guess
            assert sum(n for _, _, n, _ in tests) == nodes > 0
        for off in (-1, 0, 1, 2):
            answer, nodes = mod.fresh_test(pos, value + off)
            assert (answer >= value + off) == (off <= 0) and nodes > 0


def test_main_prints_each_endgame_and_the_shift_table(capsys):
    mod = _mtd()
    assert mod.main(["--n", "4", "--seeds", "1,2", "--offsets=0,1", "--shifts=0,-1"]) == 0
    out = capsys.readouterr().out
    assert out.count("endgame ") == 2 and out.count("alone: +0: ") == 2
    rows = out.split("guess shift")[1].splitlines()[1:]
    assert [r.split()[0] for r in rows] == ["+0", "-1"]
    # the shift-0 total is the two endgames' logged totals
    totals = [mod.driver_tests(p)[2] for s, p in mod.load(4) if s in (1, 2)]
    assert rows[0].split()[1] == f"{sum(totals):,}"


def test_endgames_beyond_the_stored_ones_are_dealt_as_the_stored_ones_are(capsys):
    mod = _mtd()
    from scopone.deal import deal

    assert mod.seeds_arg("2,21-22") == [2, 21, 22]
    got = mod.endgames(4, [2, 21])
    assert [s for s, _ in got] == [2, 21]
    assert all(p.line() == deal(seed=s, cards_per_hand=4).line() for s, p in got)
    assert mod.main(["--n", "4", "--seeds", "21", "--shifts=0"]) == 0
    value = solve(got[1][1], mode="best", engine="python", line=False).value
    assert f"endgame 21  value {value:3d}" in capsys.readouterr().out
