"""A deal (or a game) in the terminal: one seat is a person, the others are players.

The person is a :class:`~scopone.players.human.Human` player, so the deal is
played by the same loop as a match (:func:`scopone.players.match.play_deal`);
this module only wires the views of :mod:`scopone.render.terminal` to it: the seat's
view and numbered moves at its turn, every other play as it is made, the
score breakdown at the end, and the record written with ``save``.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Callable

from rich.console import Console
from rich.text import Text

from .deal import deal
from .formats import GameRecord, check_output, write_json_atomic
from .players import make_player
from .players.human import Human, QuitGame
from .players.match import play_deal
from .position import SEAT_NAMES, Move, Position
from .render.terminal import legend_text, move_styled, score_view, seat_view
from .rules import Rules
from .scoring import TEAMS, game_winner


def _deal_path(save: str, k: int) -> str:
    if k == 1:
        return save
    p = Path(save)
    return str(p.with_name(f"{p.stem}-{k}{p.suffix or '.json'}"))


def play_session(*, seat: int, partner: str, opponents: str, seed: int | None, first: int | None,
                 rules: Rules | None, whole_game: bool, save: str | None, console: Console, notation: str,
                 ask: Callable[[], str | None], tell: Callable[[str], None]) -> int:
    """Play with a person at ``seat``; returns the exit code (0, or 1 when they quit)."""
    rules = rules or Rules()
    if save is not None:
        check_output(save)
    seed = random.randrange(2**32) if seed is None else seed
    rng = random.Random(f"scopone-play:{seed}")
    human = Human(show=lambda obs, moves: console.print(seat_view(obs, moves, notation)), ask=ask, tell=tell)
    players = [human if s == seat else make_player(partner if (s & 1) == (seat & 1) else opponents)
               for s in range(4)]
    names = ["you" if s == seat else players[s].name for s in range(4)]
    totals = [0, 0]
    k = 0
    while True:
        k += 1
        start = deal(rng.randrange(2**32), rules, first=((first if first is not None else seed % 4) + k - 1) % 4)
        tell(f"Deal {k} (seed {seed}): you are {SEAT_NAMES[seat]}, team {TEAMS[seat & 1]} with "
             f"{SEAT_NAMES[(seat + 2) % 4]}; {SEAT_NAMES[start.to_move]} plays first.")
        if k == 1:
            console.print(legend_text(notation))
        played: list[Move] = []

        def on_play(pos: Position, s: int, move: Move) -> None:
            played.append(move)
            console.print(Text(f"{SEAT_NAMES[s]} ({names[s]}) plays ") + move_styled(move, notation))

        try:
            final, _ = play_deal(start, players, f"scopone-play:{seed}:{k}", on_play)
        except QuitGame:
            path = _deal_path(save, k) if save is not None else None
            if path:
                write_json_atomic(path, GameRecord(start, [m.text() for m in played],
                                                   {"players": names}).to_dict())
            tell("stopped" + (f"; the deal so far is in {path}" if path else ""))
            return 1
        score = final.result()
        console.print(score_view(score, title=f"Deal {k}: final score"))
        totals = [totals[0] + score.points[0], totals[1] + score.points[1]]
        if save is not None:
            path = _deal_path(save, k)
            write_json_atomic(path, GameRecord(start, [m.text() for m in final.move_stack],
                                               {"players": names, "event": f"scopone play, seed {seed}, deal {k}"}).to_dict())
            tell(f"saved {path}")
        if not whole_game:
            return 0
        tell(f"Game: A {totals[0]}, B {totals[1]} (target {rules.target})")
        winner = game_winner((totals[0], totals[1]), rules, score.capote)
        if winner is not None:
            tell(f"Team {TEAMS[winner]} wins the game" + (": well played!" if winner == (seat & 1) else "."))
            return 0
