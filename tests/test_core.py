"""The compiled search core against the pure-Python reference, invariances, corpus.

The core must be built by the install (``pip install -e .``): a missing core is a
failure here, not a skip.
"""

from __future__ import annotations

import gc
import json
import random
import signal
import subprocess
import time
import weakref
from pathlib import Path

import pytest

from scopone.cards import DENARI_MASK, PRIMIERA_VALUE, RE_BELLO, SETTEBELLO, SUIT_PERMUTATIONS, rank_of
from scopone.deal import deal
from scopone.position import Move, Position
from scopone.rules import PRESETS, Rules, parse_rules
from scopone.solver import make_backend, make_backends, minimax, solve
from scopone.solver.core import CoreBackend, OPTIONS, VAIN_ORDERS, core_unavailable_reason
from scopone.solver.driver import solve_with
from scopone.solver.parallel import Workers
from scopone.solver.reference import SearchInterrupted

CORPUS = Path(__file__).parent / "data" / "solved" / "core.jsonl"

RULES = list(PRESETS.values()) + [
    parse_rules("scientifico+re_bello+napola+primiera=sum"),
    parse_rules("assi+asso_scopa"),
    parse_rules("assi+asso_takes_asso=false+priority=free"),
    parse_rules("quindici+priority=free+re_bello"),
    parse_rules("classico+napola+primiera=sum"),
]
RULE_IDS = [r.name for r in RULES]


def endgame(seed: int, rules: Rules, n: int) -> Position:
    """A reproducible endgame: greedy or random play, any seat first (so piles,
    scope, last capture and the seat to move all vary)."""
    return deal(seed=seed, rules=rules, first=seed % 4, cards_per_hand=n,
                policy="random" if seed % 3 else "greedy")


def moves_and_values(r):
    return [(m.move, m.value) for m in r.moves]


def test_core_is_built():
    # the core takes every rule set (the tests below solve each one with it)
    assert core_unavailable_reason(Rules()) is None


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
def test_move_generator_matches_engine(rules):
    for seed in range(60):
        pos = endgame(seed, rules, 1 + seed % 8)
        backend = CoreBackend(rules)
        for seat in range(4):
            pos.to_move = seat
            assert sorted(backend.legal_move_ints(pos)) == sorted(pos.legal_move_ints()), pos.line()


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
def test_move_generator_matches_engine_on_crowded_tables(rules):
    """Tables no play reaches: up to 12 cards, often two to four of a rank, so that a capture
    takes every card of its ranks (one move) or a choice among them (several)."""
    rng = random.Random(15)
    backend = CoreBackend(rules)
    for _ in range(300):
        ranks = rng.sample(range(1, 11), rng.randint(1, 6))
        pool = [(r - 1) * 4 + s for r in ranks for s in range(4)]
        table_cards = rng.sample(pool, rng.randint(1, min(12, len(pool))))
        rest = [c for c in range(40) if c not in table_cards]
        rng.shuffle(rest)
        hands = [sum(1 << c for c in rest[5 * i:5 * i + 5]) for i in range(4)]
        table = sum(1 << c for c in table_cards)
        pile = sum(1 << c for c in rest[20:])
        pos = Position(hands, table, (pile, 0), rules=rules, check=False)
        for seat in range(4):
            pos.to_move = seat
            assert sorted(backend.legal_move_ints(pos)) == sorted(pos.legal_move_ints()), pos.line()


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
def test_core_matches_reference_small(rules):
    """Every legal move's value, 1..3 cards per hand: 200 endgames per rules."""
    for seed in range(200):
        pos = endgame(1000 + seed, rules, 1 + seed % 3)
        ref = solve(pos, mode="all", engine="python", line=False)
        core = solve(pos, mode="all", engine="c", line=False)
        assert core.complete and ref.complete
        assert core.value == ref.value, pos.line()
        assert moves_and_values(core) == moves_and_values(ref), pos.line()


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
def test_core_matches_reference_four_cards(rules):
    """Every legal move's value with 4 cards per hand (19 per rules, 209 in all)."""
    for seed in range(19):
        pos = endgame(5000 + seed, rules, 4)
        ref = solve(pos, mode="all", engine="python", line=False)
        core = solve(pos, mode="all", engine="c", line=False)
        assert core.value == ref.value, pos.line()
        assert moves_and_values(core) == moves_and_values(ref), pos.line()


def _special_positions(rules: Rules, want, count: int = 40, n: int = 3) -> list[Position]:
    """Positions two plays before random play reaches a rare situation (``want``),
    so that the core meets it inside its own search, not at the root."""
    out, seed = [], 0
    while len(out) < count and seed < 20000:
        rng = random.Random(seed)
        pos = deal(seed=seed, rules=rules, first=seed % 4)
        while pos.cards_left() > 4 * n:
            pos.push(rng.choice(pos.legal_moves()))
        start = pos.cards_left()
        while not pos.is_over():
            if want(pos) and start - pos.cards_left() >= 2:
                pos.pop()
                pos.pop()
                out.append(pos.copy())
                break
            pos.push(rng.choice(pos.legal_moves()))
        seed += 1
    return out


def _ace_on_lone_ace(pos: Position) -> bool:
    return pos.table.bit_count() == 1 and bool(pos.table & 0xF) and bool(pos.hands[pos.to_move] & 0xF)


def _sweep_available(pos: Position) -> bool:
    return any(m.captured == pos.table for m in pos.legal_moves() if m.captured)


@pytest.mark.parametrize("rules", [parse_rules("assi"), parse_rules("assi+asso_scopa"),
                                   parse_rules("assi+asso_takes_asso=false")], ids=lambda r: r.name)
@pytest.mark.parametrize("want", [_ace_on_lone_ace, _sweep_available], ids=["ace-on-lone-ace", "sweep"])
def test_core_matches_reference_on_rare_captures(rules, want):
    positions = _special_positions(rules, want)
    assert len(positions) >= 20
    for pos in positions:
        a = solve(pos, engine="c")
        b = solve(pos, engine="python")
        assert moves_and_values(a) == moves_and_values(b), pos.line()


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
def test_core_matches_reference_deeper(rules):
    # the Python reference takes seconds per 5-card endgame in mode all: 6 of 4 cards, 2 of 5
    for seed in range(8):
        pos = endgame(9000 + seed, rules, 5 if seed % 4 == 3 else 4)
        ref = solve(pos, mode="all", engine="python", line=False)
        core = solve(pos, mode="all", engine="c", line=False)
        assert moves_and_values(core) == moves_and_values(ref), pos.line()


@pytest.mark.parametrize("rules", RULES[:6], ids=RULE_IDS[:6])
def test_core_matches_minimax(rules):
    for seed in range(40):
        pos = endgame(3000 + seed, rules, 1 + seed % 2)
        assert solve(pos, mode="best", engine="c").value == minimax(pos), pos.line()


