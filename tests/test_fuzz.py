"""A structured fuzzer through the command line, in-process.

Valid documents (position files, game records, puzzle files, one-line
position strings) are mutated by hypothesis: a value replaced by a hostile one
(null, false, 0, huge or negative numbers, empty or odd strings, other
digits, deep nesting, markup), a field deleted or added, a key given twice.
Every run must end with exit code 0 (accepted) or 2 (one line on stderr
naming the problem), never a traceback; positions that are accepted and
small are solved and checked against the plain minimax reference.
"""

from __future__ import annotations

import json
import random

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scopone.cli import main
from scopone.deal import deal
from scopone.formats import GameRecord, position_to_dict, read_position_arg
from scopone.solver.reference import minimax

SETTINGS = settings(max_examples=120, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

HOSTILE = [None, False, True, 0, -1, 1, 4, 10**30, "9" * 5000, 1.5, "", " ", "x", "7D", "007D", "\u0661S",
           "\uff11S", "7 denari", "<script>alert(1)</script>", [], {}, ["7D"], ["7D", "7D"], ["99Z"],
           {"A": 0}, {"C": 1}, [[[[[]]]]], "scientifico", "SCIENTIFICO", "napola=yes", "B", "A", "-"]


def _paths(doc, prefix=()):
    """Every path into a JSON document."""
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, prefix + (i,))


def _mutate(doc, rng: random.Random):
    """One structural mutation of a JSON document (a deep copy is changed)."""
    doc = json.loads(json.dumps(doc))
    paths = [p for p in _paths(doc) if p]
    path = rng.choice(paths)
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    key = path[-1]
    kind = rng.randrange(4)
    if kind == 0 or not isinstance(parent, (dict, list)):
        parent[key] = rng.choice(HOSTILE)
    elif kind == 1:
        del parent[key]
    elif kind == 2 and isinstance(parent, dict):
        parent[rng.choice(["bogus", "comment", "A", "C", "hands"])] = rng.choice(HOSTILE)
    else:
        parent[key] = [[[[[[rng.choice(HOSTILE)]]]]]]
    return doc


def _text(doc, rng: random.Random) -> str:
    text = json.dumps(doc)
    if rng.random() < 0.1 and text.startswith("{") and len(text) > 2:  # a key given twice
        text = '{"to_move": 1, ' + text[1:]
    if rng.random() < 0.05:
        text = text[: rng.randrange(len(text))]  # cut short
    return text


def _check(result, command):
    assert result.exit_code in (0, 1, 2, 3), (command, result.exit_code, result.output[-500:])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{command}: {type(result.exception).__name__}: {result.exception}")
    if result.exit_code == 2:
        lines = [x for x in result.stderr.splitlines() if x.strip()]
        assert len(lines) == 1 or lines[0].startswith("Usage:"), (command, result.stderr)


def _position_doc(seed: int) -> dict:
    return position_to_dict(deal(seed=seed, cards_per_hand=seed % 3 + 1, first=seed % 4))


@SETTINGS
@given(seed=st.integers(0, 10**6), mutation=st.integers(0, 2**32 - 1))
def test_fuzzed_position_files(tmp_path_factory, seed, mutation):
    rng = random.Random(mutation)
    doc = _position_doc(seed)
    for _ in range(rng.randrange(1, 4)):
        doc = _mutate(doc, rng)
    path = tmp_path_factory.mktemp("fuzz") / "pos.json"
    path.write_text(_text(doc, rng), encoding="utf-8")
    runner = CliRunner()
    for command in (["show", str(path)], ["moves", str(path)], ["solve", str(path), "--json", "--threads", "1"]):
        result = runner.invoke(main, command)
        _check(result, command)
        if command[0] == "solve" and result.exit_code == 0:
            pos = read_position_arg(str(path))
            if pos.cards_left() <= 8:
                assert json.loads(result.stdout)["value"] == minimax(pos)


@SETTINGS
@given(seed=st.integers(0, 10**6), mutation=st.integers(0, 2**32 - 1))
def test_fuzzed_one_line_strings(seed, mutation):
    rng = random.Random(mutation)
    line = deal(seed=seed, cards_per_hand=seed % 3 + 1).line()
    fields = line.split(" ")
    for _ in range(rng.randrange(1, 3)):
        i = rng.randrange(len(fields))
        token = rng.choice([str(x) for x in HOSTILE if not isinstance(x, (list, dict))] + ["+0-0", "00", "0_0-1",
                                                                                         "-/", "/" * 5, "10D10D"])
        fields[i] = token if rng.random() < 0.8 else fields[i] + token
    text = " ".join(fields)
    result = CliRunner().invoke(main, ["show", text])
    _check(result, ["show", text])


@SETTINGS
@given(seed=st.integers(0, 10**6), mutation=st.integers(0, 2**32 - 1))
def test_fuzzed_game_records(tmp_path_factory, seed, mutation):
    rng = random.Random(mutation)
    start = deal(seed=seed, first=seed % 4)
    pos = start.copy()
    for _ in range(rng.randrange(0, 12)):
        pos.push(rng.choice(pos.legal_moves()))
    doc = GameRecord(start, [m.text() for m in pos.move_stack]).to_dict()
    for _ in range(rng.randrange(1, 3)):
        doc = _mutate(doc, rng)
    path = tmp_path_factory.mktemp("fuzz") / "game.json"
    path.write_text(_text(doc, rng), encoding="utf-8")
    for command in (["score", str(path), "--partial"], ["show", str(path)]):
        _check(CliRunner().invoke(main, command), command)


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(mutation=st.integers(0, 2**32 - 1))
def test_fuzzed_puzzle_files(tmp_path_factory, mutation):
    from pathlib import Path

    rng = random.Random(mutation)
    data = json.loads((Path(__file__).resolve().parent.parent / "examples" / "puzzles.json").read_text())
    small = [p for p in data["puzzles"] if len(p["position"]["hands"][p["to_move"]]) <= 3][:2]
    doc = {"format": data["format"], "rules": data["rules"], "puzzles": small}
    doc = _mutate(doc, rng)
    path = tmp_path_factory.mktemp("fuzz") / "puzzles.json"
    path.write_text(_text(doc, rng), encoding="utf-8")
    for command in (["puzzles", "verify", str(path)], ["puzzles", "show", str(path), "--solution"]):
        _check(CliRunner().invoke(main, command), command)


def test_known_hostile_cases():
    # the cases of the hostile-input report, as fixed examples
    runner = CliRunner()
    cases = [
        ["solve", "1S6B7C8D/5C5S6D7B/4D6S7D7S/1C4B8S10B 6C10C 2D2C2S2B3D3C8C8B "
                  "1D1B3S3B4C4S5D5B9D9C9S9B10D10S 0-999 0 B scientifico"],
        ["captures", "1" * 5000 + "D"],
        ["captures", "\u0661S"], ["captures", "001S"],
        ["show", "3D4B6B/3B4C4S/1S4D7B/1D6D7D - 1C1B2S - 0-0 0 B SCIENTIFICO"],
        ["show", "3D4B6B/3B4C4S/1S4D7B/1D6D7D - - - +0-0 0 - scientifico"],
        ["deal", "--rules", "scientifico+priority=free+priority=strict"],
        ["deal", "--rules", "scientifico+napola=yes"],
        ["deal", "-o", ""], ["deal", "-o", "/dev/full"],
    ]
    for command in cases:
        result = runner.invoke(main, command)
        _check(result, command)
        assert result.exit_code == 2, (command, result.output)
