"""A small value network: the first guess of MTD(f).

The driver's null-window tests start at a guess of the position's value; each
point the guess is off costs a test, and the tests on the wrong side of the
value cost the most (docs/solver-notebook.md, "A seventeenth session").  The
score of the piles so far was the guess; this network, trained on exact values
of random endgames (``tools/train_value_net.py``), predicts the deal's final
value from where every card is, and is off by about a quarter as much on the
7-card benchmark endgames: a sum of 7 points against 28 on endgames 1-20, 7
against 39 on 21-40, 14 against 39 on 41-60 (exact on 35 of the 60, against 8).
It only moves where the search starts: every value is the same whatever the
guess.

The network: the card locations seen from the seat to move (each of 40 cards in
one of the four hands, counted from the mover, on the table, or in either
team's pile), the last capturer, and a few summaries of each pile and of the
cards still in play (card and Denari counts, each suit's best primiera card,
the majorities' leads); two
hidden layers; the output is the final value for the mover's team less the
scope it leads by so far.  It is read for the standard rules only (the
switches that change play or scoring at their defaults) and a whole deck;
elsewhere the guess stays the score so far.

>>> from scopone.deal import deal
>>> pos = deal(seed=3, cards_per_hand=6)
>>> isinstance(net_guess(pos), int)
True
"""

from __future__ import annotations

import ast
import math
import sys
import zipfile
from array import array
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Sequence

from ..cards import DENARI_MASK, FULL_DECK, cards_of, permute_suits
from ..position import Position
from ..rules import Rules
from ..scoring import primiera_by_suit

WEIGHTS = Path(__file__).resolve().parent / "data" / "value_net.npz"
N_FEATURES = 309
#: where the summaries begin, after 7 x 40 card places and the last capturer's two and the bias
N_PLACES = 280

#: a position as the network reads it: hands 0-3, table, pile A, pile B, scope A,
#: scope B, seat to move, last capturer's team (-1: none)
ROW_FIELDS = 11


def position_row(pos: Position) -> list[int]:
    """``pos`` as one row of ROW_FIELDS ints (the training data's layout).

    >>> from scopone.deal import deal
    >>> len(position_row(deal(seed=1, cards_per_hand=4)))
    11
    """
    last = -1 if pos.last_capture is None else pos.last_capture
    return [*pos.hands, pos.table, pos.piles[0], pos.piles[1], pos.scope[0], pos.scope[1], pos.to_move, last]


def features(row: Sequence[int], perm: Sequence[int] | None = None) -> tuple[list[int], list[tuple[int, float]]]:
    """The network's inputs for one position row, the non-Denari suits renamed by
    ``perm`` (training, one of ``cards.SUIT_PERMUTATIONS``): the indices of the inputs that are 1 (a card's place, the
    last capturer, the bias) and the (index, value) of the summaries; every
    other input of the N_FEATURES is 0.  Pure Python, so that a guess needs no
    numpy (its import would cost a one-off solve more than the guess saves).

    >>> from scopone.deal import deal
    >>> ones, rest = features(position_row(deal(seed=1, cards_per_hand=4)))
    >>> len(ones), len(rest)
    (42, 26)
    """
    masks = [permute_suits(m, perm) if perm else m for m in row[:7]]
    mover, last = row[9], row[10]
    team = mover & 1
    own, other = masks[5 + team], masks[6 - team]
    ones = []
    for place, mask in enumerate([masks[(mover + off) & 3] for off in range(4)] + [masks[4], own, other]):
        ones += [40 * place + c for c in cards_of(mask)]
    if last == team:
        ones.append(N_PLACES)
    elif last >= 0:
        ones.append(N_PLACES + 1)
    ones.append(N_PLACES + 2)
    in_play = masks[0] | masks[1] | masks[2] | masks[3] | masks[4]
    rest: list[float] = []
    counts = []
    for mask in (own, other, in_play):
        cards, denari = mask.bit_count(), (mask & DENARI_MASK).bit_count()
        counts.append((cards, denari))
        rest += [cards / 20, denari / 5]
        rest += [b / 21 for b in primiera_by_suit(mask)]
    for k in (0, 1):  # the card and the Denari majorities: decided either way, and the lead
        a, b, r = counts[0][k], counts[1][k], counts[2][k]
        lead = (a - b) / math.sqrt(r + 1)
        rest += [float(a > b + r), float(b > a + r), lead, math.tanh(lead)]
    return ones, list(enumerate(rest, N_PLACES + 3))


def dense(row: Sequence[int], perm: Sequence[int] | None = None) -> list[float]:
    """:func:`features` as all N_FEATURES inputs (for training)."""
    x = [0.0] * N_FEATURES
    ones, rest = features(row, perm)
    for i in ones:
        x[i] = 1.0
    for i, v in rest:
        x[i] = v
    return x


def targets(rows: Sequence[Sequence[int]], values: Sequence[int]) -> list[float]:
    """What the network learns: the final value for the mover's team (``values`` are
    team A's) less the scope it leads by so far."""
    return [float((v - (r[7] - r[8])) * (1 - 2 * (r[9] & 1))) for r, v in zip(rows, values)]


