"""scopone: engine, double-dummy solver and puzzle generator for Scopone Scientifico.

>>> from scopone import Position
>>> pos = Position.from_line("7D/7C/1B/2B 3C4S - - 0-0 0 - scientifico", check=False)
>>> [m.text() for m in pos.legal_moves()]
['7Dx3C+4S']
"""

import importlib as _importlib
import signal as _signal
import threading as _threading
from contextlib import contextmanager as _contextmanager

__version__ = "0.1.0"

# The names below are imported on first use (PEP 562), so that importing a
# submodule (the command line) does not load the whole package first.
_EXPORTS = {
    "Card": "cards", "CardMask": "cards", "card_text": "cards", "mask_text": "cards", "parse_card": "cards",
    "parse_cards": "cards", "captures": "captures", "capture_table": "captures",
    "AmbiguousMoveError": "errors", "CardError": "errors", "FormatError": "errors", "IllegalMoveError": "errors",
    "InvalidMoveError": "errors", "PositionError": "errors", "RulesError": "errors", "ScoponeError": "errors",
    "Move": "position", "Position": "position", "Rules": "rules", "parse_rules": "rules", "Score": "scoring",
    "score_piles": "scoring",
}

__all__ = [*_EXPORTS, "__version__"]


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'scopone' has no attribute {name!r}")
    value = getattr(_importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


@_contextmanager
def hold_sigint():
    """Hold SIGINT back while the block runs (main thread only); it is delivered,
    as a KeyboardInterrupt, when the block ends.

    A Ctrl-C while a compiled extension (OR-Tools) initialises would surface as an
    "ImportError: initialization failed" traceback, so imports of such modules run
    inside this, where a caller that handles KeyboardInterrupt can catch it."""
    held = _threading.current_thread() is _threading.main_thread() and hasattr(_signal, "pthread_sigmask")
    mask = _signal.pthread_sigmask(_signal.SIG_BLOCK, {_signal.SIGINT}) if held else None
    try:
        yield
    finally:
        if held:
            _signal.pthread_sigmask(_signal.SIG_SETMASK, mask)
