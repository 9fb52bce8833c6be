"""Rules switches, presets and the rules text."""

from __future__ import annotations

import itertools

import pytest

from scopone.errors import RulesError, ScoponeError
from scopone.rules import PRESETS, Rules, parse_rules


def test_defaults_are_scientifico():
    r = Rules()
    assert r == Rules.scientifico() == parse_rules("scientifico") == parse_rules(None)
    assert (r.deal, r.priority, r.primiera, r.target) == ("scientifico", "strict", "strict", 11)
    assert not (r.re_bello or r.napola or r.asso_piglia_tutto or r.asso_scopa or r.quindici)
    assert r.asso_takes_asso is True
    assert r.name == "scientifico" and str(r) == "scientifico"


@pytest.mark.parametrize("text,switches", [
    ("scientifico+re_bello+napola", dict(re_bello=True, napola=True)),
    ("classico+primiera=sum+target=21", dict(deal="classico", primiera="sum", target=21)),
    ("scientifico+quindici", dict(quindici=True)),
    ("classico", dict(deal="classico")),
    ("quindici", dict(quindici=True)),
    ("assi", dict(asso_piglia_tutto=True)),
    ("napola", dict(napola=True)),
    ("free", dict(priority="free")),
    ("scientifico+free", dict(priority="free")),              # preset used as a switch
    ("scientifico+assi", dict(asso_piglia_tutto=True)),
    ("assi+asso_scopa+asso_takes_asso=false", dict(asso_piglia_tutto=True, asso_scopa=True, asso_takes_asso=False)),
    ("scientifico+priority=free", dict(priority="free")),
    ("scientifico+priority=strict", dict()),
    ("scientifico+re_bello=true", dict(re_bello=True)),
    ("scientifico+re_bello=false", dict()),
    ("napola+napola=false", dict()),
    ("scientifico+target=16", dict(target=16)),
    ("scientifico+deal=classico", dict(deal="classico")),
])
def test_parse_rules(text, switches):
    assert parse_rules(text) == Rules(**switches)


@pytest.mark.parametrize("rules", [
    Rules(), Rules.classico(), *PRESETS.values(),
    Rules(re_bello=True, napola=True), Rules(deal="classico", primiera="sum", target=21),
    Rules(asso_piglia_tutto=True, asso_scopa=True, asso_takes_asso=False),
    Rules(asso_piglia_tutto=True, asso_takes_asso=False), Rules(quindici=True, priority="free", target=16),
])
def test_name_round_trips(rules):
    assert parse_rules(rules.name) == rules
    assert parse_rules(str(rules)) == rules
    assert rules.name.split("+")[0] == rules.deal


def test_name_examples():
    assert parse_rules("scientifico+re_bello+napola").name == "scientifico+napola+re_bello"
    assert Rules(priority="free").name == "scientifico+priority=free"
    assert Rules(asso_piglia_tutto=True, asso_takes_asso=False).name == \
        "scientifico+asso_piglia_tutto+asso_takes_asso=false"
    assert Rules(deal="classico", target=21).name == "classico+target=21"


def test_every_switch_combination_round_trips():
    for bits in itertools.product([False, True], repeat=6):
        switches = dict(zip(("re_bello", "napola", "asso_piglia_tutto", "asso_scopa", "asso_takes_asso",
                             "quindici"), bits))
        if not switches["asso_piglia_tutto"] and (switches["asso_scopa"] or not switches["asso_takes_asso"]):
            # the Ace's sub-switches without asso piglia tutto are refused, as value and as text
            with pytest.raises(RulesError, match="needs asso_piglia_tutto"):
                Rules(**switches)
            continue
        r = Rules(**switches)
        assert parse_rules(r.name) == r
    for text in ("scientifico+asso_scopa", "scientifico+asso_takes_asso=false"):
        with pytest.raises(RulesError, match="needs asso_piglia_tutto"):
            parse_rules(text)


def test_presets():
    assert set(PRESETS) >= {"scientifico", "classico", "quindici", "assi", "napola", "free"}
    assert PRESETS["classico"].deal == "classico"
    assert PRESETS["quindici"].quindici and PRESETS["assi"].asso_piglia_tutto
    assert PRESETS["free"].priority == "free"


@pytest.mark.parametrize("text", [
    "bridge", "", "   ", "scientifico+foo", "scientifico+re_bello=maybe", "scientifico+target=12",
    "scientifico+target=eleven", "scientifico+priority", "scientifico+priority=loose",
    "scientifico+primiera=max", "scientifico+deal=bogus", "+re_bello", 42,
    # exactly the documented forms: no other case, spelling, spacing or yes/no words
    "SCIENTIFICO", "Scientifico + RE_BELLO", "scientifico+re-bello", "scientifico+napola=yes",
    "scientifico+re_bello=off", "scientifico+target=016", "scientifico+target=+16",
    # a switch given twice: which one would win?
    "scientifico+priority=free+priority=strict", "scientifico+target=16+target=21",
])
def test_parse_rules_errors(text):
    with pytest.raises(RulesError) as e:
        parse_rules(text)
    assert isinstance(e.value, ScoponeError) and isinstance(e.value, ValueError)


def test_unknown_preset_message_names_it():
    with pytest.raises(RulesError, match="bridge"):
        parse_rules("bridge")
    with pytest.raises(RulesError, match="foo"):
        parse_rules("scientifico+foo")


@pytest.mark.parametrize("kwargs", [
    dict(priority="loose"), dict(primiera="max"), dict(deal="siciliano"), dict(target=12),
    dict(re_bello=1), dict(napola="yes"), dict(quindici=None),
])
def test_bad_rules_values(kwargs):
    with pytest.raises(RulesError):
        Rules(**kwargs)


def test_with_switches():
    r = Rules().with_switches(napola=True, target=16)
    assert r == Rules(napola=True, target=16)
    with pytest.raises(RulesError):
        Rules().with_switches(bogus=True)
    with pytest.raises(RulesError):
        Rules().with_switches(priority="loose")


def test_rules_frozen_and_hashable():
    r = Rules()
    with pytest.raises(Exception):
        r.napola = True  # type: ignore[misc]
    assert len({Rules(), Rules(), Rules(napola=True)}) == 2
