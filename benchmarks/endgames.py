"""The stored benchmark endgames: ``scopone.deal.deal(seed=S, cards_per_hand=N)``
for S = 1..20, one per line as ``seed<TAB>position line`` in ``positions/nN.txt``.

Read by ``solve.py``, ``resume.py``, ``builds.py`` and ``mtd.py``.  It needs only
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


def endgames(n: int, seeds) -> list[tuple[int, Position]]:
    """The endgames of ``seeds`` with ``n`` cards per hand: the stored ones, and
    ``deal(seed=S, cards_per_hand=n)`` for seeds beyond them (other endgames the
    same way, to check that a gain found on the stored 20 is not fitted to them).

    >>> [(s, p.line() == deal(seed=s, cards_per_hand=4).line()) for s, p in endgames(4, [2, 21])]
    [(2, True), (21, True)]
    """
    stored = dict(load(n))
    return [(s, stored[s] if s in stored else deal(seed=s, cards_per_hand=n)) for s in seeds]


def seeds_arg(text: str) -> list[int]:
    """A list of seeds as a command line gives it: ``1,2,5`` or ``21-40``.

    >>> seeds_arg("1,3-5")
    [1, 3, 4, 5]
    """
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out += range(int(a), int(b or a) + 1)
    return out
