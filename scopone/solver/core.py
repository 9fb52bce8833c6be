"""The compiled search core (``scopone.solver._core``, C) behind the solver's backend API.

The install builds the core from one source more than once.  On x86-64: portable
(``_core``), and for the x86-64-v2 level (``_core_v2``: Intel since 2008, AMD
since 2011; what it gains is mostly the ``popcnt`` instruction), imported where
the processor runs it (``_core.CPU_LEVEL_OK``).  Everywhere: the standard module
(``_core_std``; on x86-64 for the x86-64-v3 level, Intel since 2013, AMD since
2015), which searches only the standard rules with the default options and
reads them as constants: the same trees in 0.92-0.95 the time, and 0.98 more
for the level.  A backend for those rules and options uses it where the
processor runs it (``_core.STANDARD_CPU_OK``), any other the general module.
``SCOPONE_CORE=portable`` in the environment keeps the portable one alone,
``SCOPONE_CORE=generic`` the general modules without the standard one.  All
search the same trees (the tests compare their values and nodes).

:class:`CoreBackend` answers the driver's fail-soft questions exactly like
:class:`scopone.solver.reference.PythonSearch`, only much faster.  The capture
rules reach C as data: the CP-SAT patterns of :func:`scopone.captures.capture_table`
(one nibble of rank counts per rank) plus the rules switches.

>>> from scopone.position import Position
>>> pos = Position.from_line("7D/7C/1B/2B 3C4S - - 0-0 0 - scientifico", check=False)
>>> CoreBackend(pos.rules).search(pos, -99, 99)
5
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import os
import time
from pathlib import Path

from ..captures import WHOLE_TABLE, capture_table
from ..position import Move, Position
from ..rules import Rules
from .reference import SearchInterrupted

def _load_core():
    """The portable core, or the one built for this processor's level where it runs here.

    setup.py builds, beside the portable ``_core``, a module for a newer x86-64
    level and names both in it (``_core.LEVEL_MODULE``, ``_core.CPU_LEVEL``);
    ``SCOPONE_CORE=portable`` keeps the portable one.
    """
    from . import _core as portable

    if os.environ.get("SCOPONE_CORE", "").strip().lower() == "portable" or not portable.CPU_LEVEL_OK:
        return portable
    try:
        return importlib.import_module(f"{__package__}.{portable.LEVEL_MODULE}")
    except ImportError:  # an install whose compiler could not build it
        return portable


def _load_standard(core):
    """The standard module (the standard rules with the default options only), where this
    processor runs it, as ``core`` (the module in use) says (``STANDARD_CPU_OK``).  None
    otherwise, if it cannot be imported, or with ``SCOPONE_CORE`` set."""
    if core is None or os.environ.get("SCOPONE_CORE", "").strip() or not core.STANDARD_CPU_OK:
        return None
    try:
        return importlib.import_module(f"{__package__}.{core.STANDARD_MODULE}")
    except ImportError:  # a compiler that could not build it
        return None


try:
    _core = _load_core()
except ImportError as _e:  # pragma: no cover - the install builds it
    _core = None
    _IMPORT_ERROR = str(_e)
else:
    _IMPORT_ERROR = ""
_standard = _load_standard(_core)

def rules_switches(rules: Rules) -> dict:
    """What the core is told of the rules besides the capture patterns.

    >>> sorted(k for k, v in rules_switches(Rules()).items() if v)
    ['asso_takes_asso', 'strict']
    """
    return dict(strict=rules.priority == "strict", asso_piglia_tutto=rules.asso_piglia_tutto,
                asso_scopa=rules.asso_scopa, asso_takes_asso=rules.asso_takes_asso,
                primiera_sum=rules.primiera == "sum", re_bello=rules.re_bello, napola=rules.napola,
                quindici=rules.quindici)


#: The rules switches the standard module is built for: the standard rules' (scientifico),
#: which solver.h's STANDARD_* constants repeat for the compiler (its Solver refuses others).
STANDARD_SWITCHES = rules_switches(Rules())


def module_for(switches: dict, options: int):
    """The core module that searches with these rules switches and options: the
    standard one where it fits them and is loaded, else the general one.

    >>> module_for(dict(STANDARD_SWITCHES, napola=True), _core.OPT_DEFAULT) is _core
    True
    """
    if _standard is not None and switches == STANDARD_SWITCHES and options & _core.OPT_ALL == _core.OPT_DEFAULT:
        return _standard
    return _core

#: Driver-side option (not a core bit): test the table's best move first at the
#: root of modes best and optimal (see ``scopone.solver.driver``).
OPT_ROOTMOVE = 1 << 31

#: Search options of the core (bit flags).  ``all`` (the default) is every
#: refinement that pays; ``everything`` adds the history and killer heuristics,
#: ``smallbounds``, ``deeptt`` (the table inside the last eight cards: half the
#: nodes, but not less time on one thread), ``order2`` and ``canon``, which cost
#: nodes or time on these trees (benchmarks/solve.py) and are kept for measurements,
#: ``quasi`` (skip a same-rank twin whose sibling cleared the window by 2: 1-2%
#: fewer nodes, not less time) and ``etc`` (enhanced transposition cutoff: 5%
#: fewer nodes at 7 cards, not less time), ``smalltt`` (a small table of exact
#: positions inside the plain search: 12% fewer nodes at 7 cards, not less time).
#: ``abdada`` matters only to threads
#: sharing a table; ``pdenari``, ``ppiles``, ``pdom`` and ``hint`` refine ``partition`` (``pdom``, with
#: ``ppiles``: the class key leaves out by how much each team leads the card and Denari majorities,
#: and an entry keeps them: its lower bound holds where team A leads both by as much or more, its
#: upper bound where by as much or less; ``hint``, on by
#: default since 4 December: the table nodes' class slots keep the move that cut, tried first by
#: the class's other positions; from 25 cards in hand at the root, where the table nodes have a
#: class region of their own).
#: ``shallow`` (with ``order``): from 18 cards left, a table node without a table move orders
#: its moves by a two-ply minimax of the piles (the move and the best reply), where the
#: window is within 4 points of those decided so far.
#: ``rootsize`` (with ``order``): at the root, of the moves that fail by as much as the best
#: one, the one whose refutation took the most nodes is kept as the table's move, which the
#: next test tries first (4.2% fewer nodes over the 7-card benchmark, 2.4% at 6 cards).
#: ``outcomes`` (with ``last``): a node before the last round (the mover holds two cards, every
#: other seat one) keeps in a table of its own, by its exact cards, where each of its plays
#: leads (the rest of the deal is forced, and where it leads does not depend on the piles), so
#: the same cards met again with other piles are scored without being played; a line scored
#: from the table counts as one node.
#: ``children`` (with ``order``): from 16 cards left, a table node puts first the moves whose
#: child's table entry already proves a cut-off, and last those whose entry proves they fail (a
#: soft enhanced transposition cut-off: 2.5% fewer nodes at 7 cards, 0.96-0.98 the time).
#: ``oranks`` (with ``outcomes``): the outcome table keyed by the ranks of the cards in each
#: place; a node that meets the entry of another with the same ranks takes its lines over, each
#: card moved to the one of its rank in its place (the plays depend on the ranks alone).
OPTIONS: dict[str, int] = (
    {"order": _core.OPT_ORDER, "equiv": _core.OPT_EQUIV, "bounds": _core.OPT_BOUNDS,
     "summary": _core.OPT_SUMMARY, "history": _core.OPT_HISTORY, "small": _core.OPT_SMALL, "killer": _core.OPT_KILLER,
     "tight": _core.OPT_TIGHT, "smallbounds": _core.OPT_SMALLBOUNDS, "last": _core.OPT_LAST, "range": _core.OPT_RANGE, "smallequiv": _core.OPT_SMALLEQUIV,
     "deeptt": _core.OPT_DEEPTT, "order2": _core.OPT_ORDER2, "canon": _core.OPT_CANON,
     "noscopa": _core.OPT_NOSCOPA, "dominance": _core.OPT_DOMINANCE, "abdada": _core.OPT_ABDADA,
     "quasi": _core.OPT_QUASI, "partition": _core.OPT_PARTITION, "etc": _core.OPT_ETC, "pdenari": _core.OPT_PDENARI,
     "ppiles": _core.OPT_PPILES, "pdom": _core.OPT_PDOM, "smalltt": _core.OPT_SMALLTT, "hint": _core.OPT_HINT,
     "shallow": _core.OPT_SHALLOW, "rootsize": _core.OPT_ROOTSIZE, "outcomes": _core.OPT_OUTCOMES,
     "children": _core.OPT_CHILDREN, "oranks": _core.OPT_ORANKS, "rootmove": OPT_ROOTMOVE,
     "all": _core.OPT_DEFAULT | OPT_ROOTMOVE, "everything": _core.OPT_ALL | OPT_ROOTMOVE}
    if _core else {}
)

#: The memory bound of a table when none is given (``--memory``).  Tables are sized for the position
#: (:data:`scopone.solver.TABLE_MB`) within it, from 8 cards per hand to the whole bound; it was 256 MB
#: until 8-card solves were measured to want 1 GB (8 cards, seed 2, one thread: 1.072 G nodes and 215 s
#: with 256 MB, 0.992 G and 192 s with 1 GB, 0.964 G and 208 s with 4 GB).
DEFAULT_MEMORY_MB = 1024


def core_unavailable_reason(rules: Rules) -> str | None:
    """None when the compiled core can solve positions under ``rules``, else why not.

    >>> core_unavailable_reason(Rules()) is None
    True
    """
    if _core is None:
        return f"the compiled core is not built ({_IMPORT_ERROR})"
    return None


def pack_pattern(pattern: tuple[int, ...]) -> int:
    """A capture pattern (counts per rank, index 0 unused) as one nibble per rank.

    >>> hex(pack_pattern((0, 1, 0, 2) + (0,) * 7))
    '0x201'
    """
    return sum(pattern[r] << (4 * (r - 1)) for r in range(1, 11))


# how a table node chose the move it searched first: the suffixes of stats()'s in_vain_* counters
VAIN_ORDERS = ("table_move", "class_move", "look", "static")


def parse_options(options: int | str | None) -> int:
    """Core options from an int or a text like ``all``, ``order+bounds`` or ``all-equiv``.

    >>> parse_options("order+bounds") == OPTIONS["order"] | OPTIONS["bounds"]
    True
    """
    if options is None:
        return OPTIONS["all"]
    if isinstance(options, int):
        return options
    text = options.strip().lower()
    if text.isdigit():
        return int(text)
    if text in ("", "none", "plain", "baseline"):
        return 0
    value = 0
    sign = 1
    token = ""
    for ch in text + "+":
        if ch in "+-":
            if token:
                if token not in OPTIONS:
                    raise ValueError(f"unknown core option {token!r} in {options!r}: "
                                     f"the options are {', '.join(OPTIONS)}")
                value = value | OPTIONS[token] if sign > 0 else value & ~OPTIONS[token]
            sign = 1 if ch == "+" else -1
            token = ""
        else:
            token += ch
    return value


@functools.cache
def _build_digest(path: str) -> str:
    """The SHA-256 of a compiled core's file: a table saved by one build is
    read back only by the same build."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


