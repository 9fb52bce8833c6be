"""Re-checking every claim of a puzzle file with the solver.

Checks, per puzzle: the position is valid and its id matches; every first
move's value (re-solved from scratch, by default with an independent engine
run); exactly one best move, a point ahead of the rest; the greedy move is the
tempting move and it is not best; the tempting line is legal and its value is
the claimed one; the solution line alternates unique solving moves and
value-keeping replies; the tree holds, at each defender node, every reply that
keeps the value, and at each solver node the unique best move; themes and
difficulty are what the taggers and the ladder say.  When the puzzle has them:
``margin`` is the smallest loss of another first move; the explanation lists
every first move once, with the solver's value, its loss against the solution
and a legal line to the end of the deal that ends with that value (the lines
the themes are tagged on); a seat's-view puzzle's statistics are recomputed
(the same deals: all of them, or the same seeded sample).
"""

from __future__ import annotations

import networkx as nx

from ..errors import ScoponeError
from ..formats import position_from_dict
from ..players import greedy_choice
from ..position import Position
from ..solver import solve
from .analyse import MAX_SOLVING_MOVES, MIN_MARGIN, PuzzleFacts, puzzle_id, seat_view
from .explain import loss_of
from .ladder import rate, rate_seat
from .themes import tag


def _values(pos: Position, engine: str) -> dict[str, int]:
    r = solve(pos, mode="all", engine=engine, line=False)
    if not r.complete:  # no time limit here: only Ctrl-C stops a solve early
        raise KeyboardInterrupt
    return {mv.move.text(): mv.value for mv in r.moves}


def _replay(pos: Position, texts: list[str]) -> Position:
    work = pos.copy()
    for t in texts:
        work.play(t)
    return work


#: The shape every puzzle must have before its claims are checked: field -> (type, item type).
_SHAPE = {"id": (str, None), "position": (dict, None), "line": (str, None), "to_move": (int, None),
          "value": (int, None), "solution": (list, str), "moves": (list, dict), "tempting": (dict, None),
          "best_line": (list, str), "themes": (list, str), "tree": (dict, None), "question": (str, None),
          "difficulty": (dict, None)}


def shape_problems(p) -> list[str]:
    """What is malformed in a puzzle object (wrong kinds of values), before any solving.

    >>> shape_problems({"solution": 5})[:2]
    ['id: missing', 'position: missing']
    """
    if not isinstance(p, dict):
        return [f"expected a puzzle object, got {type(p).__name__}"]
    out = []
    for key, (kind, item) in _SHAPE.items():
        if key not in p:
            out.append(f"{key}: missing")
        elif not isinstance(p[key], kind) or isinstance(p[key], bool):
            out.append(f"{key}: expected {kind.__name__}, got {type(p[key]).__name__}")
        elif item is not None and not all(isinstance(x, item) for x in p[key]):
            out.append(f"{key}: expected a list of {item.__name__}")
    moves = p.get("moves") if isinstance(p.get("moves"), list) else []
    if any(not isinstance(m, dict) or not isinstance(m.get("move"), str) or not isinstance(m.get("value"), int)
           for m in moves):
        out.append("moves: each must be {\"move\": text, \"value\": integer}")
    t = p.get("tempting")
    if isinstance(t, dict) and not (isinstance(t.get("move"), str) and isinstance(t.get("value"), int)
                                    and isinstance(t.get("refutation"), list)
                                    and all(isinstance(x, str) for x in t["refutation"])):
        out.append("tempting: expected {\"move\": text, \"value\": integer, \"refutation\": [texts]}")
    if "margin" in p and (not isinstance(p["margin"], int) or isinstance(p["margin"], bool)):
        out.append("margin: expected an integer")
    ex = p.get("explanation")
    if ex is not None:
        rows = ex.get("moves") if isinstance(ex, dict) else None
        if not (isinstance(ex, dict) and isinstance(ex.get("solution"), str) and isinstance(ex.get("tempting"), str)
                and isinstance(rows, list)
                and all(isinstance(r, dict) and isinstance(r.get("move"), str) and isinstance(r.get("value"), int)
                        and isinstance(r.get("loss"), int) and isinstance(r.get("why"), str)
                        and isinstance(r.get("line", []), list) for r in rows)):
            out.append("explanation: expected {\"solution\": text, \"tempting\": text, \"moves\": "
                       "[{\"move\", \"value\", \"loss\", \"why\", \"line\"}]}")
    tree = p.get("tree")
    if isinstance(tree, dict) and not (isinstance(tree.get("nodes"), list) and isinstance(tree.get("edges"), list)):
        out.append("tree: expected node-link JSON with lists of nodes and edges")
    return out


