"""The play table's buttons.

* the toolbar along the top left: the menu, undo and redo (enabled only when
  there is something to undo or redo), the hint, the animation speed, the
  sound, and "Last trick";
* the buttons that show only when wanted (:meth:`TableButtons.extra`): confirm
  the discard once a whole one is picked, Continue beside the status line after
  a trick, and at the end of a deal a row of its choices under the panel shown,
  the default first (:attr:`~game.table.table_controller.TableController.end_choices`);
  a lesson done (no panel) has them in a column under the coach's panel.

Each button calls an action of the view (:class:`TableActions`).
"""

from __future__ import annotations

from functools import partial
from typing import Protocol

import arcade

from game.common import layout, textures
from game.common.constants import FONT, INK, WIDTH
from game.common.i18n import N_, _
from game.common.ui import Button
from game.common.words import Words, msg
from game.table.deal_end import Choice
from game.table.table_controller import TableController
from game.table.table_texts import TableTexts

#: the end of a deal's buttons
END_LABELS: dict[Choice, str] = {
    "next": N_("Next deal (N)"), "again": N_("Play again (N)"), "score": N_("The score"), "tricks": N_("The tricks"),
    "piles": N_("Your pile"), "review": N_("Review this deal"), "menu": N_("Back to the menu"),
    "next_lesson": N_("Next lesson")}
END_GAP = 14  # between two buttons of the end of a deal


class TableActions(Protocol):
    """What the buttons do: the view's actions."""

    def leave(self) -> None: ...

    def undo(self) -> None: ...

    def redo(self) -> None: ...

    def ask_hint(self) -> None: ...

    def cycle_speed(self) -> None: ...

    def toggle_sound(self) -> None: ...

    def show_last_trick(self) -> None: ...

    def confirm_discard(self) -> None: ...

    def continue_(self) -> None: ...

    def choose(self, choice: Choice) -> None: ...


