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


# ---------------------------------------------------------------- concrete reasons (puzzle explanations)
from scopone.puzzles.explain import clear_swing  # noqa: E402
from scopone.reasons import category_losses, finish, first_blow, line_text, loss_reasons, plays  # noqa: E402
from test_puzzles import endgame, line  # noqa: E402

# South holds 7C 3B 9D with the settebello alone on the table: 7Cx7D sweeps it.
SEVENS = endgame(["7C 3B 9D", "7S 1S 4B", "5S 6S 2B", "8C 10C 4D"], "7D")
# Each line is completed with the first legal move at every turn (a fixed continuation):
#   7Cx7D: South 7Cx7D (scopa) ... East 4Bx4D (scopa) ...       scope 1-1, 7D and the primiera to A
#   3B:    South 3B · East 7Sx7D (single-card match, forced) ... West 8Cx1S+2B+5S (scopa) ...
#                                                               scope 0-1, 7D and the primiera to B
TAKES = line(SEVENS, "7Cx7D", to_end=True)
LAYS = line(SEVENS, "3B 7Sx7D", to_end=True)
NINE = line(SEVENS, "9D", to_end=True)


def test_plays_label_seats_and_mark_scope():
    ps = plays(SEVENS, TAKES)
    assert [p.seat for p in ps[:5]] == [0, 1, 2, 3, 0]
    assert ps[0].text() == "South 7Cx7D (scopa)"
    assert [p.text() for p in ps if p.scopa] == ["South 7Cx7D (scopa)", "East 4Bx4D (scopa)"]
    assert line_text(SEVENS, LAYS, 2) == "South 3B · East 7Sx7D · …"


def test_category_losses_add_up_to_the_loss():
    best, played = finish(SEVENS, TAKES).result(), finish(SEVENS, LAYS).result()
    losses = category_losses(best, played, 0)
    # settebello 1-0 against 0-1 is a swing of 2 in A - B; South's scopa is missing (1);
    # the primiera goes from A to B (2); the carte are B's on both lines
    assert (losses["settebello"], losses["scope"], losses["primiera"], losses["carte"]) == (2, 1, 2, 0)
    assert sum(losses.values()) == best.value - played.value
    # from team B's side every loss is a gain
    assert all(v == -category_losses(best, played, 1)[k] for k, v in losses.items())


def test_loss_reasons_name_the_play_that_decides():
    reasons = loss_reasons(SEVENS, list(TAKES), list(LAYS), 0)
    assert "it misses South 7Cx7D (scopa) of the best line (−1 point in scope)" in reasons
    assert "East's 7Sx7D takes the settebello (7D) (−2 points)" in reasons
    assert any(r.startswith("the primiera goes") for r in reasons)
    assert loss_reasons(SEVENS, list(TAKES), list(TAKES), 0) == []


def test_first_blow_is_the_opponents_telling_play():
    assert first_blow(SEVENS, list(LAYS), 0) == "East answers 7Sx7D, taking the settebello"
    # asked only about scope, the blow is West's later sweep
    assert first_blow(SEVENS, list(LAYS), 0, ["scope"]) == "later West sweeps with 8Cx1S+2B+5S (scopa)"
    assert first_blow(SEVENS, list(LAYS), 1) is None  # team A never sweeps on that line


def test_clear_swing():
    # against 7Cx7D, the 3B line loses the scopa, the settebello and the primiera: all swings
    assert clear_swing(SEVENS, TAKES, LAYS, 0)
    # 9D's line (denari 7-3, carte 25-15 for A) against 7Cx7D's: the carte lose 2, the
    # scope gain 1: the loss does not come from a swing
    assert not clear_swing(SEVENS, NINE, TAKES, 0)
