"""Puzzle explanations (explain.py) and seat's-view puzzles, on small positions."""

from __future__ import annotations

import copy
import random

import pytest

from scopone.observation import observe
from scopone.players.sampling import sample_deal
from scopone.position import Position
from scopone.puzzles import Candidate, Rejected, analyse, make_candidate, verify_puzzle
from scopone.puzzles.analyse import Analyst, accepts_margin, seat_view
from scopone.puzzles.explain import explain, loss_of, margin
from scopone.rules import Rules
from scopone.solver import solve
from test_reasons import SEVENS


@pytest.fixture(scope="module")
def sevens():
    an = Analyst(SEVENS)
    rows = an.move_lines(SEVENS)
    return rows, explain(SEVENS, rows, SEVENS.parse_move("7Cx7D"), SEVENS.parse_move("3B"))


def test_every_first_move_with_its_value_and_loss(sevens):
    rows, ex = sevens
    # independent values: a fresh solve of every move
    truth = {mv.move.text(): mv.value for mv in solve(SEVENS, mode="all", line=False).moves}
    assert truth == {"7Cx7D": 2, "3B": -2, "9D": -3}
    assert [(m["move"], m["value"], m["loss"]) for m in ex["moves"]] == [("7Cx7D", 2, 0), ("3B", -2, 4), ("9D", -3, 5)]
    assert margin(rows, SEVENS.parse_move("7Cx7D"), 0) == 4
    for m in ex["moves"]:
        end = SEVENS.copy()
        for t in m["line"]:
            end.play(t)
        assert m["line"][0] == m["move"] and end.is_over() and end.result().value == m["value"]


def test_the_words_name_the_refutation(sevens):
    _, ex = sevens
    why = {m["move"]: m["why"] for m in ex["moves"]}
    # after 3B the table is 7D 3B: West's 10C takes both (3 + 7), settebello included
    # (East need not play the 7S, which would have to take the 7D)
    assert why["3B"].startswith("3B loses 4 (later West takes the settebello with 10Cx3B+7D)")
    assert "West's 10Cx3B+7D takes the settebello (7D) (−2 points)" in why["3B"]
    assert ex["tempting"].startswith("3B (the greedy player's choice) loses 4: later West takes the settebello")
    assert "South 7Cx7D (scopa)" in ex["solution"]
    assert "keep the deal at +2 for North–South" in ex["solution"]


def test_loss_is_from_the_solving_side():
    assert loss_of(-1, -3, 1) == 2 and loss_of(2, 3, 0) == 1 and loss_of(3, 3, 1) == 0


def test_margin_rule_accepts_one_point_only_for_a_clear_swing(sevens):
    rows, _ = sevens
    best = SEVENS.parse_move("7Cx7D")
    assert accepts_margin(SEVENS, rows, best, 2) is None
    assert accepts_margin(SEVENS, rows, best, 5) == "margin below 5"


def _generated(n=3, cards=(3, 4), **kw):
    out, i = [], 0
    while len(out) < n:
        try:
            out.append(analyse(make_candidate(21, i, cards, Rules()), min_margin=2, max_value=4, **kw))
        except Rejected:
            pass
        i += 1
    return out


@pytest.fixture(scope="module")
def generated():
    return _generated()


def test_generated_puzzles_explain_every_move_and_hold_the_margin(generated):
    for p in generated:
        sign = 1 if p["team"] == "A" else -1
        vals = {m["move"]: m["value"] for m in p["moves"]}
        assert {m["move"]: m["value"] for m in p["explanation"]["moves"]} == vals
        others = sorted(sign * (p["value"] - v) for m, v in vals.items() if m != p["solution"][0])
        assert p["margin"] == others[0] >= 1
        if p["margin"] == 1:  # only for a named swing
            ones = [m["why"] for m in p["explanation"]["moves"] if m["loss"] == 1]
            assert all(("scop" in w or "settebello" in w or "primiera" in w) for w in ones)
        assert abs(p["value"]) <= 4
        assert p["question"].split(":")[0] in ("South to play", "East to play", "North to play", "West to play")
        assert verify_puzzle(p) == []


def test_verify_catches_a_wrong_explanation(generated):
    p = copy.deepcopy(generated[0])
    p["explanation"]["moves"][-1]["value"] += 1
    assert any("explanation" in e for e in verify_puzzle(p))
    q = copy.deepcopy(generated[0])
    q["margin"] += 1
    assert any(e.startswith("margin") for e in verify_puzzle(q))


# ---------------------------------------------------------------- seat's view
@pytest.fixture(scope="module")
def seat_puzzle():
    i = 0
    while True:
        cand = make_candidate(2, i, (3, 3), Rules())
        i += 1
        try:
            return cand, analyse(cand, min_margin=2, max_value=4, view="seat")
        except Rejected:
            pass


