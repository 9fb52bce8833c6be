"""Solving on several threads (``solve(..., threads=N)``): same values as one
thread, clean stops (deadline, Ctrl-C, errors), cancellation of one search."""

from __future__ import annotations

import signal
import threading
import time

import pytest

from scopone.rules import Rules, parse_rules
from scopone.solver import solve
from scopone.solver.core import CoreBackend
from scopone.solver.driver import solve_with
from scopone.solver.parallel import Workers, merged_stats
from scopone.solver.reference import SearchInterrupted
from test_core import LONG_SEARCH_VALUE, _hard_position, _long_search_position, endgame, moves_and_values

RULES = [Rules(), parse_rules("scientifico+re_bello+napola+primiera=sum"), parse_rules("assi+asso_scopa")]


@pytest.mark.parametrize("rules", RULES, ids=[r.name for r in RULES])
def test_threads_give_the_same_values(rules):
    for seed in range(12):
        pos = endgame(600 + seed, rules, 2 + seed % 4)
        one = solve(pos, mode="all", engine="c", line=False)
        for threads in (2, 3):
            many = solve(pos, mode="all", engine="c", line=False, threads=threads)
            assert sorted(moves_and_values(many)) == sorted(moves_and_values(one)), pos.line()
            assert many.value == one.value
            optimal = solve(pos, mode="optimal", engine="c", line=False, threads=threads)
            assert optimal.value == one.value
            assert {m.move for m in optimal.moves} == {m.move for m in one.moves if m.value == one.value}
            best = solve(pos, mode="best", engine="c", threads=threads)
            assert best.value == one.value and best.moves[0].value == one.value
            assert best.moves[0].move in {m.move for m in optimal.moves}
            replay = pos.copy()
            for mv in best.line:
                replay.push(mv)
            assert replay.is_over() and replay.result().value == best.value


def test_threaded_stats_add_up():
    pos = endgame(31, Rules(), 4)
    r = solve(pos, mode="all", threads=2, line=False)
    assert r.stats["threads"] == 2 and r.stats["nodes"] > 0
    a, b = CoreBackend(pos.rules), CoreBackend(pos.rules)
    a.search(pos, -1, 0)
    b.search(pos, 0, 1)
    merged = merged_stats([a, b])
    assert merged["nodes"] == a.stats()["nodes"] + b.stats()["nodes"]
    assert merged["engine"] == "c"


@pytest.mark.parametrize("mode", ["all", "best"])
def test_threaded_time_limit_gives_bounds(mode):
    pos, value = _long_search_position(), LONG_SEARCH_VALUE  # seconds of work
    r = solve(pos, mode=mode, time_limit=0.05, threads=2)
    assert not r.complete
    assert r.lower <= value <= r.upper
    for m in r.moves:
        assert m.lower <= m.upper


@pytest.mark.parametrize("mode", ["all", "best"])
def test_threaded_ctrl_c_stops_every_thread(mode):
    pos, value = _long_search_position(), LONG_SEARCH_VALUE  # seconds of work

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.05)
    try:
        r = solve(pos, mode=mode, threads=2)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert not r.complete
    assert r.lower <= value <= r.upper
    running = [t.name for t in threading.enumerate() if t.name.startswith("scopone-search") and t.is_alive()]
    assert not running  # no search left behind


def test_cancel_stops_one_search_and_the_backend_recovers():
    pos = _long_search_position()
    small = endgame(5, Rules(), 2)
    expected = CoreBackend(small.rules).search(small, -1000, 1000)
    got: dict[int, object] = {}
    started = threading.Event()

    def loop(i, backend):
        if i == 0:
            started.set()
            got["long"] = workers.search(0, pos, -1, 0)  # fresh table: seconds of work
            got["after"] = workers.search(0, small, -1000, 1000)
        else:
            started.wait()
            time.sleep(0.05)
            workers.cancel(0)

    workers = Workers([CoreBackend(pos.rules), CoreBackend(pos.rules)])
    workers.run(loop)
    assert got["long"] is None
    assert got["after"] == expected


def test_an_error_in_one_thread_stops_the_others():
    pos = _long_search_position()

    def loop(i, backend):
        if i == 0:
            time.sleep(0.05)
            raise ValueError("boom")
        backend.search(pos, -1, 0)

    workers = Workers([CoreBackend(pos.rules), CoreBackend(pos.rules)])
    with pytest.raises(ValueError, match="boom"):
        workers.run(loop)
    # the stop is lifted afterwards: the backends work again
    small = endgame(5, Rules(), 2)
    assert workers.backends[1].search(small, -1000, 1000) == CoreBackend(small.rules).search(small, -1000, 1000)


