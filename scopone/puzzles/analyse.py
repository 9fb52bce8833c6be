"""From a candidate position to a checked puzzle, or the reason it is rejected.

The pipeline, lichess-puzzler style: solve every move → check that exactly one
move is best by the margin → check that the greedy player misses it → (for a
seat's-view puzzle, check that the same move is best on average over every deal
of the hidden cards the seat cannot tell apart) → a best line from every first
move → extend the solution while the solving team's next move is again unique
→ refute the tempting move → build the solution tree → tag themes → explain →
rate.

**The margin.**  The answer must beat every other first move by at least
``min_margin`` points (the generator's default is 2).  With ``min_margin=2`` a
1-point margin is accepted only when every move that loses exactly 1 loses a
clear swing (a scopa, the settebello or the primiera) that the explanation
names: a point counted out of the denari or the cards is not a lesson.
"""

from __future__ import annotations

import hashlib
import math
import random
from dataclasses import dataclass

import networkx as nx

from ..cards import SUIT_PERMUTATIONS
from ..formats import position_to_dict
from ..observation import observe
from ..players import greedy_choice
from ..players.sampling import consistent_deals, deal_count
from ..position import Move, Position
from ..reasons import TEAM_NAMES
from ..scoring import TEAMS
from ..solver import make_backend
from ..solver.driver import best_line as _best_line
from ..solver.driver import reaches, solve_with
from .explain import MoveLine, clear_swing, defences, explain, loss_of, margin
from .ladder import rate, rate_seat
from .themes import PuzzleFacts, question, tag

#: Most solving moves in a puzzle's line (and depth of its tree).
MAX_SOLVING_MOVES = 3
#: A unique best move must beat every other move by at least this much (the
#: solution's later solving moves, and the least any puzzle may have).
MIN_MARGIN = 1
#: The generator's default margin of the answer over every other first move.
DEFAULT_MARGIN = 2
#: Seat's view: hidden deals averaged over (all of them when there are at most this many).
SEAT_SAMPLES = 400
#: Seat's view: the normal quantile of the one-sided interval a sampled margin must clear.
SEAT_Z = 1.96


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

    def first_unique_best(self, pos: Position, need: int = MIN_MARGIN) -> tuple[Move, int] | None:
        """The best first move and its value if it beats every other by ``need``
        points, answered more cheaply than :meth:`unique_best`.

        Most candidates have no such move; proving that needs no exact values:
        the root's value ``v`` (mode best) and then, for the other moves,
        null-window tests "does it reach v − need + 1?" until one does (values
        are integers).  With ``need`` = 1 the same answer as :meth:`unique_best`;
        the exact values of every move are computed only for the candidates
        that pass.
        """
        moves = pos.legal_moves()
        if len(moves) < 2:
            return None
        r = self._solve(pos, "best", line=False)
        best, v = r.moves[0].move, r.value
        maximise = pos.to_move % 2 == 0
        target = v - (need - 1) if maximise else v + (need - 1)
        work = pos.copy()
        for m in moves:
            if m == best:
                continue
            work.push(m)
            other_reaches = reaches(self.backend, work, target, maximise)
            work.pop()
            if other_reaches:
                return None
        return best, v

    def move_lines(self, pos: Position) -> list[MoveLine]:
        """Every first move with its exact value and a best line from it to the end of the deal."""
        out = []
        for m, v in self.values(pos):
            line, _ = _best_line(self.backend, pos, v, first=m)
            out.append(MoveLine(m, v, tuple(line)))
        return out

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


def accepts_margin(pos: Position, rows: list[MoveLine], best: Move, min_margin: int, swing: bool = True) -> str | None:
    """None when the answer's margin is enough (see the module docs; ``swing=False``
    refuses the 1-point exception), else the rejection reason."""
    team = pos.to_move & 1
    got = margin(rows, best, team)
    if got >= min_margin:
        return None
    if min_margin == 2 and got == 1 and swing:
        b = next(r for r in rows if r.move == best)
        if all(clear_swing(pos, b.line, r.line, team)
               for r in rows if r.move != best and loss_of(r.value, b.value, team) == 1):
            return None
        return "margin 1 without a clear swing"
    return f"margin below {min_margin}"