@pytest.mark.parametrize("options", ["plain", "order", "summary", "equiv", "bounds",
                                     "order+history", "all-summary", "bounds+tight", "all-tight", "all-rootmove", "all+smallbounds", "all-last", "last", "all-range", "all-smallequiv", "all",
                                     "all+deeptt", "all+canon", "summary+canon", "all+order2",
                                     "all+deeptt+canon+order2", "small+deeptt", "all+noscopa",
                                     "bounds+tight+noscopa", "all+deeptt+noscopa", "all+dominance",
                                     "dominance", "order+summary+dominance", "all+deeptt+noscopa+dominance",
                                     "all+quasi", "small+quasi", "all+deeptt+quasi", "all+partition",
                                     "all+deeptt+partition", "summary+partition", "order+partition",
                                     "all+canon+partition", "all-summary+partition", "all-etc", "summary+etc",
                                     "all-summary+etc", "order+etc", "all-pdenari",
                                     "summary+partition+pdenari", "all-ppiles", "summary+partition+ppiles",
                                     "order+partition+pdenari+ppiles", "all-pdom", "summary+partition+ppiles+pdom",
                                     "order+partition+pdenari+ppiles+pdom", "all+smalltt", "small+smalltt",
                                     "order+small+smalltt+partition", "all+hint", "all-hint", "summary+partition+hint", "all-shallow", "order+shallow",
                                     "all-rootsize", "all+rootsize", "order+rootsize", "all-outcomes",
                                     "small+last+outcomes", "order+small+last+range+outcomes", "all-children",
                                     "order+children", "all-oranks", "small+last+outcomes+oranks",
                                     "order+small+last+range+outcomes+oranks", "everything"])
def test_every_option_set_gives_the_same_values(options):
    for seed in range(25):
        rules = RULES[seed % len(RULES)]
        pos = endgame(7000 + seed, rules, 1 + seed % 4)
        ref = solve(pos, mode="all", engine="c", line=False)
        got = solve_with(CoreBackend(rules, options=options), pos, "all", line=False)
        assert moves_and_values(got) == moves_and_values(ref), (options, pos.line())


def swap_two_cards(pos: Position, a: int, b: int) -> Position:
    """``pos`` with cards a and b trading places, wherever they are."""
    def swap(m: int) -> int:
        x, y = m >> a & 1, m >> b & 1
        return m & ~(1 << a | 1 << b) | y << a | x << b
    return Position([swap(h) for h in pos.hands], swap(pos.table), tuple(swap(p) for p in pos.piles),
                    tuple(pos.scope), pos.to_move, pos.last_capture, pos.rules)


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
def test_partition_bounds_hold_for_the_other_positions_of_a_class(rules):
    # The partition table's class of a position forgets the suits of the cards that
    # are not Denari.  Two such cards of one rank trading places move the primiera
    # and nothing else, so a backend that solved one position answers much of the
    # other from the bounds it kept: they must hold whatever the primiera.  The
    # expected values come from a backend without the partition table.
    differ = hits = 0
    for seed in range(8):
        pos = endgame(7300 + seed, rules, 5)
        rank = (6, 5, 0, 4)[seed % 4]  # 7, 6, Ace, 5: the cards the primiera turns on
        suits = ((1, 2), (1, 3), (2, 3))[seed % 3]
        other = swap_two_cards(pos, 4 * rank + suits[0], 4 * rank + suits[1])
        backend = CoreBackend(rules, options="all+partition")
        first = solve_with(backend, pos, "all", line=False)
        got = solve_with(backend, other, "all", line=False)
        ref = solve_with(CoreBackend(rules, options="all-partition"), other, "all", line=False)
        assert moves_and_values(got) == moves_and_values(ref), (seed, pos.line(), other.line())
        differ += moves_and_values(first) != moves_and_values(ref)
        hits += backend.stats()["partition_hits"]
    assert hits > 0
    assert differ > 0  # the swaps change values: a bound kept for the wrong primiera would show


def denari_decided_swaps(rules: Rules, want: int):
    """Endgames where the Denari are won and the settebello (and with re bello the
    King of Denari) taken, each with the position where a Denari card in play and
    another card of its rank in play trade places."""
    found = []
    for seed in range(7400, 7400 + 3000):
        pos = endgame(seed, rules, 5)
        play = pos.table | sum(pos.hands)
        da, db = ((p & DENARI_MASK).bit_count() for p in pos.piles)
        dt = da + db + (play & DENARI_MASK).bit_count()
        taken = ~play >> SETTEBELLO & 1 and not (rules.re_bello and play >> RE_BELLO & 1)
        if not (2 * max(da, db) > dt and taken):
            continue
        for rank in (6, 5, 0, 4, 3, 2, 1):  # 7, 6, Ace, 5 first: the cards the primiera turns on
            others = [4 * rank + s for s in (1, 2, 3) if play >> (4 * rank + s) & 1]
            if play >> (4 * rank) & 1 and others:
                found.append((pos, swap_two_cards(pos, 4 * rank, others[0])))
                break
        if len(found) == want:
            return found
    raise AssertionError(f"only {len(found)} endgames with the Denari decided under {rules.name}")


@pytest.mark.parametrize("rules", [r for r in RULES if not r.napola], ids=[r.name for r in RULES if not r.napola])
def test_partition_bounds_hold_once_the_denari_are_decided(rules):
    # Once the Denari are won and the settebello (and re bello) taken, the class
    # forgets the Denari cards' suits too: a Denari card trading places with
    # another card of its rank moves only the primiera.  (Napola counts a run of
    # Denari, so under it the Denari stay keyed by suit, and these swaps would
    # test nothing.)  Expected values from a backend without the partition table.
    differ = hits = 0
    for pos, other in denari_decided_swaps(rules, 6):
        backend = CoreBackend(rules, options="all+partition+pdenari")
        first = solve_with(backend, pos, "all", line=False)
        got = solve_with(backend, other, "all", line=False)
        ref = solve_with(CoreBackend(rules, options="all-partition"), other, "all", line=False)
        assert moves_and_values(got) == moves_and_values(ref), (pos.line(), other.line())
        differ += moves_and_values(first) != moves_and_values(ref)
        hits += backend.stats()["partition_hits"]
    assert hits > 0
    assert differ > 0


def telling_pairs(rules: Rules, seeds: range, variant, want: int, what: str, prepare=None):
    """Endgames of 5 cards per hand, each with ``variant(seed, pos)`` (None: none for that
    endgame) and the values of the latter from a backend without the partition table.
    Only variants that change a move's value are kept: a class bound used where it does
    not hold would show.  ``prepare(seed, pos)``, if given, changes each endgame first
    (None: skip it)."""
    found = []
    for seed in seeds:
        pos = endgame(seed, rules, 5)
        if prepare is not None and (pos := prepare(seed, pos)) is None:
            continue
        other = variant(seed, pos)
        if other is None:
            continue
        ref = [moves_and_values(solve_with(CoreBackend(rules, options="all-partition"), p, "all", line=False))
               for p in (pos, other)]
        if ref[0] != ref[1]:
            found.append((pos, other, ref[1]))
            if len(found) == want:
                return found
    raise AssertionError(f"only {len(found)} endgames with a telling {what} under {rules.name}")


def pile_denari_swaps(rules: Rules, want: int):
    """Endgames where a Denari card of team A's pile and one of team B's trade places
    (neither the settebello nor, with re bello, the King of Denari; the piles keep
    their counts), as :func:`telling_pairs` gives them."""
    special = 1 << SETTEBELLO | (1 << RE_BELLO if rules.re_bello else 0)

    def swap(seed: int, pos: Position) -> Position | None:
        da, db = ([c for c in range(40) if (p & DENARI_MASK & ~special) >> c & 1] for p in pos.piles)
        if not (da and db):
            return None
        # A's best Denari for the primiera against B's worst: the swap moves it
        value = lambda c: PRIMIERA_VALUE[rank_of(c)]  # noqa: E731
        return swap_two_cards(pos, max(da, key=value), min(db, key=value))

    return telling_pairs(rules, range(7600, 8000), swap, want, "Denari swap")


