"""The Replays screen's list: a page of rows, each with its date and game, its
players, its result and the result's detail (the words are ``replay_list``'s),
the file of the row under the mouse (or the highlighted one) below them, and the
line said when no row is shown.  The view (``replay_browser``) holds the rows and
the highlighted one; the list lays a page of them out, draws it and finds the
row under a point."""

from __future__ import annotations

import arcade

from game.common.constants import FONT, GOLD, HEIGHT, INK, PANEL, RED, WIDTH
from game.common.i18n import _
from game.theatre import replay_list as rl

ROWS = 8  # rows on a page
ROW_H = 54
TOP = HEIGHT - 150  # the first row's centre
LIST_LEFT, LIST_RIGHT = 40, WIDTH - 40
DIM = (178, 186, 170)
RESULT_COLOURS = {rl.WON: (150, 220, 140), rl.LOST: RED, rl.DRAWN: GOLD, rl.UNFINISHED: (222, 214, 178),
                  rl.BROKEN: RED}

Line = tuple[arcade.Text, arcade.Text, arcade.Text, arcade.Text]


def _line() -> Line:
    """A row's four texts: the date and game, the players, the result and its detail."""
    return (
        arcade.Text("", LIST_LEFT + 16, 0, INK, 14, anchor_y="center", font_name=FONT, bold=True),
        arcade.Text("", LIST_LEFT + 16, 0, DIM, 12, anchor_y="center", font_name=FONT),
        arcade.Text("", LIST_RIGHT - 16, 0, INK, 14, anchor_x="right", anchor_y="center", font_name=FONT,
                    bold=True),
        arcade.Text("", LIST_RIGHT - 16, 0, DIM, 12, anchor_x="right", anchor_y="center", font_name=FONT),
    )


class RowList:
    """A page of the rows: ``first`` is the index of its top row, ``hover`` the row
    under the mouse (-1: none)."""

    def __init__(self) -> None:
        self.first = 0
        self.hover = -1
        self.lines = [_line() for _i in range(ROWS)]
        self.detail = arcade.Text("", LIST_LEFT, TOP - ROWS * ROW_H + 8, DIM, 12, anchor_y="center",
                                  font_name=FONT)
        self.empty = arcade.Text("", WIDTH / 2, TOP - ROW_H * 2, INK, 16, anchor_x="center", anchor_y="center",
                                 font_name=FONT, multiline=True, width=900, align="center")

    def layout(self, entries: list[rl.Row], selected: int) -> None:
        """The page that shows row ``selected`` of ``entries``, its texts fitted."""
        if selected < self.first:
            self.first = selected
        if selected >= self.first + ROWS:
            self.first = selected - ROWS + 1
        self.first = max(0, min(self.first, max(0, len(entries) - ROWS)))
        for i, (title, players, result, detail) in enumerate(self.lines):
            k = self.first + i
            y = TOP - i * ROW_H
            title.y, players.y = y + 11, y - 12
            result.y, detail.y = y + 11, y - 12
            if k >= len(entries):
                title.text = players.text = result.text = detail.text = ""
                continue
            e = entries[k]
            result.text, detail.text = rl.result_lines(e)
            result.color = INK if e.watched else RESULT_COLOURS[e.status]
            if e.ok:
                title.text = f"{rl.when_text(e)}   {rl.game_text(e)}"
                players.text = rl.players_text(e)
                players.color = DIM
            else:
                title.text = f"{rl.when_text(e)}   {rl.game_text(e)}"
                players.text = e.error
                players.color = RED
            # the left texts give way to the result and its detail
            title_room = result.x - result.content_width - 24 - title.x
            fit_ellipsis(title, title_room)
            fit_ellipsis(detail, LIST_RIGHT - LIST_LEFT - 32 - min(players.content_width, 420) - 24)
            fit_ellipsis(players, result.x - detail.content_width - 24 - players.x)
        self.show_detail(entries, selected)

    def show_detail(self, entries: list[rl.Row], selected: int) -> None:
        """The file of the row under the mouse, else of row ``selected``."""
        k = self.hover if self.hover >= 0 else selected
        if 0 <= k < len(entries):
            e = entries[k]
            self.detail.text = _("File: {path}").format(path=e.path)
            fit_ellipsis(self.detail, LIST_RIGHT - LIST_LEFT)
        else:
            self.detail.text = ""

    def row_at(self, x: float, y: float, n: int) -> int:
        """The index (among ``n`` rows) of the row under a logical point, or -1."""
        if not LIST_LEFT <= x <= LIST_RIGHT:
            return -1
        for i in range(ROWS):
            if abs(y - (TOP - i * ROW_H)) <= ROW_H / 2 and self.first + i < n:
                return self.first + i
        return -1

    def draw(self, n: int, selected: int) -> None:
        """The page of ``n`` rows, row ``selected`` highlighted, and the line under it."""
        if self.empty.text:
            self.empty.draw()
        for i, texts in enumerate(self.lines):
            k = self.first + i
            if k >= n:
                break
            y = TOP - i * ROW_H
            colour = (60, 126, 84, 230) if k == selected else ((30, 70, 46, 230) if k == self.hover
                                                                else PANEL)
            arcade.draw_lrbt_rectangle_filled(LIST_LEFT, LIST_RIGHT, y - ROW_H / 2 + 2, y + ROW_H / 2 - 2, colour)
            if k == selected:
                arcade.draw_lrbt_rectangle_filled(LIST_LEFT, LIST_LEFT + 5, y - ROW_H / 2 + 2, y + ROW_H / 2 - 2,
                                                  GOLD)
            for t in texts:
                t.draw()
        if self.detail.text:
            self.detail.draw()

    def texts(self, n: int) -> list[arcade.Text]:
        """The list's texts on the screen (of ``n`` rows)."""
        out = [t for t in (self.empty, self.detail) if t.text]
        for i, texts in enumerate(self.lines):
            if self.first + i < n:
                out += [t for t in texts if t.text]
        return out


def fit_ellipsis(t: arcade.Text, width: float) -> None:
    """Shorten ``t`` with an ellipsis until it is at most ``width`` wide."""
    if t.content_width <= width:
        return
    full = t.text
    lo, hi = 0, len(full)
    while lo < hi:  # the longest prefix that fits
        mid = (lo + hi + 1) // 2
        t.text = full[:mid].rstrip() + "…"
        if t.content_width <= width:
            lo = mid
        else:
            hi = mid - 1
    t.text = full[:lo].rstrip() + "…"
