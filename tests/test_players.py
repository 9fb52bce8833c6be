"""Players: the information barrier, legal moves everywhere, the sampler, each heuristic rule."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from math import factorial

import pytest

from scopone.cards import FULL_DECK, RANK_MASK, parse_cards
from scopone.deal import deal
from scopone.errors import ScoponeError
from scopone.observation import observe
from scopone.players import Heuristic, make_player
from scopone.players.base import Player
from scopone.players.sampling import consistent_deals, deal_count, iter_deals, sample_deal
from scopone.position import Position
from scopone.rules import Rules, parse_rules
from scopone.solver.reference import minimax

FAIR = ["random", "greedy", "heuristic", "pimc:samples=3"]


def random_positions(count: int, seed: int, rules: Rules | None = None):
    """Positions from random play of random deals, each with its history (seat, move)."""
    rng = random.Random(seed)
    for _ in range(count):
        pos = deal(rng.randrange(2**32), rules, first=rng.randrange(4))
        plays = rng.randrange(40 if pos.rules.deal == "scientifico" else 36)
        history = []
        for _ in range(plays):
            m = rng.choice(pos.legal_moves())
            history.append((pos.to_move, m))
            pos.push(m)
        yield pos, tuple(history)


def build(hands: list[str], table: str = "", to_move: int = 0, rules: str = "scientifico",
          gone_a: str = "", last: int | None = None) -> Position:
    """A position from hand texts: the cards nobody holds go to team B's pile
    (``gone_a`` to team A's), so they count as played (seen by everyone)."""
    hs = [parse_cards(h) for h in hands]
    t = parse_cards(table)
    pa = parse_cards(gone_a)
    pb = FULL_DECK & ~(hs[0] | hs[1] | hs[2] | hs[3] | t | pa)
    return Position(hs, t, (pa, pb), (0, 0), to_move, 1 if last is None else last, parse_rules(rules))


# ---------------------------------------------------------------- the barrier
@pytest.mark.parametrize("spec", FAIR)
def test_a_player_sees_only_its_observation(spec):
    # swapping the hidden hands for any consistent alternative never changes a choice
    for pos, history in random_positions(25 if spec.startswith("pimc") else 150, seed=11):
        obs = observe(pos, history=history)
        chosen = make_player(spec).choose(obs, random.Random(5))
        for k in range(2):
            other = list(sample_deal(obs, random.Random(100 + k)))
            alt = Position(other, pos.table, tuple(pos.piles), tuple(pos.scope), pos.to_move, pos.last_capture,
                           pos.rules)
            assert make_player(spec).choose(observe(alt, history=history), random.Random(5)) == chosen


def test_observation_holds_no_other_hand():
    pos = deal(seed=4, cards_per_hand=6)
    obs = observe(pos, 1)
    assert obs.full is None
    assert obs.unseen == pos.hands[0] | pos.hands[2] | pos.hands[3]
    others = {h for s, h in enumerate(pos.hands) if s != 1}
    values = [getattr(obs, f) for f in obs.__dataclass_fields__ if f != "full"]
    assert not others & {v for v in values if isinstance(v, int)}


def test_observation_history_from_the_move_stack():
    pos = deal(seed=2, first=3)
    for _ in range(5):
        pos.push(pos.legal_moves()[0])
    obs = observe(pos)
    assert [s for s, _ in obs.history] == [3, 0, 1, 2, 3]
    assert [m for _, m in obs.history] == pos.move_stack


# ---------------------------------------------------------------- legality
@pytest.mark.parametrize("spec", ["random", "greedy", "heuristic"])
@pytest.mark.parametrize("rules", ["scientifico", "classico+quindici", "assi", "free+napola+re_bello"])
def test_players_only_return_legal_moves(spec, rules):
    player = make_player(spec)
    rng = random.Random(3)
    n = 0
    for pos, history in random_positions(600, seed=hash(rules) & 0xFFFF, rules=parse_rules(rules)):
        if pos.is_over():
            continue
        m = player.choose(observe(pos, history=history), rng)
        assert pos.is_legal(m), (spec, pos.line(), m)
        n += 1
    assert n > 500


@pytest.mark.parametrize("rules", ["scientifico", "classico", "assi"])
def test_pimc_and_dd_only_return_legal_moves(rules):
    pimc, dd = make_player("pimc:samples=2"), make_player("dd")
    rng = random.Random(3)
    for pos, history in random_positions(40, seed=9, rules=parse_rules(rules)):
        if pos.is_over():
            continue
        assert pos.is_legal(pimc.choose(observe(pos, history=history), rng))
        assert pos.is_legal(dd.choose(observe(pos, history=history, cheat=True), rng))


@pytest.mark.parametrize("spec", FAIR + ["dd"])
def test_every_player_is_reproducible_from_a_seed(spec):
    for pos, history in random_positions(8, seed=21):
        if pos.is_over():
            continue
        obs = observe(pos, history=history, cheat=True)
        a = make_player(spec).choose(obs, random.Random(8))
        b = make_player(spec).choose(obs, random.Random(8))
        assert a == b


def test_players_follow_the_protocol_and_specs_are_checked():
    for spec in FAIR + ["dd"]:
        assert isinstance(make_player(spec), Player)
    for bad, says in [("minimax", "unknown player"), ("pimc:samples", "needs a value"),
                      ("pimc:samples=x", "is not int"), ("pimc:samples=0", "at least 1"),
                      ("greedy:depth=2", "greedy takes no options"), ("pimc:rollout=dd", "must not see the hidden hands"), ("pimc:rollout=pimc", "choose random, greedy or heuristic")]:
        with pytest.raises(ScoponeError, match=says):
            make_player(bad)


# ---------------------------------------------------------------- pimc and dd
def test_pimc_with_every_deal_enumerated_plays_a_best_expected_move():
    # 2 cards per hand: all 90 deals of the unseen cards are enumerated, and every
    # move is valued exactly on each; check against plain minimax averaged by hand
    for seed in range(6):
        pos = deal(seed=seed, cards_per_hand=2)
        obs = observe(pos)
        moves = obs.legal_moves()
        totals = Counter()
        for hands in iter_deals(obs):
            world = obs.position(hands)
            for m in moves:
                world.push(m)
                totals[m] += minimax(world)
                world.pop()
        sign = 1 if obs.team == 0 else -1
        best = max(sign * totals[m] for m in moves)
        player = make_player("pimc:samples=1000")
        chosen = player.choose(obs, random.Random(1))
        assert sign * totals[chosen] == best
        assert player.counts["exact"] + player.counts["forced"] == 1


def test_dd_plays_a_double_dummy_best_move_in_endgames():
    dd = make_player("dd")
    for seed in range(8):
        pos = deal(seed=seed, cards_per_hand=2)
        values = {}
        for m in pos.legal_moves():
            pos.push(m)
            values[m] = minimax(pos)
            pos.pop()
        best = (max if pos.to_move % 2 == 0 else min)(values.values())
        assert values[dd.choose(observe(pos, cheat=True), random.Random(0))] == best


def test_dd_refuses_an_observation_without_the_position():
    with pytest.raises(ValueError, match="cheats"):
        make_player("dd").choose(observe(deal(seed=1, cards_per_hand=3)), random.Random(0))


# ---------------------------------------------------------------- the sampler
def _brute_force_deals(obs):
    """Every assignment of the unseen cards to the other seats, by permutations."""
    cards = [c for c in range(40) if obs.unseen >> c & 1]
    others = [s for s in range(4) if s != obs.seat]
    out = set()
    for perm in itertools.permutations(cards):
        hands, i = [0, 0, 0, 0], 0
        hands[obs.seat] = obs.hand
        for s in others:
            for c in perm[i:i + obs.hand_sizes[s]]:
                hands[s] |= 1 << c
            i += obs.hand_sizes[s]
        out.add(tuple(hands))
    return out


@pytest.mark.parametrize("cards,plays", [(2, 0), (2, 1), (2, 3), (1, 2)])
def test_the_sampler_enumerates_exactly_the_consistent_deals(cards, plays):
    pos = deal(seed=5, cards_per_hand=cards)
    for _ in range(plays):
        pos.push(pos.legal_moves()[0])
    obs = observe(pos)
    expected = _brute_force_deals(obs)
    got = list(iter_deals(obs))
    assert len(got) == len(set(got)) == len(expected)
    assert set(got) == expected
    sizes = [obs.hand_sizes[s] for s in range(4) if s != obs.seat]
    assert deal_count(obs) == factorial(sum(sizes)) // (factorial(sizes[0]) * factorial(sizes[1]) * factorial(sizes[2]))
    w = consistent_deals(obs, len(expected), random.Random(1))
    assert w.exact and set(w.hands) == expected
    w = consistent_deals(obs, len(expected) - 1, random.Random(1))
    assert not w.exact and len(w.hands) == len(expected) - 1 and set(w.hands) <= expected


def test_sampled_deals_are_uniform():
    obs = observe(deal(seed=8, cards_per_hand=3))  # 9 unseen cards, 3 to each other seat
    rng = random.Random(2)
    n = 6000
    holder = Counter()
    for _ in range(n):
        hands = sample_deal(obs, rng)
        assert hands[obs.seat] == obs.hand
        assert hands[0] | hands[1] | hands[2] | hands[3] == obs.hand | obs.unseen
        for s in range(4):
            if s != obs.seat:
                for c in range(40):
                    if hands[s] >> c & 1:
                        holder[s, c] += 1
    # each unseen card is with each other seat a third of the time (binomial sd ~ 37)
    for (s, c), k in holder.items():
        assert abs(k - n / 3) < 5 * (n * (1 / 3) * (2 / 3)) ** 0.5, (s, c, k)


# ---------------------------------------------------------------- the heuristic, rule by rule
def _terms(pos, move_text):
    obs = observe(pos, history=())
    moves = obs.legal_moves()
    m = pos.parse_move(move_text)
    return dict(zip(("take", "risk", "lay", "partner", "spariglio"), Heuristic().terms(obs, moves)[moves.index(m)]))


def _choice(pos):
    return Heuristic().choose(observe(pos, history=()), random.Random(0)).text()


def test_rule_take_value_prefers_the_settebello():
    # 7C can take the settebello or 5S can take 5B: take the settebello
    pos = build(["7C5S9C", "1S2S3S", "4S6S8S", "1B2B3B"], "7D5B")
    assert _choice(pos) == "7Cx7D"
    assert _terms(pos, "7Cx7D")["take"] > _terms(pos, "5Sx5B")["take"] + 0.9


def test_rule_take_value_counts_a_scopa():
    pos = build(["6C9C", "1S2S", "4S8S", "1B2B"], "2C4B")
    assert _choice(pos) == "6Cx2C+4B"
    assert _terms(pos, "6Cx2C+4B")["take"] >= 1.0


def test_rule_never_leave_a_sweep_when_avoidable():
    # laying 2C leaves 3B+2C = 5 and East may hold a 5; laying 9S leaves 12 (no sweep)
    pos = build(["2C9S", "5D5C", "5S6S", "5B6B"], "3B", last=1)
    assert _choice(pos) == "9S"
    assert _terms(pos, "2C")["risk"] < -0.5
    assert _terms(pos, "9S")["risk"] == 0


def test_rule_count_what_is_gone():
    # the same lay with every 5 played: nobody can sweep 3B+2C, so it carries no sweep risk
    unsafe = build(["2C9S", "5D5C", "5S6S", "5B6B"], "3B")
    safe = build(["2C9S", "4D6C", "4S6S", "4B6B"], "3B")  # the 5s are in a pile
    assert _terms(safe, "2C")["risk"] > _terms(unsafe, "2C")["risk"] + 0.5
    # a rank with the other three cards gone is safe to lay on an empty table
    pos = build(["8D9C", "1S2S", "4S6S", "1B2B"], "")  # 8C 8S 8B are in a pile
    assert _terms(pos, "8D")["risk"] == 0


def test_rule_keep_the_settebello_safe():
    # with a 7 unseen, laying the settebello risks it; with every 7 gone it still costs its value
    pos = build(["7D8C", "7S1S", "4S6S", "1B2B"], "")
    assert _choice(pos) == "8C"
    # East holds 2 of the 6 unseen cards, one of them the 7S: a 1/3 chance of a
    # scopa with the settebello, a 7 and a card (about 1.0 + 0.3 + 0.3 + 0.3 + 1.0)
    assert _terms(pos, "7D")["risk"] < -0.8
    gone = build(["7D8C", "2S1S", "4S6S", "1B2B"], "")
    assert _choice(gone) == "8C"
    assert _terms(gone, "7D")["lay"] < _terms(gone, "8C")["lay"] - 0.15


def test_rule_play_to_the_partners_captures():
    # a laid 9 may be taken by the partner (9s unseen); a laid 6 with the other 6s gone may not
    pos = build(["9C6D", "1S2S", "9S9B", "1B2B"], "")
    assert _terms(pos, "9C")["partner"] > 0
    assert _terms(pos, "6D")["partner"] == 0


def test_rule_spariglio_for_the_mano_team_accoppiare_for_the_other():
    # 7C takes 3B+4B by sum (ranks 7, 3 and 4 change parity) or 5S takes 5B (a pair: no change)
    mano = build(["7C5S9C", "1S2S8S", "4S6S8B", "1B2B8D"], "3B4B5B", to_move=0)
    # 12 cards left and seat 0 to move: 28 plays made, so seat 0 led the deal (mano is team A)
    assert _terms(mano, "5Sx5B")["spariglio"] == 0
    breaks = _terms(mano, "7Cx3B+4B")["spariglio"]
    assert breaks != 0
    other = build(["7C5S9C", "1S2S", "4S6S", "1B2B"], "3B4B5B", to_move=0)
    # 9 cards left and seat 0 to move: 31 plays made, so seat 1 led (mano is team B):
    # the same capture now counts the other way
    assert _terms(other, "7Cx3B+4B")["spariglio"] == -breaks
