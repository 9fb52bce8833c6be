"""The one way cards are shown: notation, colours, and SVG faces.

Two notations for text, chosen with ``--notation``:

* ``letters``: the file format's own text, ``7D``, ``10Cx3C+7C`` (D Denari, C Coppe,
  S Spade, B Bastoni);
* ``symbols``: the same with a sign per suit, ``7♦``, ``10♥x3♥+7♥`` (♦ Denari,
  ♥ Coppe, ♠ Spade, ♣ Bastoni).

Whichever is chosen, the cards in a diagram and the moves in its solution are
written the same way, and :func:`legend` names the four Italian suits once.
HTML pages draw every card, in a diagram or inside a sentence, with the same
suit signs as the SVG faces (:func:`card_svg`, :func:`card_html`), drawn here as
simple shapes (no fonts or images from elsewhere): Denari a gold coin, Coppe a red
cup, Spade a blue sword, Bastoni a green club.  The settebello (7 of Denari) has a
gold frame and the word *settebello*.  The colours are the terminal's (Denari
yellow, Coppe red, Spade blue, Bastoni green).

>>> card_label(24, "symbols"), move_label("10Cx3C+7C", "symbols"), move_label("10Cx3C+7C", "letters")
('7♦', '10♥x3♥+7♥', '10Cx3C+7C')
>>> svg = card_svg(24)   # 7D
>>> svg.startswith("<svg") and "settebello" in svg and "7 of Denari" in svg
True
"""

from __future__ import annotations

import re
from typing import Iterator

from markupsafe import Markup, escape

from ..cards import RANK_NAMES, SETTEBELLO, SUIT_NAMES, SUIT_SYMBOLS, SUITS, card_name, make_card, rank_of, suit_of

#: The notations text output can use.
NOTATIONS = ("letters", "symbols")

#: Fill colour of each suit's sign (Denari, Coppe, Spade, Bastoni).
SUIT_COLOURS = ("#c9a000", "#c0392b", "#2c5aa0", "#2e7d32")

#: A card written in the file notation inside any text: ``7D``, ``10C``, the cards of
#: ``10Cx3C+7C``; not inside a word (the ``x`` of a capture is the one letter allowed beside).
CARD_TOKEN = re.compile(r"(?<![0-9A-Za-wyz])(10|[1-9])([DCSB])(?![0-9A-Za-wyz])")


def check_notation(notation: str) -> str:
    """``notation`` if it is one of :data:`NOTATIONS`, else ValueError."""
    if notation not in NOTATIONS:
        raise ValueError(f"notation must be letters or symbols, not {notation!r}")
    return notation


def suit_sign(suit: int, notation: str = "symbols") -> str:
    """The suit as written in ``notation``: ``♦`` or ``D``."""
    return SUIT_SYMBOLS[suit] if check_notation(notation) == "symbols" else SUITS[suit]


def card_label(card: int, notation: str = "symbols") -> str:
    """One card in ``notation``: ``7♦`` or ``7D``."""
    return f"{rank_of(card)}{suit_sign(suit_of(card), notation)}"


def move_label(move, notation: str = "symbols") -> str:
    """A move (a :class:`~scopone.position.Move` or its text) in ``notation``:
    ``10♥x3♥+7♥`` or ``10Cx3C+7C``."""
    text = move if isinstance(move, str) else move.text()
    return text_label(text, notation)


def text_label(text: str, notation: str = "symbols") -> str:
    """Any text with its card tokens (``7D``) rewritten in ``notation``.

    >>> text_label("7D loses 1: East's 7C takes the settebello", "symbols")
    "7♦ loses 1: East's 7♥ takes the settebello"
    """
    if check_notation(notation) == "letters":
        return text
    return CARD_TOKEN.sub(lambda m: m.group(1) + SUIT_SYMBOLS[SUITS.index(m.group(2))], text)


def split_cards(text: str) -> Iterator[str | int]:
    """The pieces of ``text``: plain strings and cards (ints) where card tokens stand.

    >>> list(split_cards("play 7D now"))
    ['play ', 24, ' now']
    """
    pos = 0
    for m in CARD_TOKEN.finditer(text):
        if m.start() > pos:
            yield text[pos:m.start()]
        yield make_card(int(m.group(1)), SUITS.index(m.group(2)))
        pos = m.end()
    if pos < len(text):
        yield text[pos:]


