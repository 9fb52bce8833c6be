"""The readable pure-Python search: the reference the compiled core is tested against.

Values are always seen by team A: points(A) - points(B) at the end of the deal,
counting everything already scored.  Team A (seats 0 and 2) maximises.

:func:`minimax` is plain minimax with no pruning and no table: the simplest
possible definition of a position's value.  :class:`PythonSearch` is the same
value found with fail-soft alpha-beta and a transposition table of bounds; the
compiled core (``scopone.solver.core``) implements the same algorithm in C.

>>> from scopone.position import Position
>>> pos = Position.from_line("7D/7C/1B/2B 3C4S - - 0-0 0 - scientifico", check=False)
>>> minimax(pos) == PythonSearch(pos.rules).search(pos, -99, 99)
True
"""

from __future__ import annotations

import math
import time

from ..position import Position

#: "Nothing proven": a bound beyond every value (the compiled core, which works in
#: C ints, uses the position's own limit instead: ``Position.value_limit``).
INF = math.inf


class SearchInterrupted(Exception):
    """The search ran out of time (or was asked to stop); nothing it returned is exact."""


def minimax(pos: Position) -> int:
    """Exact value of ``pos`` by plain minimax over every move (exponential: tiny endgames)."""
    if pos.is_over():
        return pos.score().value
    maximise = pos.to_move & 1 == 0
    values = []
    for m in pos.legal_move_ints():
        pos.push(m)
        values.append(minimax(pos))
        pos.pop()
    return max(values) if maximise else min(values)


class PythonSearch:
    """Fail-soft alpha-beta with a transposition table of (lower, upper) bounds.

    The table persists across calls, so a root driver can ask many null-window
    questions cheaply.  Entries are keyed by hands, table, piles, seat to move and
    last capturing team; the scope already made are additive, so values are stored
    without them and the key leaves them out.
    """

    def __init__(self, rules=None, use_tt: bool = True, deadline: float | None = None):
        self.use_tt = use_tt
        self.tt: dict[tuple, tuple[int, int]] = {}
        self.deadline = deadline
        self.nodes = 0
        self.tt_hits = 0

    def clear(self) -> None:
        """Forget the table and the counters."""
        self.tt.clear()
        self.nodes = self.tt_hits = 0

    def search(self, pos: Position, alpha: int, beta: int) -> int:
        """A fail-soft bound of the value: exact if alpha < v < beta, else v <= alpha or v >= beta."""
        return self._search(pos, alpha, beta)

    def _search(self, pos: Position, alpha: int, beta: int) -> int:
        self.nodes += 1
        if self.deadline is not None and self.nodes & 1023 == 0 and time.monotonic() > self.deadline:
            raise SearchInterrupted
        if pos.is_over():
            return pos.score().value
        scope = pos.scope[0] - pos.scope[1]
        key = None
        if self.use_tt:
            key = (*pos.hands, pos.table, pos.piles[0], pos.piles[1], pos.to_move, pos.last_capture)
            hit = self.tt.get(key)
            if hit is not None:
                lo, hi = hit[0] + scope, hit[1] + scope
                if lo >= beta or lo == hi:
                    self.tt_hits += 1
                    return lo
                if hi <= alpha:
                    self.tt_hits += 1
                    return hi
                alpha, beta = max(alpha, lo), min(beta, hi)
        a0, b0 = alpha, beta
        maximise = pos.to_move & 1 == 0
        best = -INF if maximise else INF
        for m in pos.legal_move_ints():
            pos.push(m)
            v = self._search(pos, alpha, beta)
            pos.pop()
            if maximise:
                if v > best:
                    best = v
                    alpha = max(alpha, v)
            else:
                if v < best:
                    best = v
                    beta = min(beta, v)
            if alpha >= beta:
                break
        if key is not None:
            lo, hi = self.tt.get(key, (-INF, INF))
            if best <= a0:
                hi = min(hi, best - scope)
            elif best >= b0:
                lo = max(lo, best - scope)
            else:
                lo = hi = best - scope
            self.tt[key] = (lo, hi)
        return best
