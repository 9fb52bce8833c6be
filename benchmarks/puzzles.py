"""Benchmark of the puzzle generator: accepted puzzles per CPU-minute, and what they are.

    python benchmarks/puzzles.py [--cards 5] [--n 20] [--seed 1] [--engine auto]
                                 [--min-margin 2] [--no-swing] [--view all|seat] [--players heuristic]
    python benchmarks/puzzles.py --cards 5,6 --n 10       # one run per size, one table each
    python benchmarks/puzzles.py --cards 7 --candidates 6   # CPU time of each of the first 6 candidates
    python benchmarks/puzzles.py --file examples/puzzles.json   # only describe a puzzle file

Generates ``--n`` puzzles at ``--cards`` cards per hand into a temporary file
with one worker and prints: accepted puzzles per CPU-minute, candidates per
second, the rejection reasons, the share of puzzles won by a margin of 1, and
the distribution of margins, themes, ratings and views.  With
``--candidates K`` it analyses the first K candidates of the stream instead
and prints the CPU time and outcome of each (for sizes where a whole run
would take long).
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


def describe(t: Table, puzzles: list[dict]) -> None:
    """Rows for what a list of puzzles is: margins, themes, difficulty, views."""
    n = len(puzzles) or 1
    ones = sum(p.get("margin") == 1 for p in puzzles)
    t.add_row("share with margin 1", f"{ones}/{len(puzzles)} ({100 * ones / n:.0f}%)")
    for m, c in sorted(Counter(p.get("margin") for p in puzzles).items(), key=lambda x: (x[0] is None, x[0] or 0)):
        t.add_row(f"margin {m}", str(c))
    for theme, c in Counter(th for p in puzzles for th in p["themes"]).most_common():
        t.add_row(f"theme: {theme}", str(c))
    t.add_row("distinct themes", str(len({th for p in puzzles for th in p["themes"]})))
    rungs = Counter((p["difficulty"]["level"], p["difficulty"]["label"]) for p in puzzles)
    for (lvl, label), c in sorted(rungs.items()):
        t.add_row(f"difficulty {lvl} ({label})", str(c))
    for (lvl, by), c in sorted(Counter((p["seat_difficulty"]["level"], p["seat_difficulty"]["solved_by"])
                                       for p in puzzles if "seat_difficulty" in p).items()):
        t.add_row(f"seat's-view difficulty {lvl} ({by or 'none'})", str(c))
    for view, c in sorted(Counter(p.get("view", "all") for p in puzzles).items()):
        t.add_row(f"view: {view}", str(c))
    seat = [p["probability"] for p in puzzles if p.get("view") == "seat"]
    if seat:
        t.add_row("seat's view: mean probability", f"{sum(seat) / len(seat):.2f}")


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
    ap.add_argument("--min-margin", type=int, default=2, help="the answer's least lead (default 2)")
    ap.add_argument("--no-swing", action="store_true", help="refuse 1-point margins even for a clear swing")
    ap.add_argument("--view", default="all", choices=["all", "seat"])
    ap.add_argument("--players", default="heuristic", help="comma-separated player specs for the self-play")
    ap.add_argument("--file", default=None, help="describe this puzzle file instead of generating")
    args = ap.parse_args()
    if args.file:
        from scopone.formats import read_json

        t = Table(title=args.file, title_justify="left")
        t.add_column("measure")
        t.add_column("value", justify="right")
        puzzles = read_json(args.file)["puzzles"]
        t.add_row("puzzles", str(len(puzzles)))
        describe(t, puzzles)
        Console().print(t)
        return
    for size in args.cards.split(","):
        run(args, size)


def run(args, size: str) -> None:
    """Generate ``args.n`` puzzles at one size and print the table."""
    cards = parse_cards_range(size)
    if args.candidates:
        time_candidates(args.seed, cards, args.candidates, args.engine)
        return
    players = tuple(s.strip() for s in args.players.split(",") if s.strip())
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bench.json")
        cpu0, wall0 = time.process_time(), time.perf_counter()
        data = generate(path, args.n, args.seed, cards=cards, engine=args.engine, min_margin=args.min_margin,
                        view=args.view, players=players, swing=not args.no_swing)
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    puzzles = data["puzzles"]
    examined = sum(data["progress"].values())
    con = Console()
    t = Table(title=f"puzzle generation, {size} cards per hand, seed {args.seed}, engine {args.engine}, "
                    f"min margin {args.min_margin}{' (no swing)' if args.no_swing else ''}, view {args.view}, players {args.players}", title_justify="left")
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
    describe(t, puzzles)
    con.print(t)


if __name__ == "__main__":
    main()