class TableButtons:
    """The buttons of one table (see the module): ``toolbar`` always shows, ``extra``
    those shown this frame."""

    def __init__(self, ctl: TableController, words: Words, tex: textures.Textures, sound_on: bool,
                 act: TableActions) -> None:
        self.ctl = ctl
        self.act = act
        self.tex = tex.table
        rects = layout.button_rects(6)
        icons = self.tex
        self.btn_menu = Button("", rects[0], act.leave, icon=icons["menu"], tooltip=_("Menu (Esc)"))
        self.btn_undo = Button("", rects[1], act.undo, icon=icons["undo"],
                               tooltip=_("Undo (Ctrl+Z)"), enabled=ctl.practice)
        self.btn_redo = Button("", rects[2], act.redo, icon=icons["redo"],
                               tooltip=_("Redo (Ctrl+Y)"), enabled=ctl.practice)
        hint_ok = ctl.hints.available
        tip = _("Hint (H): expected points of each card") if hint_ok else (
            _("Hints are for practice games") if ctl.hints.fn else _("Hints need the AI (coming soon)"))
        self.btn_hint = Button("", rects[3], act.ask_hint, icon=icons["hint"], tooltip=tip, enabled=hint_ok)
        self.btn_speed = Button("", rects[4], act.cycle_speed, icon=icons["speed"], tooltip=self._speed_tip())
        self.btn_sound = Button("", rects[5], act.toggle_sound, icon=icons["sound_on" if sound_on else "sound_off"],
                                tooltip=_("Sound on/off (M)"))
        cx, cy, w, h = rects[5]
        self.btn_last = Button(_("Last trick"), (cx + w / 2 + 12 + 73, cy, 146, h), act.show_last_trick,
                               tooltip=_("See the last trick again (L)"), font_size=13)
        self.toolbar = [self.btn_menu, self.btn_undo, self.btn_redo, self.btn_hint, self.btn_speed,
                        self.btn_sound, self.btn_last]
        self.btn_confirm = Button(words.say(msg("confirm_label", n=ctl.rules.discard_cards)),
                                  (WIDTH / 2, layout.STATUS_POS[1] + 46, 230, 38), act.confirm_discard,
                                  font_size=14)
        self.btn_continue = Button(_("Continue"), (WIDTH / 2, 282, 180, 40), act.continue_, font_size=14)
        self._end_buttons: dict[Choice, Button] = {}
        self.extra: list[Button] = []  # shown this frame (:meth:`place_extra`)

    def _speed_tip(self) -> str:
        return _("Animation speed: x{speed} (S)").format(speed=f"{self.ctl.speed:g}")

    def speed_changed(self) -> None:
        self.btn_speed.tooltip = self._speed_tip()

    def sound_switched(self, on: bool) -> None:
        tex = self.tex["sound_on" if on else "sound_off"]
        for s in self.btn_sound._icon_list or []:
            s.texture = tex

    def sync_toolbar(self) -> None:
        """Undo and redo look enabled only when there is something to undo or redo."""
        rewind = self.ctl.rewind
        for b, ok in ((self.btn_undo, rewind.can_undo), (self.btn_redo, rewind.can_redo)):
            if b.enabled != ok:
                b.enabled = ok

    # --- the buttons shown when wanted --------------------------------------------------

    def place_extra(self, texts: TableTexts, panel_button_y: float | None) -> None:
        """The buttons this frame shows besides the toolbar: confirm, Continue, or the
        end of a deal's row (at ``panel_button_y``, under the panel shown)."""
        ctl = self.ctl
        extra = []
        if ctl.discard.ready:
            extra.append(self.btn_confirm)
        if ctl.waiting == "trick":
            b = self.btn_continue
            if b.label != _("Continue"):
                b.label = _("Continue")
            _place(b, texts.beside_status(150))
            extra.append(b)
        elif ctl.waiting == "scoring" and panel_button_y is not None:
            extra.extend(self._end_row(panel_button_y))
        elif not ctl.waiting and ctl.end_choices and texts.coach.text:  # a lesson done: the next one
            extra.extend(self._end_column(texts.coach_bounds()))
        elif not ctl.waiting and ctl.end_choices:  # an online table stopped: the menu
            extra.extend(self._end_row(layout.STATUS_POS[1] + 46))
        self.extra = extra

    def end_button(self, c: Choice) -> Button:
        b = self._end_buttons.get(c)
        if b is None:
            label = _(END_LABELS[c])
            if c == "piles" and self.ctl.rules.n_sides < self.ctl.rules.n_seats:
                label = _("Our pile")
            w = max(150, arcade.Text(label, 0, 0, INK, 14, font_name=FONT, bold=True).content_width + 36)
            b = Button(label, (0, 0, w, 40), partial(self.act.choose, c), font_size=14)
            self._end_buttons[c] = b
        return b

    def row_width(self, choices: tuple[Choice, ...]) -> float:
        return sum(self.end_button(c).rect[2] for c in choices) + END_GAP * max(0, len(choices) - 1)

    def _end_row(self, y: float) -> list[Button]:
        """The end of a deal's buttons in a row at ``y``, the default first."""
        choices = self.ctl.end_choices
        buttons = [self.end_button(c) for c in choices]
        x = WIDTH / 2 - self.row_width(choices) / 2
        for b in buttons:
            w = b.rect[2]
            _place(b, (x + w / 2, y, w, 40))
            x += w + END_GAP
        return buttons

    def _end_column(self, under: tuple[float, float, float, float]) -> list[Button]:
        """A lesson's choices in a column under the coach's panel (``under``: its left,
        bottom, right, top), the default first."""
        left, bottom, right, _top = under
        buttons = [self.end_button(c) for c in self.ctl.end_choices]
        for i, b in enumerate(buttons):
            _place(b, ((left + right) / 2, bottom - 32 - i * (40 + END_GAP), b.rect[2], 40))
        return buttons


def _place(b: Button, rect: tuple[float, float, float, float]) -> None:
    """Move a button (its centre x, y, width, height) and its label with it."""
    if b.rect != rect:
        b.rect = rect
        b.text.x, b.text.y = rect[:2]


__all__ = ["END_LABELS", "TableActions", "TableButtons"]
