"""Benchmark of the coach: time per deal, the kinds of all-hands rows, and how the
seat's-view intervals narrow with the samples.

    python benchmarks/analyze.py                         # examples/game.json at the defaults
    python benchmarks/analyze.py --samples 8,32,128      # interval half-widths per sample count
    python benchmarks/analyze.py --games DIR/games --count 5   # match records (scopone match --save)

For each game and each sample count: wall seconds, rows exact / bounded /
estimated / forced in the all-hands view, the median half-width of the loss
intervals of sampled plays, and the plays per class (with --games, the
classes add up over the records: how often each class occurs for each player).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from pathlib import Path

from rich.console import Console
from rich.table import Table

from scopone.coach import CLASSES, CoachSettings, analyse_game
from scopone.formats import load_game


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="examples/game.json")
    ap.add_argument("--games", default=None, help="a directory of game records (takes --count of them)")
    ap.add_argument("--count", type=int, default=5)
    ap.add_argument("--samples", default="32", help="comma-separated sample counts")
    ap.add_argument("--budget", type=float, default=5.0)
    args = ap.parse_args()
    paths = sorted(Path(args.games).glob("*.json"))[:args.count] if args.games else [Path(args.game)]
    con = Console(width=max(Console().width, 150))
    t = Table(title=f"scopone analyze, budget {args.budget} s per play", title_justify="left")
    for col in ("game", "samples", "wall s", "exact", "bounded", "estimated", "forced", "median ± of losses"):
        t.add_column(col, justify="left" if col == "game" else "right")
    per_player: dict[str, Counter] = {}
    for path in paths:
        record = load_game(path)
        players = record.extra.get("players", ["?"] * 4)
        for n in (int(x) for x in args.samples.split(",")):
            t0 = time.perf_counter()
            a = analyse_game(record, CoachSettings(samples=n, budget=args.budget), str(path))
            wall = time.perf_counter() - t0
            kinds = a.summary()["all_hands_rows"]
            halves = [(r.sv_loss_interval[1] - r.sv_loss_interval[0]) / 2 for r in a.plays if r.sv_loss_interval]
            t.add_row(path.name, str(n), f"{wall:.0f}", *(str(kinds[k]) for k in ("exact", "bounded", "estimated", "forced")),
                      f"{statistics.median(halves):.2f}" if halves else "-")
            for r in a.plays:
                if r.legal > 1:
                    per_player.setdefault(f"{players[r.seat]} (samples {n})", Counter())[r.cls] += 1
            con.print(f"{path.name}, samples {n}: {wall:.0f} s")
    con.print(t)
    c = Table(title="plays per class (plays with a choice)", title_justify="left")
    c.add_column("player")
    for name, _ in CLASSES:
        c.add_column(name, justify="right")
    for player, counts in sorted(per_player.items()):
        total = sum(counts.values())
        c.add_row(player, *(f"{counts[name]} ({100 * counts[name] / total:.0f}%)" for name, _ in CLASSES))
    con.print(c)


if __name__ == "__main__":
    main()
