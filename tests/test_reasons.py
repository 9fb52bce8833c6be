"""Each reason on a pair of hand-made deal endings (best line, played line)."""

from __future__ import annotations

from scopone.cards import FULL_DECK, parse_cards
from scopone.position import Position
from scopone.reasons import (
    allowed_scopa, broke_pairing, differences, gave_up_settebello, last_capture, lost_carte, lost_denari,
    lost_primiera, missed_scopa,
)
from test_players import build


def end(pile_a: str, scope=(0, 0), last: int = 0) -> Position:
    """A finished deal: team A holds ``pile_a``, team B the rest."""
    a = parse_cards(pile_a)
    return Position([0, 0, 0, 0], 0, (a, FULL_DECK & ~a), scope, 0, last, check=False)


# 20 cards each, 5 Denari each, the 7s split, the settebello with A
EVEN = "7D 7C 1D 2D 3D 4D 1C 2C 3C 4C 5C 6C 8C 9C 10C 1S 2S 3S 4S 5S"


def test_scope():
    assert allowed_scopa(end(EVEN), end(EVEN, (0, 1)), 0) == "allowed a scopa"
    assert allowed_scopa(end(EVEN), end(EVEN, (0, 2)), 0) == "allowed 2 scope"
    assert allowed_scopa(end(EVEN), end(EVEN, (1, 0)), 0) is None
    assert missed_scopa(end(EVEN, (1, 0)), end(EVEN), 0) == "missed a scopa"
    assert missed_scopa(end(EVEN), end(EVEN), 0) is None


def test_settebello():
    swapped = EVEN.replace("7D", "7S").replace("1S", "1S")  # the 7S instead of the 7D
    assert gave_up_settebello(end(EVEN), end(swapped), 0) == "gave up the settebello"
    assert gave_up_settebello(end(EVEN), end(EVEN), 0) is None
    assert gave_up_settebello(end(swapped), end(EVEN), 1) == "gave up the settebello"


def test_primiera_names_the_cards_that_went_over():
    # A: 7D 7C 6S 6B... wins the primiera; on the played line the 7C goes to B
    best = "7D 7C 6S 6B 1D 2D 3D 6D 1C 2C 3C 4C 5C 8C 9C 10C 1S 2S 3S 4S"
    played = best.replace("7C", "5S")
    assert end(best).score().primiera_points == (1, 0)
    assert end(played).score().primiera_points == (0, 1)
    assert lost_primiera(end(best), end(played), 0) == "lost the primiera (7 of Coppe went to the opponents)"
    assert lost_primiera(end(played), end(best), 0) is None


def test_denari_and_carte():
    more_denari = EVEN.replace("5S", "5D")  # 6 Denari for A
    assert lost_denari(end(more_denari), end(EVEN), 0) == "lost the denari"
    assert lost_denari(end(EVEN), end(more_denari), 0) is None
    more_cards = EVEN + " 6S"  # 21 cards for A
    assert lost_carte(end(more_cards), end(EVEN), 0) == "lost the carte"
    assert lost_carte(end(EVEN), end(EVEN), 0) is None


def test_last_capture():
    assert last_capture(end(EVEN, last=0), end(EVEN, last=1), 0) == "the opponents make the last capture"
    assert last_capture(end(EVEN, last=1), end(EVEN, last=1), 0) is None
    assert differences(end(EVEN, (1, 0), last=0), end(EVEN, (0, 1), last=1), 0) == [
        "allowed a scopa", "missed a scopa", "the opponents make the last capture"]


def _finish(pos: Position, first: str) -> Position:
    pos = pos.copy()
    pos.play(first)
    while not pos.is_over():
        pos.push(pos.legal_moves()[0])
    return pos


def test_spariglio_against_the_team_that_lives_on_pairs():
    # 9 cards left with seat 0 to move: seat 1 led the deal, so team B is the mano's side
    # and team A (to move) lives on pairs: 7C taking 3B+4B breaks them, 5S taking 5B does not
    pos = build(["7C5S9C", "1S2S", "4S6S", "1B2B"], "3B4B5B", to_move=0)
    breaks, keeps = _finish(pos, "7Cx3B+4B"), _finish(pos, "5Sx5B")
    assert broke_pairing(keeps, breaks, 0) == "broke the pairing (spariglio) that the partner needed"
    assert broke_pairing(breaks, keeps, 0) is None
    # the same choice for the mano's side: keeping the pairs misses the spariglio
    mano = build(["7C5S9C", "1S2S8S", "4S6S8B", "1B2B8D"], "3B4B5B", to_move=0)  # seat 0 led
    assert broke_pairing(_finish(mano, "7Cx3B+4B"), _finish(mano, "5Sx5B"), 0) == "missed the spariglio"
