"""Batch throughput: positions per second on 1 and 2 workers, and start-up time.

    python benchmarks/batch.py                      # 40 five-card and 12 six-card endgames
    python benchmarks/batch.py --five 100 --six 20

Positions are `scopone deal --count N --seed 1 --cards-per-hand K`; each run is
`scopone solve-batch` (mode best) into a fresh file.  Start-up: the wall time
of `scopone show examples/endgame-4.json` with the capture-pattern cache empty
(a fresh `SCOPONE_CACHE_DIR`) and warm.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from click.testing import CliRunner
from rich.console import Console
from rich.table import Table

from scopone.cli import main
from scopone.solver.batch import solve_batch


def startup(cache_dir: str) -> float:
    env = {**os.environ, "SCOPONE_CACHE_DIR": cache_dir}
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "scopone", "show", "examples/endgame-4.json"], env=env,
                   capture_output=True, check=True)
    return time.perf_counter() - t0


def main_() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--five", type=int, default=40)
    ap.add_argument("--six", type=int, default=12)
    args = ap.parse_args()
    con = Console(width=max(Console().width, 120))
    t = Table(title="solve-batch, mode best", title_justify="left")
    for col in ("positions", "workers", "wall s", "positions/s", "speed-up"):
        t.add_column(col, justify="right")
    with tempfile.TemporaryDirectory() as d:
        for cards, count in ((5, args.five), (6, args.six)):
            src = Path(d) / f"n{cards}.jsonl"
            CliRunner().invoke(main, ["deal", "--count", str(count), "--seed", "1", "--cards-per-hand", str(cards),
                                      "-o", str(src)])
            base = None
            for workers in (1, 2):
                out = Path(d) / f"n{cards}-w{workers}.jsonl"
                t0 = time.perf_counter()
                solve_batch(src, out, workers=workers)
                wall = time.perf_counter() - t0
                base = base or wall
                t.add_row(f"{count} x {cards} cards", str(workers), f"{wall:.1f}", f"{count / wall:.1f}",
                          f"x{base / wall:.2f}")
        cold = [startup(tempfile.mkdtemp(dir=d)) for _ in range(3)]
        warm_dir = tempfile.mkdtemp(dir=d)
        startup(warm_dir)
        warm = [startup(warm_dir) for _ in range(3)]
    con.print(t)
    con.print(f"start-up of scopone show (median of 3): {sorted(cold)[1]:.2f} s with an empty cache, "
              f"{sorted(warm)[1]:.2f} s warm")


if __name__ == "__main__":
    main_()
