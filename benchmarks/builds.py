"""Two or more builds of the search core, timed in alternation on the same endgames.

On a shared machine the speed of one run swings by up to 2x from one minute to
the next, so two builds timed one after the other in separate runs cannot be
compared.  Here every build solves each endgame in turn, one build after the
other (every other time in reverse order), each in a fresh process, before the
next endgame is started; the ratio of a build's CPU time to the first build's
*on the same endgame in the same round* is paired (its two times are seconds
apart), and the median of those ratios is what to read.  ``--per-round`` pairs
whole rounds instead (every endgame solved by one build, then by the next):
those pairs are minutes apart, and on this host a one-round pairing once said
0.826 where the same builds paired per endgame said 1.027 (docs/solver-notebook.md,
"A twentieth session"), so it is no longer the default.  The table also gives
each build's median endgame (the median over the rounds of its median time per
endgame) and its ratio to the first build's: what a target such as "median
<= 2 s" reads.

    python benchmarks/builds.py CHECKOUT_A CHECKOUT_B                # 6 cards, endgames 1-10, 8 rounds
    python benchmarks/builds.py . /tmp/native --n 7 --seeds 3,5 --rounds 3
    python benchmarks/builds.py A B --n 7 --seeds 1-20 --rounds 2    # pairs seconds apart
    python benchmarks/builds.py A B --n 7 --seeds 21-40              # endgames the benchmark does not store
    python benchmarks/builds.py A B --n 6 --per-round                # the whole rounds paired, as before
    python benchmarks/builds.py . .:all+smalltt                      # two option sets of one build
    python benchmarks/builds.py . /tmp/other --n 7 --threads 2       # two threads: wall-clock times
    python benchmarks/builds.py A B --n 7 --seeds 4 --instructions   # counted, not timed (valgrind)

A build is a directory holding a ``scopone`` package with its compiled core
(a checkout after ``pip install -e .`` or ``python setup.py build_ext
--inplace``), optionally followed by ``:OPTIONS`` (core options, as
``benchmarks/solve.py --options``).  Each process imports ``scopone`` from that
directory before anything else, so the build measured is the one named.  The
node counts must be equal for the same options: a build that changes them
changed the search, not only its speed.  A build from before ``make_backends``
(the core before issue 15, commit c7e4d96) is timed through its own ``solve()``
on the same endgames, without options:

    git clone -q . /tmp/old15 && git -C /tmp/old15 checkout -q c7e4d96
    (cd /tmp/old15 && python setup.py build_ext --inplace)
    python benchmarks/builds.py /tmp/old15 . --n 7 --seeds 1,2,3,4,5 --rounds 3

``--control`` adds a copy of the first build (its ``scopone`` package copied to a
temporary directory, options kept): the same machine code in other files, so other
pages of memory, timed like the others.  Its paired ratio would be 1.000 on a quiet
machine; what it reads instead is how far this run's noise alone moves a ratio.  On
the AMD host, 7 cards, endgames 1-20, a build and a copy of the same code read 0.975,
0.985, 0.988, 1.031 and 1.008 paired in five runs of 2-3 rounds (docs/solver-notebook.md,
"A twenty-eighth session"): a difference of 3% between two builds is not yet a difference.

    python benchmarks/builds.py A B --n 7 --seeds 1-20 --rounds 2 --control

With ``--instructions`` each build runs once under valgrind's callgrind
(``apt-get install valgrind``), which counts, inside the core's search only
(``Solver_search``), the instructions executed, the branches its simple
predictor mispredicts and the misses of a 32 KB first-level data cache.  The
counts repeat to a few hundred instructions and mispredictions (four counts of
one build, 7 cards, endgame 4: 18.28 G instructions within 435, 138.8 M
mispredictions within 114; the allocator and the lock the search releases
vary), so a change of a percent shows where timing cannot tell it from the
machine's noise; they are not times (the processor's own
predictor is better than valgrind's, and the run is about 50 times slower).
Under valgrind the processor reports its own cache sizes, so the tables sized
to the second-level cache are smaller and the node counts differ a little from
a run without it; they are the same for every build.
"""