def seat_view(pos: Position, engine: str = "auto", samples: int = SEAT_SAMPLES, seed: str = "") -> dict:
    """Each first move valued from the seat's view: averaged over every deal of the
    hidden cards consistent with what the seat to move knows (all of them when at
    most ``samples``, else ``samples`` drawn uniformly by the one sampler,
    :mod:`scopone.players.sampling`, seeded by ``seed``).

    Returns ``move`` (the best on average), ``margin`` (its smallest mean lead over
    another move, points from the solving side; when sampled, the lower end of a
    one-sided 97.5% interval of the paired differences), ``probability`` (the share
    of deals where it is a best move), ``deals`` (how many consistent deals exist),
    ``exact``, ``samples`` (deals valued) and ``means`` (each move's mean value, A − B).
    """
    obs = observe(pos, history=())
    worlds = consistent_deals(obs, samples, random.Random(f"scopone-seat:{seed}"))
    moves = pos.legal_moves()
    sign = 1 if pos.to_move % 2 == 0 else -1
    backend = make_backend(pos, engine)
    rows = []
    for hands in worlds.hands:
        r = solve_with(backend, obs.position(hands), "all", line=False)
        if not r.complete:
            raise KeyboardInterrupt
        by = {mv.move: mv.value for mv in r.moves}
        rows.append([sign * by[m] for m in moves])
    n = len(rows)
    means = [sum(col) / n for col in zip(*rows)]
    bi = max(range(len(moves)), key=lambda i: (means[i], -i))
    low = math.inf
    for j in range(len(moves)):
        if j == bi:
            continue
        d = [row[bi] - row[j] for row in rows]
        mean = sum(d) / n
        if not worlds.exact and n > 1:
            sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1))
            mean -= SEAT_Z * sd / math.sqrt(n)
        low = min(low, mean)
    wins = sum(row[bi] == max(row) for row in rows)
    return {"move": moves[bi].text(), "margin": round(low, 3), "probability": round(wins / n, 3),
            "deals": deal_count(obs), "exact": worlds.exact, "samples": n, "seed": seed,
            "means": {m.text(): round(sign * mu, 3) for m, mu in zip(moves, means)}}


def analyse(cand: Candidate, engine: str = "auto", tempting: Move | None = None, *, min_margin: int = MIN_MARGIN,
            max_value: int | None = None, view: str = "all", seat_samples: int = SEAT_SAMPLES,
            swing: bool = True) -> dict:
    """The puzzle made from a candidate, as a JSON-ready dict; raises :class:`Rejected`.

    The tempting move is the greedy player's, or ``tempting`` (the move a player
    made, for the coach's "learn from your mistakes" puzzles: ``tempting.by`` is
    then ``played``).  ``min_margin``: see the module docs; ``max_value``: reject
    a deal already decided (|value| above it); ``swing=False``: no 1-point
    margins even for a clear swing; ``view="seat"``: the answer must
    also be best from the seat's view (:func:`seat_view`) by ``min_margin`` on
    average and in most deals of the hidden cards."""
    if view not in ("all", "seat"):
        raise ValueError(f"view must be 'all' or 'seat', not {view!r}")
    pos = cand.pos
    moves = pos.legal_moves()
    if len(moves) < 3:
        raise Rejected("fewer than 3 legal moves")
    an = Analyst(pos, engine)
    need = 1 if min_margin <= 2 else min_margin
    found = an.first_unique_best(pos, need)
    if found is None:
        raise Rejected("no unique best move")
    best, value = found
    if max_value is not None and abs(value) > max_value:
        raise Rejected("deal already decided")
    by = "greedy" if tempting is None else "played"
    if tempting is None:
        tempting = greedy_choice(pos.table, pos.cards_left(), pos.legal_moves())
    if tempting == best:
        raise Rejected(f"the {by} move is best")
    rows = an.move_lines(pos)
    why_not = accepts_margin(pos, rows, best, min_margin, swing)
    if why_not:
        raise Rejected(why_not)
    seat = None
    if view == "seat":
        seat = seat_view(pos, engine, seat_samples, puzzle_id(pos))
        if seat["move"] != best.text():
            raise Rejected("seat's view: another move is best on average")
        if seat["margin"] < min_margin:
            raise Rejected("seat's view: margin not clear")
        if seat["probability"] <= 0.5:
            raise Rejected("seat's view: best in too few deals")
    return build_puzzle(cand, an, rows, best, value, tempting, by, seat)


