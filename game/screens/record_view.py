"""The "Your record" screen: totals, win rates by opponent level, and two
charts drawn with arcade shapes: your side's points deal after deal, and the
review's accuracy when some deals have been reviewed.  The data come from
``game.common.record`` (the database made from the replay files).

Everything is built once (one shape list, one text batch) and drawn as three
calls a frame.  Keys: Escape goes back, G (or the Game button) switches
between the games recorded when there are both Piedicavallo and Scarto deals.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import arcade
import pyglet
from arcade import shape_list as sh
from arcade.types import RGBA255, RGBOrA255

from game.common import record
from game.common.constants import FONT, GOLD, HEIGHT, INK, WIDTH
from game.common.i18n import N_, _
from game.common.navigation import show
from game.common.ui import BaseView, Button

WIN = (104, 196, 120, 255)
DRAW = (176, 176, 164, 255)
LOSS = (226, 104, 92, 255)
RESULT_COLOURS: dict[str, RGBA255] = {"win": WIN, "draw": DRAW, "loss": LOSS}
PANEL = (10, 34, 22, 225)
EDGE = (236, 196, 92, 90)
GRID = (245, 240, 225, 40)
TRACK = (245, 240, 225, 28)
DIM_INK = (200, 205, 190, 255)
ACCURACY_INK = (120, 190, 255, 255)
MAX_POINTS = 120  # deals shown on the points chart (the most recent)
MEAN_OF = 10  # the running mean's window
VARIANT_NAMES = {"piedicavallo": "Piedicavallo", "scarto": "Scarto"}
N_("Piedicavallo"), N_("Scarto")

# panels: left, bottom, width, height (logical 1280x720)
Box = tuple[float, float, float, float]
TOTALS = (40, 40, 400, 576)
POINTS = (460, 332, 780, 284)
ACCURACY = (460, 40, 780, 272)


def level_label(levels: str) -> str:
    """'easy/hard' in the player's language."""
    return " / ".join(_(lv) for lv in levels.split("/"))


def short_date(iso: str | None) -> str:
    if not iso:
        return ""
    try:
        return datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone().strftime("%Y-%m-%d")
    except ValueError:
        return iso[:10]


def pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.0f}%"


def running_mean(values: Sequence[float], n: int = MEAN_OF) -> list[float]:
    out: list[float] = []
    total = 0.0
    for i, v in enumerate(values):
        total += v
        if i >= n:
            total -= values[i - n]
        out.append(total / min(i + 1, n))
    return out


