"""The puzzle generator: themes on hand-checked positions, acceptance, verify, resume."""

from __future__ import annotations

import copy
import json
from importlib import resources

import jsonschema
import networkx as nx
import pytest
from referencing import Registry, Resource

from scopone.cards import FULL_DECK, parse_cards
from scopone.position import Move, Position
from scopone.reasons import finish
from scopone.puzzles import (
    THEMES, Candidate, PuzzleFacts, Rejected, analyse, generate, make_candidate, parse_cards_range,
    tag, verify_puzzle,
)
from scopone.puzzles import themes as th
from scopone.puzzles.ladder import LADDER, rate, random_finds
from scopone.rules import Rules
from scopone.scoring import score_piles


def endgame(hands: list[str], table: str = "", to_move: int = 0, rules: Rules | None = None) -> Position:
    """A valid position: the cards not in hands or on the table alternate between the piles."""
    hs = [parse_cards(h) for h in hands]
    t = parse_cards(table)
    rest = FULL_DECK & ~(t | hs[0] | hs[1] | hs[2] | hs[3])
    a = b = 0
    for i, c in enumerate(c for c in range(40) if rest >> c & 1):
        if i % 2:
            b |= 1 << c
        else:
            a |= 1 << c
    return Position(hs, t, (a, b), (0, 0), to_move, 0, rules or Rules())


def line(pos: Position, texts: str, to_end: bool = False) -> tuple[Move, ...]:
    """The moves of ``texts``; with ``to_end`` played on to the end of the deal with
    the first legal move each time (a fixed, easily followed continuation)."""
    work = pos.copy()
    out = []
    for t in texts.split():
        out.append(work.play(t))
    while to_end and not work.is_over():
        out.append(work.legal_moves()[0])
        work.push(out[-1])
    return tuple(out)


def facts(pos, solution, best_line=None, tempting_line="", best_score=None, tempting_score=None, team=None,
          others=(), complete=True):
    """Facts for the theme predicates: the lines are completed to the end of the deal
    (first legal moves; ``complete=False`` leaves them as given) and the scores are
    those of the completed lines unless given."""
    best = line(pos, best_line or solution, to_end=complete)
    tempt = line(pos, tempting_line, to_end=complete) if tempting_line else ()
    zero = score_piles(0, 0, (0, 0), pos.rules)
    end = (lambda ln: finish(pos, ln).result()) if complete else (lambda ln: zero)  # noqa: E731
    return PuzzleFacts(pos, pos.to_move & 1 if team is None else team, line(pos, solution), best, tempt,
                       best_score or end(best), tempting_score or (end(tempt) if tempt else end(best)),
                       tuple(line(pos, o, to_end=complete) for o in others))


SCOPA = endgame(["7D 2C", "9B 1S", "5S 6S", "8C 10C"], "3C 4S")


def test_scopa_theme():
    # completed with first legal moves: after 7Dx3C+4S (a sweep) the deal ends 1-0 in
    # scope; after 2C nobody sweeps (North 5Sx1S+4S, East 9Bx2C+7D leave cards behind)
    assert th.scopa(facts(SCOPA, "7Dx3C+4S", tempting_line="2C", others=["2C"]))
    assert not th.scopa(facts(SCOPA, "2C", tempting_line="7Dx3C+4S", others=["7Dx3C+4S"]))
    # a sweep on the line earns nothing when a wrong move nets as many scope
    assert not th.scopa(facts(SCOPA, "7Dx3C+4S", tempting_line="7Dx3C+4S"))


