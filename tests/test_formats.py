"""JSON formats: schemas, round trips, named problems, atomic writes."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from referencing import Registry, Resource

from scopone.deal import deal
from scopone.errors import FormatError, IllegalMoveError, PositionError
from scopone.formats import (
    GameRecord, game_from_dict, load_game, load_position, position_from_dict, position_to_dict,
    write_json_atomic,
)
from scopone.observation import observe
from scopone.players import RandomPlayer
from scopone.rules import PRESETS

EX = Path(__file__).resolve().parent.parent / "examples"


def _schema(name):
    return json.loads(resources.files("scopone").joinpath("schemas", name).read_text())


def _validator(name):
    pos = _schema("position.schema.json")
    registry = Registry().with_resource("position.schema.json", Resource.from_contents(pos)).with_resource(
        pos["$id"], Resource.from_contents(pos))
    return jsonschema.Draft202012Validator(_schema(name), registry=registry)


@pytest.mark.parametrize("path", sorted(p.name for p in EX.glob("*.json") if p.name != "game.json" and p.name != "puzzles.json"))
def test_example_positions_match_schema(path):
    data = json.loads((EX / path).read_text())
    _validator("position.schema.json").validate(data)
    load_position(EX / path)


def test_example_game_matches_schema():
    _validator("game.schema.json").validate(json.loads((EX / "game.json").read_text()))


@pytest.mark.parametrize("rules", sorted(PRESETS))
@pytest.mark.parametrize("seed", range(5))
def test_position_and_game_round_trip(rules, seed):
    import random

    r = PRESETS[rules]
    start = deal(seed, r)
    pos = start.copy()
    rng = random.Random(seed)
    moves = []
    for _ in range(rng.randrange(0, 41 - pos.cards_left() % 4 if pos.cards_left() else 1)):
        if pos.is_over():
            break
        m = RandomPlayer().choose(observe(pos), rng)
        moves.append(m.text())
        pos.push(m)
    d = position_to_dict(pos)
    _validator("position.schema.json").validate(d)
    assert position_from_dict(json.loads(json.dumps(d))) == pos
    rec = GameRecord(start, moves)
    g = rec.to_dict()
    _validator("game.schema.json").validate(g)
    again = game_from_dict(json.loads(json.dumps(g)))
    assert again.replay() == pos.copy()


def test_game_with_start_position():
    start = deal(2, cards_per_hand=3)
    rec = GameRecord(start, [m.text() for m in start.legal_moves()[:1]])
    g = rec.to_dict()
    assert "start" in g
    _validator("game.schema.json").validate(g)
    assert game_from_dict(g).replay().cards_left() == 11


def test_every_problem_is_reported_with_its_field():
    d = json.loads((EX / "opening.json").read_text())
    d["hands"][0][0] = "11D"
    d["table"] = ["7Z"]
    d["to_move"] = 9
    d["colour"] = "red"
    with pytest.raises(PositionError) as e:
        position_from_dict(d, "x.json")
    fields = [p.split(":")[1].strip() for p in e.value.problems]
    assert {"hands[0][0]", "table[0]", "to_move", "colour"} <= set(fields), e.value.problems
    assert all(p.startswith("x.json: ") for p in e.value.problems)


def test_illegal_record_move_names_its_index():
    rec = load_game(EX / "game.json")
    rec.moves[3] = "10Dx9C"
    with pytest.raises(IllegalMoveError, match=r"moves\[3\]"):
        rec.replay("g.json")


def test_atomic_write_leaves_nothing_on_failure(tmp_path):
    out = tmp_path / "x.json"
    with pytest.raises(TypeError):
        write_json_atomic(out, {"bad": object()})
    assert list(tmp_path.iterdir()) == []
    write_json_atomic(out, {"ok": [1, 2]})
    assert json.loads(out.read_text()) == {"ok": [1, 2]}


@pytest.mark.parametrize("field,value,says", [
    ("scope", {"A": 0, "C": 1}, "scope.C: unknown team"),
    ("scope", None, "scope: expected"), ("scope", False, "scope: expected"), ("scope", 0, "scope: expected"),
    ("captured", None, "captured: expected"), ("captured", "", "captured: expected"),
    ("table", None, "table: expected a list"), ("table", 0, "table: expected a list"),
    ("table", "", "table: expected a list"),
])
def test_fields_given_with_the_wrong_kind_are_errors(field, value, says):
    from scopone.deal import deal

    d = position_to_dict(deal(seed=1))
    d[field] = value
    with pytest.raises(PositionError, match=says):
        position_from_dict(d)


def test_a_key_given_twice_is_an_error(tmp_path):
    from scopone.formats import read_json

    path = tmp_path / "dup.json"
    path.write_text('{"to_move": 0, "to_move": 1}')
    with pytest.raises(FormatError, match="to_move: the key is given twice"):
        read_json(path)
