"""Benchmark of the double-dummy solver on fixed endgames.

The endgames are ``scopone.deal.deal(seed=S, cards_per_hand=N)`` for S = 1..20
(the same as ``scopone deal --seed S --cards-per-hand N``), stored one per line
as ``seed<TAB>position line`` in ``benchmarks/positions/nN.txt``.

    python benchmarks/solve.py                       # N = 4..7, mode best
    python benchmarks/solve.py --max-n 8 --mode all
    python benchmarks/solve.py --baseline plain      # also time a baseline core config
    python benchmarks/solve.py --threads 2           # also solve on 2 threads: wall-clock speed-up
    python benchmarks/solve.py --min-n 8 --max-n 8 --count 5 --memory 4096 --solve-threads 2 --per-position
    python benchmarks/solve.py --min-n 8 --max-n 8 --count 1 --memory 4096   # a bigger table
    python benchmarks/solve.py --regenerate          # rewrite the position files

Prints one table per configuration: median, p90 and max time per position,
nodes, nodes/s, TT hit rate, table memory and the mean CPU time per position
(on a shared machine wall times swing, CPU times much less); and, for small N, the pure-Python
reference on a subset with the speed ratio.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))

from endgames import POSITIONS, SIZES, load, regenerate  # noqa: E402
from scopone.deal import deal  # noqa: E402
from scopone.solver import make_backends  # noqa: E402
from scopone.solver.core import VAIN_ORDERS  # noqa: E402
from scopone.solver.parallel import merged_stats  # noqa: E402
from scopone.solver.driver import solve_with  # noqa: E402

CORPUS = ROOT.parent / "tests" / "data" / "solved" / "core.jsonl"


def write_corpus() -> None:
    """Write the solved corpus of tests/test_core.py: small endgames solved by the
    pure-Python reference (and checked with the core), a few bigger ones solved
    by the core, and one hard one for the interruption tests."""
    import json

    from scopone.rules import PRESETS, parse_rules
    from scopone.solver import solve

    rules_list = list(PRESETS.values()) + [parse_rules("scientifico+re_bello+napola+primiera=sum"),
                                           parse_rules("assi+asso_scopa")]
    rows = []

    def add(ident, pos, engine):
        r = solve(pos, mode="optimal", engine=engine, line=False)
        if engine == "python":
            c = solve(pos, mode="optimal", engine="c", line=False)
            assert (c.value, sorted(m.move for m in c.moves)) == (r.value, sorted(m.move for m in r.moves))
        row = {"id": ident, "position": pos.line(), "value": r.value,
               "optimal": sorted(m.move.text() for m in r.moves), "solved_by": engine}
        if engine != "python":
            row["snapshot"] = True  # the core's own answer: a regression snapshot, not an independent value
        rows.append(row)

    k = 0
    for i, rules in enumerate(rules_list):
        for j in range(8):
            seed = 100 * i + j
            pos = deal(seed=seed, rules=rules, first=j % 4, cards_per_hand=1 + j % 4,
                       policy="random" if j % 2 else "greedy")
            add(f"ref{k:03d}", pos, "python")
            k += 1
    for j, n in enumerate((5, 5, 6)):
        add(f"core{j:03d}", deal(seed=500 + j, cards_per_hand=n), "c")
    add("hard000", deal(seed=3, cards_per_hand=6), "c")
    CORPUS.parent.mkdir(parents=True, exist_ok=True)
    CORPUS.write_text("".join(json.dumps(row) + "\n" for row in rows))
    print(f"wrote {len(rows)} positions to {CORPUS}")


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def run(positions, mode: str, options, time_limit: float | None, engine: str = "c", threads: int = 1,
        memory_mb: float | None = None, share: bool = True, show: bool = False, fixed_table: bool = False):
    rows = []
    for seed, pos in positions:
        # as solve(threads=N) builds them: one shared table (share) or the memory
        # bound shared out between one table per thread
        backend, helpers = make_backends(pos, engine, time_limit, memory_mb, threads=threads,
                                         options=options if engine == "c" else None, share=share,
                                         fixed_table=fixed_table)
        t0, c0 = time.perf_counter(), time.process_time()
        r = solve_with(backend, pos, mode, line=False, helpers=helpers)
        t, cpu = time.perf_counter() - t0, time.process_time() - c0
        st = merged_stats([backend, *helpers])
        rows.append({"seed": seed, "time": t, "cpu": cpu, "value": r.value, "complete": r.complete,
                     "nodes": st.get("nodes", 0), "tt_hits": st.get("tt_hits", 0),
                     "tt_bytes": st.get("tt_memory_bytes", 0), "cutoffs": st.get("cutoffs", 0),
                     "first_move_cutoffs": st.get("first_move_cutoffs", 0),
                     "in_vain": {k: st.get("in_vain_" + k, 0) for k in VAIN_ORDERS},
                     "profile": backend.profile() if engine == "c" and not helpers else None})
        if show:
            print_row(rows[-1])
    return rows


def print_row(r) -> None:
    """One position's line (--per-position): seed, value, wall and CPU seconds, nodes."""
    value = r["value"] if r["complete"] else "unsolved"
    print(f"  seed {r['seed']:>2}: value {value}, {r['time']:.1f} s wall, {r['cpu']:.1f} s CPU, "
          f"{r['nodes']:,} nodes", flush=True)


