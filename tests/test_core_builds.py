"""The core's builds: portable (``_core``), for x86-64-v2 (``_core_v2``) on x86-64,
and the standard module (``_core_std``: the standard rules with the default
options, read as constants).

The rest of the suite tests whichever ones ``scopone.solver.core`` loaded (the
level's on a processor that has it, and the standard module for the standard
rules with the default options; the general one for everything else); here they
must search the very same trees, so each build is tested by way of the others."""

from __future__ import annotations

import importlib
from types import SimpleNamespace

import pytest

from scopone.rules import Rules, parse_rules
from scopone.solver import core as backend
from scopone.solver import solve
from scopone.solver.driver import solve_with
from test_core import RULES, endgame, moves_and_values

portable = importlib.import_module("scopone.solver._core")
try:
    level = importlib.import_module(f"scopone.solver.{portable.LEVEL_MODULE}")
except ImportError:  # not x86-64, or a compiler that could not build it
    level = None

needs_level = pytest.mark.skipif(level is None or not portable.CPU_LEVEL_OK,
                                 reason="no x86-64-v2 build, or a processor without that level")
needs_standard = pytest.mark.skipif(backend._standard is None,
                                    reason="no standard module built for this processor's level")


def test_each_build_says_what_it_was_built_for():
    assert portable.ISA == "portable"
    assert portable.CPU_LEVEL == "x86-64-v2"
    assert portable.LEVEL_MODULE == "_core_v2"
    if level is not None:
        assert level.ISA == "x86-64-v2"
    assert portable.STANDARD_MODULE == "_core_std" and not portable.STANDARD
    if backend._standard is not None:
        assert backend._standard.STANDARD == 1
        assert backend._standard.ISA == portable.STANDARD_ISA
        assert backend._core.STANDARD_CPU_OK
    # a module built as the standard one was says it runs here (the processor runs the module itself)
    for mod in (portable, level):
        if mod is not None and mod.ISA == mod.STANDARD_ISA:
            assert mod.STANDARD_CPU_OK


@needs_level
def test_the_level_build_is_loaded_where_the_processor_has_it(monkeypatch):
    monkeypatch.delenv("SCOPONE_CORE", raising=False)
    assert backend._load_core() is level
    monkeypatch.setenv("SCOPONE_CORE", "portable")
    assert backend._load_core() is portable


@needs_level
def test_both_builds_search_the_same_trees(monkeypatch):
    # the same values for every move and the same node counts, over the rule sets
    got = {}
    monkeypatch.setattr(backend, "_standard", None)  # the general modules for every rule set
    for mod in (portable, level):
        monkeypatch.setattr(backend, "_core", mod)
        rows = []
        for seed in range(24):
            pos = endgame(5100 + seed, RULES[seed % len(RULES)], 2 + seed % 4)
            r = solve(pos, mode="all", engine="c", line=False, threads=1)
            rows.append((pos.line(), moves_and_values(r), r.stats["nodes"]))
        got[mod.__name__] = rows
    a, b = got.values()
    assert a == b
    assert sum(nodes for _, _, nodes in a) > 10_000  # the endgames were searched, not looked up


@needs_standard
def test_the_standard_module_searches_the_standard_rules_with_the_default_options():
    std, general = backend._standard, backend._core
    assert backend.CoreBackend(Rules()).module is std
    assert backend.CoreBackend(Rules(), options="all").module is std
    # any other options or rules: the general module
    assert backend.CoreBackend(Rules(), options="all+etc").module is general
    assert backend.CoreBackend(Rules(), options="all-outcomes").module is general
    for rules in RULES:
        want = std if backend.rules_switches(rules) == backend.STANDARD_SWITCHES else general
        assert backend.CoreBackend(rules).module is want
    assert backend.CoreBackend(parse_rules("scientifico+napola")).module is general


@needs_standard
def test_the_standard_module_refuses_other_rules_and_options():
    std = backend._standard
    patterns = [[]] + [[] for _ in range(10)]
    std.Solver(patterns=patterns, **backend.STANDARD_SWITCHES)  # the standard ones: taken
    for name, value in backend.STANDARD_SWITCHES.items():
        with pytest.raises(ValueError, match="standard rules"):
            std.Solver(patterns=patterns, **dict(backend.STANDARD_SWITCHES, **{name: not value}))
    with pytest.raises(ValueError, match="default options"):
        std.Solver(patterns=patterns, **backend.STANDARD_SWITCHES, options=std.OPT_DEFAULT | std.OPT_ETC)


def test_the_standard_module_is_loaded_only_where_it_runs(monkeypatch):
    monkeypatch.setenv("SCOPONE_CORE", "generic")
    assert backend._load_standard(backend._core) is None
    monkeypatch.delenv("SCOPONE_CORE")
    # built for a level this processor lacks, as the module in use says
    lacking = SimpleNamespace(STANDARD_CPU_OK=0, STANDARD_MODULE=portable.STANDARD_MODULE)
    assert backend._load_standard(lacking) is None
    if backend._standard is not None:  # where it runs, it is the one loaded
        runs = SimpleNamespace(STANDARD_CPU_OK=1, STANDARD_MODULE=portable.STANDARD_MODULE)
        assert backend._load_standard(runs) is backend._standard


@needs_standard
def test_the_standard_and_general_modules_search_the_same_trees(monkeypatch):
    # every move's value and the node counts of the standard module (this test's first
    # run) against the general one's on the same endgames, 2 to 6 cards per hand
    got = []
    for standard in (backend._standard, None):
        monkeypatch.setattr(backend, "_standard", standard)
        rows = []
        for seed in range(60):
            pos = endgame(7300 + seed, Rules(), 2 + seed % 4 if seed < 56 else 6)
            b = backend.CoreBackend(pos.rules)
            assert (b.module is backend._core) == (standard is None)
            r = solve_with(b, pos, "all", line=False)
            rows.append((pos.line(), moves_and_values(r), r.stats["nodes"]))
        got.append(rows)
    assert got[0] == got[1]
    assert sum(nodes for _, _, nodes in got[0]) > 100_000  # searched, not looked up
