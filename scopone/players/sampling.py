"""Deals of the hidden cards consistent with an observation: the one sampler.

The seat's own hand is known; the unseen cards (:attr:`Observation.unseen`)
are dealt to the other three seats in any way that gives each the number of
cards it holds.  No further inference is made (a player may always play a
card that does not capture, so a lay-down says nothing sure about a hand):
every consistent deal is equally likely.  The PIMC player, the coach's seat
view and seat's-view puzzles all take their worlds from here.

>>> from scopone.deal import deal
>>> from scopone.observation import observe
>>> obs = observe(deal(seed=3, cards_per_hand=2), 0)
>>> deal_count(obs)
90
>>> worlds = consistent_deals(obs, 200, random.Random(1))
>>> worlds.exact, len(worlds.hands)
(True, 90)
>>> all(h[0] == obs.hand for h in worlds.hands)
True
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from math import comb
from typing import Iterator

from ..cards import CardMask, cards_of
from ..observation import Observation

Hands = tuple[CardMask, CardMask, CardMask, CardMask]


def _others(obs: Observation) -> list[int]:
    return [s for s in range(4) if s != obs.seat]


def _check(obs: Observation) -> list[int]:
    others = _others(obs)
    need = sum(obs.hand_sizes[s] for s in others)
    have = obs.unseen.bit_count()
    if need != have or obs.hand.bit_count() != obs.hand_sizes[obs.seat]:
        raise ValueError(f"observation of seat {obs.seat} is inconsistent: {have} unseen cards "
                         f"for {need} places in the other hands")
    return others


def deal_count(obs: Observation) -> int:
    """How many deals of the unseen cards are consistent with ``obs`` (a multinomial)."""
    others = _check(obs)
    left, n = obs.unseen.bit_count(), 1
    for s in others:
        n *= comb(left, obs.hand_sizes[s])
        left -= obs.hand_sizes[s]
    return n


def iter_deals(obs: Observation) -> Iterator[Hands]:
    """Every consistent deal, as the four hands (``hands[obs.seat]`` is the seat's own)."""
    others = _check(obs)
    a, b, c = others
    cards = cards_of(obs.unseen)
    hands = [0, 0, 0, 0]
    hands[obs.seat] = obs.hand
    for first in itertools.combinations(cards, obs.hand_sizes[a]):
        ma = sum(1 << x for x in first)
        rest = [x for x in cards if not ma >> x & 1]
        for second in itertools.combinations(rest, obs.hand_sizes[b]):
            mb = sum(1 << x for x in second)
            hands[a], hands[b], hands[c] = ma, mb, obs.unseen & ~ma & ~mb
            yield tuple(hands)  # type: ignore[misc]


def sample_deal(obs: Observation, rng: random.Random) -> Hands:
    """One consistent deal drawn uniformly at random."""
    others = _check(obs)
    cards = cards_of(obs.unseen)
    rng.shuffle(cards)
    hands = [0, 0, 0, 0]
    hands[obs.seat] = obs.hand
    i = 0
    for s in others:
        k = obs.hand_sizes[s]
        hands[s] = sum(1 << x for x in cards[i:i + k])
        i += k
    return tuple(hands)  # type: ignore[return-value]


@dataclass(frozen=True)
class Worlds:
    """Deals to average over: every consistent deal (``exact``) or a uniform sample."""

    hands: tuple[Hands, ...]
    exact: bool


def consistent_deals(obs: Observation, samples: int, rng: random.Random) -> Worlds:
    """All consistent deals when there are at most ``samples`` of them, else
    ``samples`` deals drawn uniformly (independently, with replacement)."""
    if deal_count(obs) <= samples:
        return Worlds(tuple(iter_deals(obs)), True)
    return Worlds(tuple(sample_deal(obs, rng) for _ in range(samples)), False)
