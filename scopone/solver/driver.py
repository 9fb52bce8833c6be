"""The root driver: exact values of every move, modes, bounds, the best line.

A *backend* answers one question, fail-soft: ``search(pos, alpha, beta)``
returns a value ``v`` with ``v <= alpha`` meaning "at most v", ``v >= beta``
"at least v", and anything between exact.  The driver narrows bounds with
null-window questions (MTD(f)), so an interrupted solve still knows proven
bounds for the root and for every move.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Literal, Protocol, Sequence, get_args, runtime_checkable

from ..position import Move, Position
from ..scoring import Score
from .parallel import Workers, merged_stats, raise_first
from .reference import INF, SearchInterrupted

Mode = Literal["best", "optimal", "all"]


class Backend(Protocol):
    """What the driver asks of a search engine: the compiled core
    (:class:`scopone.solver.core.CoreBackend`) and the pure-Python reference both answer it."""

    def search(self, pos: Position, alpha: int, beta: int) -> int:
        """The fail-soft value of ``pos`` for team A in the window (alpha, beta)
        (see the module docs); raises SearchInterrupted at its deadline."""
        ...

    def root_move(self, pos: Position) -> Move | None:
        """A hint: the move the last search of ``pos`` found best, or None."""
        ...

    def stats(self) -> dict:
        """Counters (``engine``, ``nodes``, ...), cumulative."""
        ...


@runtime_checkable
class StoppableBackend(Backend, Protocol):
    """A backend whose running search another thread can stop: parallel
    searches (``helpers``, :class:`scopone.solver.parallel.Workers`) need one."""

    def stop(self, flag: bool = True) -> None:
        """Make searches give up (and later ones return at once) until ``stop(False)``."""
        ...

    def shares_table(self) -> bool:
        """Whether another backend searches with this one's transposition table
        (then two threads searching the same question split the work)."""
        ...


@runtime_checkable
class TableBackend(Protocol):
    """A backend whose transposition table can be sized up front, saved and
    read back (checkpoints: :mod:`scopone.solver.checkpoint`)."""

    def table_entries(self, max_entries: int) -> bytes:
        """The entries of the biggest subtrees, at most ``max_entries`` records."""
        ...

    def load_table_entries(self, data: bytes) -> int:
        """Store :meth:`table_entries`' records; the number stored."""
        ...

    def table_fingerprint(self) -> str:
        """The build and options the entries' meaning depends on."""
        ...

    def table_reader(self, memory_mb: float) -> "TableBackend":
        """A backend sharing this one's table that reads it while this one searches."""
        ...

    def fix_table(self, memory_mb: float) -> None:
        """Search a table of ``memory_mb`` made now that never grows."""
        ...


@dataclass
class MoveValue:
    """A root move with its value, or proven bounds ``lower <= value <= upper``."""

    move: Move
    lower: int
    upper: int

    @property
    def value(self) -> int | None:
        """The exact value, or None when only bounds are known."""
        return self.lower if self.lower == self.upper else None

    def as_dict(self) -> dict:
        d: dict = {"move": self.move.text(), "value": self.value}
        if self.value is None:
            d["lower"] = self.lower if self.lower > -INF else None
            d["upper"] = self.upper if self.upper < INF else None
        return d


@dataclass
class SolveResult:
    """What :func:`scopone.solver.solve` found.

    ``value`` is exact when ``complete``; otherwise ``lower``/``upper`` are the
    proven bounds and ``value`` is None.  ``moves`` holds every legal move with
    its value (mode ``all``), the optimal ones (``optimal``) or one best move
    (``best``), best first.
    """

    lower: int
    upper: int
    to_move: int
    mode: str
    moves: list[MoveValue]
    line: list[Move] = field(default_factory=list)
    final_score: Score | None = None
    stats: dict = field(default_factory=dict)
    complete: bool = True

    @property
    def value(self) -> int | None:
        return self.lower if self.lower == self.upper else None

    @property
    def best_move(self) -> Move | None:
        return self.moves[0].move if self.moves and self.moves[0].value == self.value else None

    def as_dict(self) -> dict:
        d: dict = {
            "value": self.value,
            "to_move": self.to_move,
            "mode": self.mode,
            "complete": self.complete,
            "moves": [m.as_dict() for m in self.moves],
            "line": [m.text() for m in self.line],
            "final_score": self.final_score.as_dict() if self.final_score else None,
            "stats": self.stats,
        }
        if self.value is None:
            d["lower"] = self.lower if self.lower > -INF else None
            d["upper"] = self.upper if self.upper < INF else None
        return d


