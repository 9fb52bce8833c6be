"""The puzzle book: a puzzle file as one self-contained HTML page, and as a PDF.

Each puzzle gets a diagram (the four hands around the table with seat names and
partnerships, the table, the piles and the score so far, who plays), its
question, themes and difficulty in stars, and a pointer to its solution; the
solutions come at the back (the solving line, why it works, the tempting move
and its refutation, every first move's value, the main branches of the
solution tree), then an index by theme and by difficulty.  Cards are drawn with
the project's own SVG faces and suit signs (:mod:`scopone.render.cards`), also
inside sentences and lines of play.  Every text from the file is escaped.

The HTML shows solutions behind a reveal on screen and opens them for
printing; the PDF (WeasyPrint) has page numbers, "solution on page N"
references and a bookmark per puzzle.

>>> from scopone.puzzles.files import read_puzzle_file
>>> html = book_html(read_puzzle_file("examples/puzzles.json"), per_page=2)
>>> html.count('class="puzzle"') == len(read_puzzle_file("examples/puzzles.json")["puzzles"])
True
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx
from markupsafe import Markup

from ..cards import DENARI_MASK, SETTEBELLO, iter_cards
from ..errors import FormatError, ScoponeError
from ..formats import check_output, position_from_dict, write_bytes_atomic, write_text_atomic
from ..position import SEAT_NAMES, Position
from ..render.cards import SUIT_COLOURS, card_svg, html_text, suit_svg
from ..render.html import env
from ..render.lines import line_steps
from ..render.terminal import TEAM_NAMES
from ..scoring import standings

ORDERS = ("file", "difficulty", "theme")
PAPERS = {"a4": "A4", "letter": "letter"}
#: Card width in pixels for 1, 2 or 4 puzzles a page.
CARD_WIDTH = {1: 56, 2: 34, 4: 24}
#: How many moves of a refutation the solutions show.
REFUTATION_SHOWN = 12


@dataclass
class Step:
    """A move of a shown line: seat name, the move drawn, whether it sweeps."""

    seat: str
    move: Markup
    scopa: bool


@dataclass
class Branch:
    """A move of the solution tree with the branches that follow it."""

    step: Step
    children: list["Branch"] = field(default_factory=list)


@dataclass
class Seat:
    name: str
    team: str
    cards: list[Markup]
    count: int
    to_play: bool
    hidden: bool


@dataclass
class Entry:
    """One puzzle as the book shows it."""

    number: int
    pid: str
    question: Markup
    themes: list[str]
    level: int
    label: str
    seats: list[Seat]
    table: list[Markup]
    piles: list[str]
    decided: str
    open: str
    to_play: str
    view: str
    solution: list[Step]
    explanation: Markup | None
    tempting_move: Markup
    tempting_value: int
    tempting_why: Markup | None
    refutation: list[Step]
    refutation_more: int
    moves: list[dict]
    tree: list[Branch]
    probability: float | None
    seat_finder: str | None


def _finder(p: dict) -> str | None:
    """Who finds the answer seeing only the player's hand (``seat_difficulty``), in words."""
    sd = p.get("seat_difficulty")
    if not isinstance(sd, dict) or "solved_by" not in sd:
        return None
    spec = sd["solved_by"]
    if spec is None:
        return "none of the players tried (up to PIMC with 64 sampled deals) finds it seeing only its own hand"
    if not isinstance(spec, str):
        return None
    who = (f"PIMC with {spec.split('=', 1)[1]} sampled deals" if spec.startswith("pimc:samples=")
           else f"the {spec} player")
    return f"seeing only its own hand, {who} finds it"


def _steps(start: Position, moves) -> list[Step]:
    return [Step(SEAT_NAMES[s.seat], html_text(s.move), s.scopa) for s in line_steps(start, moves)]


