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

from dataclasses import dataclass
from typing import Callable, Iterable

from .cards import PRIMIERA_VALUE, SETTEBELLO, SUIT_MASK, card_name, iter_cards, rank_of
from .position import SEAT_NAMES, Move, Position, mano_seat
from .scoring import Score

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


# ---------------------------------------------------------------- concrete reasons
# The predicates above compare two finished deals in the coach's short words.
# Puzzle explanations need the same comparison made concrete: who did what, with
# which card, and how many points each category moved.  The functions below work
# on a start position and two lines played from it to the end of the deal.

#: The teams by the seats' names (team A = seats 0 and 2).
TEAM_NAMES = ("North–South", "East–West")

#: The scoring categories, in the order reasons are given: (Score attribute, name).
CATEGORIES: tuple[tuple[str, str], ...] = (
    ("scope", "scope"), ("settebello_points", "settebello"), ("primiera_points", "primiera"),
    ("denari_points", "denari"), ("carte_points", "carte"), ("re_bello_points", "re bello"),
    ("napola_points", "napola"))
#: The categories whose one point is a clear swing on its own (a puzzle may win by 1 with one).
SWINGS = frozenset({"scope", "settebello", "primiera"})


@dataclass(frozen=True)
class Play:
    """One move of a line, with who made it and what it did."""

    seat: int
    move: Move
    scopa: bool

    def text(self) -> str:
        """``East 3Cx1S+2B (scopa)``: the move labelled with its seat, scope marked."""
        return f"{SEAT_NAMES[self.seat]} {self.move.text()}" + (" (scopa)" if self.scopa else "")


def plays(start: Position, line: Iterable[Move]) -> list[Play]:
    """The moves of ``line`` from ``start``, each with its seat and whether it swept the table.

    >>> pos = Position.from_line("7D2C/9B1S/5S6S/8C10C 3C4S 1D2D2S2B3D3S3B4D4C4B5D5C5B6D6C6B7C7S7B8D 8S8B9D9C9S10D10S10B1C1B 0-0 0 A scientifico")
    >>> [p.text() for p in plays(pos, [Move.parse("7Dx3C+4S"), Move.parse("9B")])]
    ['South 7Dx3C+4S (scopa)', 'East 9B']
    """
    work = start.copy()
    out = []
    for m in line:
        seat, team = work.to_move, work.to_move & 1
        before = work.scope[team]
        work.push(m)
        out.append(Play(seat, m, work.scope[team] > before))
    return out


def line_text(start: Position, line: Iterable[Move], limit: int | None = None) -> str:
    """A line in words: each move labelled with its seat, scope marked, ``·`` between."""
    ps = plays(start, line)
    shown = ps[:limit] if limit is not None else ps
    return " · ".join(p.text() for p in shown) + (" · …" if len(shown) < len(ps) else "")


def finish(start: Position, line: Iterable[Move]) -> Position:
    """The position after ``line`` (with the line on its move stack)."""
    end = start.copy()
    for m in line:
        end.push(m)
    return end


def category_losses(best: Score, played: Score, team: int) -> dict[str, int]:
    """What each category costs ``team`` on the played line against the best one
    (negative: a gain); they add up to the difference in value.

    >>> from scopone.scoring import score_piles
    >>> from scopone.cards import FULL_DECK, parse_cards
    >>> from scopone.rules import Rules
    >>> a = parse_cards("7D 1D 2D 3D 4D 5D 6D")
    >>> good = score_piles(a, FULL_DECK & ~a, (1, 0), Rules())
    >>> bad = score_piles(FULL_DECK & ~a, a, (0, 0), Rules())
    >>> {k: v for k, v in category_losses(good, bad, 0).items() if v}
    {'scope': 1, 'settebello': 2, 'primiera': -2, 'denari': 2, 'carte': -2}
    """
    out = {}
    for attr, name in CATEGORIES:
        b, p = getattr(best, attr), getattr(played, attr)
        out[name] = (b[team] - b[1 - team]) - (p[team] - p[1 - team])
    return out


def _count(score: Score, attr: str, team: int) -> str:
    pair = getattr(score, attr)
    return f"{pair[team]} to {pair[1 - team]}"