def test_scopa_theme_counts_a_sweep_later_on_the_best_line():
    # South's 4C sweeps nothing; on the line (first legal moves) West's 10Cx4C+6C leaves 9C
    # alone and South's 9Bx9C sweeps it: 1-0 in scope.  After 9Bx9C at once, nobody sweeps.
    pos = Position.from_line("4C9B/2S4S/2C6B/10C10B 6C9C 3S3B5D5C5S5B6D6S7C7B9D9S10D10S "
                             "1D1C1S1B2D2B3D3C4D4B7D7S8D8C8S8B 0-0 0 B scientifico")
    f = facts(pos, "4C", tempting_line="9Bx9C", others=["9Bx9C"])
    assert not th._makes_scopa(pos, f.solution[0])
    assert f.best_score.scope == (1, 0) and f.tempting_score.scope == (0, 0)
    assert th.scopa(f)


def test_stop_scopa_theme_needs_every_other_move_to_leave_a_sweep():
    # after 8B the table is 5C 8B: East's 7B and 1S sweep nothing; after 2C, 7B takes 5C+2C
    pos = endgame(["2C 8B", "7B 1S", "5S 6S", "8C 10C"], "5C")
    assert th.stop_scopa(facts(pos, "8B", tempting_line="2C 7Bx2C+5C", complete=False))
    assert not th.stop_scopa(facts(pos, "2C", tempting_line="8B 7B", complete=False))
    # a third move, 9D, leaves 5C 9D: no sweep either, so not every other move allows one
    three = endgame(["2C 8B 9D", "7B 1S 3B", "5S 6S 3S", "8C 10C 4B"], "5C")
    assert len(three.legal_moves()) == 3
    assert not th.stop_scopa(facts(three, "8B", tempting_line="2C 7Bx2C+5C", complete=False))


def test_sacrifice_theme():
    pos = endgame(["7D 9C", "5B 1S", "5S 6S", "8C 10C"], "7B")
    assert th.sacrifice(facts(pos, "9C"))
    assert not th.sacrifice(facts(pos, "7Dx7B"))


def test_partner_setup_theme():
    pos = endgame(["3C 9C", "5B 1B", "3S 6S", "8C 10C"], "10D")
    assert th.partner_setup(facts(pos, "3C", best_line="3C 5B 3Sx3C"))
    assert not th.partner_setup(facts(pos, "3C", best_line="3C 5B 6S"))
    assert not th.partner_setup(facts(pos, "9C", best_line="9C 5B 3S"))


def test_spariglio_theme():
    pos = endgame(["7D 2D", "5B 1B", "3S 6S", "8C 10C"], "3C 4S 2B")
    assert th.spariglio(facts(pos, "7Dx3C+4S", tempting_line="2Dx2B"))
    assert not th.spariglio(facts(pos, "2Dx2B", tempting_line="7Dx3C+4S"))


def test_refuse_scopa_theme():
    # South may sweep 9S with 9D.  Completed with first legal moves:
    #   9Dx9S (scopa) · 1S · 3C · 6B · 2B · 5Bx2B+3C · 4B · West 7Dx1S+6B   -> West takes the settebello
    #   2B · 1S · 3Cx1S+2B · 6B · 9Dx9S · 5B · 4B · 7D   -> South's 9Dx9S is the last capture: the
    #   settebello left on the table goes to North–South
    pos = Position.from_line("2B9D/1S5B/3C4B/6B7D 9S 1D1B2D2C2S3D3S3B4C4S5C7C7S7B8S8B9B "
                             "1C4D5D5S6D6C6S8D8C9C10D10C10S10B 1-0 0 B scientifico")
    refuse = facts(pos, "2B", tempting_line="9Dx9S", others=["9Dx9S"])
    assert refuse.best_score.settebello_points == (1, 0) and refuse.tempting_score.settebello_points == (0, 1)
    assert th.refuse_scopa(refuse)
    assert not th.refuse_scopa(facts(pos, "9Dx9S", tempting_line="2B", others=["2B"]))
    # in SCOPA the sweep takes the settebello itself: declining it keeps nothing
    assert not th.refuse_scopa(facts(SCOPA, "2C", tempting_line="7Dx3C+4S", others=["7Dx3C+4S"]))