class RecordView(BaseView):
    background = (16, 58, 36)

    def __init__(self, window: arcade.Window, variant: str | None = None) -> None:
        super().__init__(window)
        self.error = ""
        self.variants: list[str] = []
        self.variant: str | None = None
        self.rows: list[record.DealRow] = []
        self.summary: dict[str, Any] = {}
        try:
            con = record.connect()
            try:
                self.variants = [v for (v,) in con.execute(
                    "SELECT variant FROM deals GROUP BY variant ORDER BY MAX(played_at) DESC")]
                self.variant = variant if variant in self.variants else (
                    self.variants[0] if self.variants else None)
                if self.variant is not None:
                    self.summary = record.summary(con, self.variant)
                    self.rows = record.deal_rows(con, self.variant)
            finally:
                con.close()
        except (record.RecordError, OSError) as exc:
            self.error = str(exc)
            self.variant = None
        self.shapes: sh.ShapeElementList[sh.Shape] = sh.ShapeElementList()
        self.batch = pyglet.graphics.Batch()
        self.texts: list[arcade.Text] = []
        self.buttons = [Button(_("Back"), (100, HEIGHT - 46, 150, 44), self.on_back)]
        self.text(_("Your record"), WIDTH / 2, HEIGHT - 46, GOLD, 30, bold=True, anchor_x="center")
        if self.error:
            self._build_error()
        elif not self.rows:
            self._build_empty()
        else:
            if len(self.variants) > 1 and self.variant is not None:
                name = VARIANT_NAMES.get(self.variant, self.variant)
                self.buttons.append(Button(_("Game: {name}").format(name=_(name)),
                                           (WIDTH - 150, HEIGHT - 46, 240, 44), self.next_variant,
                                           font_size=14))
            self._build_totals()
            self._build_points()
            self._build_accuracy()
        self.focus = 0

    # --- building ---------------------------------------------------------------------------

    def text(self, s: str, x: float, y: float, colour: RGBOrA255 = INK, size: int = 14, *, bold: bool = False,
             anchor_x: str = "left", anchor_y: str = "center", width: int | None = None,
             align: str = "left", fit: float | None = None) -> arcade.Text:
        """A text of the screen's batch; ``fit``: a width it is shrunk to if longer
        (a translation may be longer than the English)."""
        t = arcade.Text(s, x, y, colour, size, anchor_x=anchor_x, anchor_y=anchor_y, font_name=FONT,
                        bold=bold, batch=self.batch, multiline=bool(width), width=width or None,
                        align=align if width else "left")
        while fit is not None and t.content_width > fit and t.font_size > 9:
            t.font_size -= 1
        self.texts.append(t)
        return t

    def rect(self, left: float, bottom: float, w: float, h: float, colour: RGBA255) -> None:
        if w > 0 and h > 0:
            self.shapes.append(sh.create_rectangle_filled(left + w / 2, bottom + h / 2, w, h, colour))

    def panel(self, box: Box) -> None:
        left, bottom, w, h = box
        self.rect(left, bottom, w, h, PANEL)
        self.shapes.append(sh.create_rectangle_outline(left + w / 2, bottom + h / 2, w, h, EDGE, 1))

    def result_bar(self, left: float, y: float, w: float, counts: dict[str, int]) -> None:
        """A bar split into wins, draws and losses, in proportion."""
        n = sum(counts.values())
        x = left
        self.rect(left, y - 11, w, 22, TRACK)
        for key in ("win", "draw", "loss"):
            part = w * counts[key] / n if n else 0
            self.rect(x, y - 11, part, 22, RESULT_COLOURS[key])
            x += part

    def _build_message(self, title: str, body: str, detail: str = "", picture: bool = True) -> None:
        self.panel((240, 170, 800, 330))
        self.text(title, WIDTH / 2, 440, GOLD, 24, bold=True, anchor_x="center", fit=740)
        self.text(body, WIDTH / 2, 400, INK, 16, anchor_x="center", anchor_y="top", width=680,
                  align="center")
        if detail:
            self.text(detail, WIDTH / 2, 320, DIM_INK, 12, anchor_x="center", anchor_y="top", width=680,
                      align="center")
        if picture:  # a small picture of the chart to come: deals above and below the draw line
            base, x0 = 255, WIDTH / 2 - 110
            for i, (h, key) in enumerate(((26, "win"), (-14, "loss"), (34, "win"), (0, "draw"),
                                          (18, "win"), (-22, "loss"), (40, "win"))):
                x = x0 + i * 36
                lo, hi = sorted((base, base + h))
                self.rect(x - 4, lo, 8, max(hi - lo, 2), (*RESULT_COLOURS[key][:3], 140))
                self.shapes.append(sh.create_ellipse_filled(x, base + h, 9, 9, RESULT_COLOURS[key],
                                                            num_segments=16))
            for x in range(int(x0 - 24), int(x0 + 6 * 36 + 24), 14):
                self.shapes.append(sh.create_line(x, base, x + 7, base, (*GOLD[:3], 200), 2))

    def _build_empty(self) -> None:
        self._build_message(
            _("No finished deal yet."),
            _("Finish a deal and it is counted here: your wins against each level of opponent, "
              "and your points deal after deal."))
        self.buttons.append(Button(_("New game"), (WIDTH / 2, 120, 240, 46), self.new_game))

    def _build_error(self) -> None:
        self._build_message(
            _("Your record could not be read."),
            _("Your replays are safe: the record can be made again from them."),
            self.error, picture=False)
        self.buttons.append(Button(_("Rebuild the record"), (WIDTH / 2, 120, 300, 46), self.rebuild))

    def _build_totals(self) -> None:
        s = self.summary
        left, bottom, w, h = TOTALS
        self.panel(TOTALS)
        x0, inner = left + 24, w - 48
        top = bottom + h
        if s["first"]:
            self.text(_("From {first} to {last}").format(first=short_date(s["first"]),
                                                         last=short_date(s["last"])),
                      WIDTH / 2, HEIGHT - 86, DIM_INK, 13, anchor_x="center")
        y = top - 34
        for label, n, counts, rate in (
                (_("Deals"), s["deals"], {"win": s["wins"], "draw": s["draws"], "loss": s["losses"]},
                 s["win_rate"]),
                (_("Games"), s["games"], {"win": s["games_won"], "draw": s["games_drawn"],
                                          "loss": s["games_lost"]}, s["game_win_rate"])):
            self.text(label, x0, y, GOLD, 16, bold=True)
            self.text(str(n), x0 + inner, y, INK, 26, bold=True, anchor_x="right")
            self.result_bar(x0, y - 38, inner, counts)
            self.text(_("Won: {n}").format(n=counts["win"]), x0, y - 68, WIN, 13)
            self.text(_("Drawn: {n}").format(n=counts["draw"]), x0 + inner / 2, y - 68, DRAW, 13,
                      anchor_x="center")
            self.text(_("Lost: {n}").format(n=counts["loss"]), x0 + inner, y - 68, LOSS, 13,
                      anchor_x="right")
            self.text(_("Win rate {rate}").format(rate=pct(rate)), x0, y - 92, INK, 13, fit=inner)
            y -= 132
        # win rate by opponent level: one bar each
        y -= 4
        self.shapes.append(sh.create_line(x0, y + 22, x0 + inner, y + 22, EDGE, 1))
        self.text(_("Win rate by opponent level"), x0, y, GOLD, 15, bold=True, fit=inner)
        y -= 34
        levels = sorted(s["by_level"].items(), key=lambda kv: -kv[1]["deals"])[:4]
        bar_w = inner - 60
        for level, e in levels:
            self.text(level_label(level), x0, y, INK, 13, bold=True, fit=bar_w - 50)
            self.text(f"{e['wins']}/{e['deals']}", x0 + bar_w, y, DIM_INK, 11, anchor_x="right")
            rate = e["win_rate"] or 0
            self.rect(x0, y - 27, bar_w, 14, TRACK)
            self.rect(x0, y - 27, bar_w * rate, 14, WIN)
            # the draws after the wins, dimmer
            self.rect(x0 + bar_w * rate, y - 27, bar_w * e["draws"] / e["deals"], 14, (*DRAW[:3], 150))
            self.text(pct(e["win_rate"]), x0 + inner, y - 20, INK, 13, bold=True, anchor_x="right")
            y -= 50
        v = s["by_variant"].get(self.variant or "")
        if v:
            self.shapes.append(sh.create_line(x0, bottom + 56, x0 + inner, bottom + 56, EDGE, 1))
            self.text(_("Points per deal on average: {points}").format(points=f"{v['mean_points']:.1f}"),
                      x0, bottom + 32, INK, 13, fit=inner)

    def _chart_frame(self, box: Box, title: str, y_max: float, ticks: Sequence[float],
                     tick_label: Callable[[float], str], right: float = 24, below: float = 34) -> Box:
        """A panel with a title, horizontal grid lines and their labels; returns the plot area."""
        left, bottom, w, h = box
        self.panel(box)
        self.text(title, left + 20, bottom + h - 24, GOLD, 15, bold=True, fit=w - 40)
        plot = (left + 56, bottom + below, w - 56 - right, h - 44 - below)
        pl, pb, pw, ph = plot
        for t in ticks:
            y = pb + ph * t / y_max
            self.shapes.append(sh.create_line(pl, y, pl + pw, y, GRID, 1))
            self.text(tick_label(t), pl - 8, y, DIM_INK, 11, anchor_x="right")
        return plot

    def _x_of(self, i: int, n: int, plot: Box) -> float:
        pl, _pb, pw, _ph = plot
        return pl + pw / 2 if n == 1 else pl + pw * i / (n - 1)

    def _dates(self, rows: Sequence[record.DealRow], plot: Box) -> None:
        pl, pb, pw, _ph = plot
        self.text(short_date(rows[0].played_at), pl, pb - 16, DIM_INK, 11)
        if len(rows) > 1:
            self.text(short_date(rows[-1].played_at), pl + pw, pb - 16, DIM_INK, 11, anchor_x="right")

    def _build_points(self) -> None:
        v = record.VARIANTS.get(self.variant or "", record.VARIANTS["piedicavallo"])
        rows = self.rows[-MAX_POINTS:]
        title = _("Your team's points per deal") if v.name == "piedicavallo" else _("Your points per deal")
        if len(self.rows) > MAX_POINTS:
            title += "  ·  " + _("the last {n} deals").format(n=MAX_POINTS)
        step = 25 if v.pack_points > 100 else 10
        span = min(max([v.pack_points * 0.6] + [r.us for r in rows]) * 1.05, v.pack_points)
        ticks = [t for t in range(0, v.pack_points + 1, step) if t <= span]
        plot = self._chart_frame(POINTS, title, span, ticks, lambda t: str(int(t)), right=84,
                                 below=54)
        pl, pb, pw, ph = plot
        ye = pb + ph * v.even / span  # the draw line: an even share of the pack
        n = len(rows)
        pts = [(self._x_of(i, n, plot), pb + ph * r.us / span) for i, r in enumerate(rows)]
        # a bar from the draw line to each deal's points, in the result's colour
        bar_w = max(2.0, min(10.0, pw / max(n, 1) * 0.55))
        for (x, y), r in zip(pts, rows, strict=True):
            lo, hi = sorted((ye, y))
            self.rect(x - bar_w / 2, lo, bar_w, max(hi - lo, 2), (*RESULT_COLOURS[r.result][:3], 140))
        for x in range(int(pl), int(pl + pw), 14):
            self.shapes.append(sh.create_line(x, ye, min(x + 7, pl + pw), ye, (*GOLD[:3], 230), 2))
        self.text(str(v.even), pl + pw + 8, ye + 9, GOLD, 11, bold=True)
        self.text(_("a draw"), pl + pw + 8, ye - 9, GOLD, 11)
        for (x, y), r in zip(pts, rows, strict=True):
            self.shapes.append(sh.create_ellipse_filled(x, y, 8, 8, RESULT_COLOURS[r.result], num_segments=16))
        if n >= 3:
            mean = running_mean([r.us for r in rows])
            line = [(x, pb + ph * m / span) for (x, _y), m in zip(pts, mean, strict=True)]
            self.shapes.append(sh.create_line_strip(line, (*GOLD[:3], 255), 3))
        self._dates(rows, plot)
        # the legend, centred under the dates
        items = [("win", _("won")), ("draw", _("drawn")), ("loss", _("lost"))]
        if n >= 3:
            items.append(("mean", _("mean of the last {n}").format(n=MEAN_OF)))
        y = pb - 38
        labels = [self.text(label, 0, y, DIM_INK, 12) for _key, label in items]
        mark = {"mean": 24, "win": 14, "draw": 14, "loss": 14}
        total = sum(t.content_width + mark[k] for (k, _l), t in zip(items, labels, strict=True)) \
            + 18 * (len(items) - 1)
        x = pl + pw / 2 - total / 2
        for (key, _label), t in zip(items, labels, strict=True):
            if key == "mean":
                self.shapes.append(sh.create_line(x, y, x + 18, y, (*GOLD, 255), 3))
            else:
                self.shapes.append(sh.create_ellipse_filled(x + 4, y, 9, 9, RESULT_COLOURS[key],
                                                            num_segments=16))
            x += mark[key]
            t.x = x
            x += t.content_width + 18

    def _build_accuracy(self) -> None:
        rows = [r for r in self.rows if r.accuracy is not None][-MAX_POINTS:]
        title = _("Accuracy of your reviewed deals")
        plot = self._chart_frame(ACCURACY, title, 100, [0, 25, 50, 75, 100] if rows else [],
                                 lambda t: f"{t:.0f}%", right=84)
        pl, pb, pw, ph = plot
        if not rows:
            self.text(_("No deal reviewed yet: a review of a deal grades each of your cards "
                        "and shows your accuracy here."),
                      pl + pw / 2, pb + ph / 2, INK, 14, anchor_x="center", width=int(pw - 80),
                      align="center")
            return
        n = len(rows)
        pts = [(self._x_of(i, n, plot), pb + ph * (r.accuracy or 0) / 100) for i, r in enumerate(rows)]
        if n >= 2:
            # the area under the curve, then the curve
            for (x1, y1), (x2, y2) in zip(pts, pts[1:], strict=False):
                self.shapes.append(sh.create_polygon([(x1, pb), (x1, y1), (x2, y2), (x2, pb)],
                                                     (*ACCURACY_INK[:3], 45)))
            self.shapes.append(sh.create_line_strip(pts, ACCURACY_INK, 3))
        for x, y in pts:
            self.shapes.append(sh.create_ellipse_filled(x, y, 8, 8, ACCURACY_INK, num_segments=16))
        # the mean, dashed, named at the right like the draw line above
        mean = self.summary["mean_accuracy"] or 0
        ym = pb + ph * mean / 100
        for x in range(int(pl), int(pl + pw), 14):
            self.shapes.append(sh.create_line(x, ym, min(x + 7, pl + pw), ym, (*GOLD[:3], 200), 2))
        self.text(f"{mean:.0f}%", pl + pw + 8, ym + 9, GOLD, 11, bold=True)
        self.text(_("mean"), pl + pw + 8, ym - 9, GOLD, 11)
        self._dates(rows, plot)

    # --- actions -------------------------------------------------------------------------------

    def next_variant(self) -> None:
        if len(self.variants) > 1:
            i = self.variants.index(self.variant) if self.variant in self.variants else -1
            self.window.show_view(RecordView(self.window, self.variants[(i + 1) % len(self.variants)]))

    def rebuild(self) -> None:
        try:
            record.rebuild(quiet=True)
        except (record.RecordError, OSError):
            pass  # the new screen says what is wrong
        self.window.show_view(RecordView(self.window))

    def new_game(self) -> None:
        show(self.window, "new_game", practice=False)

    def on_back(self) -> None:
        show(self.window, "menu")

    # --- drawing and input -------------------------------------------------------------------------

    def draw_scene(self) -> None:
        self.shapes.draw()
        self.batch.draw()

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        if symbol == arcade.key.G:
            self.next_variant()
            return True
        if symbol == arcade.key.BACKSPACE:
            self.on_back()
            return True
        return super().on_key_press(symbol, modifiers)
