"""The compiled capture tables against the naive brute-force enumerator."""

from __future__ import annotations

import random

import pytest

import naive
from scopone.captures import capture_table, captures, cpsat_patterns
from scopone.cards import card_text, mask_text, parse_cards
from scopone.rules import PRESETS, Rules

RULE_SETS = {
    **{name: r for name, r in PRESETS.items()},
    "priority_free": Rules(priority="free"),
    "quindici_free": Rules(quindici=True, priority="free"),
    "assi_scopa": Rules(asso_piglia_tutto=True, asso_scopa=True),
    "assi_no_asso_takes_asso": Rules(asso_piglia_tutto=True, asso_takes_asso=False),
}

TABLES_PER_RULES = 10_000
#: Played values checked per random table (all ten on the first tables).
VALUES_PER_TABLE = 3
ALL_VALUES_TABLES = 500


def random_table(rng: random.Random) -> list[str]:
    """0..8 distinct cards, often with several cards of one rank."""
    n = rng.randint(0, 8)
    if rng.random() < 0.6:
        # draw from a few ranks only, so pairs/triples of a rank are common
        ranks = rng.sample(range(1, 11), rng.randint(1, 4))
        pool = [f"{r}{s}" for r in ranks for s in "DCSB"]
        extra = [f"{r}{s}" for r in range(1, 11) for s in "DCSB" if r not in ranks]
        pool += rng.sample(extra, min(len(extra), rng.randint(0, 4)))
    else:
        pool = [f"{r}{s}" for r in range(1, 11) for s in "DCSB"]
    return rng.sample(pool, min(n, len(pool)))


def engine_options(rules: Rules, value: int, table_texts: list[str]) -> list[str]:
    mask = parse_cards(table_texts)
    return [mask_text(m) for m in capture_table(rules).options(value, mask)]


def naive_options(rules: Rules, value: int, table_texts: list[str], subsets=None) -> list[str]:
    table = [naive.card(t) for t in table_texts]
    return [naive.cards_text(o) for o in naive.capture_options(value, table, rules, subsets)]


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_capture_table_matches_naive(name):
    rules = RULE_SETS[name]
    ct = capture_table(rules)
    rng = random.Random(f"captures-{name}")
    mismatches = []
    for i in range(TABLES_PER_RULES):
        texts = random_table(rng)
        table = [naive.card(t) for t in texts]
        subsets = naive.table_subsets(table)
        mask = parse_cards(texts)
        values = range(1, 11) if i < ALL_VALUES_TABLES else rng.sample(range(1, 11), VALUES_PER_TABLE)
        for value in values:
            got = [mask_text(m) for m in ct.options(value, mask)]
            want = [naive.cards_text(o) for o in naive.capture_options(value, table, rules, subsets)]
            if len(got) != len(set(got)) or sorted(got) != sorted(want):
                mismatches.append((value, naive.cards_text(table), got, want))
    assert not mismatches, f"{len(mismatches)} mismatches, first: {mismatches[:5]}"


@pytest.mark.parametrize("name", ["scientifico", "quindici", "assi_no_asso_takes_asso"])
def test_options_canonical_order(name):
    """options() is sorted by size, then by the sorted card list."""
    rules = RULE_SETS[name]
    rng = random.Random(1)
    ct = capture_table(rules)
    for _ in range(500):
        mask = parse_cards(random_table(rng))
        for v in range(1, 11):
            opts = ct.options(v, mask)
            keys = [(m.bit_count(), [naive.sort_key(naive.card(t)) for t in mask_text(m).split()])
                    for m in opts]
            assert keys == sorted(keys)
            assert all(m & ~mask == 0 and m for m in opts)


