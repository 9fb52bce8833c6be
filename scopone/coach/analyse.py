"""Analysis of a played deal, play by play, in two views.

**All hands seen** (double dummy): the exact value of every legal move, from
the compiled solver with a budget of seconds per play.  The plays are
analysed from the last one back, on one solver whose table is kept, so each
search starts from what the later ones proved (as DDS's play analysis does).
A play whose solve does not finish in the budget keeps the bounds the solver
proved (``bounded``) when they say something about the play, and is otherwise
``estimated``: every move is valued by PIMC's cheaper evaluation on the true
deal (the ``heuristic`` player plays on until 16 cards are left, then the
endgame is solved exactly).  Once two plays in a row have not finished, the
earlier (larger) ones are estimated without trying.

**From the player's seat**: the expectimax over what the seat could not see.
The unseen cards are dealt to the other seats by the one sampler
(:mod:`scopone.players.sampling`), every consistent deal when they are few
enough, else ``samples`` of them, and every legal move is valued on the same
deals with PIMC's evaluation (exact from 16 cards left).  A move's expected
value is its mean; its interval, and the interval of the loss, come from the
per-deal values (Student's t over the sampled deals; none when enumerated).

A play is classed by the seat's view only, by the loss it surely has: the
exact loss when the deals are enumerated, else the low end of the loss's 95%
interval, so the luck of the sampled deals never makes a mistake of a play.
A play that loses only with all hands seen is marked unlucky, never a mistake.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import asdict, dataclass, field
from typing import Callable

from ..formats import GameRecord
from ..observation import observe
from ..players.match import t_quantile_975
from ..players.pimc import Pimc
from ..players.sampling import consistent_deals, deal_count
from ..position import Move, Position
from ..reasons import differences
from ..solver import make_backend
from ..solver.driver import best_line, solve_with
from ..solver.reference import INF

#: The classes of a play, by the seat's-view loss in points (upper bounds, exclusive).
CLASSES = (("best", 1e-9), ("good", 0.25), ("inaccuracy", 0.5), ("mistake", 1.0), ("blunder", float("inf")))


def classify(loss: float) -> str:
    """The class of a play that loses ``loss`` points in expectation from the seat's view.

    >>> [classify(x) for x in (0, 0.1, 0.3, 0.7, 2)]
    ['best', 'good', 'inaccuracy', 'mistake', 'blunder']
    """
    for name, bound in CLASSES:
        if loss < bound:
            return name
    return "blunder"


@dataclass
class CoachSettings:
    """How deep and how wide the analysis looks."""

    samples: int = 32        # deals of the hidden cards per play (seat's view)
    seed: int = 1            # of the sampled deals
    budget: float = 5.0      # seconds of exact search per play (all hands seen)
    enumerate: int = 2000    # enumerate the consistent deals when at most this many (and small)
    exact: int = 16          # cards left from which a deal is solved exactly (PIMC's evaluation)
    memory: int = 512        # MB for the all-hands solver's table


@dataclass
class PlayRow:
    """One play and what it cost.  Values are points of team A minus team B;
    losses are in points for the player's team (0 = a best move)."""

    index: int
    seat: int
    move: str
    cards_left: int
    legal: int
    # all hands seen
    dd_kind: str = "exact"            # exact | bounded | estimated | forced
    dd_value: float | None = None     # of the position before the play
    dd_after: float | None = None     # after the play made
    dd_loss: float | None = None      # proven (exact), the lower bound (bounded) or estimated
    dd_loss_upper: float | None = None
    dd_best: list[str] = field(default_factory=list)
    # from the seat
    sv_kind: str = "sampled"          # sampled | enumerated | forced
    sv_deals: int = 0
    sv_moves: list[dict] = field(default_factory=list)  # {move, mean, low, high}
    sv_loss: float = 0.0
    sv_loss_interval: list[float] | None = None
    sv_best: list[str] = field(default_factory=list)
    cls: str = "best"
    unlucky: bool = False
    reasons: list[str] = field(default_factory=list)


@dataclass
class Analysis:
    """The analysis of one deal: a row per play and a summary per seat."""

    plays: list[PlayRow]
    settings: CoachSettings
    seconds: float = 0.0

    def summary(self) -> dict:
        """Per seat: points lost in each view, plays per class, unlucky plays and accuracy.

        Accuracy is the share of a seat's plays with a choice (more than one legal
        move) classed best or good, in percent."""
        out = {}
        for seat in range(4):
            rows = [r for r in self.plays if r.seat == seat]
            chosen = [r for r in rows if r.legal > 1]
            counts = {name: sum(r.cls == name for r in chosen) for name, _ in CLASSES}
            out[str(seat)] = {
                "plays": len(rows),
                "lost_seat_view": round(sum(r.sv_loss for r in rows), 3),
                "lost_all_hands": round(sum(r.dd_loss or 0 for r in rows), 3),
                "classes": counts,
                "unlucky": sum(r.unlucky for r in rows),
                "accuracy": round(100 * (counts["best"] + counts["good"]) / len(chosen), 1) if chosen else 100.0,
            }
        kinds = [r.dd_kind for r in self.plays]
        out["all_hands_rows"] = {k: kinds.count(k) for k in ("exact", "bounded", "estimated", "forced")}
        return out

    def as_dict(self) -> dict:
        return {"plays": [asdict(r) for r in self.plays], "summary": self.summary(),
                "settings": asdict(self.settings), "seconds": round(self.seconds, 1)}


