"""A deliberately naive reference for the rules of RULES.md.

Written straight from the rules text, without looking at how the engine does
it, so the engine's compiled tables and bitmask tricks can be cross-checked
against something obviously correct (and obviously slow):

* a card is a ``(rank, suit)`` tuple, suit one of ``"DCSB"``;
* the table, the hands and the piles are plain lists;
* captures are found by trying every subset of the table with
  ``itertools.combinations``;
* scoring counts every category from its definition.

It must not import ``scopone.captures``, ``scopone.scoring`` or
``scopone.position``; it only takes :class:`scopone.rules.Rules` (and its
parser) for the switches.

>>> st = State.from_line("7D/7C/1B/2B 3C4S - - 0-0 0 - scientifico")
>>> [move_text(m) for m in legal_moves(st)]
['7Dx3C+4S']
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

from scopone.rules import Rules, parse_rules

SUIT_LETTERS = "DCSB"
ALL_CARDS = [(r, s) for r in range(1, 11) for s in SUIT_LETTERS]

# Primiera scale, copied from RULES.md.
PRIMIERA_SCALE = {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 8: 10, 9: 10, 10: 10}

_ONE_CARD = re.compile(r"(10|[1-9])([DCSB])")


# --------------------------------------------------------------------- cards
def card(text: str) -> tuple[int, str]:
    """``"7D"`` -> ``(7, "D")`` (canonical upper-case text only)."""
    m = re.fullmatch(r"(10|[1-9])([DCSB])", text.strip())
    if not m:
        raise ValueError(f"naive: bad card {text!r}")
    return int(m.group(1)), m.group(2)


def cards(text: str) -> list[tuple[int, str]]:
    """A list of cards written with or without separators; ``-`` or ``""`` is empty."""
    text = text.strip()
    if text in ("", "-"):
        return []
    joined = re.sub(r"[\s,+]", "", text)
    found = _ONE_CARD.findall(joined)
    if "".join(r + s for r, s in found) != joined:
        raise ValueError(f"naive: bad card list {text!r}")
    return [(int(r), s) for r, s in found]


def sort_key(c: tuple[int, str]) -> tuple[int, int]:
    """Rank first, then suit in the order D C S B."""
    return c[0], SUIT_LETTERS.index(c[1])


def text(c: tuple[int, str]) -> str:
    return f"{c[0]}{c[1]}"


def cards_text(cs, sep: str = " ") -> str:
    return sep.join(text(c) for c in sorted(cs, key=sort_key))


def move_text(move) -> str:
    """``(card, captured)`` in the canonical notation ``7Dx3C+4S`` / ``7D``."""
    played, captured = move
    if not captured:
        return text(played)
    return text(played) + "x" + cards_text(captured, "+")


# --------------------------------------------------------------------- captures
def table_subsets(table):
    """Every non-empty subset of the table, grouped by the sum of its values.

    Returns ``{sum: [subset, ...]}`` with each subset a tuple of cards.
    """
    out: dict[int, list[tuple]] = {}
    for size in range(1, len(table) + 1):
        for combo in itertools.combinations(table, size):
            out.setdefault(sum(c[0] for c in combo), []).append(combo)
    return out


def capture_options(value: int, table, rules: Rules, subsets=None) -> list[frozenset]:
    """Every set of table cards a card of ``value`` may capture (empty: laid down).

    ``subsets`` may pass a precomputed :func:`table_subsets` of the same table.
    """
    table = list(table)
    if rules.asso_piglia_tutto and value == 1:
        aces = [c for c in table if c[0] == 1]
        if rules.asso_takes_asso and aces:
            return [frozenset([a]) for a in aces]  # one Ace, the player's choice which
        if table:
            return [frozenset(table)]  # the Ace sweeps the whole table
        return []
    target = 15 - value if rules.quindici else value
    if subsets is None:
        subsets = table_subsets(table)
    matching = subsets.get(target, [])
    singles = [frozenset(s) for s in matching if len(s) == 1]
    sums = [frozenset(s) for s in matching if len(s) >= 2]
    if rules.priority == "strict" and singles:
        return singles
    return singles + sums


def is_ace_sweep(value: int, table, captured, rules: Rules) -> bool:
    """Whether this capture is the Ace's whole-table sweep of asso piglia tutto.

    A played Ace that takes a lone table Ace (``asso_takes_asso``) is an
    ordinary single-card match, not the sweep.
    """
    if not (rules.asso_piglia_tutto and value == 1):
        return False
    has_ace = any(c[0] == 1 for c in table)
    if rules.asso_takes_asso and has_ace:
        return False
    return True


# --------------------------------------------------------------------- state
@dataclass
class State:
    """A position as plain lists."""

    hands: list[list[tuple[int, str]]]
    table: list[tuple[int, str]]
    piles: list[list[tuple[int, str]]]
    scope: list[int]
    to_move: int
    last_capture: int | None
    rules: Rules = field(default_factory=Rules)

    @classmethod
    def from_line(cls, line: str) -> "State":
        """Parse the engine's one-line position text (format from its docs)."""
        f = line.split()
        assert len(f) == 8, line
        hands = [cards(h) for h in f[0].split("/")]
        assert len(hands) == 4, line
        a, b = f[4].split("-")
        last = {"A": 0, "B": 1, "-": None}[f[6]]
        return cls(hands, cards(f[1]), [cards(f[2]), cards(f[3])], [int(a), int(b)],
                   int(f[5]), last, parse_rules(f[7]))

    def copy(self) -> "State":
        return State([list(h) for h in self.hands], list(self.table),
                     [list(p) for p in self.piles], list(self.scope), self.to_move,
                     self.last_capture, self.rules)

    def is_over(self) -> bool:
        return all(len(h) == 0 for h in self.hands)


