"""What differs between two lines of play, in words: one small predicate per reason.

Each predicate compares how a deal ends on two lines, the best one and the
one played (or the solution and a wrong move), from one team's side, and
returns a short phrase or None.  The coach explains a costly play with them;
puzzle explanations can use the same words.

>>> import random
>>> from scopone.deal import deal
>>> from scopone.players import make_player
>>> from scopone.players.base import play_to
>>> greedy = play_to(deal(seed=1), make_player("greedy"), random.Random(1), 0)
>>> chance = play_to(deal(seed=1), make_player("random"), random.Random(1), 0)
>>> differences(greedy, chance, team=0)
['missed 2 scope']
"""

from __future__ import annotations

from typing import Callable

from .cards import PRIMIERA_VALUE, SETTEBELLO, SUIT_MASK, card_name, iter_cards, rank_of
from .position import Position, mano_seat

#: A reason: (best final position, played final position, team) -> phrase or None.
Reason = Callable[[Position, Position, int], "str | None"]


def _plural(n: int, one: str, many: str) -> str:
    return one if n == 1 else f"{n} {many}"


def allowed_scopa(best: Position, played: Position, team: int) -> str | None:
    """The opponents make more scope on the played line."""
    more = played.scope[1 - team] - best.scope[1 - team]
    return f"allowed {_plural(more, 'a scopa', 'scope')}" if more > 0 else None


def missed_scopa(best: Position, played: Position, team: int) -> str | None:
    """The team makes fewer scope on the played line."""
    fewer = best.scope[team] - played.scope[team]
    return f"missed {_plural(fewer, 'a scopa', 'scope')}" if fewer > 0 else None


def gave_up_settebello(best: Position, played: Position, team: int) -> str | None:
    """The settebello is the team's on the best line and the opponents' on the played one."""
    if best.piles[team] >> SETTEBELLO & 1 and played.piles[1 - team] >> SETTEBELLO & 1:
        return "gave up the settebello"
    return None


def lost_primiera(best: Position, played: Position, team: int) -> str | None:
    """The team wins the primiera on the best line, not on the played one; names the
    suits' best cards that went to the opponents."""
    if best.score().primiera_points[team] and not played.score().primiera_points[team]:
        lost = []
        for suit in range(4):
            mine = [c for c in iter_cards(best.piles[team] & SUIT_MASK[suit])]
            if not mine:
                continue
            top = max(mine, key=lambda c: PRIMIERA_VALUE[rank_of(c)])
            if played.piles[1 - team] >> top & 1 and PRIMIERA_VALUE[rank_of(top)] >= 18:
                lost.append(card_name(top))
        return "lost the primiera" + (f" ({', '.join(lost)} went to the opponents)" if lost else "")
    return None


def lost_denari(best: Position, played: Position, team: int) -> str | None:
    """The team wins the denari point on the best line, not on the played one."""
    if best.score().denari_points[team] and not played.score().denari_points[team]:
        return "lost the denari"
    return None


def lost_carte(best: Position, played: Position, team: int) -> str | None:
    """The team wins the carte point on the best line, not on the played one."""
    if best.score().carte_points[team] and not played.score().carte_points[team]:
        return "lost the carte"
    return None


def last_capture(best: Position, played: Position, team: int) -> str | None:
    """The team makes the deal's last capture on the best line, the opponents on the played one."""
    if best.last_capture == team and played.last_capture == 1 - team:
        return "the opponents make the last capture"
    return None


def _first_move_and_mano(end: Position):
    """The first move of the line that ended in ``end`` and the team that led the deal."""
    stack = end.move_stack
    if not stack:
        return None, None
    start_seat = (end.to_move - len(stack)) & 3
    return stack[0], mano_seat(end.rules, start_seat, len(stack)) & 1


def broke_pairing(best: Position, played: Position, team: int) -> str | None:
    """Spariglio against the team's interest: the play was a sum capture (it breaks
    the pairing of ranks) where a best move was not, and the team did not lead the
    deal (the dealer's side lives on pairs; the mano's side breaks them).  Or the
    reverse for the mano's side: a best move broke the pairing and the play did not."""
    b, mano = _first_move_and_mano(best)
    p, _ = _first_move_and_mano(played)
    if b is None or p is None:
        return None
    sum_b, sum_p = b.captured.bit_count() >= 2, p.captured.bit_count() >= 2
    if sum_p and not sum_b and mano != team:
        return "broke the pairing (spariglio) that the partner needed"
    if sum_b and not sum_p and mano == team:
        return "missed the spariglio"
    return None


#: The reasons in the order they are given.
REASONS: tuple[Reason, ...] = (allowed_scopa, missed_scopa, gave_up_settebello, lost_primiera, lost_denari,
                               lost_carte, last_capture, broke_pairing)


def differences(best: Position, played: Position, team: int) -> list[str]:
    """Every reason that holds between two finished deals, from ``team``'s side."""
    return [text for reason in REASONS if (text := reason(best, played, team))]
