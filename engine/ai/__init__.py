"""AI players (easy, medium, hard), listed by name with the other levels in
:data:`engine.players.LEVELS`.

Create one with ``engine.players.make_player("hard")`` or directly
(``HardPlayer(budget_ms=250)``); ask for advice with :func:`hint`.
"""

from __future__ import annotations

from .players import EasyPlayer, HardPlayer, MediumPlayer, card_values, hint

__all__ = ["EasyPlayer", "HardPlayer", "MediumPlayer", "card_values", "hint"]
