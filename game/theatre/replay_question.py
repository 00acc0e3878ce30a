"""The Replays screen's delete question: a box over the dimmed list naming the
game and where its file goes (the trash, never erased), with its two buttons
and the keys that answer it.  The view (``replay_browser``) asks it and acts on
the answer."""

from __future__ import annotations

from collections.abc import Callable

import arcade

from game.common.constants import FONT, GOLD, HEIGHT, INK, WIDTH
from game.common.i18n import _
from game.common.ui import Button
from game.theatre import replay_list as rl
from game.theatre.replay_rows import DIM

DIALOG = (WIDTH / 2 - 430, HEIGHT / 2 - 150, WIDTH / 2 + 430, HEIGHT / 2 + 150)  # left, bottom, right, top


class DeleteQuestion:
    """The question's texts, laid out top down in its box, and its buttons: ``yes``
    runs ``on_yes``, ``no`` runs ``on_no``."""

    def __init__(self, on_yes: Callable[[], None], on_no: Callable[[], None]) -> None:
        self.title = arcade.Text("", WIDTH / 2, DIALOG[3] - 22, GOLD, 18, anchor_x="center",
                                 anchor_y="top", font_name=FONT, bold=True, multiline=True, width=760,
                                 align="center")
        self.detail = arcade.Text("", WIDTH / 2, DIALOG[3] - 64, INK, 13, anchor_x="center",
                                  anchor_y="top", font_name=FONT, multiline=True, width=760,
                                  align="center")
        self.keys = arcade.Text(_("Enter or Y: move it · Esc or N: keep it"), WIDTH / 2, DIALOG[1] + 18,
                                DIM, 11, anchor_x="center", anchor_y="center", font_name=FONT)
        self.b_yes = Button(_("Move to the trash"), (WIDTH / 2 - 140, DIALOG[1] + 64, 260, 44),
                            on_yes, font_size=14)
        self.b_no = Button(_("Keep it"), (WIDTH / 2 + 140, DIALOG[1] + 64, 260, 44), on_no,
                           font_size=14)
        self.buttons = [self.b_yes, self.b_no]

    def ask(self, e: rl.Row) -> None:
        """Word the question about row ``e``."""
        self.title.text = _("Move this replay to the trash?")
        what = f"{rl.when_text(e)}   {rl.game_text(e)}\n{rl.result_text(e)}"
        self.detail.text = what + "\n\n" + _(
            "The file {name} is moved to {folder}, not erased: you can move it back from there.").format(
                name=e.path.name, folder=rl.trash_dir())

    def texts(self) -> list[arcade.Text]:
        return [self.title, self.detail, self.keys]

    def draw(self) -> None:
        """The screen dimmed, the box and its texts (the buttons are the view's to draw)."""
        left, bottom, right, top = DIALOG
        arcade.draw_lrbt_rectangle_filled(0, WIDTH, 0, HEIGHT, (0, 0, 0, 150))
        arcade.draw_lrbt_rectangle_filled(left, right, bottom, top, (14, 44, 28, 250))
        arcade.draw_lrbt_rectangle_outline(left, right, bottom, top, GOLD, 2)
        for t in self.texts():
            t.draw()
