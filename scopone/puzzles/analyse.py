"""From a candidate position to a checked puzzle, or the reason it is rejected.

The pipeline, lichess-puzzler style: solve every move → check that exactly one
move is best by at least a point → check that the greedy player misses it →
extend the line while the solving team's next move is again unique → refute
the tempting move → build the solution tree → tag themes → rate.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import networkx as nx

from ..cards import SUIT_PERMUTATIONS
from ..formats import position_to_dict
from ..players import greedy_choice
from ..position import SEAT_NAMES, Move, Position
from ..scoring import TEAMS
from ..solver import make_backend
from ..solver.driver import reaches, solve_with
from .ladder import rate
from .themes import PuzzleFacts, question, tag

#: Most solving moves in a puzzle's line (and depth of its tree).
MAX_SOLVING_MOVES = 3
#: A unique best move must beat every other move by at least this much.
MIN_MARGIN = 1


class Rejected(Exception):
    """A candidate that is not a puzzle; ``reason`` is a short fixed text."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def canonical_line(pos: Position) -> str:
    """The position string, minimised over the permutations of Coppe/Spade/Bastoni."""
    return min(pos.permute_suits(p).line() for p in SUIT_PERMUTATIONS)


def puzzle_id(pos: Position) -> str:
    """A stable id from the position (equal for suit-permuted duplicates)."""
    return "p" + hashlib.sha1(canonical_line(pos).encode()).hexdigest()[:10]


class Analyst:
    """Solves positions for one candidate, reusing one warm transposition table."""

    def __init__(self, pos: Position, engine: str = "auto"):
        self.backend = make_backend(pos, engine)
        self.cache: dict[str, list[tuple[Move, int]]] = {}

    def _solve(self, pos: Position, mode: str, line: bool):
        r = solve_with(self.backend, pos, mode, line=line)
        if not r.complete:  # no time limit here: only Ctrl-C stops a solve early
            raise KeyboardInterrupt
        return r

    def values(self, pos: Position) -> list[tuple[Move, int]]:
        """Every legal move with its exact value (team A's view), in canonical move order."""
        key = pos.line()
        hit = self.cache.get(key)
        if hit is None:
            r = self._solve(pos, "all", line=False)
            by_move = {mv.move: mv.value for mv in r.moves}
            hit = [(m, by_move[m]) for m in pos.legal_moves()]
            self.cache[key] = hit
        return hit

    def best_line(self, pos: Position) -> list[Move]:
        return self._solve(pos, "best", line=True).line

    def unique_best(self, pos: Position) -> tuple[Move, int] | None:
        """The unique best move and its value, if it beats every other move by MIN_MARGIN."""
        vals = self.values(pos)
        if len(vals) < 2:
            return None
        sign = 1 if pos.to_move % 2 == 0 else -1
        ranked = sorted(vals, key=lambda mv: -sign * mv[1])
        (best, bv), (_, second) = ranked[0], ranked[1]
        if sign * (bv - second) < MIN_MARGIN:
            return None
        return best, bv

    def first_unique_best(self, pos: Position) -> tuple[Move, int] | None:
        """:meth:`unique_best` for a candidate's first move, answered more cheaply.

        Most candidates have no unique best move; proving that needs no exact
        values: the root's value ``v`` (mode best) and then, for the other moves,
        null-window tests "does it reach v?" until one does (a unique best move
        beats the others by at least a point exactly when none reaches ``v``,
        as values are integers and MIN_MARGIN is 1).  Same answer as
        :meth:`unique_best`; the exact values of every move are computed only
        for the candidates that pass.
        """
        if MIN_MARGIN != 1:  # the shortcut is exact only for a one-point margin
            return self.unique_best(pos)
        moves = pos.legal_moves()
        if len(moves) < 2:
            return None
        r = self._solve(pos, "best", line=False)
        best, v = r.moves[0].move, r.value
        maximise = pos.to_move % 2 == 0
        work = pos.copy()
        for m in moves:
            if m == best:
                continue
            work.push(m)
            other_reaches = reaches(self.backend, work, v, maximise)
            work.pop()
            if other_reaches:
                return None
        return best, v

    def keeping_replies(self, pos: Position, value: int) -> list[Move]:
        """The defenders' replies that keep the value (the others lose more)."""
        return [m for m, v in self.values(pos) if v == value]


def _pick_reply(pos: Position, replies: list[Move]) -> Move:
    """The defenders' most natural resistant reply: the greedy choice among those keeping the value."""
    g = greedy_choice(pos.table, pos.cards_left(), pos.legal_moves())
    return g if g in replies else replies[0]