# ---------------------------------------------------------------- table-driven
CASES = [
    # rules, played value, table, expected options (each a sorted card text)
    ("scientifico", 7, "3C 4S 2D 5C", ["2D 5C", "3C 4S"]),
    ("scientifico", 5, "5D 2C 3C", ["5D"]),                      # single beats the sum
    ("scientifico", 5, "5D 5C 2C 3C", ["5D", "5C"]),            # choice of the single
    ("scientifico", 5, "5D 5C", ["5D", "5C"]),                  # never both fives together
    ("scientifico", 10, "5D 5C", ["5D 5C"]),                    # a pair by sum is fine
    ("scientifico", 10, "5D 5C 10B", ["10B"]),
    ("scientifico", 6, "1D 2D 3D 4D", ["2D 4D", "1D 2D 3D"]),
    ("scientifico", 8, "1D 2D 3D 4D", ["1D 3D 4D"]),
    ("scientifico", 9, "1D 2D 3D 4D", ["2D 3D 4D"]),
    ("scientifico", 10, "1D 2D 3D 4D", ["1D 2D 3D 4D"]),
    ("scientifico", 7, "8D 9D 10D", []),
    ("scientifico", 1, "", []),
    ("scientifico", 2, "1D 1C 1S", ["1D 1C", "1D 1S", "1C 1S"]),
    ("scientifico", 3, "1D 1C 1S", ["1D 1C 1S"]),
    ("free", 5, "5D 2C 3C", ["5D", "2C 3C"]),
    ("free", 5, "5D 5C 2C 3C", ["5D", "5C", "2C 3C"]),
    ("free", 7, "7D 3C 4S 7B", ["7D", "7B", "3C 4S"]),
    # quindici: table cards + played card = 15
    ("quindici", 7, "8C 3S 5B", ["8C"]),
    ("quindici", 7, "2C 3S 5B", ["3S 5B"]),
    ("quindici", 10, "5D 2C 3C", ["5D"]),
    ("quindici", 5, "10D 4C 6S", ["10D"]),
    ("quindici", 5, "4C 6S", ["4C 6S"]),
    ("quindici", 1, "10D 4C", ["10D 4C"]),
    ("quindici", 1, "7D 7C", ["7D 7C"]),
    ("quindici", 7, "7D", []),                                   # matching rank is not a capture
    ("quindici", 5, "5D 5C", ["5D 5C"]),
    ("quindici+priority=free", 10, "5D 2C 3C", ["5D", "2C 3C"]),
    # asso piglia tutto
    ("assi", 1, "3C 4S 9B", ["3C 4S 9B"]),
    ("assi", 1, "1C 4S 9B", ["1C"]),
    ("assi", 1, "1C 1S 9B", ["1C", "1S"]),
    ("assi", 1, "", []),
    ("assi", 2, "1C 1S 9B", ["1C 1S"]),                          # other cards capture normally
    ("assi+asso_takes_asso=false", 1, "1C 4S 9B", ["1C 4S 9B"]),
    ("assi+asso_takes_asso=false", 1, "1C", ["1C"]),
    ("assi+asso_scopa", 1, "3C 4S", ["3C 4S"]),
]


@pytest.mark.parametrize("rules_text,value,table,expected", CASES)
def test_capture_cases(rules_text, value, table, expected):
    from scopone.rules import parse_rules

    rules = parse_rules(rules_text)
    texts = table.split()
    expected = [naive.cards_text(naive.cards(e)) for e in expected]
    got = engine_options(rules, value, texts)
    assert sorted(got) == sorted(expected)
    # the naive reference must agree with the hand-written answer too
    assert sorted(naive_options(rules, value, texts)) == sorted(expected)


def test_captures_function_matches_table():
    rules = Rules(quindici=True)
    mask = parse_cards("2C 3S 5B 8C")
    assert captures(rules, 7, mask) == capture_table(rules).options(7, mask)
    assert [mask_text(m) for m in captures(rules, 7, mask)] == ["8C"]