def print_profile(n: int, rows) -> None:
    """Where the nodes went, per cards left in the hands (means per position).

    'late' counts the table nodes that cut off on a move after the first, and
    'in vain' the nodes under the moves they searched before it (each node once,
    at the highest such table node, as a share of all nodes): what a perfect
    order at the table nodes could save at most."""
    k = len(rows)
    total = sum(r["nodes"] for r in rows) or 1
    cuts = sum(r["cutoffs"] for r in rows)
    first = sum(r["first_move_cutoffs"] for r in rows)
    print(f"  N={n}: nodes by cards left (mean per position); 'all' = table-searched nodes that searched "
          f"every move; cut-offs on the first move: {100 * first / max(cuts, 1):.0f}%")
    print(f"  {'left':>4} {'nodes':>10} {'share':>6} {'all':>9} {'moves/all':>9} {'hand/all':>8} "
          f"{'late':>8} {'in vain':>7}")
    for left in range(len(rows[0]["profile"]) - 1, -1, -1):
        cells = [r["profile"][left] for r in rows]
        nodes = sum(c["nodes"] for c in cells)
        if not nodes:
            continue
        alls = sum(c["all_nodes"] for c in cells)
        moves = sum(c["all_moves"] for c in cells) / alls if alls else 0
        hand = sum(c["all_hand"] for c in cells) / alls if alls else 0
        late = sum(c.get("late_cuts", 0) for c in cells)
        vain = sum(c.get("in_vain", 0) for c in cells)
        table = (f"{alls / k:>9.0f} {moves:>9.2f} {hand:>8.2f} {late / k:>8.0f} {100 * vain / total:>6.1f}%"
                 if alls or late else f"{'':>9} {'':>9} {'':>8} {'':>8} {'':>7}")
        print(f"  {left:>4} {nodes / k:>10.0f} {100 * nodes / total:>5.1f}% {table}")
    vain = {o: sum(r["in_vain"][o] for r in rows) for o in VAIN_ORDERS}
    print(f"  in vain at the table nodes: {100 * sum(vain.values()) / total:.1f}% of the nodes; by how the "
          "first move was chosen: " + ", ".join(f"{o.replace('_', ' ')} {100 * v / total:.1f}%"
                                                for o, v in vain.items()))


def summarise(label: str, n: int, rows) -> dict:
    times = [r["time"] for r in rows]
    nodes = sum(r["nodes"] for r in rows)
    total = sum(times)
    hits = sum(r["tt_hits"] for r in rows)
    done = sum(r["complete"] for r in rows)
    s = {"label": label, "n": n, "median": statistics.median(times), "p90": pct(times, 0.9),
         "max": max(times), "nodes": nodes / len(rows), "nps": nodes / total if total else 0,
         "hit": hits / nodes if nodes else 0, "tt_mb": max(r["tt_bytes"] for r in rows) / 2**20,
         "done": f"{done}/{len(rows)}", "cpu": sum(r["cpu"] for r in rows) / len(rows)}
    print(f"{label:<14} {n:>2} {s['median'] * 1000:>10.2f} {s['p90'] * 1000:>10.2f} {s['max'] * 1000:>10.2f} "
          f"{s['nodes']:>12.0f} {s['nps'] / 1e6:>8.2f} {100 * s['hit']:>6.1f}% {s['tt_mb']:>7.1f} {s['done']:>6} "
          f"{s['cpu'] * 1000:>10.2f}", flush=True)
    return s


