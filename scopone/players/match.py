"""Matches between two players on paired deals, with a confidence interval.

Deal ``i`` of a match is played twice with the same cards: first with player
A in seats 0 and 2 (team A) and B in seats 1 and 3, then with the teams
swapped, so the luck of the cards cancels; the seat that plays first rotates
with ``i``.  A pair's result is the mean of A's margin (A's points minus B's)
over its two deals, and the match reports the mean over pairs with a 95%
interval from those paired differences (Student's t).

Every deal is reproducible: its cards come from the match seed and ``i``, and
each seat's random choices from a stream of its own, so a pair gives the same
result in any process, in any order.  With a save directory the results are
written as they come (``results.jsonl``, one line per pair, and each deal as
a game record under ``games/``) and an interrupted match resumes there.

>>> s = run_match("greedy", "random", 2, seed=1)
>>> s.pairs, s.deals, len(s.results)
(2, 4, 2)
"""

from __future__ import annotations

import json
import os
import random
import statistics
import time
from dataclasses import dataclass, field
from functools import lru_cache
from math import exp, lgamma, log, log1p, pi
from pathlib import Path
from typing import Callable

from ..batch import run_ordered, whole_lines
from ..deal import deal
from ..errors import FormatError
from ..formats import GameRecord, write_json_atomic
from ..observation import observe
from ..position import Move, Position
from ..rules import Rules, parse_rules
from ..scoring import Score, game_winner
from . import make_player
from .base import Player

MATCH_FORMAT = "scopone-match/1"

#: The per-deal score categories reported for each side (re bello and napola only
#: count under those switches).
CATEGORIES = ("carte", "denari", "settebello", "primiera", "scope", "re_bello", "napola")


def category_points(score: Score, team: int) -> dict[str, int]:
    """Points of ``team`` in each category of a deal's score."""
    return {"carte": score.carte_points[team], "denari": score.denari_points[team],
            "settebello": score.settebello_points[team], "primiera": score.primiera_points[team],
            "scope": score.scope[team], "re_bello": score.re_bello_points[team],
            "napola": score.napola_points[team]}


@dataclass(frozen=True)
class PairTask:
    """One pair of deals to play (picklable, for worker processes)."""

    index: int
    seed: int
    a: str
    b: str
    rules: Rules


def pair_start(seed: int, index: int, rules: Rules) -> Position:
    """The cards of pair ``index`` of a match with ``seed`` (the first seat rotates)."""
    deal_seed = random.Random(f"scopone-match:{seed}:{index}").randrange(2**32)
    return deal(deal_seed, rules, first=index % 4)


_PLAYERS: dict[str, Player] = {}


def _player(spec: str) -> Player:
    # one player per spec and process: PIMC keeps its solver's table across decisions
    p = _PLAYERS.get(spec)
    if p is None:
        p = _PLAYERS[spec] = make_player(spec)
    return p


def play_deal(start: Position, players: list[Player], rng_key: str,
              on_play: Callable[[Position, int, Move], None] | None = None) -> tuple[Position, list[list[float]]]:
    """Play a deal to its end; returns the final position (with its move stack)
    and the seconds each seat spent on each of its decisions.

    ``on_play(pos, seat, move)`` is called before each move is pushed on ``pos``
    (the terminal game shows the plays one by one)."""
    pos = start.copy()
    history: list = []
    rngs = [random.Random(f"{rng_key}:{seat}") for seat in range(4)]
    times: list[list[float]] = [[], [], [], []]
    while not pos.is_over():
        seat = pos.to_move
        player = players[seat]
        obs = observe(pos, seat, tuple(history), cheat=player.cheats)
        t0 = time.perf_counter()
        move = player.choose(obs, rngs[seat])
        times[seat].append(time.perf_counter() - t0)
        if not pos.is_legal(move):
            raise RuntimeError(f"player {player.name} chose the illegal move {move.text()} in {pos.line()}")
        if on_play:
            on_play(pos, seat, move)
        pos.push(move)
        history.append((seat, move))
    return pos, times


def _evaluation_counts(player: Player) -> dict[str, int]:
    counts = getattr(player, "counts", None)
    return dict(counts) if counts is not None else {}


