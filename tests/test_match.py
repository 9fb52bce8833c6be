"""Matches: paired deals, seat swap, totals, the interval, saving and resuming, the CLI."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys

import pytest
from click.testing import CliRunner

from scopone.cli import main
from scopone.formats import load_game
from scopone.players.match import load_summary, run_match, t_quantile_975
from scopone.rules import Rules


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    d = tmp_path_factory.mktemp("match")
    return d, run_match("heuristic", "random", 6, seed=4, save=d)


def test_paired_deals_use_identical_cards_and_swap_seats(saved):
    d, s = saved
    for r in s.results:
        one, two = (load_game(d / "games" / f"deal-{r['index']:05d}-{k}.json") for k in (1, 2))
        assert one.start == two.start  # same hands, same first seat
        assert one.start.to_move == r["index"] % 4  # the first seat rotates
        assert one.extra["players"] == ["heuristic", "random", "heuristic", "random"]
        assert two.extra["players"] == ["random", "heuristic", "random", "heuristic"]
        assert [g["a_team"] for g in r["games"]] == ["A", "B"]


def test_totals_add_up_to_the_categories_and_to_the_records(saved):
    d, s = saved
    for r in s.results:
        for k, g in enumerate(r["games"], 1):
            for side in "ab":
                assert sum(g["categories"][side].values()) == g["points"][side]
            final = load_game(d / "games" / f"deal-{r['index']:05d}-{k}.json").replay()
            a_team = "AB".index(g["a_team"])
            assert final.result().points == ((g["points"]["a"], g["points"]["b"]) if a_team == 0
                                              else (g["points"]["b"], g["points"]["a"]))
        assert r["diff"] == sum(g["points"]["a"] - g["points"]["b"] for g in r["games"]) / 2


def test_the_interval_is_the_t_interval_of_the_pair_differences(saved):
    _, s = saved
    diffs = [(g1["points"]["a"] - g1["points"]["b"] + g2["points"]["a"] - g2["points"]["b"]) / 2
             for g1, g2 in (r["games"] for r in s.results)]
    mean = sum(diffs) / len(diffs)
    sd = (sum((x - mean) ** 2 for x in diffs) / (len(diffs) - 1)) ** 0.5
    half = 2.5706 * sd / len(diffs) ** 0.5  # Student's t, 5 degrees of freedom, from the tables
    lo, hi = s.interval
    assert s.points_per_deal == pytest.approx(mean)
    assert (lo, hi) == (pytest.approx(mean - half, abs=1e-3), pytest.approx(mean + half, abs=1e-3))


@pytest.mark.parametrize("df,table", [(1, 12.7062), (3, 3.1824), (5, 2.5706), (9, 2.2622), (29, 2.0452), (120, 1.9799)])
def test_t_quantile_matches_the_tables(df, table):
    assert t_quantile_975(df) == pytest.approx(table, abs=1e-3)


def test_games_won_count_the_runs_of_deals(saved):
    _, s = saved
    won = s.games_won()
    # recount by hand: each run adds up deal scores until a side reaches 11 and leads
    expect = {"a": 0, "b": 0}
    for k in (0, 1):
        ta = tb = 0
        for r in s.results:
            g = r["games"][k]
            ta, tb = ta + g["points"]["a"], tb + g["points"]["b"]
            if max(ta, tb) >= 11 and ta != tb:
                expect["a" if ta > tb else "b"] += 1
                ta = tb = 0
    assert won == expect


def test_a_saved_match_resumes_and_equals_an_uninterrupted_one(tmp_path, saved):
    _, full = saved
    d = tmp_path / "m"
    run_match("heuristic", "random", 3, seed=4, save=d)
    lines = (d / "results.jsonl").read_text().splitlines()
    # a kill in the middle of writing leaves a cut line: that pair is played again
    (d / "results.jsonl").write_text("\n".join(lines[:2]) + "\n" + lines[2][:40])
    resumed = run_match("heuristic", "random", 6, seed=4, save=d)
    assert [r["diff"] for r in resumed.results] == [r["diff"] for r in full.results]
    assert [r["games"][0]["moves"] for r in resumed.results] == [r["games"][0]["moves"] for r in full.results]
    assert load_summary(d).points_per_deal == full.points_per_deal


def test_a_save_directory_of_another_match_is_refused(tmp_path):
    run_match("greedy", "random", 1, seed=1, save=tmp_path)
    with pytest.raises(Exception, match="seed"):
        run_match("greedy", "random", 1, seed=2, save=tmp_path)


def test_results_do_not_depend_on_the_worker_count():
    one = run_match("greedy", "heuristic", 4, seed=7)
    two = run_match("greedy", "heuristic", 4, seed=7, workers=2)
    strip = lambda s: [[{k: v for k, v in g.items() if k != "times"} for g in r["games"]] for r in s.results]  # noqa: E731
    assert strip(one) == strip(two)


def test_pimc_evaluations_are_reported():
    s = run_match("pimc:samples=2", "greedy", 1, seed=3)
    ev = s.evaluations("a")
    assert set(ev) <= {"exact", "rollout", "forced"} and sum(ev.values()) == 40  # 10 plays per seat, 2 seats, 2 deals
    assert ev["rollout"] > 0 and ev["exact"] > 0
    assert s.as_dict()["cheating"] == []
    assert run_match("dd:exact=8", "greedy", 1, seed=3).as_dict()["cheating"] == ["a"]


def test_category_means_follow_the_rules():
    s = run_match("greedy", "random", 2, seed=2, rules=Rules(re_bello=True))
    assert "re_bello" in s.categories("a") and "napola" not in s.categories("a")


# ---------------------------------------------------------------- the command line
def run_cli(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def test_match_command_json():
    r = run_cli("match", "heuristic", "greedy", "-n", 3, "--seed", 2, "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["pairs"] == 3 and d["deals"] == 6
    assert d["interval"][0] <= d["points_per_deal"] <= d["interval"][1]
    assert set(d["categories"]["a"]) == {"carte", "denari", "settebello", "primiera", "scope"}


def test_match_command_text_and_bad_specs(tmp_path):
    r = run_cli("match", "greedy", "random", "-n", 2, "--save", tmp_path / "m")
    assert r.exit_code == 0, r.output
    assert "points per deal" in r.stdout and "games won" in r.stdout
    assert len(list((tmp_path / "m" / "games").glob("*.json"))) == 4
    r = run_cli("match", "greedy", "pimc:samples=x")
    assert r.exit_code == 2 and "is not int" in r.output and "Traceback" not in r.output


def _play(tmp_path, answers: str, *extra):
    path = tmp_path / "game.json"
    cmd = [sys.executable, "-m", "scopone", "play", "--seed", "5", "--opponents", "greedy", "--partner", "greedy",
           "--save", str(path), "--notation", "letters", *extra]
    p = subprocess.run(cmd, input=answers, capture_output=True, text=True, timeout=120)
    return p, path


def test_a_game_in_the_terminal_through_a_pipe(tmp_path):
    # garbage, an out-of-range number, a card not in the hand, then always the first move
    p, path = _play(tmp_path, "hello\n0\n42\n9Z\n10Dx1C\n" + "1\n" * 10)
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stdout + p.stderr
    assert "is not a move number" in p.stdout
    assert "final score" in p.stdout
    record = load_game(path)
    final = record.replay()
    assert final.is_over() and len(record.moves) == 40
    assert record.extra["players"][0] == "you"


def test_quitting_the_terminal_game_saves_a_valid_partial_record(tmp_path):
    p, path = _play(tmp_path, "1\n1\n")  # then the input ends
    assert p.returncode == 1 and "stopped" in p.stdout
    record = load_game(path)
    assert 2 <= len(record.moves) < 40
    record.replay()
