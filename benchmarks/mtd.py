"""What MTD(f)'s null-window tests cost on the benchmark endgames (mode best, one thread).

    python benchmarks/mtd.py                              # 7 cards, endgames 1-20: the driver's tests
    python benchmarks/mtd.py --offsets=-2,-1,0,1,2        # also each test alone, on a fresh table,
                                                          # at the value plus each offset
    python benchmarks/mtd.py --shifts=0,-1,1              # the driver with its first guess moved
    python benchmarks/mtd.py --seeds 21-40 --shifts=0     # 20 other endgames (dealt as the stored ones
                                                          # are): total and median nodes
    python benchmarks/mtd.py --guess score --shifts=0     # the first guess the score so far, as
                                                          # before the value network

For each endgame it prints the value, the driver's first guess (the value
network's, ``--guess score`` the score of the piles so far) and every test the driver made: ``[gamma: answer nodes, in vain]``,
where the answer is the fail-soft value of the null-window search (value >= gamma
iff answer >= gamma) and "in vain" the share of the test's nodes that lie under
moves a table node searched before the one that cut (what a perfect move order
would have saved at most).  ``--offsets`` solves each test alone, on a new backend, so its
cost does not depend on what the tests before it left in the tables: the least a
solve can cost is the test at the value (its mover's side) plus the one above
it (the other side).  ``--shifts`` reruns the driver with the first guess moved
by each shift (0: the run above) and prints the total and median nodes of
each; in a clone built with ``CFLAGS=-DNAME=VALUE`` it compares a core constant
by nodes.

Node counts are exact and repeat; no time is measured here (``solve.py`` and
``builds.py`` time).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import get_args
from unittest import mock

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))

from endgames import endgames, load, seeds_arg  # noqa: E402
from scopone.position import Position  # noqa: E402
from scopone.solver import driver, make_backends  # noqa: E402
from scopone.solver.driver import solve_with  # noqa: E402


def driver_tests(pos: Position, shift: int = 0, guess: str = "net") -> tuple[int, list[tuple[int, int, int, int]], int]:
    """Solve ``pos`` in mode best with the first guess (``net`` or ``score``, see
    ``driver.Guess``) moved by ``shift``: the value,
    the tests made as (gamma, answer, nodes, nodes in vain), and the nodes in all.
    The nodes in vain are those under moves a table node searched before the move
    that cut it off (the core's ``in_vain``, see ``CoreBackend.profile``).

    >>> seed, pos = load(4)[0]
    >>> value, tests, nodes = driver_tests(pos)
    >>> tests[-1][1] == value and sum(n for _, _, n, _ in tests) == nodes
    True
    """
    backend, _ = make_backends(pos, "c")
    tests: list[tuple[int, int, int, int]] = []
    search = backend.search

    def logged(p: Position, alpha: int, beta: int) -> int:
        before = backend.stats()
        answer = search(p, alpha, beta)
        after = backend.stats()
        tests.append((beta, answer, after["nodes"] - before["nodes"], after["in_vain"] - before["in_vain"]))
        return answer

    first = driver._guess
    with mock.patch.object(backend, "search", logged), \
            mock.patch.object(driver, "_guess", lambda p, kind=guess: first(p, kind) + shift):
        value = solve_with(backend, pos, mode="best", line=False, guess=guess).value
    return value, tests, backend.stats()["nodes"]


def fresh_test(pos: Position, gamma: int) -> tuple[int, int]:
    """One null-window test (is the value >= gamma?) on a new backend: (answer, nodes)."""
    backend, _ = make_backends(pos, "c")
    answer = backend.search(pos, gamma - 1, gamma)
    return answer, backend.stats()["nodes"]


def count(n: int) -> str:
    """A node count, short: ``count(31_300_000) == '31.3M'``, ``count(4_200) == '4.2k'``."""
    return f"{n / 1e6:.1f}M" if n >= 1e6 else f"{n / 1e3:.1f}k" if n >= 1e3 else str(n)


def ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=7, help="cards per hand (default 7)")
    ap.add_argument("--seeds", type=seeds_arg, default=list(range(1, 21)),
                    help="endgames, e.g. 1,3 or 21-40 (default 1-20, the stored ones; others are dealt)")
    ap.add_argument("--offsets", default="", help="also each test alone at value + these offsets, e.g. --offsets=-1,0,1,2")
    ap.add_argument("--shifts", default="", help="also the driver with its first guess moved by these, e.g. --shifts=0,-1,1")
    ap.add_argument("--guess", choices=get_args(driver.Guess), default="net",
                    help="the first guess: the value network's (default) or the score so far")
    args = ap.parse_args(argv)
    offsets, shifts = ints(args.offsets), ints(args.shifts)
    chosen = endgames(args.n, args.seeds)
    totals: dict[int, list[int]] = {s: [] for s in shifts}
    print(f"{args.n} cards, mode best, one thread, first guess {args.guess}; "
          f"tests as [gamma: answer nodes, the share of them in vain]")
    for seed, pos in chosen:
        value, tests, nodes = driver_tests(pos, guess=args.guess)
        row = " ".join(f"[{g}: {a} {count(n)}, {100 * w / max(n, 1):.0f}%]" for g, a, n, w in tests)
        print(f"endgame {seed:2d}  value {value:3d}  guess {driver._guess(pos, args.guess):3d}  {count(nodes):>7}  {row}",
              flush=True)
        if offsets:
            alone = []
            for off in offsets:
                answer, n = fresh_test(pos, value + off)
                assert (answer >= value + off) == (off <= 0), (seed, off, answer)  # the value is the value
                alone.append(f"{off:+d}: {count(n)}")
            print(f"            alone: {'  '.join(alone)}", flush=True)
        for s in shifts:
            v, n = (value, nodes) if s == 0 else driver_tests(pos, s, args.guess)[::2]
            assert v == value, (seed, s, v, value)
            totals[s].append(n)
    if shifts:
        print(f"\n{'guess shift':>11}  {'total nodes':>14}  {'median':>12}")
        for s in shifts:
            print(f"{s:>+11d}  {sum(totals[s]):>14,}  {statistics.median(totals[s]):>12,.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