@dataclass
class SolveProgress:
    """What a running solve has proven so far (passed to ``on_progress``).

    ``lower``/``upper`` bound the root's value (``-INF``/``INF`` when nothing
    is proven yet); ``moves_done`` of ``moves_total`` root moves are settled
    (exact value in mode ``all``, tested in ``best``/``optimal``); ``phase`` is
    ``value``, ``moves`` or ``line``; ``nodes`` and ``elapsed`` (seconds) so far.
    """

    lower: int
    upper: int
    moves_done: int
    moves_total: int
    phase: str
    nodes: int
    elapsed: float


@dataclass
class Proven:
    """What earlier searches proved about one position: bounds on its value
    (``lower``/``upper``, ``-INF``/``INF`` when unknown) and on root moves'
    (``moves``: move -> (lower, upper)).  :func:`solve_with` starts from them
    (``start``) and hands out a fresh copy as it proves more (``on_proven``), so a
    long solve can be stopped and resumed (:mod:`scopone.solver.checkpoint`).

    >>> from scopone.solver.core import CoreBackend
    >>> pos = Position.from_line("7D/7C/1B/2B 3C4S - - 0-0 0 - scientifico", check=False)
    >>> kept = []
    >>> r = solve_with(CoreBackend(pos.rules), pos, "best", on_proven=kept.append)
    >>> kept[-1].lower, kept[-1].upper
    (5, 5)
    """

    lower: int = -INF
    upper: int = INF
    moves: dict[Move, tuple[int, int]] = field(default_factory=dict)
    nodes: int = 0  # from on_proven: the nodes this run has searched so far