def compare(label: str, slow_rows, s_slow: dict, fast_rows, s_fast: dict) -> None:
    """Check two runs on the same positions agree, and print their time ratio."""
    for a, b in zip(slow_rows, fast_rows):
        if a["complete"] and b["complete"] and a["value"] != b["value"]:
            print(f"  VALUE MISMATCH seed {a['seed']}: {a['value']} vs {b['value']}")
    print(f"{'':<14}    {label}: median x{s_slow['median'] / s_fast['median']:.2f}, "
          f"total x{sum(r['time'] for r in slow_rows) / sum(r['time'] for r in fast_rows):.2f}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--min-n", type=int, default=4)
    ap.add_argument("--max-n", type=int, default=7)
    ap.add_argument("--mode", choices=("best", "optimal", "all"), default="best")
    ap.add_argument("--options", default="all", help="core options, e.g. all, all-equiv, order+summary")
    ap.add_argument("--baseline", default=None,
                    help="also run this core configuration (e.g. plain, order, all-bounds)")
    ap.add_argument("--threads", type=int, default=1,
                    help="also solve with this many threads, sharing one table and with one table "
                         "each, and print the wall-clock speed-ups over one thread")
    ap.add_argument("--solve-threads", type=int, default=1,
                    help="solve the main and baseline configurations with this many threads sharing "
                         "one table (as scopone solve --threads N) instead of one")
    ap.add_argument("--fixed-table", action="store_true",
                    help="also run the main configuration on one thread with a table made up front "
                         "(make_backends(fixed_table=True)) instead of one that starts small and grows")
    ap.add_argument("--per-position", action="store_true",
                    help="also print each position's seed, value, wall and CPU time and nodes")
    ap.add_argument("--reference-max-n", type=int, default=5, help="run the Python reference up to this N")
    ap.add_argument("--reference-count", type=int, default=5, help="positions per N for the reference")
    ap.add_argument("--count", type=int, default=20, help="positions per N")
    ap.add_argument("--time-limit", type=float, default=None, help="seconds per position")
    ap.add_argument("--memory", type=float, default=None,
                    help="table memory bound in MB for all threads together (default: the core's, 1024)")
    ap.add_argument("--regenerate", action="store_true", help="rewrite benchmarks/positions/*.txt")
    ap.add_argument("--write-corpus", action="store_true", help="rewrite tests/data/solved/core.jsonl")
    ap.add_argument("--depth-profile", action="store_true",
                    help="print where the nodes are: per cards left, all-node branching vs hand size")
    args = ap.parse_args(argv)
    if args.write_corpus:
        write_corpus()
        return 0
    if args.regenerate:
        regenerate()
        print(f"wrote {POSITIONS}/n{SIZES[0]}..n{SIZES[-1]}.txt")
    print(f"mode {args.mode}; times in ms per position; nodes = mean per position")
    print(f"{'config':<14} {'N':>2} {'median':>10} {'p90':>10} {'max':>10} {'nodes':>12} {'Mnodes/s':>8} "
          f"{'TThit':>7} {'TT MB':>7} {'done':>6} {'cpu mean':>10}")
    for n in range(args.min_n, args.max_n + 1):
        positions = load(n)[: args.count]
        k = args.solve_threads
        tag = f" {k}t" if k > 1 else ""
        main_rows = run(positions, args.mode, args.options, args.time_limit, memory_mb=args.memory, threads=k,
                        show=args.per_position)
        s_main = summarise(f"core:{args.options}{tag}", n, main_rows)
        if args.depth_profile:
            print_profile(n, main_rows)
        if args.baseline:
            base_rows = run(positions, args.mode, args.baseline, args.time_limit, memory_mb=args.memory, threads=k,
                            show=args.per_position)
            s_base = summarise(f"core:{args.baseline}{tag}", n, base_rows)
            compare("baseline/core", base_rows, s_base, main_rows, s_main)
        if args.fixed_table:
            fixed_rows = run(positions, args.mode, args.options, args.time_limit, memory_mb=args.memory, threads=k,
                             fixed_table=True, show=args.per_position)
            s_fixed = summarise(f"fixed{tag}", n, fixed_rows)
            compare("core/fixed", main_rows, s_main, fixed_rows, s_fixed)
        if args.threads > 1:
            for share in (True, False):
                par_rows = run(positions, args.mode, args.options, args.time_limit, threads=args.threads,
                               memory_mb=args.memory, share=share)
                label = f"{args.threads}t {'shared' if share else 'own TTs'}"
                s_par = summarise(label, n, par_rows)
                compare(f"1 thread/{label}", main_rows, s_main, par_rows, s_par)
        if n <= args.reference_max_n:
            sub = positions[: args.reference_count]
            ref_rows = run(sub, args.mode, None, args.time_limit, engine="python")
            summarise("python", n, ref_rows)
            core_sub = sum(r["time"] for r in main_rows[: len(sub)])
            for a, b in zip(main_rows, ref_rows):
                if b["complete"] and a["value"] != b["value"]:
                    print(f"  VALUE MISMATCH seed {a['seed']}: core {a['value']} python {b['value']}")
            print(f"{'':<14}    python/core on {len(sub)} positions: "
                  f"x{sum(r['time'] for r in ref_rows) / core_sub:.0f}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory {peak:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