# ---------------------------------------------------------------- the all-hands view
def _final(pos: Position, line: list[Move]) -> Position:
    end = pos.copy()
    for m in line:
        end.push(m)
    return end


class _AllHands:
    """The double-dummy view, one solver kept across plays (analysed last to first)."""

    def __init__(self, start: Position, settings: CoachSettings, evaluator: Pimc):
        self.settings = settings
        self.backend = make_backend(start, "auto", memory_mb=settings.memory)
        self.evaluator = evaluator
        self.failures = 0

    def analyse(self, pos: Position, row: PlayRow, played: Move) -> None:
        maximise = pos.to_move % 2 == 0
        sign = 1 if maximise else -1
        result = None
        if self.failures < 2:
            self.backend.deadline = time.monotonic() + self.settings.budget
            try:
                result = solve_with(self.backend, pos, "all", line=False)
            finally:
                self.backend.deadline = None
            self.failures = 0 if result.complete else self.failures + 1
        if result is not None and result.complete:
            values = {mv.move: mv.value for mv in result.moves}
            row.dd_kind, row.dd_value = "exact", result.value
            row.dd_after = values[played]
            row.dd_loss = row.dd_loss_upper = sign * (result.value - values[played])
            row.dd_best = [m.text() for m, v in values.items() if v == result.value]
            if row.dd_loss > 0:
                best = next(m for m, v in values.items() if v == result.value)
                best_end = _final(pos, best_line(self.backend, pos, result.value, best)[0])
                played_end = _final(pos, best_line(self.backend, pos, values[played], played)[0])
                row.reasons = differences(best_end, played_end, pos.to_move & 1)
            return
        bounds = {mv.move: (mv.lower, mv.upper) for mv in result.moves} if result is not None else {}
        lo, up = bounds.get(played, (-INF, INF))
        if result is not None and -INF < lo and up < INF and -INF < result.lower and result.upper < INF:
            # what the proven bounds say: the loss lies in [best_low - played_high, best_high - played_low]
            best_lo, best_up = (result.lower, result.upper) if maximise else (-result.upper, -result.lower)
            p_lo, p_up = (lo, up) if maximise else (-up, -lo)
            row.dd_kind = "bounded"
            row.dd_loss, row.dd_loss_upper = max(0, best_lo - p_up), max(0, best_up - p_lo)
            return
        self.estimate(pos, row, played)

    def estimate(self, pos: Position, row: PlayRow, played: Move) -> None:
        """Every move valued by the evaluator on the true deal (rollout, then exact)."""
        sign = 1 if pos.to_move % 2 == 0 else -1
        values = {}
        for m in pos.legal_moves():
            pos.push(m)
            values[m] = self.evaluator.value(pos, random.Random(0))
            pos.pop()
        best = max(values.values(), key=lambda v: sign * v)
        row.dd_kind, row.dd_value, row.dd_after = "estimated", best, values[played]
        row.dd_loss = row.dd_loss_upper = sign * (best - values[played])
        row.dd_best = [m.text() for m, v in values.items() if v == best]
        if row.dd_loss > 0:
            ends = []
            for m in (next(m for m, v in values.items() if v == best), played):
                pos.push(m)
                ends.append(self.evaluator.final_position(pos, random.Random(0)))
                pos.pop()
            row.reasons = differences(ends[0], ends[1], pos.to_move & 1)