@pytest.mark.parametrize("rules", [r for r in RULES if not r.napola], ids=[r.name for r in RULES if not r.napola])
def test_partition_bounds_hold_for_piles_with_other_denari(rules):
    # With ppiles the class keeps of the piles' Denari their count and who holds
    # the settebello (and re bello): two Denari trading places between the piles
    # move only the primiera (napola, which counts a run of Denari, keeps them by
    # card).  A backend that solved one position answers much of the other from
    # the class bounds.
    hits = 0
    for pos, other, ref in pile_denari_swaps(rules, 3):
        backend = CoreBackend(rules, options="all+partition+ppiles")
        solve_with(backend, pos, "all", line=False)
        got = solve_with(backend, other, "all", line=False)
        assert moves_and_values(got) == ref, (pos.line(), other.line())
        hits += backend.stats()["partition_hits"]
    assert hits > 0


def test_partition_agrees_where_a_coarser_class_key_failed():
    # pdenari's first key kept the Denari's winner (1 or 2) and the settebello's
    # holder in overlapping bits, so with team B the winner the holder was lost,
    # and 6Dx6C got the value 1 here; the shipped puzzle pc6ab901b82 (5Dx2D+3C,
    # then 8S) caught it.  Expected values from a backend without the partition table.
    lines = ["1B3D4D6S7B/4C4B6D7D10S/4S5S5B6B7C/1D1C1S3S7S 6C10B 2D3C5D8S8B 2C2S2B3B5C8D8C9D9C9S9B10D10C "
             "0-0 1 A scientifico",
             # found by test_partition_agrees_on_random_endgames against that key
             "3C4D8D10C10S/1C1S5C8C9B/3S3B5B6B7D/4C4S6D7B8S 3D 1B2C2S2B4B6C7S8B9C9S10D 1D2D5D5S6S7C9D10B "
             "1-1 2 B scientifico+quindici"]
    for line in lines:
        pos = Position.from_line(line)
        ref = solve_with(CoreBackend(pos.rules, options="all-partition"), pos, "all", line=False)
        for options in ("all", "order+partition+pdenari+small", "all-pdenari", "all-ppiles"):
            got = solve_with(CoreBackend(pos.rules, options=options), pos, "all", line=False)
            assert moves_and_values(got) == moves_and_values(ref), (options, line)


def test_partition_agrees_on_random_endgames():
    # 150 endgames of 5 cards per hand over the presets and re bello, each solved
    # in mode all with the class table and without it (an independent search of
    # the same values).  It found the overlapping-bits key above once in 150.
    rules_list = list(PRESETS.values()) + [parse_rules("scientifico+re_bello"),
                                           parse_rules("quindici+priority=free+re_bello")]
    for seed in range(150):
        rules = rules_list[seed % len(rules_list)]
        pos = deal(seed=90000 + seed, rules=rules, first=seed % 4, cards_per_hand=5,
                   policy="random" if seed % 3 else "greedy")
        got = solve_with(CoreBackend(rules, options="all"), pos, "all", line=False)
        ref = solve_with(CoreBackend(rules, options="all-partition"), pos, "all", line=False)
        assert moves_and_values(got) == moves_and_values(ref), pos.line()


def cache_sized(least):
    """The size the core gives the plain search's own tables (table.h, cache_sized_bytes): a
    quarter of a core's second-level cache as a power of two from `least` to 2 MiB, the cache
    taken as 2 MiB if its size is not known."""
    # glibc's sysconf(_SC_LEVEL2_CACHE_SIZE), as the core reads it (Python's os.sysconf lacks the name)
    out = subprocess.run(["getconf", "LEVEL2_CACHE_SIZE"], capture_output=True, text=True).stdout.strip()
    l2 = int(out) if out.isdigit() and int(out) > 0 else 2 << 20
    size = least
    while size < (2 << 20) and size * 2 <= l2 // 4:
        size *= 2
    return size


def test_the_plain_searchs_tables_take_a_quarter_of_the_second_level_cache():
    # the class table's plain region (no table nodes' region below 25 cards in hand at the
    # root) and the outcome table, each a quarter of a core's L2 cache (the rule worked out above)
    pos = deal(seed=91003, rules=Rules(), cards_per_hand=6, policy="random")
    backend, _ = make_backends(pos, "c", threads=1, options="all")
    solve_with(backend, pos, "best", line=False)
    st = backend.stats()
    assert st["partition_memory_bytes"] == cache_sized(1 << 17)
    assert st["outcome_memory_bytes"] == cache_sized(1 << 17)
    assert cache_sized(1 << 17) in (1 << 17, 1 << 18, 1 << 19, 1 << 20, 2 << 20)


@pytest.mark.parametrize("threads", [1, 2])
def test_partition_agrees_at_seven_cards_with_the_table_nodes_region(threads):
    # from 7 cards a hand the table nodes keep their class entries in a region of their
    # own, one a thread: the value found with it, proven again by two null-window
    # searches without the class table (an independent search: value >= v and value <= v)
    pos = deal(seed=91003, rules=Rules(), cards_per_hand=7, policy="random")
    backend, helpers = make_backends(pos, "c", threads=threads, options="all")
    v = solve_with(backend, pos, "best", line=False, helpers=helpers).value
    # the region was there, in every thread (2 MiB at 7 cards a hand, with hint's moves 4 MiB),
    # beside the plain search's
    parts = [b.stats()["partition_memory_bytes"] for b in [backend, *helpers]]
    assert parts == [cache_sized(1 << 17) + (4 << 20)] * threads
    ref = CoreBackend(pos.rules, options="all-partition")
    assert ref.search(pos, v - 1, v) >= v and ref.search(pos, v, v + 1) <= v, pos.line()


@pytest.mark.parametrize("options", ["all+deeptt", "all+canon", "all+deeptt+canon+order2", "all+noscopa+deeptt",
                                     "all+deeptt+noscopa+dominance", "dominance", "all+quasi", "all+partition",
                                     "all+deeptt+partition", "all+deeptt+canon+partition", "summary+partition",
                                     "all-etc", "summary+etc", "all-summary+etc", "all+deeptt+etc", "dominance+etc",
                                     "all-pdenari", "summary+partition+pdenari", "all+deeptt+pdenari",
                                     "all-ppiles", "summary+partition+ppiles", "all+deeptt+ppiles",
                                     "all+smalltt", "small+smalltt", "small+smalltt+partition+ppiles"])
def test_new_option_sets_agree_with_the_exact_pile_key_on_deeper_endgames(options):
    # 5 cards per hand: the table is used inside the last 8 cards and positions
    # with different piles meet in it, which 1-4 cards per hand rarely show
    for seed, rules in enumerate(RULES):
        pos = endgame(7100 + seed, rules, 5)
        ref = solve_with(CoreBackend(rules, options="plain"), pos, "all", line=False)
        got = solve_with(CoreBackend(rules, options=options), pos, "all", line=False)
        assert moves_and_values(got) == moves_and_values(ref), (options, pos.line())


