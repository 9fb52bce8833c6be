"""Perft: the full move tree of small endgames, counted by the engine and by
the naive reference, against numbers frozen in ``tests/data/perft.json``.

For each endgame three numbers are frozen:

* ``leaves``: the number of ways to play the deal to its end (leaves of the
  legal-move tree);
* ``points_a``: the sum over those leaves of team A's final points;
* ``scopa_leaves``: the number of leaves where the final scope count of either
  team exceeds its count at the root (a scopa was made during the walk).

The frozen numbers were computed with the naive reference (``tests/naive.py``)
and are recomputed here by BOTH the engine and the naive reference.  On a
mismatch the test prints a "divide": the three numbers under each root move,
engine and naive side by side.

Regenerate (only after a deliberate rules change) with::

    python tests/test_perft.py --regen
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

import naive
from scopone.position import Position

DATA = Path(__file__).parent / "data" / "perft.json"

# (rules, deal seed, cards per hand, policy, extra random plies, slow)
RECIPES = [
    ("scientifico", 10, 1, "greedy", 0, False),
    ("quindici", 11, 1, "random", 0, False),
    ("assi", 12, 1, "random", 2, False),
    ("classico", 13, 2, "random", 0, False),
    ("free", 14, 2, "greedy", 1, False),
    ("scientifico+napola+re_bello", 15, 2, "random", 3, False),
    ("assi+asso_scopa", 16, 2, "random", 0, False),
    ("scientifico+primiera=sum", 17, 2, "greedy", 2, False),
    ("scientifico", 0, 3, "greedy", 0, False),
    ("scientifico", 1, 3, "random", 0, False),
    ("classico", 2, 3, "random", 1, False),
    ("quindici", 3, 3, "greedy", 0, False),
    ("assi", 4, 3, "random", 0, False),
    ("assi+asso_scopa+asso_takes_asso=false", 5, 3, "random", 2, False),
    ("free", 6, 3, "random", 0, False),
    ("scientifico+napola+re_bello", 7, 3, "greedy", 1, False),
    ("scientifico+primiera=sum", 8, 3, "random", 3, False),
    ("quindici+priority=free", 9, 3, "random", 2, False),
    ("assi+asso_takes_asso=false", 18, 3, "greedy", 0, False),
    ("classico+napola", 19, 3, "greedy", 2, False),
    ("scientifico", 20, 4, "random", 3, False),
    ("assi", 21, 4, "random", 3, False),
    ("classico", 22, 4, "greedy", 3, False),
    ("quindici", 23, 4, "random", 5, False),
    ("scientifico", 1, 4, "greedy", 0, True),
]


# ------------------------------------------------------------------ the two perfts
def engine_perft(pos: Position, root_scope: tuple[int, int]) -> tuple[int, int, int]:
    if pos.is_over():
        s = pos.result()
        scopa = int(pos.scope[0] > root_scope[0] or pos.scope[1] > root_scope[1])
        return 1, s.points[0], scopa
    leaves = points = scopa = 0
    for m in pos.legal_moves():
        pos.push(m)
        a, b, c = engine_perft(pos, root_scope)
        pos.pop()
        leaves += a
        points += b
        scopa += c
    return leaves, points, scopa


def engine_divide(pos: Position) -> dict[str, tuple[int, int, int]]:
    root = (pos.scope[0], pos.scope[1])
    out = {}
    for m in pos.legal_moves():
        pos.push(m)
        out[m.text()] = engine_perft(pos, root)
        pos.pop()
    return out


def divide_report(line: str) -> str:
    pos = Position.from_line(line, check=False)
    eng = engine_divide(pos)
    nai = naive.divide(naive.State.from_line(line))
    rows = [f"divide for {line}", f"{'move':<24} {'engine':<28} naive"]
    for mv in sorted(set(eng) | set(nai)):
        flag = "" if eng.get(mv) == nai.get(mv) else "   <-- differs"
        rows.append(f"{mv:<24} {str(eng.get(mv)):<28} {nai.get(mv)}{flag}")
    return "\n".join(rows)


# ------------------------------------------------------------------ the tests
def _entries():
    if not DATA.exists():  # only while regenerating
        return []
    data = json.loads(DATA.read_text())
    out = []
    for e in data["positions"]:
        marks = [pytest.mark.slow] if e.get("slow") else []
        out.append(pytest.param(e, id=e["name"], marks=marks))
    return out


def test_perft_data_is_substantial():
    data = json.loads(DATA.read_text())["positions"]
    fast = [e for e in data if not e.get("slow")]
    assert len(data) >= 20
    sizes = {max(Position.from_line(e["line"]).hands[s].bit_count() for s in range(4)) for e in data}
    assert {1, 2, 3, 4} <= sizes
    assert len({e["line"].split()[-1] for e in data}) >= 6  # several rules
    assert {e["line"].split()[6] for e in data} >= {"A", "B"}
    assert len({e["line"].split()[5] for e in data}) >= 3  # several seats to move
    assert any(e["scopa_leaves"] for e in fast) and any(e["line"].split()[4] != "0-0" for e in data)
    assert sum(e["leaves"] for e in fast) > 20_000


@pytest.mark.parametrize("entry", _entries())
def test_perft(entry):
    line = entry["line"]
    pos = Position.from_line(line)  # the stored position is valid
    assert pos.line() == line
    frozen = (entry["leaves"], entry["points_a"], entry["scopa_leaves"])

    got_engine = engine_perft(pos, (pos.scope[0], pos.scope[1]))
    assert pos.line() == line, "perft did not restore the root position"
    got_naive = naive.perft(naive.State.from_line(line))

    if not (got_engine == got_naive == frozen):
        print(divide_report(line))
    assert got_naive == frozen, f"naive {got_naive} != frozen {frozen}"
    assert got_engine == frozen, f"engine {got_engine} != frozen {frozen}"


# ------------------------------------------------------------------ regeneration
def build_position(rules_text, seed, n, policy, plies) -> Position:
    from scopone.deal import deal
    from scopone.rules import parse_rules

    pos = deal(seed=seed, rules=parse_rules(rules_text), cards_per_hand=n, policy=policy)
    rng = random.Random(f"perft-{seed}")
    for _ in range(plies):
        pos.push(rng.choice(pos.legal_moves()))
    return pos.copy()


def regenerate() -> None:
    positions = []
    for rules_text, seed, n, policy, plies, slow in RECIPES:
        pos = build_position(rules_text, seed, n, policy, plies)
        line = pos.line()
        leaves, points, scopa = naive.perft(naive.State.from_line(line))
        name = f"{rules_text}-s{seed}-n{n}-{policy}-p{plies}"
        positions.append({
            "name": name,
            "recipe": {"rules": rules_text, "seed": seed, "cards_per_hand": n, "policy": policy,
                       "extra_random_plies": plies},
            "line": line, "leaves": leaves, "points_a": points, "scopa_leaves": scopa,
            **({"slow": True} if slow else {}),
        })
        print(name, leaves, points, scopa, flush=True)
    doc = {
        "about": "Perft of small endgames to the end of the deal, computed by tests/naive.py. "
                 "leaves: leaves of the legal-move tree; points_a: sum of team A's final points "
                 "over the leaves; scopa_leaves: leaves where either team's final scope count "
                 "exceeds its count at the root. Regenerate: python tests/test_perft.py --regen",
        "positions": positions,
    }
    DATA.parent.mkdir(exist_ok=True)
    DATA.write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    if "--regen" in sys.argv:
        regenerate()
    else:
        print(__doc__)
