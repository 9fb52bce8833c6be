"""Position: validation, move parsing, legal moves against the naive reference, push/pop."""

from __future__ import annotations

import random

import pytest

import naive
from scopone.cards import FULL_DECK, mask_text, parse_card, parse_cards
from scopone.deal import deal
from scopone.errors import (
    AmbiguousMoveError, FormatError, IllegalMoveError, InvalidMoveError, PositionError, ScoponeError,
)
from scopone.position import Move, Position
from scopone.rules import PRESETS, Rules, parse_rules


def endgame(hands, table="", pile_a="", scope=(0, 0), to_move=0, last=1, rules="scientifico",
            check=True, pile_b=None) -> Position:
    """A position from card texts; cards not named go to team B's pile unless pile_b is given."""
    hs = [parse_cards(h) for h in hands]
    t = parse_cards(table)
    pa = parse_cards(pile_a)
    pb = FULL_DECK & ~(sum(hs) | t | pa) if pile_b is None else parse_cards(pile_b)
    return Position(hs, t, (pa, pb), scope, to_move, last, parse_rules(rules), check=check)


BASE = dict(hands=["7D 9D", "2B 3B", "2C", "2S"], table="3C 4S")


def test_valid_base_position():
    pos = endgame(**BASE)
    assert pos.problems() == []
    assert Position.from_line(pos.line()) == pos


# ---------------------------------------------------------------- validation
def problems_of(**kw) -> list[str]:
    with pytest.raises(PositionError) as e:
        endgame(**kw)
    assert isinstance(e.value, ScoponeError)
    return e.value.problems


def assert_names(problems, field, *words):
    hits = [p for p in problems if p.startswith(field) and all(w in p for w in words)]
    assert hits, f"no problem naming {field!r} {words} in {problems}"


def test_duplicate_card_hand_and_pile():
    probs = problems_of(hands=["7D 9D", "2B 3B", "2C", "2S"], table="3C 4S",
                        pile_b=mask_text(FULL_DECK & ~parse_cards("9D 2B 3B 2C 2S 3C 4S")))
    assert_names(probs, "captured.B", "7D")


def test_duplicate_card_between_hands():
    probs = problems_of(hands=["7D 9D", "2B 7D", "2C", "2S"], table="3C 4S",
                        pile_b=mask_text(FULL_DECK & ~parse_cards("7D 9D 2B 2C 2S 3C 4S")))
    assert_names(probs, "hands[1]", "7D")


def test_duplicate_card_table_and_pile_a():
    probs = problems_of(hands=["7D 9D", "2B 3B", "2C", "2S"], table="3C 4S", pile_a="4S",
                        pile_b=mask_text(FULL_DECK & ~parse_cards("7D 9D 2B 3B 2C 2S 3C 4S")))
    assert_names(probs, "captured.A", "4S")


def test_39_cards():
    probs = problems_of(hands=["7D 9D", "2B 3B", "2C", "2S"], table="3C 4S",
                        pile_b=mask_text(FULL_DECK & ~parse_cards("7D 9D 2B 3B 2C 2S 3C 4S 10B")))
    assert_names(probs, "cards", "39", "10B")


def test_41_cards_is_a_duplicate():
    probs = problems_of(hands=["7D 9D", "2B 3B", "2C", "2S"], table="3C 4S 9D")
    assert any("9D" in p for p in probs)


@pytest.mark.parametrize("hands,to_move", [
    (["7D", "2B 3B", "2C", "2S"], 0),             # sizes increase after the seat to move
    (["7D 9D 1C", "2B", "2C", "2S"], 0),          # differ by two
    (["7D 9D", "2B 3B", "2C", "2S"], 1),          # seat 1 to move: 2,1,1,2 increases
    (["7D", "2B", "2C", "2S 3B"], 0),             # last seat holds more
    (["", "2B", "", ""], 0),
    (["7D 9D", "2B 3B", "2C 1C", ""], 0),
])
def test_impossible_hand_sizes(hands, to_move):
    probs = problems_of(hands=hands, table="3C 4S", to_move=to_move)
    assert_names(probs, "hands", "sizes")


