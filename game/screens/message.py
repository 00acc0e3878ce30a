"""The one message screen: a message (a missing asset named, a replay's error
with its line and rule), an optional title, and a way back."""

from __future__ import annotations

import arcade

from game.common.constants import FONT, GOLD, HEIGHT, INK, WIDTH
from game.common.i18n import _
from game.common.navigation import Back, show
from game.common.ui import BaseView, Button


class MessageView(BaseView):
    background = (16, 58, 36)

    def __init__(self, window: arcade.Window, message: str, *, title: str = "", back: Back | None = None) -> None:
        super().__init__(window)
        self.back = back
        self.title = arcade.Text(title, WIDTH / 2, HEIGHT * 0.68, GOLD, 24, anchor_x="center",
                                 anchor_y="center", font_name=FONT, bold=True)
        self.text = arcade.Text(message, WIDTH / 2, HEIGHT * 0.52 if title else HEIGHT / 2 + 60, INK,
                                15 if title else 18, anchor_x="center", anchor_y="center", font_name=FONT,
                                multiline=True, width=1000, align="center")
        label = _("Back") if back is not None else _("Back to the menu")
        self.buttons = [Button(label, (WIDTH / 2, HEIGHT * 0.3 if title else 200, 260, 48), self.on_back)]
        self.focus = 0

    def draw_scene(self) -> None:
        if self.title.text:
            self.title.draw()
        self.text.draw()

    def on_back(self) -> None:
        if self.back is not None:
            self.back()
            return
        show(self.window, "menu")


__all__ = ["MessageView"]
