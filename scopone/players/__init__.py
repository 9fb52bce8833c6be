"""Players: policies that choose a move from what one seat can know.

A player is named by a spec, a name with options: ``random``, ``greedy``,
``heuristic``, ``pimc:samples=40,time=1.0``, ``dd`` (the cheating
double-dummy calibration player).  :func:`make_player` builds one.

>>> make_player("pimc:samples=8").samples
8
>>> make_player("pimc:bogus=1")
Traceback (most recent call last):
...
scopone.errors.ScoponeError: player 'pimc:bogus=1': unknown option 'bogus' (pimc takes samples, time, exact, rollout, memory)
"""

from __future__ import annotations

import inspect

from ..errors import ScoponeError
from .base import Player
from .basic import Greedy, RandomPlayer, greedy_choice, greedy_score
from .heuristic import Heuristic
from .pimc import DoubleDummy, Pimc

#: The players by name, each with the options its spec may give.
PLAYERS = {"random": RandomPlayer, "greedy": Greedy, "heuristic": Heuristic, "pimc": Pimc, "dd": DoubleDummy}


def _options(cls) -> dict[str, inspect.Parameter]:
    params = inspect.signature(cls.__init__).parameters
    return {k: p for k, p in params.items()
            if k not in ("self", "weights") and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}


def parse_spec(spec: str) -> tuple[str, dict]:
    """``"pimc:samples=40,time=1.0"`` → ``("pimc", {"samples": 40, "time": 1.0})``.

    Each value is converted to the type of the option's default.
    """
    name, _, rest = spec.strip().partition(":")
    if name not in PLAYERS:
        raise ScoponeError(f"player {spec!r}: unknown player {name!r} (players: {', '.join(PLAYERS)})")
    allowed = _options(PLAYERS[name])
    opts: dict = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, text = part.partition("=")
        key = key.strip()
        if key not in allowed:
            takes = ", ".join(allowed) or "no options"
            raise ScoponeError(f"player {spec!r}: unknown option {key!r} ({name} takes {takes})")
        if not eq:
            raise ScoponeError(f"player {spec!r}: option {key!r} needs a value ({key}=...)")
        kind = type(allowed[key].default)
        try:
            opts[key] = kind(text.strip())
        except ValueError:
            raise ScoponeError(f"player {spec!r}: option {key}={text!r} is not {kind.__name__}") from None
    return name, opts


def make_player(spec: str) -> Player:
    """A new player from its spec (see the module docs)."""
    name, opts = parse_spec(spec)
    try:
        return PLAYERS[name](**opts)
    except ValueError as e:
        raise ScoponeError(f"player {spec!r}: {e}") from None


__all__ = ["Player", "PLAYERS", "make_player", "parse_spec", "Greedy", "RandomPlayer", "Heuristic", "Pimc",
           "DoubleDummy", "greedy_choice", "greedy_score"]