@pytest.mark.parametrize("hands,to_move", [
    (["7D 9D", "2B 3B", "2C", "2S"], 0),
    (["7D", "2B 3B", "2C 3C", "2S 4S"], 1),
    (["7D", "2B", "2C", "2S 3B"], 3),
    (["7D", "2B", "2C", "2S"], 2),
    (["", "", "", ""], 1),
    (["7D", "", "", ""], 0),
    (["", "", "", "7D"], 3),
])
def test_possible_hand_sizes(hands, to_move):
    endgame(hands=hands, table="9B", to_move=to_move)  # no error


@pytest.mark.parametrize("seat", [4, -1, 7])
def test_seat_out_of_range(seat):
    probs = problems_of(**BASE, to_move=seat)
    assert_names(probs, "to_move")


def test_last_capture_missing():
    probs = problems_of(**BASE, last=None)
    assert_names(probs, "last_capture", "missing")


def test_last_capture_team_without_cards():
    probs = problems_of(hands=BASE["hands"], table=BASE["table"], last=0)
    assert_names(probs, "last_capture")


def test_last_capture_bad_value():
    probs = problems_of(**BASE, last=2)
    assert_names(probs, "last_capture")


def test_scope_without_captured_cards():
    probs = problems_of(**BASE, scope=(1, 0))
    assert_names(probs, "scope.A")


def test_negative_scope():
    probs = problems_of(**BASE, scope=(0, -1))
    assert_names(probs, "scope.B")


def test_several_problems_reported_together():
    probs = problems_of(**BASE, to_move=5, last=None)
    assert_names(probs, "to_move")
    assert_names(probs, "last_capture")


def test_check_false_skips_validation():
    pos = endgame(**BASE, last=None, check=False)
    assert pos.problems()


@pytest.mark.parametrize("line", [
    "7D/7C/1B 4S - - 0-0 0 - scientifico",
    "7D/7C/1B/2B 4S - - 0-0 0 -",
    "7D/7C/1B/2B 4X - - 0-0 0 - scientifico",
    "7D/7C/1B/2B 4S - - 0:0 0 - scientifico",
    "7D/7C/1B/2B 4S - - 0-0 x - scientifico",
    "7D/7C/1B/2B 4S - - 0-0 0 C scientifico",
    "",
])
def test_from_line_format_errors(line):
    with pytest.raises(FormatError):
        Position.from_line(line, check=False)


def test_from_line_unknown_rules():
    with pytest.raises(ScoponeError):
        Position.from_line("7D/7C/1B/2B 4S - - 0-0 0 - bridge", check=False)


# ---------------------------------------------------------------- move parsing
def test_move_parse_and_text():
    m = Move.parse("7Dx3C+4S")
    assert m == Move(parse_card("7D"), parse_cards("3C 4S"))
    assert m.text() == "7Dx3C+4S" == str(m)
    assert repr(m) == "Move.parse('7Dx3C+4S')"
    assert eval(repr(m)) == m
    assert Move.parse("7dx4s+3c") == m
    assert Move.parse("7DX3C4S") == m
    assert Move.parse("7D").captured == 0
    assert Move.from_int(m.to_int()) == m
    assert m.captured_cards() == [parse_card("3C"), parse_card("4S")]


@pytest.mark.parametrize("text", ["", "  ", "x3C", "7Dx", "7Dx7D", "11D", "7Dx3C+3C", "7Dx3Q", "hello", None])
def test_move_parse_errors(text):
    with pytest.raises(InvalidMoveError):
        Move.parse(text)


