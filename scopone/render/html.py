"""The Jinja2 environment for HTML output: autoescape on, templates shipped in the package.

Every page is one self-contained file: inline CSS, inline SVG, inline script,
nothing loaded from elsewhere.  Data for scripts goes in with the ``tojson``
filter (HTML-safe), all other text through autoescaping.

>>> env().from_string("{{ x }}").render(x="<b>")
'&lt;b&gt;'
"""

from __future__ import annotations

from functools import lru_cache

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from .cards import SUIT_COLOURS, html_text, text_label


@lru_cache(maxsize=None)
def env() -> Environment:
    """The shared environment (templates from ``scopone/render/templates``).  Its
    filter ``cards`` escapes a text and draws the cards in it with the suit signs
    (:func:`scopone.render.cards.html_text`); ``CARD_CSS`` colours them."""
    e = Environment(loader=PackageLoader("scopone.render", "templates"),
                    autoescape=select_autoescape(default=True, default_for_string=True),
                    trim_blocks=True, lstrip_blocks=True)
    e.filters["cards"] = html_text
    e.filters["symbols"] = lambda text: text_label(str(text), "symbols")  # where no markup may go (SVG titles)
    e.globals["CARD_CSS"] = CARD_CSS
    return e


#: The style of cards drawn inside text (:func:`scopone.render.cards.card_html`).
CARD_CSS = Markup(" ".join(f".cd.s{s} {{ color: {c}; }}" for s, c in enumerate(SUIT_COLOURS))
                  + " .cd { font-weight: bold; white-space: nowrap; } svg.pip { vertical-align: -2px; }")
