"""The player interface: a seat's view and its legal commands in, one command out.

A player never receives the full state.  Its choice is a pure function of the
view, the legal list and the event index (its randomness is seeded by game seed,
event index and seat), so a simulated game replays exactly.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Sequence
from typing import Protocol

from .rng import Rng, mix64
from .state import Command
from .view import SeatView


class Player(Protocol):
    name: str

    def choose(self, view: SeatView, legal: Sequence[Command], event_index: int) -> Command: ...


def decision_seed(view: SeatView, event_index: int) -> int:
    """The seed of one decision: (game seed, event index, seat)."""
    return mix64(view.seed, event_index, view.seat)


class RandomPlayer:
    """The baseline: a uniformly random legal command."""

    name = "random"

    def choose(self, view: SeatView, legal: Sequence[Command], event_index: int) -> Command:
        return legal[Rng(decision_seed(view, event_index)).below(len(legal))]


#: Level name -> factory.  The AI package registers its levels here on import.
LEVELS: dict[str, Callable[[], Player]] = {"random": RandomPlayer}


def _load_ai_levels() -> None:
    """Import the AI package (if present) so that it registers its levels."""
    if importlib.util.find_spec("engine.ai") is not None:
        importlib.import_module("engine.ai")


def level_names() -> list[str]:
    _load_ai_levels()
    return list(LEVELS)


def make_player(level: str) -> Player:
    _load_ai_levels()
    try:
        return LEVELS[level]()
    except KeyError:
        raise ValueError(
            f"unknown player level {level!r}; choose from {', '.join(LEVELS)}"
        ) from None
