"""The games by name: ``ruleset("scarto")``, ``variant_names()``.

A game is one frozen :class:`Ruleset` (see :mod:`engine.rulebook`, re-exported
here: import it from this module).  Each game is a module of :mod:`engine.variants`
that makes its pack and its ruleset and registers both on import.  The rulebook
and the cards are below the games and never import them; this module, above the
games, loads them when a name is first asked for, lends :mod:`engine.cards` the
same loader for a pack asked for by name, and lends :mod:`engine.rulebook` its
:func:`ruleset` to find a pickled ruleset again; so no import circle ties the
rules to the games that use them.
"""

from __future__ import annotations

from . import cards
from .rulebook import REGISTRY, Combinations, Outcome, Rand, Ruleset, register, set_finder


def _load_variants() -> None:
    from . import variants  # noqa: F401  (each variant registers itself and its pack)


cards.set_games_loader(_load_variants)


def ruleset(name: str) -> Ruleset:
    """The ruleset of a variant name (``"piedicavallo"``, ``"scarto"``)."""
    if not REGISTRY:
        _load_variants()
    try:
        return REGISTRY[name]
    except KeyError:
        raise ValueError(
            f"unknown variant {name!r}: this program plays {', '.join(map(repr, REGISTRY))}"
        ) from None


set_finder(ruleset)  # a pickled ruleset comes back through ruleset(): one instance a process


def variant_names() -> list[str]:
    if not REGISTRY:
        _load_variants()
    return list(REGISTRY)


__all__ = [
    "Combinations", "Outcome", "Rand", "Ruleset", "register", "ruleset", "variant_names",
]