def test_short_form_resolves_unique_capture():
    pos = endgame(**BASE)
    assert pos.parse_move("7D") == Move.parse("7Dx3C+4S")
    assert pos.parse_move("9D") == Move.parse("9D")  # nothing to capture: laid down
    assert pos.parse_move("7Dx4S+3C") == Move.parse("7Dx3C+4S")


def test_short_form_ambiguous():
    pos = endgame(["7D 9D", "2B 3B", "1C", "1S"], table="3C 4S 2D 5C")
    with pytest.raises(AmbiguousMoveError) as e:
        pos.parse_move("7D")
    assert "7Dx2D+5C" in str(e.value) and "7Dx3C+4S" in str(e.value) and "'7D'" in str(e.value)
    assert pos.parse_move("7Dx2D+5C").captured == parse_cards("2D 5C")


@pytest.mark.parametrize("text", [
    "2B",          # not in the hand of seat 0
    "7Dx3C",       # not a capture of 7D
    "9Dx3C+4S",    # 9D captures nothing here
    "7Dx3C+4S+2D",  # 2D is not on the table
])
def test_illegal_moves(text):
    pos = endgame(**BASE)
    with pytest.raises(IllegalMoveError) as e:
        pos.parse_move(text)
    assert repr(text) in str(e.value)


def test_is_legal():
    pos = endgame(**BASE)
    assert pos.is_legal(Move.parse("7Dx3C+4S"))
    assert pos.is_legal(Move.parse("9D"))
    assert not pos.is_legal(Move.parse("7D"))  # capture is compulsory for the card played
    assert not pos.is_legal(Move.parse("2B"))
    assert not pos.is_legal(Move.parse("9Dx3C"))


def test_priority_forced():
    pos = endgame(["5D 9D", "2B 3B", "1C", "1S"], table="5C 2S 3D")
    assert [m.text() for m in pos.legal_moves() if m.card == parse_card("5D")] == ["5Dx5C"]
    assert pos.priority_forced(parse_card("5D"))
    assert not pos.priority_forced(parse_card("9D"))


# ---------------------------------------------------------------- against the naive reference
RULE_SETS = [*PRESETS.values(), Rules(asso_piglia_tutto=True, asso_takes_asso=False),
             Rules(asso_piglia_tutto=True, asso_scopa=True), Rules(quindici=True, priority="free")]


def texts(moves) -> list[str]:
    return [m.text() for m in moves]


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.name)
def test_legal_moves_match_naive_along_random_games(rules):
    rng = random.Random(rules.name)
    for game in range(25):
        pos = deal(seed=rng.randrange(10**6), rules=rules)
        st = naive.State.from_line(pos.line())
        while not pos.is_over():
            eng = texts(pos.legal_moves())
            nai = [naive.move_text(m) for m in naive.legal_moves(st)]
            assert sorted(eng) == sorted(nai), pos.line()
            assert len(set(eng)) == len(eng)
            cards_order = [m.card for m in pos.legal_moves()]
            assert cards_order == sorted(cards_order)
            assert [m.to_int() for m in pos.legal_moves()] == pos.legal_move_ints()
            i = rng.randrange(len(eng))
            move = pos.legal_moves()[i]
            nmove = next(m for m in naive.legal_moves(st) if naive.move_text(m) == move.text())
            before = pos.line()
            pos.push(move)
            st = naive.play(st, nmove)
            assert pos.line() == naive_line(st), f"game {game}: after {move.text()} in {before}"
        if pos.is_over():
            ns = naive.final_score(st)
            assert pos.result().points == tuple(ns["total"])


def naive_line(st: naive.State) -> str:
    """The engine's line format written from a naive state (for comparing states)."""
    def enc(cs, empty="-"):
        return naive.cards_text(cs, "") or empty
    hands = "/".join(enc(h, "") for h in st.hands)
    last = "-" if st.last_capture is None else "AB"[st.last_capture]
    return (f"{hands} {enc(st.table)} {enc(st.piles[0])} {enc(st.piles[1])} "
            f"{st.scope[0]}-{st.scope[1]} {st.to_move} {last} {st.rules.name}")


