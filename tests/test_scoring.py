"""Scoring a deal, category by category, and the end-of-deal rules of Position.push."""

from __future__ import annotations

import random

import pytest

import naive
from scopone.cards import FULL_DECK, mask_text, parse_cards
from scopone.position import Position
from scopone.rules import Rules, parse_rules
from scopone.scoring import game_winner, napola_points, primiera_by_suit, score_piles

ALL = [f"{r}{s}" for r in range(1, 11) for s in "DCSB"]


def piles(a: str, b: str | None = None) -> tuple[int, int]:
    """Team A's pile and team B's pile; B defaults to every other card."""
    pa = parse_cards(a)
    pb = FULL_DECK & ~pa if b is None else parse_cards(b)
    return pa, pb


def first_n(n: int, exclude: str = "") -> str:
    """The first n cards of the deck in canonical order, skipping ``exclude``."""
    ex = set(exclude.split())
    return " ".join([c for c in ALL if c not in ex][:n])


def naive_score(pa: int, pb: int, scope, rules: Rules) -> dict:
    to_list = lambda m: [naive.card(t) for t in mask_text(m).split()]  # noqa: E731
    return naive.score([to_list(pa), to_list(pb)], scope, rules)


# Piles for the carte cases: the first n cards of the deck in canonical order.
TWENTY_ONE = first_n(21)
TWENTY = first_n(20)
SIX_DENARI = "1D 2D 3D 4D 5D 6D"
FIVE_DENARI = "1D 2D 3D 4D 5D"

CASES = [
    # (id, rules, pile A, pile B or None = the rest, field, expected pair)
    ("carte 21-19", "scientifico", TWENTY_ONE, None, "carte_points", (1, 0)),
    ("carte 19-21", "scientifico", first_n(19), None, "carte_points", (0, 1)),
    ("carte 20-20", "scientifico", TWENTY, None, "carte_points", (0, 0)),
    ("carte counts", "scientifico", TWENTY_ONE, None, "carte", (21, 19)),
    ("denari 6-4", "scientifico", SIX_DENARI, None, "denari_points", (1, 0)),
    ("denari 4-6", "scientifico", "7D 8D 9D 10D", None, "denari_points", (0, 1)),
    ("denari 5-5", "scientifico", FIVE_DENARI, None, "denari_points", (0, 0)),
    ("denari counts", "scientifico", SIX_DENARI, None, "denari", (6, 4)),
    ("settebello A", "scientifico", "7D", None, "settebello_points", (1, 0)),
    ("settebello B", "scientifico", "7C 7S 7B", None, "settebello_points", (0, 1)),
    # primiera strict
    ("primiera example total", "scientifico", "7S 7B 6D 4C", "2D", "primiera", (74, 12)),
    ("primiera example wins", "scientifico", "7S 7B 6D 4C", "2D 2C 2S 2B", "primiera_points", (1, 0)),
    ("primiera higher total wins", "scientifico", "7S 7B 7D 7C", "6S 6B 6D 6C", "primiera_points", (1, 0)),
    ("primiera higher total wins B", "scientifico", "1S 1B 1D 1C", "6S 6B 6D 6C", "primiera_points", (0, 1)),
    ("primiera B missing a suit loses", "scientifico", "2D 2C 2S 2B", "7D 7C 7S", "primiera_points", (1, 0)),
    ("primiera A missing a suit loses", "scientifico", "7D 7C 7S 10D", "8D 8C 8S 8B", "primiera_points", (0, 1)),
    ("primiera both missing", "scientifico", "7D 7C 7S", "6D 6C", "primiera_points", (0, 0)),
    ("primiera equal totals", "scientifico", "7D 6C 5S 1B", "7C 6D 5B 1S", "primiera_points", (0, 0)),
    ("primiera complete flags", "scientifico", "2D 2C 2S 2B", "7D 7C 7S", "primiera_complete", (True, False)),
    ("primiera best card per suit", "scientifico", "7D 6D 1D 10D 2C 8C 9S 3B", "4D", "primiera", (21 + 12 + 10 + 13, 14)),
    # primiera sum: a missing suit counts 0
    ("primiera sum missing suit can win", "scientifico+primiera=sum", "7D 7C 7S", "2D 2C 2S 2B", "primiera_points", (1, 0)),
    ("primiera sum missing suit can lose", "scientifico+primiera=sum", "7D 7C", "2D 2C 2S 2B", "primiera_points", (0, 1)),
    ("primiera sum equal", "scientifico+primiera=sum", "7D 7C", "7S 7B", "primiera_points", (0, 0)),
    ("primiera sum both missing", "scientifico+primiera=sum", "7D 7C 6S", "7S 7B", "primiera_points", (1, 0)),
    # re bello
    ("re bello off", "scientifico", "10D", None, "re_bello_points", (0, 0)),
    ("re bello on A", "scientifico+re_bello", "10D", None, "re_bello_points", (1, 0)),
    ("re bello on B", "scientifico+re_bello", "10C", None, "re_bello_points", (0, 1)),
    # napola
    ("napola off", "scientifico", "1D 2D 3D", None, "napola_points", (0, 0)),
    ("napola 1-2-3", "scientifico+napola", "1D 2D 3D 5D", None, "napola_points", (3, 0)),
    ("napola 1..6", "scientifico+napola", "1D 2D 3D 4D 5D 6D 8D", None, "napola_points", (6, 0)),
    ("napola all ten", "scientifico+napola", "1D 2D 3D 4D 5D 6D 7D 8D 9D 10D", None, "napola_points", (10, 0)),
    ("napola 1-2-4", "scientifico+napola", "1D 2D 4D", "3D", "napola_points", (0, 0)),
    ("napola 1-2 only", "scientifico+napola", "1D 2D", "3D 4D 5D", "napola_points", (0, 0)),
    ("napola without the ace", "scientifico+napola", "2D 3D 4D 5D", "1D", "napola_points", (0, 0)),
    ("napola for B", "scientifico+napola", "5D", None, "napola_points", (0, 4)),
    ("capote with napola", "scientifico+napola", "1D 2D 3D 4D 5D 6D 7D 8D 9D 10D", None, "capote", (True, False)),
    ("capote B with napola", "scientifico+napola", "1C", None, "capote", (False, True)),
    ("no capote without napola", "scientifico", "1D 2D 3D 4D 5D 6D 7D 8D 9D 10D", None, "capote", (False, False)),
    ("no capote with nine denari", "scientifico+napola", "1D 2D 3D 4D 5D 6D 7D 8D 9D", None, "capote", (False, False)),
]


