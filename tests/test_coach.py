"""The coach: known blunders flagged with the right loss and reason, both views checked
against independent computations, the seat's view blind to the hidden hands."""

from __future__ import annotations

import json
import random
import statistics

import pytest
from click.testing import CliRunner

from scopone.cli import main
from scopone.coach import CoachSettings, PlayRow, analyse_game, classify
from scopone.coach.analyse import seat_view
from scopone.deal import deal
from scopone.formats import GameRecord, write_json_atomic
from scopone.observation import observe
from scopone.players import make_player
from scopone.players.pimc import Pimc
from scopone.players.sampling import iter_deals, sample_deal
from scopone.position import Position
from scopone.solver.reference import minimax
from test_players import build

FAST = CoachSettings(samples=16, budget=5.0)


def dd_finish(pos: Position, moves: list[str]) -> list[str]:
    """``moves`` then double-dummy play to the end of the deal."""
    pos = pos.copy()
    for m in moves:
        pos.play(m)
    dd = make_player("dd")
    out = list(moves)
    while not pos.is_over():
        m = dd.choose(observe(pos, cheat=True), random.Random(0))
        out.append(m.text())
        pos.push(m)
    return out


def seat_expectation(pos: Position, move_text: str) -> float:
    """The expected final margin (team A) of a move over every deal of the unseen
    cards, by plain minimax on each deal: the seat's view computed naively."""
    obs = observe(pos)
    values = []
    for hands in iter_deals(obs):
        world = obs.position(hands)
        world.play(move_text)
        values.append(minimax(world))
    return statistics.fmean(values)


@pytest.fixture(scope="module")
def settebello_blunder():
    # South lays the settebello while three 7s are unseen (East holds one and sweeps it);
    # laying the 10B is safe (the other 10s are played)
    start = build(["7D10B", "7C2S", "7S3S", "7B4S"], "", to_move=0)
    record = GameRecord(start, dd_finish(start, ["7D"]))
    return start, record, analyse_game(record, FAST)


def test_a_known_blunder_is_flagged_with_its_loss(settebello_blunder):
    start, _, a = settebello_blunder
    row = a.plays[0]
    after = {}
    for m in ("7D", "10B"):
        p = start.copy()
        p.play(m)
        after[m] = minimax(p)
    assert row.dd_kind == "exact"
    assert row.dd_loss == after["10B"] - after["7D"] > 0
    assert row.dd_best == ["10B"]
    # the seat's view: every consistent deal enumerated, the loss is exact
    expect = seat_expectation(start, "10B") - seat_expectation(start, "7D")
    assert row.sv_kind == "enumerated" and row.sv_deals == 90
    assert row.sv_loss == pytest.approx(expect, abs=1e-3)
    assert row.cls == classify(expect) == "blunder"
    assert "gave up the settebello" in row.reasons and "allowed a scopa" in row.reasons


def test_only_the_blunder_is_blamed(settebello_blunder):
    _, _, a = settebello_blunder
    # the later plays are double-dummy best: no loss with all hands seen
    assert all(r.dd_loss == 0 for r in a.plays[1:])
    s = a.summary()
    assert s["0"]["classes"]["blunder"] == 1 and s["0"]["lost_all_hands"] == a.plays[0].dd_loss


def test_a_deal_played_double_dummy_loses_nothing_with_all_hands_seen():
    for seed in (1, 2):
        start = deal(seed=seed, cards_per_hand=3)
        a = analyse_game(GameRecord(start, dd_finish(start, [])), FAST)
        assert all(r.dd_kind in ("exact", "forced") for r in a.plays)
        assert all(r.dd_loss == 0 for r in a.plays)
        assert not any(r.reasons for r in a.plays if r.cls in ("best", "good"))


def test_hindsight_never_blames_a_reasonable_play():
    a = analyse_game(GameRecord(deal(seed=4, cards_per_hand=3), dd_finish(deal(seed=4, cards_per_hand=3), [])), FAST)
    for r in a.plays:
        if r.cls in ("best", "good"):
            assert r.reasons == []
            assert r.unlucky == ((r.dd_loss or 0) > 0)
            assert r.cls == "good" or r.move in r.sv_best


def test_the_seat_view_is_blind_to_the_hidden_hands():
    pos = deal(seed=6, cards_per_hand=3)
    obs = observe(pos)
    played = obs.legal_moves()[0]
    rows = []
    for k, hands in enumerate([tuple(pos.hands), sample_deal(obs, random.Random(3)), sample_deal(obs, random.Random(4))]):
        world = obs.position(hands)
        row = PlayRow(0, pos.to_move, played.text(), world.cards_left(), len(obs.legal_moves()))
        seat_view(world, pos.to_move, (), row, played, CoachSettings(samples=20, enumerate=0), Pimc(samples=20),
                  random.Random(9))
        rows.append((row.sv_moves, row.sv_loss))
    assert rows[0] == rows[1] == rows[2]