def _who_took(start: Position, line: list[Move], card: int) -> str | None:
    """``West's 7Cx7D`` for the capture that took ``card`` on the line, or None."""
    for p in plays(start, line):
        if p.move.captured >> card & 1 or (p.move.captured and p.move.card == card):
            return f"{SEAT_NAMES[p.seat]}'s {p.move.text()}"
    return None


def loss_reasons(start: Position, best_line: list[Move], played_line: list[Move], team: int) -> list[str]:
    """Why the played line ends worse for ``team`` than the best line, category by
    category, with the plays that decide it (cards in the project's card text).

    Each category that moves is named with what it costs; a category that moves
    the other way is named as a gain, so the phrases add up to the loss.
    """
    best_end, played_end = finish(start, best_line), finish(start, played_line)
    b, p = best_end.result(), played_end.result()
    losses = category_losses(b, p, team)
    them, us = TEAM_NAMES[1 - team], TEAM_NAMES[team]
    out = []
    for name, lost in losses.items():
        if not lost:
            continue
        amount = f"{abs(lost)} point{'s' if abs(lost) > 1 else ''}"
        if name == "scope":
            # the sweeps one line has and the other has not (the same play may sweep on both)
            b_sweeps = {q.text() for q in plays(start, best_line) if q.scopa}
            p_sweeps = {q.text() for q in plays(start, played_line) if q.scopa}
            theirs = [q.text() for q in plays(start, played_line)
                      if q.scopa and q.seat & 1 != team and q.text() not in b_sweeps]
            ours = [q.text() for q in plays(start, best_line)
                    if q.scopa and q.seat & 1 == team and q.text() not in p_sweeps]
            bits = []
            if p.scope[1 - team] > b.scope[1 - team] and theirs:
                bits.append("it allows " + ", ".join(theirs))
            if b.scope[team] > p.scope[team] and ours:
                bits.append("it misses " + ", ".join(ours) + " of the best line")
            if not bits:
                bits.append(f"{them} net {_plural(lost, 'a scopa', 'scope')} more")
            if lost < 0:
                bits = [f"it nets {_plural(-lost, 'a scopa', 'scope')} more than the best line"]
            out.append("; ".join(bits) + f" ({'−' if lost > 0 else '+'}{amount} in scope)")
        elif name == "settebello":
            holder = played_end.piles[1 - team] >> SETTEBELLO & 1
            took = _who_took(start, played_line if holder else best_line, SETTEBELLO)
            side = them if holder else us
            how = f"{took} takes the settebello (7D)" if took else f"the settebello (7D) goes to {side}"
            out.append(how + f" ({'−' if lost > 0 else '+'}{amount})")
        elif name == "primiera":
            out.append(f"the primiera goes {_count(p, 'primiera', team)} for {us}, against "
                       f"{_count(b, 'primiera', team)} on the best line ({'−' if lost > 0 else '+'}{amount})")
        else:
            attr = {"denari": "denari", "carte": "carte", "re bello": "re_bello", "napola": "napola"}[name]
            if attr == "re_bello":
                out.append(f"the re bello (10D) changes hands ({'−' if lost > 0 else '+'}{amount})")
            else:
                out.append(f"{us} take {_count(p, attr, team)} {name}, against {_count(b, attr, team)} "
                           f"on the best line ({'−' if lost > 0 else '+'}{amount})")
    return out


def first_blow(start: Position, line: list[Move], team: int,
               kinds: Iterable[str] = ("scope", "settebello")) -> str | None:
    """The opponents' first telling play on a line, of the ``kinds`` asked for (a
    scopa: ``scope``; the capture of the settebello: ``settebello``): ``East answers
    3Cx1S+2B, a scopa`` when it is the very next play, ``later South sweeps with
    9Bx9C`` otherwise; None when there is none."""
    kinds = set(kinds)
    for i, q in enumerate(plays(start, line)):
        if q.seat & 1 == team:
            continue
        seat, move = SEAT_NAMES[q.seat], q.move.text()
        if q.scopa and "scope" in kinds:
            return f"{seat} answers {move}, a scopa" if i == 1 else f"later {seat} sweeps with {move} (scopa)"
        takes_7d = q.move.captured >> SETTEBELLO & 1 or (q.move.captured and q.move.card == SETTEBELLO)
        if "settebello" in kinds and takes_7d:
            return (f"{seat} answers {move}, taking the settebello" if i == 1
                    else f"later {seat} takes the settebello with {move}")
    return None
