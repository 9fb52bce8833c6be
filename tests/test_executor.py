"""The executor of batches (scopone.batch.run_ordered) on a process pool."""

from __future__ import annotations

import threading

from scopone import batch


def test_results_come_in_task_order_on_a_pool():
    tasks = [3, -1, 4, -1, -5, 9, -2, 6, -5, 3, -5, 8]
    out: list[int] = []
    batch.run_ordered(abs, iter(tasks), out.append, workers=2)
    assert out == [abs(t) for t in tasks]


class _Interrupted(Exception):
    pass


class _CutShort(batch.ProcessPoolExecutor):
    """A pool whose third submit() is cut short after the task is registered and before
    it is queued, as a Ctrl-C landing there does (``_work_ids``: CPython's queue of them)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        put, calls = self._work_ids.put, [0]

        def cut(item, *a, **k):
            calls[0] += 1
            if calls[0] == 3:
                raise _Interrupted
            return put(item, *a, **k)

        self._work_ids.put = cut


def test_a_submit_cut_short_does_not_hang_the_pool(monkeypatch):
    # the registered task that was never queued must not keep the pool's shutdown waiting:
    # the interruption comes out of run_ordered (in seconds, not never)
    monkeypatch.setattr(batch, "ProcessPoolExecutor", _CutShort)
    raised: list[BaseException] = []

    def run() -> None:
        try:
            batch.run_ordered(abs, iter(range(100)), lambda r: None, workers=2)
        except BaseException as e:  # noqa: BLE001 - handed to the test's thread
            raised.append(e)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(60)
    assert not t.is_alive(), "run_ordered still waiting for a task that was never queued"
    assert len(raised) == 1 and isinstance(raised[0], _Interrupted)