class _Bounds:
    """Proven bounds on one value, narrowed by null-window searches (MTD(f))."""

    def __init__(self, lower: int = -INF, upper: int = INF, after: Callable[[], None] | None = None):
        self.lower, self.upper = lower, upper
        self.after = after  # called after every search (progress reports)
        # the table's root move after the search that proved the lower (upper) bound, with
        # its backend: at a root where team A (B) moves, the move that reached it
        self.lower_move: tuple[Move, object] | None = None
        self.upper_move: tuple[Move, object] | None = None

    def test(self, backend, pos: Position, gamma: int) -> bool:
        """Is the value >= gamma?  Narrows the bounds either way."""
        v = backend.search(pos, gamma - 1, gamma)
        return self.record(gamma, v, backend, backend.root_move(pos))

    def record(self, gamma: int, v: int, backend=None, move: Move | None = None) -> bool:
        """Take the answer ``v`` of a null-window search at ``gamma``; True if value >= gamma.
        ``move``: the root move ``backend``'s table kept from that search (a hint, or None)."""
        found = (move, backend) if move is not None else None
        if v >= gamma:
            if v >= self.lower:
                self.lower, self.lower_move = v, found
        elif v <= self.upper:
            self.upper, self.upper_move = v, found
        if self.after:
            self.after()
        return v >= gamma

    def bracket(self, backend, pos: Position, guess: int = 0, steps: Sequence[int] = (12, 10, 8, 6, 4, 3, 2)) -> None:
        """Prove bounds from the outside in: is the value at least ``guess - d``, and
        below ``guess + d``, for each ``d`` of ``steps``.  A null-window proof far from
        the value is cheap (the sure bounds cut it), so on a position too big to solve
        within a time limit this proves bounds that MTD(f), starting at the guess,
        would not (a full deal: [-12, 11] in seconds, where one MTD(f) test takes hours)."""
        for d in steps:
            for gamma in (guess - d, guess + d):
                if self.lower < gamma <= self.upper:
                    self.test(backend, pos, gamma)

    def bracket_parallel(self, workers: Workers, pos: Position, guess: int = 0,
                         steps: Sequence[int] = (12, 10, 8, 6, 4, 3, 2)) -> None:
        """:meth:`bracket` with one null-window search per worker at a time, in the
        same order; a search that another answer made moot is cancelled."""
        todo = [g for d in steps for g in (guess - d, guess + d)][::-1]

        def pick(flight: dict[int, int]) -> int | None:
            while todo and not self.lower < todo[-1] <= self.upper:
                todo.pop()
            return todo.pop() if todo else None

        self.tests_in_parallel(workers, pos, pick)

    def exact(self, backend, pos: Position, guess: int = 0) -> int:
        g = min(max(guess, self.lower), self.upper)
        while self.lower < self.upper:
            gamma = g + 1 if g == self.lower else g
            self.test(backend, pos, gamma)
            g = self.lower if self.lower > gamma - 1 else self.upper
        return self.lower

    def exact_parallel(self, workers: Workers, pos: Position, guess: int = 0) -> int:
        """:meth:`exact` with one null-window search per worker at a time.

        Each worker tests the untested gamma nearest the current estimate (the
        last answer, as in MTD(f)).  With the guess off by one, the two searches
        MTD(f) needs in a row run side by side; when a single test is left and
        the workers share a table, they all search it (splitting its tree).
        """
        estimate = [guess]

        def pick(flight: dict[int, int]) -> int | None:
            lo, up = self.lower, self.upper
            g = min(max(estimate[0], lo), up)
            busy = set(flight.values())
            k = 0
            while True:  # g+1, g, g+2, g-1, ...: nearest g + 1/2 first
                gamma = g + 1 + k // 2 if k % 2 == 0 else g - k // 2
                if k % 2 == 0 and gamma > up and g - k // 2 <= lo:
                    break
                if lo < gamma <= up and gamma not in busy:
                    return gamma
                k += 1
            live = [b for b in busy if lo < b <= up]  # not the tests an answer made moot
            if live and workers.shared:
                # nothing new to test: help with a running test, the shared
                # table splitting its tree between the threads
                return min(live, key=lambda b: abs(b - estimate[0] - 0.5))
            return None

        def answered(v: int) -> None:
            estimate[0] = v

        self.tests_in_parallel(workers, pos, pick, answered)
        return self.lower

    def tests_in_parallel(self, workers: Workers, pos: Position, pick: Callable[[dict[int, int]], int | None],
                          answered: Callable[[int], None] = lambda v: None) -> None:
        """Null-window tests on every worker at once until the bounds meet or no
        test is left: each worker tests ``gamma = pick(flight)`` (``flight``: worker
        -> the gamma it is testing; None: nothing to test now, so it waits for a
        running test, whose answer may open new work, or ends when none runs).
        ``answered(v)`` gets every answer; a test another answer made moot is
        cancelled."""
        flight: dict[int, int] = {}

        def loop(i: int, backend) -> None:
            mine = pos.copy()
            while True:
                with workers.cond:
                    while True:
                        if workers.stopping:
                            raise SearchInterrupted
                        gamma = pick(flight) if self.lower < self.upper else None
                        if gamma is not None or not flight:
                            break
                        workers.cond.wait()
                    if gamma is None:
                        workers.cond.notify_all()
                        return
                    flight[i] = gamma
                v = workers.search(i, mine, gamma - 1, gamma,
                                   wanted=lambda: self.lower < gamma <= self.upper)
                # read before another thread's search can replace the shared table's root entry
                move = backend.root_move(mine) if v is not None else None
                with workers.cond:
                    del flight[i]
                    if v is not None:
                        self.record(gamma, v, backend, move)
                        answered(v)
                        for j, other in flight.items():
                            if not self.lower < other <= self.upper:
                                workers.cancel(j)
                    workers.cond.notify_all()

        workers.run(loop)


#: MTD(f)'s first guess: ``net`` the value network's (:mod:`scopone.solver.value_net`,
#: the score so far where it does not apply), ``score`` the score of the piles so far
Guess = Literal["net", "score"]


def check_guess(guess: str) -> None:
    """Refuse a first guess that is not one of :data:`Guess`.

    >>> check_guess("oracle")
    Traceback (most recent call last):
    ...
    ValueError: guess must be net or score, not 'oracle'
    """
    if guess not in get_args(Guess):
        raise ValueError(f"guess must be {' or '.join(get_args(Guess))}, not {guess!r}")


def _guess(pos: Position, kind: Guess = "net") -> int:
    """MTD(f)'s first guess of ``pos``'s value (see :data:`Guess`).

    >>> pos = Position.from_line("7D/7C/1B/2B 3C4S - - 2-0 0 - scientifico", check=False)
    >>> _guess(pos, "score")
    2
    """
    if kind == "net":
        from .value_net import net_guess  # (its weights are read on the first guess)

        return net_guess(pos)
    return pos.score().value


