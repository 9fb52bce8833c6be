"""The simplest players: ``random`` and the one-ply ``greedy`` rule.

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
>>> from scopone.observation import observe
>>> pos = Position.from_line("7D7C/1B/2B/3B 3C4S - - 0-0 0 - scientifico", check=False)
>>> Greedy().choose(observe(pos), random.Random(1)).text()
'7Dx3C+4S'
"""

from __future__ import annotations

import random

from ..cards import DENARI_MASK, PRIMIERA_VALUE, SETTEBELLO, CardMask, iter_cards, mask_value
from ..observation import Observation
from ..position import Move


def greedy_score(table: CardMask, cards_left: int, move: Move) -> float:
    """The greedy player's one-ply score of ``move`` played onto ``table``
    with ``cards_left`` cards in the hands before the play (see module docs).

    >>> from scopone.cards import parse_cards
    >>> greedy_score(parse_cards("3C 4S"), 8, Move.parse("7Dx3C+4S"))
    22.1
    """
    card, captured = move.card, move.captured
    if captured:
        taken = captured | 1 << card
        s = taken.bit_count() + 2 * (taken & DENARI_MASK).bit_count()
        if taken >> SETTEBELLO & 1:
            s += 5
        s += max(PRIMIERA_VALUE[(c >> 2) + 1] for c in iter_cards(taken)) / 10
        if captured == table and cards_left > 1:
            s += 10
        return s
    cost = PRIMIERA_VALUE[(card >> 2) + 1] / 10
    if DENARI_MASK >> card & 1:
        cost += 1
    if card == SETTEBELLO:
        cost += 5
    if mask_value(table | 1 << card) <= 10:
        cost += 3
    return -cost


def greedy_choice(table: CardMask, cards_left: int, moves: list[Move]) -> Move:
    """The greedy rule over ``moves`` (canonical order breaks ties)."""
    return max(moves, key=lambda m: (greedy_score(table, cards_left, m), -moves.index(m)))


class Greedy:
    """The one-ply greedy rule (deterministic; see the module docs)."""

    name = "greedy"
    cheats = False

    def choose(self, obs: Observation, rng: random.Random) -> Move:
        return greedy_choice(obs.table, obs.cards_left(), obs.legal_moves())


class RandomPlayer:
    """A uniformly random legal move (in canonical move order, from ``rng``).

    >>> from scopone.position import Position
    >>> from scopone.observation import observe
    >>> pos = Position.from_line("7D3C/7C/1B/2B 4S - - 0-0 0 - scientifico", check=False)
    >>> RandomPlayer().choose(observe(pos), random.Random(0)) in pos.legal_moves()
    True
    """

    name = "random"
    cheats = False

    def choose(self, obs: Observation, rng: random.Random) -> Move:
        return rng.choice(obs.legal_moves())