def run_pair(task: PairTask) -> dict:
    """Play both deals of a pair; a JSON-ready result."""
    start = pair_start(task.seed, task.index, task.rules)
    games = []
    for swap in (0, 1):
        a, b = _player(task.a), _player(task.b)
        before = (_evaluation_counts(a), _evaluation_counts(b))
        a_team = swap  # team of player A: 0 (seats 0, 2) in the first deal, 1 in the second
        seats = [a if (s & 1) == a_team else b for s in range(4)]
        final, times = play_deal(start, seats, f"scopone-match:{task.seed}:{task.index}:{swap}")
        score = final.result()
        after = (_evaluation_counts(a), _evaluation_counts(b))
        games.append({
            "a_team": "AB"[a_team],
            "moves": [m.text() for m in final.move_stack],
            "points": {"a": score.points[a_team], "b": score.points[1 - a_team]},
            "categories": {"a": category_points(score, a_team), "b": category_points(score, 1 - a_team)},
            "capote": {"a": score.capote[a_team], "b": score.capote[1 - a_team]},
            "times": {"a": [t for s in range(4) if (s & 1) == a_team for t in times[s]],
                      "b": [t for s in range(4) if (s & 1) != a_team for t in times[s]]},
            "evaluations": {side: {k: after[i].get(k, 0) - before[i].get(k, 0) for k in after[i]}
                            for i, side in enumerate("ab")},
        })
    diff = statistics.fmean(g["points"]["a"] - g["points"]["b"] for g in games)
    return {"index": task.index, "first": start.to_move, "line": start.line(), "diff": diff, "games": games}


