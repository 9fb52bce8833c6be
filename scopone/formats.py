"""The JSON file formats: positions and game records, read with named errors.

Every reader collects all problems it finds, each naming its field, and raises
one :class:`~scopone.errors.ScoponeError` whose message starts with the source
(a file name).  Writers go through a temporary file and a rename, so a failed
run never leaves a partial file.

>>> from scopone.deal import deal
>>> pos = deal(seed=1, cards_per_hand=2)
>>> position_from_dict(position_to_dict(pos)) == pos
True
"""

from __future__ import annotations

import glob
import json
import os
import re
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .cards import CardMask, cards_of, card_text, parse_card
from .errors import CardError, FormatError, PositionError, RulesError, ScoponeError
from .position import Move, Position
from .rules import Rules, parse_rules
from .scoring import TEAMS

POSITION_FORMAT = "scopone-position/1"
GAME_FORMAT = "scopone-game/1"
_POSITION_FIELDS = {"format", "rules", "hands", "table", "captured", "scope", "to_move", "last_capture", "comment"}
_GAME_FIELDS = {"format", "rules", "hands", "table", "first", "start", "moves", "comment", "players", "event"}


def _cards_field(value: Any, name: str, problems: list[str]) -> CardMask:
    if not isinstance(value, list):
        problems.append(f"{name}: expected a list of cards such as [\"7D\", \"10B\"], got {type(value).__name__}")
        return 0
    mask = 0
    for i, item in enumerate(value):
        try:
            if not isinstance(item, str):
                raise CardError(f"{item!r} is not a card text")
            c = parse_card(item)
        except CardError as e:
            problems.append(f"{name}[{i}]: {e}")
            continue
        if mask >> c & 1:
            problems.append(f"{name}[{i}]: card {card_text(c)} is listed twice")
        mask |= 1 << c
    return mask


def _rules_field(value: Any, problems: list[str], override: Rules | None) -> Rules:
    if override is not None:
        return override
    try:
        return parse_rules(value if value is not None else "scientifico")
    except RulesError as e:
        problems.append(f"rules: {e}")
        return Rules()


def _team_field(value: Any, name: str, problems: list[str]) -> int | None:
    if value is None:
        return None
    if value in TEAMS:
        return TEAMS.index(value)
    problems.append(f"{name}: {value!r} is not \"A\", \"B\" or null")
    return None


def _fail(source: str, problems: list[str]) -> None:
    if problems:
        prefix = f"{source}: " if source else ""
        raise PositionError([prefix + p for p in problems])


def position_from_dict(d: Any, source: str = "", rules: Rules | None = None) -> Position:
    """Build and check a position from its JSON form (see the README).

    ``rules`` overrides the ``rules`` field.  Raises :class:`PositionError`
    listing every problem, each prefixed with ``source``.
    """
    problems: list[str] = []
    if not isinstance(d, dict):
        _fail(source, [f"expected a JSON object, got {type(d).__name__}"])
    fmt = d.get("format", POSITION_FORMAT)
    if fmt != POSITION_FORMAT:
        problems.append(f"format: {fmt!r} is not {POSITION_FORMAT!r}")
    for k in d:
        if k not in _POSITION_FIELDS:
            problems.append(f"{k}: unknown field (the fields are {', '.join(sorted(_POSITION_FIELDS))})")
    r = _rules_field(d.get("rules"), problems, rules)
    hands_v = d.get("hands")
    hands = [0, 0, 0, 0]
    if not isinstance(hands_v, list) or len(hands_v) != 4:
        problems.append("hands: expected a list of 4 hands (seats 0..3)")
    else:
        hands = [_cards_field(h, f"hands[{i}]", problems) for i, h in enumerate(hands_v)]
    table = _cards_field(d.get("table", []), "table", problems)
    captured = d.get("captured", {})
    piles = [0, 0]
    if not isinstance(captured, dict):
        problems.append("captured: expected {\"A\": [...], \"B\": [...]}")
    else:
        for k in captured:
            if k not in TEAMS:
                problems.append(f"captured.{k}: unknown team (teams are A and B)")
        piles = [_cards_field(captured.get(t, []), f"captured.{t}", problems) for t in TEAMS]
    scope_v = d.get("scope", {})
    scope = [0, 0]
    if not isinstance(scope_v, dict):
        problems.append("scope: expected {\"A\": 0, \"B\": 0}")
    else:
        for k in scope_v:
            if k not in TEAMS:
                problems.append(f"scope.{k}: unknown team (teams are A and B)")
        for i, t in enumerate(TEAMS):
            v = scope_v.get(t, 0)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                problems.append(f"scope.{t}: {v!r} is not a count of scope")
            else:
                scope[i] = v
    to_move = d.get("to_move", 0)
    if not isinstance(to_move, int) or isinstance(to_move, bool) or not 0 <= to_move <= 3:
        problems.append(f"to_move: seat {to_move!r} is out of range 0..3")
        to_move = 0
    if "last_capture" not in d and (piles[0] or piles[1]):
        problems.append("last_capture: missing although cards have been captured (give \"A\" or \"B\")")
    last = _team_field(d.get("last_capture"), "last_capture", problems)
    _fail(source, problems)
    pos = Position(hands, table, (piles[0], piles[1]), (scope[0], scope[1]), to_move, last, r, check=False)
    _fail(source, pos.problems())
    return pos