def test_plain_search_table_hits_and_changes_no_value():
    # smalltt: the plain search keeps bounds of exact positions, and with them the
    # class bounds the partition table builds on.  60 endgames of 5 and 6 cards
    # per hand over the presets and re bello, mode all, against a backend with
    # neither table (values found without either mechanism); the hits are counted
    # so that the comparison is not vacuous.
    rules_list = list(PRESETS.values()) + [parse_rules("scientifico+re_bello"),
                                           parse_rules("quindici+priority=free+re_bello")]
    hits = 0
    for seed in range(60):
        rules = rules_list[seed % len(rules_list)]
        pos = deal(seed=93000 + seed, rules=rules, first=seed % 4, cards_per_hand=5 + (seed % 10 == 0),
                   policy="random" if seed % 3 else "greedy")
        backend = CoreBackend(rules, options="all+smalltt")
        got = solve_with(backend, pos, "all", line=False)
        hits += backend.stats()["small_hits"]
        ref = solve_with(CoreBackend(rules, options="all-smalltt-partition"), pos, "all", line=False)
        assert moves_and_values(got) == moves_and_values(ref), pos.line()
    assert hits > 100_000, hits


def test_enhanced_transposition_cutoffs_happen_and_change_no_value():
    # etc takes a child's table entry that cuts the node before searching any move;
    # 6 cards per hand, so that the nodes with 10 or more cards left it acts at
    # have children met before.  Expected values from a backend without it.
    cuts = 0
    for seed, rules in enumerate(RULES[:6]):
        pos = endgame(7500 + seed, rules, 6)
        backend = CoreBackend(rules, options="all+etc")
        got = solve_with(backend, pos, "all", line=False)
        ref = solve_with(CoreBackend(rules, options="all-etc"), pos, "all", line=False)
        assert moves_and_values(got) == moves_and_values(ref), pos.line()
        cuts += backend.stats()["etc_cuts"]
    assert cuts > 0


@pytest.mark.parametrize("rules", RULES[:6], ids=RULE_IDS[:6])
def test_suit_permutations_change_no_value(rules):
    for seed in range(6):
        pos = endgame(100 + seed, rules, 4 + seed % 2)
        base = solve(pos, mode="all", engine="c", line=False)
        values = sorted(m.value for m in base.moves)
        for perm in SUIT_PERMUTATIONS[1:]:
            other = solve(pos.permute_suits(perm), mode="all", engine="c", line=False)
            assert other.value == base.value, (perm, pos.line())
            assert sorted(m.value for m in other.moves) == values, (perm, pos.line())


@pytest.mark.parametrize("rules", RULES[:6], ids=RULE_IDS[:6])
def test_tt_off_and_modes_agree(rules):
    for seed in range(12):
        pos = endgame(200 + seed, rules, 2 + seed % 3)
        full = solve(pos, mode="all", engine="c", line=False)
        no_tt = solve(pos, mode="all", engine="c", line=False, use_tt=False)
        assert moves_and_values(no_tt) == moves_and_values(full), pos.line()
        best = solve(pos, mode="best", engine="c", line=False)
        optimal = solve(pos, mode="optimal", engine="c", line=False)
        assert best.value == optimal.value == full.value, pos.line()
        assert best.moves[0].move in {m.move for m in optimal.moves}
        assert {m.move for m in optimal.moves} == {m.move for m in full.moves if m.value == full.value}


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
def test_best_line_replays_to_the_value(rules):
    for seed in range(8):
        pos = endgame(300 + seed, rules, 2 + seed % 4)
        r = solve(pos, mode="best", engine="c")
        replay = pos.copy()
        for mv in r.line:
            assert replay.is_legal(mv), (mv.text(), replay.line())
            replay.push(mv)
        assert replay.is_over()
        assert replay.result().value == r.value == r.final_score.value, pos.line()
        assert replay.result() == r.final_score


def test_search_is_fail_soft_and_window_consistent():
    pos = endgame(42, Rules(), 4)
    backend = CoreBackend(pos.rules)
    value = solve(pos, mode="best", engine="c").value
    for alpha in range(value - 4, value + 4):
        v = backend.search(pos, alpha, alpha + 1)
        assert (v >= alpha + 1) == (value >= alpha + 1)
        assert value <= v if v <= alpha else value >= v  # fail-soft bounds
    assert CoreBackend(pos.rules).search(pos, -1000, 1000) == value
    # windows reaching past the deal's limit, or wholly beyond it, keep the contract
    limit = pos.value_limit()
    assert CoreBackend(pos.rules).search(pos, -float("inf"), float("inf")) == value
    for alpha, beta in ((-limit - 5, limit + 5), (limit, limit + 1), (limit + 7, 10 ** 9),
                        (-10 ** 9, -limit), (-limit - 1, -limit + 1), (limit - 2, limit - 1)):
        v = CoreBackend(pos.rules).search(pos, alpha, beta)
        if alpha < value < beta:
            assert v == value
        elif value <= alpha:
            assert value <= v <= alpha
        else:
            assert beta <= v <= value
    st = backend.stats()
    assert st["engine"] == "c" and st["nodes"] > 0 and st["tt_entries"] > 0
    # the windows around the value repeat questions the table has answered
    assert st["tt_memory_bytes"] > 0 and st["tt_hits"] > 0 and st["tt_stores"] >= st["tt_entries"]


@pytest.mark.parametrize("options", ["all", "all+deeptt"])
def test_memory_bound_is_respected(options):
    pos = endgame(43, Rules(), 5)
    backend = CoreBackend(pos.rules, memory_mb=1, options=options)
    v = solve_with(backend, pos, "best", line=False).value
    assert 0 < backend.stats()["tt_memory_bytes"] <= 1 << 20
    assert v == solve(pos, mode="best", engine="c", line=False).value


def test_a_growing_table_keeps_its_entries_within_its_bound():
    # a Solver's own table starts at 32 K entries (1 MB) and doubles in place when 3/4 full: an
    # entry stays or moves to its bucket's twin in the new half. Loading a 6-card solve's ~94 K
    # entries (all but the root's) into a fresh table grows it twice; the search that made them
    # must then find its subtrees there (an entry put in the wrong bucket is never probed again,
    # and the search would redo them: 1/2 of those near the root without moving any)
    pos = endgame(10, Rules(), 6)
    first = CoreBackend(pos.rules, memory_mb=64)
    value = first.search(pos, -99, 99)
    cold = first.stats()["nodes"]
    data = first.table_entries(10 ** 7)
    records = [data[i:i + 32] for i in range(0, len(data), 32)]
    # by the work byte (log2 of the subtree's nodes), biggest first, so that the subtrees near
    # the root are in the table before it grows; all but the root's own
    records.sort(key=lambda r: -r[26])
    children = b"".join(records[1:])
    assert len(children) // 32 > 3 * 32768 // 4 * 2  # more than the table holds before a second doubling
    warm = CoreBackend(pos.rules, memory_mb=64)
    warm.load_table_entries(children)
    assert warm.stats()["tt_memory_bytes"] >= 4 << 20
    assert warm.search(pos, -99, 99) == value
    assert warm.stats()["nodes"] * 1000 < cold  # measured: 7 nodes against 7.1 M
    assert warm.stats()["tt_memory_bytes"] <= 64 << 20