def _best_first(mv: MoveValue, maximise: bool) -> tuple:
    """Sort key: best for the mover first by the middle of the bounds; moves with
    nothing proven (an infinite bound on each side) last."""
    lo, up = mv.lower, mv.upper
    if lo == -INF and up == INF:
        return (1, 0, mv.move)
    mid = lo + up if lo > -INF and up < INF else (lo if lo > -INF else up)
    return (0, -mid if maximise else mid, mv.move)


def root_bounds(moves: Sequence[tuple[int, int]], maximise: bool) -> tuple[int, int]:
    """What bounds (lower, upper) on every legal move's value prove about the
    position's value: the mover takes the best move.  Nothing without moves.

    >>> root_bounds([(1, 3), (-INF, 2)], True), root_bounds([(1, 3), (-INF, 2)], False), root_bounds([], True)
    ((1, 3), (-inf, 2), (-inf, inf))
    """
    if not moves:
        return -INF, INF
    los, ups = [lo for lo, _ in moves], [up for _, up in moves]
    if maximise:
        return max(los), max(ups)
    return min(los), min(ups)


def solve_with(backend: Backend, pos: Position, mode: Mode = "all", line: bool = True,
               on_progress: Callable[[SolveProgress], None] | None = None,
               helpers: Sequence[StoppableBackend] = (), bracket: bool = False,
               start: Proven | None = None, on_proven: Callable[[Proven], None] | None = None,
               guess: Guess = "net") -> SolveResult:
    """Solve ``pos`` with a backend (see module docs).  ``pos`` is restored on return.

    ``on_progress`` (optional) receives a :class:`SolveProgress` after every
    null-window search and every half second, so a caller can show how the
    bounds narrow (it may be called from another thread, never concurrently).
    ``helpers``: more backends (the core's) to search in parallel threads, one
    each; the values are the same, the work is split (root moves in mode
    ``all``; null-window tests of the root and its moves otherwise).
    ``bracket``: first prove bounds from the outside in (:meth:`_Bounds.bracket`),
    for a position that a time limit will interrupt: the root's, then in mode
    ``all`` each root move's.
    ``start``: bounds proven by an earlier run on ``pos`` (trusted: no test is
    repeated inside them).  ``on_proven`` receives what is proven so far (start
    included) at most every half second while it changes, and once at the end,
    also when the solve is interrupted.
    ``guess``: where MTD(f) starts (:data:`Guess`); the values are the same either way.

    >>> from scopone.solver.core import CoreBackend
    >>> pos = Position.from_line("7D/7C/1B/2B 3C4S - - 0-0 0 - scientifico", check=False)
    >>> r = solve_with(CoreBackend(pos.rules), pos, "all")
    >>> r.value, [(m.move.text(), m.value) for m in r.moves], [m.text() for m in r.line]
    (5, [('7Dx3C+4S', 5)], ['7Dx3C+4S', '7C', '1B', '2B'])
    """
    if mode not in ("best", "optimal", "all"):
        raise ValueError(f"mode must be best, optimal or all, not {mode!r}")
    check_guess(guess)
    run = _Solve(backend, pos, mode, on_progress, helpers, start, on_proven, guess)
    try:
        return run.run(line, bracket)
    finally:
        run.close()


