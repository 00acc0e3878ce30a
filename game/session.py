"""Starting, resuming and finishing games: the glue between the menu, the
engine's ``Game`` (with its autosave) and the table view."""

from __future__ import annotations

import random

from engine.game import Game
from engine.players import make_player
from engine.replay import ReplayError, read_replay

from . import paths

HUMAN = "human"


def new_game(*, partner: str, opponents: str, match: bool, practice: bool = False,
             seed: int | None = None, human: bool = True, players: list[str] | None = None) -> Game:
    """A fresh game autosaved in the user data folder; South is the human unless ``human=False``."""
    if seed is None:
        seed = random.SystemRandom().getrandbits(63)
    if players is None:
        players = [HUMAN if human else opponents, opponents, partner, opponents]
    extra: dict[str, object] = {"ui": "tarocchi-table"}
    if practice:
        extra["practice"] = True
    return Game(seed, 4 if match else 1, players, autosave=paths.autosave_path(), extra=extra)


def ai_players(game: Game) -> dict:
    return {s: make_player(p) for s, p in enumerate(game.header.players) if p != HUMAN}


def human_seats(game: Game) -> frozenset[int]:
    return frozenset(s for s, p in enumerate(game.header.players) if p == HUMAN)


def resumable():
    """The autosaved game if one was left unfinished (after a crash or a kill), else None.

    Returns ``(replay, message)``; a damaged file gives ``(None, message)``.
    """
    p = paths.autosave_path()
    if not p.is_file():
        return None
    try:
        rp = read_replay(p, tolerate_torn=True)
    except ReplayError as exc:
        return None, str(exc)
    final = rp.final
    if len(final.scores) >= final.n_deals:
        return None
    return rp, rp.notice


def resume() -> Game:
    rp = read_replay(paths.autosave_path(), tolerate_torn=True)
    return Game.from_replay(rp, autosave=paths.autosave_path())


def discard_autosave() -> None:
    try:
        paths.autosave_path().unlink()
    except OSError:
        pass