def _tree(p: dict, pos: Position, depth: int = 8) -> list[Branch]:
    """The solution tree from the root: every move it holds, nested, ``depth`` plies deep."""
    g = nx.node_link_graph(p["tree"], edges="edges")
    root = pos.line()
    if root not in g:
        return []

    def grow(node: str, left: int) -> list[Branch]:
        if left == 0:
            return []
        here = Position.from_line(node)
        out = []
        for _, child, data in sorted(g.out_edges(node, data=True), key=lambda e: e[2].get("move", "")):
            step = _steps(here, [data["move"]])[0]
            out.append(Branch(step, grow(child, left - 1)))
        return out

    return grow(root, depth)


def _pile_text(pos: Position, team: int) -> str:
    pile = pos.piles[team]
    bits = [f"{pile.bit_count()} cards", f"{(pile & DENARI_MASK).bit_count()} Denari"]
    if pile >> SETTEBELLO & 1:
        bits.append("the settebello")
    bits.append(f"{pos.scope[team]} scop{'a' if pos.scope[team] == 1 else 'e'}")
    return f"{TEAM_NAMES[team]}: " + ", ".join(bits)


def _score_texts(pos: Position) -> tuple[str, str]:
    """What is decided so far and what is still open, in words."""
    decided, open_ = [], []
    for st in standings(pos.piles[0], pos.piles[1], pos.scope, pos.rules):
        if st.category == "scope":
            continue
        if st.points is None:
            counts = [x.rstrip("*") for x in ((st.a, st.b) if st.leader == 0 else (st.b, st.a))]
            lead = f", {TEAM_NAMES[st.leader]} ahead {counts[0]}–{counts[1]}" if st.leader is not None and st.a and st.b else ""
            open_.append(st.category + lead)
        elif st.points == (0, 0):
            decided.append(f"{st.category} shared")
        else:
            decided.append(f"{st.category} to {TEAM_NAMES[0 if st.points[0] else 1]}")
    return ("; ".join(decided) or "nothing yet"), ("; ".join(open_) or "nothing")


def _entry(number: int, p: dict, where: str) -> Entry:
    pos = position_from_dict(p["position"], where)
    if pos.is_over():
        raise FormatError(f"{where}.position: the deal is over: nothing to solve")
    team = pos.to_move & 1
    sign = 1 if team == 0 else -1  # values from the solving side
    seat_view = p.get("view") == "seat"
    seats = []
    for s in range(4):
        hidden = seat_view and s != pos.to_move
        seats.append(Seat(SEAT_NAMES[s], TEAM_NAMES[s & 1],
                          [] if hidden else [Markup(card_svg(c)) for c in iter_cards(pos.hands[s])],
                          pos.hands[s].bit_count(), s == pos.to_move, hidden))
    decided, open_ = _score_texts(pos)
    expl = p.get("explanation") if isinstance(p.get("explanation"), dict) else {}
    why = {m.get("move"): m.get("why") for m in expl.get("moves", []) if isinstance(m, dict)}
    best = max(sign * m["value"] for m in p["moves"])
    moves = [{"move": html_text(m["move"]), "value": sign * m["value"], "loss": best - sign * m["value"],
              "why": html_text(why[m["move"]]) if isinstance(why.get(m["move"]), str) else None}
             for m in sorted(p["moves"], key=lambda m: -sign * m["value"])]
    t = p["tempting"]
    after = pos.copy()
    after.play(t["move"])
    ref = t["refutation"]
    prob = p.get("probability")
    return Entry(
        number=number, pid=p["id"], question=html_text(p["question"]), themes=list(p["themes"]),
        level=p["difficulty"]["level"], label=p["difficulty"]["label"], seats=seats,
        table=[Markup(card_svg(c)) for c in iter_cards(pos.table)],
        piles=[_pile_text(pos, 0), _pile_text(pos, 1)], decided=decided, open=open_,
        to_play=f"{SEAT_NAMES[pos.to_move]} ({TEAM_NAMES[team]}) to play", view="seat" if seat_view else "all",
        solution=_steps(pos, p["solution"]),
        explanation=html_text(expl["solution"]) if isinstance(expl.get("solution"), str) else None,
        tempting_move=html_text(t["move"]), tempting_value=sign * t["value"],
        tempting_why=html_text(expl["tempting"]) if isinstance(expl.get("tempting"), str) else None,
        refutation=_steps(after, ref[:REFUTATION_SHOWN]), refutation_more=max(0, len(ref) - REFUTATION_SHOWN),
        moves=moves, tree=_tree(p, pos), probability=prob if isinstance(prob, (int, float)) else None,
        seat_finder=_finder(p),
    )


