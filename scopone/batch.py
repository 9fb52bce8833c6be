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

import json
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Callable, Iterable, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def run_ordered(fn: Callable[[T], R], tasks: Iterable[T], take: Callable[[R], None], workers: int = 1,
                done: Callable[[], bool] = lambda: False, scheduler: str | None = None) -> None:
    """Run ``fn(task)`` for each task and pass the results to ``take`` in task order.

    ``scheduler``: the address of a Dask distributed scheduler (``pip install
    "scopone[cluster]"``); the tasks then run on that cluster's workers, and
    ``workers`` tasks per cluster thread are kept queued.
    """
    if scheduler is not None:
        _run_on_cluster(fn, tasks, take, scheduler, done)
        return
    if workers <= 1:
        for task in tasks:
            take(fn(task))
            if done():
                return
        return
    pool = ProcessPoolExecutor(max_workers=workers)
    try:
        _in_order(lambda task: pool.submit(fn, task), lambda futures: [f.cancel() for f in futures],
                  4 * workers, tasks, take, done)
    finally:
        # cancel_futures also drops a task whose submit() a Ctrl-C cut short after the pool
        # registered it but before it queued it: shutdown(wait=True) alone waits for it for ever
        pool.shutdown(wait=True, cancel_futures=True)


def _in_order(submit, cancel, window: int, tasks, take, done) -> None:
    """Keep ``window`` tasks queued (enough to keep every worker busy) and take
    their results in task order; whatever is still queued at the end is cancelled."""
    pending: list = []
    try:
        for task in tasks:
            pending.append(submit(task))
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
        cancel(pending)


def _run_on_cluster(fn, tasks, take, scheduler: str, done) -> None:
    from .errors import ScoponeError

    try:
        from distributed import Client
    except ImportError:
        raise ScoponeError("--scheduler: Dask is not installed (pip install \"scopone[cluster]\")") from None
    try:
        client = Client(scheduler, timeout="5s")
    except (OSError, TimeoutError) as e:
        raise ScoponeError(f"--scheduler: cannot reach the Dask scheduler at {scheduler}: {e}") from None
    with client:
        window = 4 * max(1, sum(client.nthreads().values()))
        _in_order(lambda task: client.submit(fn, task, pure=False), client.cancel, window, tasks, take, done)


def append_results(fn: Callable[[T], dict], tasks: Iterable[T], output: Path, workers: int = 1,
                   scheduler: str | None = None, on_result: Callable[[dict, int], None] | None = None) -> int:
    """:func:`run_ordered` writing each result as one JSON line appended to
    ``output`` as it comes (Ctrl-C loses nothing already written); returns how
    many were written.  ``on_result(result, written)`` follows each line."""
    written = 0
    with open(output, "a", encoding="utf-8") as f:
        def take(result: dict) -> None:
            nonlocal written
            f.write(json.dumps(result) + "\n")
            f.flush()
            written += 1
            if on_result:
                on_result(result, written)

        run_ordered(fn, tasks, take, workers, scheduler=scheduler)
    return written


def whole_lines(path: str | Path) -> list[dict]:
    """The results a JSON Lines file holds, for resuming: every whole line up to the
    first cut or broken one, which is removed (with all after it) from the file.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "r.jsonl"
    >>> _ = p.write_text('{"a": 1}\\n{"a": 2}\\n{"a"')
    >>> whole_lines(p), p.read_text()
    ([{'a': 1}, {'a': 2}], '{"a": 1}\\n{"a": 2}\\n')
    """
    path = Path(path)
    if not path.exists():
        return []
    text = path.read_text(encoding="utf-8")
    rows, kept = [], []
    for line in text.splitlines(keepends=True):
        try:
            row = json.loads(line)
        except ValueError:
            break
        if not line.endswith("\n") or not isinstance(row, dict):
            break
        rows.append(row)
        kept.append(line)
    if "".join(kept) != text:  # drop the cut line before appending after it
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text("".join(kept), encoding="utf-8")
        os.replace(tmp, path)
    return rows
