"""The games: one module each, each making one :class:`~engine.ruleset.Ruleset`.

Adding a game means adding a module here and importing it below.
"""

from __future__ import annotations

from .piedicavallo import PIEDICAVALLO
from .scarto import SCARTO

__all__ = ["PIEDICAVALLO", "SCARTO"]