def test_sampling_agrees_with_enumeration_on_late_positions():
    for seed in (2, 3, 5):
        pos = deal(seed=seed, cards_per_hand=3)
        played = pos.legal_moves()[0]
        views = {}
        for name, settings in (("enumerated", CoachSettings(samples=2, enumerate=2000)),
                               ("sampled", CoachSettings(samples=300, enumerate=0))):
            row = PlayRow(0, pos.to_move, played.text(), pos.cards_left(), len(pos.legal_moves()))
            seat_view(pos, pos.to_move, (), row, played, settings, Pimc(samples=settings.samples), random.Random(1))
            assert row.sv_kind == name
            views[name] = row.sv_moves
        for exact, sampled in zip(views["enumerated"], views["sampled"]):
            half = (sampled["high"] - sampled["low"]) / 2
            # within 1.7 half-widths of the 95% interval (about 3.3 standard errors)
            assert abs(exact["mean"] - sampled["mean"]) <= 1.7 * half + 1e-9, (seed, exact, sampled)
            assert exact["low"] == exact["high"] == exact["mean"]


def test_analyze_command_json(tmp_path, settebello_blunder):
    _, record, _ = settebello_blunder
    path = tmp_path / "g.json"
    write_json_atomic(path, record.to_dict())
    r = CliRunner().invoke(main, ["analyze", str(path), "--json", "--samples", "8"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert len(d["plays"]) == 8 and d["plays"][0]["cls"] == "blunder"
    assert set(d["summary"]) >= {"0", "1", "2", "3", "all_hands_rows"}
    r = CliRunner().invoke(main, ["analyze", str(path), "--samples", "8"])
    assert r.exit_code == 0 and "blunder" in r.stdout and "per seat" in r.stdout


def test_analyze_rejects_an_illegal_record(tmp_path):
    start = deal(seed=1)
    d = GameRecord(start, ["1B", "7Dx9Z"]).to_dict()
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(d))
    r = CliRunner().invoke(main, ["analyze", str(path)])
    assert r.exit_code == 2
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert len(lines) == 1 and "moves[1]" in lines[0] and "Traceback" not in r.output
    path.write_text("{not json")
    r = CliRunner().invoke(main, ["analyze", str(path)])
    assert r.exit_code == 2 and "not valid JSON" in r.output


def test_mistakes_become_puzzles_that_verify(tmp_path):
    # deal 6 at 3 cards per hand: the first player's worst move (by plain minimax) costs 5 points
    start = deal(seed=6, cards_per_hand=3)
    values = {}
    for m in start.legal_moves():
        p = start.copy()
        p.push(m)
        values[m] = minimax(p)
    sign = 1 if start.to_move % 2 == 0 else -1
    worst = min(values, key=lambda m: sign * values[m])
    record = GameRecord(start, dd_finish(start, [worst.text()]))
    path, out = tmp_path / "g.json", tmp_path / "mistakes.json"
    write_json_atomic(path, record.to_dict())
    r = CliRunner().invoke(main, ["analyze", str(path), "--samples", "16", "--puzzles", str(out), "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["plays"][0]["cls"] in ("mistake", "blunder")
    puzzles = json.loads(out.read_text())["puzzles"]
    assert [p["tempting"]["move"] for p in puzzles][:1] == [worst.text()]
    assert puzzles[0]["tempting"]["by"] == "played" and puzzles[0]["source"]["play"] == 0
    r = CliRunner().invoke(main, ["puzzles", "verify", str(out)])
    assert r.exit_code == 0 and f"{len(puzzles)} of {len(puzzles)} puzzles verified" in r.output


def test_analyze_batch_resumes_and_reports_bad_records(tmp_path):
    paths = []
    for seed in (1, 2):
        start = deal(seed=seed, cards_per_hand=2)
        path = tmp_path / f"g{seed}.json"
        write_json_atomic(path, GameRecord(start, dd_finish(start, [])).to_dict())
        paths.append(str(path))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    out = tmp_path / "all.jsonl"
    r = CliRunner().invoke(main, ["analyze-batch", *paths, str(bad), "-o", str(out), "--samples", "8",
                                  "--workers", "2"])
    assert r.exit_code == 1 and "not valid JSON" in r.stderr
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert [row["game"] for row in rows] == [*paths, str(bad)]
    single = json.loads(CliRunner().invoke(main, ["analyze", paths[0], "--json", "--samples", "8"]).stdout)
    assert [p["dd_loss"] for p in rows[0]["plays"]] == [p["dd_loss"] for p in single["plays"]]
    # resume: nothing left to do
    r = CliRunner().invoke(main, ["analyze-batch", *paths, "-o", str(out), "--samples", "8"])
    assert "wrote 0 analyses" in r.stderr
