"""PIMC: expectimax over the hidden hands, each sampled deal searched exactly.

Perfect Information Monte Carlo: deal the unseen cards to the other seats in
ways consistent with the observation (:mod:`scopone.players.sampling`; all of
them when there are at most ``samples``), value every legal move on every deal,
and play the move with the best average.  Every move is valued on the same
deals (common random numbers), so the comparison between moves is not blurred
by the luck of the draw.

How a deal is valued after a move:

* **exact** when at most ``exact`` cards (default 16, four per hand) are left
  in the hands after the move: the double-dummy value from the solver's core
  (one core per player, its transposition table kept across deals and moves);
* **rollout + exact** before that: the deal is played on by the ``rollout``
  player (default ``heuristic``; every seat plays from its own observation of
  that deal) until ``exact`` cards are left, and that endgame is solved
  exactly.  The exact search does not reach earlier positions in time
  (7 cards per hand take seconds per deal), so this is the documented cheaper
  evaluation, and :attr:`Pimc.counts` says how many decisions used each.

Values are points of team A minus team B at the end of the deal, so the
average is the expected final margin; the seat's team maximises its own.

``time`` (seconds, 0 = none) stops drawing deals once spent, after at least
one; with it a decision depends on the machine's speed, so matches that must
be reproducible leave it at 0 and budget by ``samples``.

>>> from scopone.deal import deal
>>> from scopone.observation import observe
>>> player = Pimc(samples=100)
>>> player.choose(observe(deal(seed=3, cards_per_hand=2)), random.Random(1)).text()
'5D'
>>> dict(player.counts)
{'exact': 1}
"""

from __future__ import annotations

import random
import time as _time
from collections import Counter

from ..observation import Observation
from ..position import Move, Position
from ..rules import Rules
from ..solver.reference import INF as _INF
from .base import play_to
from .sampling import Hands, consistent_deals


class Pimc:
    """The PIMC player (see the module docs)."""

    cheats = False

    def __init__(self, samples: int = 64, time: float = 0.0, exact: int = 16, rollout: str = "heuristic",
                 memory: int = 64):
        if samples < 1:
            raise ValueError(f"samples must be at least 1, not {samples}")
        if not 0 <= exact <= 20:
            raise ValueError(f"exact must be 0..20 cards, not {exact}")
        if time < 0:
            raise ValueError(f"time must be at least 0, not {time}")
        self.samples, self.time, self.exact, self.memory = samples, float(time), exact, memory
        from . import make_player  # the rollout player comes from the same registry

        if rollout.split(":")[0] not in ("random", "greedy", "heuristic"):
            raise ValueError(f"rollout player {rollout!r}: choose random, greedy or heuristic "
                             "(a rollout must be fast and must not see the hidden hands)")
        self.rollout = make_player(rollout)
        self.name = f"pimc:samples={samples},time={self.time:g},exact={exact},rollout={rollout}"
        #: decisions by how they were valued: exact, rollout, forced (one legal move)
        self.counts: Counter = Counter()
        self._backends: dict[Rules, object] = {}

    # -------------------------------------------------------------- choosing
    def choose(self, obs: Observation, rng: random.Random) -> Move:
        moves = obs.legal_moves()
        if len(moves) == 1:
            self.counts["forced"] += 1
            return moves[0]
        worlds = self.worlds(obs, rng)
        totals = self.move_totals(obs, moves, worlds, rng)
        sign = 1 if obs.team == 0 else -1
        best = max(range(len(moves)), key=lambda i: (sign * totals[i], -i))
        self.counts["exact" if obs.cards_left() - 1 <= self.exact else "rollout"] += 1
        return moves[best]

    def worlds(self, obs: Observation, rng: random.Random) -> tuple[Hands, ...]:
        """The deals this decision averages over."""
        return consistent_deals(obs, self.samples, rng).hands

    def move_totals(self, obs: Observation, moves: list[Move], worlds, rng: random.Random) -> list[float]:
        """Each move's mean value (team A's margin) over the deals valued within the budget."""
        rows = self.deal_values(obs, moves, worlds, rng)
        return [sum(col) / len(rows) for col in zip(*rows)]

    def deal_values(self, obs: Observation, moves: list[Move], worlds, rng: random.Random) -> list[list[float]]:
        """Per deal (those valued within the ``time`` budget, at least one), each
        move's value (team A's final margin) on that deal."""
        deadline = _time.monotonic() + self.time if self.time else None
        rows = []
        for hands in worlds:
            pos = obs.position(hands)
            row = []
            for m in moves:
                pos.push(m)
                row.append(self.value(pos, rng))
                pos.pop()
            rows.append(row)
            if deadline is not None and _time.monotonic() > deadline:
                break
        return rows

    # -------------------------------------------------------------- valuing one deal
    def value(self, pos: Position, rng: random.Random) -> float:
        """Team A's final margin in this deal: exact, or after a rollout to the exact size."""
        if pos.cards_left() > self.exact:
            pos = play_to(pos.copy(), self.rollout, rng, self.exact)
        if pos.is_over():
            return pos.score().value
        return self._backend(pos.rules).search(pos, -_INF, _INF)

    def final_position(self, pos: Position, rng: random.Random) -> Position:
        """The deal's end along the line :meth:`value` follows: the rollout, then a
        best line of the exact endgame (the coach explains estimated plays with it)."""
        from ..solver.driver import best_line

        end = play_to(pos.copy(), self.rollout, rng, self.exact)
        if not end.is_over():
            for m in best_line(self._backend(end.rules), end, self.value(end, rng))[0]:
                end.push(m)
        return end

    def _backend(self, rules: Rules):
        b = self._backends.get(rules)
        if b is None:
            from ..solver import make_backend

            probe = Position([0, 0, 0, 0], rules=rules, check=False)
            b = self._backends[rules] = make_backend(probe, "auto", memory_mb=self.memory)
        return b


class DoubleDummy(Pimc):
    """The cheating calibration player: the PIMC evaluation on the one true deal.

    It reads ``obs.full`` (all four hands), so it plays the double-dummy best
    move wherever the exact search reaches (``exact`` cards left after the
    move), and before that the move whose rollout on the true deal ends best.
    An upper bound for calibration, never a fair opponent.
    """

    cheats = True

    def __init__(self, exact: int = 16, rollout: str = "heuristic", memory: int = 64):
        super().__init__(samples=1, time=0.0, exact=exact, rollout=rollout, memory=memory)
        self.name = f"dd:exact={exact},rollout={rollout}"

    def worlds(self, obs: Observation, rng: random.Random) -> tuple[Hands, ...]:
        if obs.full is None:
            raise ValueError("the dd player needs the whole position (it cheats); give it observe(..., cheat=True)")
        return (tuple(obs.full.hands),)
