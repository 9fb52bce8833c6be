"""Benchmark of the puzzle generator: accepted puzzles per CPU-minute.

    python benchmarks/puzzles.py [--cards 5] [--n 20] [--seed 1] [--engine auto]
    python benchmarks/puzzles.py --cards 7 --candidates 6   # CPU time of each of the first 6 candidates

Generates ``--n`` puzzles at ``--cards`` cards per hand into a temporary file
with one worker and prints: accepted puzzles per CPU-minute, candidates per
second, the rejection reasons, and the distribution of themes and ratings.
With ``--candidates K`` it analyses the first K candidates of the stream
instead and prints the CPU time and outcome of each (for sizes where a whole
run would take long).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections import Counter

from rich.console import Console
from rich.table import Table

from scopone.puzzles import Rejected, analyse, generate, make_candidate, parse_cards_range
from scopone.rules import Rules


def time_candidates(seed: int, cards: tuple[int, int], k: int, engine: str) -> None:
    """The CPU time and outcome of each of the first ``k`` candidates of the stream."""
    t = Table(title=f"first {k} candidates, {cards[0]}-{cards[1]} cards per hand, seed {seed}, engine {engine}",
              title_justify="left")
    for col in ("candidate", "CPU s", "outcome"):
        t.add_column(col, justify="right" if col != "outcome" else "left")
    times = []
    for i in range(k):
        cand = make_candidate(seed, i, cards, Rules())
        c0 = time.process_time()
        try:
            analyse(cand, engine=engine)
            outcome = "accepted"
        except Rejected as e:
            outcome = e.reason
        times.append(time.process_time() - c0)
        t.add_row(str(i), f"{times[-1]:.1f}", outcome)
    t.add_row("total", f"{sum(times):.1f}", f"mean {sum(times) / k:.1f} s per candidate")
    Console().print(t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cards", default="5", help="cards per hand: N or LOW-HIGH (default 5)")
    ap.add_argument("--n", type=int, default=20, help="puzzles to generate (default 20)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--engine", default="auto", choices=["auto", "c", "python"])
    ap.add_argument("--candidates", type=int, default=0,
                    help="time each of the first K candidates instead of generating --n puzzles")
    args = ap.parse_args()
    cards = parse_cards_range(args.cards)
    if args.candidates:
        time_candidates(args.seed, cards, args.candidates, args.engine)
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bench.json")
        cpu0, wall0 = time.process_time(), time.perf_counter()
        data = generate(path, args.n, args.seed, cards=cards, engine=args.engine)
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    puzzles = data["puzzles"]
    examined = sum(data["progress"].values())
    con = Console()
    t = Table(title=f"puzzle generation, {args.cards} cards per hand, seed {args.seed}, engine {args.engine}",
              title_justify="left")
    t.add_column("measure")
    t.add_column("value", justify="right")
    t.add_row("accepted puzzles", str(len(puzzles)))
    t.add_row("candidates examined", str(examined))
    t.add_row("CPU time (s)", f"{cpu:.1f}")
    t.add_row("wall time (s)", f"{wall:.1f}")
    t.add_row("accepted per CPU-minute", f"{60 * len(puzzles) / cpu:.1f}" if cpu else "-")
    t.add_row("candidates per CPU-second", f"{examined / cpu:.2f}" if cpu else "-")
    for reason, c in sorted(data["rejected"].items(), key=lambda x: -x[1]):
        t.add_row(f"rejected: {reason}", str(c))
    for theme, c in Counter(th for p in puzzles for th in p["themes"]).most_common():
        t.add_row(f"theme: {theme}", str(c))
    for (lvl, label), c in sorted(Counter((p["difficulty"]["level"], p["difficulty"]["label"]) for p in puzzles).items()):
        t.add_row(f"difficulty {lvl} ({label})", str(c))
    con.print(t)


if __name__ == "__main__":
    main()