# ---------------------------------------------------------------- the seat's view
def seat_view(pos: Position, seat: int, history: tuple, row: PlayRow, played: Move, settings: CoachSettings,
              evaluator: Pimc, rng: random.Random) -> None:
    """Fill ``row``'s seat's-view fields for ``played`` by ``seat`` in ``pos``
    (``history``: the plays before, as ``(seat, move)``)."""
    obs = observe(pos, seat, history)
    moves = obs.legal_moves()
    small = pos.cards_left() - 1 <= 12 and deal_count(obs) <= settings.enumerate
    worlds = consistent_deals(obs, max(settings.samples, settings.enumerate) if small else settings.samples, rng)
    rows = evaluator.deal_values(obs, moves, worlds.hands, rng)
    sign = 1 if seat % 2 == 0 else -1
    n = len(rows)
    t = t_quantile_975(n - 1) if n > 1 and not worlds.exact else 0.0
    means = [statistics.fmean(col) for col in zip(*rows)]
    row.sv_kind, row.sv_deals = ("enumerated" if worlds.exact else "sampled"), n
    for m, col, mean in zip(moves, zip(*rows), means):
        half = t * statistics.stdev(col) / n ** 0.5 if t else 0.0
        row.sv_moves.append({"move": m.text(), "mean": round(mean, 3), "low": round(mean - half, 3),
                             "high": round(mean + half, 3)})
    best = max(range(len(moves)), key=lambda i: sign * means[i])
    k = moves.index(played)
    row.sv_loss = max(0.0, sign * (means[best] - means[k]))
    row.sv_best = [m.text() for m, v in zip(moves, means) if abs(v - means[best]) < 1e-9]
    if t and k != best:
        diffs = [sign * (r[best] - r[k]) for r in rows]
        half = t * statistics.stdev(diffs) / n ** 0.5
        row.sv_loss_interval = [round(row.sv_loss - half, 3), round(row.sv_loss + half, 3)]


# ---------------------------------------------------------------- the deal
def analyse_game(record: GameRecord, settings: CoachSettings | None = None, source: str = "",
                 on_progress: Callable[[str, int, int], None] | None = None) -> Analysis:
    """Analyse every play of ``record`` (see the module docs).

    ``on_progress(phase, done, total)`` is called after each play of each view.
    """
    settings = settings or CoachSettings()
    t0 = time.perf_counter()
    end = record.replay(source)
    start = record.start
    moves = end.move_stack
    positions, seats = [], []
    pos = start.copy()
    for m in moves:
        positions.append(pos.copy())
        seats.append(pos.to_move)
        pos.push(m)
    rows = [PlayRow(i, seats[i], m.text(), positions[i].cards_left(), len(positions[i].legal_moves()))
            for i, m in enumerate(moves)]
    evaluator = Pimc(samples=settings.samples, exact=settings.exact, rollout="heuristic")
    history: list = []
    for i, (p, m) in enumerate(zip(positions, moves)):
        rng = random.Random(f"scopone-coach:{settings.seed}:{i}")
        if rows[i].legal == 1:
            rows[i].sv_kind = "forced"
        else:
            seat_view(p, seats[i], tuple(history), rows[i], m, settings, evaluator, rng)
        history.append((seats[i], m))
        if on_progress:
            on_progress("seat's view", i + 1, len(moves))
    dd = _AllHands(start, settings, evaluator)
    for n, i in enumerate(reversed(range(len(moves)))):
        if rows[i].legal == 1:
            rows[i].dd_kind, rows[i].dd_loss, rows[i].dd_loss_upper = "forced", 0, 0
        else:
            dd.analyse(positions[i], rows[i], moves[i])
        if on_progress:
            on_progress("all hands", n + 1, len(moves))
    for r in rows:
        # sampled: class by the low end of the loss's interval, so the luck of the
        # sampled deals never makes a mistake of a play (more --samples sharpen it)
        sure = max(0.0, r.sv_loss_interval[0]) if r.sv_loss_interval else r.sv_loss
        r.cls = classify(sure) if r.legal > 1 else "best"
        if r.cls == "best" and r.move not in r.sv_best:
            r.cls = "good"  # not surely worse, but not the best by the sampled deals either
        # unlucky: a reasonable play that loses with all hands seen, by a proven loss
        r.unlucky = r.dd_kind in ("exact", "bounded") and (r.dd_loss or 0) > 0 and r.cls in ("best", "good")
        if r.cls in ("best", "good"):
            r.reasons = []  # a reasonable play is not blamed for what hindsight shows
    return Analysis(rows, settings, time.perf_counter() - t0)


def mistake_puzzles(record: GameRecord, analysis: Analysis, source: str = "") -> list[dict]:
    """"Learn from your mistakes": the plays classed mistake or blunder that the
    exact search reached, each made a puzzle (format ``scopone-puzzles/1``) when it
    has a unique best answer by a point, with the play made as the tempting move."""
    from ..puzzles import Candidate, Rejected, analyse

    out = []
    pos = record.start.copy()
    for row, move in zip(analysis.plays, record.replay(source).move_stack):
        if row.cls in ("mistake", "blunder") and row.dd_kind == "exact" and row.legal >= 3:
            cand = Candidate(pos.copy(), {"game": source, "play": row.index, "seat": row.seat, "played": row.move})
            try:
                out.append(analyse(cand, tempting=move))
            except Rejected:
                pass
        pos.push(move)
    return out
