"""The puzzle book: one card notation, the HTML's structure and escaping, the PDF's
bookmarks and page references, bad input, and the page in a real browser."""

from __future__ import annotations

import copy
import io
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from scopone.cli import main
from scopone.puzzles.book import book_html, book_pdf
from scopone.puzzles.files import read_puzzle_file
from scopone.render.cards import CARD_TOKEN, legend, move_label, text_label
from browser import needs_browser, open_page

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "puzzles.json"
HOSTILE = "<script>alert('x')</script> & \"q\""


@pytest.fixture(scope="module")
def data():
    return read_puzzle_file(EXAMPLE)


@pytest.fixture(scope="module")
def small(data):
    """The first five puzzles (PDFs of the whole file take seconds each)."""
    d = copy.deepcopy(data)
    d["puzzles"] = d["puzzles"][:5]
    return d


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


class _Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.hrefs, self.classes, self.scripts, self.data_ids = [], [], [], 0, []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.scripts += tag == "script"
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "a" and "href" in a:
            self.hrefs.append(a["href"])
        if tag == "article":
            self.classes.append(a.get("class"))
            if "data-id" in a:
                self.data_ids.append(a["data-id"])


def _parse(html: str) -> _Page:
    page = _Page()
    page.feed(html)
    return page


# ---------------------------------------------------------------- notation


def test_one_notation_for_cards_moves_and_sentences():
    assert move_label("10Cx3C+7C", "symbols") == "10♥x3♥+7♥"
    assert move_label("10Cx3C+7C", "letters") == "10Cx3C+7C"
    assert text_label("East's 7C takes 1D and 3S", "symbols") == "East's 7♥ takes 1♦ and 3♠"
    assert text_label("A7D B2 10DS", "symbols") == "A7D B2 10DS"  # not cards: inside words
    assert legend("symbols") == "♦ Denari · ♥ Coppe · ♠ Spade · ♣ Bastoni"
    assert legend("letters") == "D Denari · C Coppe · S Spade · B Bastoni"


def test_puzzles_show_writes_the_solution_in_the_diagrams_notation(data):
    pid = data["puzzles"][0]["id"]
    out = run("puzzles", "show", EXAMPLE, "--id", pid, "--solution", "--notation", "symbols").output
    assert not CARD_TOKEN.search(out.replace(pid, ""))  # no 7D-style card anywhere: all symbols
    assert "♦ Denari · ♥ Coppe · ♠ Spade · ♣ Bastoni" in out
    letters = run("puzzles", "show", EXAMPLE, "--id", pid, "--solution", "--notation", "letters").output
    assert not re.search("[♦♥♠♣]", letters) and "D Denari · C Coppe" in letters
    for text in (out, letters):
        assert "rated by" not in text and "solution tree:" not in text and "search-" not in text
        assert "(0, A)" not in text and "North–South" in text
        assert all(line == line.rstrip() for line in text.splitlines())


# ---------------------------------------------------------------- HTML


def test_every_puzzle_once_and_every_link_resolves(data):
    html = book_html(data, per_page=2)
    page = _parse(html)
    n = len(data["puzzles"])
    assert page.classes.count("puzzle") == n and page.classes.count("solution") == n
    assert sorted(page.data_ids) == sorted(p["id"] for p in data["puzzles"])
    assert len(page.ids) == len(set(page.ids))
    inner = [h[1:] for h in page.hrefs if h.startswith("#")]
    assert inner and set(inner) <= set(page.ids)
    assert all(h.startswith("#") for h in page.hrefs)  # nothing outside the file
    for k in range(1, n + 1):
        assert f'href="#solution-{k}"' in html and f'id="puzzle-{k}"' in html
    assert page.scripts == 1  # the one inline script that opens solutions for printing
    assert "http://" not in html and "https://" not in html


def test_per_page_paper_and_order(data):
    html = book_html(data, per_page=4, paper="Letter", order="difficulty")
    assert "size: letter" in html
    sheets = re.findall(r'<div class="sheet">(.*?)</div>\s*(?=<div class="sheet">|</section>)', html, re.S)
    sizes = [s.count('class="puzzle"') for s in sheets]
    assert sizes[:-1] == [4] * (len(sizes) - 1) and 1 <= sizes[-1] <= 4 and sum(sizes) == len(data["puzzles"])
    levels = [int(x) for x in re.findall(r'title="difficulty (\d) of 7', html)]
    assert levels == sorted(levels)  # easiest first
    by_theme = book_html(data, order="theme")
    first = [p["themes"][0] if p["themes"] else "~" for p in data["puzzles"]]
    shown = re.findall(r'<article class="puzzle" id="puzzle-\d+" data-id="([^"]+)"', by_theme)
    ids = {p["id"]: (p["themes"][0] if p["themes"] else "~") for p in data["puzzles"]}
    assert [ids[i] for i in shown] == sorted(first)


def test_text_from_the_file_is_escaped(small):
    d = copy.deepcopy(small)
    p = d["puzzles"][0]
    p["id"], p["question"], p["themes"] = HOSTILE, HOSTILE, [HOSTILE]
    p["explanation"] = {"solution": HOSTILE, "tempting": HOSTILE, "moves": [{"move": p["moves"][0]["move"],
                                                                            "value": 0, "loss": 0, "why": HOSTILE}]}
    html = book_html(d)
    assert "<script>alert" not in html and "&lt;script&gt;alert" in html
    assert _parse(html).scripts == 1


