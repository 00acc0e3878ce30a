"""Players by level name: ``make_player("hard")``, ``level_names()``.

:data:`LEVELS` lists every level this program plays, by name, with the module
and class that play it; :func:`make_player` imports that module when a player of
the level is first made.  The interface itself (:class:`Player`,
:func:`decision_seed`, the random baseline) lives in :mod:`engine.player_api`,
below the AI package, and is re-exported here.  This module is above the AI's
players, which never import it; their classes are looked up by module name, so
knowing the levels' names costs no import of the AI.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from .player_api import Player, RandomPlayer, decision_seed

#: Every level, by name: the module and the class of its player (called with no
#: argument for a player with the level's own settings).
LEVELS: dict[str, tuple[str, str]] = {
    "random": ("engine.player_api", "RandomPlayer"),
    "easy": ("engine.ai.players", "EasyPlayer"),
    "medium": ("engine.ai.players", "MediumPlayer"),
    "hard": ("engine.ai.players", "HardPlayer"),
}


def level_names() -> list[str]:
    return list(LEVELS)


def make_player(level: str, budget_ms: int | None = None) -> Player:
    """A player of ``level`` (a ``ValueError`` naming the levels for any other
    name); ``budget_ms``, if given, is the deadline a decision of the levels
    that search against the clock (hard; a server's setting), which the other
    levels do not have."""
    try:
        module, name = LEVELS[level]
    except KeyError:
        raise ValueError(
            f"unknown player level {level!r}; choose from {', '.join(LEVELS)}"
        ) from None
    cls: Callable[[], Player] = getattr(importlib.import_module(module), name)
    player = cls()
    if budget_ms is not None and hasattr(player, "budget_ms"):
        player.budget_ms = budget_ms
    return player


__all__ = ["LEVELS", "Player", "RandomPlayer", "decision_seed", "level_names", "make_player"]
