"""Showing cards and positions: one rendering of cards for every output.

* :mod:`scopone.render.cards`: the suit colours and the SVG card faces;
* :mod:`scopone.render.terminal`: rich views for the terminal;
* :mod:`scopone.render.html`: the Jinja2 environment (autoescape on) for HTML reports.
"""
