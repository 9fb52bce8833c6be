"""The player interface: an :class:`~scopone.observation.Observation` in, a legal move out.

A player never sees a :class:`~scopone.position.Position` with the other hands
in it (the double-dummy calibration player is the one declared exception:
``cheats = True``, and the match output marks it).  Players are reproducible:
every random choice comes from the ``rng`` they are given.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from ..observation import Observation, observe
from ..position import Move, Position


@runtime_checkable
class Player(Protocol):
    """Anything that chooses a move from what one seat can know.

    ``name`` is the spec that makes it again (``pimc:samples=40``); ``cheats``
    is True only for a player that reads ``obs.full`` (all hands).
    """

    name: str
    cheats: bool

    def choose(self, obs: Observation, rng: random.Random) -> Move:
        """A legal move for ``obs.seat``, which is to move."""
        ...  # pragma: no cover


def play_to(pos: Position, player: Player, rng: random.Random, cards_left: int) -> Position:
    """Push ``player``'s moves for every seat on ``pos`` until at most
    ``cards_left`` cards are in the hands; returns ``pos``.

    Each seat plays from its own observation of ``pos`` (a cheating player gets
    the whole position).  The history is left out: the players here do not
    read it, and playing forward is a hot path (PIMC rollouts).

    >>> from scopone.deal import deal
    >>> from scopone.players import make_player
    >>> play_to(deal(seed=1), make_player("greedy"), random.Random(1), 8).cards_left()
    8
    """
    while pos.cards_left() > cards_left:
        pos.push(player.choose(observe(pos, history=(), cheat=player.cheats), rng))
    return pos
