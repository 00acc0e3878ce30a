"""The games: one module each, each making one :class:`~engine.rulebook.Ruleset`,
and :data:`VARIANTS`, the list of them all, in which :func:`ruleset` finds a game
by name (python-chess's ``VARIANTS`` and ``find_variant`` are the model).

Adding a game means adding a module here and its ruleset to :data:`VARIANTS`.
"""

from __future__ import annotations

from ..rulebook import Ruleset
from .piedicavallo import PIEDICAVALLO
from .scarto import SCARTO

#: Every game this program plays, in the order menus and messages list them.
VARIANTS: tuple[Ruleset, ...] = (PIEDICAVALLO, SCARTO)


def ruleset(name: str) -> Ruleset:
    """The ruleset of a game's name (``"piedicavallo"``, ``"scarto"``); a
    ``ValueError`` naming the games for any other name."""
    for rules in VARIANTS:
        if rules.name == name:
            return rules
    raise ValueError(f"unknown variant {name!r}: this program plays {', '.join(map(repr, variant_names()))}")


def variant_names() -> list[str]:
    return [rules.name for rules in VARIANTS]


__all__ = ["PIEDICAVALLO", "SCARTO", "VARIANTS", "ruleset", "variant_names"]
