"""A person at the keyboard as a player: reads a move, re-asks on bad input.

The terminal (``scopone play``) gives it three functions: ``show`` prints a
view of the seat's observation and its numbered legal moves, ``ask`` reads
one answer (None at the end of input), ``tell`` prints a one-line message.
An answer is a move's number or its text (``7D``, ``7Dx3C+4S``; the short
form when it is unambiguous); anything else is answered and asked again.

>>> from scopone.deal import deal
>>> from scopone.observation import observe
>>> answers = iter(["x", "99", "9D", "1"])
>>> told = []
>>> human = Human(show=lambda obs, moves: None, ask=lambda: next(answers), tell=told.append)
>>> human.choose(observe(deal(seed=1)), None).text()
'1B'
>>> for line in told: print(line)
'x' is not a move number (1-10) or a legal move: 'x' is not a move: '' is not a card (expected rank 1..10 and suit D, C, S or B, e.g. 7D)
99 is not a move number (1-10)
'9D' is not a move number (1-10) or a legal move: '9D' is illegal: 9D is not in the hand of seat 0 (1B 3S 4C 5D 5C 6B 8S 10C 10S 10B)
"""

from __future__ import annotations

import random
from typing import Callable

from ..errors import ScoponeError
from ..observation import Observation
from ..position import Move


class QuitGame(Exception):
    """The player asked to stop (end of input or ``quit``)."""


class Human:
    """A person choosing moves through ``show``/``ask``/``tell`` (see the module docs)."""

    cheats = False

    def __init__(self, show: Callable[[Observation, list[Move]], None], ask: Callable[[], str | None],
                 tell: Callable[[str], None], name: str = "human"):
        self.show, self.ask, self.tell, self.name = show, ask, tell, name

    def choose(self, obs: Observation, rng: random.Random | None) -> Move:
        moves = obs.legal_moves()
        self.show(obs, moves)
        while True:
            answer = self.ask()
            if answer is None or answer.strip().lower() in ("quit", "q", "exit"):
                raise QuitGame
            move = self.parse(obs, moves, answer.strip())
            if move is not None:
                return move

    def parse(self, obs: Observation, moves: list[Move], answer: str) -> Move | None:
        """The move meant by ``answer``, or None after telling what is wrong."""
        if not answer:
            self.tell(f"type a move number (1-{len(moves)}) or a move such as {moves[0].text()}")
            return None
        if answer.isdecimal():
            k = int(answer) if len(answer) < 4 else 0
            if 1 <= k <= len(moves):
                return moves[k - 1]
            self.tell(f"{answer[:12]} is not a move number (1-{len(moves)})")
            return None
        try:
            move = obs.own_position().parse_move(answer)
        except ScoponeError as e:
            self.tell(f"{answer[:20]!r} is not a move number (1-{len(moves)}) or a legal move: "
                      + str(e).split(" in '")[0])
            return None
        return move