def solution_line(an: Analyst, pos: Position, first: Move, value: int) -> list[Move]:
    """The solving line: unique solving moves with the defenders' resistant replies between."""
    line = [first]
    work = pos.copy()
    work.push(first)
    while len(line) // 2 + 1 < MAX_SOLVING_MOVES and not work.is_over():
        replies = an.keeping_replies(work, value)
        reply = _pick_reply(work, replies)
        work.push(reply)
        if work.is_over():
            break
        nxt = an.unique_best(work)
        if nxt is None or nxt[1] != value:
            break
        line += [reply, nxt[0]]
        work.push(nxt[0])
    return line


def solution_tree(an: Analyst, pos: Position, first: Move, value: int) -> nx.DiGraph:
    """Every defender reply that keeps the value, with the unique solving answer to each.

    Nodes are one-line position strings; edges carry the move and its value.
    A branch stops where the solving team's move is no longer unique.
    """
    g = nx.DiGraph()
    root = pos.line()
    g.add_node(root, to_move=pos.to_move, role="solver", value=value)

    def grow(node_pos: Position, move: Move, solving_moves: int) -> None:
        src = node_pos.line()
        child = node_pos.copy()
        child.push(move)
        dst = child.line()
        g.add_node(dst, to_move=child.to_move, role="defender", value=value)
        g.add_edge(src, dst, move=move.text(), value=value)
        if child.is_over() or solving_moves >= MAX_SOLVING_MOVES:
            return
        for reply in an.keeping_replies(child, value):
            after = child.copy()
            after.push(reply)
            key = after.line()
            g.add_node(key, to_move=after.to_move, role="solver", value=value)
            g.add_edge(dst, key, move=reply.text(), value=value)
            if after.is_over():
                continue
            nxt = an.unique_best(after)
            if nxt is not None and nxt[1] == value:
                grow(after, nxt[0], solving_moves + 1)

    grow(pos, first, 1)
    return g


def tree_json(g: nx.DiGraph) -> dict:
    """The tree in networkx node-link JSON."""
    return nx.node_link_data(g, edges="edges")


@dataclass
class Candidate:
    """Where a candidate position came from (kept in the puzzle's ``source``)."""

    pos: Position
    source: dict


def analyse(cand: Candidate, engine: str = "auto", tempting: Move | None = None) -> dict:
    """The puzzle made from a candidate, as a JSON-ready dict; raises :class:`Rejected`.

    The tempting move is the greedy player's, or ``tempting`` (the move a player
    made, for the coach's "learn from your mistakes" puzzles: ``tempting.by`` is
    then ``played``)."""
    pos = cand.pos
    moves = pos.legal_moves()
    if len(moves) < 3:
        raise Rejected("fewer than 3 legal moves")
    an = Analyst(pos, engine)
    found = an.first_unique_best(pos)
    if found is None:
        raise Rejected("no unique best move")
    best, value = found
    by = "greedy" if tempting is None else "played"
    if tempting is None:
        tempting = greedy_choice(pos.table, pos.cards_left(), pos.legal_moves())
    if tempting == best:
        raise Rejected(f"the {by} move is best")
    team = pos.to_move & 1
    line = solution_line(an, pos, best, value)
    work = pos.copy()
    work.push(tempting)
    refutation = an.best_line(work) if not work.is_over() else []
    tempting_value = dict(an.values(pos))[tempting]
    best_full = an.best_line(pos)
    if best_full[0] != best:  # the solver's line may start with the same unique move only
        raise RuntimeError(f"best line starts with {best_full[0].text()}, not {best.text()}")
    after_best, after_tempt = pos.copy(), pos.copy()
    for m in best_full:
        after_best.push(m)
    for m in [tempting] + refutation:
        after_tempt.push(m)
    facts = PuzzleFacts(pos, team, tuple(line), tuple(best_full), tuple([tempting] + refutation),
                        after_best.result(), after_tempt.result())
    themes = tag(facts)
    rung = rate(pos, line)
    tree = solution_tree(an, pos, best, value)
    return {
        "id": puzzle_id(pos),
        "position": position_to_dict(pos),
        "line": pos.line(),
        "to_move": pos.to_move,
        "team": TEAMS[team],
        "question": question(SEAT_NAMES[pos.to_move], TEAMS[team], themes),
        "value": value,
        "solution": [m.text() for m in line],
        "moves": [{"move": m.text(), "value": v}
                  for m, v in sorted(an.values(pos), key=lambda mv: (-(1 if team == 0 else -1) * mv[1], mv[0]))],
        "tempting": {"move": tempting.text(), "value": tempting_value,
                     "refutation": [m.text() for m in refutation], "by": by},
        "best_line": [m.text() for m in best_full],
        "themes": themes,
        "difficulty": {"level": rung.level, "label": rung.label, "solved_by": rung.name},
        "source": cand.source,
        "tree": tree_json(tree),
    }
