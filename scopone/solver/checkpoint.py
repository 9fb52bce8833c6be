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

Beside it, ``FILE.table`` keeps the entries of the transposition table with
the biggest subtrees (:data:`TABLE_ENTRIES` of them unless :attr:`Checkpoint.table_max`
says otherwise), written every
:data:`TABLE_EVERY` seconds while the search runs and when the run ends (also at
its time limit or on Ctrl-C).  A test
a run left unfinished starts again in the next, and with them it finds the
subtrees already proven instead of searching them again.  The file is a line
``scopone-table/1``, a JSON line (``position``, ``core``: the build, rules
encoding and options the entries are for, ``entries``, ``sha256`` of the
records) and the records.  A table of another build or options is not used
(the bounds still are); a damaged one (size, checksum) is refused.  Like the
bounds, the entries are trusted: the checksum finds damage, not edits.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import threading
import time
from pathlib import Path
from typing import Iterator, Sequence

from ..errors import FormatError
from ..formats import check_output, read_json, write_bytes_atomic, write_json_atomic
from ..position import Position
from .driver import Backend, Proven, StoppableBackend, TableBackend, root_bounds
from .reference import INF

FORMAT = "scopone-checkpoint/1"
TABLE_FORMAT = "scopone-table/1"
#: The table entries a checkpoint keeps (32 bytes each: 32 MB), the biggest subtrees first.  At 8
#: cards per hand a test cut short and resumed with them searched 1% more than with 16 times as many,
#: and 2% more with 64 K (``python benchmarks/resume.py --n 8 --seeds 2 --first 90 --memory 4096
#: --entries 64K,1M,4M,16M``): the biggest subtrees carry nearly all of it.
TABLE_ENTRIES = 1 << 20
#: The most entries a table file may hold (512 MB; :attr:`Checkpoint.table_max` can save more than
#: :data:`TABLE_ENTRIES`).
TABLE_FILE_ENTRIES = 1 << 24
#: Seconds between two saves of the table while a solve runs (and one at its end).
TABLE_EVERY = 600.0


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
        self.table_path = check_output(str(path) + ".table")
        self.resumed = self.path.exists()
        if self.resumed:
            self.start, self.work = load_checkpoint(self.path, pos)
        else:
            self.start, self.work = Proven(), {"runs": 0, "nodes": 0, "seconds": 0.0}
        # the saved table (core fingerprint, records), read now so a bad file fails before any search
        self.table_data = load_table(self.table_path, pos) if self.table_path.exists() else None
        self.table_entries = len(self.table_data[1]) // 32 if self.table_data else 0  # saved before
        self.table_note: str | None = None  # why the table was not used or not saved
        self.table_saved = 0  # the entries save_table wrote last
        self.table_saves = 0  # how many times it wrote them
        self.table_every = TABLE_EVERY
        self.table_max = TABLE_ENTRIES  # the most entries a save writes (TABLE_FILE_ENTRIES at most)
        self.t0 = time.monotonic()
        save_checkpoint(self.path, self.pos, self.start, self.work)

    def keep(self, proven: Proven) -> None:
        """Write ``proven`` with the work so far (this run counted once)."""
        work = {"runs": self.work["runs"] + 1, "nodes": self.work["nodes"] + proven.nodes,
                "seconds": self.work["seconds"] + time.monotonic() - self.t0}
        save_checkpoint(self.path, self.pos, proven, work)

    def warm(self, backends: Sequence[Backend]) -> int:
        """Put the saved table entries into the backends' tables before the run
        (once per table: threads share one); the number of entries stored, 0
        when there are none or no backend can use them (then :attr:`table_note`
        says why)."""
        if self.table_data is None:
            return 0
        fingerprint, data = self.table_data
        self.table_data = None  # in the tables, or of no use: either way not kept in memory
        tables = [b for b in backends if isinstance(b, TableBackend)]
        if not tables:
            self.table_note = f"{self.table_path}: not used (only the compiled core keeps a table)"
            return 0
        if tables[0].table_fingerprint() != fingerprint:
            self.table_note = (f"{self.table_path}: made by another build of the core, rules encoding or "
                               f"options: not used (the bounds are)")
            return 0
        stored = 0
        for i, b in enumerate(tables):
            if i == 0 or not (isinstance(b, StoppableBackend) and b.shares_table()):
                stored = max(stored, b.load_table_entries(data))
        return stored

    @contextlib.contextmanager
    def saving_table(self, reader: Backend | None) -> Iterator[None]:
        """While the block runs (the search), save the table every
        :attr:`table_every` seconds from ``reader`` (a backend sharing the
        searched table, :meth:`~scopone.solver.core.CoreBackend.table_reader`),
        so that a run killed outright loses at most that much of it."""
        if reader is None:
            yield
            return
        done = threading.Event()

        def loop() -> None:
            while not done.wait(self.table_every):
                if self.save_table(reader) < 0:  # it cannot be written: the end of the run will say so
                    return

        saver = threading.Thread(target=loop, name="scopone-table-saver", daemon=True)
        saver.start()
        try:
            yield
        finally:
            done.set()
            saver.join()

    def save_table(self, backend: Backend) -> int:
        """Write the biggest subtrees' entries of ``backend``'s table to
        :attr:`table_path`; the number written.  A table that cannot be written
        is not an error (the bounds are kept): -1, and :attr:`table_note` says so."""
        if not isinstance(backend, TableBackend):
            return 0
        try:
            data = backend.table_entries(min(self.table_max, TABLE_FILE_ENTRIES))
            if not data:  # a small position: its table keeps nothing, so no file
                return 0
            write_table(self.table_path, self.pos, backend.table_fingerprint(), data)
        except FormatError as e:
            self.table_note = f"the table was not saved: {e}"
            return -1
        except KeyboardInterrupt:  # the result is there: Ctrl-C while saving only gives up the table
            self.table_note = f"{self.table_path}: not saved (interrupted)"
            return -1
        self.table_saved = len(data) // 32
        self.table_saves += 1
        return self.table_saved


