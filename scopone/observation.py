"""What one seat can know: its own hand, the table, both piles, the plays so far.

An :class:`Observation` is the only thing a player (``scopone.players``) is
given.  It holds no other hand: the cards the seat cannot see are only a mask,
:attr:`Observation.unseen`, and the number of cards each other seat still
holds.  Everything a player may reason about (ranks already gone, who made
the last capture, which seat laid which card) is derived from what was played
in the open.

>>> from scopone.position import Position
>>> pos = Position.from_line("1D5D/4S5B/7C7B/1B7D 3C 3D3S3B4B6D6C7S8D8S10D10C 1C1S2D2C2S2B4D4C5C5S6S6B8C8B9D9C9S9B10S10B 1-3 0 B scientifico")
>>> obs = observe(pos, 0)
>>> obs.hand_text(), obs.hand_sizes, obs.unseen_text()
('1D 5D', (2, 2, 2, 2), '1B 4S 5B 7D 7C 7B')
>>> [m.text() for m in obs.legal_moves()]
['1D', '5D']
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import FULL_DECK, CardMask, mask_text
from .position import Move, Position
from .rules import Rules


@dataclass(frozen=True)
class Observation:
    """One seat's view of a position (see the module docs).

    ``history`` is every play made so far in this deal, oldest first, as
    ``(seat, move)``; ``hand_sizes`` counts the cards each seat (0..3) holds.
    ``full`` is None except for players that are allowed to cheat (the
    double-dummy calibration player): they get the whole :class:`Position`.
    """

    seat: int
    hand: CardMask
    table: CardMask
    piles: tuple[CardMask, CardMask]
    scope: tuple[int, int]
    to_move: int
    last_capture: int | None
    hand_sizes: tuple[int, int, int, int]
    rules: Rules
    history: tuple[tuple[int, Move], ...] = ()
    full: Position | None = field(default=None, compare=False, repr=False)

    @property
    def team(self) -> int:
        """The seat's team: 0 (A, seats 0 and 2) or 1 (B)."""
        return self.seat & 1

    @property
    def unseen(self) -> CardMask:
        """The cards in the other three hands (which seat holds which is unknown)."""
        return FULL_DECK & ~(self.hand | self.table | self.piles[0] | self.piles[1])

    def cards_left(self) -> int:
        """Cards still in the four hands."""
        return sum(self.hand_sizes)

    def legal_moves(self) -> list[Move]:
        """The legal moves of the seat to move, which must be this seat (the engine's
        move generator, on this seat's hand and the table)."""
        if self.to_move != self.seat:
            raise ValueError(f"seat {self.seat} is not to move (seat {self.to_move} is)")
        return self.own_position().legal_moves()

    def own_position(self) -> Position:
        """The position with only this seat's hand in it (the others empty): enough
        to generate and parse this seat's moves, never to search."""
        hands = [0, 0, 0, 0]
        hands[self.seat] = self.hand
        return self.position(hands)

    def hand_text(self) -> str:
        """The seat's hand as card texts."""
        return mask_text(self.hand)

    def unseen_text(self) -> str:
        """The unseen cards as card texts."""
        return mask_text(self.unseen)

    def position(self, hands: list[CardMask] | tuple[CardMask, ...]) -> Position:
        """The position this observation would be if the four hands were ``hands``
        (``hands[self.seat]`` must be the seat's own hand): a world to search."""
        return Position(list(hands), self.table, self.piles, self.scope, self.to_move, self.last_capture,
                        self.rules, check=False)


def observe(pos: Position, seat: int | None = None, history: tuple[tuple[int, Move], ...] | None = None,
            cheat: bool = False) -> Observation:
    """What ``seat`` (default: the seat to move) knows in ``pos``.

    ``history`` is the plays so far as ``(seat, move)``; by default it is taken
    from the position's move stack (the plays pushed on it).  With ``cheat``
    the observation also carries the whole position (``full``).
    """
    seat = pos.to_move if seat is None else seat
    if history is None:
        stack = pos.move_stack
        first = (pos.to_move - len(stack)) & 3
        history = tuple(((first + i) & 3, m) for i, m in enumerate(stack))
    return Observation(
        seat=seat, hand=pos.hands[seat], table=pos.table, piles=(pos.piles[0], pos.piles[1]),
        scope=(pos.scope[0], pos.scope[1]), to_move=pos.to_move, last_capture=pos.last_capture,
        hand_sizes=tuple(h.bit_count() for h in pos.hands), rules=pos.rules, history=history,
        full=pos.copy() if cheat else None,
    )
