"""The review's chart, right of the trick: the deal's curve, your side's expected
points after each of your choices, trick by trick, a ring where the AI's card was
worth more, the result at the end; the current decision is marked, and the view
asks it which decision lies under a click (:meth:`ReviewChart.step_at`)."""

from __future__ import annotations

import math

import arcade
import pyglet
from arcade import shape_list as sh
from arcade.types import Color, RGBOrA255

from engine.ruleset import Ruleset
from game.common.constants import FONT, GOLD, INK, PANEL
from game.common.i18n import _
from game.theatre.review_model import ReviewModel
from game.theatre.review_style import AI_COLOUR, DIM_INK, LABEL_COLOURS, TRACK

# logical 1280x720: left, bottom, width, height, right of the trick
CHART_BOX = (856, 318, 248, 262)
PLOT_PAD = (30, 10, 40, 48)  # the plot inside the chart: left, right, bottom, top
GRID = (245, 240, 225, 40)
EVEN_LINE = (245, 240, 225, 90)
GOLD_A, INK_A = Color.from_iterable(GOLD), Color.from_iterable(INK)  # the shapes take four channels

Box = tuple[float, float, float, float]


class ReviewChart:
    """The chart of one deal's review: its fixed part (one shape list, one text
    batch) is built again when the review comes in or fails; the mark of the
    current decision is drawn over it each frame."""

    def __init__(self, model: ReviewModel, rules: Ruleset) -> None:
        self.model = model
        self.rules = rules
        self.batch = pyglet.graphics.Batch()
        self.texts: list[arcade.Text] = []
        self.shapes: sh.ShapeElementList[sh.Shape] = sh.ShapeElementList()
        self._key: tuple[bool, bool] | None = None

    # --- geometry ----------------------------------------------------------------------

    @staticmethod
    def plot_box() -> Box:
        """The plot inside the chart: left, bottom, width, height."""
        left, bottom, w, h = CHART_BOX
        pl, pr, pb, pt = PLOT_PAD
        return left + pl, bottom + pb, w - pl - pr, h - pb - pt

    def xy(self, trick: float, points: float) -> tuple[float, float]:
        """The point of the plot at ``trick`` (0: the discard) and ``points``."""
        x0, y0, w, h = self.plot_box()
        t0, t1 = self.model.x_range()
        lo, hi = self.model.y_range()
        return x0 + w * (trick - t0) / max(t1 - t0, 1), y0 + h * (points - lo) / (hi - lo)

    @staticmethod
    def rect() -> Box:
        """What the chart covers on the logical screen: left, bottom, right, top."""
        left, bottom, w, h = CHART_BOX
        return left - 2, bottom - 2, left + w + 2, bottom + h + 2

    def step_at(self, x: float, y: float) -> int | None:
        """The decision whose point is nearest a click at logical ``(x, y)``, or
        None (outside the chart, or no curve yet)."""
        left, bottom, w, h = CHART_BOX
        if not (left <= x <= left + w and bottom <= y <= bottom + h) or not self.model.ready:
            return None
        pts = self.model.curve()
        if not pts:
            return None
        return min(range(len(pts)), key=lambda k: abs(self.xy(pts[k].trick, 0)[0] - x))

    # --- the fixed part ----------------------------------------------------------------

    def _text(self, s: str, x: float, y: float, colour: RGBOrA255 = DIM_INK, size: float = 9,
              anchor_x: str = "center", bold: bool = False) -> arcade.Text:
        """A text of the chart's batch."""
        self.texts.append(arcade.Text(s, x, y, colour, size, anchor_x=anchor_x, anchor_y="center",
                                      font_name=FONT, bold=bold, batch=self.batch))
        return self.texts[-1]

    def build(self, error: str) -> None:
        """The chart's fixed part, for the review as it stands (``error``: why it failed)."""
        left, bottom, w, h = CHART_BOX
        shapes: sh.ShapeElementList[sh.Shape] = sh.ShapeElementList()
        self.shapes = shapes
        shapes.append(sh.create_rectangle_filled(left + w / 2, bottom + h / 2, w, h, PANEL))
        self.batch = pyglet.graphics.Batch()
        self.texts = []
        self._heading()
        self._axes()
        self._curve(error)

    def _heading(self) -> None:
        """The title and the legend: your card (a dot), the AI's (a ring), the result (a diamond)."""
        left, bottom, w, h = CHART_BOX
        shapes = self.shapes
        teams = self.rules.n_sides < self.rules.n_seats
        title = self._text(_("Your side's expected points") if teams else _("Your expected points"),
                           left + 10, bottom + h - 14, GOLD, 11, "left", True)
        while title.content_width > w - 20 and title.font_size > 8:
            title.font_size -= 1
        lx, ly = left + 14, bottom + h - 32
        legend = (("dot", _("your card")), ("ring", _("the AI's")), ("diamond", _("result")))
        size = 9
        while size > 7 and sum(arcade.Text(word, 0, 0, DIM_INK, size, font_name=FONT).content_width + 22
                               for _k, word in legend) > w - 16:
            size -= 1
        for kind, word in legend:
            if kind == "dot":
                shapes.append(sh.create_ellipse_filled(lx, ly, 4, 4, INK_A))
            elif kind == "ring":
                shapes.append(sh.create_ellipse_outline(lx, ly, 4, 4, AI_COLOUR, 2))
            else:
                shapes.append(sh.create_polygon([(lx, ly - 5), (lx + 5, ly), (lx, ly + 5), (lx - 5, ly)], GOLD_A))
            t = self._text(word, lx + 8, ly, DIM_INK, size, "left")
            lx += 8 + t.content_width + 14

    def _axes(self) -> None:
        """The plot's track, the points' grid and the even line, the tricks' ticks."""
        m = self.model
        shapes, text = self.shapes, self._text
        x0, y0, pw, ph = self.plot_box()
        lo, hi = m.y_range()
        t0, t1 = m.x_range()
        shapes.append(sh.create_rectangle_filled(x0 + pw / 2, y0 + ph / 2, pw, ph, TRACK))
        step = 10 if hi - lo <= 40 else 20
        v = math.ceil(lo / step) * step
        while v <= hi + 1e-9:
            _x, y = self.xy(t0, v)
            shapes.append(sh.create_line(x0, y, x0 + pw, y, GRID, 1))
            text(f"{v:g}", x0 - 5, y, DIM_INK, 9, "right")
            v += step
        if lo < m.even < hi:
            _x, y = self.xy(t0, m.even)
            for xa in range(int(x0), int(x0 + pw), 8):
                shapes.append(sh.create_line(xa, y, min(xa + 4, x0 + pw), y, EVEN_LINE, 1))
        ticks = sorted({*range(5, t1 + 1, 5), t1} | ({1} if t0 else set()))
        clear = -1e9  # the trick labels start right of the discard's
        if t0 == 0:
            x, _y = self.xy(0, lo)
            shapes.append(sh.create_line(x, y0, x, y0 - 4, DIM_INK, 1))
            clear = text(_("discard"), x - 3, y0 - 12, DIM_INK, 8, "left").right + 3
        for t in ticks:
            x, _y = self.xy(t, lo)
            shapes.append(sh.create_line(x, y0, x, y0 - 4, DIM_INK, 1))
            label = text(str(t), x, y0 - 12, DIM_INK, 9)
            if label.left < clear:
                label.text = ""
        text(_("tricks"), x0 + pw, y0 - 26, DIM_INK, 8, "right")

    def _curve(self, error: str) -> None:
        """The curve of your choices, a ring where the AI's was worth more, the
        result; or a line saying why there is no curve yet."""
        m = self.model
        shapes = self.shapes
        x0, y0, pw, ph = self.plot_box()
        t1 = m.x_range()[1]
        pts = m.curve()
        if not pts:
            msg = error and _("The review failed") or (
                _("No decision to review") if not len(m) else _("The curve comes with the review"))
            self.texts.append(arcade.Text(msg, x0 + pw / 2, y0 + ph / 2, DIM_INK, 10, anchor_x="center",
                                          anchor_y="center", font_name=FONT, batch=self.batch, multiline=True,
                                          width=int(pw - 16), align="center"))
            return
        line = [self.xy(p.trick, p.played) for p in pts]
        if m.result is not None:
            line.append(self.xy(t1, m.result))
        shapes.append(sh.create_line_strip(line, (245, 240, 225, 170), 2))
        for p in pts:
            x, yp = self.xy(p.trick, p.played)
            if p.best - p.played > 0.05:
                _x, yb = self.xy(p.trick, p.best)
                colour = LABEL_COLOURS[p.label]
                shapes.append(sh.create_line(x, yp, x, yb, (*colour[:3], 150), 2))
                shapes.append(sh.create_ellipse_outline(x, yb, 4, 4, AI_COLOUR, 2))
            shapes.append(sh.create_ellipse_filled(x, yp, 4, 4, LABEL_COLOURS[p.label]))
        if m.result is not None:
            x, y = self.xy(t1, m.result)
            shapes.append(sh.create_polygon([(x, y - 6), (x + 6, y), (x, y + 6), (x - 6, y)], GOLD_A))
            self._text(str(m.result), x + 6, y + 13, GOLD, 9, "right", True)

    # --- drawing -----------------------------------------------------------------------

    def damage_key(self, k: int | None, error: str) -> tuple[bool, bool, int | None]:
        """What the chart shows with decision ``k`` current (its damage key)."""
        ready = self.model.ready
        return (ready, bool(error), k if ready else None)

    def draw(self, k: int | None, error: str) -> None:
        """The chart, with decision ``k`` (None: none) marked on the curve."""
        key = (self.model.ready, bool(error))
        if key != self._key:
            self._key = key
            self.build(error)
        self.shapes.draw()
        self.batch.draw()
        m = self.model
        if m.ready and k is not None:
            p = m.curve()[k]
            x, y = self.xy(p.trick, p.played)
            x0, y0, pw, ph = self.plot_box()
            arcade.draw_line(x, y0, x, y0 + ph, (*GOLD[:3], 150), 1)
            arcade.draw_circle_outline(x, y, 7, GOLD, 2)
