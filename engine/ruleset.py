"""The games by name: ``ruleset("scarto")``, ``variant_names()``.

A game is one frozen :class:`Ruleset` (see :mod:`engine.rulebook`, re-exported
here: import it from this module).  Each game is a module of :mod:`engine.variants`,
which lists them all in :data:`~engine.variants.VARIANTS` and finds one by name;
this module re-exports that lookup beside the ruleset's type, so a caller needs
one import for both.
"""

from __future__ import annotations

from .rulebook import Combinations, Outcome, Rand, Ruleset
from .variants import VARIANTS, ruleset, variant_names

__all__ = ["VARIANTS", "Combinations", "Outcome", "Rand", "Ruleset", "ruleset", "variant_names"]
