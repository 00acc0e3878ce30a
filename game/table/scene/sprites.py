"""The card sprites: what each shows, where it rests, the tweens that move it.

A :class:`CardSprite` is thin: a key (``("card", c)`` or ``("back", owner, i)``,
see :mod:`game.common.layout`), the :class:`~game.common.layout.Place` it rests at
or is bound for, and its queue of :class:`Tween`.  :class:`CardLook` picks the
texture a sprite shows at a size (a face of the game's pack or the back), made
for the nearest size so that a card at rest is drawn 1:1.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import arcade

from game.common import textures
from game.common.constants import CARD_W
from game.common.layout import Key, Place

Ease = Callable[[float], float]
Colour = tuple[int, int, int] | tuple[int, int, int, int]

#: Where hidden sprites wait.  A sprite with visible=False is still rasterised by
#: arcade's shaders (its fragments are discarded one by one); one outside the
#: viewport is culled before any fill, which saves ~1-2 ms a frame on llvmpipe.
OFFSCREEN = (-10000.0, -10000.0)


@dataclass(slots=True)
class Tween:
    start: float  # scene clock time
    duration: float
    end: Place
    ease: Ease
    frm: Place | None = None  # where it set off from (None: not begun yet)


class CardSprite(arcade.Sprite):
    """A thin sprite: what it shows (``key``), where it is (``place``), its tweens."""

    def __init__(self, back: arcade.Texture) -> None:
        super().__init__(back)
        self.key: Key = ("back", "deck", 0)
        self.place = Place(0, 0)
        self.tweens: deque[Tween] = deque()
        self.face_up = False
        self.z = 0.0
        self.covered = False  # exactly under a card drawn later: kept off screen (prepare)

    @property
    def moving(self) -> bool:
        """A tween of this card has begun (it is in flight, not waiting to start)."""
        return bool(self.tweens) and self.tweens[0].frm is not None


def set_visible(s: CardSprite, visible: bool) -> None:
    """Show a card at its place, or park it off screen (see :data:`OFFSCREEN`)."""
    s.visible = visible
    s.position = (s.place.x, s.place.y) if visible else OFFSCREEN


def set_colour(t: arcade.Text, colour: Colour) -> None:
    """Colour a text only if its colour changes (alpha 255 when not given)."""
    want = tuple(colour) if len(colour) == 4 else (*colour, 255)
    if tuple(t.label.color) != want:
        t.color = want  # type: ignore[assignment]


def lerp(a: float, b: float, t: float) -> float:
    return a + (b - a) * t


def lerp_angle(a: float, b: float, t: float) -> float:
    """From angle ``a`` toward ``b`` (degrees) the short way round."""
    d = (b - a + 180.0) % 360.0 - 180.0
    return a + d * t


class CardLook:
    """The textures a card sprite shows: the game's faces and the back, each made
    for the nearest size (drawn 1:1 at rest)."""

    def __init__(self, tex: textures.Textures, faces: list[dict[int, arcade.Texture]]) -> None:
        self.tex = tex
        self.faces = faces

    def texture_for(self, s: CardSprite, face_up: bool, width: float) -> arcade.Texture:
        """The face (a known card shown face up) or the back, made for the nearest size."""
        tex: arcade.Texture
        if face_up and s.key[0] == "card":
            tex = textures.Textures.nearest(self.faces[s.key[1]], width)
        else:
            tex = self.tex.back_for(width)
        return tex

    def set_face(self, s: CardSprite, face_up: bool, scale: float | None = None) -> None:
        """Show the face or the back, from the texture made for the nearest size."""
        width = CARD_W * (s.place.scale if scale is None else scale)
        tex = self.texture_for(s, face_up, width)
        s.face_up = face_up and s.key[0] == "card"
        if s.texture is not tex:
            s.texture = tex
        s.scale = width / tex.width


__all__ = ["OFFSCREEN", "CardLook", "CardSprite", "Tween", "lerp", "lerp_angle", "set_colour", "set_visible"]
