"""Strength of the players: paired-deal matches, printed as a table.

    python benchmarks/strength.py                       # the ladder, 100 pairs each
    python benchmarks/strength.py --pairs 200 --workers 2
    python benchmarks/strength.py --matches "pimc:samples=8:heuristic,pimc:samples=128:heuristic"
    python benchmarks/strength.py --save-dir runs/       # keep every match (resumable)

Each match is ``scopone match A B -n PAIRS --seed SEED``: every deal played
twice with the teams swapped.  The table gives points per deal of A minus B
with the 95% interval, each side's median seconds per decision and how the
PIMC player valued its decisions.  ``--matches`` takes ``A:B`` items
separated by commas (a spec's own options use ``,`` too, so separate the
items with ``;`` when the specs have several options).
"""

from __future__ import annotations

import argparse
import json
import time

from rich.console import Console
from rich.table import Table

from scopone.players.match import run_match

LADDER = [
    ("greedy", "random"),
    ("heuristic", "greedy"),
    ("pimc", "heuristic"),
    ("pimc", "greedy"),
]


def parse_matches(text: str) -> list[tuple[str, str]]:
    """``"a:b;c:d"`` (or with commas when the specs have no options) → pairs of specs."""
    items = [x for x in (text.split(";") if ";" in text else text.split(",")) if x.strip()]
    out = []
    for item in items:
        # a spec may contain ':' itself (pimc:samples=8): split at the ':' that starts a known name
        parts = item.strip().split(":")
        for k in range(1, len(parts)):
            a, b = ":".join(parts[:k]), ":".join(parts[k:])
            if b.split(":")[0] in ("random", "greedy", "heuristic", "pimc", "dd"):
                out.append((a, b))
                break
        else:
            raise SystemExit(f"--matches: cannot split {item!r} into A:B")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pairs", type=int, default=100, help="pairs of deals per match")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--matches", default=None, help="A:B items (default: the ladder)")
    ap.add_argument("--save-dir", default=None, help="keep each match in a subdirectory (resumable)")
    ap.add_argument("--json", default=None, help="also append each match's summary to this JSON Lines file")
    args = ap.parse_args()
    matches = parse_matches(args.matches) if args.matches else LADDER
    con = Console(width=max(Console().width, 150))  # the table stays readable in a log file
    t = Table(title=f"paired-deal matches, {args.pairs} pairs each, seed {args.seed}", title_justify="left")
    for col in ("A", "B", "A - B per deal", "95% interval", "A s/decision (median)", "B s/decision (median)",
                "A valued by", "wall s"):
        t.add_column(col, justify="left" if col in ("A", "B", "A valued by") else "right")
    for a, b in matches:
        t0 = time.perf_counter()
        save = None
        if args.save_dir:
            save = f"{args.save_dir}/{a}--{b}".replace(":", "_").replace(",", "_").replace("=", "-")
        s = run_match(a, b, args.pairs, args.seed, workers=args.workers, save=save)
        d = s.as_dict()
        lo, hi = d["interval"] or (float("nan"), float("nan"))
        ev = ", ".join(f"{k} {v}" for k, v in sorted(d["evaluations"]["a"].items()))
        t.add_row(a + (" (cheats)" if "a" in d["cheating"] else ""), b, f"{d['points_per_deal']:+.2f}",
                  f"[{lo:+.2f}, {hi:+.2f}]", f"{d['seconds_per_decision']['a']['median']:.4f}",
                  f"{d['seconds_per_decision']['b']['median']:.4f}", ev or "-", f"{time.perf_counter() - t0:.0f}")
        con.print(f"{a} vs {b}: {d['points_per_deal']:+.2f} [{lo:+.2f}, {hi:+.2f}]")
        if args.json:
            with open(args.json, "a", encoding="utf-8") as f:
                f.write(json.dumps(d) + "\n")
    con.print(t)


if __name__ == "__main__":
    main()
