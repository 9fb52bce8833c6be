"""What a played card may capture, compiled once per rules from a CP-SAT model.

The rules of capture are stated once, as a constraint model: for a played value
``v`` a capture *pattern* is a multiset of table ranks (a count ``c[r]`` of each
rank ``r``) whose values meet the target (``v``, or ``15 - v`` with
``quindici``).  OR-Tools CP-SAT enumerates every pattern for every played
value; that happens once per :class:`~scopone.rules.Rules`.  At play time the
move generator only looks up which patterns fit the table's rank counts
(applying single-card priority and *asso piglia tutto*) and expands them into
concrete card sets, because suits matter for scoring.  Both lookups are
memoised, so a search pays for each (played value, table) pair once.

>>> from scopone.cards import parse_cards, mask_text
>>> table = capture_table(Rules())
>>> [mask_text(m) for m in table.options(7, parse_cards("3C 4S 2D 5C"))]
['2D 5C', '3C 4S']
>>> [mask_text(m) for m in table.options(5, parse_cards("5D 2C 3C"))]  # priority
['5D']
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from importlib import metadata
from itertools import combinations, product
from pathlib import Path

from .cards import RANK_MASK, CardMask, cards_of, iter_cards, rank_count
from .rules import Rules

#: A capture pattern: counts per rank, index 0 unused (length 11).
Pattern = tuple[int, ...]

#: The marker pattern meaning "the whole table" (asso piglia tutto).
WHOLE_TABLE: Pattern = (-1,) * 11

_CACHE_LIMIT = 1 << 20
_M5 = 0x5555555555  # 40 bits: 01 repeated
_M3 = 0x3333333333  # 40 bits: 0011 repeated


def capture_target(rules: Rules, value: int) -> int:
    """The sum the captured table cards must reach when a card of ``value`` is played.

    >>> capture_target(Rules(), 7), capture_target(Rules(quindici=True), 7)
    (7, 8)
    """
    return 15 - value if rules.quindici else value


def cpsat_patterns(target: int) -> list[Pattern]:
    """Every multiset of table ranks whose values sum to ``target``, by CP-SAT.

    A rank can appear at most 4 times (there are four suits).

    >>> cpsat_patterns(3)
    [(0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0), (0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0), (0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0)]
    """
    from . import hold_sigint

    with hold_sigint():  # heavy import, only when compiling; a Ctrl-C during it is a KeyboardInterrupt
        from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    counts = [model.new_int_var(0, 4, f"c{r}") for r in range(1, 11)]
    model.add(sum(r * c for r, c in zip(range(1, 11), counts)) == target)
    model.add(sum(counts) >= 1)

    found: list[Pattern] = []

    class _Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            found.append((0,) + tuple(int(self.value(c)) for c in counts))

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1  # enumeration requires a single worker
    # CP-SAT's own Ctrl-C handler resets SIGINT to the default action when it is
    # done, which would make a later Ctrl-C kill the process instead of raising
    # KeyboardInterrupt (the solver reports what it has proven on Ctrl-C)
    solver.parameters.catch_sigint_signal = False
    status = solver.solve(model, _Collect())
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE):
        raise RuntimeError(f"CP-SAT could not enumerate captures for target {target}: {solver.status_name(status)}")
    # A canonical order: fewer cards first, then by counts of low ranks.
    return sorted(set(found), key=lambda p: (sum(p), [-c for c in p]))


#: Bump when the capture model changes: the cached tables of an older model are ignored.
MODEL_VERSION = 1


def cache_path() -> Path:
    """The file where compiled capture patterns are kept between runs: in
    ``$SCOPONE_CACHE_DIR``, else the user's cache folder, named by the model's
    and OR-Tools' versions (a new version of either compiles afresh)."""
    base = os.environ.get("SCOPONE_CACHE_DIR")
    if not base:
        base = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "scopone")
    try:
        ortools = metadata.version("ortools")
    except metadata.PackageNotFoundError:  # pragma: no cover - a dependency
        ortools = "unknown"
    return Path(base) / f"captures-model{MODEL_VERSION}-ortools{ortools}.json"


def _valid(target: int, patterns) -> bool:
    return isinstance(patterns, list) and all(
        isinstance(p, list) and len(p) == 11 and all(isinstance(c, int) and 0 <= c <= 4 for c in p)
        and sum(r * c for r, c in enumerate(p)) == target for p in patterns)


@lru_cache(maxsize=None)
def _disk_cache() -> dict:
    try:
        data = json.loads(cache_path().read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}  # missing, unreadable or corrupt: compiled again and rewritten


def patterns_for(target: int) -> list[Pattern]:
    """:func:`cpsat_patterns`, kept on disk between runs (see :func:`cache_path`).

    CP-SAT stays the statement of the rules; the cache only saves its start-up
    cost (about 0.4 s a process).  An entry that is not a valid list of patterns
    for ``target`` is compiled again.  Writing is atomic, so processes that fill
    the cache at once leave a whole file.
    """
    cache = _disk_cache()
    hit = cache.get(str(target))
    if _valid(target, hit):
        return [tuple(p) for p in hit]
    patterns = cpsat_patterns(target)
    cache[str(target)] = [list(p) for p in patterns]
    try:
        from .formats import write_text_atomic  # formats imports the engine: import here, not at the top

        path = cache_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(path, json.dumps(cache, sort_keys=True))
    except Exception:  # noqa: BLE001 - a cache that cannot be written only costs time
        pass
    return patterns


def _is_single(p: Pattern) -> bool:
    return p is not WHOLE_TABLE and sum(p) == 1


