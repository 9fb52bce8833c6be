"""Card faces drawn as SVG by the project: rank, suit sign, the settebello marked.

The four Italian suits get their own signs, drawn here as simple shapes (no
fonts or images from elsewhere): Denari a gold coin, Coppe a red cup, Spade a
blue sword, Bastoni a green club.  The settebello (7 of Denari) has a gold
frame and the word *settebello*.  The colours are the terminal's (Denari
yellow, Coppe red, Spade blue, Bastoni green).

>>> svg = card_svg(24)   # 7D
>>> svg.startswith("<svg") and "settebello" in svg and "7 of Denari" in svg
True
"""

from __future__ import annotations

from ..cards import RANK_NAMES, SETTEBELLO, card_name, rank_of, suit_of

#: Fill colour of each suit's sign (Denari, Coppe, Spade, Bastoni).
SUIT_COLOURS = ("#c9a000", "#c0392b", "#2c5aa0", "#2e7d32")

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