def test_empty_table_theme():
    assert th.empty_table(facts(endgame(["2C 8B", "7B 1S", "5S 6S", "8C 10C"]), "8B"))
    assert not th.empty_table(facts(SCOPA, "2C"))


def test_last_capture_theme():
    pos = endgame(["5D 8D", "5C 1B", "3S 6S", "8C 10C"], "5S")
    assert th.last_capture(facts(pos, "5Dx5S", tempting_line="8D 5Cx5S", complete=False))
    assert not th.last_capture(facts(pos, "8D", best_line="8D 5Cx5S", tempting_line="5Dx5S", complete=False))
    # against every wrong move: one wrong line where A still captures last spoils it
    others = ["8D 5Cx5S", "8D 1B 3S 8Cx8D 5Dx5S"]
    assert not th.last_capture(facts(pos, "5Dx5S", tempting_line="8D 5Cx5S", others=others, complete=False))


@pytest.mark.parametrize("category,attr_pile", [
    ("settebello", "7D"), ("denari", "1D 2D 3D 4D 5D 6D"), ("carte", None), ("primiera", "7C 7S 7B 7D"),
])
def test_category_themes(category, attr_pile):
    pos = SCOPA
    if category == "carte":
        good_a = parse_cards(" ".join(f"{r}{s}" for r in range(1, 7) for s in "CSB")) | parse_cards("8C 8S 8B")
    else:
        good_a = parse_cards(attr_pile)
    good = score_piles(good_a, FULL_DECK & ~good_a, (0, 0), Rules())
    bad = score_piles(FULL_DECK & ~good_a, good_a, (0, 0), Rules())
    pred = th.PREDICATES[category]
    assert pred(facts(pos, "2C", best_score=good, tempting_score=bad))
    assert not pred(facts(pos, "2C", best_score=bad, tempting_score=good))
    # seen from team B the same scores mean the opposite
    assert not pred(facts(pos, "2C", best_score=good, tempting_score=bad, team=1))


def test_a_category_tied_on_the_best_line_is_no_theme_nor_question():
    # 5 Denari each on the best line (a tie: nobody scores it), 4 to 6 after the tempting move
    tie_a = parse_cards("1D 2D 3D 4D 5D 7C")
    worse_a = parse_cards("1D 2D 3D 4D 7C 1C")
    tie = score_piles(tie_a, FULL_DECK & ~tie_a, (0, 0), Rules())
    worse = score_piles(worse_a, FULL_DECK & ~worse_a, (0, 0), Rules())
    assert tie.denari == (5, 5) and tie.denari_points == (0, 0) and worse.denari_points == (0, 1)
    f = facts(SCOPA, "2C", best_score=tie, tempting_score=worse)
    assert not th.PREDICATES["denari"](f)
    assert "denari" not in th.question(0, 1, tag(f))


def test_variant_themes_only_with_their_switch():
    for name, rules, pile in [("re-bello", Rules(re_bello=True), "10D"), ("napola", Rules(napola=True), "1D 2D 3D 4D")]:
        pos = endgame(["7C 2C", "9B 1S", "5S 6S", "8C 10C"], "3C 4S", rules=rules)
        a = parse_cards(pile)
        good = score_piles(a, FULL_DECK & ~a, (0, 0), rules)
        bad = score_piles(FULL_DECK & ~a, a, (0, 0), rules)
        assert th.PREDICATES[name](facts(pos, "2C", best_score=good, tempting_score=bad))
        plain = endgame(["7C 2C", "9B 1S", "5S 6S", "8C 10C"], "3C 4S")
        g0 = score_piles(a, FULL_DECK & ~a, (0, 0), Rules())
        b0 = score_piles(FULL_DECK & ~a, a, (0, 0), Rules())
        assert not th.PREDICATES[name](facts(plain, "2C", best_score=g0, tempting_score=b0))