class _Solve:
    """One run of :func:`solve_with`, phase by phase: the values (:meth:`every_move`
    in mode all; :meth:`root_value` then :meth:`settle_root_moves` otherwise), then
    :meth:`result` and its best line.  Progress reports read the state between them."""

    def __init__(self, backend: Backend, pos: Position, mode: Mode,
                 on_progress: Callable[[SolveProgress], None] | None, helpers: Sequence[StoppableBackend],
                 start: Proven | None = None, on_proven: Callable[[Proven], None] | None = None,
                 guess: Guess = "net"):
        self.t0 = time.perf_counter()
        self.guess_kind = guess
        self.backend, self.mode, self.on_progress, self.on_proven = backend, mode, on_progress, on_proven
        self.backends = [backend, *helpers]
        self.workers = Workers(self.backends) if helpers else None
        self.report_lock = threading.Lock()  # reports may come from worker threads
        self.pos = pos.copy()
        self.maximise = self.pos.to_move & 1 == 0
        self.moves = self.pos.legal_moves()
        self.phase = "value" if mode != "all" else "moves"
        start = start or Proven()
        self.root = _Bounds(start.lower, start.upper, after=self.report)
        self.per_move = [_Bounds(*start.moves.get(m, (-INF, INF)), after=self.report) for m in self.moves]
        # fixed, unlike self.moves/self.per_move, which settle_root_moves reorders
        self.bounds_of = dict(zip(self.moves, self.per_move))
        self.root.lower, self.root.upper = self.proven_root()
        if self.root.lower > self.root.upper:
            raise ValueError(f"start bounds contradict each other: root value in "
                             f"[{self.root.lower}, {self.root.upper}]")
        self.guess = _guess(self.pos, guess)
        self.kept: tuple | None = None  # the bounds last handed to on_proven

    def close(self) -> None:
        """Drop the bounds' callbacks into this run: they make reference cycles, which
        would keep the backends (and their tables, gigabytes) until Python's cycle
        collector runs, so that repeated solves in one process piled tables up."""
        for b in (self.root, *self.per_move):
            b.after = None

    def stop_searches(self, flag: bool) -> None:
        """Stop (flag) the running searches as a deadline does, or let searches run again."""
        if self.workers is not None:
            if flag:
                self.workers.stop()
        elif isinstance(self.backend, StoppableBackend):
            self.backend.stop(flag)

    def proven_root(self) -> tuple[int, int]:
        """The root's bounds, with what the moves' bounds prove (in every mode)."""
        mlo, mup = root_bounds([(b.lower, b.upper) for b in self.bounds_of.values()], self.maximise)
        return max(self.root.lower, mlo), min(self.root.upper, mup)

    def proven(self) -> Proven:
        """What is proven now (read without locks: every bound only narrows, and each is a proof)."""
        lo, up = self.proven_root()
        moves = {m: (b.lower, b.upper) for m, b in self.bounds_of.items() if b.lower > -INF or b.upper < INF}
        return Proven(lo, up, moves, sum(b.stats().get("nodes", 0) for b in self.backends))

    def keep(self, final: bool = False) -> None:
        """Hand the bounds to on_proven if they changed since the last time (final: always)."""
        if self.on_proven is None:
            return
        p = self.proven()
        key = (p.lower, p.upper, tuple(sorted((m.text(), b) for m, b in p.moves.items())))
        if key != self.kept or final:
            self.on_proven(p)
            self.kept = key

    def report(self) -> None:
        if self.on_progress is None:
            return
        with self.report_lock:
            if self.mode == "all":
                lo, up = self.proven_root()
                done = sum(b.lower == b.upper for b in self.per_move)
            else:
                lo, up = self.root.lower, self.root.upper
                done = sum(b.lower > -INF or b.upper < INF for b in self.per_move)
            nodes = sum(b.stats().get("nodes", 0) for b in self.backends)
            self.on_progress(SolveProgress(lo, up, done, len(self.moves), self.phase, nodes,
                                           time.perf_counter() - self.t0))

    def run(self, line: bool, bracket: bool) -> SolveResult:
        # between searches too (they can take minutes), the nodes count moves on
        ticking = threading.Event()

        failed: list[BaseException] = []

        def tick() -> None:
            while not ticking.wait(0.5):
                if failed:
                    # on_proven failed (a checkpoint that cannot be written): stop
                    # the search, again each tick (a stop between two phases is
                    # cleared as the next begins); run raises the error
                    self.stop_searches(True)
                    continue
                self.report()
                try:
                    self.keep()
                except Exception as e:  # noqa: BLE001 - raised in run's thread
                    failed.append(e)
                    self.stop_searches(True)

        ticker = threading.Thread(target=tick, name="scopone-progress", daemon=True)
        if self.on_progress is not None or self.on_proven is not None:
            ticker.start()
        try:
            complete = True
            try:
                if self.pos.is_over():
                    self.root.lower = self.root.upper = self.pos.score().value
                elif self.mode == "all":
                    self.every_move(bracket)
                else:
                    self.root_value(bracket)
                    self.settle_root_moves()
            except (SearchInterrupted, KeyboardInterrupt):
                complete = False
                # what the moves' bounds prove about the root (mode all searches only them)
                self.root.lower, self.root.upper = self.proven_root()
            result = self.result(complete, line)
        finally:
            ticking.set()
            while ticker.is_alive():
                try:
                    ticker.join()
                except KeyboardInterrupt:  # the search is over: nothing left to stop
                    pass
        if failed:
            self.stop_searches(False)
            raise_first(failed)
        self.keep(final=True)  # everything proven (and the nodes), also after an interruption
        result.stats = {"time": time.perf_counter() - self.t0, **merged_stats(self.backends)}
        n, t = result.stats.get("nodes", 0), result.stats["time"]
        result.stats["nodes_per_second"] = int(n / t) if t > 0 else 0
        return result

    def every_move(self, bracket: bool) -> None:
        """Mode all: every root move's exact value, and so the root's."""
        workers, backend, pos = self.workers, self.backend, self.pos
        if bracket:
            self.bracket_root()
            _bracket_moves(workers, backend, pos, self.moves, self.per_move, self.guess_kind)
        _every_move_exact(workers, backend, pos, self.moves, self.per_move, self.guess)
        vals = [b.lower for b in self.per_move]
        self.root.lower = self.root.upper = max(vals) if self.maximise else min(vals)

    def bracket_root(self) -> None:
        """Bounds on the root's value from the outside in (on every thread)."""
        if self.workers:
            self.root.bracket_parallel(self.workers, self.pos, self.guess)
        else:
            self.root.bracket(self.backend, self.pos, self.guess)

    def root_value(self, bracket: bool) -> None:
        """Modes best and optimal: the root's value by MTD(f) (on every thread)."""
        if bracket:
            self.bracket_root()
        if self.workers:
            self.root.exact_parallel(self.workers, self.pos, self.guess)
        else:
            self.root.exact(self.backend, self.pos, self.guess)

    def settle_root_moves(self) -> None:
        """Modes best and optimal: which root moves keep the root's value (best:
        the first found), the table's best moves first."""
        pos, v, maximise = self.pos, self.root.lower, self.maximise
        self.phase = "moves"
        # the moves that proved the root's value, most likely, each with the
        # backend whose table knows it: first the one the search that proved the
        # mover's side of it kept (the root move a later search on the other side
        # kept is any move that failed; with two threads a test of 8 cards per hand
        # that started with such a move took 30 s more)
        hinted: dict[Move, object] = {}
        proving = self.root.lower_move if maximise else self.root.upper_move
        if proving is not None:
            hinted[proving[0]] = proving[1]
        for b in self.backends:
            hinted.setdefault(b.root_move(pos), b)
        # and before them the moves an earlier run proved to keep it (a checkpoint): they cost
        # no search, where the threads sharing out the others would each start a test that,
        # from 8 cards per hand, takes as long as the solve
        def kept(b: _Bounds) -> bool:  # proven by an earlier run (start) to reach the value
            return b.lower >= v if maximise else b.upper <= v

        proven = [m for m, b in zip(self.moves, self.per_move) if kept(b)]
        first = proven + [m for m in hinted if m in self.moves and m not in proven]  # hinted's order
        order = [self.moves.index(m) for m in first] + [i for i, m in enumerate(self.moves) if m not in first]
        # one assignment, so a Ctrl-C cannot separate a move from its bounds
        self.moves, self.per_move = [self.moves[i] for i in order], [self.per_move[i] for i in order]

        def settle(b: _Bounds, be, p: Position) -> bool:
            if kept(b):
                reached = True
            elif (b.upper < v if maximise else b.lower > v):
                reached = False
            else:
                reached = b.test(be, p, v) if maximise else not b.test(be, p, v + 1)
            if reached:
                b.lower = b.upper = v
            return reached

        found = False
        for mv, b in zip(first, self.per_move):
            pos.push(mv)
            try:
                found = settle(b, hinted.get(mv, self.backend), pos) or found
            finally:
                pos.pop()
            if found and self.mode == "best":
                return
        _settle_moves(self.workers, self.backend, pos, self.moves[len(first):], self.per_move[len(first):],
                      settle, stop_at_first=self.mode == "best")

    def result(self, complete: bool, line: bool) -> SolveResult:
        """What was proven, the moves best first, and (complete) a best line."""
        pos, root, mode = self.pos, self.root, self.mode
        shown = [MoveValue(m, b.lower, b.upper) for m, b in zip(self.moves, self.per_move)]
        if complete and mode != "all":
            shown = [mv for mv in shown if mv.value == root.lower]
        elif not complete and mode != "all":
            shown = [mv for mv in shown if mv.lower > -INF or mv.upper < INF]
        shown.sort(key=lambda mv: _best_first(mv, self.maximise))
        result = SolveResult(root.lower, root.upper, pos.to_move, mode, shown, complete=complete)
        if complete and line and not pos.is_over():
            self.phase = "line"
            try:
                self.report()
                result.line, result.final_score = best_line(self.backend, pos, root.lower, shown[0].move)
            except (SearchInterrupted, KeyboardInterrupt):
                result.complete = False
        elif complete and pos.is_over():
            result.final_score = pos.score()
        return result


