"""Settings: language, sound and volume, animation speed, pace after a trick,
AI levels, fullscreen, and the name friends see at an online table (typed on
its line: Enter keeps it, Esc leaves it as it was); saved on every change."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Literal, TypeVar

import arcade

from game.common import i18n
from game.common.constants import FONT, GOLD, HEIGHT, INK, SPEEDS, WIDTH
from game.common.i18n import _
from game.common.navigation import show
from game.common.settings import LANGUAGES, MAX_NAME, Settings, clean_name, levels
from game.common.ui import BaseView, Button, typed_line_key

LANGUAGE_NAMES = {"en": "English", "fr": "Français", "it": "Italiano"}
VOLUMES = tuple(round(v / 10, 1) for v in range(0, 11))
#: the lines of the screen, one setting each, in their order
Row = Literal["language", "sound", "volume", "speed", "auto_advance", "partner", "opponents", "fullscreen",
              "name"]
ROWS: tuple[Row, ...] = ("language", "sound", "volume", "speed", "auto_advance", "partner", "opponents",
                         "fullscreen", "name")
T = TypeVar("T")


class SettingsView(BaseView):
    background = (16, 58, 36)

    def __init__(self, window: arcade.Window) -> None:
        super().__init__(window)
        self.s: Settings = window.settings
        self.typing = False  # the name is being typed on its line
        self.typed = ""
        self._build()

    def _build(self) -> None:
        self.title = arcade.Text(_("Settings"), WIDTH / 2, HEIGHT - 80, GOLD, 36, anchor_x="center",
                                 anchor_y="center", font_name=FONT, bold=True)
        self.help = arcade.Text(_("Click or Enter: next value · Left/Right arrows on a line: change it"),
                                WIDTH / 2, HEIGHT - 125, INK, 13, anchor_x="center",
                                anchor_y="center", font_name=FONT)
        self.rows = ROWS
        self.buttons = [Button("", (WIDTH / 2, 548 - i * 50, 560, 44), partial(self.change, r, 1), font_size=15)
                        for i, r in enumerate(ROWS)]
        self.buttons.append(Button(_("Back"), (WIDTH / 2, 548 - len(ROWS) * 50 - 12, 200, 44), self.on_back))
        self.focus = max(self.focus, 0)
        self._labels()

    def _labels(self) -> None:
        s = self.s
        on_off = {True: _("on"), False: _("off")}
        texts: dict[Row, str] = {
            "language": _("Language: {v}").format(v=LANGUAGE_NAMES.get(s.language, s.language)),
            "sound": _("Sound: {v}").format(v=on_off[s.sound]),
            "volume": _("Volume: {v}%").format(v=round(s.volume * 100)),
            "speed": _("Animation speed: x{v}").format(v=f"{s.speed:g}"),
            "auto_advance": _("After each trick: {v}").format(
                v=_("go on by itself") if s.auto_advance else _("wait for a click")),
            "partner": _("Partner's level: {v}").format(v=_(s.partner)),
            "opponents": _("Opponents' level: {v}").format(v=_(s.opponents)),
            "fullscreen": _("Fullscreen (F11): {v}").format(v=on_off[s.fullscreen]),
            "name": _("Your name: {typed}_ (Enter to keep)").format(typed=self.typed) if self.typing
            else _("Your name at online tables: {v}").format(v=s.player_name or _("not chosen yet")),
        }
        for r, b in zip(self.rows, self.buttons, strict=False):
            b.label = texts[r]

    @staticmethod
    def _step(options: Sequence[T], current: T, step: int) -> T:
        i = options.index(current) if current in options else 0
        return options[(i + step) % len(options)]

    def change(self, row: Row, step: int) -> None:
        s = self.s
        if row == "language":
            s.language = self._step(LANGUAGES, s.language, step)
            i18n.set_language(s.language)
        elif row == "sound":
            s.sound = not s.sound
        elif row == "volume":
            s.volume = self._step(VOLUMES, round(s.volume, 1), step)
        elif row == "speed":
            s.speed = self._step(SPEEDS, s.speed, step)
        elif row == "auto_advance":
            s.auto_advance = not s.auto_advance
        elif row in ("partner", "opponents"):
            setattr(s, row, self._step(levels(), getattr(s, row), step))
        elif row == "fullscreen":
            s.fullscreen = not s.fullscreen
            self.window.set_fullscreen(s.fullscreen)
        elif row == "name":
            self.typing, self.typed = True, s.player_name
            self._labels()
            return
        snd = getattr(self.window, "sound", None)
        if snd is not None:
            snd.enabled, snd.volume = s.sound, s.volume
            if row in ("sound", "volume"):
                snd.play("click")
        s.save()
        if row == "language":
            self._build()  # every text again, in the new language
        else:
            self._labels()

    def on_text(self, text: str) -> None:
        if self.typing:
            ok = "".join(ch for ch in text if ch.isprintable())
            self.typed = (self.typed + ok)[:MAX_NAME]
            self._labels()

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        k = arcade.key
        if self.typing:
            action, self.typed = typed_line_key(symbol, self.typed)
            if action == "enter":
                self.s.player_name = clean_name(self.typed) or self.s.player_name
                self.s.save()
            if action in ("enter", "cancel"):
                self.typing = False
            self._labels()
            return True
        if symbol in (k.LEFT, k.RIGHT) and 0 <= self.focus < len(self.rows):
            self.change(self.rows[self.focus], 1 if symbol == k.RIGHT else -1)
            return True
        if symbol in (k.UP, k.DOWN):
            self.move_focus(1 if symbol == k.DOWN else -1)
            return True
        return super().on_key_press(symbol, modifiers)

    def draw_scene(self) -> None:
        self.title.draw()
        self.help.draw()

    def on_back(self) -> None:
        show(self.window, "menu")
