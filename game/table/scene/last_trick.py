"""The last trick shown again, in a panel over the trick (the "Last trick" button).

Its cards lie in the order they were played, each over its player's name; the
card that led glows faintly and is tagged "led", the card that took it glows gold
and is tagged "took it" (the ruleset's winner: the engine's rule).
"""

from __future__ import annotations

from collections.abc import Sequence

import arcade
import pyglet

from engine.ruleset import Ruleset
from game.common import layout, textures
from game.common.constants import CARD_W, FONT, GOLD, INK, TRICK_SCALE
from game.common.i18n import N_, _
from game.common.ui import fit_font, panel_picture
from game.table.scene.shadows import SHADOW_BASE

#: the tags under the card that led and the one that took it
N_("led"), N_("took it")

#: a trick: its leader and its cards in the order played
Trick = tuple[int, tuple[int, ...]]


class LastTrick:
    """The panel of one trick, made when first drawn and kept while it shows."""

    def __init__(self, rules: Ruleset, faces: list[dict[int, arcade.Texture]],
                 soft: dict[str, arcade.Texture]) -> None:
        self.rules = rules
        self.faces = faces
        self.soft = soft
        self._made_for: Trick | None = None
        self._glows: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self._cards: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self._batch = pyglet.graphics.Batch()
        self._texts: list[arcade.Text] = []

    def bounds(self) -> tuple[float, float, float, float]:
        left, bottom, right, top = layout.overlay_rect(self.rules.n_seats)
        return left - 2, bottom - 2, right + 2, top + 2

    def _build(self, trick: Trick, names: Sequence[str]) -> None:
        leader, cards = trick
        n = self.rules.n_seats
        left, bottom, right, top = layout.overlay_rect(n)
        win = self.rules.trick_winner_index(cards)
        glows: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        faces: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        glows.append(arcade.Sprite(panel_picture(right - left, top - bottom, "panel", 12), 1.0,
                                   (left + right) / 2, (bottom + top) / 2))
        batch = pyglet.graphics.Batch()
        cx = (left + right) / 2
        texts = [arcade.Text(_("Last trick (click to close)"), cx, top - 19, INK, 13, anchor_x="center",
                             anchor_y="center", font_name=FONT, batch=batch)]
        y = bottom + 146
        k = layout.card_size(TRICK_SCALE)[0] / SHADOW_BASE[0]
        for i, c in enumerate(cards):
            seat = (leader + i) % n
            x = layout.overlay_card_x(n, i)
            kind = "win" if i == win else ("lead" if i == 0 else None)
            if kind is not None:
                glows.append(arcade.Sprite(self.soft[kind], k, x, y))
            face = textures.Textures.nearest(self.faces[c], CARD_W * TRICK_SCALE)
            faces.append(arcade.Sprite(face, 1.0, x, y))
            name = arcade.Text(names[seat], x, bottom + 52, GOLD if i == win else INK, 12,
                               anchor_x="center", anchor_y="center", font_name=FONT, bold=True, batch=batch)
            fit_font(name, 100, 12, 9)
            texts.append(name)
            tags = [_("led")] if i == 0 else []
            if i == win:
                tags.append(_("took it"))
            if tags:
                texts.append(arcade.Text(" · ".join(tags), x, bottom + 32, GOLD, 11, anchor_x="center",
                                         anchor_y="center", font_name=FONT, batch=batch))
        self._glows, self._cards, self._batch, self._texts = glows, faces, batch, texts
        self._made_for = trick

    def draw(self, trick: Trick, names: Sequence[str], pixelated: bool) -> None:
        if self._made_for != trick:
            self._build(trick, names)
        self._glows.draw()
        self._cards.draw(pixelated=pixelated)
        self._batch.draw()


__all__ = ["LastTrick"]