def legend(notation: str = "symbols") -> str:
    """The four Italian suits named once: ``♦ Denari · ♥ Coppe · ♠ Spade · ♣ Bastoni``."""
    return " · ".join(f"{suit_sign(s, notation)} {SUIT_NAMES[s]}" for s in range(4))


_SIGNS = (
    # Denari: a coin
    '<circle r="11" fill="{c}" stroke="#7a5c00" stroke-width="1.5"/><circle r="5.5" fill="none" '
    'stroke="#7a5c00" stroke-width="1.2"/>',
    # Coppe: a cup
    '<path d="M-11,-11 H11 Q10,3 0,5 Q-10,3 -11,-11 Z" fill="{c}"/><rect x="-2" y="5" width="4" height="6" '
    'fill="{c}"/><rect x="-8" y="11" width="16" height="3" rx="1" fill="{c}"/>',
    # Spade: a sword
    '<path d="M0,-16 L3,-12 L3,7 L-3,7 L-3,-12 Z" fill="{c}"/><rect x="-9" y="7" width="18" height="3" '
    'rx="1" fill="{c}"/><rect x="-2" y="10" width="4" height="6" fill="{c}"/>',
    # Bastoni: a club
    '<rect x="-4.5" y="-15" width="9" height="30" rx="4.5" fill="{c}" transform="rotate(20)"/>'
    '<circle cx="-3" cy="-6" r="1.6" fill="#fff"/><circle cx="2" cy="4" r="1.6" fill="#fff"/>',
)


def suit_svg(suit: int, size: int = 14) -> str:
    """The suit's sign alone, as an inline SVG ``size`` pixels high (for text and legends)."""
    return (f'<svg class="pip" viewBox="-17 -17 34 34" width="{size}" height="{size}" role="img" '
            f'aria-label="{SUIT_NAMES[suit]}">{_SIGNS[suit].format(c=SUIT_COLOURS[suit])}</svg>')


def card_svg(card: int, width: int = 48) -> str:
    """One card face as an inline SVG element (``width`` pixels wide, 3:2 tall)."""
    r, s = rank_of(card), suit_of(card)
    colour = SUIT_COLOURS[s]
    bello = card == SETTEBELLO
    frame = ('<rect x="1.5" y="1.5" width="57" height="87" rx="6" fill="#fff8d6" stroke="#c9a000" '
             'stroke-width="3"/>' if bello else
             '<rect x="1" y="1" width="58" height="88" rx="6" fill="#fff" stroke="#555" stroke-width="1"/>')
    figure = RANK_NAMES.get(r, "") if r >= 8 else ""
    under = "settebello" if bello else figure
    return (
        f'<svg class="card" viewBox="0 0 60 90" width="{width}" height="{width * 3 // 2}" role="img" '
        f'aria-label="{card_name(card)}"><title>{card_name(card)}</title>{frame}'
        f'<text x="7" y="19" font-family="sans-serif" font-size="16" font-weight="bold" fill="{colour}">{r}</text>'
        f'<g transform="translate(30,44)">{_SIGNS[s].format(c=colour)}</g>'
        + (f'<text x="30" y="80" text-anchor="middle" font-family="sans-serif" font-size="9" '
           f'fill="{colour}">{under}</text>' if under else "")
        + "</svg>"
    )


def card_html(card: int) -> Markup:
    """A card inside a line of HTML text: its rank and its suit's sign, in the suit's colour."""
    s = suit_of(card)
    return Markup(f'<span class="cd s{s}" title="{card_name(card)}">{rank_of(card)}{suit_svg(s)}</span>')


def html_text(text: str) -> Markup:
    """``text`` escaped for HTML, with every card token drawn by :func:`card_html`.

    >>> str(html_text("<b> 7D")).startswith('&lt;b&gt; <span class="cd s0"')
    True
    """
    return Markup("").join(card_html(p) if isinstance(p, int) else escape(p) for p in split_cards(str(text)))