def _share_out(workers: Workers | None, backend, pos: Position, count: int,
               work: Callable[[int, object, Position], None], done: Callable[[], bool] = lambda: False) -> None:
    """Jobs ``0..count-1``, in order, until none is left or ``done()``: each runs
    ``work(k, backend, mine)``.  With ``workers``, each thread takes the next job
    with its own backend and its own copy ``mine`` of ``pos``; without, they run
    here on ``backend`` and ``pos``."""
    if workers is None:
        for k in range(count):
            if done():
                return
            work(k, backend, pos)
        return
    todo = list(range(count))[::-1]

    def loop(i: int, backend) -> None:
        mine = pos.copy()
        while True:
            with workers.cond:
                if workers.stopping:
                    raise SearchInterrupted
                if not todo or done():
                    return
                k = todo.pop()
            work(k, backend, mine)

    workers.run(loop)


def _every_move_exact(workers: Workers | None, backend, pos: Position, moves: list[Move],
                      per_move: list[_Bounds], guess: int) -> None:
    """Mode all: the exact value of every root move, each search guessing the last value found."""
    last = [guess]

    def work(k: int, backend, mine: Position) -> None:
        mine.push(moves[k])
        try:
            per_move[k].exact(backend, mine, last[0])
        finally:
            mine.pop()
        last[0] = per_move[k].lower

    _share_out(workers, backend, pos, len(moves), work)


