"""Random deals and playing them forward to reproducible endgames.

>>> pos = deal(seed=7)
>>> [h.bit_count() for h in pos.hands], pos.table
([10, 10, 10, 10], 0)
>>> deal(seed=7).line() == pos.line()
True
>>> end = deal(seed=7, cards_per_hand=3)
>>> [h.bit_count() for h in end.hands]
[3, 3, 3, 3]
"""

from __future__ import annotations

import random

from .errors import ScoponeError
from .position import Position
from .rules import Rules


def deal(seed: int | None = None, rules: Rules | None = None, *, first: int = 0,
         cards_per_hand: int | None = None, policy: str = "greedy") -> Position:
    """A random deal for ``rules`` from ``seed``, optionally played forward.

    With ``cards_per_hand`` the deal is played with ``policy`` (``greedy`` or
    ``random``, seeded from the same ``seed``) until every hand holds that many
    cards, which is how reproducible endgames are made.
    """
    rules = rules or Rules()
    rng = random.Random(seed)
    cards = list(range(40))
    rng.shuffle(cards)
    per_hand = 10 if rules.deal == "scientifico" else 9
    hands = [0, 0, 0, 0]
    for i in range(4 * per_hand):
        hands[(first + i) % 4] |= 1 << cards[i]
    table = 0
    for c in cards[4 * per_hand:]:
        table |= 1 << c
    pos = Position(hands, table, to_move=first, rules=rules)
    if cards_per_hand is not None:
        if not 0 <= cards_per_hand <= per_hand:
            raise ScoponeError(f"cards-per-hand must be 0..{per_hand} for {rules.deal}, not {cards_per_hand}")
        from .players import make_player
        from .players.base import play_to

        pos = play_to(pos, make_player(policy), rng, 4 * cards_per_hand).copy()  # forget the move stack: the endgame is the new start
    return pos
