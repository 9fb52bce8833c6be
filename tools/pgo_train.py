"""The training run of a profile-guided build of the search core (setup.py, ``SCOPONE_PGO``).

    python tools/pgo_train.py MODULE_FILE [MODULE_FILE ...]

Loads each built (instrumented) core module from its file and solves random
endgames with it, 6 and 7 cards per hand under the default rules, so that gcc
sees where the search spends its time.  It imports nothing of the scopone
package: the isolated build environment has none of its dependencies, so the
capture patterns (every multiset of ranks summing to a value, at most four of
a rank, as ``scopone.captures`` compiles them with CP-SAT) are enumerated here.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path


def patterns(target: int) -> list[int]:
    """Every multiset of ranks 1-10 (at most 4 of each) summing to target, one nibble per rank."""
    out: list[int] = []

    def walk(rank: int, left: int, packed: int) -> None:
        if left == 0:
            out.append(packed)
            return
        if rank > 10 or rank > left:
            return
        for count in range(min(4, left // rank) + 1):
            walk(rank + 1, left - count * rank, packed | count << (4 * (rank - 1)))

    walk(1, target, 0)
    return out


def module_name(path: str) -> str:
    """The module a built file holds (_core, _core_v2 or _core_std: its init function's name)."""
    return Path(path).name.split(".")[0]


def load(path: str):
    spec = importlib.util.spec_from_file_location(module_name(path), path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def deal(rng: random.Random, per_hand: int) -> list[int]:
    """Four hands of per_hand cards and the rest of the deck in the two piles."""
    cards = list(range(40))
    rng.shuffle(cards)
    masks = [sum(1 << c for c in cards[i * per_hand:(i + 1) * per_hand]) for i in range(4)]
    rest = cards[4 * per_hand:]
    half = len(rest) // 2
    return masks + [sum(1 << c for c in rest[:half]), sum(1 << c for c in rest[half:])]


def train(module, seed: int = 1, counts: tuple[tuple[int, int], ...] = ((6, 12), (7, 2))) -> int:
    """Solve count random endgames of each (cards per hand, count) in counts, as four
    null-window tests near 0 each; the nodes searched."""
    rng = random.Random(seed)
    solver = module.Solver(patterns=[[]] + [patterns(v) for v in range(1, 11)], strict=True,
                           asso_piglia_tutto=False, asso_scopa=False, asso_takes_asso=True,
                           primiera_sum=False, re_bello=False, napola=False, quindici=False, memory_mb=256.0)
    for per_hand, count in counts:
        for _ in range(count):
            h0, h1, h2, h3, pa, pb = deal(rng, per_hand)
            solver.clear()
            for gamma in (-1, 0, 1, 2):  # null-window tests near the value, as MTD(f) makes them
                solver.search(h0, h1, h2, h3, 0, pa, pb, 0, 0, 0, -1, gamma - 1, gamma, 100, -1.0)
    return solver.stats()["nodes"]


def runs_here(path: str, portable) -> bool:
    """Whether this processor runs the module built at path, as the portable module
    (loaded first) says: the level's and the standard module may be built for a level it
    lacks, and loading one would kill the training run (so the build would fall back to a
    plain one).  A module skipped is built without a profile."""
    name = module_name(path)
    if portable is None:
        return True
    if name == portable.LEVEL_MODULE:
        return bool(portable.CPU_LEVEL_OK)
    if name == portable.STANDARD_MODULE:
        return bool(portable.STANDARD_CPU_OK)
    return True


if __name__ == "__main__":
    paths = sys.argv[1:]
    first = [p for p in paths if module_name(p) == "_core"]
    portable = load(first[0]) if first else None
    for path in paths:
        if runs_here(path, portable):
            train(portable if path in first else load(path))