def test_seat_puzzle_records_its_probability(seat_puzzle):
    _, p = seat_puzzle
    assert p["view"] == "seat" and p["seat"]["exact"]
    assert p["seat"]["move"] == p["solution"][0]
    assert 0.5 < p["probability"] == p["seat"]["probability"] <= 1
    assert p["seat"]["margin"] >= 2
    assert verify_puzzle(p) == []


def test_seat_answer_unchanged_when_the_hidden_hands_are_re_dealt(seat_puzzle):
    cand, p = seat_puzzle
    pos = cand.pos
    obs = observe(pos, history=())
    works = 0
    for k in range(12):
        hands = sample_deal(obs, random.Random(k))
        alt = Position(list(hands), pos.table, tuple(pos.piles), tuple(pos.scope), pos.to_move, pos.last_capture,
                       pos.rules)
        view = seat_view(alt, samples=400, seed="re-dealt")
        assert view["move"] == p["seat"]["move"]
        assert view["means"] == p["seat"]["means"] and view["probability"] == p["probability"]
        # and on that deal, double dummy, the answer is a best move about as often as claimed
        vals = {mv.move.text(): mv.value for mv in solve(alt, mode="all", line=False).moves}
        sign = 1 if pos.to_move % 2 == 0 else -1
        works += sign * vals[p["seat"]["move"]] == max(sign * v for v in vals.values())
    assert works >= 3  # a share above one half over every deal; 12 draws rarely fall below a quarter


def test_seat_view_rejects_a_wrong_view_name():
    with pytest.raises(ValueError):
        analyse(Candidate(SEVENS, {}), view="cards")


def test_one_point_margin_needs_a_named_swing():
    from scopone.puzzles.explain import MoveLine
    from test_reasons import LAYS, NINE, TAKES

    takes, lays, nine = (SEVENS.parse_move(t) for t in ("7Cx7D", "3B", "9D"))
    # 3B made to lose only 1: its line loses the scopa, the settebello and the primiera
    swing = [MoveLine(takes, 2, TAKES), MoveLine(lays, 1, LAYS), MoveLine(nine, -3, NINE)]
    assert accepts_margin(SEVENS, swing, takes, 2) is None
    assert accepts_margin(SEVENS, swing, takes, 2, swing=False) == "margin below 2"
    # a 1-point loss whose line is no worse on the swings (9D's line: more denari and cards)
    dull = [MoveLine(takes, 2, TAKES), MoveLine(lays, -2, LAYS), MoveLine(nine, 1, NINE)]
    assert accepts_margin(SEVENS, dull, takes, 2) == "margin 1 without a clear swing"
    assert accepts_margin(SEVENS, dull, takes, 1) is None


def test_seat_difficulty_ladder():
    from scopone.puzzles.ladder import SEAT_LADDER, rate_seat

    # 7Cx7D sweeps the settebello: the greedy player sees it from its own hand
    assert rate_seat(SEVENS, SEVENS.parse_move("7Cx7D")) == {"level": 1, "solved_by": "greedy"}
    # 9D (worth 5 points less) is played by none of them
    assert rate_seat(SEVENS, SEVENS.parse_move("9D")) == {"level": len(SEAT_LADDER) + 1, "solved_by": None}


def test_defences_come_from_the_solution_tree(generated):
    from scopone.formats import position_from_dict
    from scopone.puzzles.explain import defences

    for p in generated:
        pos = position_from_dict(p["position"])
        texts = p["explanation"]["defences"]
        assert texts == defences(pos, p["tree"])
        replies = [e["move"] for e in p["tree"]["edges"] if e["source"] == p["tree"]["edges"][0]["target"]]
        assert len(texts) == min(len(replies), 4)
        assert all(any(f"plays {r}," in t for t in texts) for r in sorted(replies)[:4])


def test_sampled_seat_view_is_reproducible_and_pays_for_its_interval(seat_puzzle):
    cand, p = seat_puzzle
    exact = p["seat"]
    a = seat_view(cand.pos, samples=60, seed="s")
    assert a == seat_view(cand.pos, samples=60, seed="s")  # the same seeded deals: verify can redo it
    assert not a["exact"] and a["samples"] == 60 and a["deals"] == exact["deals"] > 60
    # the sampled margin is the lower end of an interval: below the sample's own mean lead
    sign = 1 if p["team"] == "A" else -1
    means = {m: sign * v for m, v in a["means"].items()}
    lead = min(means[a["move"]] - v for m, v in means.items() if m != a["move"])
    assert a["margin"] < lead
