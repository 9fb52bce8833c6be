"""One error family for the whole library.

Every error a user can cause with bad input is a :class:`ScoponeError`
(a ``ValueError``), so callers and the CLI can catch one class.
"""

from __future__ import annotations


class ScoponeError(ValueError):
    """Base class of every error caused by bad input to scopone."""


class CardError(ScoponeError):
    """A card text or card number that does not name one of the 40 cards."""


class RulesError(ScoponeError):
    """An unknown rules preset, switch, or value."""


class PositionError(ScoponeError):
    """A position that breaks the rules of the game.

    ``problems`` lists every problem found, each naming its field.
    """

    def __init__(self, problems: list[str] | str):
        if isinstance(problems, str):
            problems = [problems]
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))


class FormatError(ScoponeError):
    """A file or string that does not follow a scopone format."""


class InvalidMoveError(ScoponeError):
    """A move text that cannot be parsed."""


class IllegalMoveError(ScoponeError):
    """A well-formed move that is not legal in the position."""


class AmbiguousMoveError(ScoponeError):
    """A short move text that matches several legal moves."""
