"""The coach's HTML report: one self-contained page with the plays, their
annotations, a chart of the deal's value over the plays in both views, and
the hands and table at any play drawn as cards (click a point or a row).

>>> from scopone.coach.report import chart_points
>>> chart_points([0, 1, None, -1], width=100, height=50, pad=5)
[(5.0, 25.0), (35.0, 5.0), None, (95.0, 45.0)]
"""

from __future__ import annotations

from ..formats import GameRecord
from ..position import SEAT_NAMES, Position
from ..render.cards import card_svg
from ..render.html import env
from ..scoring import TEAMS
from .analyse import Analysis

CLASS_COLOURS = {"best": "#2e7d32", "good": "#7cb342", "inaccuracy": "#f9a825", "mistake": "#ef6c00",
                 "blunder": "#c62828", "forced": "#9e9e9e"}


def chart_points(values: list[float | None], width: int, height: int, pad: int) -> list[tuple[float, float] | None]:
    """SVG coordinates of a series (None stays None), symmetric around 0 so the
    zero line is in the middle."""
    top = max([abs(v) for v in values if v is not None] + [1])
    step = (width - 2 * pad) / max(1, len(values) - 1)
    return [None if v is None else (round(pad + i * step, 1), round(height / 2 - v / top * (height / 2 - pad), 1))
            for i, v in enumerate(values)]


def _position_data(pos: Position) -> dict:
    cards = lambda m: [c for c in range(40) if m >> c & 1]  # noqa: E731
    return {"hands": [cards(h) for h in pos.hands], "table": cards(pos.table),
            "piles": [pos.piles[0].bit_count(), pos.piles[1].bit_count()], "scope": list(pos.scope),
            "to_move": pos.to_move if not pos.is_over() else None}


def _series(analysis: Analysis, final_value: int) -> tuple[list, list]:
    """Value (A - B) before the first play and after each play: all hands seen, and
    from the seat of the player who made it."""
    rows = analysis.plays
    dd = [rows[0].dd_value] if rows else []
    seat: list = [None]
    for i, r in enumerate(rows):
        after = r.dd_after
        if after is None and r.dd_kind == "forced":
            after = rows[i + 1].dd_value if i + 1 < len(rows) else final_value
        dd.append(after)
        played = next((m["mean"] for m in r.sv_moves if m["move"] == r.move), None)
        seat.append(played)
    if dd:
        dd[-1] = final_value  # the end of the deal is known exactly
    return dd, seat


def report_html(record: GameRecord, analysis: Analysis, title: str) -> str:
    """The report page as one string."""
    end = record.replay()
    final = end.result()
    positions = []
    pos = record.start.copy()
    for m in end.move_stack:
        positions.append(_position_data(pos))
        pos.push(m)
    positions.append(_position_data(pos))
    dd, seat = _series(analysis, final.value)
    width, height, pad = 760, 220, 14
    players = record.extra.get("players") or ["?"] * 4
    plays = []
    for r in analysis.plays:
        cls = "forced" if r.legal == 1 else r.cls
        plays.append({"row": r, "seat_name": SEAT_NAMES[r.seat], "team": TEAMS[r.seat & 1], "cls": cls,
                      "colour": CLASS_COLOURS[cls]})
    return env().get_template("report.html.j2").render(
        title=title, plays=plays, seats=[{"name": SEAT_NAMES[s], "team": TEAMS[s & 1], "player": str(players[s])}
                                         for s in range(4)],
        score=final, summary=analysis.summary(), settings=analysis.settings, seconds=analysis.seconds,
        chart={"width": width, "height": height, "dd": chart_points(dd, width, height, pad),
               "seat": chart_points(seat, width, height, pad), "zero": height / 2},
        data={"positions": positions, "cards": {c: card_svg(c) for c in range(40)},
              "seats": [SEAT_NAMES[s] for s in range(4)]},
        class_colours=CLASS_COLOURS, comment=record.extra.get("comment", ""),
    )
