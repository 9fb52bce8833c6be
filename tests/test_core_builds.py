"""The core built twice on x86-64: portable (``_core``) and for x86-64-v2 (``_core_v2``).

The rest of the suite tests whichever one ``scopone.solver.core`` loaded (the
second on a processor that has the level); here the two must search the very
same trees, so the portable build is tested by way of the other."""

from __future__ import annotations

import importlib

import pytest

from scopone.solver import core as backend
from scopone.solver import solve
from test_core import RULES, endgame, moves_and_values

portable = importlib.import_module("scopone.solver._core")
try:
    level = importlib.import_module(f"scopone.solver.{portable.LEVEL_MODULE}")
except ImportError:  # not x86-64, or a compiler that could not build it
    level = None

needs_level = pytest.mark.skipif(level is None or not portable.CPU_LEVEL_OK,
                                 reason="no x86-64-v2 build, or a processor without that level")


def test_each_build_says_what_it_was_built_for():
    assert portable.ISA == "portable"
    assert portable.CPU_LEVEL == "x86-64-v2"
    assert portable.LEVEL_MODULE == "_core_v2"
    if level is not None:
        assert level.ISA == "x86-64-v2"


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
