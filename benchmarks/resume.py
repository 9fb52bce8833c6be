"""Benchmark of a solve run in two pieces: what a checkpoint's table saves.

Each endgame (``benchmarks/positions/nN.txt``, as in solve.py) is solved three
ways on one thread, mode best:

* whole: in one run;
* stopped after ``--first`` seconds with a checkpoint (as Ctrl-C stops it),
  then resumed with it
  (bounds and the table's biggest subtrees, ``FILE.table``);
* the same first run, resumed with the bounds alone (the table file not read).

    python benchmarks/resume.py                          # 7 cards, seeds 1, 2 and 5, first run 4 s
    python benchmarks/resume.py --n 6 --seeds 1-8 --first 0.2
    python benchmarks/resume.py --n 8 --seeds 2 --first 90 --memory 4096 --entries 64K,1M,4M,16M

``--entries`` resumes the same first run once per table size: the file keeps
that many of the biggest subtrees (the first run saves the most asked for, and
each resumed run reads the top of it).

The nodes of the two pieces added up against the whole solve say how much of
the cut-short test the resumed run had to search again: with the table, about
none; without, all of it.  A first run that ends before the limit measures
nothing (it says so).
"""

from __future__ import annotations

import argparse
import shutil
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))
sys.path.insert(0, str(ROOT))

from endgames import load, seeds_arg  # noqa: E402

from scopone.solver import solve  # noqa: E402
from scopone.solver.checkpoint import TABLE_ENTRIES, TABLE_FILE_ENTRIES, Checkpoint, load_table, write_table  # noqa: E402


def count_arg(text: str) -> list[int]:
    """``64K,1M`` -> [65536, 1048576]."""
    scale = {"K": 1 << 10, "M": 1 << 20}
    return [int(x[:-1]) * scale[x[-1].upper()] if x[-1].upper() in scale else int(x) for x in text.split(",")]


def keep_top(path: Path, pos, count: int) -> int:
    """Rewrite the table file beside checkpoint ``path`` with its ``count``
    biggest subtrees (the work byte of each 32-byte record); the entries kept."""
    table = Path(str(path) + ".table")
    core, data = load_table(table, pos)
    recs = [data[i:i + 32] for i in range(0, len(data), 32)]
    recs.sort(key=lambda r: r[26], reverse=True)
    write_table(table, pos, core, b"".join(recs[:count]))
    return min(count, len(recs))


def interrupted(pos, memory: int, seconds: float, ck: Checkpoint):
    """The solve with checkpoint ``ck``, stopped after ``seconds`` as Ctrl-C
    stops it (a time limit would change the search from 8 cards per hand on:
    bounds from the outside in first, whose tests a resumed run, going for the
    exact value, does not need)."""
    # a job started in the background has SIGINT ignored: take it as Ctrl-C meanwhile
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(seconds, signal.raise_signal, (signal.SIGINT,))
    timer.start()
    try:
        return solve(pos, "best", engine="c", memory_mb=memory, line=False, threads=1, checkpoint=ck)
    finally:
        # a signal sent as the solve returned must not land in what follows
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        timer.cancel()
        timer.join()
        signal.signal(signal.SIGINT, old)


def resumed(pos, path: Path, memory: int, table: bool, copy_to: Path) -> tuple[int, int, float]:
    """Resume the first run's checkpoint ``path`` (copied to ``copy_to`` with its
    table file, so that the first run's files stay for the next resume)."""
    shutil.copy(path, copy_to)
    shutil.copy(str(path) + ".table", str(copy_to) + ".table")
    ck = Checkpoint(copy_to, pos)
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
    ap.add_argument("--entries", type=count_arg, default=None,
                    help=f"table entries kept, e.g. 64K,1M,4M (default {TABLE_ENTRIES:,})")
    args = ap.parse_args(argv)
    sizes = args.entries or [TABLE_ENTRIES]
    if max(sizes) > TABLE_FILE_ENTRIES:
        ap.error(f"--entries: a table file holds at most {TABLE_FILE_ENTRIES:,} entries")
    print(f"{args.n} cards per hand, mode best, one thread, first run {args.first} s, {args.memory} MB")
    print(f"{'seed':>4} {'value':>5} {'whole':>10} {'first':>10} {'+ resumed':>10} {'= in all':>10} "
          f"{'without table':>14} {'= in all':>10} {'entries':>9}")
    for seed, pos in load(args.n):
        if seed not in args.seeds:
            continue
        whole = solve(pos, "best", engine="c", memory_mb=args.memory, line=False, threads=1)
        with tempfile.TemporaryDirectory() as d:
            a, b = Path(d) / "a.json", Path(d) / "b.json"
            ck = Checkpoint(a, pos)
            ck.table_max = max(sizes)
            first = interrupted(pos, args.memory, args.first, ck)
            if first.complete:
                print(f"{seed:>4} the first run finished within {args.first} s: nothing to resume")
                continue
            vb, nb, _ = resumed(pos, a, args.memory, table=False, copy_to=b)
            if vb != whole.value:
                print(f"{seed:>4} VALUE MISMATCH: whole {whole.value}, resumed without the table {vb}")
                return 1
            for size in sorted(sizes, reverse=True):  # each cut from the bigger file before it
                entries = keep_top(a, pos, size)
                va, na, _ = resumed(pos, a, args.memory, table=True, copy_to=b)
                if va != whole.value:
                    print(f"{seed:>4} VALUE MISMATCH: whole {whole.value}, resumed with {entries:,} entries {va}")
                    return 1
                n0, n1 = whole.stats["nodes"], first.stats["nodes"]
                m = 1e6
                print(f"{seed:>4} {whole.value:>5} {n0 / m:>9.2f}M {n1 / m:>9.2f}M {na / m:>9.2f}M "
                      f"{(n1 + na) / m:>9.2f}M {nb / m:>13.2f}M {(n1 + nb) / m:>9.2f}M {entries:>9,}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
