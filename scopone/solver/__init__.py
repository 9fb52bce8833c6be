"""Double-dummy solver: the exact value of a position with every hand seen.

>>> from scopone.position import Position
>>> pos = Position.from_line("7D/7C/1B/2B 3C4S - - 0-0 0 - scientifico", check=False)
>>> r = solve(pos, engine="python")
>>> [m.move.text() for m in r.moves], r.complete
(['7Dx3C+4S'], True)
"""

from __future__ import annotations

import contextlib
import os
import time
from typing import TYPE_CHECKING, Callable

from ..position import Position
from .driver import (Backend, MoveValue, Proven, SolveProgress, SolveResult, StoppableBackend, TableBackend,
                     best_line, check_guess, solve_with)
from .reference import INF, PythonSearch, SearchInterrupted, minimax

if TYPE_CHECKING:
    from .checkpoint import Checkpoint


class _PythonBackend:
    def __init__(self, rules, deadline, use_tt=True):
        self.search_obj = PythonSearch(rules, use_tt=use_tt, deadline=deadline)

    def search(self, pos, alpha, beta):
        return self.search_obj.search(pos, alpha, beta)

    def root_move(self, pos):
        """The reference keeps no best moves in its table: no hint."""
        return None

    def stats(self):
        s = self.search_obj
        return {"engine": "python", "nodes": s.nodes, "tt_hits": s.tt_hits, "tt_entries": len(s.tt)}


def make_backend(position: Position, engine: str = "auto", time_limit: float | None = None,
                 memory_mb: float | None = None, use_tt: bool = True, options: int | str | None = None,
                 deadline: float | None = None) -> Backend:
    """The search backend for ``engine`` (``auto``, ``c`` or ``python``); ``options``
    are the core's (:func:`scopone.solver.core.parse_options`), ``deadline`` a
    ``time.monotonic()`` time that overrides ``time_limit``."""
    if deadline is None:
        deadline = time.monotonic() + time_limit if time_limit else None
    if engine in ("auto", "c"):
        try:
            from .core import CoreBackend, core_unavailable_reason
        except ImportError:
            CoreBackend = None
            core_unavailable_reason = lambda rules: "the compiled core is not built"  # noqa: E731
        reason = core_unavailable_reason(position.rules) if CoreBackend else "the compiled core is not built"
        if reason is None:
            return CoreBackend(position.rules, deadline=deadline, memory_mb=memory_mb, use_tt=use_tt, options=options)
        if engine == "c":
            from ..errors import ScoponeError
            raise ScoponeError(f"engine c: {reason}")
    if engine not in ("auto", "c", "python"):
        raise ValueError(f"engine must be auto, c or python, not {engine!r}")
    return _PythonBackend(position.rules, deadline, use_tt=use_tt)


#: MB a one-thread table grows to, by cards per hand (benchmarks/solve.py, column TT MB); from 8 cards
#: the whole memory bound (by default 1 GB: see DEFAULT_MEMORY_MB)
TABLE_MB = {5: 1, 6: 8, 7: 256}
#: Cards per hand from which ``make_backends(fixed_table=True)`` gives one thread a table of
#: :func:`shared_table_mb` made up front (:meth:`~scopone.solver.core.CoreBackend.fix_table`): 1-2%
#: fewer nodes at 6 and 7 cards, but not less time (a small table early is faster per node); below,
#: the same nodes and solves of milliseconds
FIXED_TABLE_CARDS = 6


def shared_table_mb(position: Position, memory_mb: float) -> float:
    """The size of a table shared by search threads for ``position``: it cannot grow
    while they search, so it is sized up front to what a one-thread table grows
    to for the position's size (:data:`TABLE_MB`; a bigger table is slower, its
    entries spread over more of the memory caches), at most ``memory_mb``.

    >>> from scopone.deal import deal
    >>> shared_table_mb(deal(seed=1, cards_per_hand=6), 256), shared_table_mb(deal(seed=1), 256)
    (8, 256)
    """
    n = per_hand(position)
    return min(memory_mb, TABLE_MB.get(n, 1 if n < 5 else memory_mb))


