"""Puzzle themes: a closed vocabulary of small pure predicates, one per theme.

Each predicate reads :class:`PuzzleFacts` (the start position, the solution,
the tempting move, and the best line and every wrong first move's line played
to the end) and says whether its theme holds.  A puzzle carries every theme
that holds.  A theme that compares the solution with a wrong move must hold
against *every* wrong first move, not only the tempting one: ``stop-scopa``
means that every other move leaves a sweep, ``settebello`` that every other
move ends with less of it, and a category theme also needs the solving team to
win that category outright on the best line (a tie is not a win), so the
question never claims what the line only ties.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Literal, get_args

from ..position import SEAT_NAMES, Move, Position
from ..reasons import TEAM_NAMES, finish
from ..scoring import Score

Theme = Literal[
    "scopa", "stop-scopa", "settebello", "primiera", "denari", "carte", "last-capture",
    "sacrifice", "spariglio", "partner-setup", "re-bello", "napola", "refuse-scopa", "empty-table",
]
THEMES: tuple[str, ...] = get_args(Theme)


@dataclass(frozen=True)
class PuzzleFacts:
    """What the theme predicates look at.

    ``best_line``: the solution played on to the end of the deal with best play;
    ``tempting_line``: the tempting move followed by best play to the end;
    ``others``: for every other first move, that move followed by best play to
    the end (empty when unknown: the predicates then compare with the tempting
    line only).  All lines start from ``start``; ``team`` is the solving team
    (0 = A, 1 = B).
    """

    start: Position
    team: int
    solution: tuple[Move, ...]
    best_line: tuple[Move, ...]
    tempting_line: tuple[Move, ...]
    best_score: Score
    tempting_score: Score
    others: tuple[tuple[Move, ...], ...] = ()

    def wrong_scores(self) -> list[Score]:
        """How the deal ends after each wrong first move (the tempting one when ``others`` is empty)."""
        if not self.others:
            return [self.tempting_score]
        return [finish(self.start, line).result() for line in self.others]

    def wrong_lines(self) -> tuple[tuple[Move, ...], ...]:
        return self.others or (self.tempting_line,)


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
        best = _margin(f.best_score, attr, f.team)
        return best > 0 and all(best > _margin(s, attr, f.team) for s in f.wrong_scores())
    return predicate


def scopa(f: PuzzleFacts) -> bool:
    """The solving team sweeps on the solution or later on the best line, and every
    wrong first move ends with fewer scope for it (net of the opponents')."""
    sweeps = any(p.to_move & 1 == f.team and _makes_scopa(p, m) for p, m in _replay(f.start, f.best_line))
    best = _margin(f.best_score, "scope", f.team)
    return sweeps and all(best > _margin(s, "scope", f.team) for s in f.wrong_scores())


def _sweep_open(before: Position, move: Move) -> bool:
    """Whether the next player can sweep the table after ``move``."""
    after = before.copy()
    after.push(move)
    return not after.is_over() and bool(after.table) and any(r.captured == after.table for r in after.legal_moves())


def stop_scopa(f: PuzzleFacts) -> bool:
    """The solution leaves the next opponent no sweep, and every other first move leaves one."""
    first = f.solution[0]
    others = [m for m in f.start.legal_moves() if m != first]
    return bool(others) and not _sweep_open(f.start, first) and all(_sweep_open(f.start, m) for m in others)


def _last_team(f: PuzzleFacts, line) -> int | None:
    team = f.start.last_capture
    for p, m in _replay(f.start, line):
        if m.captured:
            team = p.to_move & 1
    return team


def last_capture(f: PuzzleFacts) -> bool:
    """The solution wins the last capture (and the leftovers) that every other first move loses."""
    return _last_team(f, f.best_line) == f.team and all(_last_team(f, line) == 1 - f.team for line in f.wrong_lines())


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


def _sweeps(pos: Position, move: Move) -> bool:
    return bool(pos.table) and move.captured == pos.table


def refuse_scopa(f: PuzzleFacts) -> bool:
    """A sweep was there to take, the solution declines it, and every sweeping first
    move ends with less of the settebello or of the denari for the solving team."""
    if _sweeps(f.start, f.solution[0]):
        return False
    taking = [line for line in f.wrong_lines() if line and _sweeps(f.start, line[0])]
    if not taking:
        return False
    for line in taking:
        s = finish(f.start, line).result()
        if not any(_margin(f.best_score, a, f.team) > _margin(s, a, f.team)
                   for a in ("settebello_points", "denari_points")):
            return False
    return True


def empty_table(f: PuzzleFacts) -> bool:
    """Leading on an empty table: every move lays a card, and only one keeps the value."""
    return not f.start.table


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
    "refuse-scopa": refuse_scopa,
    "empty-table": empty_table,
}
assert tuple(PREDICATES) == THEMES


