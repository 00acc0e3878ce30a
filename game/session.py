"""Starting, resuming and finishing games: the glue between the menu, the
engine's ``Game`` (with its autosave) and the table view."""

from __future__ import annotations

import random

from engine.game import Game
from engine.players import make_player
from engine.replay import ReplayError, read_replay
from engine.ruleset import ruleset

from . import paths

HUMAN = "human"


def new_game(*, partner: str, opponents: str, match: bool, practice: bool = False,
             seed: int | None = None, human: bool = True, players: list[str] | None = None,
             variant: str = "piedicavallo") -> Game:
    """A fresh game autosaved in the user data folder; South is the human unless
    ``human=False``.  ``match``: the game's full length (a match of four deals,
    Scarto's three) instead of a single deal; ``partner`` plays opposite South
    where the game has partners."""
    rules = ruleset(variant)
    if seed is None:
        seed = random.SystemRandom().getrandbits(63)
    if players is None:
        others = [partner if s == rules.partner[0] else opponents for s in range(1, rules.n_seats)]
        players = [HUMAN if human else opponents, *others]
    extra: dict[str, object] = {"ui": "tarocchi-table"}
    if practice:
        extra["practice"] = True
    return Game(seed, rules.full_game if match else 1, players, autosave=paths.autosave_path(),
                extra=extra, rules=rules)


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