def verify_puzzle(p: dict, engine: str = "auto") -> list[str]:
    """Every failed claim of one puzzle (empty when it is correct)."""
    errors: list[str] = shape_problems(p)
    if errors:
        return errors
    try:
        pos = position_from_dict(p["position"])
    except (ScoponeError, KeyError) as e:
        return [f"position: {e}"]
    if p.get("id") != puzzle_id(pos):
        errors.append(f"id: {p.get('id')!r} does not match the position ({puzzle_id(pos)})")
    if p.get("line") != pos.line() or p.get("to_move") != pos.to_move:
        errors.append("line/to_move: do not match the position")
    sign = 1 if pos.to_move % 2 == 0 else -1
    values = _values(pos, engine)
    claimed = {m["move"]: m["value"] for m in p.get("moves", [])}
    if claimed != values:
        diff = sorted(k for k in set(claimed) | set(values) if claimed.get(k) != values.get(k))
        errors.append(f"moves: values differ for {', '.join(diff)}")
    best_v = max(values.values(), key=lambda v: sign * v)
    bests = [m for m, v in values.items() if v == best_v]
    if len(values) < 3:
        errors.append("moves: fewer than 3 legal moves")
    if p.get("value") != best_v:
        errors.append(f"value: claimed {p.get('value')}, solver says {best_v}")
    if len(bests) != 1:
        errors.append(f"solution: {len(bests)} moves reach the value ({', '.join(bests)})")
    elif any(m != bests[0] and sign * (best_v - v) < MIN_MARGIN for m, v in values.items()):
        errors.append("solution: the best move is not a point ahead of every other move")
    solution = p.get("solution", [])
    if not solution or solution[0] not in bests:
        errors.append("solution: does not start with the best move")
    tempting = p.get("tempting", {})
    if tempting.get("by", "greedy") == "greedy":
        g = greedy_choice(pos.table, pos.cards_left(), pos.legal_moves()).text()
        if tempting.get("move") != g:
            errors.append(f"tempting: the greedy move is {g}, not {tempting.get('move')}")
    if tempting.get("move") in bests:
        errors.append(f"tempting: the {tempting.get('by', 'greedy')} move is a best move")
    if tempting.get("value") != values.get(tempting.get("move")):
        errors.append("tempting: value differs from the solver's")
    try:
        refuted = _replay(pos, [tempting["move"]] + tempting.get("refutation", []))
        if not refuted.is_over() or refuted.result().value != tempting.get("value"):
            errors.append("tempting: the refutation line does not end the deal with the tempting value")
    except (ScoponeError, KeyError) as e:
        errors.append(f"tempting: refutation line: {e}")
    # the solution line: unique solving moves, value-keeping replies
    try:
        work = pos.copy()
        for i, t in enumerate(solution):
            vals = _values(work, engine)
            if i % 2 == 0:
                s = 1 if work.to_move % 2 == 0 else -1
                others = [v for m, v in vals.items() if m != t]
                if vals.get(t) != best_v or any(s * (best_v - v) < MIN_MARGIN for v in others):
                    errors.append(f"solution[{i}]: {t} is not the unique best move")
            elif vals.get(t) != best_v:
                errors.append(f"solution[{i}]: reply {t} does not keep the value")
            work.play(t)
    except ScoponeError as e:
        errors.append(f"solution: {e}")
    errors += _verify_tree(p, pos, best_v, engine)
    others, more = _verify_explanation(p, pos, values, best_v, bests)
    errors += more
    if p.get("view") == "seat":
        errors += _verify_seat(p, pos, bests, engine)
    try:
        best_line = _replay(pos, p["best_line"])
        tempt_line = _replay(pos, [tempting["move"]] + tempting.get("refutation", []))
        if best_line.result().value != best_v:
            errors.append("best_line: does not end with the puzzle's value")
        facts = PuzzleFacts(pos, pos.to_move & 1, tuple(_moves(pos, solution)), tuple(_moves(pos, p["best_line"])),
                            tuple(_moves(pos, [tempting["move"]] + tempting.get("refutation", []))),
                            best_line.result(), tempt_line.result(), others)
        if tag(facts) != p.get("themes"):
            errors.append(f"themes: claimed {p.get('themes')}, the taggers say {tag(facts)}")
        rung = rate(pos, list(_moves(pos, solution)))
        if p.get("difficulty", {}).get("level") != rung.level:
            errors.append(f"difficulty: claimed {p.get('difficulty')}, the ladder says {rung.name}")
        if "seat_difficulty" in p and solution:
            seat_rung = rate_seat(pos, pos.parse_move(solution[0]))
            if p["seat_difficulty"] != seat_rung:
                errors.append(f"seat_difficulty: claimed {p['seat_difficulty']}, "
                              f"the seat's-view ladder says {seat_rung}")
    except (ScoponeError, KeyError) as e:
        errors.append(f"best_line: {e}")
    return errors


