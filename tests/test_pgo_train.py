"""The training run of the profile-guided build (tools/pgo_train.py, setup.py's SCOPONE_PGO=1).

It cannot import the package (the isolated build has none of its dependencies), so it
enumerates the capture patterns itself: they must be the ones CP-SAT compiles for the
engine, and it must drive the core's real interface, or a profiled build would quietly
train on something else (or fall back to a plain build)."""

import importlib.util
from pathlib import Path

from scopone.captures import patterns_for
from scopone.solver import core
from scopone.solver.core import pack_pattern

TRAIN = Path(__file__).resolve().parent.parent / "tools" / "pgo_train.py"


def load_train():
    spec = importlib.util.spec_from_file_location("pgo_train", TRAIN)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_its_patterns_are_cp_sats():
    train = load_train()
    for target in range(1, 11):
        assert sorted(train.patterns(target)) == sorted(pack_pattern(p) for p in patterns_for(target)), target


def test_it_solves_with_the_built_core():
    train = load_train()
    module = train.load(core._core.__file__)  # the module the solver loads, by its file as the build does
    assert train.train(module, counts=((3, 2),)) > 0  # the nodes of the last endgame's tests


def test_it_trains_only_the_modules_this_processor_runs():
    train = load_train()
    portable = train.load(core._core.__file__)
    lacking = type("Portable", (), dict(LEVEL_MODULE=portable.LEVEL_MODULE, STANDARD_MODULE=portable.STANDARD_MODULE,
                                        CPU_LEVEL_OK=0, STANDARD_CPU_OK=0, ISA="portable", STANDARD_ISA="x86-64-v3"))
    assert train.runs_here("/x/_core.cpython-311-x86_64-linux-gnu.so", lacking)
    assert not train.runs_here(f"/x/{portable.LEVEL_MODULE}.so", lacking)
    assert not train.runs_here(f"/x/{portable.STANDARD_MODULE}.so", lacking)
    lacking.STANDARD_CPU_OK = 1
    assert train.runs_here(f"/x/{portable.STANDARD_MODULE}.so", lacking)