class CoreBackend:
    """The C search behind the driver's backend API (see ``scopone.solver.driver``).

    The transposition table persists across :meth:`search` calls on one object.
    ``memory_mb`` bounds it (it starts small and doubles in place as it fills,
    within memory reserved once and touched only as it is used);
    ``use_tt=False`` turns it off; ``options`` selects the search refinements
    (for benchmarks; every combination gives the same values).
    """

    def __init__(self, rules: Rules, deadline: float | None = None, memory_mb: int | None = None,
                 use_tt: bool = True, options: int | str | None = None):
        reason = core_unavailable_reason(rules)
        if reason:
            raise RuntimeError(reason)
        self.rules = rules
        self.deadline = deadline
        table = capture_table(rules)
        patterns: list[list[int]] = [[]]
        for v in range(1, 11):
            patterns.append([pack_pattern(p) for p in table.patterns[v] if p is not WHOLE_TABLE])
        switches = rules_switches(rules)
        self._options = parse_options(options)
        #: the core module searching (see :func:`module_for`)
        self.module = module_for(switches, self._options)
        self._solver = self.module.Solver(patterns=patterns, **switches,
                                          memory_mb=float(memory_mb or DEFAULT_MEMORY_MB),
                                          use_tt=use_tt, options=self._options)
        # what the core was told of the rules: a table's entries hold only for the same
        self._rules_digest = hashlib.sha256(repr((patterns, sorted(switches.items()))).encode()).hexdigest()[:16]

    def search(self, pos: Position, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta value of ``pos`` for team A (see the driver)."""
        if self.deadline is None:
            left = -1.0
        else:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise SearchInterrupted
        # the window is cut to the values the deal allows; the core's sentinels are
        # that limit too, so no window or scope can reach them
        limit = pos.value_limit()
        if limit > 1 << 24:
            raise ValueError(f"compiled core: scope {pos.scope[0]}-{pos.scope[1]} are beyond any deal")
        if alpha >= limit - 1:
            return limit - 1  # every value is below limit, so at most alpha: fails low
        if beta <= 1 - limit:
            return 1 - limit
        alpha, beta = int(max(alpha, -limit)), int(min(beta, limit))
        h = pos.hands
        last = -1 if pos.last_capture is None else pos.last_capture
        v = self._solver.search(hand0=h[0], hand1=h[1], hand2=h[2], hand3=h[3], table=pos.table,
                                pile_a=pos.piles[0], pile_b=pos.piles[1], scope_a=pos.scope[0],
                                scope_b=pos.scope[1], to_move=pos.to_move, last=last, alpha=alpha, beta=beta,
                                limit=limit, seconds_left=left)
        if v is None:
            raise SearchInterrupted
        return v

    def root_move(self, pos: Position) -> Move | None:
        """The table's best move for ``pos`` if ``pos`` was the root of the last search
        (a hint for move ordering: it need not be legal or best), else None."""
        if not self._options & OPT_ROOTMOVE:
            return None
        m = self._solver.root_move()
        if m is None:
            return None
        return Move(m & 63, m >> 6)

    def legal_move_ints(self, pos: Position) -> list[int]:
        """The core's move generator (every legal move, as ``card | captured << 6``)."""
        if self.rules != pos.rules:
            raise ValueError("position rules differ from the backend's")
        return self._solver.legal_moves(pos.hands[pos.to_move], pos.table)

    def share_table(self, other: "CoreBackend", memory_mb: float) -> None:
        """Search with ``other``'s transposition table from now on, both at once
        from their threads (entries are checked, so a torn write is a miss, never
        a wrong bound).  The first call makes a shared table of ``memory_mb`` that
        keeps its size; both backends must have the same rules and options.

        >>> from scopone.position import Position
        >>> pos = Position.from_line("7D/7C/1B/2B 3C4S - - 0-0 0 - scientifico", check=False)
        >>> a, b = CoreBackend(pos.rules), CoreBackend(pos.rules)
        >>> b.share_table(a, memory_mb=1)
        >>> a.search(pos, -99, 99) == b.search(pos, -99, 99)
        True
        """
        if other.module is not self.module:  # (different rules or options: the core would say so)
            raise ValueError("compiled core: a table is shared only by Solvers of the same rules and options")
        self._solver.share_table(other=other._solver, memory_mb=float(memory_mb))

    def fix_table(self, memory_mb: float) -> None:
        """Search a table of ``memory_mb`` made now, that keeps its size, instead of
        one that starts small and doubles as it fills (as the threads sharing a
        table do): what a small table has no room for early in the search is lost,
        so a solve that fills its table anyway searches fewer nodes (2% at 7 cards per hand).
        Call it before searching: a table of its own is dropped, with its entries
        (and the class tables); a backend whose table is already a shared one (of
        any size) keeps it.  MemoryError if the table cannot be made.

        >>> from scopone.deal import deal
        >>> pos = deal(seed=1, cards_per_hand=3)
        >>> b = CoreBackend(pos.rules)
        >>> b.fix_table(memory_mb=2)
        >>> b.search(pos, -99, 99), b.stats()["tt_memory_bytes"] == 2 << 20
        (-7, True)
        """
        self._solver.share_table(other=self._solver, memory_mb=float(memory_mb))

    def table_reader(self, memory_mb: float) -> "CoreBackend":
        """A backend that never searches and shares this one's table, so that
        :meth:`table_entries` can read it while this one (and any other sharing
        it) searches: a shared table never moves.  A backend with a table of its
        own is given a shared one of ``memory_mb`` first (fixed size, empty).

        >>> from scopone.deal import deal
        >>> pos = deal(seed=1, cards_per_hand=4)
        >>> b = CoreBackend(pos.rules)
        >>> r = b.table_reader(memory_mb=1)
        >>> b.search(pos, -99, 99), len(r.table_entries(20)) // 32
        (-6, 20)
        """
        reader = CoreBackend(self.rules, memory_mb=1, options=self._options)
        reader._solver.share_table(other=self._solver, memory_mb=float(memory_mb), reader=True)
        return reader

    def shares_table(self) -> bool:
        """Whether another backend searches with this one's table (:meth:`share_table`)."""
        return self._solver.shares_table()

    def table_entries(self, max_entries: int) -> bytes:
        """The table's entries of the biggest subtrees, at most ``max_entries``
        records of 32 bytes, for a checkpoint (:meth:`load_table_entries` puts
        them back).  Not while this backend searches; a shared table may be
        searched by the others meanwhile.

        >>> from scopone.deal import deal
        >>> pos = deal(seed=1, cards_per_hand=4)  # the table keeps positions of 11 cards and more
        >>> a, b = CoreBackend(pos.rules), CoreBackend(pos.rules)
        >>> a.search(pos, -99, 99), len(a.table_entries(1000)) // 32
        (-6, 201)
        >>> b.load_table_entries(a.table_entries(1000)), len(a.table_entries(5)) // 32
        (201, 5)
        """
        return self._solver.table_entries(max_entries=max_entries)

    def load_table_entries(self, data: bytes) -> int:
        """Store :meth:`table_entries`' records (of a backend of the same
        :meth:`table_fingerprint`) in this table; the number stored."""
        return self._solver.load_table_entries(data=data)

    def table_fingerprint(self) -> str:
        """What the meaning of a table entry depends on besides the position:
        this build of the core, the capture patterns and rules switches it was
        given (so a change to :mod:`scopone.captures` counts too) and the options."""
        return f"{_build_digest(self.module.__file__)}/{self._rules_digest}/{self._options & ~OPT_ROOTMOVE}"

    def stop(self, flag: bool = True) -> None:
        """Make searches give up (a running one, from another thread, within
        100,000 nodes; later ones at once) until ``stop(False)``."""
        self._solver.stop(flag)

    def clear(self) -> None:
        """Forget the table and the counters."""
        self._solver.clear()

    def stats(self) -> dict:
        """Counters, cumulative over the calls on this backend."""
        return self._solver.stats()

    def profile(self) -> list[dict]:
        """Where the search went, per number of cards left in the hands (list index):
        ``nodes``; and for the table-searched nodes that searched every move (no
        cut-off): ``all_nodes``, ``all_moves`` (moves searched) and ``all_hand``
        (cards in the mover's hand); ``late_cuts``, the table nodes that cut off on a
        move after the first, and ``in_vain``, the nodes under the moves they searched
        before it (each node counted once, at the highest such node: what a perfect
        order could save at most; :meth:`stats` splits their sum by how the first
        move was chosen, ``in_vain_table_move``, ``_class_move``, ``_look`` and
        ``_static``).  Cumulative, like :meth:`stats`.

        >>> from scopone.position import Position
        >>> pos = Position.from_line("7D/7C/1B/2B 3C4S - - 0-0 0 - scientifico", check=False)
        >>> b = CoreBackend(pos.rules)
        >>> b.search(pos, -99, 99), b.profile()[4]["nodes"]
        (5, 1)
        """
        return self._solver.profile()
