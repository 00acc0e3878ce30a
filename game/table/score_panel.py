"""The score panel at the end of a deal: the :class:`~game.table.score_sheet.ScoreSheet`
drawn over the table.

Each side's points by part (the engine's breakdown, the sheet's rows), counted
up from 0 as the panel opens, then the deal's result; in a game of several
deals the score sheet of every deal so far, the totals and, at the end, the
game's result.  The words come from the sheet's msgids and
:class:`~game.common.words.Words`; no figure is worked out here.
"""

from __future__ import annotations

import arcade
from arcade import easing

from game.common.constants import FONT, GOLD, HEIGHT, INK, PANEL_EDGE, T_COUNT, TEAM_COLOURS, WIDTH
from game.common.i18n import _
from game.common.words import Words
from game.table.scene.sprites import Colour
from game.table.score_sheet import ScoreSheet

ROW_H = 27  # a row of the score panel


class ScorePanel:
    """The scoring scene: each side's points by part (the engine's breakdown),
    counted up, then the result; the score sheet of a game of several deals."""

    def __init__(self, sheet: ScoreSheet, words: Words, speed: float, min_width: float = 0) -> None:
        self.sheet = sheet
        self.words = words
        self.t = 0.0
        self.duration = T_COUNT / speed
        self.done_for = 0.0
        self.texts: list[arcade.Text] = []
        self.values: list[tuple[arcade.Text, int, bool]] = []
        sides = sheet.rules.n_sides
        multi = sheet.n_deals > 1
        self.W = max(700 if sides == 2 else 780, min(WIDTH - 40, min_width))
        n_sheet = (len(sheet.history) + (1 if sheet.over else 0)) if multi else 0
        strong = sum(1 for r in sheet.rows if r.strong)
        self.h = (96 + ROW_H * len(sheet.rows) + 6 * strong + 44 + (22 * n_sheet + 56 if multi else 0)
                  + (8 if sheet.over else 0) + 56)
        self.top = min(HEIGHT - 96, HEIGHT / 2 + 36 + self.h / 2)
        top = self.top
        title = _("Deal {n} of {total}").format(n=sheet.deal, total=sheet.n_deals) if multi \
            else _("The deal is over")
        self._text(title, WIDTH / 2, top - 28, GOLD, 22)
        if sheet.number is not None:  # the game's seed: typed in the practice set-up, the same cards again
            self._text(_("Seed {n}").format(n=sheet.number), WIDTH / 2 + self.W / 2 - 16, top - 18,
                       (200, 200, 190), 11, anchor="right")
        y, label_x, cols = self._deal_rows(top)
        y -= 12
        self.result = arcade.Text(words.outcome(sheet.outcome, sheet.points, False), WIDTH / 2, y, GOLD, 18,
                                  anchor_x="center", anchor_y="center", font_name=FONT, bold=True)
        y -= 34
        if multi:
            self._sheet_rows(y, label_x, cols)
        self.button_y = self.top - self.h + 30
        for t, _v, _s in self.values:
            t.text = "0"

    def _deal_rows(self, top: float) -> tuple[float, float, list[float]]:
        """The sides' titles and the deal's rows, the counted values at 0 (they count
        up).  The y under the last row, the labels' right edge, the columns' x."""
        sheet, sides = self.sheet, self.sheet.rules.n_sides
        labels = [_(row.label).format(**dict(row.args)) for row in sheet.rows]
        label_w = max(arcade.Text(t, 0, 0, INK, 15 if r.strong else 13, font_name=FONT,
                                  bold=r.strong).content_width for t, r in zip(labels, sheet.rows, strict=True))
        left = WIDTH / 2 - self.W / 2
        label_x = left + 28 + label_w
        col_w = (left + self.W - 16 - label_x) / sides
        cols = [label_x + col_w * (i + 0.5) for i in range(sides)]
        for s in range(sides):
            self._text(self.words.side_title(s), cols[s], top - 62, self._side_colour(s), 13)
        y = top - 92
        for row, label in zip(sheet.rows, labels, strict=True):
            colour = GOLD if row.strong else INK
            self._text(label, label_x - 12, y, colour, 15 if row.strong else 13, anchor="right")
            for s in range(sides):
                v = row.values[s]
                t = self._text(self._fmt(0 if row.counted else v, row.signed), cols[s], y, colour,
                               18 if row.strong else 14)
                if row.counted:
                    self.values.append((t, v, row.signed))
            y -= ROW_H + (6 if row.strong else 0)
        return y, label_x, cols

    def _sheet_rows(self, y: float, label_x: float, cols: list[float]) -> None:
        """The score sheet of a game of several deals: each deal, the totals, the result."""
        sheet, rules = self.sheet, self.sheet.rules
        self._text(_("Score sheet"), label_x - 12, y, INK, 14, anchor="right")
        for i, scores in enumerate(sheet.history):
            y -= 22
            self._text(_("Deal {n}").format(n=i + 1), label_x - 12, y, INK, 13, anchor="right")
            for s in range(rules.n_sides):
                self._text(self._fmt(scores[s], bool(rules.par)), cols[s], y, INK, 13)
        y -= 26
        self._text(_("Total"), label_x - 12, y, GOLD, 14, anchor="right")
        for s in range(rules.n_sides):
            self._text(self._fmt(sheet.totals[s], bool(rules.par)), cols[s], y, GOLD, 15)
        if sheet.game_outcome is not None:
            y -= 32
            self._text(self.words.outcome(sheet.game_outcome, sheet.totals, True), WIDTH / 2, y, GOLD, 17)

    def _side_colour(self, side: int) -> Colour:
        rules = self.sheet.rules
        return TEAM_COLOURS[side] if rules.n_sides < rules.n_seats else INK

    @staticmethod
    def _fmt(v: int, signed: bool) -> str:
        """A figure, with a true minus sign; ``signed``: a plus on gains too."""
        text = f"{v:+d}" if signed and v else str(v)
        return text.replace("-", "−")

    def _text(self, s: str, x: float, y: float, colour: Colour, size: int, anchor: str = "center") -> arcade.Text:
        t = arcade.Text(s, x, y, colour, size, anchor_x=anchor, anchor_y="center", font_name=FONT,
                        bold=size >= 15)
        self.texts.append(t)
        return t

    @property
    def done(self) -> bool:
        return self.t >= self.duration

    def finish(self) -> None:
        self.t = self.duration
        self.update(0)

    def update(self, dt: float) -> None:
        self.t += dt
        if self.done:
            self.done_for += dt
        f = min(1.0, self.t / self.duration) if self.duration else 1.0
        e = easing.ease_out(f)
        for t, v, signed in self.values:
            text = self._fmt(round(v * e), signed)
            if t.text != text:
                t.text = text

    def bounds(self) -> tuple[float, float, float, float]:
        x0 = WIDTH / 2 - self.W / 2
        return x0 - 3, self.top - self.h - 3, x0 + self.W + 3, self.top + 3

    def draw(self) -> None:
        w = self.W
        x0 = WIDTH / 2 - w / 2
        arcade.draw_lbwh_rectangle_filled(x0, self.top - self.h, w, self.h, (8, 24, 16, 238))
        arcade.draw_lbwh_rectangle_outline(x0, self.top - self.h, w, self.h, PANEL_EDGE, 3)
        for t in self.texts:
            t.draw()
        if self.done:
            self.result.draw()


__all__ = ["ScorePanel"]