@pytest.mark.parametrize("mode", ["all", "best", "optimal"])
def test_threaded_progress_narrows(mode):
    pos = endgame(77, Rules(), 4)
    seen = []
    r = solve(pos, mode=mode, on_progress=seen.append, threads=2)
    assert seen
    for before, after in zip(seen, seen[1:]):
        assert after.lower >= before.lower and after.upper <= before.upper
        assert after.nodes >= before.nodes
    for p in seen:
        assert p.lower <= r.value <= p.upper


def test_threads_must_be_positive():
    with pytest.raises(ValueError, match="threads must be at least 1"):
        solve(endgame(1, Rules(), 1), threads=0)


def test_progress_ticks_during_a_long_search():
    # a search can take minutes: reports keep coming while it runs, not only after it
    pos = endgame(12, Rules(), 2)
    real = CoreBackend(pos.rules)
    finished: list[int] = []
    seen: list[tuple[int, int]] = []

    class Slow:
        def search(self, p, alpha, beta):
            time.sleep(1.2)
            v = real.search(p, alpha, beta)
            finished.append(1)
            return v

        def root_move(self, p):
            return None

        def stats(self):
            return real.stats()

    r = solve_with(Slow(), pos, "best", line=False, on_progress=lambda p: seen.append(len(finished)))
    assert r.complete
    assert seen[0] == 0  # the first report came while the first search still ran


def test_mode_best_tries_first_the_root_move_of_the_search_that_proved_the_value():
    # a table keeps one root move, the last search's: after MTD(f)'s last test failed on the
    # mover's losing side, that is any move.  Mode best must try first the move the test that
    # proved the value kept (at 8 cards, two threads, trying a failing one cost 30 s)
    checked = 0
    for seed in range(60):
        pos = endgame(900 + seed, Rules(), 3 + seed % 2)  # above the last eight cards: a root move is kept
        every = {m.move: m.value for m in solve(pos, mode="all", engine="c", line=False).moves}
        value = max(every.values()) if pos.to_move % 2 == 0 else min(every.values())
        failing = [m for m, v in every.items() if v != value]
        if not failing:
            continue
        root, real = pos.line(), CoreBackend(pos.rules)
        maximise = pos.to_move % 2 == 0
        last_proved = [False]
        searches: list[str] = []

        class LastSearchMove:
            def search(self, p, alpha, beta):
                v = real.search(p, alpha, beta)
                if p.line() == root:
                    last_proved[0] = v >= beta if maximise else v <= alpha
                searches.append(p.line())
                return v

            def root_move(self, p):
                # the proving test's move as the table kept it, else a move that fails
                return real.root_move(p) if last_proved[0] else failing[0]

            def stats(self):
                return real.stats()

        r = solve_with(LastSearchMove(), pos, "best", line=False)
        assert r.value == value and every[r.moves[0].move] == value
        if last_proved[0]:
            continue  # the value's last test was on the mover's side: nothing to tell apart
        checked += 1
        assert sum(line != root for line in searches) == 1, pos.line()  # one move tried: it kept the value
    assert checked >= 3


def test_a_second_ctrl_c_while_stopping_still_waits_for_every_thread():
    pos = _long_search_position()  # still searching when the Ctrl-C come, on any machine
    small = endgame(5, Rules(), 2)
    expected = CoreBackend(small.rules).search(small, -1000, 1000)
    raised = [0]

    def interrupt(signum, frame):
        if raised[0] < 2:  # two Ctrl-C, the second while the threads are stopping
            raised[0] += 1
            raise KeyboardInterrupt

    def loop(i, backend):
        try:
            backend.search(pos, -1, 0)
        except SearchInterrupted:
            time.sleep(0.3)  # slow to stop: the second Ctrl-C lands meanwhile
            raise

    workers = Workers([CoreBackend(pos.rules), CoreBackend(pos.rules)])
    old = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.05, 0.1)
    try:
        with pytest.raises(KeyboardInterrupt):
            workers.run(loop)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert raised[0] == 2
    assert not [t for t in threading.enumerate() if t.name.startswith("scopone-search") and t.is_alive()]
    for b in workers.backends:  # no stop left behind
        assert b.search(small, -1000, 1000) == expected


