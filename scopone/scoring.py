"""Scoring a deal from the two teams' piles, category by category.

>>> from scopone.cards import parse_cards, FULL_DECK
>>> a = parse_cards("7D 7C 7S 7B 1D 2D 3D 4D 5D 6D 8D")
>>> s = score_piles(a, FULL_DECK & ~a, (2, 0), Rules())
>>> s.points, s.value
((5, 1), 4)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from .cards import (
    DENARI_MASK, PRIMIERA_ORDER, PRIMIERA_VALUE, RE_BELLO, SETTEBELLO, CardMask, make_card,
)
from .rules import Rules

TEAMS = ("A", "B")

# For each 4-bit rank nibble the primiera value it gives each suit; used to
# find every suit's best card in ten steps (rank-major layout, see cards.py).
_PRIMIERA_STEPS = tuple((4 * (r - 1), PRIMIERA_VALUE[r]) for r in PRIMIERA_ORDER)


def primiera_by_suit(pile: CardMask) -> tuple[int, int, int, int]:
    """Best primiera value per suit (0 where the suit is missing).

    >>> from scopone.cards import parse_cards
    >>> primiera_by_suit(parse_cards("7S 7B 6D 4C 2C"))
    (18, 14, 21, 21)
    """
    best = [0, 0, 0, 0]
    seen = 0
    for shift, value in _PRIMIERA_STEPS:
        nib = (pile >> shift) & 0xF & ~seen
        if nib:
            for s in range(4):
                if nib >> s & 1:
                    best[s] = value
            seen |= nib
            if seen == 0xF:
                break
    return best[0], best[1], best[2], best[3]


def napola_points(pile: CardMask) -> int:
    """Napola points of a pile: the unbroken Denari run from the Ace, if it reaches 3.

    >>> from scopone.cards import parse_cards
    >>> napola_points(parse_cards("1D 2D 3D 4D 6D")), napola_points(parse_cards("1D 2D 4D"))
    (4, 0)
    """
    run = 0
    while run < 10 and pile >> make_card(run + 1, 0) & 1:
        run += 1
    return run if run >= 3 else 0


@dataclass(frozen=True)
class Score:
    """The breakdown of a deal's score.  Pairs are (team A, team B).

    ``points`` and the per-category ``*_points`` pairs say who got each point;
    ``value`` is points A minus points B, the solver's objective.
    """

    carte: tuple[int, int]
    denari: tuple[int, int]
    settebello: tuple[bool, bool]
    primiera: tuple[int, int]
    primiera_complete: tuple[bool, bool]
    scope: tuple[int, int]
    re_bello: tuple[bool, bool]
    napola: tuple[int, int]
    carte_points: tuple[int, int]
    denari_points: tuple[int, int]
    settebello_points: tuple[int, int]
    primiera_points: tuple[int, int]
    re_bello_points: tuple[int, int]
    napola_points: tuple[int, int]
    capote: tuple[bool, bool] = field(default=(False, False))

    @property
    def points(self) -> tuple[int, int]:
        """Total points of each team."""
        cats = (self.carte_points, self.denari_points, self.settebello_points,
                self.primiera_points, self.scope, self.re_bello_points, self.napola_points)
        return sum(c[0] for c in cats), sum(c[1] for c in cats)

    @property
    def value(self) -> int:
        """Points of team A minus points of team B."""
        a, b = self.points
        return a - b

    def as_dict(self) -> dict:
        """A JSON-ready breakdown, per team."""
        out = {}
        for i, t in enumerate(TEAMS):
            out[t] = {
                "carte": {"cards": self.carte[i], "points": self.carte_points[i]},
                "denari": {"cards": self.denari[i], "points": self.denari_points[i]},
                "settebello": {"captured": self.settebello[i], "points": self.settebello_points[i]},
                "primiera": {"total": self.primiera[i], "all_suits": self.primiera_complete[i],
                              "points": self.primiera_points[i]},
                "scope": {"count": self.scope[i], "points": self.scope[i]},
                "re_bello": {"captured": self.re_bello[i], "points": self.re_bello_points[i]},
                "napola": {"points": self.napola_points[i]},
                "capote": self.capote[i],
                "total": self.points[i],
            }
        out["value"] = self.value
        return out


def _more(a: int, b: int) -> tuple[int, int]:
    return (1, 0) if a > b else (0, 1) if b > a else (0, 0)


def score_piles(pile_a: CardMask, pile_b: CardMask, scope: tuple[int, int], rules: Rules) -> Score:
    """Score two piles under ``rules``; ``scope`` is the scope count per team."""
    piles = (pile_a, pile_b)
    carte = (pile_a.bit_count(), pile_b.bit_count())
    denari = ((pile_a & DENARI_MASK).bit_count(), (pile_b & DENARI_MASK).bit_count())
    sette = (bool(pile_a >> SETTEBELLO & 1), bool(pile_b >> SETTEBELLO & 1))
    suits = [primiera_by_suit(p) for p in piles]
    complete = (all(suits[0]), all(suits[1]))
    totals = (sum(suits[0]), sum(suits[1]))
    if rules.primiera == "sum" or (complete[0] and complete[1]):
        prim = _more(*totals)
    elif complete[0] != complete[1]:
        prim = (1, 0) if complete[0] else (0, 1)
    else:
        prim = (0, 0)
    re = (bool(pile_a >> RE_BELLO & 1), bool(pile_b >> RE_BELLO & 1))
    re_points = (int(re[0]), int(re[1])) if rules.re_bello else (0, 0)
    nap = (napola_points(pile_a), napola_points(pile_b)) if rules.napola else (0, 0)
    capote = (denari[0] == 10 and rules.napola, denari[1] == 10 and rules.napola)
    return Score(
        carte=carte, denari=denari, settebello=sette, primiera=totals,
        primiera_complete=complete, scope=(scope[0], scope[1]), re_bello=re, napola=nap,
        carte_points=_more(*carte), denari_points=_more(*denari),
        settebello_points=(int(sette[0]), int(sette[1])), primiera_points=prim,
        re_bello_points=re_points, napola_points=nap, capote=capote,
    )


@dataclass(frozen=True)
class Standing:
    """One category in the middle of a deal: what each team holds and, once nothing
    left to play can change it, the points it gives (``None`` while it is open)."""

    category: str
    a: str
    b: str
    points: tuple[int, int] | None

    @property
    def leader(self) -> int | None:
        """The team ahead (0 = A, 1 = B) when the category is open and someone leads."""
        return self._lead if self.points is None else None

    _lead: int | None = None


def standings(pile_a: CardMask, pile_b: CardMask, scope: tuple[int, int], rules: Rules) -> list[Standing]:
    """Every category as it stands mid-deal, its point given only once it is decided
    (cards not yet in a pile could still go to either team).

    A lead is not a point: carte 1-0 when each team holds 20 cards with cards still
    to play is shown as open with team A ahead.

    >>> from scopone.cards import parse_cards
    >>> st = {s.category: s for s in standings(parse_cards("7D 1D 2D 3D 4D 5D"), parse_cards("7C"), (1, 0), Rules())}
    >>> st["settebello"].points, st["denari"].points, st["carte"].points, st["carte"].leader
    ((1, 0), (1, 0), None, 0)
    """
    from .cards import FULL_DECK

    final = score_piles(pile_a, pile_b, scope, rules)
    left = FULL_DECK & ~(pile_a | pile_b)
    over = not left

    def lead(a: int, b: int) -> int | None:
        return 0 if a > b else 1 if b > a else None

    def counted(name: str, a: int, b: int, total: int) -> Standing:
        # all taken, or a team past half of what exists: nothing left can change it
        pts = _more(a, b) if a + b == total or 2 * a > total or 2 * b > total else None
        return Standing(name, str(a), str(b), pts, lead(a, b))

    out = [counted("carte", *final.carte, 40), counted("denari", *final.denari, 10)]
    sette = final.settebello
    out.append(Standing("settebello", "yes" if sette[0] else "", "yes" if sette[1] else "",
                        final.settebello_points if over or any(sette) else None))
    out.append(Standing("primiera", *(f"{final.primiera[i]}" + ("" if final.primiera_complete[i] else "*")
                                      for i in (0, 1)),
                        final.primiera_points if over else _primiera_decided(pile_a, pile_b, left, rules),
                        lead(*final.primiera)))
    out.append(Standing("scope", str(scope[0]), str(scope[1]), (scope[0], scope[1])))
    if rules.re_bello:
        re = final.re_bello
        out.append(Standing("re bello", "yes" if re[0] else "", "yes" if re[1] else "",
                            final.re_bello_points if over or any(re) else None))
    if rules.napola:
        out.append(Standing("napola", str(final.napola[0]), str(final.napola[1]),
                            final.napola_points if over else None, lead(*final.napola)))
    return out


def _primiera_decided(pile_a: CardMask, pile_b: CardMask, left: CardMask, rules: Rules) -> tuple[int, int] | None:
    """The primiera points if no way of sharing out ``left`` changes them, else None."""
    mine = (primiera_by_suit(pile_a), primiera_by_suit(pile_b))
    rest = primiera_by_suit(left)
    for t in (0, 1):
        now, other = mine[t], mine[1 - t]
        best_other = [max(o, r) for o, r in zip(other, rest)]  # the other team takes every card left
        other_can_complete = all(best_other)
        beats = sum(now) > sum(best_other)
        if rules.primiera == "sum":
            won = beats
        else:  # strict: a team missing a suit cannot win it
            won = all(now) and (beats or not other_can_complete)
        if won:
            return (1, 0) if t == 0 else (0, 1)
    return None


@lru_cache(maxsize=64)
def category_max(rules: Rules) -> int:
    """The most the categories of one deal (all but the scope) can be worth to one team
    over the other: what a team that took all 40 cards scores under ``rules``.

    >>> from scopone.rules import parse_rules
    >>> category_max(parse_rules("scientifico")), category_max(parse_rules("scientifico+napola"))
    (4, 14)
    """
    return score_piles((1 << 40) - 1, 0, (0, 0), rules).value


def game_winner(totals: tuple[int, int], rules: Rules, capote: tuple[bool, bool] = (False, False)) -> int | None:
    """The team index (0 = A, 1 = B) that has won a game of several deals, or None.

    >>> game_winner((11, 9), Rules()), game_winner((12, 12), Rules()), game_winner((5, 3), Rules())
    (0, None, None)
    """
    if rules.napola and any(capote):
        return 0 if capote[0] else 1
    a, b = totals
    if max(a, b) < rules.target or a == b:
        return None
    return 0 if a > b else 1
