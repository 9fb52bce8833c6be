"""The rules switches of RULES.md as one frozen value, with named presets.

>>> Rules.scientifico().deal
'scientifico'
>>> r = parse_rules("scientifico+re_bello+napola")
>>> r.re_bello, r.napola
(True, True)
>>> r.name
'scientifico+napola+re_bello'
>>> parse_rules(r.name) == r
True
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Literal

from .errors import RulesError


@dataclass(frozen=True)
class Rules:
    """Every rules switch of RULES.md; the defaults are Scopone Scientifico.

    >>> Rules(priority="free").name
    'scientifico+priority=free'
    """

    deal: Literal["scientifico", "classico"] = "scientifico"
    #: strict: a single-card match must be taken if one exists; free: choose.
    priority: Literal["strict", "free"] = "strict"
    #: strict: a team missing a suit cannot win primiera; sum: missing suit = 0.
    primiera: Literal["strict", "sum"] = "strict"
    re_bello: bool = False
    napola: bool = False
    asso_piglia_tutto: bool = False
    #: with asso_piglia_tutto: whether the Ace's sweep counts as a scopa.
    asso_scopa: bool = False
    #: with asso_piglia_tutto: whether a played Ace takes an Ace on the table alone.
    asso_takes_asso: bool = True
    quindici: bool = False
    #: points needed to win a game of several deals.
    target: int = 11

    def __post_init__(self) -> None:
        for f, allowed in _CHOICES.items():
            if getattr(self, f) not in allowed:
                raise RulesError(
                    f"rules switch {f}={getattr(self, f)!r} is not one of {', '.join(map(str, allowed))}"
                )
        for f in _BOOLS:
            if not isinstance(getattr(self, f), bool):
                raise RulesError(f"rules switch {f} must be true or false, not {getattr(self, f)!r}")
        # the Ace's sub-switches mean nothing without asso piglia tutto: refuse them there
        # rather than carry a switch that changes nothing
        if not self.asso_piglia_tutto:
            for f, default in (("asso_scopa", False), ("asso_takes_asso", True)):
                if getattr(self, f) != default:
                    raise RulesError(f"rules switch {f} needs asso_piglia_tutto")

    # Presets -----------------------------------------------------------
    @classmethod
    def scientifico(cls) -> "Rules":
        """Scopone Scientifico: all 40 cards dealt, empty table, strict priority."""
        return cls()

    @classmethod
    def classico(cls) -> "Rules":
        """Scopone classico: 9 cards each and 4 on the table."""
        return cls(deal="classico")

    @property
    def name(self) -> str:
        """The canonical ``--rules`` text for these rules (round-trips)."""
        parts = [self.deal]
        for f in fields(self):
            if f.name == "deal":
                continue
            v = getattr(self, f.name)
            if v == f.default:
                continue
            if isinstance(v, bool):
                parts.append(f.name if v else f"{f.name}=false")
            else:
                parts.append(f"{f.name}={v}")
        return "+".join([parts[0]] + sorted(parts[1:]))

    def with_switches(self, **switches) -> "Rules":
        """A copy with some switches changed."""
        try:
            return replace(self, **switches)
        except TypeError as e:
            raise RulesError(str(e)) from None

    def __str__(self) -> str:
        return self.name


_CHOICES = {
    "deal": ("scientifico", "classico"),
    "priority": ("strict", "free"),
    "primiera": ("strict", "sum"),
    "target": (11, 16, 21),
}
_BOOLS = ("re_bello", "napola", "asso_piglia_tutto", "asso_scopa", "asso_takes_asso", "quindici")

#: Named presets accepted as the first word of a rules text.
PRESETS: dict[str, Rules] = {
    "scientifico": Rules(),
    "classico": Rules(deal="classico"),
    "quindici": Rules(quindici=True),
    "assi": Rules(asso_piglia_tutto=True),
    "napola": Rules(napola=True),
    "free": Rules(priority="free"),
}


def parse_rules(text: str | Rules | None) -> Rules:
    """Parse a rules text: a preset then ``+switch`` or ``+switch=value`` parts.

    Switches are the field names of :class:`Rules`; a bare name turns a
    yes/no switch on. Unknown names raise :class:`RulesError`.

    >>> parse_rules("classico+primiera=sum+target=21").target
    21
    >>> parse_rules("scientifico+quindici").quindici
    True
    >>> parse_rules("bridge")
    Traceback (most recent call last):
    ...
    scopone.errors.RulesError: unknown rules 'bridge': the presets are scientifico, classico, quindici, assi, napola, free
    """
    if text is None:
        return Rules()
    if isinstance(text, Rules):
        return text
    if not isinstance(text, str) or not text.strip():
        raise RulesError(f"rules must be a text such as 'scientifico', not {text!r}")
    words = text.strip().split("+")
    head = words[0]
    if head not in PRESETS:
        raise RulesError(f"unknown rules {words[0]!r}: the presets are {', '.join(PRESETS)}")
    rules = PRESETS[head]
    names = {f.name: f for f in fields(Rules)}
    changes: dict[str, object] = {}
    given: set[str] = set()
    for w in words[1:]:
        key, eq, val = w.partition("=")
        if key in PRESETS and not eq and key not in names:
            # a preset used as a switch, e.g. scientifico+quindici: merge its switches
            preset = PRESETS[key]
            for f in fields(Rules):
                if getattr(preset, f.name) != f.default:
                    changes[f.name] = getattr(preset, f.name)
            continue
        if key not in names:
            raise RulesError(
                f"unknown rules switch {key!r} in {text!r}: the switches are {', '.join(names)}"
            )
        if key in given:
            raise RulesError(f"rules switch {key} is given twice in {text!r}")
        given.add(key)
        if key in _BOOLS:
            if not eq or val == "true":
                changes[key] = True
            elif val == "false":
                changes[key] = False
            else:
                raise RulesError(f"rules switch {key} takes true or false, not {val!r}")
        elif key == "target":
            if val not in ("11", "16", "21"):
                raise RulesError(f"rules switch target takes 11, 16 or 21, not {val!r}")
            changes[key] = int(val)
        else:
            if not eq:
                raise RulesError(f"rules switch {key} needs a value, e.g. {key}={_CHOICES[key][-1]}")
            if val not in _CHOICES[key]:
                raise RulesError(f"rules switch {key}={val!r} is not one of {', '.join(_CHOICES[key])}")
            changes[key] = val
    merged = replace(rules, **changes) if changes else rules
    return merged