def test_one_thread_solves_search_a_table_made_up_front():
    # with fixed_table, from 6 cards per hand a one-thread solve's table has its full size from the
    # start (8 MB at 6 cards by TABLE_MB); smaller positions keep the table that grows from 1 MB
    six, five = endgame(7, Rules(), 6), endgame(7, Rules(), 5)
    b6, _ = make_backends(six, "c", threads=1, fixed_table=True)
    b5, _ = make_backends(five, "c", threads=1, fixed_table=True)
    assert b6.stats()["tt_memory_bytes"] == 8 << 20 and b5.stats()["tt_memory_bytes"] == 0
    assert make_backends(six, "c", threads=1)[0].stats()["tt_memory_bytes"] == 0  # off by default
    fixed = solve_with(b6, six, "all", line=False)
    growing = solve_with(make_backend(six, "c"), six, "all", line=False)
    assert [(m.move, m.value) for m in fixed.moves] == [(m.move, m.value) for m in growing.moves]
    assert b6.stats()["tt_memory_bytes"] == 8 << 20  # it did not grow
    b, _ = make_backends(six, "c", threads=1, memory_mb=2, fixed_table=True)  # never more than the bound
    assert b.stats()["tt_memory_bytes"] == 2 << 20


@pytest.mark.parametrize("threads, time_limit", [(1, None), (2, None), (1, 0.05), (2, 0.05)])
@pytest.mark.parametrize("mode", ["best", "all"])
def test_a_solve_frees_its_backends_without_the_cycle_collector(threads, time_limit, mode):
    # their tables are gigabytes at 8 cards: repeated solves in one process (the coach, PIMC,
    # a batch) must not keep them until Python's cycle collector happens to run; nor when
    # a time limit stops the threads (their errors' tracebacks made cycles too)
    pos = endgame(7, Rules(), 6) if time_limit is None else deal(seed=3, cards_per_hand=8)
    gc.disable()
    try:
        backend, helpers = make_backends(pos, "c", time_limit, threads=threads)
        refs = [weakref.ref(b) for b in (backend, *helpers)]
        r = solve_with(backend, pos, mode, on_progress=lambda p: None, helpers=helpers)
        del backend, helpers
        if time_limit is None:
            assert r.value == solve(pos, "best", engine="c", line=False).value
        assert [ref() for ref in refs] == [None] * threads
    finally:
        gc.enable()


@pytest.mark.parametrize("seed", [5, 6])
def test_class_move_hints_change_the_order_not_the_values(seed):
    # hint keeps a move in the table nodes' class slots, which exist from 25 cards in hand at
    # the root (so the option sets above, on smaller endgames, never store one): at 7 cards the
    # value must be the one found without it, with hints taken (so the search differs), and
    # their 2 MB (as many bytes as the region holds: 2 MB up to 7 cards a hand) counted in the
    # class table's memory
    rules = RULES[seed % len(RULES)]
    pos = endgame(seed, rules, 7)
    got = {}
    for options in ("all", "all-hint"):
        backend = CoreBackend(rules, options=options)
        got[options] = solve_with(backend, pos, "best", line=False).value, backend.stats()
    (with_hints, on), (without, off) = got["all"], got["all-hint"]
    assert with_hints == without
    assert on["hint_hits"] > 0 and off["hint_hits"] == 0 and on["nodes"] != off["nodes"]
    assert on["partition_memory_bytes"] - off["partition_memory_bytes"] == 2 << 20


def ordering_runs(rules: Rules, option: str, counter: str, seed0: int) -> tuple[list[int], int]:
    """Mode all on four 5- and 6-card endgames with the option ``option`` on and off: every
    root move's value must be the same.  Returns the stat ``counter`` of each run with it on
    (it must be 0 with it off) and how many runs searched other nodes."""
    counts, differ = [], 0
    for seed in range(4):
        pos = endgame(seed0 + seed, rules, 5 + seed % 2)
        got = {}
        for options in ("all", f"all-{option}"):
            backend = CoreBackend(rules, options=options)
            got[options] = moves_and_values(solve_with(backend, pos, "all", line=False)), backend.stats()
        (on_values, on), (off_values, off) = got["all"], got[f"all-{option}"]
        assert on_values == off_values, (option, pos.line())
        assert off[counter] == 0
        counts.append(on[counter])
        differ += on["nodes"] != off["nodes"]
    return counts, differ


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
def test_children_ordering_changes_the_order_not_the_values(rules):
    # children orders the moves of table nodes from 16 cards left by their children's table
    # entries (the option sets above reach 16 cards at the root only): it must have found
    # children proven to cut or to fail, and changed the search somewhere
    counts, differ = ordering_runs(rules, "children", "children_proven", 7500)
    assert sum(counts) > 0 and differ > 0


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
def test_shallow_ordering_changes_the_order_not_the_values(rules):
    # shallow orders the moves of table nodes from 18 cards left, which the option sets above
    # (up to 16 cards) never reach: the two-ply ordering must have run in every endgame (and
    # changed the search somewhere)
    counts, differ = ordering_runs(rules, "shallow", "shallow_orders", 7400)
    assert min(counts) > 0 and differ > 0


def test_root_ties_by_subtree_size_change_the_order_not_the_values():
    # rootsize: where every root move failed by the same margin, the one whose refutation took
    # the most nodes becomes the table's root move, which the next MTD(f) test tries first.
    # Every root move must keep the value found without it (mode all: each move's own search
    # has a root of its own), and the kept move must change some search
    differ = 0
    for rules in RULES:
        for seed in range(3):
            pos = endgame(7400 + seed, rules, 5 + seed % 2)
            got = {}
            for options in ("all+rootsize", "all-rootsize"):
                backend = CoreBackend(rules, options=options)
                mode = "all" if seed % 2 == 0 else "best"
                result = solve_with(backend, pos, mode, line=False)
                got[options] = (moves_and_values(result) if mode == "all" else result.value), backend.stats()
            (on_values, on), (off_values, off) = got["all+rootsize"], got["all-rootsize"]
            assert on_values == off_values, (rules, pos.line())
            differ += on["nodes"] != off["nodes"]
    assert differ > 0


def test_shallow_ordering_is_left_out_far_from_the_points_decided():
    # the two-ply look runs only where the window is within 4 of the points decided so far
    # (SHALLOW_MARGIN): a null-window test 10 above the score still searches every move of
    # some table nodes with 18 or more cards left (all-nodes) but orders none of them by the
    # look; a test at the score does (the build without the margin fails the first assert)
    for seed in range(6):
        pos = endgame(7400 + seed, Rules(), 6)
        score = pos.score().value
        stats = {}
        for d in (0, 10):
            backend = CoreBackend(pos.rules)
            backend.search(pos, score + d - 1, score + d)
            high_all_nodes = sum(row["all_nodes"] for left, row in enumerate(backend.profile()) if left >= 18)
            stats[d] = backend.stats()["shallow_orders"], high_all_nodes
        assert stats[10][0] == 0 and stats[10][1] > 0, pos.line()
        assert stats[0][0] > 0, pos.line()


