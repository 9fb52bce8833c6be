"""Puzzle generator: instructive double-dummy positions, verified, themed, rated.

>>> from scopone.puzzles import THEMES
>>> "spariglio" in THEMES
True
"""

from .analyse import Candidate, Rejected, analyse, puzzle_id
from .generate import PUZZLES_FORMAT, generate, make_candidate, parse_cards_range
from .ladder import LADDER, TOP, rate
from .themes import THEMES, PuzzleFacts, tag
from .verify import verify_file, verify_puzzle

__all__ = ["Candidate", "Rejected", "analyse", "puzzle_id", "PUZZLES_FORMAT", "generate",
           "make_candidate", "parse_cards_range", "LADDER", "TOP", "rate", "THEMES", "PuzzleFacts",
           "tag", "verify_file", "verify_puzzle"]
