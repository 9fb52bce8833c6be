"""The command line: every command on the shipped examples, and bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from scopone.cli import main
from scopone.formats import position_from_dict

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"


def run(*args, ok=True):
    result = CliRunner().invoke(main, [str(a) for a in args])
    if ok:
        assert result.exit_code == 0, (result.output, result.exception)
    return result


def test_show_prints_hands_table_and_score():
    out = run("show", EX / "midgame.json").stdout
    assert "South (North–South)" in out and "Table" in out and "Score so far" in out
    assert "South to play." in out and "North–South (team A)" in out
    assert "♦ Denari · ♥ Coppe · ♠ Spade · ♣ Bastoni" in out  # the legend, once
    assert all(line == line.rstrip() for line in out.splitlines())  # piped: no padding at the ends
    letters = run("show", EX / "midgame.json", "--notation", "letters").stdout
    assert "D Denari · C Coppe · S Spade · B Bastoni" in letters and "♦" not in letters


def test_score_so_far_gives_a_point_only_when_decided():
    # 20 cards each with cards still in hand: carte is a lead, not a point (hand check:
    # the 12 cards left could go either way); the settebello once taken is a point
    from scopone.cards import FULL_DECK, parse_cards
    from scopone.rules import Rules
    from scopone.scoring import standings

    a = parse_cards("7D 1C 2C 3C 4C 5C 6C 7C 8C 9C 10C 1S 2S 3S 4S 5S 6S 7S 8S 9S")
    b = parse_cards("10S 1B 2B 3B 4B 5B 6B 7B 8B 9B 10B 1D 2D 3D 4D 5D 6D 8D 9D 10D")
    assert len(list(filter(None, (a >> i & 1 for i in range(40))))) == 20
    st = {s.category: s for s in standings(a, b, (0, 0), Rules())}
    assert st["carte"].points == (0, 0)  # all 40 taken: a 20-20 tie is decided
    short_b = b & ~parse_cards("10D 9D")  # those two still to play
    st = {s.category: s for s in standings(a, short_b, (0, 0), Rules())}
    assert st["carte"].points is None and st["carte"].leader == 0
    assert st["settebello"].points == (1, 0)
    assert st["denari"].points == (0, 1)  # B holds 7 of the 10 Denari already
    assert short_b | a != FULL_DECK


def test_show_json_round_trips():
    d = json.loads(run("show", EX / "endgame-6.json", "--json").stdout)
    pos = position_from_dict({k: v for k, v in d.items() if k not in ("line", "score")})
    assert pos.line() == d["line"]
    assert d["score"]["value"] == pos.score().value


def test_show_accepts_position_string():
    line = "3D4B6B/3B4C4S/1S4D7B/1D6D7D - 1C1B2S2B3C3S5C5B6C6S8D8C10C10B 2D2C5D5S7C7S8S8B9D9C9S9B10D10S 0-6 0 B scientifico"
    d = json.loads(run("show", line, "--json").stdout)
    assert d["line"] == line


def test_moves_marks_priority():
    out = run("moves", EX / "midgame.json").stdout
    assert "single-card priority" in out
    d = json.loads(run("moves", EX / "midgame.json", "--json").stdout)
    forced = [m["move"] for m in d["moves"] if m["priority"]]
    assert forced == ["10Dx10B"]
    assert len(d["moves"]) == 7


@pytest.mark.parametrize("card,table,rules,expected", [
    ("7D", "3C 4S 7B 2D 5C", "scientifico", ["7Dx7B"]),
    ("7D", "3C 4S 2D 5C", "scientifico", ["7Dx2D+5C", "7Dx3C+4S"]),
    ("7D", "3C 4S 2D 5C", "quindici", ["7Dx3C+5C"]),
    ("7D", "3C 4S 7B 2D 5C", "free", ["7Dx7B", "7Dx2D+5C", "7Dx3C+4S"]),
    ("1D", "3C 4S", "assi", ["1Dx3C+4S"]),
    ("9D", "3C 4S", "scientifico", ["9D"]),
])
def test_captures(card, table, rules, expected):
    d = json.loads(run("captures", card, "--table", table, "--rules", rules, "--json").stdout)
    assert d["moves"] == expected


def test_deal_is_reproducible_and_plays_forward(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    run("deal", "--seed", 7, "-o", a)
    run("deal", "--seed", 7, "-o", b)
    assert a.read_text() == b.read_text()
    d = json.loads(a.read_text())
    assert [len(h) for h in d["hands"]] == [10, 10, 10, 10] and d["table"] == []
    e = tmp_path / "e.json"
    run("deal", "--seed", 7, "--cards-per-hand", 5, "--policy", "random", "-o", e)
    d = json.loads(e.read_text())
    assert [len(h) for h in d["hands"]] == [5, 5, 5, 5]
    run("show", e)


def test_deal_classico():
    d = json.loads(run("deal", "--seed", 1, "--rules", "classico").stdout)
    assert [len(h) for h in d["hands"]] == [9, 9, 9, 9] and len(d["table"]) == 4


def test_score_game_record():
    d = json.loads(run("score", EX / "game.json", "--json").stdout)
    assert d["complete"] and d["plays"] == 40
    total_cards = d["A"]["carte"]["cards"] + d["B"]["carte"]["cards"]
    assert total_cards == 40
    assert d["value"] == d["A"]["total"] - d["B"]["total"]
    out = run("score", EX / "game.json").stdout
    assert "primiera" in out and "team" in out


def test_solve_example_json():
    d = json.loads(run("solve", EX / "endgame-4.json", "--json").stdout)
    assert d["complete"] and d["value"] == d["moves"][0]["value"]
    assert d["final_score"]["value"] == d["value"]
    assert len(d["line"]) == 16


def test_solve_without_the_line():
    d = json.loads(run("solve", EX / "endgame-4.json", "--json", "--mode", "best", "--no-line").stdout)
    full = json.loads(run("solve", EX / "endgame-4.json", "--json", "--mode", "best").stdout)
    assert d["complete"] and d["line"] == [] and len(full["line"]) == 16
    assert d["value"] == full["value"] and d["moves"][0]["value"] == full["value"]


def test_solve_threads_change_no_value():
    one = json.loads(run("solve", EX / "endgame-4.json", "--json", "--threads", "1").stdout)
    two = json.loads(run("solve", EX / "endgame-4.json", "--json", "--threads", "2").stdout)
    assert two["stats"]["threads"] == 2 and "threads" not in one["stats"]
    default = json.loads(run("solve", EX / "endgame-4.json", "--json").stdout)
    assert "threads" not in default["stats"]  # 4 cards per hand: one thread unless asked
    assert two["value"] == one["value"]
    assert sorted((m["move"], m["value"]) for m in two["moves"]) == sorted((m["move"], m["value"]) for m in one["moves"])
    bad = run("solve", EX / "endgame-4.json", "--threads", "0", ok=False)
    assert bad.exit_code == 2 and "--threads" in bad.output


def _write(tmp_path, name, data):
    p = tmp_path / name
    p.write_text(data if isinstance(data, str) else json.dumps(data))
    return p


def _opening():
    return json.loads((EX / "opening.json").read_text())


def _bad_cases():
    d41 = _opening()
    d41["table"] = [d41["hands"][0][0]]
    d11 = _opening()
    d11["hands"][1][2] = "11D"
    ddup = _opening()
    ddup["hands"][2][0] = ddup["hands"][3][0]
    dsize = _opening()
    dsize["table"] = dsize["hands"][1][:2]
    dsize["hands"][1] = dsize["hands"][1][2:]
    dseat = _opening()
    dseat["to_move"] = 4
    dlast = json.loads((EX / "endgame-4.json").read_text())
    del dlast["last_capture"]
    drules = _opening()
    drules["rules"] = "scientifico+turbo"
    return [
        ("malformed", "{\"hands\": [", "not valid JSON"),
        ("card41", d41, "already appears"),
        ("rank11", d11, "hands[1][2]: '11D' is not a card"),
        ("duplicate", ddup, "already appears"),
        ("sizes", dsize, "hands: sizes impossible"),
        ("seat", dseat, "to_move: seat 4 is out of range"),
        ("lastcap", dlast, "last_capture: missing"),
        ("rules", drules, "unknown rules switch 'turbo'"),
    ]


@pytest.mark.parametrize("name,data,message", _bad_cases(), ids=[c[0] for c in _bad_cases()])
@pytest.mark.parametrize("command", ["show", "moves", "solve"])
def test_bad_position_exit_2_one_line(tmp_path, name, data, message, command):
    p = _write(tmp_path, f"{name}.json", data)
    r = run(command, p, ok=False)
    assert r.exit_code == 2
    err = r.stderr.strip()
    assert len(err.splitlines()) == 1, err
    assert err.startswith("Error: ") and str(p) in err and message in err, err
    assert "Traceback" not in r.output


def test_illegal_move_in_game_record_is_named(tmp_path):
    g = json.loads((EX / "game.json").read_text())
    g["moves"][5] = "7Dx1B"
    p = _write(tmp_path, "g.json", g)
    r = run("score", p, ok=False)
    assert r.exit_code == 2
    assert "moves[5]" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_unfinished_record_needs_partial(tmp_path):
    g = json.loads((EX / "game.json").read_text())
    g["moves"] = g["moves"][:10]
    p = _write(tmp_path, "g.json", g)
    r = run("score", p, ok=False)
    assert r.exit_code == 2 and "--partial" in r.stderr
    d = json.loads(run("score", p, "--partial", "--json").stdout)
    assert not d["complete"] and d["plays"] == 10


def test_bad_input_leaves_no_output_file(tmp_path):
    out = tmp_path / "deal.json"
    r = run("deal", "--seed", 1, "--rules", "nonsense", "-o", out, ok=False)
    assert r.exit_code == 2 and not out.exists()
    assert list(tmp_path.iterdir()) == []


def test_python_m_scopone_no_traceback(tmp_path):
    p = _write(tmp_path, "bad.json", "[1, 2")
    r = subprocess.run([sys.executable, "-m", "scopone", "show", str(p)], capture_output=True, text=True)
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    r = subprocess.run([sys.executable, "-m", "scopone", "--help"], capture_output=True, text=True)
    assert r.returncode == 0 and "solve" in r.stdout


@pytest.mark.parametrize("target,says", [("/dev/full", "not a regular file"), ("", "output path: empty"),
                                          ("{tmp}/missing/x.json", "does not exist")])
def test_output_paths_that_cannot_be_written_are_refused(tmp_path, target, says):
    r = run("deal", "-o", target.format(tmp=tmp_path), ok=False)
    assert r.exit_code == 2 and says in r.output and "Traceback" not in r.output
    assert len([x for x in r.output.splitlines() if x.strip()]) == 1
    assert Path("/dev/full").is_char_device()
    r = run("deal", "-o", tmp_path, ok=False)  # a folder: click's own usage error
    assert r.exit_code == 2 and "is a directory" in r.output and "Traceback" not in r.output


def test_stale_temporaries_of_a_killed_run_are_removed(tmp_path):
    import os
    import time

    stale = tmp_path / ".deal.json.abc123.tmp"
    stale.write_text("{")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    fresh = tmp_path / ".deal.json.def456.tmp"  # another run may be writing it now
    fresh.write_text("{")
    run("deal", "-o", tmp_path / "deal.json")
    assert not stale.exists() and fresh.exists()
    assert (tmp_path / "deal.json").exists()


def test_puzzles_show_refuses_a_file_of_another_format(tmp_path):
    for content in ('{"format": "scopone-position/1"}', '{"format": "scopone-puzzles/1", "puzzles": "x"}',
                    '{"format": "scopone-puzzles/1", "puzzles": ["x"]}', "[]"):
        path = tmp_path / "p.json"
        path.write_text(content)
        r = run("puzzles", "show", path, ok=False)
        assert r.exit_code == 2 and "not a scopone-puzzles/1 file" in r.output and "Traceback" not in r.output


def test_hostile_numbers_and_nesting_give_one_line(tmp_path):
    cases = {
        "big-card.json": '{"hands": [["' + "1" * 5000 + 'D"], [], [], []]}',
        "big-int.json": '{"scope": {"A": ' + "1" * 5000 + "}}",
        "deep.json": "[" * 100000 + "]" * 100000,
    }
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text)
        r = run("show", path, ok=False)
        assert r.exit_code == 2 and "Traceback" not in r.output, (name, r.output[:300])
        assert len(r.output.strip().splitlines()) == 1 and len(r.output) < 400, name
    for card in ("1" * 5000 + "D", "007D", "\u0661S", "\uff11S"):  # huge, leading zeros, Arabic-Indic, fullwidth
        r = run("captures", card, ok=False)
        assert r.exit_code == 2 and "is not a card" in r.output and len(r.output) < 400, card


def test_malformed_puzzle_files_never_give_a_traceback(tmp_path):
    data = json.loads((EX / "puzzles.json").read_text())
    data["puzzles"] = data["puzzles"][:1]
    bad = json.loads(json.dumps(data))
    bad["puzzles"][0]["solution"] = 5
    bad["puzzles"].append(["x"])
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    r = run("puzzles", "verify", path, ok=False)
    assert r.exit_code == 1 and "solution: expected list, got int" in r.output and "puzzles[1]" in r.output
    for value in ("x", None, ["x"], 5):
        data["puzzles"] = value
        path.write_text(json.dumps(data))
        for cmd in ("verify", "show"):
            r = run("puzzles", cmd, path, ok=False)
            assert r.exit_code in (1, 2) and "Traceback" not in r.output and r.exception is None or \
                isinstance(r.exception, SystemExit), (cmd, value, r.output)


def test_text_views_of_solve_and_puzzles_show():
    out = run("solve", EX / "endgame-4.json", "--mode", "best").stdout
    assert "nodes" in out and "value" in out.lower()
    out = run("puzzles", "show", EX / "puzzles.json", "--solution").stdout
    assert "solution" in out.lower()


def test_the_console_script_turns_ctrl_c_into_one_line():
    import os
    import signal
    import time

    # a long match, interrupted: one line, exit code 130 (not click's "Aborted!" and 1)
    p = subprocess.Popen([sys.executable, "-m", "scopone", "match", "heuristic", "greedy", "-n", "100000", "--json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(3)
    os.kill(p.pid, signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    assert "Traceback" not in err and "interrupted" in err


def test_ctrl_c_while_the_program_starts_is_one_line():
    import os
    import re
    import signal
    import time

    # from the first imports to the compilation of the capture tables (about 0.1 to 0.6 s)
    for delay in (0.05, 0.1, 0.2, 0.3, 0.45):
        p = subprocess.Popen([sys.executable, "-m", "scopone", "show", str(EX / "endgame-4.json")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        time.sleep(delay)
        os.kill(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=60)
        # on a loaded machine the interpreter may still be starting: no scopone code has run,
        # or only the module-level imports of the package's __init__ or __main__ before run()
        # holds the signal back (nothing can catch it yet; seen once in CI, 5 December): only
        # then may Python print its traceback
        frames = re.findall(r'File "[^"]*/(scopone/[^"]*)", line \d+, in (\S+)', err)
        ours = [f for f in frames if f not in (("scopone/__init__.py", "<module>"), ("scopone/__main__.py", "<module>"))]
        assert "Traceback" not in err or not ours, (delay, err)
        assert p.returncode in (0, 1, 130, -signal.SIGINT), (delay, p.returncode, err)
        assert p.returncode != 1 or not ours, (delay, err)


def test_puzzles_generate_takes_the_selection_options(tmp_path):
    out = tmp_path / "p.json"
    run("puzzles", "generate", "-n", "1", "--seed", "3", "-o", out, "--cards-per-hand", "3", "--no-swing",
        "--min-margin", "2", "--players", "heuristic,greedy", "--max-scope", "2", "--max-value", "3",
        "--workers", "1")
    data = json.loads(out.read_text())
    o = data["options"]
    assert (o["min_margin"], o["swing"], o["players"], o["max_scope"], o["max_value"]) == (
        2, False, ["heuristic", "greedy"], 2, 3)
    assert all(p["margin"] >= 2 and abs(p["value"]) <= 3 for p in data["puzzles"])
    bad = run("puzzles", "generate", "-n", "1", "-o", tmp_path / "q.json", "--players", "bogus", ok=False)
    assert bad.exit_code == 2 and "bogus" in bad.output and not (tmp_path / "q.json").exists()