@pytest.mark.parametrize("rules_text,a,b,field,expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_score_category(rules_text, a, b, field, expected):
    rules = parse_rules(rules_text)
    pa, pb = piles(a, b)
    s = score_piles(pa, pb, (0, 0), rules)
    assert tuple(getattr(s, field)) == tuple(expected)
    # every case is also a full cross-check of the totals against the naive scorer
    ns = naive_score(pa, pb, (0, 0), rules)
    assert s.points == tuple(ns["total"])
    assert s.value == ns["value"]


def test_primiera_example_by_suit():
    # 7S, 7B, 6D, 4C -> D 18, C 14, S 21, B 21
    assert primiera_by_suit(parse_cards("7S 7B 6D 4C")) == (18, 14, 21, 21)
    assert sum(primiera_by_suit(parse_cards("7S 7B 6D 4C"))) == 74
    assert primiera_by_suit(0) == (0, 0, 0, 0)


@pytest.mark.parametrize("pile,points", [
    ("1D 2D 3D", 3), ("1D 2D 3D 4D 5D 6D", 6), ("1D 2D 3D 4D 5D 6D 7D 8D 9D 10D", 10),
    ("1D 2D 4D", 0), ("1D 2D 3D 5D 6D 7D", 3), ("", 0), ("1C 2C 3C", 0),
])
def test_napola_points(pile, points):
    assert napola_points(parse_cards(pile)) == points


@pytest.mark.parametrize("scope,expected", [((0, 0), (0, 0)), ((3, 1), (3, 1)), ((0, 5), (0, 5))])
def test_scope_points(scope, expected):
    pa, pb = piles(TWENTY)
    s = score_piles(pa, pb, scope, Rules())
    assert s.scope == expected
    base = score_piles(pa, pb, (0, 0), Rules())
    assert (s.points[0] - base.points[0], s.points[1] - base.points[1]) == expected


def test_total_points_example():
    # A: settebello, denari 8-2, primiera (all four sevens); B: carte 29-11
    a = parse_cards("7D 7C 7S 7B 1D 2D 3D 4D 5D 6D 8D")
    s = score_piles(a, FULL_DECK & ~a, (2, 0), Rules())
    assert s.carte_points == (0, 1)
    assert s.denari_points == (1, 0)
    assert s.settebello_points == (1, 0)
    assert s.primiera_points == (1, 0)
    assert s.points == (5, 1) and s.value == 4


@pytest.mark.parametrize("rules_text", [
    "scientifico", "scientifico+primiera=sum", "scientifico+napola+re_bello",
    "classico+re_bello", "scientifico+napola+primiera=sum",
])
def test_random_partitions_match_naive(rules_text):
    rules = parse_rules(rules_text)
    rng = random.Random(rules_text)
    for _ in range(400):
        cards = list(range(40))
        rng.shuffle(cards)
        k = rng.choice([rng.randint(0, 40), rng.randint(17, 23)])
        pa = sum(1 << c for c in cards[:k])
        pb = FULL_DECK & ~pa
        scope = (rng.randint(0, 4), rng.randint(0, 4))
        s = score_piles(pa, pb, scope, rules)
        ns = naive_score(pa, pb, scope, rules)
        for cat in ("carte", "denari", "settebello", "primiera", "re_bello", "napola"):
            assert tuple(getattr(s, f"{cat}_points")) == tuple(ns[cat]), (cat, mask_text(pa))
        assert s.points == tuple(ns["total"])
        assert s.capote == tuple(ns["capote"])


# ---------------------------------------------------------------- game_winner
@pytest.mark.parametrize("totals,rules_text,capote,winner", [
    ((11, 9), "scientifico", (False, False), 0),
    ((9, 11), "scientifico", (False, False), 1),
    ((10, 10), "scientifico", (False, False), None),
    ((5, 3), "scientifico", (False, False), None),
    ((12, 12), "scientifico", (False, False), None),   # both reached it, tie: another deal
    ((13, 11), "scientifico", (False, False), 0),      # both reached it, higher wins
    ((11, 14), "scientifico", (False, False), 1),
    ((15, 3), "scientifico+target=16", (False, False), None),
    ((16, 3), "scientifico+target=16", (False, False), 0),
    ((20, 20), "scientifico+target=21", (False, False), None),
    ((21, 20), "scientifico+target=21", (False, False), 0),
    ((2, 0), "scientifico+napola", (True, False), 0),   # capote wins at once
    ((0, 2), "scientifico+napola", (False, True), 1),
    ((2, 0), "scientifico", (True, False), None),       # no capote rule without napola
])
def test_game_winner(totals, rules_text, capote, winner):
    assert game_winner(totals, parse_rules(rules_text), capote) == winner


# ---------------------------------------------------------------- rules applied by push
def endgame(hands: list[str], table: str, pile_a: str = "", scope=(0, 0), to_move: int = 0,
            last: int | None = 1, rules: str = "scientifico") -> Position:
    """A valid position: the cards not named go to team B's pile."""
    hs = [parse_cards(h) for h in hands]
    t = parse_cards(table)
    pa = parse_cards(pile_a)
    pb = FULL_DECK & ~(sum(hs) | t | pa)
    return Position(hs, t, (pa, pb), scope, to_move, last, parse_rules(rules))


def test_last_play_capture_is_not_a_scopa():
    pos = endgame(["7D", "", "", ""], "3C 4S")
    pos.push(pos.parse_move("7D"))
    assert pos.is_over()
    assert pos.scope == [0, 0]
    assert pos.table == 0
    assert pos.piles[0] == parse_cards("7D 3C 4S")
    assert pos.last_capture == 0


def test_scopa_mid_deal():
    pos = endgame(["7D 9D", "2B", "2C", "2S"], "3C 4S")
    pos.push(pos.parse_move("7D"))
    assert pos.scope == [1, 0]
    assert pos.table == 0 and pos.to_move == 1
    assert pos.piles[0] == parse_cards("7D 3C 4S")
    pos.pop()
    assert pos.scope == [0, 0]


def test_scopa_by_team_b_mid_deal():
    pos = endgame(["9D", "7B 2B", "2C", "2S"], "3C 4S", to_move=1, last=0, pile_a="1D")
    pos.push(pos.parse_move("7B"))
    assert pos.scope == [0, 1]


def test_capture_not_clearing_the_table_is_not_a_scopa():
    pos = endgame(["7D 9D", "2B", "2C", "2S"], "3C 4S 8B")
    pos.push(pos.parse_move("7D"))
    assert pos.scope == [0, 0] and pos.table == parse_cards("8B")


def test_leftovers_go_to_the_last_capturer():
    # seat 0 captures, then everyone lays down: the table goes to team A at the end
    pos = endgame(["5D", "9B", "10C", "8S"], "5C", last=1)
    for mv in ("5D", "9B", "10C", "8S"):
        pos.push(pos.parse_move(mv))
    assert pos.is_over()
    assert pos.table == 0
    assert pos.piles[0] == parse_cards("5D 5C 9B 10C 8S")
    assert pos.scope == [1, 0]  # the first capture emptied the table mid-deal
    s = pos.result()
    assert s.carte == (5, 35)


def test_leftovers_go_to_team_b_when_it_captured_last():
    pos = endgame(["9D", "", "", ""], "2C 3S", pile_a="1D", last=1)
    pos.push(pos.parse_move("9D"))
    assert pos.table == 0
    assert pos.piles[0] == parse_cards("1D")
    assert pos.piles[1] & parse_cards("2C 3S 9D") == parse_cards("2C 3S 9D")


def test_last_play_partial_capture_takes_the_rest():
    pos = endgame(["5D", "", "", ""], "5C 9B", last=1)
    pos.push(pos.parse_move("5D"))
    assert pos.piles[0] == parse_cards("5D 5C 9B")
    assert pos.scope == [0, 0]


def test_ace_sweep_is_not_a_scopa_by_default():
    pos = endgame(["1D 9D", "2B", "2C", "2S"], "3C 4S 9B", rules="assi")
    mv = pos.parse_move("1D")
    assert mv.text() == "1Dx3C+4S+9B"
    pos.push(mv)
    assert pos.table == 0
    assert pos.scope == [0, 0]
    assert pos.piles[0] == parse_cards("1D 3C 4S 9B")


def test_ace_sweep_is_a_scopa_with_asso_scopa():
    pos = endgame(["1D 9D", "2B", "2C", "2S"], "3C 4S 9B", rules="assi+asso_scopa")
    pos.push(pos.parse_move("1D"))
    assert pos.scope == [1, 0]


def test_ace_sweep_on_the_last_play_is_never_a_scopa():
    pos = endgame(["1D", "", "", ""], "3C 4S 9B", rules="assi+asso_scopa")
    pos.push(pos.parse_move("1D"))
    assert pos.scope == [0, 0] and pos.piles[0] == parse_cards("1D 3C 4S 9B")


def test_ace_takes_ace_alone():
    pos = endgame(["1D 9D", "2B", "2C", "2S"], "1C 4S 9B", rules="assi")
    pos.push(pos.parse_move("1D"))
    assert pos.table == parse_cards("4S 9B") and pos.scope == [0, 0]


def test_ace_taking_a_lone_ace_is_a_scopa():
    """RULES.md: the asso_scopa switch is about the Ace's *sweep* of the table.

    With asso_takes_asso (the default) a played Ace takes a table Ace *alone*,
    as an ordinary single-card match; when that Ace was the only card on the
    table, rule 6 makes it a scopa (not the last play).  The engine's
    ``CaptureTable.is_sweep_scopa`` refuses the scopa for every Ace capture.
    """
    pos = endgame(["1D 9D", "2B", "2C", "2S"], "1C", rules="assi")
    pos.push(pos.parse_move("1D"))
    assert pos.table == 0
    assert pos.scope == [1, 0]


def test_quindici_scopa():
    pos = endgame(["7D 9D", "2B", "2C", "2S"], "3C 5S", rules="quindici")
    pos.push(pos.parse_move("7D"))
    assert pos.scope == [1, 0]


def test_result_requires_the_end():
    from scopone.errors import PositionError

    pos = endgame(["7D 9D", "2B", "2C", "2S"], "3C 4S")
    with pytest.raises(PositionError):
        pos.result()


@pytest.mark.parametrize("primiera", ["strict", "sum"])
def test_standings_call_a_point_only_when_every_way_of_sharing_the_rest_gives_it(primiera):
    # brute force: every assignment of the cards not yet taken to A or B (up to 2^8)
    import itertools
    import random

    from scopone.cards import FULL_DECK
    from scopone.scoring import standings

    rules = parse_rules(f"scientifico+re_bello+primiera={primiera}")
    rng = random.Random(7)
    names = {"carte": "carte_points", "denari": "denari_points", "settebello": "settebello_points",
             "primiera": "primiera_points", "re bello": "re_bello_points"}
    for _ in range(150):
        cards = list(range(40))
        rng.shuffle(cards)
        k = rng.randint(0, 8)
        left, rest = cards[:k], cards[k:]
        cut = rng.randint(0, len(rest))
        a = sum(1 << c for c in rest[:cut])
        b = sum(1 << c for c in rest[cut:])
        outcomes = {n: set() for n in names}
        for bits in itertools.product((0, 1), repeat=k):
            extra_a = sum(1 << c for c, x in zip(left, bits) if x == 0)
            extra_b = sum(1 << c for c, x in zip(left, bits) if x == 1)
            s = score_piles(a | extra_a, b | extra_b, (0, 0), rules)
            for n, attr in names.items():
                outcomes[n].add(getattr(s, attr))
        for st in standings(a, b, (0, 0), rules):
            if st.category not in names:
                continue
            seen = outcomes[st.category]
            if st.points is not None:  # sound: a decided point is the same however the rest goes
                assert seen == {st.points}, (st, seen)
            elif st.category != "primiera":  # counted categories are called as soon as they are sure
                assert len(seen) > 1, (st, seen)
    assert (a | b | sum(1 << c for c in left)) == FULL_DECK
