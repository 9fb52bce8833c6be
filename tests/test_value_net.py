"""The value network (MTD(f)'s first guess): its inputs, its arithmetic, where it
applies, that the values never depend on it, and that it guesses better than the
score so far on endgames it was not trained on."""

from __future__ import annotations

import random
import sys
from array import array

import numpy as np
import pytest

from scopone.deal import deal
from scopone.position import Position
from scopone.rules import Rules
from scopone.solver import solve
from scopone.solver import value_net
from scopone.cards import SUIT_PERMUTATIONS
from scopone.solver.value_net import (MIN_CARDS, WEIGHTS, ValueNet, _net, applies, dense, features,
                                      net_guess, position_row, targets)

PRIMIERA = {1: 16, 2: 12, 3: 13, 4: 14, 5: 15, 6: 18, 7: 21, 8: 10, 9: 10, 10: 10}


def random_positions(count: int, seed: int = 0) -> list[Position]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        pos = deal(seed=rng.randrange(10 ** 6), cards_per_hand=rng.randrange(1, 11))
        for _ in range(rng.randrange(4)):
            if pos.legal_moves():
                pos.push(rng.choice(pos.legal_moves()))
        out.append(pos)
    return out


def naive_features(pos: Position) -> list[float]:
    """The inputs as the module's docstring describes them, one card at a time."""
    m, team = pos.to_move, pos.to_move & 1
    where = {}
    for off in range(4):
        for c in range(40):
            if pos.hands[(m + off) % 4] >> c & 1:
                where[c] = off
    for c in range(40):
        if pos.table >> c & 1:
            where[c] = 4
        if pos.piles[team] >> c & 1:
            where[c] = 5
        if pos.piles[1 - team] >> c & 1:
            where[c] = 6
    x = [1.0 if where.get(c) == place else 0.0 for place in range(7) for c in range(40)]
    last = pos.last_capture
    x += [1.0 if last == team else 0.0, 1.0 if last is not None and last != team else 0.0, 1.0]
    in_play = pos.hands[0] | pos.hands[1] | pos.hands[2] | pos.hands[3] | pos.table
    counts = []
    for mask in (pos.piles[team], pos.piles[1 - team], in_play):
        cards = [c for c in range(40) if mask >> c & 1]
        denari = [c for c in cards if c % 4 == 0]  # card = 4 * (rank - 1) + suit, Denari suit 0
        counts.append((len(cards), len(denari)))
        x += [len(cards) / 20, len(denari) / 5]
        for suit in range(4):
            best = max((PRIMIERA[c // 4 + 1] for c in cards if c % 4 == suit), default=0)
            x.append(best / 21)
    for k in (0, 1):
        a, b, r = counts[0][k], counts[1][k], counts[2][k]
        lead = (a - b) / (r + 1) ** 0.5
        x += [float(a > b + r), float(b > a + r), lead, float(np.tanh(lead))]
    return x


def test_the_inputs_are_the_card_locations_from_the_movers_seat_and_the_pile_summaries():
    positions = random_positions(60)
    got = np.array([dense(position_row(p)) for p in positions])
    want = np.array([naive_features(p) for p in positions])
    assert got.shape == want.shape == (60, 309)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    for p in positions:  # the sparse form: the ones, then the summaries by index
        ones, rest = features(position_row(p))
        assert sorted(ones + [i for i, _ in rest]) == sorted(set(ones)) + list(range(283, 309))


def test_the_training_renamings_of_the_suits_are_the_positions_renamed():
    for p in random_positions(20, seed=1):
        for perm in SUIT_PERMUTATIONS:
            assert dense(position_row(p), perm) == dense(position_row(p.permute_suits(perm)))


@pytest.mark.parametrize("how", ["predict", "predict_reference"])
def test_the_network_is_two_relu_layers_as_numpy_computes_them(how):
    rng = np.random.default_rng(3)
    shapes = ((309, 6), (6,), (6, 4), (4,), (4, 1), (1,))
    weights = [rng.normal(size=s).astype(np.float32) for s in shapes]
    net = ValueNet([(w.shape, w.ravel().tolist()) for w in weights])
    w1, b1, w2, b2, w3, b3 = (w.astype(np.float64) for w in weights)
    for p in random_positions(10, seed=4):
        x = np.array(dense(position_row(p)))
        want = np.maximum(np.maximum(x @ w1 + b1, 0) @ w2 + b2, 0) @ w3[:, 0] + b3[0]
        assert getattr(net, how)(position_row(p)) == pytest.approx(want, rel=1e-5, abs=1e-5)


needs_core = pytest.mark.skipif(value_net._compiled_forward() is None, reason="the compiled core is not built")


@needs_core
def test_the_compiled_forward_pass_is_the_pure_python_one():
    """The compiled core's sums are the reference's, in its order: the same float on the
    shipped network and on random ones of other sizes."""
    rng = np.random.default_rng(8)
    nets = [_net()]
    for h1, h2 in ((6, 4), (300, 1), (1, 40)):
        shapes = ((309, h1), (h1,), (h1, h2), (h2,), (h2, 1), (1,))
        nets.append(ValueNet([(s, rng.normal(size=s).astype(np.float32).ravel().tolist()) for s in shapes]))
    for net in nets:
        for p in random_positions(60, seed=11):
            row = position_row(p)
            got, want = net.predict(row), net.predict_reference(row)
            assert got == pytest.approx(want, rel=1e-12, abs=1e-12)
            if sys.version_info < (3, 12):  # sum() of floats adds plainly until 3.12, as the core does
                assert got == want


def test_without_the_compiled_core_the_network_runs_in_python(monkeypatch):
    monkeypatch.setattr(value_net, "_compiled_forward", lambda: None)
    net, row = _net(), position_row(deal(seed=5, cards_per_hand=6))
    assert net.predict(row) == net.predict_reference(row)


@needs_core
def test_the_compiled_forward_pass_refuses_what_does_not_fit():
    forward = value_net._compiled_forward()
    w = [array("f", [0.5] * n) for n in (12, 4, 8, 2, 2, 1)]  # 3 inputs, 4 and 2 units
    # by hand: each first unit 0.5 + 0.5 + 0.5 + 0.5 * 0.5 = 1.75, each second 0.5 + 4 * 1.75 * 0.5 = 4
    assert forward(*w, [0, 2], [(1, 0.5)]) == 0.5 + 2 * 4.0 * 0.5
    with pytest.raises(ValueError, match="input 3 is not one of the 3 inputs"):
        forward(*w, [3], [])
    with pytest.raises(ValueError, match="input -1"):
        forward(*w, [], [(-1, 1.0)])
    with pytest.raises(ValueError, match="do not fit"):
        forward(w[0], w[1], w[2], w[2], w[4], w[5], [], [])
    with pytest.raises(ValueError, match="whole number of float32"):
        forward(b"abc", *w[1:], [], [])
    with pytest.raises(TypeError, match="pairs"):
        forward(*w, [], [1])
    with pytest.raises(TypeError):
        forward(*w, ["x"], [])


def test_the_weights_are_read_as_numpy_wrote_them():
    net = ValueNet.load()
    with np.load(WEIGHTS) as z:
        want = [z[f"arr_{i}"] for i in range(6)]
    assert want[0].shape[0] == 309 and want[4].shape[1] == 1
    assert net.shapes == (want[0].shape, want[2].shape)
    for got, w in zip(net.arrays, want):
        assert np.array_equal(np.frombuffer(got, dtype=np.float32), w.ravel())


def test_a_file_that_is_not_the_network_is_refused(tmp_path):
    other = tmp_path / "other.npz"
    np.savez(other, np.zeros((10, 4), np.float32))
    with pytest.raises(ValueError, match="not the six arrays"):
        ValueNet.load(other)
    wide = tmp_path / "wide.npz"
    np.savez(wide, np.zeros((309, 4), np.float64))
    with pytest.raises(ValueError, match="not little-endian float32"):
        ValueNet.load(wide)


class _Knows:
    """A stand-in network that predicts the exact target of the positions it was given."""

    def __init__(self, rows, values):
        self.want = {tuple(r): t for r, t in zip(rows, targets(rows, values))}

    def predict(self, row):
        return self.want[tuple(row)]


def test_the_value_undoes_the_training_target_for_either_team_to_move():
    positions = [p for p in random_positions(40, seed=9) if not p.is_over()]
    assert {p.to_move for p in positions} == {0, 1, 2, 3}
    values = [random.Random(i).randrange(-9, 10) for i in range(len(positions))]
    rows = [position_row(p) for p in positions]
    knows = _Knows(rows, values)
    for pos, v in zip(positions, values):
        assert ValueNet.value(knows, pos) == pytest.approx(v)  # (value() reads only predict)


def test_the_network_applies_to_the_standard_rules_and_a_whole_deck_only():
    pos = deal(seed=2, cards_per_hand=5)
    assert applies(pos)
    classico = Position(pos.hands, pos.table, tuple(pos.piles), tuple(pos.scope), pos.to_move, pos.last_capture,
                        Rules(deal="classico", target=21))
    assert applies(classico)  # how the cards were dealt and the game's target change no position
    for rules in (Rules(re_bello=True), Rules(primiera="sum"), Rules(priority="free"), Rules(napola=True)):
        other = Position(pos.hands, pos.table, tuple(pos.piles), tuple(pos.scope), pos.to_move, pos.last_capture,
                         rules)
        assert not applies(other)
        assert net_guess(other) == other.score().value
    short = Position.from_line("7D/7C/1B/2B 3C4S - - 2-0 0 - scientifico", check=False)
    assert not applies(short) and net_guess(short) == short.score().value == 2


def test_small_positions_keep_the_score_so_far_and_bigger_ones_round_the_networks_value():
    for seed in range(1, 6):
        small, big = deal(seed=seed, cards_per_hand=4), deal(seed=seed, cards_per_hand=5)
        assert small.cards_left() < MIN_CARDS <= big.cards_left()
        assert net_guess(small) == small.score().value
        assert isinstance(net_guess(big), int) and abs(net_guess(big) - _net().value(big)) <= 0.5


def test_the_values_do_not_depend_on_the_first_guess(monkeypatch):
    # the network guessing on small positions too, so that the pure-Python reference can check them
    monkeypatch.setattr(value_net, "MIN_CARDS", 0)
    moved = 0
    for pos in random_positions(30, seed=7):
        if pos.cards_left() > 20 or pos.is_over():
            continue
        moved += net_guess(pos) != pos.score().value
        want = solve(pos, mode="all", engine="python" if pos.cards_left() <= 8 else "c", line=False, guess="score")
        got = solve(pos, mode="all", line=False, guess="net")
        assert got.value == want.value
        assert [(m.move, m.value) for m in got.moves] == [(m.move, m.value) for m in want.moves]
    assert moved >= 5  # the guesses differed: the searches started apart
    monkeypatch.undo()
    for seed in (1, 2, 3):  # where the network guesses by default: 6 cards a hand, the core
        pos = deal(seed=seed, cards_per_hand=6)
        assert solve(pos, mode="best", line=False, guess="net").value == \
            solve(pos, mode="best", line=False, guess="score").value


def test_an_unknown_guess_is_refused():
    with pytest.raises(ValueError, match="guess must be net or score"):
        solve(deal(seed=1, cards_per_hand=2), mode="best", guess="oracle")


@pytest.mark.parametrize("cards", [4, 5, 6])
def test_the_shipped_network_guesses_closer_than_the_score_so_far(cards):
    """(the network's own value, also below MIN_CARDS, where the guess does not use it)"""
    # seeds 1-30, every other one a play later (the other team to move): the training
    # endgames were dealt from seeds 200000 and up
    err_net = err_score = 0.0
    for seed in range(1, 31):
        pos = deal(seed=seed, cards_per_hand=cards)
        if seed % 2:
            pos.push(pos.legal_moves()[0])
        value = solve(pos, mode="best", line=False).value
        err_net += abs(value - _net().value(pos))
        err_score += abs(value - pos.score().value)
    assert err_net < 0.6 * err_score, (err_net, err_score)