from __future__ import annotations

import argparse
import json
import statistics
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

from endgames import seeds_arg  # noqa: E402

# run in a fresh process per build and round: the package must come from that build's
# directory, imported before benchmarks/solve.py (which puts its own checkout first)
CHILD = r"""
import json, sys
build, bench, n, seeds, options, threads, mode = sys.argv[1:8]
sys.path.insert(0, build)
import scopone.solver._core as core  # this build's core, before anything puts another first
if not core.__file__.startswith(build + "/"):
    sys.exit(f"no built core in {build} (found {core.__file__})")
try:  # the module the build loads: on x86-64, _core_v2 where the processor has that level
    from scopone.solver.core import _core as core
except ImportError:  # a build without scopone.solver.core
    pass
try:  # and the one it searches with: the standard module for the default options (the endgames' rules are standard)
    from scopone.solver.core import STANDARD_SWITCHES, module_for, parse_options
    core = module_for(STANDARD_SWITCHES, parse_options(options or "all"))
except ImportError:  # a build from before the standard module
    pass
sys.path.append(bench)
from endgames import endgames  # the stored endgames, and those of other seeds dealt as they were
positions = endgames(int(n), [int(s) for s in seeds.split(",")])
try:
    from solve import run  # the benchmark's own solve loop
except ImportError:
    # a build from before make_backends (the core before issue 15, e.g. c7e4d96): its
    # own solve(), the same mode, no line
    import time
    from scopone.solver import solve
    if options:
        sys.exit(f"options are not supported for a build before make_backends ({build})")
    rows = []
    for _, pos in positions:
        t0, c0 = time.perf_counter(), time.process_time()
        r = solve(pos, mode, engine="c", line=False, threads=int(threads))
        rows.append({"cpu": time.process_time() - c0, "time": time.perf_counter() - t0,
                     "nodes": r.stats.get("nodes", 0), "value": r.value})
else:
    rows = run(positions, mode, options or "all", None, threads=int(threads))
# one thread: CPU time (steadier); several: the wall-clock time they take together
clock = "cpu" if int(threads) == 1 else "time"
print(json.dumps({"core": core.__file__, "isa": getattr(core, "ISA", "portable"), "seconds": sum(r[clock] for r in rows), "nodes": sum(r["nodes"] for r in rows),
                  "values": [r["value"] for r in rows]}))
"""


# what --instructions reports, from callgrind's event names
COUNTED = {"Ir": "instructions", "Bcm": "mispredicted", "Bim": "mispredicted", "D1mr": "l1_misses",
           "D1mw": "l1_misses"}


def callgrind_counts(path: Path) -> dict:
    """The totals of a callgrind output file, summed into COUNTED's names.

    >>> import tempfile; f = Path(tempfile.mkdtemp()) / "out"
    >>> _ = f.write_text("events: Ir Bc Bcm Bi Bim D1mr D1mw\\nsummary: 100 20 3 2 1 5 4\\n")
    >>> callgrind_counts(f)
    {'instructions': 100, 'mispredicted': 4, 'l1_misses': 9}
    """
    events, totals = [], []
    for line in path.read_text().splitlines():
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith(("summary:", "totals:")):
            totals = [int(x) for x in line.split()[1:]]
    counts = {name: 0 for name in COUNTED.values()}
    for event, value in zip(events, totals):
        if event in COUNTED:
            counts[COUNTED[event]] += value
    return counts


def run_build(spec: str, n: int, seeds: str, threads: int = 1, mode: str = "best", count: bool = False) -> dict:
    """One round of one build: its seconds (CPU on one thread, else wall-clock), nodes and values over the
    endgames; with ``count``, run under callgrind, and its counts of the search (callgrind_counts) too."""
    build, _, options = spec.partition(":")
    child = [sys.executable, "-c", CHILD, str(Path(build).resolve()), str(ROOT), str(n), seeds, options, str(threads),
             mode]
    if not count:
        return _run_child(spec, child)
    with tempfile.TemporaryDirectory(prefix="scopone-builds-") as tmp:
        out_file = Path(tmp) / "callgrind.out"
        got = _run_child(spec, ["valgrind", "-q", "--tool=callgrind", f"--callgrind-out-file={out_file}",
                                "--toggle-collect=Solver_search", "--branch-sim=yes", "--cache-sim=yes", *child])
        got["counts"] = callgrind_counts(out_file)
    return got


