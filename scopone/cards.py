"""Cards as ints, card sets as int bitmasks, and the tables built on them.

A card is an int ``0..39`` laid out rank-major: ``card = (rank - 1) * 4 + suit``
with suits Denari=0, Coppe=1, Spade=2, Bastoni=3.  So the four cards of one rank
form one 4-bit nibble of a mask, which makes "how many 5s are on the table" a
shift and a popcount, and a permutation of Coppe/Spade/Bastoni a permutation of
bits 1..3 inside every nibble.

>>> parse_card("7D") == SETTEBELLO
True
>>> card_text(parse_card("10b"))
'10B'
>>> mask_text(parse_cards("3C 7D 1S"))
'1S 3C 7D'
"""

from __future__ import annotations

import re
from typing import Iterable, Iterator

from .errors import CardError

Card = int
CardMask = int

SUITS = "DCSB"
SUIT_NAMES = ("Denari", "Coppe", "Spade", "Bastoni")
#: Unicode symbols used for display and accepted when parsing.
SUIT_SYMBOLS = ("♦", "♥", "♠", "♣")
DENARI, COPPE, SPADE, BASTONI = range(4)
RANKS = range(1, 11)
RANK_NAMES = {1: "Asso", 8: "Fante", 9: "Cavallo", 10: "Re"}

FULL_DECK: CardMask = (1 << 40) - 1


def make_card(rank: int, suit: int) -> Card:
    """The card of ``rank`` (1..10) and ``suit`` (0..3).

    >>> make_card(7, DENARI)
    24
    """
    return (rank - 1) * 4 + suit


def rank_of(card: Card) -> int:
    """Rank 1..10 of a card.

    >>> rank_of(make_card(9, SPADE))
    9
    """
    return (card >> 2) + 1


def suit_of(card: Card) -> int:
    """Suit index 0..3 of a card."""
    return card & 3


SETTEBELLO: Card = make_card(7, DENARI)
RE_BELLO: Card = make_card(10, DENARI)

#: RANK_MASK[r]: the four cards of rank r (index 0 unused).
RANK_MASK: tuple[CardMask, ...] = (0,) + tuple(0xF << (4 * (r - 1)) for r in RANKS)
#: SUIT_MASK[s]: the ten cards of suit s.
SUIT_MASK: tuple[CardMask, ...] = tuple(
    sum(1 << make_card(r, s) for r in RANKS) for s in range(4)
)
DENARI_MASK: CardMask = SUIT_MASK[DENARI]

#: Primiera value of each rank.
PRIMIERA_VALUE: tuple[int, ...] = (0, 16, 12, 13, 14, 15, 18, 21, 10, 10, 10)
#: Ranks in decreasing primiera value: the first one present in a suit is its best.
PRIMIERA_ORDER: tuple[int, ...] = tuple(sorted(RANKS, key=lambda r: -PRIMIERA_VALUE[r]))

_SUIT_ALIASES = {
    **{c: i for i, c in enumerate(SUITS)},
    **{sym: i for i, sym in enumerate(SUIT_SYMBOLS)},
    # The other common symbol forms people type.
    "♢": 0, "♡": 1, "♤": 2, "♧": 3,
    **{name.upper(): i for i, name in enumerate(SUIT_NAMES)},
}
# ASCII digits only: int() would also read Arabic-Indic or fullwidth digits, and a
# rank of thousands of digits would fail in int() with a traceback
_CARD_RE = re.compile(r"\s*([0-9]+)\s*([^\s0-9]+)\s*\Z")
_CARD_TEXT = tuple(f"{rank_of(c)}{SUITS[suit_of(c)]}" for c in range(40))


def parse_card(text: str) -> Card:
    """Parse one card: ``7D``, ``10b``, ``7♦`` or ``7 denari``.

    Raises :class:`CardError` naming the text for anything else.

    >>> parse_card("1c") == make_card(1, COPPE)
    True
    >>> parse_card("11D")
    Traceback (most recent call last):
    ...
    scopone.errors.CardError: '11D' is not a card: rank must be 1..10
    >>> parse_card("007D")
    Traceback (most recent call last):
    ...
    scopone.errors.CardError: '007D' is not a card: rank must be 1..10
    """
    m = _CARD_RE.match(text) if isinstance(text, str) else None
    if isinstance(text, str) and len(text) > 24:
        text = text[:20] + "..."  # quote a long input shortened: the message stays one readable line
    if not m:
        raise CardError(f"{text!r} is not a card (expected rank 1..10 and suit D, C, S or B, e.g. 7D)")
    digits = m.group(1)
    rank = int(digits) if len(digits) <= 2 and not digits.startswith("0") else 0
    suit = _SUIT_ALIASES.get(m.group(2).upper(), _SUIT_ALIASES.get(m.group(2)))
    if not 1 <= rank <= 10:
        raise CardError(f"{text!r} is not a card: rank must be 1..10")
    if suit is None:
        raise CardError(f"{text!r} is not a card: suit must be D, C, S or B")
    return make_card(rank, suit)


