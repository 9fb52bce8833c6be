"""Checkpoints of a long solve: the bounds proven so far, kept in a file.

A null-window search proves a fact about a position ("the value is at least
3") that stays true, so a solve stopped by a time limit or Ctrl-C can hand its
bounds to the next run, which tests only inside them (``scopone solve POSITION
--checkpoint FILE``).  The file is JSON::

    {"format": "scopone-checkpoint/1", "position": "<one-line position>",
     "lower": -5, "upper": 0, "moves": {"7Dx3C+4S": [-5, null]}, "runs": 2,
     "nodes": 21200000000, "seconds": 3900.0}

``lower``/``upper`` bound the value of the position for team A (null: not
proven), ``moves`` the root moves' values; ``runs``, ``nodes`` and ``seconds``
add up the work of every run that wrote it.  A checkpoint belongs to one
position and rules: another position's is refused.  Its bounds are trusted
(only this module writes them), so an edited file can make a solve wrong.
"""

from __future__ import annotations

import time
from pathlib import Path
from ..errors import FormatError
from ..formats import check_output, read_json, write_json_atomic
from ..position import Position
from .driver import Proven, root_bounds
from .reference import INF

FORMAT = "scopone-checkpoint/1"


def load_checkpoint(path: str | Path, pos: Position) -> tuple[Proven, dict]:
    """The bounds a checkpoint file proves for ``pos``, and its work counters
    (``runs``, ``nodes``, ``seconds``); FormatError naming the file and field if
    it is not a checkpoint of ``pos``.

    >>> import tempfile, os
    >>> pos = Position.from_line("7D/7C/1B/2B 3C4S - - 0-0 0 - scientifico", check=False)
    >>> path = os.path.join(tempfile.mkdtemp(), "c.json")
    >>> save_checkpoint(path, pos, Proven(5, 5), {"runs": 1, "nodes": 4, "seconds": 0.1})
    >>> proven, work = load_checkpoint(path, pos)
    >>> proven.lower, proven.upper, work["runs"]
    (5, 5, 1)
    """
    d = read_json(path)
    where = str(path)
    if not isinstance(d, dict):
        raise FormatError(f"{where}: not a checkpoint: expected a JSON object")
    if d.get("format") != FORMAT:
        raise FormatError(f"{where}: format: expected {FORMAT!r}, found {d.get('format')!r}")
    if d.get("position") != pos.line():
        raise FormatError(f"{where}: position: the checkpoint is of another position or rules "
                          f"({d.get('position')!r}); give another file or delete this one")

    def bound(value, field: str, missing: int) -> int:
        if value is None:
            return missing
        if type(value) is not int or not -1000 < value < 1000:
            raise FormatError(f"{where}: {field}: expected an integer or null, found {value!r}")
        return value

    def pair(lo, up, field: str) -> tuple[int, int]:
        b = bound(lo, field + " lower", -INF), bound(up, field + " upper", INF)
        if b[0] > b[1]:
            raise FormatError(f"{where}: {field}: lower bound {b[0]} above upper bound {b[1]}")
        return b

    lower, upper = pair(d.get("lower"), d.get("upper"), "lower/upper")
    moves_in = d.get("moves", {})
    if not isinstance(moves_in, dict):
        raise FormatError(f"{where}: moves: expected an object of move -> [lower, upper]")
    legal = {m.text(): m for m in pos.legal_moves()}
    moves = {}
    for text, b in moves_in.items():
        if text not in legal:
            raise FormatError(f"{where}: moves: {text!r} is not a legal move of the position")
        if not isinstance(b, list) or len(b) != 2:
            raise FormatError(f"{where}: moves: {text}: expected [lower, upper], found {b!r}")
        moves[legal[text]] = pair(b[0], b[1], f"moves: {text}")
    # the moves' bounds say something about the root's too: they must agree
    lo, up = root_bounds([moves.get(m, (-INF, INF)) for m in legal.values()], pos.to_move & 1 == 0)
    if max(lo, lower) > min(up, upper):
        raise FormatError(f"{where}: moves: the moves' bounds prove the value in [{lo}, {up}], "
                          f"which contradicts lower/upper [{lower}, {upper}]")
    work = {}
    for field, kind in (("runs", int), ("nodes", int), ("seconds", (int, float))):
        v = d.get(field, 0)
        if isinstance(v, bool) or not isinstance(v, kind) or not 0 <= v < 1e18:  # NaN fails too
            raise FormatError(f"{where}: {field}: expected a number from 0 to 10^18, found {v!r}")
        work[field] = v
    return Proven(lower, upper, moves), work


def save_checkpoint(path: str | Path, pos: Position, proven: Proven, work: dict) -> None:
    """Write the bounds ``proven`` for ``pos`` (atomically: a reader sees the old
    file or the new one) with the work counters ``work``."""
    def b(v: int) -> int | None:
        return None if v in (INF, -INF) else v

    data = {"format": FORMAT, "position": pos.line(), "lower": b(proven.lower), "upper": b(proven.upper),
            "moves": {m.text(): [b(lo), b(up)] for m, (lo, up) in sorted(proven.moves.items(),
                                                                         key=lambda kv: kv[0].text())},
            "runs": work["runs"], "nodes": work["nodes"], "seconds": round(work["seconds"], 3)}
    write_json_atomic(path, data)  # a FormatError naming the path if it cannot be written


class Checkpoint:
    """A checkpoint file for one solve of ``pos``: :attr:`start` holds what it
    proved before (empty for a new file), :meth:`keep` (the ``on_proven`` of
    :func:`scopone.solver.solve`) writes what is proven now, with this run
    (its nodes: :attr:`Proven.nodes`) added to the earlier runs' work.  The file
    is written once at once (this run not counted yet), so a path that cannot
    be written fails before any search.

    >>> import tempfile, os
    >>> from scopone.solver import solve
    >>> pos = Position.from_line("7D/7C/1B/2B 3C4S - - 0-0 0 - scientifico", check=False)
    >>> path = os.path.join(tempfile.mkdtemp(), "c.json")
    >>> c = Checkpoint(path, pos)
    >>> c.resumed, c.start.moves
    (False, {})
    >>> solve(pos, "best", engine="c", start=c.start, on_proven=c.keep).value
    5
    >>> again = Checkpoint(path, pos)
    >>> again.resumed, again.start.lower, again.start.upper, again.work["runs"]
    (True, 5, 5, 1)
    """

    def __init__(self, path: str | Path, pos: Position):
        self.path, self.pos = check_output(path), pos
        self.resumed = self.path.exists()
        if self.resumed:
            self.start, self.work = load_checkpoint(self.path, pos)
        else:
            self.start, self.work = Proven(), {"runs": 0, "nodes": 0, "seconds": 0.0}
        self.t0 = time.monotonic()
        save_checkpoint(self.path, self.pos, self.start, self.work)

    def keep(self, proven: Proven) -> None:
        """Write ``proven`` with the work so far (this run counted once)."""
        work = {"runs": self.work["runs"] + 1, "nodes": self.work["nodes"] + proven.nodes,
                "seconds": self.work["seconds"] + time.monotonic() - self.t0}
        save_checkpoint(self.path, self.pos, proven, work)