def position_to_dict(pos: Position) -> dict:
    """The JSON form of a position."""
    t = lambda m: [card_text(c) for c in cards_of(m)]  # noqa: E731
    return {
        "format": POSITION_FORMAT,
        "rules": pos.rules.name,
        "hands": [t(h) for h in pos.hands],
        "table": t(pos.table),
        "captured": {"A": t(pos.piles[0]), "B": t(pos.piles[1])},
        "scope": {"A": pos.scope[0], "B": pos.scope[1]},
        "to_move": pos.to_move,
        "last_capture": None if pos.last_capture is None else TEAMS[pos.last_capture],
    }


@dataclass
class GameRecord:
    """A deal as played: the start position and the moves in order.

    ``replay()`` plays the moves, checking each one.
    """

    start: Position
    moves: list[str] = field(default_factory=list)
    extra: dict = field(default_factory=dict)

    @property
    def rules(self) -> Rules:
        return self.start.rules

    def replay(self, source: str = "", upto: int | None = None) -> Position:
        """The position after the moves (all, or the first ``upto``), with its move stack.

        An illegal or malformed move raises :class:`ScoponeError` naming ``moves[i]``.
        """
        pos = self.start.copy()
        prefix = f"{source}: " if source else ""
        for i, text in enumerate(self.moves[:upto]):
            if pos.is_over():
                raise FormatError(f"{prefix}moves[{i}]: {text!r} comes after the end of the deal")
            try:
                pos.play(text)
            except ScoponeError as e:
                raise type(e)(f"{prefix}moves[{i}]: {e}") from None
        return pos

    def to_dict(self) -> dict:
        d: dict = {"format": GAME_FORMAT, "rules": self.rules.name}
        s = self.start
        fresh = (not s.piles[0] and not s.piles[1]
                 and all(h.bit_count() == s.hands[0].bit_count() for h in s.hands))
        if fresh:
            d["hands"] = [[card_text(c) for c in cards_of(h)] for h in s.hands]
            if s.table:
                d["table"] = [card_text(c) for c in cards_of(s.table)]
            d["first"] = s.to_move
        else:
            d["start"] = position_to_dict(s)
        d["moves"] = list(self.moves)
        d.update(self.extra)
        return d


def game_from_dict(d: Any, source: str = "", rules: Rules | None = None) -> GameRecord:
    """Build a game record from its JSON form; the moves are checked by :meth:`GameRecord.replay`."""
    prefix = f"{source}: " if source else ""
    if not isinstance(d, dict):
        raise FormatError(f"{prefix}expected a JSON object, got {type(d).__name__}")
    problems: list[str] = []
    if d.get("format", GAME_FORMAT) != GAME_FORMAT:
        problems.append(f"format: {d.get('format')!r} is not {GAME_FORMAT!r}")
    for k in d:
        if k not in _GAME_FIELDS:
            problems.append(f"{k}: unknown field (the fields are {', '.join(sorted(_GAME_FIELDS))})")
    moves = d.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        problems.append("moves: expected a list of move texts such as [\"7D\", \"3Cx1D+2D\"]")
        moves = []
    r = _rules_field(d.get("rules"), problems, rules)
    if "start" in d:
        if "hands" in d:
            problems.append("start: give either start or hands, not both")
        _fail(source, problems)
        start_d = dict(d["start"]) if isinstance(d["start"], dict) else d["start"]
        try:
            start = position_from_dict(start_d, "", r)
        except PositionError as e:
            _fail(source, [f"start.{p}" for p in e.problems])
    else:
        first = d.get("first", 0)
        if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first <= 3:
            problems.append(f"first: seat {first!r} is out of range 0..3")
            first = 0
        _fail(source, problems)
        start = position_from_dict({"hands": d.get("hands"), "table": d.get("table", []), "to_move": first},
                                  source, r)
    _fail(source, problems)
    extra = {k: d[k] for k in ("comment", "players", "event") if k in d}
    return GameRecord(start, list(moves), extra)