def outcome_hits_checked(rules: Rules, pos: Position) -> tuple[int, int]:
    """Every move's value of pos with the outcome table, checked against the same core
    playing every line (all-outcomes); the table's hits, and of them those taken over
    from a node with the same ranks in the same places (oranks)."""
    ref = solve_with(CoreBackend(rules, options="all-outcomes"), pos, "all", line=False)
    backend = CoreBackend(rules, options="all")
    got = solve_with(backend, pos, "all", line=False)
    assert moves_and_values(got) == moves_and_values(ref), pos.line()
    st = backend.stats()
    return st["outcome_hits"], st["outcome_moved"]


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
def test_outcome_table_scores_lines_as_playing_them_does(rules):
    # The outcome table keeps, by a node's exact cards, where each of its lines leads, and
    # scores them on whatever piles the node is met with.  The values must be those of the
    # search that plays every line (the same core without the table), and the table must
    # have been used: the same cards met again with other piles, and (oranks) other cards of
    # the same ranks in the same places, whose lines are moved to this node's cards.  (A build
    # that kept a node whose fill stopped half-way, a later play having a choice, failed 8 of
    # these 198.)
    hits = moved = 0
    for seed in range(6):
        for n in (3, 4, 5):
            pos = endgame(7600 + seed, rules, n)
            h, m = outcome_hits_checked(rules, pos)
            hits, moved = hits + h, moved + m
    assert hits > moved > 0


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
def test_outcome_table_on_crowded_tables(rules):
    # Positions no play reaches, 5 to 9 cards left: tables of few ranks (a forced play then
    # often has a choice between same-rank cards, and a node is not kept), or of high ranks
    # over low hands (nobody captures along a line: the cards go to the last capturer), with
    # random piles, scope and last capturer.  Every move's value must be that of the same
    # core playing every line (all-outcomes); the table must have been used.
    rng = random.Random(29)
    hits = moved = 0
    for i in range(120):
        left = 5 + i % 5
        if i % 2:
            ranks = rng.sample(range(1, 11), rng.randint(1, 4))
            pool = [(r - 1) * 4 + s for r in ranks for s in range(4)]
            table_cards = rng.sample(pool, rng.randint(1, min(6, len(pool))))
            rest = [c for c in range(40) if c not in table_cards]
            rng.shuffle(rest)
        else:  # high table cards, low hand cards
            table_cards = rng.sample(range(24, 40), rng.randint(1, 4))
            rest = [c for c in range(40) if c not in table_cards]
            rest.sort(key=lambda c: c + rng.randint(0, 16))
        to_move = rng.randrange(4)
        sizes = [left // 4 + (k < left % 4) for k in range(4)]  # from the mover on
        hands, at = [0] * 4, 0
        for k, size in enumerate(sizes):
            hands[(to_move + k) % 4] = sum(1 << c for c in rest[at:at + size])
            at += size
        piles = [0, 0]
        for c in rest[at:]:
            piles[rng.randrange(2)] |= 1 << c
        last = rng.choice([t for t in (0, 1) if piles[t]] or [None])
        pos = Position(hands, sum(1 << c for c in table_cards), (piles[0], piles[1]),
                       (rng.randint(0, 2), rng.randint(0, 2)), to_move, last, rules=rules, check=False)
        h, m = outcome_hits_checked(rules, pos)
        hits, moved = hits + h, moved + m
    assert hits > moved > 0


def test_small_tables_are_reported():
    # the class table, smalltt's table and the outcome table come on top of --memory: stats say
    # how big they are (a quarter of the L2 cache, 1 MiB and a quarter of the L2 cache, see
    # cache_sized, or a quarter of a smaller bound, but the class table keeps its 2^14 entries
    # of 8 bytes at least), 0 where the option is off
    pos = endgame(43, Rules(), 5)
    for options, small in (("all", 0), ("all+smalltt", 1 << 20)):
        backend = CoreBackend(pos.rules, memory_mb=64, options=options)
        solve_with(backend, pos, "best", line=False)
        st = backend.stats()
        assert st["small_memory_bytes"] == small and st["partition_memory_bytes"] == cache_sized(1 << 17)
        assert st["outcome_memory_bytes"] == cache_sized(1 << 17)
    backend = CoreBackend(pos.rules, memory_mb=64, options="all-outcomes")
    solve_with(backend, pos, "best", line=False)
    assert backend.stats()["outcome_memory_bytes"] == 0
    backend = CoreBackend(pos.rules, memory_mb=1, options="all+smalltt")
    solve_with(backend, pos, "best", line=False)
    st = backend.stats()
    assert 0 < st["small_memory_bytes"] <= 1 << 18 and st["partition_memory_bytes"] == min(cache_sized(1 << 17), 1 << 18)
    assert 0 < st["outcome_memory_bytes"] <= 1 << 18


def test_the_class_table_has_a_region_for_the_table_nodes_from_seven_cards():
    # from 7 cards a hand the table nodes' class entries get a region of their own beside the
    # plain search's (P: a quarter of the L2 cache, 128 KiB to 2 MiB): 2 MiB at 7 cards a hand,
    # 4 MiB from 8, and hint's moves as much again; a small memory bound keeps the whole within a
    # quarter of it (16 MiB: P + 1 MiB + 1 MiB, or P + 2 MiB without hint) but not below 2^14
    # entries of 8 bytes a region (1 MiB: no region of the table nodes, whose least with its
    # moves would not fit beside the plain search's, itself at most 256 KiB).
    # (A window just below the value limit: a quick search, after the tables are made.)
    six, seven, eight = endgame(43, Rules(), 6), endgame(43, Rules(), 7), endgame(43, Rules(), 8)
    plain = cache_sized(1 << 17)
    for pos, memory_mb, options, expected in ((six, 64, "all", plain), (seven, 64, "all", plain + (4 << 20)),
                                              (seven, 64, "all-hint", plain + (2 << 20)),
                                              (eight, 64, "all", plain + (8 << 20)),
                                              (eight, 64, "all-hint", plain + (4 << 20)),
                                              (seven, 16, "all", plain + (2 << 20)),
                                              (seven, 16, "all-hint", plain + (2 << 20)),
                                              (seven, 1, "all", min(plain, 1 << 18))):
        backend = CoreBackend(pos.rules, memory_mb=memory_mb, options=options)
        lim = pos.value_limit()
        assert backend.search(pos, lim - 3, lim - 2) <= lim - 3
        assert backend.stats()["partition_memory_bytes"] == expected, (bin(pos.hands[0]).count("1"), memory_mb)


def _corpus():
    return [json.loads(row) for row in CORPUS.read_text().splitlines() if row.strip()]


def test_corpus_is_present():
    rows = _corpus()
    # most rows are derived independently (the pure-Python reference); the rows
    # the C core solved itself are regression snapshots and say so
    assert sum(r["solved_by"] == "python" and not r.get("snapshot") for r in rows) >= 50
    assert all(bool(r.get("snapshot")) == (r["solved_by"] != "python") for r in rows)
    assert all(len(Position.from_line(r["position"]).rules.name) > 0 for r in rows)


@pytest.mark.parametrize("row", [
    pytest.param(r, marks=pytest.mark.slow) if r["id"].startswith("hard") else r for r in _corpus()
], ids=lambda r: r["id"])
def test_corpus(row):
    pos = Position.from_line(row["position"])
    r = solve(pos, mode="optimal", engine="c", line=False)
    assert r.value == row["value"]
    assert sorted(m.move.text() for m in r.moves) == sorted(row["optimal"])
    if row.get("snapshot"):
        # a snapshot of the core itself: at least a search keyed on the exact
        # piles (no pile summary, no decided points) must agree with it
        p = solve_with(CoreBackend(pos.rules, options="all-summary"), pos, "optimal", line=False)
        assert (p.value, sorted(m.move.text() for m in p.moves)) == (row["value"], sorted(row["optimal"]))


def _hard_position():
    rows = [r for r in _corpus() if r["id"].startswith("hard")]
    assert rows, "the corpus holds a hard position"
    return Position.from_line(rows[0]["position"]), rows[0]["value"]


#: A 7-card endgame (line 2 of benchmarks/positions/n7.txt) whose null-window
#: searches take seconds with a fresh table: for the tests that need a search
#: to be still running after a few tenths of a second, on any machine.
LONG_SEARCH = ("1D2S4C4S6B7S10D/1C2D4D5D5C6C8D/2C2B3D3B5S5B6D/1S1B3S6S7D7C7B 3C4B8S10C "
               "8C8B10S10B 9D9C9S9B 0-2 0 B scientifico")


#: Its value, a snapshot of `scopone solve` (mode best, 2 threads, 323 M nodes, 14 s);
#: used only by the tests of interrupted solves, which must bound it.
LONG_SEARCH_VALUE = -5


def _long_search_position():
    return Position.from_line(LONG_SEARCH)


def test_time_limit_gives_bounds_never_a_wrong_value():
    pos, value = _hard_position()
    for mode in ("best", "all"):
        r = solve(pos, mode=mode, engine="c", time_limit=0.01)
        assert not r.complete
        assert r.value is None or r.value == value
        assert r.lower <= value <= r.upper
        for m in r.moves:
            assert m.lower <= m.upper


def test_deadline_raises_search_interrupted():
    pos, _ = _hard_position()
    backend = CoreBackend(pos.rules, deadline=time.monotonic() + 0.01)
    with pytest.raises(SearchInterrupted):
        for gamma in range(-10, 10):
            backend.search(pos, gamma - 1, gamma)
    expired = make_backend(pos, "c", time_limit=1e-9)
    time.sleep(0.001)
    with pytest.raises(SearchInterrupted):
        expired.search(pos, -1, 0)


def test_ctrl_c_propagates():
    pos, _ = _hard_position()
    backend = CoreBackend(pos.rules)

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.02)
    try:
        with pytest.raises(KeyboardInterrupt):
            for gamma in range(-10, 10):
                backend.search(pos, gamma - 1, gamma)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    # the backend is still usable afterwards
    small = endgame(5, Rules(), 2)
    assert backend.search(small, -1000, 1000) == minimax(small)


