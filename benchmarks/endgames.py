"""The stored benchmark endgames: ``scopone.deal.deal(seed=S, cards_per_hand=N)``
for S = 1..20, one per line as ``seed<TAB>position line`` in ``positions/nN.txt``.

Read by ``solve.py``, ``resume.py`` and ``builds.py``.  It needs only
``scopone.deal`` and ``scopone.position``, so ``builds.py`` can also read them
with a build from before ``make_backends`` (the core before issue 15).

>>> seed, pos = load(4)[0]
>>> seed, pos.to_move
(1, 0)
"""

from __future__ import annotations

from pathlib import Path

from scopone.deal import deal
from scopone.position import Position

POSITIONS = Path(__file__).resolve().parent / "positions"
SEEDS = range(1, 21)
SIZES = range(4, 11)


def regenerate(sizes=SIZES) -> None:
    """Write ``positions/nN.txt`` from the seeds (deterministic)."""
    POSITIONS.mkdir(exist_ok=True)
    for n in sizes:
        lines = [f"{s}\t{deal(seed=s, cards_per_hand=n).line()}" for s in SEEDS]
        (POSITIONS / f"n{n}.txt").write_text("\n".join(lines) + "\n")


def load(n: int) -> list[tuple[int, Position]]:
    """The stored endgames with ``n`` cards per hand (made on first use)."""
    path = POSITIONS / f"n{n}.txt"
    if not path.exists():
        regenerate([n])
    out = []
    for row in path.read_text().splitlines():
        if row.strip():
            seed, line = row.split("\t")
            out.append((int(seed), Position.from_line(line)))
    return out