# ---------------------------------------------------------------- CP-SAT patterns
def brute_patterns(target: int) -> set[tuple[int, ...]]:
    """Multisets of ranks 1..10 (each at most 4 times) summing to target."""
    out = set()

    def rec(rank: int, remaining: int, counts: list[int]):
        if remaining == 0:
            if sum(counts) >= 1:
                out.add((0,) + tuple(counts))
            return
        if rank > 10:
            return
        for k in range(0, 5):
            if k * rank > remaining:
                break
            counts[rank - 1] = k
            rec(rank + 1, remaining - k * rank, counts)
        counts[rank - 1] = 0

    rec(1, target, [0] * 10)
    return out


# Known partition counts (parts 1..10, each used at most 4 times), by hand:
# 1:1, 2:2 (2, 1+1), 3:3 (3, 2+1, 1+1+1), 4:5 (4, 3+1, 2+2, 2+1+1, 1+1+1+1).
@pytest.mark.parametrize("target,count", [(1, 1), (2, 2), (3, 3), (4, 5)])
def test_brute_patterns_small_counts(target, count):
    assert len(brute_patterns(target)) == count


@pytest.mark.parametrize("target", range(1, 15))
def test_cpsat_patterns_match_brute_force(target):
    got = cpsat_patterns(target)
    assert len(got) == len(set(got)), "duplicate patterns"
    assert set(got) == brute_patterns(target)
    for p in got:
        assert len(p) == 11 and p[0] == 0
        assert sum(r * p[r] for r in range(1, 11)) == target
        assert all(0 <= c <= 4 for c in p)
    # canonical order: fewer cards first
    assert [sum(p) for p in got] == sorted(sum(p) for p in got)


def test_capture_table_uses_quindici_targets():
    ct = capture_table(Rules(quindici=True))
    for v in range(1, 11):
        assert set(ct.patterns[v]) == brute_patterns(15 - v)
    ct = capture_table(Rules())
    for v in range(1, 11):
        assert set(ct.patterns[v]) == brute_patterns(v)


def test_table_cards_are_card_texts():
    # guard the helper used above: engine and naive texts agree on every card
    for c in range(40):
        assert naive.text(naive.card(card_text(c))) == card_text(c)


def test_ctrl_c_still_raises_keyboard_interrupt_after_cp_sat():
    # CP-SAT's own SIGINT handler used to leave SIGINT at its default action,
    # so a Ctrl-C during a later solve killed the process without a report.
    # In a child process, so that a regression fails this test, not the run.
    import subprocess
    import sys

    code = (
        "import os, signal, time\n"
        # as in a terminal, whatever the test runner's SIGINT disposition (ignored in background jobs)
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "from scopone.captures import cpsat_patterns\n"
        "cpsat_patterns(11)\n"
        "try:\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    time.sleep(2)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted cleanly')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "interrupted cleanly" in out.stdout, (out.returncode, out.stderr[-500:])


def test_the_disk_cache_holds_exactly_what_cp_sat_compiles(tmp_path, monkeypatch):
    import json

    from scopone import captures as cap

    monkeypatch.setenv("SCOPONE_CACHE_DIR", str(tmp_path))
    cap._disk_cache.cache_clear()
    try:
        for target in range(1, 15):
            assert cap.patterns_for(target) == cap.cpsat_patterns(target)
        data = json.loads(cap.cache_path().read_text())
        assert cap.cache_path().parent == tmp_path
        assert {int(k) for k in data} == set(range(1, 15))
        for k, pats in data.items():  # CP-SAT recompiles the same patterns
            assert [tuple(p) for p in pats] == cap.cpsat_patterns(int(k))
        # a corrupt or tampered cache is compiled again, never trusted
        data["7"] = [[0] * 11]
        cap.cache_path().write_text(json.dumps(data))
        cap._disk_cache.cache_clear()
        assert cap.patterns_for(7) == cap.cpsat_patterns(7)
        cap.cache_path().write_text("{not json")
        cap._disk_cache.cache_clear()
        assert cap.patterns_for(5) == cap.cpsat_patterns(5)
        assert json.loads(cap.cache_path().read_text())["5"]  # rewritten whole
    finally:
        cap._disk_cache.cache_clear()
