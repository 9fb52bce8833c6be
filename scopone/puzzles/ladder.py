"""The difficulty ladder: players of increasing strength, weakest first.

A puzzle's rating is the rung of the weakest player that plays every solving
move of the solution line (the defenders' replies are given).  The rungs:

1. ``random``: a uniformly random legal move; it counts as finding a line
   when chance play finds it at least half the time (the product of
   1 / legal moves over the solving moves is at least 1/2), which a puzzle
   (three or more legal moves) never allows: it anchors the bottom of the scale;
2. ``greedy``: the one-ply greedy player of :mod:`scopone.players.basic`;
3. ``cautious``: greedy, minus what the next opponent can take at once
   (it looks one reply ahead, with the greedy scores);
4. ``search-2``, ``search-4``, ``search-6``: alpha-beta to 2, 4 and 6 plies
   with a static evaluation at the horizon (points already certain plus a
   weighting of cards, Denari, primiera cards and the settebello still to be
   counted), exact where the deal ends within the horizon;
5. ``solver``: the exact solver (always finds it).

>>> [r.name for r in LADDER][:3]
['random', 'greedy', 'cautious']
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass
from typing import Callable

from ..cards import DENARI_MASK, PRIMIERA_VALUE, SETTEBELLO, iter_cards
from ..players import greedy_choice, greedy_score
from ..position import Move, Position
from ..scoring import primiera_by_suit


def evaluate(pos: Position) -> float:
    """Static evaluation for team A: the score so far plus soft material terms."""
    if pos.is_over():
        return float(pos.score().value)
    a, b = pos.piles
    v = float(pos.scope[0] - pos.scope[1])
    v += 0.05 * (a.bit_count() - b.bit_count())
    v += 0.12 * ((a & DENARI_MASK).bit_count() - (b & DENARI_MASK).bit_count())
    if a >> SETTEBELLO & 1:
        v += 1
    elif b >> SETTEBELLO & 1:
        v -= 1
    v += 0.01 * (sum(primiera_by_suit(a)) - sum(primiera_by_suit(b)))
    # a table that the side to move can sweep is worth about a scopa to it
    if pos.table and any(m.captured == pos.table for m in pos.legal_moves()):
        v += 0.8 if pos.to_move % 2 == 0 else -0.8
    return v


def _alphabeta(pos: Position, depth: int, alpha: float, beta: float) -> float:
    if depth == 0 or pos.is_over():
        return evaluate(pos)
    maximise = pos.to_move % 2 == 0
    best = -1e9 if maximise else 1e9
    for m in pos.legal_move_ints():
        pos.push(m)
        v = _alphabeta(pos, depth - 1, alpha, beta)
        pos.pop()
        if maximise:
            best = max(best, v)
            alpha = max(alpha, v)
        else:
            best = min(best, v)
            beta = min(beta, v)
        if alpha >= beta:
            break
    return best


def search_move(pos: Position, depth: int) -> Move:
    """The move a ``depth``-ply alpha-beta player chooses (first in canonical order on ties)."""
    maximise = pos.to_move % 2 == 0
    best, best_v = None, None
    work = pos.copy()
    for m in work.legal_moves():
        work.push(m)
        v = _alphabeta(work, depth - 1, -1e9, 1e9)
        work.pop()
        if best_v is None or (v > best_v + 1e-9 if maximise else v < best_v - 1e-9):
            best, best_v = m, v
    assert best is not None
    return best


def cautious_move(pos: Position) -> Move:
    """Greedy, minus the best greedy score the next opponent then has."""
    work = pos.copy()
    best, best_v = None, None
    for m in work.legal_moves():
        v = greedy_score(work.table, work.cards_left(), m)
        work.push(m)
        if not work.is_over():
            v -= max(greedy_score(work.table, work.cards_left(), r) for r in work.legal_moves())
        work.pop()
        if best_v is None or v > best_v + 1e-9:
            best, best_v = m, v
    assert best is not None
    return best


def random_rung_move(pos: Position) -> Move:
    """A random move (seeded by the position, for reproducible play)."""
    rng = random.Random(zlib.crc32(pos.line().encode()))
    return rng.choice(pos.legal_moves())


def random_finds(start: Position, line: list[Move]) -> bool:
    """Whether random play finds the solving moves of ``line`` with probability >= 1/2."""
    pos = start.copy()
    p = 1.0
    for i, m in enumerate(line):
        if i % 2 == 0:
            p /= len(pos.legal_moves())
        pos.push(m)
    return p >= 0.5


@dataclass(frozen=True)
class Rung:
    """One player of the ladder."""

    name: str
    level: int
    label: str
    choose: Callable[[Position], Move]
    #: whether it finds a whole line; None means "plays every solving move with choose"
    finds_line: Callable[[Position, list[Move]], bool] | None = None


LADDER: tuple[Rung, ...] = (
    Rung("random", 1, "beginner", random_rung_move, random_finds),
    Rung("greedy", 2, "easy", lambda p: greedy_choice(p.table, p.cards_left(), p.legal_moves())),
    Rung("cautious", 3, "intermediate", cautious_move),
    Rung("search-2", 4, "advanced", lambda p: search_move(p, 2)),
    Rung("search-4", 5, "hard", lambda p: search_move(p, 4)),
    Rung("search-6", 6, "expert", lambda p: search_move(p, 6)),
)
#: The rating of a puzzle that only the exact solver solves.
TOP = Rung("solver", 7, "master", lambda p: p.legal_moves()[0])


def finds(rung: Rung, start: Position, line: list[Move]) -> bool:
    """Whether ``rung`` plays every solving move of ``line`` (even plies) from ``start``."""
    if rung.finds_line is not None:
        return rung.finds_line(start, line)
    pos = start.copy()
    for i, m in enumerate(line):
        if i % 2 == 0 and rung.choose(pos) != m:
            return False
        pos.push(m)
    return True


def rate(start: Position, line: list[Move]) -> Rung:
    """The weakest rung that finds the whole solution line."""
    for rung in LADDER:
        if finds(rung, start, line):
            return rung
    return TOP


# ---------------------------------------------------------------- the seat's view
#: Players that see only the seat's observation (no other hand), weakest first: the
#: seat's-view difficulty of a puzzle is the first of them that plays its answer.
#: PIMC's budget is its number of sampled deals (exact solves at these sizes).
SEAT_LADDER: tuple[str, ...] = ("greedy", "heuristic", "pimc:samples=4", "pimc:samples=16", "pimc:samples=64")


def rate_seat(start: Position, answer: Move) -> dict:
    """How strong a player must be to find ``answer`` from the seat's view:
    ``{"level": 1..6, "solved_by": spec}``, level i for the i-th player of
    :data:`SEAT_LADDER` (seeded by the position, so the rating is reproducible),
    6 with ``solved_by`` ``None`` when none of them plays it.
    """
    from ..observation import observe
    from ..players import make_player

    obs = observe(start, history=())
    for level, spec in enumerate(SEAT_LADDER, 1):
        rng = random.Random(zlib.crc32(f"{spec}:{start.line()}".encode()))
        if make_player(spec).choose(obs, rng) == answer:
            return {"level": level, "solved_by": spec}
    return {"level": len(SEAT_LADDER) + 1, "solved_by": None}
