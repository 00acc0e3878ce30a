"""What the play table draws over the viewer's hand: the hint figures and the
keyboard cursor's outline.

A hint's mark stands over the strip of each card its right neighbour leaves in
view, just above the card's top edge, on a dark pill: ★ for the best card (in
gold), ≈ for one almost as good, else the points it loses ("−3"; the card's
tooltip says it in words);
where the cards lie close (a 25-card hand) the figures are smaller and every
other one a row higher (:func:`game.common.layout.hint_place`).  The keyboard
cursor is a gold outline round the card's place (not its sprite: a resting card
may be drawn as a strip).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

import arcade

from game.common import damage, layout
from game.common.constants import FONT, GOLD, INK
from game.common.layout import Place
from game.common.ui import panel_picture
from game.common.words import hint_figure
from game.table.scene.table_scene import TableScene

Box = tuple[float, float, float, float]


class HandMarks:
    """The hint figures and the cursor's outline over the bottom hand of ``table``."""

    def __init__(self, table: TableScene) -> None:
        self.table = table
        self.hint_texts: list[arcade.Text] = []
        self.hint_badges: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()  # the pill under each figure

    def _resting(self, cards: Collection[int]) -> list[tuple[Place, int]]:
        """Where each of ``cards`` comes to rest (its last tween's end), left to right."""
        out = [(s.tweens[-1].end if s.tweens else s.place, s.key[1]) for s in self.table.sprites
               if s.key[0] == "card" and s.key[1] in cards]
        return sorted(out, key=lambda pc: pc[0].x)

    def show_hints(self, hints: dict[int, float], hand: Collection[int]) -> None:
        """A figure over each card of ``hand`` that has a hint value (none: clear)."""
        self.hint_texts = []
        self.hint_badges = arcade.SpriteList()
        if not hints:
            return
        best = max(hints.values())
        placed = self._resting(hand)
        places = [p for p, _c in placed]
        for i, (p, c) in enumerate(placed):
            if c not in hints:
                continue
            w, _h = layout.card_size(p.scale)
            step = min(places[i + 1].x - p.x if i + 1 < len(places) else w, w)
            x, y, close = layout.hint_place(p.x - w / 2, self._figure_top(places, p, step), step, i)
            loss = best - hints[c]
            colour = GOLD if loss < 1e-9 else INK
            self.hint_texts.append(arcade.Text(hint_figure(loss), x, y, colour, 11 if close else 13,
                                               anchor_x="center", anchor_y="center", font_name=FONT, bold=True))
            bw = min(34 if close else 40, round(step) - 4)  # within its own strip
            bh = layout.HINT_ROW - 1
            self.hint_badges.append(arcade.Sprite(panel_picture(bw, bh, "status", radius=bh / 2), 1.0, x, y))

    @staticmethod
    def _figure_top(places: list[Place], p: Place, step: float) -> float:
        """The top a figure over card ``p`` stands on: a raised card reaching over this
        card's strip lifts it too; in a close hand (a raised card spans several
        strips) every figure stands over the highest card, on its two rows."""
        w = layout.card_size(p.scale)[0]
        mid, half = p.x - w / 2 + step / 2, 22
        return max(q.y + layout.card_size(q.scale)[1] / 2 for q in places
                   if step < 44 or abs(q.x - mid) < layout.card_size(q.scale)[0] / 2 + half)

    def cursor_box(self, card: int | None) -> Box | None:
        """The keyboard cursor's outline round ``card`` (left, bottom, width, height)."""
        if card is None:
            return None
        for s in self.table.sprites:
            if s.key == ("card", card):
                w, h = layout.card_size(s.place.scale)
                return s.place.x - w / 2 - 3, s.place.y - h / 2 - 3, w + 6, h + 6
        return None

    def damage_items(self, cursor_card: int | None) -> list[Any]:
        items = [damage.text_item(t, ("hint", i)) for i, t in enumerate(self.hint_texts)]
        items.extend(damage.sprite_items(self.hint_badges))
        box = self.cursor_box(cursor_card)
        items.append(damage.rect_item("key-cursor", box, box and (
            box[0] - 3, box[1] - 3, box[0] + box[2] + 3, box[1] + box[3] + 3)))
        return items

    def draw(self, reach: Callable[..., bool], cursor_card: int | None) -> None:
        """The cursor's outline, then the figures on their pills."""
        if reach("key-cursor"):
            box = self.cursor_box(cursor_card)
            if box is not None:
                arcade.draw_lbwh_rectangle_outline(*box, GOLD, 3)
        if self.hint_texts and reach(*map(id, self.hint_badges)):
            self.hint_badges.draw()
        for i, t in enumerate(self.hint_texts):
            if reach(("hint", i)):
                t.draw()


__all__ = ["HandMarks"]
