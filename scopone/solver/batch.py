"""Solving many positions: JSON Lines in, JSON Lines out, resumable.

Each input line is a position: a JSON object ``{"id": ..., "position": {...}}``
(the position format, or its one-line string), a bare position object, or a
one-line position string.  Each output line is the result for the input line
of the same number, in input order: ``{"line", "id", "value", "moves", "line_of_play",
"complete", "stats"}``, or ``{"line", "id", "error"}`` for a line that is not a
position.  Results are written as they come (one executor,
:func:`scopone.batch.run_ordered`, in this process or on a pool), so Ctrl-C
loses nothing already solved, and running the same command again resumes after
the last whole line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..batch import append_results, whole_lines
from ..errors import FormatError, ScoponeError
from ..formats import check_output, position_from_dict, read_position_arg


@dataclass(frozen=True)
class SolveTask:
    """One input line to solve (picklable, for worker processes)."""

    line: int
    text: str
    mode: str
    time_limit: float | None
    engine: str
    memory_mb: int | None = None  # each task's table bound (None: the core's default)


def _position(text: str):
    try:
        data = json.loads(text)
    except ValueError:
        data = text.strip()  # a one-line position string
    except RecursionError:
        raise FormatError("nested too deeply") from None
    pid = None
    if isinstance(data, dict) and "position" in data:
        pid = data.get("id")
        data = data["position"]
    if isinstance(data, str):
        return pid, read_position_arg(data) if len(data.split()) == 8 else _bad(data)
    return pid, position_from_dict(data)


def _bad(text: str):
    raise FormatError(f"not a position: {text[:40]!r}")


def solve_task(task: SolveTask) -> dict:
    """The result line for one input line."""
    from . import solve

    try:
        pid, pos = _position(task.text)
        r = solve(pos, task.mode, engine=task.engine, time_limit=task.time_limit, memory_mb=task.memory_mb)
    except ScoponeError as e:
        return {"line": task.line, "id": None, "error": " ".join(str(e).split())}
    d = r.as_dict()
    return {"line": task.line, "id": pid, "value": d["value"], "lower": d.get("lower"), "upper": d.get("upper"),
            "moves": d["moves"], "line_of_play": d["line"], "complete": d["complete"], "stats": d["stats"]}


def solve_batch(source: str | Path, output: str | Path, *, mode: str = "best", time_limit: float | None = None,
                workers: int = 1, engine: str = "auto", scheduler: str | None = None,
                on_result: Callable[[dict, int, int], None] | None = None,
                memory_mb: int | None = None) -> tuple[int, int]:
    """Solve every line of ``source`` into ``output``; returns (results written now, bad lines in all).
    Each worker's solve has a table of its own, bounded by ``memory_mb``.

    ``on_result(result, done, total)`` is called after each line; ``scheduler``
    runs the lines on a Dask cluster (see :func:`scopone.batch.run_ordered`).
    """
    source, output = Path(source), check_output(output)
    try:
        lines = [x for x in source.read_text(encoding="utf-8").splitlines()]
    except FileNotFoundError:
        raise FormatError(f"{source}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise FormatError(f"{source}: cannot read: {e}") from None
    numbered = [(i + 1, x) for i, x in enumerate(lines) if x.strip()]
    start = len(whole_lines(output))
    if start > len(numbered):
        raise FormatError(f"{output}: holds {start} results but {source} has only {len(numbered)} positions")
    tasks = (SolveTask(n, text, mode, time_limit, engine, memory_mb) for n, text in numbered[start:])
    report = (lambda result, k: on_result(result, start + k, len(numbered))) if on_result else None
    written = append_results(solve_task, tasks, output, workers, scheduler, report)
    with open(output, encoding="utf-8") as f:
        bad = sum("error" in json.loads(row) for row in f)
    return written, bad
