"""Searches on several backends at once, one thread each.

The compiled core releases the GIL while it searches, so threads run in
parallel.  Each thread owns one backend (and so its own transposition table):
:class:`Workers` runs one loop per backend, stops every search on Ctrl-C, on
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
from typing import Any, Callable, Sequence

from .reference import SearchInterrupted


class Workers:
    """One thread per backend; the backends must have ``stop(flag)`` (the core's)."""

    def __init__(self, backends: Sequence[Any]):
        self.backends = list(backends)
        # callers guard their shared state with the same condition
        self.cond = threading.Condition(threading.RLock())
        self.stopping = False
        self._cancelled: set[int] = set()

    def run(self, loop: Callable[[int, Any], None]) -> None:
        """Run ``loop(i, backend)`` in one thread per backend and wait for all.

        Ctrl-C in the calling thread stops every search and raises
        KeyboardInterrupt here; the first exception of a loop (e.g.
        SearchInterrupted at a deadline) stops the others and is raised here.
        """
        errors: list[BaseException] = []

        def body(i: int, backend: Any) -> None:
            try:
                loop(i, backend)
            except BaseException as e:  # noqa: BLE001 - handed to the caller's thread
                with self.cond:
                    errors.append(e)
                    self._stop_all()

        threads = [threading.Thread(target=body, args=(i, b), name=f"scopone-search-{i}",
                                    daemon=True) for i, b in enumerate(self.backends)]
        self.stopping = False
        for t in threads:
            t.start()
        try:
            for t in threads:
                while t.is_alive():
                    t.join(0.05)  # a short join, so Ctrl-C reaches this thread
        except KeyboardInterrupt:
            with self.cond:
                self._stop_all()
            for t in threads:
                t.join()
            self._resume()
            raise
        self._resume()
        if errors:
            # a real error first; SearchInterrupted of the loops it stopped after
            raise next((e for e in errors if not isinstance(e, SearchInterrupted)), errors[0])

    def search(self, i: int, pos, alpha: int, beta: int) -> int | None:
        """``backends[i].search``, or None when :meth:`cancel` stopped it."""
        backend = self.backends[i]
        try:
            v = backend.search(pos, alpha, beta)
        except SearchInterrupted:
            with self.cond:
                if self._uncancel(i):
                    return None
            raise
        with self.cond:
            self._uncancel(i)  # cancelled just as it finished: the answer stands
        return v

    def cancel(self, i: int) -> None:
        """Stop the search running on ``backends[i]`` (it returns None from :meth:`search`)."""
        with self.cond:
            if not self.stopping:
                self._cancelled.add(i)
                self.backends[i].stop(True)

    def _uncancel(self, i: int) -> bool:
        if i not in self._cancelled:
            return False
        self._cancelled.discard(i)
        if not self.stopping:
            self.backends[i].stop(False)
        return True

    def _stop_all(self) -> None:
        self.stopping = True
        for b in self.backends:
            b.stop(True)
        self.cond.notify_all()

    def _resume(self) -> None:
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
