"""The rules, in short, in the player's language (the full text is RULES.md)."""

from __future__ import annotations

import arcade

from ..constants import FONT, GOLD, HEIGHT, INK, WIDTH
from ..i18n import _
from ..ui import BaseView, Button

RULES_TEXT = (
    "62 cards: 21 trumps, the Matto, and four suits of ten (Swords, Batons, Cups, Coins). "
    "Four players, partners opposite: you (South) and North against East and West. "
    "Play goes anticlockwise, to the right.\n\n"
    "The deal (R5): the dealer shuffles, the player on the dealer's left cuts, and the dealer "
    "deals 15 cards to each player and 17 to himself, in packets.\n\n"
    "The discard (R6): the dealer lays two cards aside for his team. Never a King, trump 1, "
    "trump 21 or the Matto; a trump only if there is no other choice, or to keep no trump at all. "
    "The dealer says how many trumps he discarded.\n\n"
    "Play (R7-R9): the player on the dealer's right leads. Follow suit if you can; if not, play a "
    "trump if you can; otherwise any card. The highest trump wins, or the highest card of the suit "
    "led. The Matto may be played at any time instead; it never wins and goes back to its own team.\n\n"
    "Scoring (R10-R12): Kings, trump 1, trump 21 and the Matto are worth 5, Queens 4, Knights 3, "
    "Jacks 2, every other card 1: 114 in all. Each team counts its tricks, its Matto, and the "
    "dealer's team the discard. A team that takes no trick gives everything to the other. More "
    "points wins; 57 all is a draw. A match is four deals, each player dealing once."
)


class RulesView(BaseView):
    background = (16, 58, 36)

    def __init__(self, window) -> None:
        super().__init__(window)
        self.title = arcade.Text(_("Rules"), WIDTH / 2, HEIGHT - 60, GOLD, 34, anchor_x="center",
                                 anchor_y="center", font_name=FONT, bold=True)
        self.body = arcade.Text(_(RULES_TEXT), 140, HEIGHT - 110, INK, 15, anchor_x="left",
                                anchor_y="top", font_name=FONT, multiline=True, width=1000)
        self.buttons = [Button(_("Back"), (WIDTH / 2, 44, 200, 44), self.on_back)]
        self.focus = 0
        self.scroll = 0.0

    def draw_scene(self) -> None:
        self.title.draw()
        self.body.y = HEIGHT - 110 + self.scroll
        self.body.draw()

    def on_key_press(self, symbol: int, modifiers: int):
        k = arcade.key
        if symbol in (k.UP, k.DOWN, k.PAGEUP, k.PAGEDOWN):
            step = 40 if symbol in (k.DOWN, k.PAGEDOWN) else -40
            self.scroll = max(0.0, min(600.0, self.scroll + step))
            return True
        return super().on_key_press(symbol, modifiers)

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> None:
        self.scroll = max(0.0, min(600.0, self.scroll - scroll_y * 30))

    def on_back(self) -> None:
        from .menu import MenuView

        self.window.show_view(MenuView(self.window))
