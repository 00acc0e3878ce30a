"""AI players (easy, medium, hard); importing this package registers the levels
in :data:`engine.players.LEVELS`.

Create one with ``engine.players.make_player("hard")`` or directly
(``HardPlayer(budget_ms=250)``); ask for advice with :func:`hint`.
"""

from __future__ import annotations

from ..player_api import LEVELS
from .players import EasyPlayer, HardPlayer, MediumPlayer, card_values, hint

LEVELS["easy"] = EasyPlayer
LEVELS["medium"] = MediumPlayer
LEVELS["hard"] = HardPlayer

__all__ = ["EasyPlayer", "HardPlayer", "MediumPlayer", "card_values", "hint"]
