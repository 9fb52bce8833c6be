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


@lru_cache(maxsize=None)
def env() -> Environment:
    """The shared environment (templates from ``scopone/render/templates``)."""
    return Environment(loader=PackageLoader("scopone.render", "templates"),
                       autoescape=select_autoescape(default=True, default_for_string=True),
                       trim_blocks=True, lstrip_blocks=True)