def test_options_text():
    from scopone.solver.core import parse_options
    assert parse_options("all") == OPTIONS["all"]
    assert parse_options("plain") == 0
    assert parse_options("all-equiv") == OPTIONS["all"] & ~OPTIONS["equiv"]
    with pytest.raises(ValueError, match="unknown core option 'fast'"):
        parse_options("order+fast")


def test_move_round_trip_through_ints():
    pos = endgame(11, Rules(), 3)
    for m in CoreBackend(pos.rules).legal_move_ints(pos):
        assert Move.from_int(m).to_int() == m


def test_profile_accounts_for_every_node():
    # the per-depth counters of benchmarks/solve.py --depth-profile must add up
    pos = endgame(4242, Rules(), 4)
    b = CoreBackend(pos.rules)
    solve_with(b, pos, "all", line=False)
    prof, st = b.profile(), b.stats()
    assert sum(row["nodes"] for row in prof) == st["nodes"]
    left = sum(h.bit_count() for h in pos.hands) - 1  # the root's children
    assert prof[left]["nodes"] >= 1 and not any(row["nodes"] for row in prof[left + 1:])
    for row in prof:  # a node without a cut-off searched at least one move, at most its legal moves
        assert row["all_moves"] >= row["all_nodes"]


def test_nodes_searched_in_vain_are_counted_once():
    # in_vain: the nodes under the moves a table node searched before the one that cut, each node
    # counted once (a node in vain below and again above is counted above only).  Consistency
    # checks that fail if the nested part is subtracted wrongly: every late cut-off searched at
    # least its failed child in vain, and the union of the subtrees lies within the nodes below
    for seed in (4242, 17, 90, 5):
        pos = endgame(seed, Rules(), 5)  # 20 cards: table nodes from 11 cards left
        b = CoreBackend(pos.rules)
        solve_with(b, pos, "best", line=False)
        prof, st = b.profile(), b.stats()
        assert st["in_vain"] == sum(st["in_vain_" + o] for o in VAIN_ORDERS) == sum(r["in_vain"] for r in prof)
        for left, row in enumerate(prof):
            assert row["in_vain"] >= row["late_cuts"]  # at least the failed child itself
            assert row["in_vain"] <= sum(r["nodes"] for r in prof[:left])
            if left <= 10:  # the plain search has no table nodes
                assert row["late_cuts"] == row["in_vain"] == 0
        # (counted at every level it lies under, the in-vain nodes of 4242 and 90 exceed all nodes)
        assert 0 < st["in_vain"] <= st["nodes"]


@pytest.mark.parametrize("mode", ["all", "best", "optimal"])
def test_progress_reports_narrowing_bounds(mode):
    pos = endgame(77, Rules(), 4)
    seen = []
    r = solve(pos, mode=mode, on_progress=seen.append)
    assert seen, "no progress reported"
    for before, after in zip(seen, seen[1:]):  # proven bounds only narrow
        assert after.lower >= before.lower and after.upper <= before.upper
        assert after.nodes >= before.nodes and after.elapsed >= before.elapsed
    for p in seen:
        assert p.lower <= r.value <= p.upper and p.moves_total == len(pos.legal_moves())
    last = seen[-1]
    assert (last.lower, last.upper, last.phase) == (r.value, r.value, "line")
    if mode == "all":
        assert last.moves_done == last.moves_total


def test_search_lets_other_threads_run():
    # the core releases the GIL while it searches, so a progress display (or any
    # other thread) keeps running during a long search
    import threading

    pos = _long_search_position()
    stamps: list[float] = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            stamps.append(time.monotonic())
            time.sleep(0.005)

    t = threading.Thread(target=tick)
    t.start()
    spans = []
    try:
        for gamma in (-3, -1):  # fresh tables, so every search does real work
            t0 = time.monotonic()
            CoreBackend(pos.rules).search(pos, gamma - 1, gamma)
            spans.append((t0 + 0.02, time.monotonic() - 0.02))
    finally:
        stop.set()
        t.join()
    busy = sum(max(0.0, b - a) for a, b in spans)
    assert busy > 0.3, "the test position is too easy to tell"
    inside = [s for s in stamps if any(a < s < b for a, b in spans)]
    assert len(inside) >= 5


def test_scope_far_beyond_a_deal_shift_every_value_exactly():
    # Scope are additive: with s more scope for team B every value drops by exactly s
    # (the search's bounds follow from the position, so no scope reaches a sentinel).
    # Issue 13's case: at 0-999 two moves are worth -1000 and must not read -999.
    line = ("1S6B7C8D/5C5S6D7B/4D6S7D7S/1C4B8S10B 6C10C 2D2C2S2B3D3C8C8B "
            "1D1B3S3B4C4S5D5B9D9C9S9B10D10S 0-0 0 B scientifico")
    good = Position.from_line(line)
    base = {mv.move: mv.value for mv in solve(good, mode="all", engine="python").moves}
    assert min(base.values()) < max(base.values())  # the moves differ, so a clamp would show
    for scope in ((0, 999), (0, 1000), (1000, 0), (0, 10 ** 6)):
        pos = Position(good.hands, good.table, tuple(good.piles), scope, good.to_move, good.last_capture,
                       good.rules, check=False)
        shift = scope[0] - scope[1]
        for engine in ("c", "python"):
            r = solve(pos, mode="all", engine=engine)
            assert {mv.move: mv.value for mv in r.moves} == {m: v + shift for m, v in base.items()}
            assert r.value == max(base.values()) + shift if pos.to_move % 2 == 0 else min(base.values()) + shift
            assert r.final_score.value == r.value  # the line keeps the value to the end


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("mode", ["best", "optimal", "all"])
def test_bracketing_first_changes_no_result(mode, threads):
    # bounds proven from the outside in (what a time limit on a big position does
    # first; in parallel on two threads; each root move's too in mode all) are
    # true bounds: the exact solve that follows finds the same
    for seed in range(12):
        rules = RULES[seed % len(RULES)]
        pos = endgame(7300 + seed, rules, 1 + seed % 4)
        plain = solve_with(CoreBackend(rules), pos, mode, line=False)
        helpers = [CoreBackend(rules) for _ in range(threads - 1)]
        got = solve_with(CoreBackend(rules), pos, mode, line=False, bracket=True, helpers=helpers)
        assert got.value == plain.value and got.complete, pos.line()
        if mode != "best":
            assert sorted((m.move.text(), m.value) for m in got.moves) == \
                sorted((m.move.text(), m.value) for m in plain.moves)