def _verify_explanation(p: dict, pos: Position, values: dict[str, int], best_v: int,
                        bests: list[str]) -> tuple[tuple, list[str]]:
    """Check the margin and the explanation's moves; returns (the wrong moves' lines, errors)."""
    errors: list[str] = []
    team = pos.to_move & 1
    if "margin" in p and len(bests) == 1:
        want = min((loss_of(v, best_v, team) for m, v in values.items() if m != bests[0]), default=0)
        if p["margin"] != want:
            errors.append(f"margin: claimed {p['margin']}, the moves' values say {want}")
    ex = p.get("explanation")
    if ex is None:
        return (), errors
    rows = ex["moves"]
    if sorted(r["move"] for r in rows) != sorted(values):
        errors.append("explanation: the moves are not every legal first move once")
        return (), errors
    losses = [r["loss"] for r in rows]
    if losses != sorted(losses):
        errors.append("explanation: moves are not listed best first")
    others = []
    for r in rows:
        m = r["move"]
        if r["value"] != values[m]:
            errors.append(f"explanation: {m} has value {r['value']}, the solver says {values[m]}")
        if r["loss"] != loss_of(values[m], best_v, team):
            errors.append(f"explanation: {m} claims a loss of {r['loss']}, not {loss_of(values[m], best_v, team)}")
        line = r.get("line", [])
        try:
            end = _replay(pos, line)
            if not line or line[0] != m or not end.is_over() or end.result().value != values[m]:
                errors.append(f"explanation: the line of {m} does not start with it and end the deal at its value")
            elif m not in bests:
                others.append(tuple(_moves(pos, line)))
        except ScoponeError as e:
            errors.append(f"explanation: line of {m}: {e}")
    return tuple(others), errors


def _verify_seat(p: dict, pos: Position, bests: list[str], engine: str) -> list[str]:
    """Recompute a seat's-view puzzle's statistics from the same deals of the hidden cards."""
    claimed = p.get("seat")
    if not isinstance(claimed, dict) or not isinstance(claimed.get("samples"), int):
        return ["seat: a seat's-view puzzle needs its statistics (\"seat\")"]
    got = seat_view(pos, engine, claimed["samples"] if not claimed.get("exact") else max(claimed["samples"], 1),
                    str(claimed.get("seed", "")))
    errors = []
    for key in ("move", "margin", "probability", "deals", "exact", "means"):
        if got[key] != claimed.get(key):
            errors.append(f"seat: {key} claimed {claimed.get(key)!r}, recomputed {got[key]!r}")
    if p.get("probability") != got["probability"]:
        errors.append(f"probability: claimed {p.get('probability')!r}, recomputed {got['probability']!r}")
    if got["move"] not in bests or got["probability"] <= 0.5 or got["margin"] < 1:
        errors.append(f"seat: {got['move']} is not a clear best move from the seat's view")
    return errors