def legal_moves(st: State):
    """Every legal ``(card, frozenset captured)`` for the seat to move."""
    out = []
    subsets = table_subsets(st.table)
    for c in st.hands[st.to_move]:
        options = capture_options(c[0], st.table, st.rules, subsets)
        if options:
            out.extend((c, cap) for cap in options)
        else:
            out.append((c, frozenset()))
    return out


def play(st: State, move) -> State:
    """The state after ``move`` (a new object; ``st`` is not changed)."""
    played, captured = move
    new = st.copy()
    seat = new.to_move
    team = seat % 2
    assert played in new.hands[seat], (move, st)
    new.hands[seat].remove(played)
    last_play = new.is_over()
    if captured:
        for c in captured:
            assert c in new.table, (move, st)
        sweep = is_ace_sweep(played[0], st.table, captured, st.rules)
        new.table = [c for c in new.table if c not in captured]
        new.piles[team].extend(captured)
        new.piles[team].append(played)
        new.last_capture = team
        if not new.table and not last_play and not (sweep and not st.rules.asso_scopa):
            new.scope[team] += 1
    else:
        new.table.append(played)
    if last_play and new.table and new.last_capture is not None:
        new.piles[new.last_capture].extend(new.table)
        new.table = []
    new.to_move = (seat + 1) % 4
    return new


# --------------------------------------------------------------------- scoring
def _more(a, b):
    if a > b:
        return [1, 0]
    if b > a:
        return [0, 1]
    return [0, 0]


def primiera_total(pile):
    """(total, has all four suits) for a pile."""
    total = 0
    complete = True
    for s in SUIT_LETTERS:
        values = [PRIMIERA_SCALE[c[0]] for c in pile if c[1] == s]
        if values:
            total += max(values)
        else:
            complete = False
    return total, complete


def napola(pile) -> int:
    denari = {c[0] for c in pile if c[1] == "D"}
    run = 0
    for r in range(1, 11):
        if r in denari:
            run = r
        else:
            break
    return run if run >= 3 else 0


def score(piles, scope, rules: Rules) -> dict:
    """Points per category per team: ``{category: [A, B]}`` plus ``total``,
    ``value`` (A - B) and ``capote``."""
    a, b = piles
    out = {}
    out["carte"] = _more(len(a), len(b))
    den = [sum(1 for c in p if c[1] == "D") for p in piles]
    out["denari"] = _more(*den)
    out["settebello"] = [int((7, "D") in p) for p in piles]
    (ta, ca), (tb, cb) = primiera_total(a), primiera_total(b)
    if rules.primiera == "sum":
        out["primiera"] = _more(ta, tb)
    elif ca and cb:
        out["primiera"] = _more(ta, tb)
    elif ca and not cb:
        out["primiera"] = [1, 0]
    elif cb and not ca:
        out["primiera"] = [0, 1]
    else:
        out["primiera"] = [0, 0]
    out["scope"] = [scope[0], scope[1]]
    out["re_bello"] = [int((10, "D") in p) for p in piles] if rules.re_bello else [0, 0]
    out["napola"] = [napola(p) for p in piles] if rules.napola else [0, 0]
    cats = ["carte", "denari", "settebello", "primiera", "scope", "re_bello", "napola"]
    out["total"] = [sum(out[k][0] for k in cats), sum(out[k][1] for k in cats)]
    out["value"] = out["total"][0] - out["total"][1]
    out["capote"] = [bool(rules.napola and d == 10) for d in den]
    return out


def final_score(st: State) -> dict:
    assert st.is_over()
    return score(st.piles, st.scope, st.rules)


# --------------------------------------------------------------------- perft
def perft(st: State, root_scope=None) -> tuple[int, int, int]:
    """(leaves, sum of team A's final points, leaves where a scopa was made).

    A leaf "has a scopa" when the final scope count of either team exceeds its
    count at the root.
    """
    if root_scope is None:
        root_scope = list(st.scope)
    if st.is_over():
        s = final_score(st)
        scopa = int(st.scope[0] > root_scope[0] or st.scope[1] > root_scope[1])
        return 1, s["total"][0], scopa
    leaves = points = scopa = 0
    for m in legal_moves(st):
        l, p, s = perft(play(st, m), root_scope)
        leaves += l
        points += p
        scopa += s
    return leaves, points, scopa


def divide(st: State) -> dict[str, tuple[int, int, int]]:
    """perft under each root move, by move text."""
    root = list(st.scope)
    return {move_text(m): perft(play(st, m), root) for m in legal_moves(st)}