def per_hand(position: Position) -> int:
    """Cards per hand of ``position`` (the longest hand: the seat to move's).

    >>> from scopone.deal import deal
    >>> per_hand(deal(seed=1, cards_per_hand=6))
    6
    """
    return -(-position.cards_left() // 4)


def make_backends(position: Position, engine: str = "auto", time_limit: float | None = None,
                  memory_mb: float | None = None, use_tt: bool = True, threads: int = 1,
                  options: int | str | None = None, share: bool = True,
                  fixed_table: bool = False) -> tuple[Backend, list[StoppableBackend]]:
    """The backend and the helpers for ``threads`` search threads (the one place that
    builds them: :func:`solve` and benchmarks/solve.py).  With ``share`` the threads
    search one table of :func:`shared_table_mb`; without, one table each that
    grows, the memory bound shared out between them.  With ``fixed_table`` one
    thread also searches a table of that size made up front, from
    :data:`FIXED_TABLE_CARDS` cards per hand (off by default: fewer nodes, no less time).
    Only the compiled core searches on several threads: with the Python engine
    there are no helpers.

    >>> from scopone.position import Position
    >>> pos = Position.from_line("7D/7C/1B/2B 3C4S - - 0-0 0 - scientifico", check=False)
    >>> backend, helpers = make_backends(pos, "c", threads=2)
    >>> len(helpers), isinstance(helpers[0], StoppableBackend)
    (1, True)
    """
    if threads < 1:
        raise ValueError(f"threads must be at least 1, not {threads}")
    total_mb = memory_mb
    if threads > 1 and engine != "python":
        from .core import DEFAULT_MEMORY_MB

        total_mb = memory_mb or DEFAULT_MEMORY_MB
        memory_mb = total_mb / threads  # the bound is for all tables together
    deadline = time.monotonic() + time_limit if time_limit else None
    backend = make_backend(position, engine, memory_mb=memory_mb, use_tt=use_tt, options=options, deadline=deadline)
    helpers: list[StoppableBackend] = []
    if threads > 1 and isinstance(backend, StoppableBackend):
        helpers = [make_backend(position, engine, memory_mb=memory_mb, use_tt=use_tt, options=options,  # type: ignore[misc]
                                deadline=deadline) for _ in range(threads - 1)]
        if share and use_tt:
            size = shared_table_mb(position, total_mb)
            for h in helpers:
                h.share_table(backend, memory_mb=size)  # type: ignore[attr-defined]
    elif fixed_table and use_tt and isinstance(backend, TableBackend) and per_hand(position) >= FIXED_TABLE_CARDS:
        # the table it would grow to, made up front: a small table early loses entries (2% more nodes at 7 cards)
        from .core import DEFAULT_MEMORY_MB

        try:
            backend.fix_table(shared_table_mb(position, memory_mb or DEFAULT_MEMORY_MB))
        except MemoryError:  # the growing table reserves what the system will give
            pass
    return backend, helpers


#: Cards in hand from which a solve with a time limit proves bounds from the
#: outside in before MTD(f) (see :meth:`scopone.solver.driver._Bounds.bracket`).
BRACKET_CARDS = 32


def solve(position: Position, mode: str = "all", *, engine: str = "auto",
          time_limit: float | None = None, memory_mb: int | None = None,
          line: bool = True, use_tt: bool = True,
          on_progress: Callable[[SolveProgress], None] | None = None,
          threads: int = 1, start: Proven | None = None,
          on_proven: Callable[[Proven], None] | None = None,
          checkpoint: Checkpoint | None = None, guess: str = "net") -> SolveResult:
    """Solve ``position`` double dummy.

    ``mode``: ``best`` (one best move), ``optimal`` (every move reaching the
    value) or ``all`` (every move with its exact value).  With ``time_limit``
    (seconds) or on Ctrl-C the result is marked incomplete and carries only
    proven bounds.  ``on_progress`` receives a :class:`SolveProgress` (bounds
    proven so far, root moves settled, nodes) after every null-window search.
    ``threads`` > 1 searches in parallel with the compiled core, one
    transposition table per thread (``memory_mb`` is shared out between them);
    the values are the same, and among equally good moves the one shown first
    may differ from run to run.  The Python engine always uses one thread.
    With ``time_limit`` on a position of 8 or more cards per hand the bounds
    are first proven from the outside in, so a full deal that cannot be solved
    in minutes still comes back with proven bounds.  ``start`` and ``on_proven``
    carry proven bounds from one run to the next (see :func:`solve_with`);
    ``checkpoint`` (a :class:`scopone.solver.checkpoint.Checkpoint`) gives both,
    and also carries the table's biggest proofs: read into the table before the
    search, written every :data:`~scopone.solver.checkpoint.TABLE_EVERY` seconds
    while it runs and when the run ends.  ``guess``: where MTD(f)'s tests start,
    ``net`` (the value network) or ``score`` (the score so far); the values are the
    same either way.
    """
    check_guess(guess)  # before any table is made
    if checkpoint is not None and (start is not None or on_proven is not None):
        raise ValueError("give a checkpoint, or start and on_proven, not both")
    backend, helpers = make_backends(position, engine, time_limit, memory_mb, use_tt, threads)
    reader = None
    if checkpoint is not None:
        start, on_proven = checkpoint.start, checkpoint.keep
        if use_tt and isinstance(backend, TableBackend):
            # to save the table while the search runs: one that never moves, as the threads'
            from .core import DEFAULT_MEMORY_MB

            reader = backend.table_reader(shared_table_mb(position, memory_mb or DEFAULT_MEMORY_MB))
        checkpoint.warm([backend, *helpers])
    # 8 or more cards per hand will not be solved in a time limit of minutes: prove
    # bounds from the outside in first, so the result carries the tightest found
    bracket = time_limit is not None and position.cards_left() >= BRACKET_CARDS
    with checkpoint.saving_table(reader) if checkpoint is not None else contextlib.nullcontext():
        result = solve_with(backend, position, mode, line=line, on_progress=on_progress, helpers=helpers,
                            bracket=bracket, start=start, on_proven=on_proven, guess=guess)
    if checkpoint is not None:
        checkpoint.save_table(backend)  # every search has returned: the table holds still
    return result


def usable_cpus() -> int:
    """The CPUs this process may run on (the default of ``scopone solve --threads``).

    >>> usable_cpus() >= 1
    True
    """
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


__all__ = ["solve", "SolveResult", "SolveProgress", "MoveValue", "minimax", "PythonSearch", "SearchInterrupted",
           "best_line", "make_backend", "make_backends", "Backend", "StoppableBackend", "usable_cpus", "INF", "Proven"]
