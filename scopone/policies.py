"""Simple playing policies, used to play deals forward and as puzzle foils.

``greedy`` is the plain greedy player the puzzle generator measures against.
It looks only at the play itself:

* a capture is worth ``10`` for a scopa, ``+5`` for the settebello,
  ``+2`` per Denari card and ``+1`` per card taken (the played card included),
  plus the primiera value of the best card taken divided by 10;
* laying a card down is worth minus its "cost": ``5`` for the settebello,
  ``1`` for any Denari, plus its primiera value divided by 10 (so it lays
  low-primiera, non-Denari cards first), and ``-3`` more if the table left
  behind could be swept by a single card (its sum is at most 10);
* the highest-scoring play wins; ties go to the first in canonical move order.

>>> from scopone.position import Position
>>> pos = Position.from_line("7D7C/1B/2B/3B 3C4S - - 0-0 0 - scientifico", check=False)
>>> greedy_move(pos).text()
'7Dx3C+4S'
"""

from __future__ import annotations

import random
from typing import Callable

from .cards import DENARI_MASK, PRIMIERA_VALUE, SETTEBELLO, iter_cards, mask_value
from .position import Move, Position

Policy = Callable[[Position, random.Random], Move]


def greedy_score(pos: Position, move: Move) -> float:
    """The greedy player's one-ply score of a move (see module docs)."""
    card, captured = move.card, move.captured
    if captured:
        taken = captured | 1 << card
        s = taken.bit_count() + 2 * (taken & DENARI_MASK).bit_count()
        if taken >> SETTEBELLO & 1:
            s += 5
        s += max(PRIMIERA_VALUE[(c >> 2) + 1] for c in iter_cards(taken)) / 10
        if captured == pos.table and pos.cards_left() > 1:
            s += 10
        return s
    cost = PRIMIERA_VALUE[(card >> 2) + 1] / 10
    if DENARI_MASK >> card & 1:
        cost += 1
    if card == SETTEBELLO:
        cost += 5
    if mask_value(pos.table | 1 << card) <= 10:
        cost += 3
    return -cost


def greedy_move(pos: Position, rng: random.Random | None = None) -> Move:
    """The greedy player's move (deterministic; ``rng`` is ignored)."""
    moves = pos.legal_moves()
    return max(moves, key=lambda m: (greedy_score(pos, m), -moves.index(m)))


def random_move(pos: Position, rng: random.Random | None = None) -> Move:
    """A uniformly random legal move."""
    rng = rng or random.Random()
    return rng.choice(pos.legal_moves())


POLICIES: dict[str, Policy] = {"greedy": greedy_move, "random": random_move}


def get_policy(name: str) -> Policy:
    """Look up a policy by name (``greedy`` or ``random``)."""
    try:
        return POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown policy {name!r}: choose {', '.join(POLICIES)}") from None
