"""The play table's tooltips over the felt (the buttons' own are the base view's).

Over a refusal in the status line, the rule it applies ("Rule R7 (see Rules)");
over a card lying face up, its name and points ("Knight of Coins (C), 3 points",
and with a hint shown what it is worth in words: "· loses about 3 points"),
just over the card, or over the bottom hand between it and the status line.
None while a sheet lies over the table.
"""

from __future__ import annotations

from collections.abc import Callable

import arcade

from engine.errors import Refusal
from game.common import layout
from game.common.constants import HEIGHT, WIDTH
from game.common.i18n import _
from game.common.ui import TIP_H
from game.common.words import Words, card_label
from game.table.scene.table_scene import TableScene
from game.table.table_controller import TableController
from game.table.table_texts import TableTexts

Tip = tuple[str, float, float]  # its text, and where its middle lies


class TableTips:
    """Where the table's tooltip goes for the mouse at a point (see the module);
    ``tooltip`` is the view's tooltip text, ``width()`` its width with its pill."""

    def __init__(self, ctl: TableController, words: Words, table: TableScene, texts: TableTexts,
                 tooltip: arcade.Text, width: Callable[[], float]) -> None:
        self.ctl = ctl
        self.words = words
        self.table = table
        self.texts = texts
        self.tooltip = tooltip
        self.width = width

    def place(self, mx: float, my: float) -> Tip | None:
        ctl = self.ctl
        r = ctl.status.get("refusal") if ctl.status is not None and ctl.status.key == "refused" else None
        if not isinstance(r, Refusal) or not self.texts.status.text:
            return self._card(mx, my)
        text = self.words.refusal_rule(r)
        x, y, w, h = self.texts.status_box()
        if not text or not (x <= mx <= x + w and y <= my <= y + h):
            return None
        return self._at(text, layout.STATUS_POS[0], y - 16)

    def _card(self, mx: float, my: float) -> Tip | None:
        if self.ctl.end.sheet is not None:
            return None
        s = self.table.face_at(mx, my)
        if s is None:
            return None
        text = card_label(self.ctl.rules.pack, s.key[1])
        values = self.ctl.hints.values
        if s.key[1] in values:  # a hint shown: what this card is worth, in words
            loss = max(values.values()) - values[s.key[1]]
            text = _("{card} · {worth}").format(card=text, worth=self.words.hint_words(loss))
        if self.tooltip.text != text:
            self.tooltip.text = text
        _w, h = layout.card_size(s.place.scale)
        half = self.width() / 2
        tx = max(4 + half, min(WIDTH - 4 - half, s.place.x))
        top = s.place.y + h / 2
        if 100 <= s.place.z < 300 and s.place.y < HEIGHT / 3:  # in the bottom hand: over all of it
            top = max(p.y + layout.card_size(p.scale)[1] / 2 for p in (x.place for x in self.table.sprites
                      if x.key[0] == "card" and 100 <= x.place.z < 200 and x.place.y < HEIGHT / 3))
        return self._at(text, tx, min(HEIGHT - 4 - TIP_H / 2, top + 6 + TIP_H / 2))

    def _at(self, text: str, x: float, y: float) -> Tip:
        t = self.tooltip
        if (t.text, t.x, t.y) != (text, x, y):
            t.text = text
            t.x, t.y = x, y
        return text, x, y


__all__ = ["TableTips"]