def card_name(card: Card) -> str:
    """The card in words: ``7 of Spade``, ``Re of Bastoni``.

    >>> card_name(39)
    'Re of Bastoni'
    """
    r = rank_of(card)
    return f"{RANK_NAMES.get(r, r)} of {SUIT_NAMES[suit_of(card)]}"


def card_text(card: Card) -> str:
    """Canonical text of a card.

    >>> card_text(SETTEBELLO)
    '7D'
    """
    if not isinstance(card, int) or not 0 <= card < 40:
        raise CardError(f"{card!r} is not a card number (0..39)")
    return _CARD_TEXT[card]


def card_symbol(card: Card) -> str:
    """Display text with the suit symbol.

    >>> card_symbol(SETTEBELLO)
    '7♦'
    """
    return f"{rank_of(card)}{SUIT_SYMBOLS[suit_of(card)]}"


def iter_cards(mask: CardMask) -> Iterator[Card]:
    """The cards of a mask in increasing order (rank, then suit D C S B)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_of(mask: CardMask) -> list[Card]:
    """The cards of a mask as a sorted list.

    >>> cards_of(0b101)
    [0, 2]
    """
    return list(iter_cards(mask))


def mask_of(cards: Iterable[Card]) -> CardMask:
    """The mask holding ``cards``.

    >>> mask_of([0, 2])
    5
    """
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def split_card_texts(text: str) -> list[str]:
    """Split a card list written with spaces, commas, '+' or nothing between cards.

    >>> split_card_texts("3C 4S,10B+1D")
    ['3C', '4S', '10B', '1D']
    >>> split_card_texts("7D3C10B")
    ['7D', '3C', '10B']
    """
    out = []
    for chunk in re.split(r"[\s,+]+", text.strip()):
        if not chunk:
            continue
        parts = re.findall(r"\d+\D+?(?=\d|\Z)", chunk)
        if not parts or "".join(parts) != chunk:
            out.append(chunk)  # let parse_card report it
        else:
            out.extend(parts)
    return out


def parse_cards(text: str | Iterable[str]) -> CardMask:
    """Parse a card list (string or iterable of card texts) into a mask.

    Duplicates raise :class:`CardError`.

    >>> mask_text(parse_cards(["7D", "1c"]))
    '1C 7D'
    """
    items = split_card_texts(text) if isinstance(text, str) else list(text)
    mask = 0
    for item in items:
        c = parse_card(item)
        if mask >> c & 1:
            raise CardError(f"card {card_text(c)} is listed twice")
        mask |= 1 << c
    return mask


def mask_text(mask: CardMask, sep: str = " ") -> str:
    """Canonical text of a card set, sorted by rank then suit."""
    return sep.join(_CARD_TEXT[c] for c in iter_cards(mask))


def rank_count(mask: CardMask, rank: int) -> int:
    """How many cards of ``rank`` the mask holds."""
    return ((mask >> (4 * (rank - 1))) & 0xF).bit_count()


def rank_counts(mask: CardMask) -> tuple[int, ...]:
    """Counts per rank, index 0 unused.

    >>> rank_counts(parse_cards("1D 1C 3S"))[:4]
    (0, 2, 0, 1)
    """
    return (0,) + tuple(((mask >> (4 * r)) & 0xF).bit_count() for r in range(10))


def mask_value(mask: CardMask) -> int:
    """Sum of the ranks of the cards in a mask."""
    return sum(r * rank_count(mask, r) for r in RANKS)


# Permutations of Coppe/Spade/Bastoni are symmetries of the game.
SUIT_PERMUTATIONS: tuple[tuple[int, int, int, int], ...] = (
    (0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 1, 3), (0, 2, 3, 1), (0, 3, 1, 2), (0, 3, 2, 1),
)
_NIBBLE_PERM = {
    perm: tuple(sum(1 << perm[s] for s in range(4) if n >> s & 1) for n in range(16))
    for perm in SUIT_PERMUTATIONS
}


def permute_suits(mask: CardMask, perm: tuple[int, int, int, int]) -> CardMask:
    """Apply a suit permutation (``perm[old_suit] = new_suit``) to a mask.

    >>> card_text(cards_of(permute_suits(parse_cards("3C"), (0, 2, 1, 3)))[0])
    '3S'
    """
    table = _NIBBLE_PERM.get(perm)
    if table is None:
        table = tuple(sum(1 << perm[s] for s in range(4) if n >> s & 1) for n in range(16))
    out = 0
    for r in range(10):
        out |= table[(mask >> (4 * r)) & 0xF] << (4 * r)
    return out
