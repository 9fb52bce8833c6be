"""Benchmark of a solve run in two pieces: what a checkpoint's table saves.

Each endgame (``benchmarks/positions/nN.txt``, as in solve.py) is solved three
ways on one thread, mode best:

* whole: in one run;
* stopped after ``--first`` seconds with a checkpoint, then resumed with it
  (bounds and the table's biggest subtrees, ``FILE.table``);
* the same first run, resumed with the bounds alone (the table file not read).

    python benchmarks/resume.py                          # 7 cards, seeds 1, 2 and 5, first run 4 s
    python benchmarks/resume.py --n 6 --seeds 1-8 --first 0.2

The nodes of the two pieces added up against the whole solve say how much of
the cut-short test the resumed run had to search again: with the table, about
none; without, all of it.  A first run that ends before the limit measures
nothing (it says so).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))
sys.path.insert(0, str(ROOT))

from solve import load  # noqa: E402

from scopone.solver import solve  # noqa: E402
from scopone.solver.checkpoint import Checkpoint  # noqa: E402


def seeds_arg(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out += range(int(a), int(b or a) + 1)
    return out


def resumed(pos, path: Path, memory: int, table: bool) -> tuple[int, int, float]:
    ck = Checkpoint(path, pos)
    if not table:
        ck.table_data = None
    t = time.perf_counter()
    r = solve(pos, "best", engine="c", memory_mb=memory, line=False, threads=1, checkpoint=ck)
    return r.value, r.stats["nodes"], time.perf_counter() - t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=7, help="cards per hand (default 7)")
    ap.add_argument("--seeds", type=seeds_arg, default=[1, 2, 5], help="e.g. 1,2,5 or 1-8")
    ap.add_argument("--first", type=float, default=4.0, help="seconds of the first run (default 4)")
    ap.add_argument("--memory", type=int, default=1024, help="table MB (default 1024)")
    args = ap.parse_args(argv)
    print(f"{args.n} cards per hand, mode best, one thread, first run {args.first} s, {args.memory} MB")
    print(f"{'seed':>4} {'value':>5} {'whole':>10} {'first':>10} {'+ resumed':>10} {'= in all':>10} "
          f"{'without table':>14} {'= in all':>10} {'entries':>9}")
    for seed, pos in load(args.n):
        if seed not in args.seeds:
            continue
        whole = solve(pos, "best", engine="c", memory_mb=args.memory, line=False, threads=1)
        with tempfile.TemporaryDirectory() as d:
            a, b = Path(d) / "a.json", Path(d) / "b.json"
            first = solve(pos, "best", engine="c", memory_mb=args.memory, line=False, threads=1,
                          time_limit=args.first, checkpoint=Checkpoint(a, pos))
            if first.complete:
                print(f"{seed:>4} the first run finished within {args.first} s: nothing to resume")
                continue
            shutil.copy(a, b)
            entries = Checkpoint(a, pos).table_entries
            va, na, _ = resumed(pos, a, args.memory, table=True)
            vb, nb, _ = resumed(pos, b, args.memory, table=False)
        if not va == vb == whole.value:
            print(f"{seed:>4} VALUE MISMATCH: whole {whole.value}, resumed {va} and {vb}")
            return 1
        n0, n1 = whole.stats["nodes"], first.stats["nodes"]
        m = 1e6
        print(f"{seed:>4} {whole.value:>5} {n0 / m:>9.1f}M {n1 / m:>9.1f}M {na / m:>9.1f}M {(n1 + na) / m:>9.1f}M "
              f"{nb / m:>13.1f}M {(n1 + nb) / m:>9.1f}M {entries:>9,}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
