"""A line of play as a reader follows it: who plays each move, and which moves sweep.

Shared by the terminal views and the HTML pages, so every shown line labels its
moves with their seats and marks its scope the same way.

>>> from scopone.position import Position
>>> pos = Position.from_line("7D/7C/1B/2B 3C4S - - 0-0 0 - scientifico", check=False)
>>> [(s.seat, s.move, s.scopa) for s in line_steps(pos, ["7Dx3C+4S", "7C"])]
[(0, '7Dx3C+4S', True), (1, '7C', False)]
"""

from __future__ import annotations

from typing import Iterable, NamedTuple

from ..position import Move, Position


class Step(NamedTuple):
    """One move of a line: the seat that plays it, its text, and whether it sweeps the table."""

    seat: int
    move: str
    scopa: bool


def line_steps(start: Position, moves: Iterable[str | Move]) -> list[Step]:
    """The moves of a line from ``start`` with their seats and scope (``start`` is not changed)."""
    pos = start.copy()
    out = []
    for mv in moves:
        move = pos.parse_move(mv) if isinstance(mv, str) else mv
        seat, before = pos.to_move, sum(pos.scope)
        pos.push(move)
        out.append(Step(seat, move.text(), sum(pos.scope) > before))
    return out
