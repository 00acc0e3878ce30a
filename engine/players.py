"""Players by level name: ``make_player("hard")``, ``level_names()``.

The interface itself (:class:`Player`, :func:`decision_seed`, the random
baseline, the :data:`LEVELS` registry) lives in :mod:`engine.player_api`, below
the AI package, and is re-exported here; this module sits above the AI, which
it imports so that the AI's levels are registered before a name is looked up.
"""

from __future__ import annotations

from .player_api import LEVELS, Player, RandomPlayer, decision_seed


def _load_ai_levels() -> None:
    """Import the AI package so that it registers its levels in :data:`LEVELS`."""
    from . import ai  # noqa: F401  (importing the package registers the levels)


def level_names() -> list[str]:
    _load_ai_levels()
    return list(LEVELS)


def make_player(level: str, budget_ms: int | None = None) -> Player:
    """A player of ``level``; ``budget_ms``, if given, is the deadline a decision of
    the levels that search against the clock (hard; a server's setting), which
    the other levels do not have."""
    _load_ai_levels()
    try:
        player = LEVELS[level]()
    except KeyError:
        raise ValueError(
            f"unknown player level {level!r}; choose from {', '.join(LEVELS)}"
        ) from None
    if budget_ms is not None and hasattr(player, "budget_ms"):
        player.budget_ms = budget_ms
    return player


__all__ = ["LEVELS", "Player", "RandomPlayer", "decision_seed", "level_names", "make_player"]
