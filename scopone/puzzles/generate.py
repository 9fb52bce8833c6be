"""Generating a puzzle file: candidates from self-play, checked in order, resumable.

Candidates form a deterministic stream per seed (candidate ``i`` of seed ``S``
is always the same position), and results are taken in stream order even when
several worker processes analyse them, so a run gives the same puzzles whatever
``workers`` is and a re-run resumes exactly where the file says it stopped.
The file is rewritten (atomically) after every accepted puzzle and every few
seconds, so Ctrl-C loses nothing already computed.

**Realistic positions.**  A candidate is a random deal played by one of
``players`` (default: the heuristic player, ``scopone.players.heuristic``, for
every seat; any player spec works, e.g. ``pimc:samples=8``, which costs seconds
per candidate) down to N cards per hand and 0..3 plays more.  Deals already
decided are left out: a candidate where either side has made more than
``max_scope`` scope (default 3) is not analysed, and a position whose exact
value is more than ``max_value`` points (default 4) for either side is
rejected ("deal already decided").
"""

from __future__ import annotations

import datetime as _dt
import itertools
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .. import __version__
from ..batch import run_ordered
from ..deal import deal
from ..errors import FormatError, ScoponeError
from ..formats import read_json, write_json_atomic
from ..players import make_player
from ..players.base import play_to
from ..rules import Rules, parse_rules
from .analyse import DEFAULT_MARGIN, SEAT_SAMPLES, Candidate, Rejected, analyse
from .themes import motif_possible

PUZZLES_FORMAT = "scopone-puzzles/1"
#: The players whose self-play makes the candidates, by default.
DEFAULT_PLAYERS = ("heuristic",)
#: A candidate where either side has made more scope than this is not analysed.
MAX_SCOPE = 3
#: A position worth more than this for either side is a deal already decided.
MAX_VALUE = 4


def make_candidate(seed: int, index: int, cards: tuple[int, int], rules: Rules,
                   players: tuple[str, ...] = DEFAULT_PLAYERS) -> Candidate:
    """Candidate ``index`` of ``seed``: a random deal played by one of ``players``.

    The deal is played forward until every hand holds N cards (N drawn from
    ``cards``), then 0..3 more plays so that any seat may be to move.
    """
    rng = random.Random(f"scopone-puzzles:{seed}:{index}")
    n = rng.randint(cards[0], cards[1])
    deal_seed = rng.randrange(2**32)
    policy = rng.choice(list(players))
    first = rng.randrange(4)
    extra = rng.randrange(4) if n > 1 else 0
    pos = deal(deal_seed, rules, first=first, cards_per_hand=n, policy=policy)
    pos = play_to(pos, make_player(policy), rng, pos.cards_left() - extra).copy()
    source = {"seed": seed, "candidate": index, "deal_seed": deal_seed, "policy": policy,
              "first": first, "cards_per_hand": n, "extra_plays": extra}
    return Candidate(pos, source)


@dataclass(frozen=True)
class Job:
    """One candidate to analyse (picklable, for worker processes)."""

    seed: int
    index: int
    cards: tuple[int, int]
    rules: Rules
    themes: tuple[str, ...]
    engine: str
    min_margin: int = DEFAULT_MARGIN
    view: str = "all"
    players: tuple[str, ...] = DEFAULT_PLAYERS
    max_scope: int = MAX_SCOPE
    max_value: int = MAX_VALUE
    seat_samples: int = SEAT_SAMPLES
    swing: bool = True


def run_job(job: Job) -> tuple[int, dict | None, str | None]:
    """Analyse one candidate: (index, puzzle or None, rejection reason or None)."""
    cand = make_candidate(job.seed, job.index, job.cards, job.rules, job.players)
    if max(cand.pos.scope) > job.max_scope:
        return job.index, None, "too many scope made"
    if job.themes and not motif_possible(cand.pos, job.themes):
        return job.index, None, "none of the requested themes"
    try:
        puzzle = analyse(cand, job.engine, min_margin=job.min_margin, max_value=job.max_value, view=job.view,
                         seat_samples=job.seat_samples, swing=job.swing)
    except Rejected as e:
        return job.index, None, e.reason
    if job.themes and not set(job.themes) & set(puzzle["themes"]):
        return job.index, None, "none of the requested themes"
    return job.index, puzzle, None


@dataclass
class Progress:
    """Counters reported while generating."""

    accepted: int = 0
    examined: int = 0
    rejected: Counter = field(default_factory=Counter)