def _run_child(spec: str, command: list[str]) -> dict:
    """The child's answer (CHILD's JSON), or the exit with its last line of error."""
    out = subprocess.run(command, capture_output=True, text=True)
    if out.returncode:
        lines = out.stderr.strip().splitlines() or [f"exit status {out.returncode}"]
        raise SystemExit(f"builds.py: {spec}: {lines[-1]}")
    return json.loads(out.stdout)


def print_counts(builds: list[str], rows: list[dict], n: int, seeds: str, mode: str) -> None:
    """The table of --instructions: each build's counts (rows, in the order of builds), and its
    instructions against the first build's."""
    print(f"\n{n} cards, endgames {seeds}, mode {mode}; one thread under callgrind, the core's search only "
          f"(counts that repeat)")
    print(f"{'build':<34} {'core':<12} {'nodes':>13} {'instructions':>16} {'a node':>7} {'mispredicted':>13} "
          f"{'a node':>7} {'L1 misses':>12} {'ratio':>6}")
    base = rows[0]
    for b, r in zip(builds, rows):
        c = r["counts"]
        nodes = max(r["nodes"], 1)
        same = "" if r["values"] == base["values"] else "  VALUES DIFFER"
        print(f"{b:<34} {Path(r['core']).name.split('.')[0][:12]:<12} {r['nodes']:>13,} {c['instructions']:>16,} "
              f"{c['instructions'] / nodes:7.0f} {c['mispredicted']:>13,} {c['mispredicted'] / nodes:7.2f} "
              f"{c['l1_misses']:>12,} {c['instructions'] / max(base['counts']['instructions'], 1):6.3f}{same}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("builds", nargs="+", help="DIR or DIR:OPTIONS; the first is the baseline")
    ap.add_argument("--n", type=int, default=6, help="cards per hand")
    ap.add_argument("--seeds", type=seeds_arg, default=list(range(1, 11)),
                    help="endgames, e.g. 3,5 or 1-20 (default 1-10; beyond 20, dealt as the stored ones are)")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--threads", type=int, default=1,
                    help="search threads per solve (sharing one table); from 2 the times are wall-clock")
    ap.add_argument("--mode", choices=["best", "optimal", "all"], default="best",
                    help="what each solve finds (as scopone solve --mode; the command's default is all)")
    ap.add_argument("--per-endgame", dest="per_endgame", action="store_true", default=True,
                    help="(the default) pair the builds on each endgame: every build solves one endgame "
                         "before the next is started, so a pair is seconds apart, not minutes (a ratio per "
                         "endgame and round; the seconds shown are still per round)")
    ap.add_argument("--per-round", dest="per_endgame", action="store_false",
                    help="pair the builds on whole rounds instead (every endgame by one build, then by the "
                         "next): pairs minutes apart, which this host's swings can spoil")
    ap.add_argument("--instructions", action="store_true",
                    help="count instead of timing: each build once under valgrind's callgrind (instructions, "
                         "mispredicted branches and first-level cache misses of the search; they repeat, "
                         "about 50x slower; one thread)")
    ap.add_argument("--control", action="store_true",
                    help="time a copy of the first build too (the same code in other files): its paired "
                         "ratio, 1 on a quiet machine, shows the run's noise")
    args = ap.parse_args(argv)
    if len(args.builds) + args.control < 2:
        ap.error("give at least two builds (or one with --control)")
    if args.control and args.instructions:
        ap.error("--control times a copy of the first build; --instructions counts, which repeat")
    seeds = ",".join(map(str, args.seeds))
    if args.instructions:
        if args.threads != 1:
            ap.error("--instructions counts one thread only")
        if not shutil.which("valgrind"):
            raise SystemExit("builds.py: --instructions needs valgrind on the PATH (apt-get install valgrind)")
        counted = []
        for b in args.builds:
            counted.append(run_build(b, args.n, seeds, 1, args.mode, count=True))
            print(f"{b}: {counted[-1]['counts']['instructions']:,} instructions, {counted[-1]['nodes']:,} nodes",
                  flush=True)
        print_counts(args.builds, counted, args.n, seeds, args.mode)
        return 0
    if not args.control:
        return time_builds(args, args.builds, args.builds, seeds)
    with tempfile.TemporaryDirectory(prefix="scopone-control-") as tmp:
        first, _, options = args.builds[0].partition(":")
        shutil.copytree(Path(first) / "scopone", Path(tmp) / "scopone",
                        ignore=shutil.ignore_patterns("__pycache__"))
        copy = tmp + (":" + options if options else "")
        return time_builds(args, [*args.builds, copy], [*args.builds, "(control)"], seeds)