def test_bracket_proves_bounds_around_the_value():
    from scopone.solver.driver import _Bounds

    for seed in range(8):
        pos = endgame(7400 + seed, Rules(), 3)
        value = solve(pos, mode="best", engine="c", line=False).value
        b, guess, steps = _Bounds(), pos.score().value, (6, 3, 2)
        b.bracket(CoreBackend(pos.rules), pos, guess=guess, steps=steps)
        assert b.lower <= value <= b.upper
        # every step was settled: the value is known to be on one side of it
        assert not any(b.lower < guess + s * d <= b.upper for d in steps for s in (-1, 1))
        # the same on two threads, one null-window search each at a time
        p = _Bounds()
        p.bracket_parallel(Workers([CoreBackend(pos.rules), CoreBackend(pos.rules)]), pos, guess=guess,
                           steps=steps)
        assert p.lower <= value <= p.upper
        assert not any(p.lower < guess + s * d <= p.upper for d in steps for s in (-1, 1))


@pytest.mark.parametrize("rules", RULES, ids=[r.name for r in RULES])
def test_positions_without_every_card_are_solved_exactly(rules):
    # a position made with check=False may hold fewer than 40 cards: the majorities
    # of cards and Denari are then of the cards in it (the scoring compares the
    # piles), and the core's sure bounds must not assume 21 of 40 (they did)
    rng = random.Random(9100)
    for seed in range(24):
        pos = endgame(9100 + seed, rules, 2 + seed % 2)
        piles = list(pos.piles)
        for team in (0, 1):  # drop about half of each pile
            piles[team] &= rng.getrandbits(40)
        pos = Position(pos.hands, pos.table, tuple(piles), pos.scope, pos.to_move, pos.last_capture, rules,
                       check=False)
        want = minimax(pos)
        for options in ("all", "everything"):
            b = CoreBackend(rules, options=options)
            assert b.search(pos, -99, 99) == want, (pos.line(), options)
            for gamma in range(want - 2, want + 3):  # null windows on both sides of the value
                assert (b.search(pos, gamma - 1, gamma) >= gamma) == (want >= gamma), (pos.line(), gamma)


def test_one_backend_keeps_positions_of_different_decks_apart():
    # the table keys the cards in play and team A's pile; in a whole deal team
    # B's pile follows from them, in a position made without every card it does
    # not: one backend must not take one deck's entries for another's
    rng = random.Random(9200)
    checked = 0
    for seed in range(40):
        pos = endgame(9200 + seed, Rules(), 3)
        b = CoreBackend(pos.rules)
        for _ in range(3):
            pile_b = pos.piles[1] & rng.getrandbits(40)
            other = Position(pos.hands, pos.table, (pos.piles[0], pile_b), pos.scope, pos.to_move,
                             pos.last_capture, pos.rules, check=False)
            want = minimax(other)
            checked += want != minimax(pos)
            assert b.search(other, -99, 99) == want, other.line()
            assert b.search(pos, -99, 99) == minimax(pos), pos.line()
    assert checked > 10  # the decks do change the values


def pile_lead_moves(rules: Rules, want: int, odd: bool = False):
    """Endgames where one card of a pile (not the settebello nor, with re bello, the King
    of Denari) has gone to the other pile, so that the lead in the card majority (and,
    for a Denari card, in the Denari) moves by two, as :func:`telling_pairs` gives them.
    With ``odd`` both positions are first made without one Denari card of a pile, so that
    the deal holds an odd number of cards and of Denari."""
    special = 1 << SETTEBELLO | (1 << RE_BELLO if rules.re_bello else 0)

    def without_a_denari(seed: int, pos: Position) -> Position | None:
        src = seed % 2
        denari = [c for c in range(40) if (pos.piles[src] & DENARI_MASK & ~special) >> c & 1]
        if not denari:
            return None
        piles = list(pos.piles)
        piles[src] &= ~(1 << denari[0])
        return Position(list(pos.hands), pos.table, tuple(piles), tuple(pos.scope), pos.to_move,
                        pos.last_capture, pos.rules, check=False)

    def move(seed: int, pos: Position) -> Position | None:
        src = seed % 2  # from A's pile to B's, or back
        cards = [c for c in range(40) if (pos.piles[src] & ~special) >> c & 1]
        if not cards:
            return None
        c = cards[seed % len(cards)]
        piles = list(pos.piles)
        piles[src] &= ~(1 << c)
        piles[1 - src] |= 1 << c
        return Position(list(pos.hands), pos.table, tuple(piles), tuple(pos.scope), pos.to_move,
                        pos.last_capture, pos.rules, check=not odd)

    return telling_pairs(rules, range(7800, 8400), move, want, "pile move", without_a_denari if odd else None)


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
def test_partition_bounds_hold_for_piles_with_other_leads(rules):
    # With pdom the class key leaves out how much each team leads the card and
    # Denari majorities, and an entry keeps them: its lower bound is used where
    # team A leads by as much or more, its upper bound where by as much or less;
    # elsewhere lowered (raised) by a point for each two cards of lead less (more),
    # at most two a majority.  A backend that solved one position answers part of
    # the other, whose piles differ by one card (a lead moved by two: a penalty of
    # one point), from those entries; the values must be those of a backend without
    # the class table.  (Under napola the counts stay in the key.)
    dominated = penalised = 0
    for pos, other, ref in pile_lead_moves(rules, 4):
        backend = CoreBackend(rules)
        solve_with(backend, pos, "all", line=False)
        got = solve_with(backend, other, "all", line=False)
        assert moves_and_values(got) == ref, (pos.line(), other.line())
        dominated += backend.stats()["partition_dominance_hits"]
        penalised += backend.stats()["partition_penalty_hits"]
    assert (dominated > 0) != rules.napola
    assert (penalised > 0) != rules.napola


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
def test_partition_bounds_for_other_leads_in_a_deal_of_odd_counts(rules):
    # In a position made without every card the deal can hold an odd number of cards
    # and of Denari: a leaf's lead is then odd, and a lead two less turns a win into a
    # loss (two points, not the one of a whole deal).  The same check as above, on
    # such deals (a mutant charging one point there gave wrong values)
    penalised = 0
    for pos, other, ref in pile_lead_moves(rules, 12, odd=True):
        backend = CoreBackend(rules)
        solve_with(backend, pos, "all", line=False)
        got = solve_with(backend, other, "all", line=False)
        assert moves_and_values(got) == ref, (pos.line(), other.line())
        penalised += backend.stats()["partition_penalty_hits"]
    assert (penalised > 0) != rules.napola