def _stop_scopa_possible(pos: Position) -> bool:
    opens = [_sweep_open(pos, m) for m in pos.legal_moves()]
    return opens.count(False) == 1 and len(opens) > 1


#: Motif hunts: for a theme, a cheap necessary condition on the start position, so a
#: generator asked for that theme skips candidates that cannot have it without solving.
POSSIBLE: dict[str, Callable[[Position], bool]] = {
    "spariglio": lambda pos: any(m.captured.bit_count() >= 2 for m in pos.legal_moves()),
    "stop-scopa": _stop_scopa_possible,
    "sacrifice": lambda pos: len({bool(m.captured) for m in pos.legal_moves()}) == 2,
    "partner-setup": lambda pos: any(not m.captured for m in pos.legal_moves()),
    "refuse-scopa": lambda pos: any(_sweeps(pos, m) for m in pos.legal_moves()),
    "empty-table": lambda pos: not pos.table,
}


def motif_possible(pos: Position, themes) -> bool:
    """Whether a position may carry one of ``themes`` (True for themes without a quick test).

    >>> from scopone.position import Position
    >>> pos = Position.from_line("7D2C/9B1S/5S6S/8C10C 3C4S 1D1B2S3D3B4C5D5B6C7C7B8S9D9S10S 1C2D2B3S4D4B5C6D6B7S8D8B9C10D10B 0-0 0 A scientifico")
    >>> motif_possible(pos, ["spariglio"]), motif_possible(pos, ["stop-scopa"])
    (True, True)
    """
    return any(t not in POSSIBLE or POSSIBLE[t](pos) for t in themes)


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


def goal(value: int, team: int) -> str:
    """The deal's value in words, from the solving side (``value`` is A − B).

    >>> goal(3, 0), goal(3, 1), goal(0, 1)
    ('keep the deal at +3 for North–South', 'hold the deal to −3 for East–West', 'keep the deal level for East–West')
    """
    v = value if team == 0 else -value
    if v > 0:
        return f"keep the deal at +{v} for {TEAM_NAMES[team]}"
    if v < 0:
        return f"hold the deal to −{-v} for {TEAM_NAMES[team]}"
    return f"keep the deal level for {TEAM_NAMES[team]}"


def question(seat: int, value: int, themes: list[str], seat_view: dict | None = None) -> str:
    """The puzzle's question: the goal from the solving side, against any defence,
    with the themes that hold against every wrong move (at most two).  From the
    seat's view (``seat_view``: the statistics of :func:`scopone.puzzles.analyse.seat_view`)
    the goal is the move that is best whatever the hidden hands hold.

    >>> question(3, -1, [], {"margin": 2.05, "probability": 0.805})
    'West to play, seeing only your own hand: find the move that is best whatever the hidden hands hold (on average by at least 2 points; it is a best move in 80% of the deals).'

    >>> question(0, 3, ["settebello", "stop-scopa"])
    'South to play: keep the deal at +3 for North–South against any defence (win the settebello and stop the scopa).'
    >>> question(1, 0, ["sacrifice"])
    'East to play: keep the deal level for East–West against any defence.'
    """
    team = seat & 1
    if seat_view is not None:
        return (f"{SEAT_NAMES[seat]} to play, seeing only your own hand: find the move that is best whatever the "
                f"hidden hands hold (on average by at least {int(seat_view['margin'])} points; it is a best move in "
                f"{int(100 * seat_view['probability'])}% of the deals).")
    goals = [_PHRASES[t] for t in themes if t in _PHRASES][:2]
    text = f"{SEAT_NAMES[seat]} to play: {goal(value, team)} against any defence"
    return text + (f" ({' and '.join(goals)})." if goals else ".")
