"""The coach's HTML report: self-contained, escaped, and working in a real browser."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from scopone.coach import CoachSettings, analyse_game
from scopone.coach.report import report_html
from scopone.deal import deal
from scopone.formats import GameRecord
from scopone.render.cards import card_svg
from browser import needs_browser, open_page
from test_coach import dd_finish

HOSTILE = "<script>alert('x')</script> & \"quotes\""


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    start = deal(seed=2, cards_per_hand=3)
    record = GameRecord(start, dd_finish(start, []), {"players": [HOSTILE, "b", "c", "d"], "comment": HOSTILE})
    html = report_html(record, analyse_game(record, CoachSettings(samples=8)), f"Analysis of {HOSTILE}")
    path = tmp_path_factory.mktemp("report") / "report.html"
    path.write_text(html, encoding="utf-8")
    return html, path


class _Collect(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.scripts, self.urls = [], 0, []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.scripts += tag == "script"
        self.urls += [v for k, v in attrs if k in ("src", "href") and v]


def test_the_report_is_self_contained_and_escaped(page):
    html, _ = page
    p = _Collect()
    p.feed(html)
    assert p.urls == []  # nothing loaded from elsewhere: no src, no href
    assert not re.search(r"https?://(?!www\.w3\.org)", html)
    assert p.scripts == 2  # the data and the page's own script
    assert "<script>alert" not in html and "&lt;script&gt;alert" in html
    assert p.tags.count("tr") >= 12 + 4  # a row per play and per seat
    assert html.count('class="play"') == 12


def test_card_faces_tell_the_suits_apart_and_mark_the_settebello():
    faces = [card_svg(c) for c in range(40)]
    assert len(set(faces)) == 40
    assert "settebello" in card_svg(24) and not any("settebello" in f for i, f in enumerate(faces) if i != 24)
    assert "Denari" in card_svg(0) and "#c9a000" in card_svg(0)  # the coin is gold


@needs_browser
def test_the_report_runs_in_a_real_browser(page, tmp_path):
    _, path = page
    dom, console, _ = open_page(path, tmp_path)
    assert "Before play 1" in dom  # the page's script ran and drew the board
    assert dom.count('class="card"') >= 12  # the cards of the first position
    assert console == [], console