def _read_npz(path: Path) -> list[tuple[tuple[int, ...], array]]:
    """The arrays of an ``np.savez`` file of little-endian float32 arrays (the .npy
    format 1.0 that numpy writes for them), without numpy."""
    out = []
    with zipfile.ZipFile(path) as z:
        for i in range(len(z.namelist())):
            raw = z.read(f"arr_{i}.npy")
            if raw[:6] != b"\x93NUMPY" or raw[6] != 1:
                raise ValueError(f"{path}: arr_{i} is not a .npy array of format 1.0")
            head = 10 + int.from_bytes(raw[8:10], "little")  # magic, version, header length, header
            meta = ast.literal_eval(raw[10:head].decode("latin1"))
            if meta["descr"] != "<f4" or meta["fortran_order"]:
                raise ValueError(f"{path}: arr_{i} is not little-endian float32 in C order")
            data = array("f")
            data.frombytes(raw[head:])
            if sys.byteorder == "big":
                data.byteswap()
            shape = tuple(meta["shape"])
            if len(data) != math.prod(shape):
                raise ValueError(f"{path}: arr_{i} holds {len(data)} numbers, not the {shape} its header says")
            out.append((shape, data))
    if len(out) != 6 or out[0][0][0] != N_FEATURES:
        raise ValueError(f"{path}: not the six arrays of a network over {N_FEATURES} inputs")
    return out


class ValueNet:
    """Two ReLU layers over :func:`features`; weights as ``np.savez(W1, b1, W2, b2, W3, b3)``
    (W1: inputs x 256, W2: 256 x 32, W3: 32 x 1).

    :meth:`predict` runs in the compiled core (``net_forward``, a few microseconds)
    where it is built, else in pure Python (:meth:`predict_reference`, about 2.5 ms),
    the same sums in the same order."""

    def __init__(self, weights: Sequence[tuple[tuple[int, ...], Sequence[float]]]):
        (s1, w1), (_, b1), (s2, w2), (_, b2), (_, w3), (_, b3) = weights
        self.shapes = (s1, s2)
        # float32 buffers, as the file holds them: the compiled forward pass reads them in place
        self.arrays = tuple(array("f", w) for w in (w1, b1, w2, b2, w3, b3))
        self._lists = None

    @classmethod
    def load(cls, path: Path = WEIGHTS) -> "ValueNet":
        return cls(_read_npz(path))

    def predict(self, row: Sequence[int]) -> float:
        """The network's output for one position row (the mover's team, less its
        scope lead).

        >>> from scopone.deal import deal
        >>> net, row = _net(), position_row(deal(seed=3, cards_per_hand=7))
        >>> abs(net.predict(row) - net.predict_reference(row)) < 1e-9
        True
        """
        forward = _compiled_forward()
        if forward is None:
            return self.predict_reference(row)
        ones, rest = features(row)
        return forward(*self.arrays, ones, rest)

    def predict_reference(self, row: Sequence[int]) -> float:
        """:meth:`predict` in pure Python: the first layer adds only the rows of the
        inputs that are not 0 (about 70 of 309)."""
        if self._lists is None:  # one list per input, one per unit of the second layer: laid out on first use
            (s1, s2), (w1, b1, w2, b2, w3, b3) = self.shapes, self.arrays
            h1, h2 = s1[1], s2[1]
            self._lists = ([list(w1[i * h1:(i + 1) * h1]) for i in range(s1[0])], list(b1),
                           [list(w2[j::h2]) for j in range(h2)], list(b2), list(w3), float(b3[0]))
        rows1, b1, cols2, b2, w3, b3 = self._lists
        ones, rest = features(row)
        h = b1
        for i in ones:
            h = [a + b for a, b in zip(h, rows1[i])]
        for i, v in rest:
            if v:
                h = [a + v * b for a, b in zip(h, rows1[i])]
        h = [a if a > 0 else 0.0 for a in h]
        out = b3
        for col, b, w in zip(cols2, b2, w3):
            t = b + sum(map(float.__mul__, h, col))
            if t > 0:
                out += t * w
        return out

    def value(self, pos: Position) -> float:
        """The predicted final value of ``pos`` for team A (scope included)."""
        sign = 1 - 2 * (pos.to_move & 1)
        return self.predict(position_row(pos)) * sign + (pos.scope[0] - pos.scope[1])


@lru_cache(maxsize=1)
def _net() -> ValueNet:
    return ValueNet.load()


@lru_cache(maxsize=1)
def _compiled_forward():
    """The compiled core's ``net_forward``, or None where the core is not built."""
    try:
        from .core import _core
    except ImportError:
        return None
    return getattr(_core, "net_forward", None) if _core is not None else None


def applies(pos: Position) -> bool:
    """Whether the network was trained for ``pos``: the standard rules of play and
    scoring (how the cards were dealt and the game's target do not matter to one
    position) and all 40 cards in it."""
    if replace(pos.rules, deal="scientifico", target=11) != Rules():
        return False
    return (pos.hands[0] | pos.hands[1] | pos.hands[2] | pos.hands[3] | pos.table | pos.piles[0] |
            pos.piles[1]) == FULL_DECK


#: the fewest cards left where the network guesses (from 5 cards a hand, part of
#: a round played).  Compiled (``net_forward``) a guess takes about 0.1 ms after
#: the weights' one-off read (about 8 ms with the module's import): solving 40
#: 5-card endgames in one process took 0.25 s against 0.34 s with the score so
#: far (19% fewer nodes), 4-card endgames the same time either way, so the network
#: starts where it pays.  A process that solves one 5-card position pays the 8 ms
#: (docs/solver-notebook.md, "A twenty-fourth session").  From 9 cards up to a
#: whole deal it is trusted without measurement (a guess moves only where the
#: tests start, never a value)
MIN_CARDS = 17


def net_guess(pos: Position) -> int:
    """MTD(f)'s first guess for ``pos``: the network's value rounded to the nearest
    point, or the score so far where the network does not apply or the position
    is small (under MIN_CARDS cards left).

    >>> from scopone.deal import deal
    >>> small = deal(seed=3, cards_per_hand=4)
    >>> net_guess(small) == small.score().value
    True
    """
    if pos.cards_left() < MIN_CARDS or not applies(pos):
        return pos.score().value
    return math.floor(_net().value(pos) + 0.5)
