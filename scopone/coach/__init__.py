"""The coach: what each play of a deal cost, with all cards seen and from the player's seat."""

from .analyse import CLASSES, Analysis, CoachSettings, PlayRow, analyse_game, classify, mistake_puzzles

__all__ = ["analyse_game", "mistake_puzzles", "Analysis", "CoachSettings", "PlayRow", "CLASSES", "classify"]