def test_cancel_without_a_running_search_does_nothing():
    small = endgame(5, Rules(), 2)
    workers = Workers([CoreBackend(small.rules)])
    workers.cancel(0)
    assert workers.backends[0].search(small, -1000, 1000) == CoreBackend(small.rules).search(small, -1000, 1000)
    assert workers.search(0, small, -1000, 1000, wanted=lambda: False) is None


def test_memory_bound_is_for_all_threads_together():
    # mode all: its table grows to 4 MB (mode best's stopped at 2 MB once rootsize cut its nodes)
    pos = endgame(21, Rules(), 6)
    one = solve(pos, mode="all", line=False)
    assert one.stats["tt_memory_bytes"] > 2 * 2**20  # the table wants more than the bound below
    r = solve(pos, mode="all", line=False, memory_mb=2, threads=2)  # 1 MB each (the core's least)
    assert r.value == one.value
    assert r.stats["tt_memory_bytes"] <= 2 * 2**20


@pytest.mark.parametrize("options", ["all", "everything", "all+deeptt", "plain"])
def test_a_shared_table_gives_the_same_values_as_separate_ones(options):
    # the threads of one solve search one table (the default); with separate
    # tables (share=False) and on one thread the values are the same
    from scopone.solver import make_backends

    for seed in range(8):
        rules = RULES[seed % len(RULES)]
        pos = endgame(8100 + seed, rules, 3 + seed % 3)
        one = solve_with(make_backends(pos, "c", options=options)[0], pos, "all", line=False)
        for share in (True, False):
            backend, helpers = make_backends(pos, "c", threads=2, options=options, share=share)
            for mode in ("all", "best"):
                got = solve_with(backend, pos, mode, line=False, helpers=helpers)
                assert got.value == one.value, (pos.line(), share, mode)
                if mode == "all":
                    assert sorted(moves_and_values(got)) == sorted(moves_and_values(one))


def test_a_shared_table_holds_what_the_other_backend_found():
    # what one backend proved, the other finds in the table: its search of the
    # same window ends at the root (1 node) where a backend of its own searches
    # the whole tree
    pos = endgame(8200, Rules(), 5)
    a, b, alone = CoreBackend(pos.rules), CoreBackend(pos.rules), CoreBackend(pos.rules)
    b.share_table(a, memory_mb=8)
    v = a.search(pos, -99, 99)
    assert b.search(pos, -99, 99) == v == alone.search(pos, -99, 99)
    assert b.stats()["nodes"] == 1 and alone.stats()["nodes"] > 1000
    # a third backend joins the same table; the memory is counted once
    c = CoreBackend(pos.rules)
    c.share_table(b, memory_mb=64)
    assert c.search(pos, -99, 99) == v and c.stats()["nodes"] == 1
    assert 8 * 2**20 - 3 < sum(x.stats()["tt_memory_bytes"] for x in (a, b, c)) <= 8 * 2**20  # a third each
    # clear() leaves the shared table: the backend searches with a new one of its own
    b.clear()
    assert b.search(pos, -99, 99) == v and b.stats()["nodes"] > 1000
    assert c.search(pos, -99, 99) == v and c.stats()["nodes"] == 2


def test_a_table_is_shared_only_by_the_same_rules_and_options():
    pos = endgame(8300, Rules(), 3)
    a = CoreBackend(pos.rules)
    with pytest.raises(ValueError, match="same rules and options"):
        CoreBackend(pos.rules, options="plain").share_table(a, memory_mb=1)
    with pytest.raises(ValueError, match="same rules and options"):
        CoreBackend(parse_rules("scientifico+napola")).share_table(a, memory_mb=1)


def test_two_threads_hammering_one_shared_table_agree_with_one_thread():
    # both threads search the same positions at once, so they read and write the
    # same entries while the other writes them: a torn entry must be a miss
    pos = [endgame(8400 + s, Rules(), 5) for s in range(6)]
    expect = [CoreBackend(p.rules).search(p, -99, 99) for p in pos]
    a, b = CoreBackend(Rules(), memory_mb=1), CoreBackend(Rules(), memory_mb=1)
    b.share_table(a, memory_mb=1)  # small: entries are replaced all the time
    got: dict[int, list[int]] = {0: [], 1: []}

    def run(i: int, backend) -> None:
        for p in pos:
            for gamma in range(-4, 5):
                v = backend.search(p, gamma - 1, gamma)
                got[i].append((v >= gamma, expect[pos.index(p)] >= gamma))

    Workers([a, b]).run(run)
    assert all(x == y for i in (0, 1) for x, y in got[i])
