"""Analysing many game records: one JSON line per record, on the one executor, resumable.

>>> from dataclasses import fields
>>> [f.name for f in fields(AnalyzeTask)]
['path', 'settings']
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

from ..batch import append_results, whole_lines
from ..errors import ScoponeError
from ..formats import check_output, load_game
from .analyse import CoachSettings, analyse_game


@dataclass(frozen=True)
class AnalyzeTask:
    """One record to analyse (picklable, for worker processes)."""

    path: str
    settings: CoachSettings


def analyze_task(task: AnalyzeTask) -> dict:
    """``{"game": path, "plays", "summary", "settings", "seconds"}``, or ``{"game", "error"}``."""
    try:
        record = load_game(task.path)
        return {"game": task.path, **analyse_game(record, task.settings, task.path).as_dict()}
    except ScoponeError as e:
        return {"game": task.path, "error": " ".join(str(e).split())}


def analyze_batch(paths: list[str], output: str | Path, settings: CoachSettings, *, workers: int = 1,
                  scheduler: str | None = None,
                  on_result: Callable[[dict, int, int], None] | None = None) -> tuple[int, int]:
    """Analyse every record into ``output`` (JSON Lines, in the order given); the
    records already there are skipped (resume).  Returns (written now, records with errors)."""
    output = check_output(output)
    done = whole_lines(output)
    if done and done[0].get("settings") not in (None, asdict(settings)):
        raise ScoponeError(f"{output}: holds analyses made with other settings (use another output)")
    seen = {row.get("game") for row in done}
    todo = [p for p in paths if p not in seen]
    tasks = (AnalyzeTask(p, settings) for p in todo)
    report = (lambda result, k: on_result(result, len(done) + k, len(done) + len(todo))) if on_result else None
    written = append_results(analyze_task, tasks, output, workers, scheduler, report)
    bad = sum("error" in row for row in whole_lines(output))
    return written, bad