@lru_cache(maxsize=None)
def t_quantile_975(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom: the
    density integrated numerically (Simpson) and the 0.975 point found by bisection.

    >>> round(t_quantile_975(10), 3), round(t_quantile_975(100000), 3)
    (2.228, 1.96)
    """
    log_c = lgamma((df + 1) / 2) - lgamma(df / 2) - 0.5 * log(df * pi)

    def cdf(x: float, steps: int = 400) -> float:
        h = x / steps
        f = lambda t: exp(log_c - (df + 1) / 2 * log1p(t * t / df))  # noqa: E731
        s = f(0) + f(x) + sum((4 if i % 2 else 2) * f(i * h) for i in range(1, steps))
        return 0.5 + s * h / 3

    lo, hi = 0.0, 64.0
    for _ in range(50):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if cdf(mid) < 0.975 else (lo, mid)
    return (lo + hi) / 2


@dataclass
class MatchSummary:
    """What a match found (see :func:`run_match`); ``as_dict`` is the ``--json`` form."""

    a: str
    b: str
    rules: Rules
    results: list[dict] = field(default_factory=list)

    @property
    def pairs(self) -> int:
        return len(self.results)

    @property
    def deals(self) -> int:
        return 2 * len(self.results)

    @property
    def points_per_deal(self) -> float | None:
        """Mean over pairs of A's points minus B's per deal."""
        return statistics.fmean(r["diff"] for r in self.results) if self.results else None

    @property
    def interval(self) -> tuple[float, float] | None:
        """The 95% confidence interval of :attr:`points_per_deal` (two pairs at least)."""
        if len(self.results) < 2:
            return None
        diffs = [r["diff"] for r in self.results]
        half = t_quantile_975(len(diffs) - 1) * statistics.stdev(diffs) / len(diffs) ** 0.5
        mean = statistics.fmean(diffs)
        return mean - half, mean + half

    def categories(self, side: str) -> dict[str, float]:
        """Mean points per deal of ``side`` (``a`` or ``b``) in each category."""
        games = [g for r in self.results for g in r["games"]]
        cats = [c for c in CATEGORIES if c not in ("re_bello", "napola") or getattr(self.rules, c)]
        return {c: statistics.fmean(g["categories"][side][c] for g in games) if games else 0.0 for c in cats}

    def games_won(self) -> dict[str, int]:
        """Games to the rules' target won by each side.

        The first deals of the pairs, in order, make one run of games and the
        swapped deals another; in each the deal scores add up until a side
        wins (RULES.md: the target, the higher total on a tie, capote with napola)."""
        won = {"a": 0, "b": 0}
        for swap in (0, 1):
            totals = [0, 0]
            for r in self.results:
                g = r["games"][swap]
                totals = [totals[0] + g["points"]["a"], totals[1] + g["points"]["b"]]
                winner = game_winner((totals[0], totals[1]), self.rules, (g["capote"]["a"], g["capote"]["b"]))
                if winner is not None:
                    won["ab"[winner]] += 1
                    totals = [0, 0]
        return won

    def decision_seconds(self, side: str) -> dict[str, float | int]:
        """Mean and median seconds per decision of ``side`` and how many decisions."""
        ts = [t for r in self.results for g in r["games"] for t in g["times"][side]]
        if not ts:
            return {"decisions": 0, "mean": 0.0, "median": 0.0}
        return {"decisions": len(ts), "mean": statistics.fmean(ts), "median": statistics.median(ts)}

    def evaluations(self, side: str) -> dict[str, int]:
        """How the side's decisions were valued (PIMC: exact, rollout, forced), if it says."""
        out: dict[str, int] = {}
        for r in self.results:
            for g in r["games"]:
                for k, v in g["evaluations"][side].items():
                    out[k] = out.get(k, 0) + v
        return out

    def cheats(self, side: str) -> bool:
        return make_player(self.a if side == "a" else self.b).cheats

    def as_dict(self) -> dict:
        interval = self.interval
        return {
            "a": self.a, "b": self.b, "rules": self.rules.name,
            "pairs": self.pairs, "deals": self.deals,
            "points_per_deal": self.points_per_deal,
            "interval": list(interval) if interval else None,
            "categories": {s: self.categories(s) for s in "ab"},
            "games_won": self.games_won(),
            "seconds_per_decision": {s: self.decision_seconds(s) for s in "ab"},
            "evaluations": {s: self.evaluations(s) for s in "ab"},
            "cheating": [s for s in "ab" if self.cheats(s)],
        }


class MatchDir:
    """A match's save directory: its settings, ``results.jsonl`` and ``games/``."""

    def __init__(self, path: str | Path, settings: dict):
        self.path = Path(path)
        self.settings = settings
        self.games = self.path / "games"

    def open(self) -> list[dict]:
        """Create the directory or check it holds this match; the results so far."""
        meta = self.path / "match.json"
        if meta.exists():
            try:
                saved = json.loads(meta.read_text(encoding="utf-8"))
            except (OSError, ValueError) as e:
                raise FormatError(f"{meta}: cannot read: {e}") from None
            diff = [k for k in self.settings if saved.get(k) != self.settings[k]]
            if diff:
                k = diff[0]
                raise FormatError(f"{meta}: {k}: this directory holds a match with {k} {saved.get(k)!r}, "
                                  f"not {self.settings[k]!r} (use another --save directory)")
        else:
            try:
                self.path.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise FormatError(f"{self.path}: cannot create the directory: {e.strerror}") from None
            write_json_atomic(meta, {"format": MATCH_FORMAT, **self.settings})
        self.games.mkdir(exist_ok=True)
        results = whole_lines(self.path / "results.jsonl")
        return results

    def add(self, result: dict) -> None:
        """Write a pair's two deals as game records, then its result line."""
        start = Position.from_line(result["line"])
        for swap, g in enumerate(result["games"]):
            a_seats = [s for s in range(4) if "AB"[s & 1] == g["a_team"]]
            players = [self.settings["a"] if s in a_seats else self.settings["b"] for s in range(4)]
            record = GameRecord(start, g["moves"], {
                "players": players,
                "event": f"match seed {self.settings['seed']}, pair {result['index']}, deal {swap + 1} of 2"})
            write_json_atomic(self.games / f"deal-{result['index']:05d}-{swap + 1}.json", record.to_dict())
        with open(self.path / "results.jsonl", "a", encoding="utf-8") as f:
            f.write(json.dumps(result) + "\n")
            f.flush()
            os.fsync(f.fileno())


def run_match(a: str, b: str, n: int, seed: int = 1, rules: Rules | None = None, *, workers: int = 1,
              save: str | Path | None = None, scheduler: str | None = None,
              on_result: Callable[[MatchSummary], None] | None = None) -> MatchSummary:
    """Play ``n`` pairs of deals between players ``a`` and ``b`` (specs).

    With ``save`` the pairs already in that directory are kept and only the
    rest are played (resume); ``on_result`` is called after every pair;
    ``scheduler`` plays the pairs on a Dask cluster.
    """
    rules = rules or Rules()
    for spec in (a, b):
        make_player(spec)  # a bad spec fails here, not in a worker
    summary = MatchSummary(a, b, rules)
    store = None
    if save is not None:
        store = MatchDir(save, {"a": a, "b": b, "seed": seed, "rules": rules.name})
        summary.results = [r for r in store.open() if r["index"] < n]
    done = {r["index"] for r in summary.results}
    if on_result:
        on_result(summary)

    def take(result: dict) -> None:
        if store is not None:
            store.add(result)
        summary.results.append(result)
        if on_result:
            on_result(summary)

    tasks = (PairTask(i, seed, a, b, rules) for i in range(n) if i not in done)
    run_ordered(run_pair, tasks, take, workers, scheduler=scheduler)
    summary.results.sort(key=lambda r: r["index"])
    return summary


def load_summary(path: str | Path) -> MatchSummary:
    """The summary of a saved match directory."""
    meta = Path(path) / "match.json"
    try:
        settings = json.loads(meta.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise FormatError(f"{meta}: cannot read: {e}") from None
    store = MatchDir(path, {k: settings[k] for k in ("a", "b", "seed", "rules")})
    return MatchSummary(settings["a"], settings["b"], parse_rules(settings["rules"]), store.open())