def build_puzzle(cand: Candidate, an: Analyst, rows: list[MoveLine], best: Move, value: int, tempting: Move,
                 by: str, seat: dict | None = None) -> dict:
    """The puzzle's JSON from an accepted candidate."""
    pos = cand.pos
    team = pos.to_move & 1
    line = solution_line(an, pos, best, value)
    by_move = {r.move: r for r in rows}
    best_full = list(by_move[best].line)
    tempting_line = list(by_move[tempting].line)
    refutation = tempting_line[1:]
    after_best, after_tempt = pos.copy(), pos.copy()
    for m in best_full:
        after_best.push(m)
    for m in tempting_line:
        after_tempt.push(m)
    others = tuple(r.line for r in rows if r.move != best)
    facts = PuzzleFacts(pos, team, tuple(line), tuple(best_full), tuple(tempting_line),
                        after_best.result(), after_tempt.result(), others)
    themes = tag(facts)
    rung = rate(pos, line)
    tree = solution_tree(an, pos, best, value)
    explanation = explain(pos, rows, best, tempting, by)
    explanation["defences"] = defences(pos, tree_json(tree))
    if explanation["defences"]:
        explanation["solution"] += " Other defences: " + "; ".join(explanation["defences"]) + "."
    if seat:
        sign = 1 if team == 0 else -1
        ranked = sorted(seat["means"].items(), key=lambda kv: -sign * kv[1])
        means = ", ".join(f"{m} {sign * v:+.2f}".replace("-", "−") for m, v in ranked)
        counted = f"all {seat['deals']}" if seat["exact"] else f"{seat['samples']} drawn from {seat['deals']}"
        explanation["solution"] = (
            f"From the seat, {best.text()} is best on average over the deals of the hidden cards ({counted}; mean "
            f"points for {TEAM_NAMES[team]}: {means}) and a best move in {round(100 * seat['probability'])}% of "
            f"them. In the actual deal: " + explanation["solution"])
    sign = 1 if team == 0 else -1
    puzzle = {
        "id": puzzle_id(pos),
        "position": position_to_dict(pos),
        "line": pos.line(),
        "to_move": pos.to_move,
        "team": TEAMS[team],
        "question": question(pos.to_move, value, themes, seat),
        "value": value,
        "margin": margin(rows, best, team),
        "solution": [m.text() for m in line],
        "moves": [{"move": m.text(), "value": v}
                  for m, v in sorted(an.values(pos), key=lambda mv: (-sign * mv[1], mv[0]))],
        "tempting": {"move": tempting.text(), "value": by_move[tempting].value,
                     "refutation": [m.text() for m in refutation], "by": by},
        "best_line": [m.text() for m in best_full],
        "themes": themes,
        "difficulty": {"level": rung.level, "label": rung.label, "solved_by": rung.name},
        "seat_difficulty": rate_seat(pos, best),
        "explanation": explanation,
        "view": "seat" if seat else "all",
        "source": cand.source,
        "tree": tree_json(tree),
    }
    if seat:
        puzzle["probability"] = seat["probability"]
        puzzle["seat"] = seat
    return puzzle
