"""Invariants checked on random positions (hypothesis).

Positions are built from a random deal (seed, rules preset, first seat)
followed by a random number of random legal plays.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import naive
from scopone.cards import FULL_DECK, SUIT_PERMUTATIONS, card_text
from scopone.deal import deal
from scopone.errors import AmbiguousMoveError
from scopone.position import Move, Position
from scopone.rules import PRESETS, Rules

RULE_SETS = [*PRESETS.values(),
             Rules(asso_piglia_tutto=True, asso_takes_asso=False),
             Rules(asso_piglia_tutto=True, asso_scopa=True),
             Rules(quindici=True, priority="free"),
             Rules(re_bello=True, napola=True, primiera="sum")]

SETTINGS = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def positions(draw, min_plies: int = 0, max_plies: int = 40) -> Position:
    rules = draw(st.sampled_from(RULE_SETS))
    seed = draw(st.integers(0, 2**32 - 1))
    first = draw(st.integers(0, 3))
    pos = deal(seed=seed, rules=rules, first=first)
    total = pos.cards_left()
    plies = draw(st.integers(min(min_plies, total), min(max_plies, total)))
    for _ in range(plies):
        moves = pos.legal_moves()
        pos.push(moves[draw(st.integers(0, len(moves) - 1))])
    return pos.copy()


def endgames(cards_left: int):
    """Positions with at most ``cards_left`` cards still in the hands."""
    return positions(min_plies=40 - cards_left, max_plies=40)


def perft(pos: Position, root=None) -> tuple[int, int, int, int]:
    """(leaves, sum of A's points, sum of B's points, leaves with a new scopa)."""
    if root is None:
        root = tuple(pos.scope)
    if pos.is_over():
        a, b = pos.result().points
        return 1, a, b, int(pos.scope[0] > root[0] or pos.scope[1] > root[1])
    out = [0, 0, 0, 0]
    for m in pos.legal_moves():
        pos.push(m)
        for i, x in enumerate(perft(pos, root)):
            out[i] += x
        pos.pop()
    return tuple(out)


# ---------------------------------------------------------------- the properties
@SETTINGS
@given(positions())
def test_cards_are_exactly_partitioned(pos):
    parts = [*pos.hands, pos.table, *pos.piles]
    union = 0
    for m in parts:
        assert m & union == 0, pos.line()
        union |= m
    assert union == FULL_DECK
    assert sum(m.bit_count() for m in parts) == 40
    assert pos.problems() == [], pos.line()  # every reachable position is valid
    if pos.is_over():
        assert pos.table == 0  # leftovers were handed to the last capturer


@SETTINGS
@given(positions())
def test_push_then_pop_restores_the_position(pos):
    key, line, h = pos.key(), pos.line(), hash(pos)
    for m in pos.legal_moves():
        pos.push(m)
        assert pos.to_move == (Position.from_line(line, check=False).to_move + 1) % 4
        assert pos.pop() == m
        assert pos.key() == key and pos.line() == line and hash(pos) == h


@SETTINGS
@given(positions())
def test_line_round_trips(pos):
    line = pos.line()
    back = Position.from_line(line)
    assert back == pos and back.key() == pos.key()
    assert back.line() == line
    assert [m.text() for m in back.legal_moves()] == [m.text() for m in pos.legal_moves()]
    # the naive reader sees the same cards
    stt = naive.State.from_line(line)
    assert sum(len(h) for h in stt.hands) == pos.cards_left()


@SETTINGS
@given(positions())
def test_move_text_round_trips(pos):
    moves = pos.legal_moves()
    by_card: dict[int, list[Move]] = {}
    for m in moves:
        assert Move.parse(m.text()) == m
        assert pos.parse_move(m.text()) == m
        assert Move.from_int(m.to_int()) == m
        assert pos.is_legal(m)
        by_card.setdefault(m.card, []).append(m)
    for card, ms in by_card.items():
        short = card_text(card)
        if len(ms) == 1:
            assert pos.parse_move(short) == ms[0]
        else:
            with pytest.raises(AmbiguousMoveError):
                pos.parse_move(short)


@settings(max_examples=50, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(endgames(cards_left=9), st.sampled_from(SUIT_PERMUTATIONS[1:]))
def test_suit_permutation_changes_no_count_nor_score(pos, perm):
    q = pos.permute_suits(perm)
    assert q.problems() == []
    assert q.score().points == pos.score().points
    assert q.score().primiera == pos.score().primiera
    assert len(q.legal_moves()) == len(pos.legal_moves())
    assert perft(q) == perft(pos), (pos.line(), q.line())
    # the inverse permutation gives the position back
    assert q.permute_suits(tuple(perm.index(s) for s in range(4))) == pos
