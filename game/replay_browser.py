"""The Replays screen: every saved game (the user data folder, plus files opened),
newest first, with date, single deal or match, players and result.  A bad file is
listed with its error and does not stop the browser; opening it shows the
engine's message with line and rule."""

from __future__ import annotations

from pathlib import Path

import arcade

from engine.ruleset import ruleset

from . import paths
from .constants import FONT, GOLD, HEIGHT, INK, PANEL, WIDTH
from .i18n import _
from .theatre import open_replay
from .theatre_model import Entry, list_replays
from .ui import BaseView, Button
from .words import Words, game_name

ROWS = 10
ROW_H = 44
TOP = HEIGHT - 150
#: Files opened in this session (by path), listed beside the data folder's.
OPENED: list[Path] = []


class ReplayBrowserView(BaseView):
    def __init__(self, window: arcade.Window | None) -> None:
        super().__init__(window)
        self.entries: list[Entry] = list_replays([paths.replays_dir(), paths.home()], OPENED)
        self.selected = 0
        self.first = 0
        self.typing = False
        self.path_text = ""
        self.heading = arcade.Text(_("Replays"), WIDTH / 2, HEIGHT - 60, GOLD, 30, anchor_x="center",
                                   anchor_y="center", font_name=FONT, bold=True)
        self.hint = arcade.Text(
            _("Up/Down choose · Enter watch · O open a file by path · Esc back"),
            WIDTH / 2, 40, INK, 13, anchor_x="center", anchor_y="center", font_name=FONT)
        self.empty = arcade.Text(_("No saved games yet: finished games and watched AI games appear here."),
                                 WIDTH / 2, HEIGHT / 2, INK, 16, anchor_x="center", anchor_y="center",
                                 font_name=FONT)
        self.rows = [
            (arcade.Text("", 80, 0, INK, 14, anchor_y="center", font_name=FONT, bold=True),
             arcade.Text("", 80, 0, INK, 12, anchor_y="center", font_name=FONT))
            for _i in range(ROWS)
        ]
        self.prompt = arcade.Text("", WIDTH / 2, 86, GOLD, 14, anchor_x="center", anchor_y="center",
                                  font_name=FONT)
        self.buttons = [
            Button(_("Back"), (90, HEIGHT - 60, 130, 44), self.on_back),
            Button(_("Open file…"), (WIDTH - 110, HEIGHT - 60, 170, 44), self.start_typing),
        ]
        self._layout_rows()

    # --- list -------------------------------------------------------------------

    def _layout_rows(self) -> None:
        if self.selected < self.first:
            self.first = self.selected
        if self.selected >= self.first + ROWS:
            self.first = self.selected - ROWS + 1
        for i, (title, detail) in enumerate(self.rows):
            k = self.first + i
            y = TOP - i * ROW_H
            title.y, detail.y = y + 9, y - 10
            if k >= len(self.entries):
                title.text = detail.text = ""
                continue
            e = self.entries[k]
            when = e.when.astimezone().strftime("%Y-%m-%d %H:%M")
            title.text = f"{when}   {e.path.name}"
            if e.ok:
                rules = ruleset(e.variant or "piedicavallo")
                kind = f"{game_name(rules)}, {Words(rules, None).game_kind(e.n_deals)}"
                practice = "  ·  " + _("practice") if e.practice else ""
                detail.text = f"{kind}  ·  {', '.join(e.players)}  ·  {e.result}{practice}"
                detail.color = INK
            else:
                detail.text = e.error[:150]
                detail.color = (255, 150, 140)

    def move(self, step: int) -> None:
        if self.entries:
            self.selected = max(0, min(len(self.entries) - 1, self.selected + step))
            self._layout_rows()

    def open_selected(self) -> None:
        if 0 <= self.selected < len(self.entries):
            open_replay(self.window, self.entries[self.selected].path,
                        back=lambda: self.window.show_view(ReplayBrowserView(self.window)))

    # --- opening a file by its path ---------------------------------------------

    def start_typing(self) -> None:
        self.typing = True
        self.path_text = ""
        self._show_prompt()

    def _show_prompt(self) -> None:
        self.prompt.text = _("Path of a replay file: {path}_").format(path=self.path_text)

    def on_text(self, text: str) -> None:
        if self.typing and text.isprintable():
            self.path_text += text
            self._show_prompt()

    def _open_typed(self) -> None:
        self.typing = False
        path = Path(self.path_text.strip()).expanduser()
        self.prompt.text = ""
        if not path.is_file():
            self.prompt.text = _("No such file: {path}").format(path=path)
            return
        if path not in OPENED:
            OPENED.append(path)
        self.entries = list_replays([paths.replays_dir(), paths.home()], OPENED)
        self.selected = next((i for i, e in enumerate(self.entries) if e.path == path), 0)
        self._layout_rows()

    # --- drawing and input -------------------------------------------------------

    def draw_scene(self) -> None:
        self.heading.draw()
        if not self.entries:
            self.empty.draw()
        for i, (title, detail) in enumerate(self.rows):
            k = self.first + i
            if k >= len(self.entries):
                break
            y = TOP - i * ROW_H
            colour = (60, 126, 84, 230) if k == self.selected else PANEL
            arcade.draw_lbwh_rectangle_filled(60, y - ROW_H / 2 + 2, WIDTH - 120, ROW_H - 4, colour)
            title.draw()
            detail.draw()
        self.hint.draw()
        if self.prompt.text:
            self.prompt.draw()

    def on_click(self, x: float, y: float, button: int) -> None:
        for i in range(ROWS):
            cy = TOP - i * ROW_H
            if 60 <= x <= WIDTH - 60 and abs(y - cy) <= ROW_H / 2 and self.first + i < len(self.entries):
                if self.selected == self.first + i:
                    self.open_selected()
                else:
                    self.selected = self.first + i
                    self._layout_rows()
                return

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> None:
        self.move(-1 if scroll_y > 0 else 1)

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        k = arcade.key
        if self.typing:
            if symbol in (k.ENTER, k.RETURN, k.NUM_ENTER):
                self._open_typed()
            elif symbol == k.BACKSPACE:
                self.path_text = self.path_text[:-1]
                self._show_prompt()
            elif symbol == k.ESCAPE:
                self.typing = False
                self.prompt.text = ""
            return True
        if symbol == k.UP:
            self.move(-1)
        elif symbol == k.DOWN:
            self.move(1)
        elif symbol == k.PAGEUP:
            self.move(-ROWS)
        elif symbol == k.PAGEDOWN:
            self.move(ROWS)
        elif symbol in (k.ENTER, k.RETURN, k.NUM_ENTER) and self.focus < 0:
            self.open_selected()
        elif symbol == k.O:
            self.start_typing()
        else:
            return super().on_key_press(symbol, modifiers)
        return True

    def on_back(self) -> None:
        from .views.menu import MenuView

        self.window.show_view(MenuView(self.window))
