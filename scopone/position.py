"""A position of one deal: four hands, the table, the piles, and who is to move.

State is a handful of ints (card masks); :meth:`Position.push` snapshots them
and :meth:`Position.pop` restores them, as python-chess does.

>>> pos = Position.from_line("7D3C/7C/1B/2B 4S - - 0-0 0 - scientifico", check=False)
>>> [m.text() for m in pos.legal_moves()]
['3C', '7D']
>>> pos.push(pos.parse_move("3C")); pos.table_text()
'3C 4S'
>>> pos.pop().text()
'3C'
"""

from __future__ import annotations

import re
from typing import Iterator, NamedTuple

from .captures import capture_table
from .cards import (
    FULL_DECK, CardMask, card_text, cards_of, iter_cards, mask_text, parse_card, parse_cards,
    permute_suits, rank_of, split_card_texts,
)
from .errors import (
    AmbiguousMoveError, CardError, FormatError, IllegalMoveError, InvalidMoveError, PositionError,
)
from .rules import Rules, parse_rules
from .scoring import TEAMS, Score, category_max, score_piles

SEAT_NAMES = ("South", "East", "North", "West")
#: The scope field of the one-line string: two counts in plain decimal (no sign, no leading zero).
_SCOPE_FIELD = re.compile(r"(0|[1-9][0-9]?)-(0|[1-9][0-9]?)")


def mano_seat(rules: Rules, to_move: int, cards_left: int) -> int:
    """The seat that led the deal (the *mano*), from who is to move and how many
    cards are still in the hands (every play takes one card from a hand).

    >>> mano_seat(Rules(), 2, 38)
    0
    """
    per_hand = 10 if rules.deal == "scientifico" else 9
    return (to_move - (4 * per_hand - cards_left)) & 3


def team_of(seat: int) -> int:
    """Team index of a seat: 0 (A) for seats 0 and 2, 1 (B) for seats 1 and 3."""
    return seat & 1


class Move(NamedTuple):
    """A play: the card played and the set of table cards it captures (0 = laid down).

    A named tuple (immutable, ordered by card then captured set, cheap to make).

    >>> Move.parse("7Dx3C+4S")
    Move.parse('7Dx3C+4S')
    >>> Move.parse("7Dx3C+4S").captured_cards()
    [9, 14]
    """

    card: int
    captured: CardMask = 0

    @classmethod
    def parse(cls, text: str) -> "Move":
        """Parse the full notation ``7D`` or ``7Dx3C+4S`` (no position needed).

        A bare card parses as laying it down; :meth:`Position.parse_move` resolves
        the short form against a position.
        """
        if not isinstance(text, str) or not text.strip():
            raise InvalidMoveError(f"{text!r} is not a move (expected e.g. 7D or 7Dx3C+4S)")
        head, x, tail = text.strip().replace("X", "x").partition("x")
        try:
            card = parse_card(head)
            captured = parse_cards(split_card_texts(tail)) if x else 0
        except CardError as e:
            raise InvalidMoveError(f"{text!r} is not a move: {e}") from None
        if x and not captured:
            raise InvalidMoveError(f"{text!r} is not a move: nothing after 'x'")
        if captured >> card & 1:
            raise InvalidMoveError(f"{text!r} is not a move: a card cannot capture itself")
        return cls(card, captured)

    def text(self) -> str:
        """Canonical notation: ``7D`` when laid down, ``7Dx3C+4S`` for a capture."""
        if not self.captured:
            return card_text(self.card)
        return card_text(self.card) + "x" + mask_text(self.captured, "+")

    def to_int(self) -> int:
        """Compact int form used inside the solver: card | captured << 6."""
        return self.card | self.captured << 6

    @classmethod
    def from_int(cls, m: int) -> "Move":
        """Inverse of :meth:`to_int`."""
        return cls(m & 63, m >> 6)

    def captured_cards(self) -> list[int]:
        """The captured cards, sorted."""
        return cards_of(self.captured)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Move.parse({self.text()!r})"