def parse_cards_range(text: str) -> tuple[int, int]:
    """``"5"`` or ``"3-7"`` → (low, high).

    >>> parse_cards_range("3-7"), parse_cards_range("5")
    ((3, 7), (5, 5))
    """
    lo, _, hi = str(text).partition("-")
    try:
        a, b = int(lo), int(hi or lo)
    except ValueError:
        raise ScoponeError(f"--cards-per-hand: {text!r} is not N or LOW-HIGH") from None
    if not 1 <= a <= b <= 9:
        raise ScoponeError(f"--cards-per-hand: {text!r} must lie within 1..9 with LOW <= HIGH")
    return a, b


def _load_existing(path: Path, rules: Rules) -> dict | None:
    if not path.exists():
        return None
    data = read_json(path)
    if not isinstance(data, dict) or data.get("format") != PUZZLES_FORMAT:
        raise FormatError(f"{path}: format: not a {PUZZLES_FORMAT} file; refusing to overwrite it")
    if parse_rules(data.get("rules")) != rules:
        raise FormatError(f"{path}: rules: the file holds {data.get('rules')} puzzles, not {rules.name}")
    return data


def generate(path: str | Path, n: int, seed: int = 1, *, cards: tuple[int, int] = (3, 7),
             rules: Rules | None = None, themes: tuple[str, ...] = (), workers: int = 1,
             engine: str = "auto", on_progress: Callable[[Progress], None] | None = None,
             scheduler: str | None = None, min_margin: int = DEFAULT_MARGIN, view: str = "all",
             players: tuple[str, ...] = DEFAULT_PLAYERS, max_scope: int = MAX_SCOPE, max_value: int = MAX_VALUE,
             seat_samples: int = SEAT_SAMPLES, swing: bool = True) -> dict:
    """Generate until the file at ``path`` holds ``n`` puzzles; returns the file's data.

    Re-running resumes: accepted puzzles are kept and candidates already
    examined for the same seed and options are skipped.  ``min_margin``: the
    answer's least lead over every other first move (1 point is accepted with 2
    only for a clear swing, see :mod:`scopone.puzzles.analyse`, unless ``swing``
    is False); ``view``:
    ``"all"`` (double dummy) or ``"seat"`` (the answer is also best from the
    seat's view, averaged over the hidden hands); ``players``: the self-play
    that makes the candidates; ``max_scope`` and ``max_value``: the limits that
    leave out deals already decided (see the module docs).
    """
    if view not in ("all", "seat"):
        raise ScoponeError(f"view: {view!r} is not 'all' or 'seat'")
    if min_margin < 1:
        raise ScoponeError(f"min_margin: {min_margin} must be at least 1")
    players = tuple(players)
    for spec in players:
        make_player(spec)  # unknown players fail here, not in a worker
    rules = rules or Rules()
    path = Path(path)
    now = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    data = _load_existing(path, rules) or {
        "format": PUZZLES_FORMAT,
        "generator": {"name": "scopone", "version": __version__},
        "rules": rules.name,
        "created": now,
        "seeds": [],
        "progress": {},
        "rejected": {},
        "puzzles": [],
    }
    if seed not in data["seeds"]:
        data["seeds"].append(seed)
    data["options"] = {"cards_per_hand": list(cards), "themes": list(themes), "min_margin": min_margin,
                       "view": view, "players": list(players), "max_scope": max_scope, "max_value": max_value,
                       "swing": swing}
    prog_key = (f"{seed}:{cards[0]}-{cards[1]}:{','.join(themes)}:margin={min_margin}:view={view}"
                f":players={','.join(players)}:scope<={max_scope}:value<={max_value}" + ("" if swing else ":no-swing"))
    start = int(data["progress"].get(prog_key, 0))
    ids = {p["id"] for p in data["puzzles"]}
    progress = Progress(accepted=len(data["puzzles"]), examined=start,
                        rejected=Counter(data.get("rejected", {})))
    last_write = time.monotonic()

    def save() -> None:
        data["progress"][prog_key] = progress.examined
        data["rejected"] = dict(progress.rejected)
        data["updated"] = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
        write_json_atomic(path, data)

    def take(index: int, puzzle: dict | None, reason: str | None) -> None:
        nonlocal last_write
        progress.examined = index + 1
        if puzzle is not None and puzzle["id"] in ids:
            puzzle, reason = None, "duplicate"
        if puzzle is None:
            progress.rejected[reason] += 1
        else:
            ids.add(puzzle["id"])
            data["puzzles"].append(puzzle)
            progress.accepted += 1
        if puzzle is not None or time.monotonic() - last_write > 2:
            save()
            last_write = time.monotonic()
        if on_progress:
            on_progress(progress)

    jobs = (Job(seed, i, cards, rules, tuple(themes), engine, min_margin, view, players, max_scope, max_value,
                seat_samples, swing) for i in itertools.count(start))
    try:
        if progress.accepted >= n:
            return data
        run_ordered(run_job, jobs, lambda r: take(*r), workers, lambda: progress.accepted >= n, scheduler=scheduler)
    finally:
        save()
    return data