def _moves(pos: Position, texts: list[str]):
    work = pos.copy()
    for t in texts:
        m = work.parse_move(t)
        yield m
        work.push(m)


def _verify_tree(p: dict, pos: Position, value: int, engine: str) -> list[str]:
    errors = []
    try:
        g = nx.node_link_graph(p["tree"], edges="edges")
    except Exception as e:  # networkx raises several kinds for malformed data
        return [f"tree: not a node-link graph: {e}"]
    if pos.line() not in g:
        return ["tree: the root is not the puzzle position"]
    bad = [n for n in g.nodes if not isinstance(n, str)]
    bad += [d for _, _, d in g.edges(data=True) if not isinstance(d.get("move"), str)]
    if bad:
        return [f"tree: nodes must be position strings and edges carry a move text, not {bad[0]!r}"]
    for node in g.nodes:
        try:
            npos = Position.from_line(node)
        except ScoponeError as e:
            errors.append(f"tree: node {node!r}: {e}")
            continue
        out = {d["move"] for _, _, d in g.out_edges(node, data=True)}
        solver_team = pos.to_move & 1
        if not out and not npos.is_over() and npos.to_move & 1 != solver_team:
            # a defender to move with no reply: only where the solution ends by design
            path = nx.shortest_path(g, pos.line(), node) if nx.has_path(g, pos.line(), node) else None
            solving = sum(Position.from_line(n).to_move & 1 == solver_team for n in (path or [])[:-1])
            if path is None or solving < MAX_SOLVING_MOVES:
                errors.append(f"tree: defender node {node!r} has no reply (the tree is cut short)")
        if not out or npos.is_over():
            continue
        vals = _values(npos, engine)
        if npos.to_move & 1 == solver_team:
            s = 1 if npos.to_move % 2 == 0 else -1
            best = [m for m, v in vals.items() if v == value]
            unique = len(best) == 1 and all(s * (value - v) >= MIN_MARGIN for m, v in vals.items() if m != best[0])
            if not unique or out != set(best):
                errors.append(f"tree: solver node {node!r}: edges {sorted(out)} are not the unique best move")
        else:
            keep = {m for m, v in vals.items() if v == value}
            if out != keep:
                errors.append(f"tree: defender node {node!r}: edges {sorted(out)} are not every reply "
                              f"keeping the value ({sorted(keep)})")
        for _, child, d in g.out_edges(node, data=True):
            if d.get("value") != value:
                errors.append(f"tree: edge {d.get('move')} at {node!r} claims value {d.get('value')}")
            try:
                after = npos.copy()
                after.play(d["move"])
                if after.line() != child:
                    errors.append(f"tree: edge {d['move']} at {node!r} does not lead to its child")
            except ScoponeError as e:
                errors.append(f"tree: edge at {node!r}: {e}")
    return errors


def verify_file(data: dict, engine: str = "auto", on_puzzle=None) -> dict[str, list[str]]:
    """Failed claims per puzzle id (only puzzles with failures are listed)."""
    if not isinstance(data, dict) or data.get("format") != "scopone-puzzles/1":
        raise ScoponeError("format: not a scopone-puzzles/1 file")
    if not isinstance(data.get("puzzles"), list):
        raise ScoponeError("puzzles: expected a list of puzzles")
    failed = {}
    for i, p in enumerate(data["puzzles"]):
        errs = verify_puzzle(p, engine)
        if errs:
            pid = p.get("id") if isinstance(p, dict) and isinstance(p.get("id"), str) else f"puzzles[{i}]"
            failed[pid] = errs
        if on_puzzle:
            on_puzzle(i, p, errs)
    return failed
