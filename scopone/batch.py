"""One executor for batches of independent tasks: results taken in task order.

:func:`run_ordered` runs ``fn`` over a (possibly endless) stream of picklable
tasks, in this process (``workers=1``) or on a local process pool, and hands
each result to ``take`` in the order of the stream, so a batch gives the same
output whatever the number of workers.  ``done()`` is asked after every result
and ends the batch early (the puzzle generator stops once it has enough).
Puzzle generation and matches both run through it.

>>> out = []
>>> run_ordered(abs, iter([-1, 2, -3]), lambda r: out.append(r), workers=1)
>>> out
[1, 2, 3]
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from typing import Callable, Iterable, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def run_ordered(fn: Callable[[T], R], tasks: Iterable[T], take: Callable[[R], None], workers: int = 1,
                done: Callable[[], bool] = lambda: False) -> None:
    """Run ``fn(task)`` for each task and pass the results to ``take`` in task order."""
    if workers <= 1:
        for task in tasks:
            take(fn(task))
            if done():
                return
        return
    window = 4 * workers  # enough queued work to keep every worker busy
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: list = []
        try:
            for task in tasks:
                pending.append(pool.submit(fn, task))
                if len(pending) < window:
                    continue
                take(pending.pop(0).result())
                if done():
                    return
            while pending:
                take(pending.pop(0).result())
                if done():
                    return
        finally:
            for f in pending:
                f.cancel()