def _ordered(puzzles: list[dict], order: str) -> list[dict]:
    if order == "difficulty":
        return sorted(puzzles, key=lambda p: p["difficulty"]["level"])  # stable: file order within a level
    if order == "theme":
        return sorted(puzzles, key=lambda p: (p["themes"][0] if p["themes"] else "~", p["difficulty"]["level"]))
    return list(puzzles)


def book_entries(data: dict, order: str = "file", source: str = "puzzles") -> list[Entry]:
    """The puzzles of a puzzle file as the book shows them, numbered in ``order``
    (``file``, ``difficulty`` or ``theme``); a puzzle whose lines do not replay is
    refused with a :class:`~scopone.errors.FormatError` naming it."""
    if order not in ORDERS:
        raise ValueError(f"order must be one of {', '.join(ORDERS)}, not {order!r}")
    index = {id(p): i for i, p in enumerate(data["puzzles"])}
    out = []
    for n, p in enumerate(_ordered(data["puzzles"], order), 1):
        where = f"{source}: puzzles[{index[id(p)]}]"
        try:
            out.append(_entry(n, p, where))
        except FormatError:
            raise
        except (ScoponeError, KeyError, TypeError, ValueError, nx.NetworkXError) as e:
            raise FormatError(f"{where} ({p.get('id')}): {e}") from None
    return out


def book_html(data: dict, *, order: str = "file", per_page: int = 2, paper: str = "A4",
              title: str = "Scopone Scientifico: puzzles", pdf: bool = False, source: str = "puzzles") -> str:
    """The book as one self-contained HTML page.  ``pdf`` lays it out for WeasyPrint
    (page references, solutions always shown)."""
    if per_page not in CARD_WIDTH:
        raise ValueError(f"per_page must be 1, 2 or 4, not {per_page}")
    if paper.lower() not in PAPERS:
        raise ValueError(f"paper must be A4 or Letter, not {paper!r}")
    entries = book_entries(data, order, source)
    by_theme: dict[str, list[Entry]] = defaultdict(list)
    by_level: dict[tuple[int, str], list[Entry]] = defaultdict(list)
    for e in entries:
        for t in e.themes:
            by_theme[t].append(e)
        by_level[(e.level, e.label)].append(e)
    sheets = [entries[i:i + per_page] for i in range(0, len(entries), per_page)]
    legend = [(suit_svg(s, 16), name, SUIT_COLOURS[s]) for s, name in enumerate(("Denari", "Coppe", "Spade", "Bastoni"))]
    return env().get_template("book.html.j2").render(
        title=title, entries=entries, sheets=sheets, per_page=per_page, card_width=CARD_WIDTH[per_page],
        paper=PAPERS[paper.lower()], pdf=pdf, by_theme=sorted(by_theme.items()),
        by_level=sorted(by_level.items()), legend=[(Markup(svg), n, c) for svg, n, c in legend],
        rules=data.get("rules", "scientifico") if isinstance(data.get("rules"), str) else "scientifico",
    )


def write_book(data: dict, html_path: str | Path | None = None, pdf_path: str | Path | None = None,
               **options) -> None:
    """Write the book as HTML and/or PDF (each file whole or not at all)."""
    for path in (html_path, pdf_path):
        if path is not None:
            check_output(path)
    if html_path is not None:
        write_text_atomic(html_path, book_html(data, **options))
    if pdf_path is not None:
        write_bytes_atomic(pdf_path, book_pdf(data, **options))


def book_pdf(data: dict, **options) -> bytes:
    """The book as a PDF (WeasyPrint): page numbers, page references, a bookmark per puzzle."""
    import logging

    from weasyprint import HTML

    logging.getLogger("weasyprint").setLevel(logging.ERROR)  # its warnings are about CSS it skips
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    return HTML(string=book_html(data, pdf=True, **options)).write_pdf()
