"""Reading a puzzle file for showing or printing: the format and every puzzle's shape
checked first, so a bad file gives one line naming the puzzle and the field.

>>> read_puzzle_file("examples/puzzles.json")["format"]
'scopone-puzzles/1'
"""

from __future__ import annotations

from pathlib import Path

from ..errors import FormatError
from ..formats import read_json
from .verify import shape_problems

PUZZLES_FORMAT = "scopone-puzzles/1"


def read_puzzle_file(path: str | Path) -> dict:
    """The puzzle file at ``path``, refused with a :class:`~scopone.errors.FormatError`
    (``FILE: puzzles[3].tempting: ...``) unless it is a puzzle file whose puzzles
    all have the fields the format requires."""
    data = read_json(path)
    if not isinstance(data, dict) or data.get("format") != PUZZLES_FORMAT \
            or not isinstance(data.get("puzzles"), list) or not all(isinstance(p, dict) for p in data["puzzles"]):
        raise FormatError(f"{path}: format: not a {PUZZLES_FORMAT} file (an object with a list of puzzles)")
    for i, p in enumerate(data["puzzles"]):
        problems = shape_problems(p)
        if problems:
            raise FormatError(f"{path}: puzzles[{i}].{problems[0]}")
        d = p["difficulty"]
        if not (isinstance(d.get("level"), int) and not isinstance(d.get("level"), bool) and 1 <= d["level"] <= 7
                and isinstance(d.get("label"), str)):
            raise FormatError(f"{path}: puzzles[{i}].difficulty: expected {{\"level\": 1..7, \"label\": text}}")
    return data
