"""scopone: engine, double-dummy solver and puzzle generator for Scopone Scientifico.

>>> from scopone import Position
>>> pos = Position.from_line("7D/7C/1B/2B 3C4S - - 0-0 0 - scientifico", check=False)
>>> [m.text() for m in pos.legal_moves()]
['7Dx3C+4S']
"""

from .cards import Card, CardMask, card_text, mask_text, parse_card, parse_cards
from .captures import captures, capture_table
from .errors import (
    AmbiguousMoveError, CardError, FormatError, IllegalMoveError, InvalidMoveError,
    PositionError, RulesError, ScoponeError,
)
from .position import Move, Position
from .rules import Rules, parse_rules
from .scoring import Score, score_piles

__version__ = "0.1.0"

__all__ = [
    "Card", "CardMask", "card_text", "mask_text", "parse_card", "parse_cards", "captures",
    "capture_table", "AmbiguousMoveError", "CardError", "FormatError", "IllegalMoveError",
    "InvalidMoveError", "PositionError", "RulesError", "ScoponeError", "Move", "Position",
    "Rules", "parse_rules", "Score", "score_piles", "__version__",
]
