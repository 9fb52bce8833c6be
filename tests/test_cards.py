"""Card parsing, card/mask helpers and suit permutations."""

from __future__ import annotations

import itertools

import pytest

from scopone.cards import (
    BASTONI, COPPE, DENARI, DENARI_MASK, FULL_DECK, RANK_MASK, RE_BELLO, SETTEBELLO, SPADE,
    SUIT_MASK, SUIT_PERMUTATIONS, card_symbol, card_text, cards_of, iter_cards, make_card,
    mask_of, mask_text, mask_value, parse_card, parse_cards, permute_suits, rank_count,
    rank_counts, rank_of, split_card_texts, suit_of,
)
from scopone.errors import CardError, ScoponeError

SUIT_INDEX = {"D": DENARI, "C": COPPE, "S": SPADE, "B": BASTONI}


@pytest.mark.parametrize("text,rank,suit", [
    ("7D", 7, "D"), ("7d", 7, "D"), ("10B", 10, "B"), ("10b", 10, "B"), ("1C", 1, "C"),
    ("1S", 1, "S"), (" 3C ", 3, "C"), ("7 D", 7, "D"),
    ("7♦", 7, "D"), ("7♥", 7, "C"), ("7♠", 7, "S"), ("7♣", 7, "B"), ("10♣", 10, "B"),
    ("7 denari", 7, "D"), ("7Denari", 7, "D"), ("2 Coppe", 2, "C"), ("9spade", 9, "S"),
    ("4 BASTONI", 4, "B"),
])
def test_parse_card(text, rank, suit):
    c = parse_card(text)
    assert rank_of(c) == rank and suit_of(c) == SUIT_INDEX[suit]
    assert card_text(c) == f"{rank}{suit}"


@pytest.mark.parametrize("text", ["11D", "0C", "7X", "", "   ", "D7", "7", "D", "7DD", "-1D", "10", "1.5D", None, 7])
def test_parse_card_errors(text):
    with pytest.raises(CardError) as e:
        parse_card(text)
    assert isinstance(e.value, ScoponeError) and isinstance(e.value, ValueError)
    assert repr(text) in str(e.value)  # the message quotes the bad input


def test_card_text_round_trip_all_cards():
    texts = [card_text(c) for c in range(40)]
    assert len(set(texts)) == 40
    assert texts[0] == "1D" and texts[39] == "10B"
    for c in range(40):
        assert parse_card(card_text(c)) == c
        assert parse_card(card_text(c).lower()) == c
        assert parse_card(card_symbol(c)) == c


@pytest.mark.parametrize("bad", [-1, 40, "7D", None, 1.0])
def test_card_text_rejects_non_cards(bad):
    with pytest.raises(CardError):
        card_text(bad)


def test_layout_and_special_cards():
    assert make_card(7, DENARI) == SETTEBELLO and card_text(SETTEBELLO) == "7D"
    assert card_text(RE_BELLO) == "10D"
    for r in range(1, 11):
        for s in range(4):
            c = make_card(r, s)
            assert rank_of(c) == r and suit_of(c) == s
            assert RANK_MASK[r] >> c & 1 and SUIT_MASK[s] >> c & 1
    assert sum(RANK_MASK) == FULL_DECK and sum(SUIT_MASK) == FULL_DECK
    assert mask_text(DENARI_MASK) == " ".join(f"{r}D" for r in range(1, 11))
    assert card_symbol(SETTEBELLO) == "7♦"


@pytest.mark.parametrize("text,expected", [
    ("3C 4S,10B+1D", ["3C", "4S", "10B", "1D"]),
    ("7D3C10B", ["7D", "3C", "10B"]),
    ("10B10D1C", ["10B", "10D", "1C"]),
    ("", []),
    ("  7D  ", ["7D"]),
    ("7♦3♥", ["7♦", "3♥"]),
])
def test_split_card_texts(text, expected):
    assert split_card_texts(text) == expected


def test_parse_cards_and_mask_text():
    m = parse_cards("3C 7D 1S")
    assert mask_text(m) == "1S 3C 7D"
    assert mask_text(m, "+") == "1S+3C+7D"
    assert parse_cards(["7d", "1c"]) == parse_cards("1C 7D")
    assert parse_cards("7D3C10B") == parse_cards("10B 3C 7D")
    assert parse_cards("") == 0 and mask_text(0) == ""
    assert mask_text(FULL_DECK).split() == [card_text(c) for c in range(40)]


@pytest.mark.parametrize("text", ["7D 7D", "7D 7d", "7D,7♦", "1C 11C", "7D 7X"])
def test_parse_cards_errors(text):
    with pytest.raises(CardError):
        parse_cards(text)


def test_mask_helpers():
    cards = [0, 5, 17, 39]
    m = mask_of(cards)
    assert m == (1 << 0) | (1 << 5) | (1 << 17) | (1 << 39)
    assert cards_of(m) == cards and list(iter_cards(m)) == cards
    assert cards_of(0) == [] and mask_of([]) == 0
    t = parse_cards("1D 1C 3S 10B 10D 10C")
    assert rank_count(t, 1) == 2 and rank_count(t, 3) == 1 and rank_count(t, 10) == 3
    assert rank_count(t, 5) == 0
    assert rank_counts(t) == (0, 2, 0, 1, 0, 0, 0, 0, 0, 0, 3)
    assert mask_value(t) == 1 + 1 + 3 + 30
    assert mask_value(FULL_DECK) == 4 * 55


def test_suit_permutations_are_the_six_of_coppe_spade_bastoni():
    assert len(SUIT_PERMUTATIONS) == 6 and len(set(SUIT_PERMUTATIONS)) == 6
    assert set(SUIT_PERMUTATIONS) == {(0,) + p for p in itertools.permutations((1, 2, 3))}


@pytest.mark.parametrize("perm", SUIT_PERMUTATIONS)
def test_permute_suits_card_by_card(perm):
    for c in range(40):
        got = cards_of(permute_suits(1 << c, perm))
        assert got == [make_card(rank_of(c), perm[suit_of(c)])]
    assert permute_suits(FULL_DECK, perm) == FULL_DECK
    assert permute_suits(DENARI_MASK, perm) == DENARI_MASK  # Denari stays fixed
    m = parse_cards("3C 7D 1S 10B 2B")
    assert permute_suits(m, perm).bit_count() == m.bit_count()
    assert mask_value(permute_suits(m, perm)) == mask_value(m)


def test_permute_suits_examples_and_inverse():
    assert mask_text(permute_suits(parse_cards("3C"), (0, 2, 1, 3))) == "3S"
    assert mask_text(permute_suits(parse_cards("3C 4S 5B 6D"), (0, 2, 3, 1))) == "3S 4B 5C 6D"
    for perm in SUIT_PERMUTATIONS:
        inverse = tuple(perm.index(s) for s in range(4))
        m = parse_cards("3C 7D 1S 10B 2B 9C")
        assert permute_suits(permute_suits(m, perm), inverse) == m
    # a permutation not in the precomputed table still works
    assert mask_text(permute_suits(parse_cards("3D 3C"), (1, 0, 2, 3))) == "3D 3C"
    assert mask_text(permute_suits(parse_cards("3D"), (1, 0, 2, 3))) == "3C"