class CaptureTable:
    """The compiled capture rules for one :class:`Rules`.

    ``patterns[v]`` lists the rank patterns a card of value ``v`` can capture
    (CP-SAT's enumeration); :meth:`options` gives the concrete card sets for a
    table.
    """

    def __init__(self, rules: Rules):
        self.rules = rules
        by_target: dict[int, list[Pattern]] = {}
        self.patterns: list[list[Pattern]] = [[]]
        for v in range(1, 11):
            t = capture_target(rules, v)
            if t not in by_target:
                by_target[t] = patterns_for(t) if t > 0 else []
            self.patterns.append(by_target[t])
        #: sweep_scopa[rank - 1]: whether emptying the table with that rank is a scopa
        self.sweep_scopa = tuple(self.is_sweep_scopa(v) for v in range(1, 11))
        self._fit: dict[tuple[int, int], tuple[Pattern, ...]] = {}
        self._options: dict[int, tuple[CardMask, ...]] = {}

    def fitting_patterns(self, value: int, table: CardMask) -> tuple[Pattern, ...]:
        """The capture patterns available to ``value`` on ``table``, after priority.

        Returns ``(WHOLE_TABLE,)`` for an Ace's sweep under asso piglia tutto.
        """
        # the count of each rank packed one per nibble (a SWAR popcount of each nibble):
        # the cache key, cheaper than counting rank by rank on every call
        x = table - ((table >> 1) & _M5)
        packed = (x & _M3) + ((x >> 2) & _M3)
        key = (value, packed)
        hit = self._fit.get(key)
        if hit is not None:
            return hit
        counts = tuple((packed >> s) & 0xF for s in range(0, 40, 4))
        rules = self.rules
        if rules.asso_piglia_tutto and value == 1:
            if rules.asso_takes_asso and counts[0]:
                fits: tuple[Pattern, ...] = ((0, 1) + (0,) * 9,)
            elif table:
                fits = (WHOLE_TABLE,)
            else:
                fits = ()
        else:
            fits = tuple(
                p for p in self.patterns[value]
                if all(p[r] <= counts[r - 1] for r in range(1, 11))
            )
            if rules.priority == "strict" and any(_is_single(p) for p in fits):
                fits = tuple(p for p in fits if _is_single(p))
        self._fit[key] = fits
        return fits

    def options(self, value: int, table: CardMask) -> tuple[CardMask, ...]:
        """Every card set a card of ``value`` may capture from ``table``.

        Sorted by size, then by the sorted card list (the canonical move order).

        An empty tuple means the card is laid down.
        """
        key = table << 4 | value
        hit = self._options.get(key)
        if hit is not None:
            return hit
        out: list[CardMask] = []
        for p in self.fitting_patterns(value, table):
            if p is WHOLE_TABLE:
                out.append(table)
                continue
            choices = []
            for r in range(1, 11):
                if p[r]:
                    pool = list(iter_cards(table & RANK_MASK[r]))
                    choices.append([sum(1 << c for c in combo) for combo in combinations(pool, p[r])])
            for parts in product(*choices):
                out.append(sum(parts))
        result = tuple(sorted(set(out), key=lambda m: (m.bit_count(), cards_of(m))))
        if len(self._options) > _CACHE_LIMIT:
            self._options.clear()
        self._options[key] = result
        return result

    def priority_forced(self, value: int, table: CardMask) -> bool:
        """Whether single-card priority removed sum captures for ``value`` on ``table``.

        >>> from scopone.cards import parse_cards
        >>> capture_table(Rules()).priority_forced(5, parse_cards("5D 2C 3C"))
        True
        """
        if self.rules.priority != "strict" or (self.rules.asso_piglia_tutto and value == 1):
            return False
        fits = self.fitting_patterns(value, table)
        if not fits or not _is_single(fits[0]):
            return False
        counts = [0] + [rank_count(table, r) for r in range(1, 11)]
        return any(sum(p) > 1 and all(p[r] <= counts[r] for r in range(1, 11))
                   for p in self.patterns[value])

    def is_sweep_scopa(self, value: int) -> bool:
        """Whether a capture by this value that empties the table always counts as a scopa.

        False only for the Ace under asso piglia tutto without ``asso_scopa``:
        then see :meth:`counts_as_scopa`.
        """
        return not (self.rules.asso_piglia_tutto and value == 1 and not self.rules.asso_scopa)

    def counts_as_scopa(self, card: int, captured: CardMask) -> bool:
        """Whether this capture, if it empties the table (not on the last play), is a scopa.

        Under asso piglia tutto the Ace's sweep is a scopa only with
        ``asso_scopa``, but an Ace taking a lone table Ace (``asso_takes_asso``)
        is an ordinary single-card match and so a scopa.

        >>> ct = capture_table(Rules(asso_piglia_tutto=True))
        >>> ct.counts_as_scopa(0, 0b10), ct.counts_as_scopa(0, 1 << 8)
        (True, False)
        """
        if self.sweep_scopa[card >> 2]:
            return True
        return bool(self.rules.asso_takes_asso and captured & RANK_MASK[1])


@lru_cache(maxsize=None)
def capture_table(rules: Rules) -> CaptureTable:
    """The compiled :class:`CaptureTable` for ``rules`` (built once, then shared)."""
    return CaptureTable(rules)


def captures(rules: Rules, card_value: int, table: CardMask) -> tuple[CardMask, ...]:
    """What a card of ``card_value`` may capture from ``table`` under ``rules``.

    >>> from scopone.cards import parse_cards, mask_text
    >>> [mask_text(m) for m in captures(Rules(quindici=True), 7, parse_cards("8C 3S 5B"))]
    ['8C']
    >>> [mask_text(m) for m in captures(Rules(quindici=True), 7, parse_cards("2C 3S 5B"))]
    ['3S 5B']
    """
    return capture_table(rules).options(card_value, table)
