"""Playing whole games with players in every seat (simulate, tournaments, autoplay)."""

from __future__ import annotations

import os
from collections.abc import Sequence

from .game import Game
from .players import Player
from .state import IllegalMove


def play_game(
    seed: int,
    players: Sequence[Player],
    n_deals: int = 1,
    *,
    autosave: str | os.PathLike[str] | None = None,
    extra: dict[str, object] | None = None,
) -> Game:
    """Play a single deal or a match with one player per seat; returns the game."""
    game = Game(seed, n_deals, [p.name for p in players], autosave=autosave, extra=extra)
    while True:
        legal = game.legal()
        if not legal:
            return game
        seat = game.state.turn
        choice = players[seat].choose(game.view(seat), legal, game.cursor)
        if choice not in legal:
            raise IllegalMove(
                f"player {players[seat].name!r} at seat {seat} chose {choice}, not a legal command"
            )
        game.submit(choice)