def test_tag_uses_closed_vocabulary():
    f = facts(SCOPA, "7Dx3C+4S", tempting_line="2C")
    assert set(tag(f)) <= set(THEMES) and "scopa" in tag(f)


def test_question_wording():
    # values are A - B; the question gives them from the solving side
    assert th.question(1, -2, ["scopa"]) == ("East to play: keep the deal at +2 for East–West against any defence "
                                             "(make a scopa).")
    assert th.question(2, -1, ["sacrifice"]) == "North to play: hold the deal to −1 for North–South against any defence."


def test_random_rung_never_finds_a_three_way_choice():
    pos = endgame(["7D 9C 2C", "5B 1S 2S", "5S 6S 3B", "8C 10C 4B"], "7B")
    assert len(pos.legal_moves()) == 3
    assert not random_finds(pos, [pos.legal_moves()[0]])
    assert rate(pos, [pos.legal_moves()[0]]).level >= 2
    assert [r.level for r in LADDER] == sorted(r.level for r in LADDER)


def test_parse_cards_range():
    assert parse_cards_range("4-6") == (4, 6)
    with pytest.raises(ValueError):
        parse_cards_range("7-3")


def _accepted(n=3, cards=(3, 4)):
    out, i = [], 0
    while len(out) < n:
        cand = make_candidate(11, i, cards, Rules())
        i += 1
        try:
            out.append(analyse(cand))
        except Rejected:
            pass
    return out


@pytest.fixture(scope="module")
def puzzles():
    return _accepted()


def test_accepted_puzzles_meet_the_criteria(puzzles):
    for p in puzzles:
        sign = 1 if p["team"] == "A" else -1
        vals = sorted((sign * m["value"] for m in p["moves"]), reverse=True)
        assert len(vals) >= 3 and vals[0] - vals[1] >= 1
        assert sign * p["value"] == vals[0]
        assert p["tempting"]["move"] != p["solution"][0]
        assert p["difficulty"]["level"] >= 2
        assert verify_puzzle(p) == []


def _schema_validator():
    files = resources.files("scopone").joinpath("schemas")
    pos = json.loads(files.joinpath("position.schema.json").read_text())
    reg = Registry().with_resource("position.schema.json", Resource.from_contents(pos))
    return jsonschema.Draft202012Validator(json.loads(files.joinpath("puzzles.schema.json").read_text()), registry=reg)


def test_puzzle_file_matches_schema(puzzles):
    _schema_validator().validate({"format": "scopone-puzzles/1", "rules": "scientifico", "puzzles": puzzles})


@pytest.mark.parametrize("tamper", ["value", "move_value", "tree_edge", "themes", "tempting", "solution"])
def test_verify_catches_a_wrong_claim(puzzles, tamper):
    p = copy.deepcopy(puzzles[0])
    if tamper == "value":
        p["value"] += 1
    elif tamper == "move_value":
        p["moves"][-1]["value"] -= 1
    elif tamper == "tree_edge":
        p["tree"]["edges"][0]["move"] = p["tempting"]["move"]
    elif tamper == "themes":
        p["themes"] = [t for t in THEMES if t not in p["themes"]][:1]
    elif tamper == "tempting":
        p["tempting"]["refutation"] = p["tempting"]["refutation"][:-1]
    elif tamper == "solution":
        p["solution"][0] = p["tempting"]["move"]
    assert verify_puzzle(p) != []


def test_generate_resumes_and_workers_agree(tmp_path):
    one = tmp_path / "one.json"
    d1 = generate(one, 2, seed=5, cards=(3, 3))
    (key, examined), = d1["progress"].items()
    assert key.startswith("5:3-3::margin=2:view=all:players=heuristic")
    d2 = generate(one, 3, seed=5, cards=(3, 3))
    assert [p["id"] for p in d2["puzzles"][:2]] == [p["id"] for p in d1["puzzles"]]
    assert d2["progress"][key] > examined
    par = tmp_path / "par.json"
    d3 = generate(par, 3, seed=5, cards=(3, 3), workers=2)
    assert [p["id"] for p in d3["puzzles"]] == [p["id"] for p in d2["puzzles"]]
    ids = [p["id"] for p in d3["puzzles"]]
    assert len(set(ids)) == len(ids)


