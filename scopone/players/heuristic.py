"""Classic Scopone play as a one-ply evaluation with explicit rules.

Every legal move gets a score in points (a scopa is 1.0) and the best score
wins (ties: canonical move order).  Each rule is one term, tested on its own
hand-made position in ``tests/test_players.py``:

1. **Take value**: a capture earns the value of the cards taken (played card
   included): carte, Denari, the settebello, the primiera cards (7s, 6s, Aces),
   and a scopa.
2. **Never leave a sweep when avoidable**: minus the next opponent's expected
   best capture from the table left behind, a sweep counting as a scopa;
3. **count what is gone**: those chances come from the cards of each rank the
   seat cannot see (a rank whose other cards are all played or in one's own
   hand is safe to lay, and a table whose sweep needs such a rank is safe).
4. **Keep the settebello safe**: laying a card costs a share of its value
   (the settebello most), on top of the risk that it is taken.
5. **Play to the partner's captures**: plus a share of the partner's expected
   capture from the table left behind, when the opponent in between is unlikely
   to take it first.
6. **Spariglio and accoppiare**: the team of the seat that led the deal (mano)
   gains from breaking rank pairs by sum captures, the other team from keeping
   them (each rank left with an odd number of unplayed cards counts).

>>> from scopone.position import Position
>>> from scopone.observation import observe
>>> pos = Position.from_line("7D7C/1B/2B/3B 3C4S - - 0-0 0 - scientifico", check=False)
>>> Heuristic().choose(observe(pos), random.Random(1)).text()
'7Dx3C+4S'
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from math import comb

from ..captures import capture_table
from ..cards import DENARI_MASK, FULL_DECK, RANK_MASK, RE_BELLO, SETTEBELLO, CardMask, iter_cards
from ..observation import Observation
from ..position import Move, mano_seat
from ..rules import Rules

#: Primiera worth of a card by rank, in points (the 7s decide the primiera).
_PRIMIERA_SHARE = {7: 0.25, 6: 0.12, 1: 0.06, 5: 0.03}


@dataclass(frozen=True)
class Weights:
    """The rule weights, in points (one scopa = 1.0).

    Tuned by paired-deal matches of variants against each other (600 pairs,
    seeds apart from the benchmark's): the risk of the opponent's reply weighs
    double (it also stands for the replies after it), and breaking or keeping
    pairs by the mano rule is worth about a third of a point per deal.
    """

    card: float = 0.04        # rule 1: each card toward the carte
    denaro: float = 0.14      # rule 1: each Denari card toward the denari
    settebello: float = 1.0   # rule 1: the settebello
    scopa: float = 1.0        # rules 1, 2: a sweep
    risk: float = 2.0         # rule 2: weight of the next opponent's expected capture
    lay: float = 0.15         # rule 4: share of a laid card's value
    partner: float = 0.2      # rule 5: share of the partner's expected capture
    spariglio: float = 0.15   # rule 6: per rank whose parity changes in the team's favour


def card_values(rules: Rules, w: Weights) -> tuple[float, ...]:
    """The value of capturing each card (rule 1), indexed by card."""
    out = []
    for c in range(40):
        v = w.card + _PRIMIERA_SHARE.get((c >> 2) + 1, 0.0)
        if DENARI_MASK >> c & 1:
            v += w.denaro
        if c == SETTEBELLO:
            v += w.settebello
        if c == RE_BELLO and rules.re_bello:
            v += 1.0
        out.append(v)
    return tuple(out)


class Heuristic:
    """The rule-based player (see the module docs)."""

    cheats = False

    def __init__(self, weights: Weights | None = None):
        self.weights = weights or Weights()
        self.name = "heuristic"
        self._values: dict[Rules, tuple[float, ...]] = {}
        self._takes: dict[tuple, tuple[float, ...]] = {}  # the table's captures per rank, by table

    def choose(self, obs: Observation, rng: random.Random) -> Move:
        moves = obs.legal_moves()
        if len(moves) == 1:
            return moves[0]
        scores = self.scores(obs, moves)
        best = max(range(len(moves)), key=lambda i: (scores[i], -i))
        return moves[best]

    def scores(self, obs: Observation, moves: list[Move] | None = None) -> list[float]:
        """Each move's score (rules 1-6 added up), in the order of ``moves``."""
        moves = obs.legal_moves() if moves is None else moves
        return [sum(t) for t in self.terms(obs, moves)]

    def terms(self, obs: Observation, moves: list[Move]) -> list[tuple[float, float, float, float, float]]:
        """Per move: (take, risk, lay, partner, spariglio), the terms of the score."""
        w = self.weights
        rules = obs.rules
        values = self._values.get(rules)
        if values is None:
            values = self._values[rules] = card_values(rules, w)
        ct = capture_table(rules)
        seat = obs.seat
        left_after = obs.cards_left() - 1
        unseen = obs.unseen
        n_unseen = unseen.bit_count()
        rank_left = [0] + [(unseen & RANK_MASK[r]).bit_count() for r in range(1, 11)]
        # average value of an unseen card of each rank: what a capturing card adds
        rank_value = [0.0] + [
            (sum(values[c] for c in iter_cards(unseen & RANK_MASK[r])) / rank_left[r]) if rank_left[r] else 0.0
            for r in range(1, 11)]
        opp = (seat + 1) & 3
        partner = (seat + 2) & 3
        p_opp = _holding_chances(rank_left, n_unseen, obs.hand_sizes[opp])
        p_partner = _holding_chances(rank_left, n_unseen, obs.hand_sizes[partner])
        p_partner = [p * (1 - q) for p, q in zip(p_partner, p_opp)]
        sign = 1 if mano_seat(rules, obs.to_move, obs.cards_left()) & 1 == obs.team else -1
        unplayed = FULL_DECK & ~(obs.piles[0] | obs.piles[1])
        out = []
        for m in moves:
            card, captured = m.card, m.captured
            if captured:
                table = obs.table & ~captured
                take = sum(values[c] for c in iter_cards(captured)) + values[card]
                if not table and left_after > 0 and ct.counts_as_scopa(card, captured):
                    take += w.scopa
                lay = 0.0
                spar = sign * w.spariglio * _parity_change(unplayed, captured | 1 << card)
            else:
                table = obs.table | 1 << card
                take = 0.0
                lay = -w.lay * values[card]
                spar = 0.0
            risk = partner_gain = 0.0
            if table and left_after > 0:
                key = (rules, table, left_after > 1)
                takes = self._takes.get(key)
                if takes is None:
                    if len(self._takes) > 100_000:
                        self._takes.clear()
                    takes = self._takes[key] = _table_takes(ct, table, values, w.scopa, left_after > 1)
                gains = [t + rank_value[r] if t >= 0 else 0.0 for r, t in enumerate(takes)]
                risk = -w.risk * _expected_best(gains, p_opp)
                if left_after > 2:
                    partner_gain = w.partner * _expected_best(gains, p_partner)
            out.append((take, risk, lay, partner_gain, spar))
        return out


def _holding_chances(rank_left: list[int], n_unseen: int, hand: int) -> list[float]:
    """For each rank, the chance that a seat holding ``hand`` of the ``n_unseen``
    unseen cards (dealt at random) has at least one of that rank."""
    if hand <= 0 or n_unseen <= 0:
        return [0.0] * 11
    none = comb(n_unseen, hand)
    return [0.0] + [1 - comb(n_unseen - k, hand) / none if k else 0.0 for k in rank_left[1:]]


def _table_takes(ct, table: CardMask, values, scopa: float, scopa_counts: bool) -> tuple[float, ...]:
    """For each rank, the value of the best set of table cards a card of that rank
    captures from ``table`` (a sweep counting as a scopa), or -1 when it captures nothing."""
    takes = [-1.0] * 11
    for r in range(1, 11):
        if not ct.fitting_patterns(r, table):  # cached by rank counts: skips most ranks cheaply
            continue
        for opt in ct.options(r, table):
            v = sum(values[c] for c in iter_cards(opt))
            if opt == table and scopa_counts and ct.sweep_scopa[r - 1]:
                v += scopa
            if v > takes[r]:
                takes[r] = v
    return tuple(takes)


def _expected_best(gains: list[float], chances: list[float]) -> float:
    """Expected value of the best capture a seat can make, its ranks held independently."""
    total, miss = 0.0, 1.0
    for g, p in sorted(((gains[r], chances[r]) for r in range(1, 11) if gains[r] > 0 and chances[r] > 0),
                       reverse=True):
        total += g * p * miss
        miss *= 1 - p
    return total


def _parity_change(unplayed: CardMask, removed: CardMask) -> int:
    """How many more ranks have an odd number of unplayed cards after ``removed`` go to a pile."""
    change = 0
    for r in range(1, 11):
        k = (removed & RANK_MASK[r]).bit_count()
        if k & 1:
            change += 1 if (unplayed & RANK_MASK[r]).bit_count() % 2 == 0 else -1
    return change
