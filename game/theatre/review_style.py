"""The review's colours and the labels' names, shared by its panel, its chart, the
cards it frames on the table and the decisions it marks on the seek bar."""

from __future__ import annotations

from arcade.types import RGBA255

from game.common.i18n import N_, _

Colour = RGBA255

#: the labels' colours (as a chess review's)
LABEL_COLOURS: dict[str, Colour] = {
    "best": (96, 204, 112, 255),
    "good": (160, 206, 178, 255),
    "inaccuracy": (242, 204, 72, 255),
    "mistake": (244, 146, 60, 255),
    "blunder": (236, 74, 62, 255),
}
LABEL_NAMES = {"best": N_("Best"), "good": N_("Good"), "inaccuracy": N_("Inaccuracy"),
               "mistake": N_("Mistake"), "blunder": N_("Blunder")}
AI_COLOUR: Colour = (110, 200, 255, 255)
DIM_INK: Colour = (190, 196, 182, 255)
TRACK: Colour = (245, 240, 225, 34)


def label_name(label: str) -> str:
    """A label in the player's language."""
    return _(LABEL_NAMES[label])