def time_builds(args, builds: list[str], names: list[str], seeds: str) -> int:
    """Time each of builds (shown as names) in alternation, as main's arguments ask, and print the table."""
    # the units paired: the whole set of endgames per round, or each endgame alone
    units = [str(s) for s in args.seeds] if args.per_endgame else [seeds]
    # each build's runs by its place in the command (a build may be named twice)
    rows: list[list[dict]] = [[] for _ in builds]
    k = 0
    for r in range(args.rounds):
        for unit in units:
            # every other run in reverse order, so that a bias of the place in a run
            # (seen: a few percent at 6 cards) falls on each build alike
            order = range(len(builds))
            for j in order if k % 2 == 0 else reversed(order):
                got = run_build(builds[j], args.n, unit, args.threads, args.mode)
                rows[j].append(got)
                where = f"round {r + 1}/{args.rounds}" + (f" endgame {unit}" if args.per_endgame else "")
                print(f"{where}  {names[j]}: {got['seconds']:.2f} s, {got['nodes']:,} nodes", flush=True)
            k += 1
    base = rows[0]
    what = "one thread, CPU" if args.threads == 1 else f"{args.threads} threads, wall-clock"
    paired = "endgame" if args.per_endgame else "round"
    print(f"\n{args.n} cards, endgames {seeds}, {args.rounds} rounds, mode {args.mode}; {what} seconds per round; "
          f"ratios paired per {paired}")
    print(f"{'build':<34} {'core':<12} {'isa':<10} {'min':>7} {'median':>7} {'nodes':>14} {'paired ratio':>13} "
          f"{'med. endgame':>13} {'its ratio':>9}  ratios")
    u = len(units)
    # each build's runs, round by round (one unit a round with --per-round)
    rounds = [[runs[i:i + u] for i in range(0, len(runs), u)] for runs in rows]
    # the median over the rounds of each round's median endgame (none with --per-round: a
    # round's one time covers every endgame)
    med = [statistics.median(statistics.median(x["seconds"] for x in rnd) for rnd in per_round)
           for per_round in rounds] if args.per_endgame else []
    for j, b in enumerate(names):
        per_round = rounds[j]
        secs = [sum(x["seconds"] for x in rnd) for rnd in per_round]
        nodes = sum(x["nodes"] for x in per_round[0])
        values = [v for x in per_round[0] for v in x["values"]]
        base_values = [v for x in base[:u] for v in x["values"]]
        ratios = sorted(x["seconds"] / y["seconds"] for x, y in zip(rows[j], base))
        same = "" if values == base_values else "  VALUES DIFFER"
        its = f"{med[j]:13.2f} {med[j] / med[0]:9.3f}" if med else f"{'-':>13} {'-':>9}"
        print(f"{b:<34} {Path(rows[j][0]['core']).name.split('.')[0][:12]:<12} "
              f"{rows[j][0]['isa'][:10]:<10} {min(secs):7.2f} "
              f"{statistics.median(secs):7.2f} {nodes:>14,} {statistics.median(ratios):13.3f} {its}  "
              f"{' '.join(f'{x:.2f}' for x in ratios)}{same}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