# ---------------------------------------------------------------- push / pop
def test_push_pop_full_game_restores_everything():
    pos = deal(seed=3)
    start_line, start_key = pos.line(), pos.key()
    rng = random.Random(3)
    lines, played = [], []
    while not pos.is_over():
        lines.append(pos.line())
        m = rng.choice(pos.legal_moves())
        played.append(m)
        pos.push(m)
    assert pos.move_stack == played
    assert pos.cards_left() == 0 and pos.table == 0
    assert pos.piles[0] | pos.piles[1] == FULL_DECK and pos.piles[0] & pos.piles[1] == 0
    while played:
        assert pos.pop() == played.pop()
        assert pos.line() == lines.pop()
    assert pos.line() == start_line and pos.key() == start_key and pos.move_stack == []


def test_play_returns_the_move_and_changes_turn():
    pos = endgame(**BASE)
    m = pos.play("7D")
    assert m.text() == "7Dx3C+4S"
    assert pos.to_move == 1 and pos.table == 0 and pos.scope == [1, 0]
    m2 = pos.play("2B")
    assert m2.text() == "2B" and pos.table == parse_cards("2B") and pos.to_move == 2
    assert pos.pop() == m2 and pos.pop() == m
    assert pos == endgame(**BASE)


def test_push_rejects_cards_not_in_hand_or_not_on_table():
    pos = endgame(**BASE)
    before = pos.line()
    with pytest.raises(IllegalMoveError):
        pos.push(Move.parse("2B"))
    with pytest.raises(IllegalMoveError):
        pos.push(Move.parse("7Dx3D+4D"))
    assert pos.line() == before


def test_push_accepts_int_moves():
    pos = endgame(**BASE)
    m = Move.parse("7Dx3C+4S")
    pos.push(m.to_int())
    assert pos.move_stack == [m]


def test_copy_and_equality():
    pos = endgame(**BASE)
    pos.push(pos.parse_move("9D"))
    c = pos.copy()
    assert c == pos and hash(c) == hash(pos) and c.move_stack == []
    assert pos.copy(stack=True).move_stack == pos.move_stack
    c.push(c.legal_moves()[0])
    assert c != pos
    other_rules = endgame(**BASE, rules="free")
    assert other_rules != endgame(**BASE)


def test_scope_cannot_exceed_half_the_pile():
    # a scopa puts the played card and at least one taken card in the pile
    line = ("1S6B7C8D/5C5S6D7B/4D6S7D7S/1C4B8S10B 6C10C 2D2C2S2B3D3C8C8B "
            "1D1B3S3B4C4S5D5B9D9C9S9B10D10S 0-{} 0 B scientifico")
    assert Position.from_line(line.format(7)).scope == [0, 7]  # 14 cards: at most 7 scope
    with pytest.raises(PositionError, match="scope.B: 8 scope but team B has captured only 14 cards"):
        Position.from_line(line.format(8))
    with pytest.raises(FormatError, match="scope must be A-B"):
        Position.from_line(line.format(999))


@pytest.mark.parametrize("scope,to_move", [("+3-4", "1"), ("03-4", "1"), ("0_3-4", "1"), ("3-4", "+1"),
                                           ("3-4", "01"), ("3--4", "1"), ("3-4", "4")])
def test_position_string_numbers_are_plain_decimals(scope, to_move):
    line = ("/6C/7B/6D 1B6S 1D1C1S2C3C3S4S4B5D5C5B6B7C7S10D10C10S10B 2D2S2B3D3B4D4C5S7D8D8C8S8B9D9C9S9B "
            f"{scope} {to_move} A scientifico")
    with pytest.raises(FormatError):
        Position.from_line(line)
    assert Position.from_line(line.replace(f" {scope} {to_move} ", " 3-4 1 ")).scope == [3, 4]
