"""Puzzle generator: instructive double-dummy positions, verified, themed, rated.

>>> from scopone.puzzles import THEMES
>>> "spariglio" in THEMES
True
"""

from .analyse import DEFAULT_MARGIN, Candidate, Rejected, analyse, puzzle_id, seat_view
from .explain import explain
from .generate import PUZZLES_FORMAT, generate, make_candidate, parse_cards_range
from .ladder import LADDER, SEAT_LADDER, TOP, rate, rate_seat
from .themes import THEMES, PuzzleFacts, tag
from .verify import verify_file, verify_puzzle

__all__ = ["Candidate", "Rejected", "analyse", "puzzle_id", "seat_view", "DEFAULT_MARGIN", "explain",
           "PUZZLES_FORMAT", "generate", "make_candidate", "parse_cards_range", "LADDER", "SEAT_LADDER", "TOP",
           "rate", "rate_seat", "THEMES", "PuzzleFacts", "tag", "verify_file", "verify_puzzle"]