def _shipped():
    from pathlib import Path

    from scopone.formats import read_json

    return read_json(Path(__file__).resolve().parent.parent / "examples" / "puzzles.json")


def test_shipped_example_puzzles_verify():
    # the whole file's claims are re-solved by the slow test below; here a sample of
    # each kind (double dummy, seat's view, a spariglio hunt's) and every count
    from scopone.puzzles import verify_file

    data = _shipped()
    _schema_validator().validate(data)
    puzzles = data["puzzles"]
    assert len(puzzles) >= 40
    assert len({t for p in puzzles for t in p["themes"]}) >= 8
    assert any("spariglio" in p["themes"] for p in puzzles)
    assert sum(p.get("view") == "seat" for p in puzzles) >= 3
    assert all("explanation" in p and p["margin"] >= 1 for p in puzzles)
    sample = (puzzles[:3] + [p for p in puzzles if p.get("view") == "seat"][:2]
              + [p for p in puzzles if "spariglio" in p["themes"]][:1])
    assert verify_file({**data, "puzzles": sample}) == {}


@pytest.mark.slow
def test_every_shipped_example_puzzle_verifies():
    from scopone.puzzles import verify_file

    assert verify_file(_shipped()) == {}


def test_first_unique_best_agrees_with_exact_values():
    # the cheap first-move check (root value + null-window tests) must give the
    # same answer as comparing the exact values of every move
    from scopone.deal import deal
    from scopone.puzzles.analyse import Analyst

    found = 0
    for seed in range(60):
        pos = deal(seed=seed, cards_per_hand=2 + seed % 3, first=seed % 4,
                   policy="random" if seed % 2 else "greedy")
        cheap = Analyst(pos).first_unique_best(pos)
        exact = Analyst(pos).unique_best(pos)
        assert cheap == exact, pos.line()
        found += exact is not None
    assert 5 <= found <= 55  # both answers occur


def test_ctrl_c_during_analysis_is_an_interruption_not_a_result(monkeypatch):
    # the driver turns Ctrl-C into an incomplete result; the analyst must not read it as values
    import importlib

    an_mod = importlib.import_module("scopone.puzzles.analyse")

    class Interrupted:
        def search(self, pos, alpha, beta):
            raise KeyboardInterrupt

        def root_move(self, pos):
            return None

        def stats(self):
            return {}

    monkeypatch.setattr(an_mod, "make_backend", lambda pos, engine: Interrupted())
    with pytest.raises(KeyboardInterrupt):
        analyse(make_candidate(1, 0, (4, 4), Rules()))


def test_verify_catches_a_tree_cut_short(puzzles):
    # delete the replies of a defender node that is not at the end of the deal nor at
    # the solution's depth: the tree no longer answers every defence
    for p in puzzles:
        g = nx.node_link_graph(p["tree"], edges="edges")
        root = p["line"]
        team = p["to_move"] & 1
        cut = [n for n in g if g.out_degree(n) and Position.from_line(n).to_move & 1 != team
               and sum(Position.from_line(m).to_move & 1 == team for m in nx.shortest_path(g, root, n)[:-1]) < 3]
        if cut:
            break
    assert cut, "the fixture's puzzles have defender nodes inside their trees"
    q = copy.deepcopy(p)
    q["tree"]["edges"] = [e for e in q["tree"]["edges"] if e["source"] != cut[0]]
    errs = verify_puzzle(q)
    assert any("has no reply (the tree is cut short)" in e for e in errs), errs
    assert verify_puzzle(p) == []