class _DuplicateKey(ValueError):
    pass


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict:
    out: dict = {}
    for k, v in pairs:
        if k in out:
            raise _DuplicateKey(k)
        out[k] = v
    return out


def read_json(path: str | Path) -> Any:
    """Read a JSON file; errors name the file and the line."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FormatError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise FormatError(f"{path}: cannot read: {e}") from None
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except _DuplicateKey as e:
        raise FormatError(f"{path}: {e}: the key is given twice (which one would count?)") from None
    except json.JSONDecodeError as e:
        raise FormatError(f"{path}: not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except RecursionError:
        raise FormatError(f"{path}: not valid JSON: nested too deeply") from None
    except ValueError as e:  # a number of more than 4300 digits
        raise FormatError(f"{path}: not valid JSON: {str(e).split(';')[0]}") from None


def load_position(path: str | Path, rules: Rules | None = None) -> Position:
    """Load a position file, or the final position of a game record file."""
    d = read_json(path)
    if isinstance(d, dict) and d.get("format") == GAME_FORMAT:
        return load_game(path, rules).replay(str(path))
    return position_from_dict(d, str(path), rules)


def load_game(path: str | Path, rules: Rules | None = None) -> GameRecord:
    """Load a game record file (moves are checked when replayed)."""
    return game_from_dict(read_json(path), str(path), rules)


def read_position_arg(arg: str, rules: Rules | None = None) -> Position:
    """A position from a file path, or from a one-line position string.

    >>> from scopone.deal import deal
    >>> line = deal(seed=3, cards_per_hand=1).line()
    >>> read_position_arg(line).line() == line
    True
    """
    if not os.path.exists(arg) and len(arg.split()) == 8 and "/" in arg:
        pos = Position.from_line(arg, check=False)
        if rules is not None:
            pos = Position(pos.hands, pos.table, tuple(pos.piles), tuple(pos.scope), pos.to_move,
                           pos.last_capture, rules, check=False)
        problems = pos.problems()
        if problems:
            raise PositionError([f"position string: {p}" for p in problems])
        return pos
    return load_position(arg, rules)


_SCALAR_LIST = re.compile(r"\[\s*([^\[\]{}]*?)\s*\]", re.S)


def json_text(data: Any) -> str:
    """Indented JSON with lists of scalars (card lists) kept on one line.

    >>> print(json_text({"table": ["3C", "4S"]}))
    {
      "table": ["3C", "4S"]
    }
    """
    text = json.dumps(data, indent=2, ensure_ascii=False)
    return _SCALAR_LIST.sub(lambda m: "[" + ", ".join(x.strip() for x in m.group(1).split(",\n")) + "]"
                            if m.group(1) else "[]", text)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_json_atomic(path: str | Path, data: Any) -> None:
    """Write JSON through a temporary file and a rename: never a partial file."""
    write_text_atomic(path, json_text(data) + "\n")


def check_output(path: str | Path) -> Path:
    """An output path that may be written by a rename: a new name or a regular file
    in an existing folder; else a :class:`FormatError` naming it."""
    if not str(path).strip():
        raise FormatError("output path: empty")
    path = Path(path)
    if path.exists() and not path.is_file():
        raise FormatError(f"{path}: not a regular file; refusing to replace it")
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise FormatError(f"{path}: the folder {directory} does not exist")
    return path


def _remove_stale_temporaries(path: Path, older_than: float = 600.0) -> None:
    # a run killed while writing leaves .NAME.*.tmp beside the output; the next run clears it
    now = time.time()
    for old in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
        try:
            if now - old.stat().st_mtime > older_than:
                old.unlink()
        except OSError:
            pass


def write_text_atomic(path: str | Path, text: str) -> None:
    """Write text through a temporary file and a rename: never a partial file.

    Refuses anything but a new name or a regular file (a device such as
    /dev/full is never replaced); errors name the path.
    """
    write_bytes_atomic(path, text.encode("utf-8"))


def write_bytes_atomic(path: str | Path, data: bytes) -> None:
    """:func:`write_text_atomic` for bytes (a PDF)."""
    path = check_output(path)
    directory = path.parent if str(path.parent) else Path(".")
    _remove_stale_temporaries(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    except OSError as e:
        raise FormatError(f"{path}: cannot write: {e.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual permissions
        os.replace(tmp, path)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise FormatError(f"{path}: cannot write: {e.strerror or e}") from None
        raise
