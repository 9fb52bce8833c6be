"""Puzzle themes: a closed vocabulary of small pure predicates, one per theme.

Each predicate reads :class:`PuzzleFacts` (the start position, the solution,
the tempting move and both lines played to the end) and says whether its theme
holds.  A puzzle carries every theme that holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Literal, get_args

from ..position import Move, Position
from ..scoring import Score

Theme = Literal[
    "scopa", "stop-scopa", "settebello", "primiera", "denari", "carte", "last-capture",
    "sacrifice", "spariglio", "partner-setup", "re-bello", "napola",
]
THEMES: tuple[str, ...] = get_args(Theme)


@dataclass(frozen=True)
class PuzzleFacts:
    """What the theme predicates look at.

    ``best_line``: the solution played on to the end of the deal with best play;
    ``tempting_line``: the tempting move followed by best play to the end.
    Both lines start from ``start``; ``team`` is the solving team (0 = A, 1 = B).
    """

    start: Position
    team: int
    solution: tuple[Move, ...]
    best_line: tuple[Move, ...]
    tempting_line: tuple[Move, ...]
    best_score: Score
    tempting_score: Score


def _replay(start: Position, line) -> list[tuple[Position, Move]]:
    """(position before the move, move) for each move of the line."""
    pos = start.copy()
    out = []
    for m in line:
        out.append((pos.copy(), m))
        pos.push(m)
    return out


def _makes_scopa(before: Position, move: Move) -> bool:
    team = before.to_move & 1
    after = before.copy()
    after.push(move)
    return after.scope[team] > before.scope[team]


def _margin(score: Score, attr: str, team: int) -> int:
    p = getattr(score, attr)
    return p[team] - p[1 - team]


def _category(attr: str) -> Callable[[PuzzleFacts], bool]:
    def predicate(f: PuzzleFacts) -> bool:
        return _margin(f.best_score, attr, f.team) > _margin(f.tempting_score, attr, f.team)
    return predicate


def scopa(f: PuzzleFacts) -> bool:
    """A solving move of the solution sweeps the table."""
    return any(i % 2 == 0 and _makes_scopa(p, m) for i, (p, m) in enumerate(_replay(f.start, f.solution)))


def stop_scopa(f: PuzzleFacts) -> bool:
    """The tempting move leaves a sweep: the defenders' best reply to it is a scopa."""
    steps = _replay(f.start, f.tempting_line[:2])
    return len(steps) == 2 and _makes_scopa(*steps[1])


def last_capture(f: PuzzleFacts) -> bool:
    """The solution wins the last capture (and the leftovers) that the tempting move loses."""
    def last_team(line):
        team = f.start.last_capture
        for p, m in _replay(f.start, line):
            if m.captured:
                team = p.to_move & 1
        return team
    return last_team(f.best_line) == f.team and last_team(f.tempting_line) == 1 - f.team


def sacrifice(f: PuzzleFacts) -> bool:
    """The solution lays a card down although a capture was available."""
    first = f.solution[0]
    return not first.captured and any(m.captured for m in f.start.legal_moves())


def spariglio(f: PuzzleFacts) -> bool:
    """The solution captures by sum (breaking the pairing of ranks) and the team sweeps later.

    A sum capture takes cards of different ranks, so the ranks still out stop
    pairing off; the theme holds when the solving team then makes a scopa on the
    best line, or when the tempting move was the pair-keeping single-card capture.
    """
    first = f.solution[0]
    if first.captured.bit_count() < 2:
        return False
    if f.tempting_line and f.tempting_line[0].captured.bit_count() == 1:
        return True
    steps = _replay(f.start, f.best_line)
    return any(i > 0 and i % 2 == 0 and _makes_scopa(p, m) for i, (p, m) in enumerate(steps))


def partner_setup(f: PuzzleFacts) -> bool:
    """The solution lays a card down that the partner then captures on the next turn."""
    first = f.solution[0]
    if first.captured or len(f.best_line) < 3:
        return False
    return bool(f.best_line[2].captured >> first.card & 1)


def re_bello(f: PuzzleFacts) -> bool:
    """The margin comes (partly) from the re bello (only with the re_bello switch)."""
    return f.start.rules.re_bello and _category("re_bello_points")(f)


def napola(f: PuzzleFacts) -> bool:
    """The margin comes (partly) from napola (only with the napola switch)."""
    return f.start.rules.napola and _category("napola_points")(f)


PREDICATES: dict[str, Callable[[PuzzleFacts], bool]] = {
    "scopa": scopa,
    "stop-scopa": stop_scopa,
    "settebello": _category("settebello_points"),
    "primiera": _category("primiera_points"),
    "denari": _category("denari_points"),
    "carte": _category("carte_points"),
    "last-capture": last_capture,
    "sacrifice": sacrifice,
    "spariglio": spariglio,
    "partner-setup": partner_setup,
    "re-bello": re_bello,
    "napola": napola,
}
assert tuple(PREDICATES) == THEMES


def tag(facts: PuzzleFacts) -> list[str]:
    """Every theme that holds, in vocabulary order."""
    return [name for name, pred in PREDICATES.items() if pred(facts)]


_PHRASES = {
    "scopa": "make a scopa",
    "stop-scopa": "stop the scopa",
    "settebello": "win the settebello",
    "primiera": "win the primiera",
    "denari": "win the denari",
    "carte": "win the carte",
    "last-capture": "take the last capture",
    "re-bello": "win the re bello",
    "napola": "win the napola",
}


def question(seat_name: str, team: str, themes: list[str]) -> str:
    """The puzzle's question in words.

    >>> question("South", "A", ["settebello", "stop-scopa"])
    'South to play (team A): win the settebello and stop the scopa.'
    """
    goals = [_PHRASES[t] for t in themes if t in _PHRASES][:2]
    if not goals:
        return f"{seat_name} to play (team {team}): find the only move that keeps the best result."
    return f"{seat_name} to play (team {team}): " + " and ".join(goals) + "."
