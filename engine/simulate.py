"""Playing whole games with players in every seat (simulate, tournaments, autoplay)."""

from __future__ import annotations

import os
from collections.abc import Sequence

from .game import Game
from .player_api import Player
from .ruleset import Ruleset
from .state import IllegalMove, command_text


def play_game(
    seed: int,
    players: Sequence[Player],
    n_deals: int = 1,
    *,
    rules: Ruleset,
    autosave: str | os.PathLike[str] | None = None,
    extra: dict[str, object] | None = None,
) -> Game:
    """Play a single deal or a whole game with one player per seat; returns the game."""
    game = Game(seed, n_deals, [p.name for p in players], autosave=autosave, extra=extra,
                rules=rules)
    return play_out(game, players)


def play_out(game: Game, players: Sequence[Player]) -> Game:
    """Play ``game`` to its end with one player per seat; returns the game."""
    while True:
        legal = game.legal()
        if not legal:
            return game
        play_turn(game, players[game.state.turn], legal)


def play_turn(game: Game, player: Player, legal: Sequence[object] | None = None) -> None:
    """Ask the player whose turn it is for a command, check it is legal, submit it."""
    seat = game.state.turn
    legal = game.legal() if legal is None else legal
    choice = player.choose(game.view(seat), legal, game.cursor)  # type: ignore[arg-type]
    if choice not in legal:
        raise IllegalMove(
            f"player {player.name!r} at seat {seat} chose "
            f"{command_text(game.rules, choice)}, not a legal command"
        )
    game.submit(choice)