def write_table(path: str | Path, pos: Position, core: str, data: bytes | memoryview) -> None:
    """Write a table file of ``pos`` (the records ``data`` of the core ``core``:
    :meth:`~scopone.solver.core.CoreBackend.table_fingerprint`) atomically;
    FormatError if it cannot be written.  :func:`load_table` reads it back."""
    head = {"position": pos.line(), "core": core, "entries": len(data) // 32,
            "sha256": hashlib.sha256(data).hexdigest()}
    write_bytes_atomic(path, b"".join((f"{TABLE_FORMAT}\n{json.dumps(head)}\n".encode(), data)))  # one copy


#: The most a table file may hold: its two header lines and the records.
TABLE_FILE_MAX = 4096 + 32 * TABLE_FILE_ENTRIES


def load_table(path: str | Path, pos: Position) -> tuple[str, memoryview]:
    """The (core fingerprint, records) of a table file saved for ``pos``
    (:meth:`Checkpoint.save_table`); FormatError naming the file and field if it
    is not one or is damaged."""
    where = str(path)
    try:
        size = Path(path).stat().st_size
        if size > TABLE_FILE_MAX:
            raise FormatError(f"{where}: {size:,} bytes: a table file holds at most {TABLE_FILE_ENTRIES:,} "
                              f"entries ({TABLE_FILE_MAX:,} bytes)")
        raw = memoryview(Path(path).read_bytes())
    except OSError as e:
        raise FormatError(f"{where}: cannot read: {e.strerror}") from None
    first = bytes(raw[:64]).find(b"\n")
    if first < 0 or raw[:first] != TABLE_FORMAT.encode():
        raise FormatError(f"{where}: format: expected a first line {TABLE_FORMAT!r}")
    second = bytes(raw[first + 1:first + 4097]).find(b"\n")
    if second < 0:
        raise FormatError(f"{where}: the second line is not a JSON object")
    head_line, data = raw[first + 1:first + 1 + second], raw[first + 2 + second:]
    try:
        head = json.loads(bytes(head_line))
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise FormatError(f"{where}: the second line is not a JSON object") from None
    if not isinstance(head, dict):
        raise FormatError(f"{where}: the second line is not a JSON object")
    if head.get("position") != pos.line():
        raise FormatError(f"{where}: position: the table is of another position or rules "
                          f"({head.get('position')!r}); give another file or delete this one")
    if not isinstance(head.get("core"), str):
        raise FormatError(f"{where}: core: expected a string, found {head.get('core')!r}")
    if head.get("entries") != len(data) // 32 or len(data) % 32:
        raise FormatError(f"{where}: entries: the file holds {len(data)} bytes of records, "
                          f"not {head.get('entries')!r} of 32 bytes: it is damaged")
    if head.get("sha256") != hashlib.sha256(data).hexdigest():
        raise FormatError(f"{where}: sha256: the records do not match their checksum: the file is damaged")
    return head["core"], data