def test_seat_view_puzzles_hide_the_other_hands(small):
    d = copy.deepcopy(small)
    d["puzzles"] = d["puzzles"][:1]
    d["puzzles"][0]["view"] = "seat"
    d["puzzles"][0]["probability"] = 0.8
    html = book_html(d, per_page=1)
    assert html.count("cards, not seen") == 3 and "80% of the deals" in html


# ---------------------------------------------------------------- PDF


@pytest.fixture(scope="module")
def pdf(small):
    from pypdf import PdfReader

    return PdfReader(io.BytesIO(book_pdf(small, per_page=2)))


def test_pdf_has_a_bookmark_per_puzzle(pdf, small):
    outline = pdf.outline
    titles = [o.title for o in outline if not isinstance(o, list)]
    assert titles == ["Contents", "Puzzles", "Solutions", "Index"]
    puzzles = outline[titles.index("Puzzles") + 1]  # the children follow their parent
    assert [o.title for o in puzzles] == [f"Puzzle {k}" for k in range(1, len(small["puzzles"]) + 1)]
    for k, o in enumerate(puzzles, 1):  # each bookmark opens the page holding its puzzle
        assert f"Puzzle {k}" in pdf.pages[pdf.get_destination_page_number(o)].extract_text()


def test_pdf_page_references_match(pdf, small):
    texts = [page.extract_text() for page in pdf.pages]
    refs = {}
    for t in texts:
        for k, page in re.findall(r"Solution No\. (\d+), page (\d+)", t):
            refs[int(k)] = int(page)
    assert sorted(refs) == list(range(1, len(small["puzzles"]) + 1))
    for k, page in refs.items():
        assert re.search(rf"Solution No\. {k}\b(?!,)", texts[page - 1]), (k, page)
    assert all(str(i) in texts[i - 1].split() for i in range(2, len(texts) + 1))  # page numbers


# ---------------------------------------------------------------- the command


def test_book_command_writes_html_and_pdf(tmp_path, small):
    src = tmp_path / "p.json"
    src.write_text(json.dumps(small))
    r = run("puzzles", "book", src, "-o", tmp_path / "b.html", "--pdf", tmp_path / "b.pdf", "--per-page", "1")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "b.pdf").read_bytes()[:5] == b"%PDF-"
    assert (tmp_path / "b.html").read_text().count('class="puzzle"') == 5


@pytest.mark.parametrize("content, message", [
    ('{"format": "scopone-position/1"}', "not a scopone-puzzles/1 file"),
    ("[1, 2]", "not a scopone-puzzles/1 file"),
    ("{", "not valid JSON"),
])
def test_book_refuses_a_file_that_is_not_a_puzzle_file(tmp_path, content, message):
    src = tmp_path / "p.json"
    src.write_text(content)
    r = run("puzzles", "book", src, "-o", tmp_path / "b.html")
    assert r.exit_code == 2 and message in r.output and len(r.output.strip().splitlines()) == 1
    assert not (tmp_path / "b.html").exists()


def test_book_refuses_a_puzzle_whose_lines_do_not_replay(tmp_path, small):
    d = copy.deepcopy(small)
    d["puzzles"][1]["solution"] = ["10Dx1D"]  # not a legal move there
    src = tmp_path / "p.json"
    src.write_text(json.dumps(d))
    r = run("puzzles", "book", src, "-o", tmp_path / "b.html")
    assert r.exit_code == 2 and "puzzles[1]" in r.output and len(r.output.strip().splitlines()) == 1
    assert not (tmp_path / "b.html").exists()


def test_book_verify_refuses_a_wrong_claim(tmp_path, small):
    d = copy.deepcopy(small)
    d["puzzles"] = d["puzzles"][:2]
    d["puzzles"][0]["value"] += 1
    src = tmp_path / "p.json"
    src.write_text(json.dumps(d))
    r = run("puzzles", "book", src, "-o", tmp_path / "b.html", "--verify")
    assert r.exit_code == 2 and d["puzzles"][0]["id"] in r.output
    assert not (tmp_path / "b.html").exists()
    assert run("puzzles", "book", src, "-o", tmp_path / "b.html").exit_code == 0  # without --verify it prints


def test_book_needs_an_output(tmp_path):
    r = run("puzzles", "book", EXAMPLE)
    assert r.exit_code == 2 and "-o" in r.output
    r = run("puzzles", "book", EXAMPLE, "-o", tmp_path / "missing" / "b.html")
    assert r.exit_code == 2 and "does not exist" in r.output


# ---------------------------------------------------------------- in a browser


@needs_browser
def test_the_book_opens_in_a_real_browser(tmp_path, small):
    path = tmp_path / "book.html"
    path.write_text(book_html(small), encoding="utf-8")
    dom, console, _ = open_page(path, tmp_path, size="1000,1400")
    assert dom.count('class="puzzle"') == 5 and dom.count("<details>") == 5
    assert console == [], console