def _bracket_moves(workers: Workers | None, backend, pos: Position, moves: list[Move],
                   per_move: list[_Bounds], guess: Guess = "net") -> None:
    """Mode all under a time limit: bounds from the outside in for every root move."""
    def work(k: int, backend, mine: Position) -> None:
        mine.push(moves[k])
        try:
            per_move[k].bracket(backend, mine, _guess(mine, guess))
        finally:
            mine.pop()

    _share_out(workers, backend, pos, len(moves), work)


def _settle_moves(workers: Workers | None, backend, pos: Position, moves: list[Move], per_move: list[_Bounds],
                  settle: Callable[[_Bounds, object, Position], bool], stop_at_first: bool) -> None:
    """Modes best/optimal: does each root move keep the root's value?"""
    found = [False]

    def work(k: int, backend, mine: Position) -> None:
        mine.push(moves[k])
        try:
            found[0] = settle(per_move[k], backend, mine) or found[0]
        finally:
            mine.pop()

    _share_out(workers, backend, pos, len(moves), work, done=lambda: stop_at_first and found[0])


def reaches(backend, pos: Position, value: int, maximise: bool) -> bool:
    """One null-window search: does the side choosing at the parent (team A when
    ``maximise``) get at least ``value`` (at most, for team B) in ``pos``?"""
    if maximise:
        return backend.search(pos, value - 1, value) >= value
    return backend.search(pos, value, value + 1) <= value


def best_line(backend, pos: Position, value: int, first: Move | None = None) -> tuple[list[Move], Score]:
    """A line of best moves from ``pos`` (whose value is ``value``) to the end of the deal."""
    pos = pos.copy()
    line: list[Move] = []
    while not pos.is_over():
        maximise = pos.to_move & 1 == 0
        chosen = None
        candidates = pos.legal_moves()
        if first is not None and not line:
            candidates = [first] + [m for m in candidates if m != first]
        for mv in candidates:
            pos.push(mv)
            if reaches(backend, pos, value, maximise):
                chosen = mv
                break
            pos.pop()
        if chosen is None:  # cannot happen if value is exact
            raise RuntimeError(f"no move keeps the value {value} in {pos.line()}")
        line.append(chosen)
    return line, pos.result()