class Position:
    """A position of one deal.

    Fields (all public, all ints or tuples of ints): ``hands`` (4 masks),
    ``table``, ``piles`` (team A, team B), ``scope`` (count per team),
    ``to_move`` (seat 0..3), ``last_capture`` (team 0/1 or None).
    """

    __slots__ = ("rules", "hands", "table", "piles", "scope", "to_move", "last_capture",
                 "_stack", "_captures")

    def __init__(
        self,
        hands: list[CardMask] | tuple[CardMask, ...],
        table: CardMask = 0,
        piles: tuple[CardMask, CardMask] = (0, 0),
        scope: tuple[int, int] = (0, 0),
        to_move: int = 0,
        last_capture: int | None = None,
        rules: Rules | None = None,
        *,
        check: bool = True,
    ):
        self.rules = rules or Rules()
        self.hands = list(hands)
        self.table = table
        self.piles = list(piles)
        self.scope = list(scope)
        self.to_move = to_move
        self.last_capture = last_capture
        self._stack: list[tuple] = []
        self._captures = capture_table(self.rules)
        if check:
            problems = self.problems()
            if problems:
                raise PositionError(problems)

    # ------------------------------------------------------------------ checks
    def problems(self) -> list[str]:
        """Every way this position breaks the rules, each naming its field."""
        out: list[str] = []
        if len(self.hands) != 4:
            return [f"hands: expected 4 hands, got {len(self.hands)}"]
        if self.to_move not in (0, 1, 2, 3):
            out.append(f"to_move: seat {self.to_move!r} is out of range 0..3")
        if self.last_capture not in (None, 0, 1):
            out.append(f"last_capture: {self.last_capture!r} is not A, B or null")
        parts = [(f"hands[{i}]", h) for i, h in enumerate(self.hands)]
        parts += [("table", self.table), ("captured.A", self.piles[0]), ("captured.B", self.piles[1])]
        seen = 0
        for name, m in parts:
            if m < 0 or m >> 40:
                out.append(f"{name}: holds a card number outside 0..39")
                continue
            dup = seen & m
            if dup:
                out.append(f"{name}: {mask_text(dup)} already appears elsewhere in the position")
            seen |= m
        total = sum(m.bit_count() for _, m in parts if 0 <= m < 1 << 40)
        if total != 40 and not any("already appears" in p for p in out):
            missing = FULL_DECK & ~seen
            out.append(f"cards: the position holds {total} cards, not 40"
                       + (f" (missing {mask_text(missing)})" if missing and total < 40 else ""))
        if self.to_move in (0, 1, 2, 3):
            sizes = [self.hands[(self.to_move + k) % 4].bit_count() for k in range(4)]
            ok = all(sizes[k] >= sizes[k + 1] for k in range(3)) and sizes[0] - sizes[3] <= 1
            if not ok:
                desc = ", ".join(f"seat {(self.to_move + k) % 4}: {s}" for k, s in enumerate(sizes))
                out.append(f"hands: sizes impossible with seat {self.to_move} to move ({desc}); "
                           "in playing order from the seat to move they never increase and differ by at most one")
        for t in (0, 1):
            if not isinstance(self.scope[t], int) or self.scope[t] < 0:
                out.append(f"scope.{TEAMS[t]}: {self.scope[t]!r} is not a count")
            elif self.scope[t] and not self.piles[t]:
                out.append(f"scope.{TEAMS[t]}: {self.scope[t]} scope but team {TEAMS[t]} has captured nothing")
            elif isinstance(self.piles[t], int) and self.scope[t] > self.piles[t].bit_count() // 2:
                # every scopa puts at least two cards in the pile: the played card and one taken
                out.append(f"scope.{TEAMS[t]}: {self.scope[t]} scope but team {TEAMS[t]} has captured only "
                           f"{self.piles[t].bit_count()} cards (a scopa takes at least two)")
        if (self.piles[0] or self.piles[1]) and self.last_capture is None:
            out.append("last_capture: missing although cards have been captured")
        if self.last_capture in (0, 1) and not self.piles[self.last_capture]:
            out.append(f"last_capture: team {TEAMS[self.last_capture]} has captured nothing")
        return out

    # ------------------------------------------------------------------ moves
    def legal_moves(self) -> list[Move]:
        """Every legal move, sorted by card then captured set."""
        return [Move(m & 63, m >> 6) for m in self.legal_move_ints()]

    def legal_move_ints(self) -> list[int]:
        """Legal moves as ints (card | captured << 6): the solver's fast path."""
        options = self._captures.options
        table = self.table
        out = []
        for c in iter_cards(self.hands[self.to_move]):
            caps = options((c >> 2) + 1, table)
            if caps:
                out.extend(c | cap << 6 for cap in caps)
            else:
                out.append(c)
        return out

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal here."""
        if not (self.hands[self.to_move] >> move.card & 1):
            return False
        caps = self._captures.options(rank_of(move.card), self.table)
        return move.captured in caps if caps else move.captured == 0

    def parse_move(self, text: str) -> Move:
        """Parse a move in this position, resolving the short form.

        ``7D`` means laying it down, or the capture when exactly one is possible.

        >>> pos = Position.from_line("7D/7C/1B/2B 3C4S2C5B - - 0-0 0 - scientifico", check=False)
        >>> pos.parse_move("7D")
        Traceback (most recent call last):
        ...
        scopone.errors.AmbiguousMoveError: '7D' is ambiguous: 7Dx2C+5B or 7Dx3C+4S
        """
        move = Move.parse(text)
        if not (self.hands[self.to_move] >> move.card & 1):
            raise IllegalMoveError(
                f"{text!r} is illegal: {card_text(move.card)} is not in the hand of seat {self.to_move} "
                f"({mask_text(self.hands[self.to_move]) or 'empty'}) in {self.line()!r}")
        caps = self._captures.options(rank_of(move.card), self.table)
        if move.captured:
            if move.captured not in caps:
                what = (" or ".join(Move(move.card, c).text() for c in caps)
                        if caps else "it can only be laid down")
                raise IllegalMoveError(f"{text!r} is illegal in {self.line()!r}: the legal plays of "
                                       f"{card_text(move.card)} are {what}")
            return move
        if not caps:
            return move
        if len(caps) == 1:
            return Move(move.card, caps[0])
        raise AmbiguousMoveError(
            f"{text!r} is ambiguous: " + " or ".join(Move(move.card, c).text() for c in caps))

    def priority_forced(self, card: int) -> bool:
        """Whether single-card priority removed sum captures for this card here."""
        return self._captures.priority_forced(rank_of(card), self.table)

    def push(self, move: Move | int) -> None:
        """Play a move (a :class:`Move` or its int form). Undo with :meth:`pop`."""
        if isinstance(move, Move):
            card, captured = move.card, move.captured
        else:
            card, captured = move & 63, move >> 6
        seat = self.to_move
        hand = self.hands[seat]
        if not (hand >> card & 1) or captured & ~self.table:
            raise IllegalMoveError(f"{Move(card, captured).text()!r} cannot be played in {self.line()!r}")
        self._stack.append((card, captured, hand, self.table, self.piles[0], self.piles[1],
                            self.scope[0], self.scope[1], self.last_capture))
        self.hands[seat] = hand & ~(1 << card)
        last_play = not any(self.hands)
        team = seat & 1
        if captured:
            self.table &= ~captured
            self.piles[team] |= captured | 1 << card
            self.last_capture = team
            if not self.table and not last_play and self._captures.counts_as_scopa(card, captured):
                self.scope[team] += 1
        else:
            self.table |= 1 << card
        if last_play and self.table and self.last_capture is not None:
            self.piles[self.last_capture] |= self.table
            self.table = 0
        self.to_move = (seat + 1) & 3

    def pop(self) -> Move:
        """Undo the last move and return it."""
        card, captured, hand, table, pa, pb, sa, sb, last = self._stack.pop()
        self.to_move = (self.to_move - 1) & 3
        self.hands[self.to_move] = hand
        self.table = table
        self.piles[0], self.piles[1] = pa, pb
        self.scope[0], self.scope[1] = sa, sb
        self.last_capture = last
        return Move(card, captured)

    def play(self, text: str) -> Move:
        """Parse a move text, check it, and push it. Returns the move."""
        move = self.parse_move(text)
        self.push(move)
        return move

    @property
    def move_stack(self) -> list[Move]:
        """The moves pushed so far, oldest first."""
        return [Move(s[0], s[1]) for s in self._stack]

    # ------------------------------------------------------------------ state
    def is_over(self) -> bool:
        """Whether every card has been played."""
        return not any(self.hands)

    def cards_left(self) -> int:
        """Cards still in the hands."""
        return sum(h.bit_count() for h in self.hands)

    def value_limit(self) -> int:
        """A bound the deal's value cannot reach: every final value ``v`` (team A's
        points minus team B's) has ``-limit < v < limit``.  It follows from the
        scope made, the plays left (each makes at most one scopa) and the most the
        categories can be worth; the searches use it instead of an infinity.

        >>> Position.from_line("7D/7C/1B/2B 3C4S - - 2-0 0 - scientifico", check=False).value_limit()
        11
        """
        return abs(self.scope[0] - self.scope[1]) + self.cards_left() + category_max(self.rules) + 1

    def score(self) -> Score:
        """The score of the piles as they are now (leftovers not yet assigned)."""
        return score_piles(self.piles[0], self.piles[1], (self.scope[0], self.scope[1]), self.rules)

    def result(self) -> Score:
        """The final score breakdown; the deal must be over."""
        if not self.is_over():
            raise PositionError(f"result: the deal is not over ({self.cards_left()} cards still in hand)")
        return self.score()

    def copy(self, stack: bool = False) -> "Position":
        """A copy (without the move stack unless ``stack``)."""
        p = Position(self.hands, self.table, tuple(self.piles), tuple(self.scope), self.to_move,
                     self.last_capture, self.rules, check=False)
        if stack:
            p._stack = list(self._stack)
        return p

    def key(self) -> tuple:
        """A hashable value identifying the position (rules included)."""
        return (tuple(self.hands), self.table, tuple(self.piles), tuple(self.scope),
                self.to_move, self.last_capture, self.rules)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def permute_suits(self, perm: tuple[int, int, int, int]) -> "Position":
        """The same position with suits relabelled (``perm[old] = new``)."""
        f = lambda m: permute_suits(m, perm)  # noqa: E731
        return Position([f(h) for h in self.hands], f(self.table), (f(self.piles[0]), f(self.piles[1])),
                        tuple(self.scope), self.to_move, self.last_capture, self.rules, check=False)

    def table_text(self) -> str:
        """The table as canonical card texts."""
        return mask_text(self.table)

    # ------------------------------------------------------------------ text form
    def line(self) -> str:
        """The one-line position string (round-trips with :meth:`from_line`).

        Fields, space separated: the four hands joined by ``/``, the table,
        team A's pile, team B's pile, the scope ``A-B``, the seat to move, the last
        capturing team (``A``, ``B`` or ``-``) and the rules text.  Cards are
        written without separators (``7D3C10B``); ``-`` is an empty set.

        >>> Position.from_line("7D3C/7C/1B/2B 4S - - 0-0 0 - scientifico", check=False).line()
        '3C7D/7C/1B/2B 4S - - 0-0 0 - scientifico'
        """
        enc = lambda m: mask_text(m, "") or "-"  # noqa: E731
        hands = "/".join(mask_text(h, "") for h in self.hands)
        last = "-" if self.last_capture is None else TEAMS[self.last_capture]
        return (f"{hands} {enc(self.table)} {enc(self.piles[0])} {enc(self.piles[1])} "
                f"{self.scope[0]}-{self.scope[1]} {self.to_move} {last} {self.rules.name}")

    @classmethod
    def from_line(cls, text: str, *, check: bool = True) -> "Position":
        """Parse the one-line position string (see :meth:`line`)."""
        fields = text.split()
        if len(fields) != 8:
            raise FormatError(f"position string {text!r}: expected 8 space-separated fields, got {len(fields)}")
        hands_s, table_s, pa_s, pb_s, scope_s, move_s, last_s, rules_s = fields
        hand_texts = hands_s.split("/")
        if len(hand_texts) != 4:
            raise FormatError(f"position string {text!r}: expected 4 hands separated by '/'")
        try:
            dec = lambda s: 0 if s == "-" else parse_cards(split_card_texts(s))  # noqa: E731
            hands = [dec(h) if h else 0 for h in hand_texts]
            table, pa, pb = dec(table_s), dec(pa_s), dec(pb_s)
        except CardError as e:
            raise FormatError(f"position string {text!r}: {e}") from None
        m = _SCOPE_FIELD.fullmatch(scope_s)
        if not m:
            raise FormatError(f"position string {text!r}: scope must be A-B with counts such as 0-2, not {scope_s!r}")
        scope = (int(m.group(1)), int(m.group(2)))
        if move_s not in ("0", "1", "2", "3"):
            raise FormatError(f"position string {text!r}: the seat to move must be 0, 1, 2 or 3, not {move_s!r}")
        to_move = int(move_s)
        if last_s not in ("A", "B", "-"):
            raise FormatError(f"position string {text!r}: last capture must be A, B or -")
        last = None if last_s == "-" else TEAMS.index(last_s)
        return cls(hands, table, (pa, pb), scope, to_move, last, parse_rules(rules_s), check=check)

    def __repr__(self) -> str:
        return f"Position.from_line({self.line()!r})"

    def __str__(self) -> str:
        rows = [f"{SEAT_NAMES[s]:<6} (seat {s}, team {TEAMS[s & 1]}){' *' if s == self.to_move else ''}: "
                f"{mask_text(self.hands[s]) or '-'}" for s in range(4)]
        rows.append(f"table: {self.table_text() or '-'}")
        return "\n".join(rows)
