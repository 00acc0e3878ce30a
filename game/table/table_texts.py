"""The lines of text the play table shows over the felt.

* the status line between the bottom hand and the trick, on a dark pill,
  coloured by its tone (plain, a prompt in gold, a refusal in red), its type
  made smaller for a long reason so that it never reaches over a hand;
* the banner of announcements between the trick and the top hand (a row higher
  while the trick's winner is named there);
* where a game of several deals stands, by the running pile lines;
* the coach's panel of a lesson, right of the trick.

Every text is a message as data from the controller (:class:`~game.common.words.Msg`),
worded here by :class:`~game.common.words.Words` and redrawn only when it changes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import arcade

from game.common import damage, layout
from game.common.constants import FONT, GOLD, HEIGHT, INK, RED
from game.common.layout import Seating
from game.common.ui import Pill, fit_font
from game.common.words import Msg, Words
from game.table.scene.labels import TableLabels
from game.table.scene.sprites import set_colour
from game.table.table_api import Tone

#: the coach's panel of a lesson: left, top, width of its text (right of the trick)
COACH_BOX = (868, 548, 262)
TONES: dict[Tone, tuple[int, int, int]] = {"info": INK, "prompt": GOLD, "error": RED}
Box = tuple[float, float, float, float]


class TableTexts:
    """The status line, the banner, the standing and the coach's panel of one table;
    ``labels``: the scene's, whose trick winner's line the banner makes room for."""

    def __init__(self, words: Words, seating: Seating, labels: TableLabels) -> None:
        self.words = words
        self.labels = labels
        self.status = arcade.Text("", *layout.STATUS_POS, INK, 15, anchor_x="center",
                                  anchor_y="center", font_name=FONT, bold=True)
        self.banner = arcade.Text("", *layout.TOP_SLOT, GOLD, 17, anchor_x="center",
                                  anchor_y="center", font_name=FONT, bold=True)
        self.standing = arcade.Text("", 0, 0, GOLD, 13, anchor_x="left", anchor_y="center",
                                    font_name=FONT, bold=True)
        self._place_standing(seating)
        self.coach = arcade.Text("", *COACH_BOX[:2], INK, 12, anchor_x="left", anchor_y="top",
                                 font_name=FONT, multiline=True, width=COACH_BOX[2])
        self._said: dict[str, Msg | None] = {"status": None, "banner": None, "standing": None}
        self._coach_said: Msg | None = None
        self._winner_shown = -1
        self._status_pill = Pill(layout.STATUS_H, "status")
        self._banner_pill = Pill(layout.SLOT_H + 4, "panel")

    def _place_standing(self, seating: Seating) -> None:
        """Where the game stands: by the running pile lines."""
        score_pos = seating.score_pos
        self.standing.x = min(x for x, _y in score_pos)
        top = max(y for _x, y in score_pos)
        # over the two lines of a four-seat table (under them it met the left hand);
        # under the three lines of a three-seat one, where the top is theirs
        self.standing.y = top + 24 if top + 24 < HEIGHT - 70 else min(y for _x, y in score_pos) - 26

    def sync(self, status: Msg | None, tone: Tone, banner: Msg | None, standing: Msg | None,
             coach: Msg | None, trick_winner: int) -> None:
        """Word what the controller says now (each text only when its message changed);
        ``trick_winner``: the seat named over a trick waiting for a click (-1: none)."""
        for name, text, m in (("status", self.status, status), ("banner", self.banner, banner),
                              ("standing", self.standing, standing)):
            if self._said[name] != m:
                self._said[name] = m
                text.text = self.words.say(m)
                if text is self.status:  # a long reason or refusal: smaller, never over a hand
                    fit_font(text, layout.STATUS_MAX_W, 15)
        set_colour(self.status, TONES.get(tone, INK))
        if coach != self._coach_said:
            self._coach_said = coach
            self.coach.text = self.words.say(coach) if coach is not None else ""
        if trick_winner != self._winner_shown:
            self.labels.say_winner(trick_winner)
            self._winner_shown = trick_winner

    # --- where they lie -------------------------------------------------------------

    def status_box(self) -> Box:
        """The status line's pill: left, bottom, width, height."""
        w = round(self.status.content_width + 32)
        x, y = layout.STATUS_POS
        h = layout.STATUS_H
        return x - w / 2, y - h / 2, w, h

    def beside_status(self, w: float) -> Box:
        """A button ``w`` wide right of the status line (its centre x, y, width, height):
        Continue, after a trick, clear of the trick."""
        x, y = layout.STATUS_POS
        half = (self.status.content_width + 32) / 2 if self.status.text else 0
        return x + half + 12 + w / 2, y, w, layout.STATUS_H + 4

    def banner_box(self) -> Box:
        """The announcement's pill: between the trick and the top hand, a row higher
        while the trick's winner is named there."""
        w = round(self.banner.content_width + 40)
        h = layout.SLOT_H + 4
        x, y = layout.TOP_SLOT
        if self.labels.winner_text.text:
            y += layout.SLOT_H + 4
        if self.banner.y != y:
            self.banner.y = y
        return x - w / 2, y - h / 2, w, h

    def coach_bounds(self) -> Box:
        """The coach's panel: left, bottom, right, top (its text and a margin)."""
        x, top = COACH_BOX[:2]
        h = self.coach.content_height
        return x - 12, top - h - 12, x + COACH_BOX[2] + 12, top + 10

    # --- drawing ----------------------------------------------------------------------

    def damage_items(self) -> list[Any]:
        items = []
        for name, text, box in (("status", self.status, self.status_box), ("banner", self.banner, self.banner_box)):
            if text.text:
                x, y, w, h = box()
                items.append(damage.rect_item(name, damage.text_key(text), (x - 1, y - 1, x + w + 1, y + h + 1)))
            else:
                items.append(damage.rect_item(name, None, None))
        items.append(damage.text_item(self.standing, "standing"))
        items.append(damage.rect_item("coach", damage.text_key(self.coach) if self.coach.text else None,
                                      self.coach_bounds() if self.coach.text else None))
        return items

    def draw(self, reach: Callable[..., bool]) -> None:
        if self.status.text and reach("status"):
            self._status_pill.draw(self.status_box())
            self.status.draw()
        if self.banner.text and reach("banner"):
            self._banner_pill.draw(self.banner_box())
            self.banner.draw()
        if self.standing.text and reach("standing"):
            self.standing.draw()
        if self.coach.text and reach("coach"):
            left, bottom, right, top = self.coach_bounds()
            arcade.draw_lrbt_rectangle_filled(left, right, bottom, top, (10, 30, 20, 215))
            self.coach.draw()


__all__ = ["COACH_BOX", "TONES", "TableTexts"]
