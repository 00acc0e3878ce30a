"""The player interface: a seat's view and its legal commands in, one command out.

A player never receives the full state.  Its choice is a pure function of the
view, the legal list and the event index (its randomness is seeded by game seed,
event index and seat), so a simulated game replays exactly.

This module is below the AI package, which imports the interface;
:mod:`engine.players`, above both, lists the levels and makes a player of any
level by name (so no import circle ties the AI to the names it serves).
"""

from __future__ import annotations

from collections.abc import Sequence
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


__all__ = ["Player", "RandomPlayer", "decision_seed"]
