"""Puzzle explanations in words, from what the solver already knows.

For every first move the analysis has its exact value and a best line from it
to the end of the deal.  Comparing each wrong move's line with the solution's,
category by category (:func:`scopone.reasons.loss_reasons`), says what the move
loses and through which play: "7D loses 2: East's 7Cx7D takes the settebello
(7D) (−2 points)".  Cards are written in the project's card text (``7D``); a
renderer turns them into symbols.  Lines are shown with each move labelled by
its seat and the scope marked.

The explanation is stored in the puzzle as::

    "explanation": {"solution": text, "tempting": text,
                    "moves": [{"move", "value", "loss", "why", "line"}, ...]}   # best first
    "margin": the smallest loss of any other first move

``value`` is A − B like every value of the puzzle file; ``loss`` is the points
the move gives up against the solution, from the solving side (>= 0); ``line``
is the move followed by best play to the end of the deal (what the loss is
measured on; the verifier replays it).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import SETTEBELLO
from ..position import SEAT_NAMES, Move, Position
from ..reasons import SWINGS, TEAM_NAMES, category_losses, finish, first_blow, line_text, loss_reasons, plays
from .themes import goal

#: Moves of a line shown in a sentence (the rest is in the puzzle's lines).
SHOWN = 6


@dataclass(frozen=True)
class MoveLine:
    """One first move, its exact value (A − B) and a best line starting with it."""

    move: Move
    value: int
    line: tuple[Move, ...]


def loss_of(value: int, best: int, team: int) -> int:
    """Points a move with ``value`` gives up against ``best``, from ``team``'s side.

    >>> loss_of(1, 3, 0), loss_of(-1, -3, 1)
    (2, 2)
    """
    return (best - value) if team == 0 else (value - best)


def margin(rows: list[MoveLine], best: Move, team: int) -> int:
    """The smallest loss of any first move other than ``best``."""
    bv = next(r.value for r in rows if r.move == best)
    return min(loss_of(r.value, bv, team) for r in rows if r.move != best)


def _lost(start: Position, best: MoveLine, row: MoveLine, team: int) -> set[str]:
    """The categories a move's line loses against the solution's."""
    b, p = finish(start, best.line).result(), finish(start, row.line).result()
    return {name for name, lost in category_losses(b, p, team).items() if lost > 0}


def clear_swing(start: Position, best_line, played_line, team: int) -> bool:
    """Whether a wrong line loses a clear swing: a scopa, the settebello, or the
    primiera changing hands outright (not a win turned into a tie), and the scope,
    the settebello and the primiera together cost at least the whole loss (the
    denari or the cards counted out do not make a lesson of a 1-point margin)."""
    b, p = finish(start, best_line).result(), finish(start, played_line).result()
    losses = category_losses(b, p, team)
    total = sum(losses.values())
    swing = sum(v for k, v in losses.items() if k in SWINGS)
    named = losses["scope"] > 0 or losses["settebello"] > 0 or losses["primiera"] >= 2
    return total > 0 and named and swing >= total


def _move_why(start: Position, row: MoveLine, best: MoveLine, team: int, loss: int) -> str:
    if row.move == best.move:
        return (f"{row.move.text()} is the solution: best play after it ends {_signed(row.value, team)} "
                f"for {TEAM_NAMES[team]}.")
    reasons = loss_reasons(start, list(best.line), list(row.line), team)
    blow = first_blow(start, list(row.line), team, _lost(start, best, row, team))
    text = f"{row.move.text()} loses {loss}"
    if blow:
        text += f" ({blow})"
    return text + (": " + "; ".join(reasons) if reasons else "") + "."


def _signed(value: int, team: int) -> str:
    v = value if team == 0 else -value
    return f"+{v}" if v > 0 else (f"−{-v}" if v < 0 else "0")


def _solution_text(start: Position, best: MoveLine, rows: list[MoveLine], team: int, the_margin: int) -> str:
    """Why the answer works: what the team achieves on the best line, and what the nearest
    alternative gives up."""
    seat = SEAT_NAMES[start.to_move]
    us = TEAM_NAMES[team]
    end = finish(start, best.line).result()
    gains = []
    for q in plays(start, best.line):
        if q.seat & 1 == team and q.scopa:
            gains.append(f"{SEAT_NAMES[q.seat]} sweeps with {q.move.text()} (scopa)")
        elif q.seat & 1 == team and (q.move.captured >> SETTEBELLO & 1):
            gains.append(f"{SEAT_NAMES[q.seat]} takes the settebello with {q.move.text()}")
    won = [name for attr, name in (("primiera_points", "primiera"), ("denari_points", "denari"),
                                   ("carte_points", "carte"))
           if getattr(end, attr)[team] > getattr(end, attr)[1 - team]]
    if won:
        gains.append(f"{us} win the {' and the '.join(won)}")
    text = (f"{seat}'s {best.move.text()} is the only move to {goal(best.value, team)} against any "
            f"defence; every other move loses at least {the_margin}.")
    if gains:
        text += " On the best line " + ", ".join(gains) + "."
    others = sorted((r for r in rows if r.move != best.move), key=lambda r: loss_of(r.value, best.value, team))
    if others:
        near = others[0]
        reasons = loss_reasons(start, list(best.line), list(near.line), team)
        if reasons:
            text += (f" The nearest try, {near.move.text()}, loses {loss_of(near.value, best.value, team)}: "
                     + "; ".join(reasons) + ".")
    text += f" Best play: {line_text(start, best.line, SHOWN)}."
    return text


def _tempting_text(start: Position, tempting: MoveLine, best: MoveLine, team: int, by: str) -> str:
    loss = loss_of(tempting.value, best.value, team)
    who = "the greedy player's choice" if by == "greedy" else "the move played"
    text = f"{tempting.move.text()} ({who}) loses {loss}"
    blow = first_blow(start, list(tempting.line), team, _lost(start, best, tempting, team))
    if blow:
        text += f": {blow}"
    reasons = loss_reasons(start, list(best.line), list(tempting.line), team)
    if reasons:
        text += ("; " if blow else ": ") + "; ".join(reasons)
    return text + f". The refutation: {line_text(start, tempting.line, SHOWN)}."


def explain(start: Position, rows: list[MoveLine], best: Move, tempting: Move, by: str = "greedy") -> dict:
    """The explanation of a puzzle (see the module docs): ``rows`` holds every legal
    first move with its value and best line; ``best`` is the solution's first move."""
    team = start.to_move & 1
    by_move = {r.move: r for r in rows}
    b = by_move[best]
    the_margin = margin(rows, best, team)
    ordered = sorted(rows, key=lambda r: (loss_of(r.value, b.value, team), r.move))
    moves = []
    for r in ordered:
        loss = loss_of(r.value, b.value, team)
        moves.append({"move": r.move.text(), "value": r.value, "loss": loss,
                      "why": _move_why(start, r, b, team, loss), "line": [m.text() for m in r.line]})
    return {
        "solution": _solution_text(start, b, rows, team, the_margin),
        "tempting": _tempting_text(start, by_move[tempting], b, team, by),
        "moves": moves,
    }


def defences(start: Position, tree: dict, limit: int = 4) -> list[str]:
    """The defence's main alternatives, from the puzzle's solution tree (node-link
    JSON): after the solution's first move, each reply that keeps the value with
    the solving team's answer to it, e.g. ``if East plays 5B, North answers 3Cx3S``.
    """
    out_edges: dict[str, list[dict]] = {}
    for e in tree.get("edges", []):
        out_edges.setdefault(e["source"], []).append(e)
    root = start.line()
    first = out_edges.get(root, [])
    if not first:
        return []
    after = first[0]["target"]
    defender = SEAT_NAMES[(start.to_move + 1) & 3]
    partner = SEAT_NAMES[(start.to_move + 2) & 3]
    texts = []
    for e in sorted(out_edges.get(after, []), key=lambda e: e["move"])[:limit]:
        answers = out_edges.get(e["target"], [])
        if answers:
            texts.append(f"if {defender} plays {e['move']}, {partner} answers {answers[0]['move']}")
        elif Position.from_line(e["target"]).is_over():
            texts.append(f"if {defender} plays {e['move']}, the deal ends")
        else:
            texts.append(f"if {defender} plays {e['move']}, more than one answer keeps the value")
    return texts
