"""The soft shadows under the cards and the glows round the trick's cards.

Every card casts a soft shadow on the felt: one shadow sprite a card, all drawn
under all the cards, lifted further while the card flies.  Fill is what costs
without a GPU, so only the cards whose shadow shows cast one (:meth:`Shadows.casters`).
The card that led the trick glows faintly; the card that takes it glows gold.
"""

from __future__ import annotations

import math
from typing import Any

import arcade

from game.common import paint, textures
from game.common.constants import CARD_W
from game.common.position import Position
from game.table.scene.sprites import OFFSCREEN, CardSprite, lerp

SHADOW_BASE = (96, 178)  # shadows and glows are made for the bottom hand's cards and scaled to others
SHADOW_MARGIN = 12
SHADOW_REST = (2.0, -3.0)  # a card at rest: offset of its shadow (scaled with the card)
SHADOW_LIFT = (7.0, -11.0)  # at the top of its flight
#: kind -> (colour, alpha, blur, line width, spread) of a glow round a card
GLOWS = {"win": ((255, 210, 80), 255, 5.0, 3.0, 4), "lead": ((226, 232, 216), 150, 3.0, 1.5, 1)}
_SOFT: dict[str, arcade.Texture] = {}


def soft_textures(atlas: Any) -> dict[str, arcade.Texture]:
    """The shadow of a card and the glows round a card (made once, put in ``atlas``)."""
    if not _SOFT:
        w, h = SHADOW_BASE
        m = SHADOW_MARGIN
        _SOFT["shadow"] = arcade.Texture(paint.soft_box(w - 2, h - 2, 9, 3.5, 150, m + 1),
                                         hash=f"soft:shadow:{textures.VERSION}")
        for kind, (colour, alpha, blur, line, spread) in GLOWS.items():
            _SOFT[kind] = arcade.Texture(paint.ring_glow(w, h, 9, blur, alpha, m, colour, line, spread),
                                         hash=f"soft:{kind}:{textures.VERSION}")
    for tex in _SOFT.values():
        atlas.add(tex)
    return _SOFT


class Shadows:
    """One shadow sprite for each card, laid under it each frame (:meth:`lay`)."""

    def __init__(self, cards: list[CardSprite], soft: dict[str, arcade.Texture]) -> None:
        self.cards = cards
        self.soft = soft
        self.sprites = textures.sprite_list()
        self._under: list[arcade.Sprite] = []
        for _s in cards:
            sh = arcade.Sprite(soft["shadow"])
            sh.position = OFFSCREEN
            self._under.append(sh)
            self.sprites.append(sh)

    def casters(self, pos: Position | None) -> set[int]:
        """The cards that cast a shadow this frame (by id), fill being what costs:
        every card of the trick and every card in flight; on the table only the top
        of each stack (piles, the pack, the discard) and the last card of each hand
        at rest (a hand's other shadows would lie under its cards; a hidden hand at
        rest is a fan image that carries its own).  ``pos``: the position laid out,
        whose shown hands say who holds a face-up card."""
        out: set[int] = set()
        last: dict[object, CardSprite] = {}  # a hand at rest: its owner -> its last card
        low = []
        for s in self.cards:
            if not s.visible or s.covered or s.position == OFFSCREEN:
                continue
            z = s.place.z
            if z >= 250 or (s.moving and z >= 100):  # the trick, the stock, a card in flight
                out.add(id(s))
            elif z < 100:
                low.append(s)
            else:
                owner = _holder(s, pos)
                got = last.get(owner)
                if got is None or s.z > got.z:
                    last[owner] = s
        out.update(id(s) for s in last.values())
        low.sort(key=lambda s: -s.z)
        tops: list[tuple[float, float]] = []
        for s in low:
            x, y = s.place.x, s.place.y
            if all(abs(x - a) > 30 or abs(y - b) > 30 for a, b in tops):
                tops.append((x, y))
                out.add(id(s))
        return out

    def lay(self, now: float, pos: Position | None, marks: dict[int, str], strip_ids: set[int]) -> None:
        """Lay each card's shadow (or glow, ``marks``: card -> "lead" or "win") under
        it, lifted with the card in flight; none under a card drawn as a strip."""
        casters = self.casters(pos)
        for s, sh in zip(self.cards, self._under, strict=True):
            want = None
            if s.visible and s.position != OFFSCREEN and id(s.texture) not in strip_ids \
                    and s._color[3] == 255 and id(s) in casters:
                want = self._shadow_of(s, now, marks)
            if want is None:
                if sh.position != OFFSCREEN:
                    sh.position = OFFSCREEN
                continue
            tex, x, y, angle, scale = want
            if sh.texture is not tex:
                sh.texture = tex
            if sh._position != (x, y):
                sh.position = (x, y)
            if sh._angle != angle:
                sh.angle = angle
            if sh._scale != (scale, scale):
                sh.scale = scale

    def _shadow_of(self, s: CardSprite, now: float,
                   marks: dict[int, str]) -> tuple[arcade.Texture, float, float, float, float]:
        """The texture, centre, angle and scale of what lies under card ``s``."""
        k = s.place.scale * CARD_W / SHADOW_BASE[0]
        kind = marks.get(s.key[1]) if s.key[0] == "card" and s.face_up else None
        if kind is not None:
            return self.soft[kind], s.center_x, s.center_y, s.angle, k
        tw = s.tweens[0] if s.moving else None
        lift = math.sin(math.pi * min(1.0, max(0.0, (now - tw.start) / tw.duration))) if tw is not None else 0.0
        ox = lerp(SHADOW_REST[0], SHADOW_LIFT[0], lift) * k
        oy = lerp(SHADOW_REST[1], SHADOW_LIFT[1], lift) * k
        return self.soft["shadow"], round(s.center_x + ox), round(s.center_y + oy), s.angle, k * (1 + 0.05 * lift)


def _holder(s: CardSprite, pos: Position | None) -> object:
    """Whose hand a card at rest lies in: the owner of a back, the seat whose shown
    hand holds a face (None where no position is laid out)."""
    k = s.key
    if k[0] == "back":
        return k[1]
    if pos is None:
        return None
    return next((seat for seat, h in enumerate(pos.hands) if h is not None and h >> k[1] & 1), None)


__all__ = ["GLOWS", "SHADOW_BASE", "SHADOW_LIFT", "SHADOW_MARGIN", "SHADOW_REST", "Shadows", "soft_textures"]
