"""Searches on several backends at once, one thread each.

The compiled core releases the GIL while it searches, so threads run in
parallel.  Each thread owns one backend; the backends may search one shared
transposition table (:meth:`scopone.solver.core.CoreBackend.share_table`, what
:func:`scopone.solver.make_backends` does), and then :attr:`Workers.shared` is
true.  :class:`Workers` runs one loop per backend, stops every search on Ctrl-C, on
a deadline or on an error, and can cancel one search whose answer is no
longer needed.  The driver (``scopone.solver.driver``) builds its parallel
modes on it.

>>> from scopone.position import Position
>>> from scopone.solver import make_backend
>>> pos = Position.from_line("7D/7C/1B/2B 3C4S - - 0-0 0 - scientifico", check=False)
>>> w = Workers([make_backend(pos, "c"), make_backend(pos, "c")])
>>> seen = []
>>> w.run(lambda i, be: seen.append(be.search(pos, -99, 99)))
>>> seen
[5, 5]
"""

from __future__ import annotations

import threading
import time
from typing import Any, Callable, Sequence

from .reference import SearchInterrupted


def raise_first(errors: list[BaseException]) -> None:
    """Raise the first real error of ``errors`` (a SearchInterrupted only if there is
    no other: those are the searches it stopped), leaving no reference to any.  Each
    error's traceback holds the frames that collected it, and those hold the list: a
    cycle that would keep the backends (and their tables, gigabytes at 8 cards) alive
    until Python's cycle collector runs.

    >>> raise_first([SearchInterrupted(), ValueError("bad")])
    Traceback (most recent call last):
    ValueError: bad
    """
    err = next((e for e in errors if not isinstance(e, SearchInterrupted)), errors[0])
    errors.clear()
    try:
        raise err
    finally:
        del err  # this frame, in its traceback, must not hold it either


class Workers:
    """One thread per backend; the backends must have ``stop(flag)`` (the core's)."""

    def __init__(self, backends: Sequence[Any]):
        self.backends = list(backends)
        # callers guard their shared state with the same condition
        self.cond = threading.Condition(threading.RLock())
        self.stopping = False
        self._cancelled: set[int] = set()
        self._active: set[int] = set()  # backends searching through :meth:`search`
        #: the backends search one table: two threads on one question split its tree
        self.shared = len(self.backends) > 1 and all(b.shares_table() for b in self.backends)

    def run(self, loop: Callable[[int, Any], None]) -> None:
        """Run ``loop(i, backend)`` in one thread per backend and wait for all.

        Ctrl-C in the calling thread stops every search and raises
        KeyboardInterrupt here once every thread has ended; the first exception
        of a loop (e.g. SearchInterrupted at a deadline) stops the others and is
        raised here.
        """
        errors: list[BaseException] = []
        finished = [threading.Event() for _ in self.backends]
        began = [threading.Event() for _ in self.backends]

        def body(i: int, backend: Any) -> None:
            began[i].set()
            try:
                loop(i, backend)
            except BaseException as e:  # noqa: BLE001 - handed to the caller's thread
                with self.cond:
                    errors.append(e)
                    self._stop_all()
            finally:
                finished[i].set()

        def wait_all() -> None:
            # a plain sleep, not Thread.join: on CPython 3.11 a KeyboardInterrupt
            # inside join() can mark a running thread as ended
            while not all(f.is_set() for f in finished):
                time.sleep(0.02)

        self._resume()  # a stop left over from an earlier run must not cut this one short
        threads = [threading.Thread(target=body, args=(i, b), name=f"scopone-search-{i}",
                                    daemon=True) for i, b in enumerate(self.backends)]
        started = 0
        try:
            try:
                for t in threads:
                    t.start()
                    started += 1
                wait_all()
            except KeyboardInterrupt:
                with self.cond:
                    self._stop_all()
                for f in finished[started + 1:]:  # never started
                    f.set()
                # the one whose start() was interrupted may or may not run: it
                # runs within moments if it was created at all
                if started < len(threads) and not began[started].wait(1.0):
                    finished[started].set()
                while True:  # every search stops within 100,000 nodes; wait for them all
                    try:
                        wait_all()
                        break
                    except KeyboardInterrupt:
                        pass
                raise
        finally:
            self._resume()
        if errors:
            raise_first(errors)

    def search(self, i: int, pos, alpha: int, beta: int, wanted: Callable[[], bool] | None = None) -> int | None:
        """``backends[i].search``, or None when :meth:`cancel` stopped it, or when
        ``wanted()`` (checked under :attr:`cond` as it starts) is false."""
        backend = self.backends[i]
        with self.cond:
            if wanted is not None and not wanted():
                return None
            self._active.add(i)
        try:
            v = backend.search(pos, alpha, beta)
        except SearchInterrupted:
            with self.cond:
                self._active.discard(i)
                if self._uncancel(i):
                    return None
            raise
        with self.cond:
            self._active.discard(i)
            self._uncancel(i)  # cancelled just as it finished: the answer stands
        return v

    def cancel(self, i: int) -> None:
        """Stop the search running on ``backends[i]`` (it returns None from :meth:`search`);
        nothing if none runs there."""
        with self.cond:
            if not self.stopping and i in self._active:
                self._cancelled.add(i)
                self.backends[i].stop(True)

    def _uncancel(self, i: int) -> bool:
        if i not in self._cancelled:
            return False
        self._cancelled.discard(i)
        if not self.stopping:
            self.backends[i].stop(False)
        return True

    def stop(self) -> None:
        """Stop every running search, as Ctrl-C does (a later :meth:`run` starts afresh)."""
        with self.cond:
            self._stop_all()

    def _stop_all(self) -> None:
        self.stopping = True
        for b in self.backends:
            b.stop(True)
        self.cond.notify_all()

    def _resume(self) -> None:
        with self.cond:
            self.stopping = False
            for b in self.backends:
                b.stop(False)
            self._cancelled.clear()


def merged_stats(backends: Sequence[Any]) -> dict:
    """The backends' counters added up (``engine``, ``options``: the first's)."""
    stats = [b.stats() for b in backends]
    out = dict(stats[0])
    for s in stats[1:]:
        for k, v in s.items():
            if k not in ("engine", "options") and isinstance(v, int):
                out[k] = out.get(k, 0) + v
    if len(backends) > 1:
        out["threads"] = len(backends)
    return out
