"""The theatre in review mode: one deal of a replay, stepping from one of your
decisions to the next (open it with :func:`open_review`, the router's "review" screen).

At each decision the table lies as it was just before you chose, your hand face
up; the card you played and the one the AI prefers are lifted and framed (your
card in its label's colour, the AI's in blue).  The panel on the left says the
trick, the label, the expected points of both cards and the points at stake, and
sums the deal up (accuracy, mean loss, how many of each label).  The chart on the
right is the deal's curve: your side's expected points after each choice, trick
by trick, a ring where the AI's card was worth more, the result at the end; the
current decision is marked, and a click on the chart goes to a decision.

The review itself (``engine.review`` through :func:`game.theatre.review_model.review_deal`)
runs in the AI process (:class:`game.table.ai_service.LongCall`), off the frame loop;
meanwhile the panel shows its progress and the replay can be watched and stepped.
Leaving (Escape, the "<" button) stops it: the AI process drops it at its next
decision and the answer is never waited for.  A finished review's accuracy is
stored in your record (``game.common.record.set_accuracy``) on a thread of its own.

Keys, besides the theatre's: N or Page Down the next decision, P or Page Up the
previous one; H shows every hand or only yours; D (Shift+D) the next (previous)
deal of a file that holds several.
"""

from __future__ import annotations

import math
import os
import sys
import threading
from concurrent.futures import CancelledError
from pathlib import Path
from typing import Any

import arcade
import pyglet
from arcade import shape_list as sh

from engine.replay import Replay, ReplayError, read_replay
from engine.review import Review
from game.common import damage
from game.common.constants import CARD_H, CARD_W, FONT, GOLD, HEIGHT, INK, PANEL, WIDTH
from game.common.i18n import _
from game.common.navigation import show
from game.common.ui import Button
from game.table import ai_service
from game.theatre.review_model import ReviewModel, deals_in, pick_deal, review_deal
from game.theatre.review_panel import BUTTON_Y, PANEL_BOX, ReviewPanel, fit
from game.theatre.review_style import AI_COLOUR, DIM_INK, LABEL_COLOURS, TRACK
from game.theatre.theatre import ViewerView

GRID = (245, 240, 225, 40)
EVEN_LINE = (245, 240, 225, 90)

CHART_BOX = (856, 318, 248, 262)
PLOT_PAD = (30, 10, 40, 48)  # the plot inside the chart: left, right, bottom, top
DEAL_BUTTON = (68, 30, 112, 34)  # centre x, centre y, width, height: left of the seek bar
POLL = 0.1  # seconds between two looks at the review's progress
BUDGET: Any = None  # the review's search budget (None: the hard level's; tests set a small one)

_cache: dict[tuple, Review] = {}  # (file, size, mtime, seat, deal) -> its review, for this session


def _file_key(path: Path, seat: int, deal: int) -> tuple:
    try:
        st = path.stat()
        return (str(path.resolve()), st.st_size, st.st_mtime_ns, seat, deal)
    except OSError:
        return (str(path), seat, deal)


class ReviewView(ViewerView):
    """The theatre on one deal of ``replay`` in review mode (see the module docstring)."""

    def __init__(self, window: arcade.Window | None, replay: Replay, path: str | os.PathLike[str], *,
                 seat: int, deal: int, back=None, service: ai_service.AIService | None = None,
                 budget: Any = None) -> None:
        self.path = Path(path)
        self.replay = replay
        self.service = service
        self.budget = budget
        self.n_deals = deals_in(replay)
        self.model = ReviewModel(replay, seat, deal)
        self.seat = seat
        self.deal = deal
        self.error = ""
        self.progress: tuple[int, int] | None = None
        self.call: ai_service.LongCall | None = None
        self.accuracy_saved: threading.Thread | None = None
        self._poll_wait = 0.0
        self._review_key: tuple = ()
        self._chart_key: tuple = ()
        self._marks: list[tuple] = []  # (corners, colour) of the framed cards
        self._marks_rect = None
        self._build_review_texts()
        super().__init__(window, replay, title=_("Review: {name}").format(name=self.path.name), face_up=False,
                         back=back)
        self.face_up = {seat}
        self.playing = False
        key = _file_key(self.path, seat, deal)
        cached = _cache.get(key)
        if cached is not None:
            self._take(cached)
        else:
            self._start(key, service, budget)
        self.seek(self.model.first_position())

    # --- the review in the AI process ------------------------------------------------

    def _start(self, key: tuple, service: ai_service.AIService | None, budget: Any) -> None:
        self._key = key
        try:
            self.call = ai_service.submit_long(review_deal, str(self.path.resolve()), self.seat, self.deal,
                                               budget=budget if budget is not None else BUDGET, svc=service)
        except RuntimeError as exc:  # the AI service is closed (the program is exiting)
            self.error = str(exc)

    def _poll(self, dt: float) -> None:
        call = self.call
        if call is None:
            return
        if call.done():
            self.call = None
            try:
                review = call.future.result()
            except (ai_service.Stopped, CancelledError):
                return
            except Exception as exc:  # noqa: BLE001 - shown in the panel, the theatre goes on
                self.error = f"{type(exc).__name__}: {exc}"
                return
            _cache[self._key] = review
            self._take(review)
            self._save_accuracy()
            return
        self._poll_wait -= dt
        if self._poll_wait <= 0:
            self._poll_wait = POLL
            self.progress = call.progress()

    def _take(self, review: Review) -> None:
        try:
            self.model.set_review(review)
        except ValueError as exc:
            self.error = str(exc)
        self.seek(self.pos)  # the AI's card is lifted too now

    def _save_accuracy(self) -> None:
        """Note the accuracy in the record, off the frame loop.  The autosave is never
        noted (the record counts a game once it is filed), nor an unscored deal."""
        m = self.model
        if m.accuracy is None or not m.steps or m.result is None:
            return
        try:
            from game.common import paths

            if self.path.resolve() == paths.autosave_path().resolve():
                return
        except OSError:
            pass
        t = threading.Thread(target=_store_accuracy, args=(str(self.path), self.deal, m.accuracy, self.seat),
                             name="tarocchi-record-accuracy")
        self.accuracy_saved = t
        t.start()

    def stop_review(self) -> None:
        """Stop the review if it still runs (never waits)."""
        if self.call is not None:
            self.call.stop()
            self.call = None

    @property
    def running(self) -> bool:
        return self.call is not None

    def on_update(self, delta_time: float) -> None:
        super().on_update(delta_time)
        self._poll(delta_time)

    def on_back(self) -> None:
        self.stop_review()
        super().on_back()

    def on_hide_view(self) -> None:
        self.stop_review()

    # --- stepping --------------------------------------------------------------------

    def next_decision(self) -> None:
        self.playing = False
        self.seek(self.model.next_position(self.pos))

    def prev_decision(self) -> None:
        self.playing = False
        self.seek(self.model.prev_position(self.pos))

    def goto_step(self, k: int) -> None:
        self.playing = False
        self.seek(self.model.positions[k])

    def other_deal(self, step: int) -> ReviewView:
        """The review of the next (``step`` 1) or previous (-1) deal of the file, shown in
        this one's place (this one's review stops; a deal reviewed before comes back at once)."""
        deal = (self.deal - 1 + step) % self.n_deals + 1
        view = ReviewView(self.window, self.replay, self.path, seat=self.seat, deal=deal, back=self.back,
                          service=self.service, budget=self.budget)
        self.window.show_view(view)
        return view

    def toggle_hands(self) -> None:
        self.face_up = {self.seat} if self.face_up == self.all_seats else set(self.all_seats)
        self.seek(self.pos)

    def current_step(self) -> int | None:
        m = self.model
        if not m.start - 1 <= self.pos <= m.end:
            return None
        return m.step_at(self.pos)

    def framed_cards(self) -> tuple[frozenset[int], frozenset[int]]:
        """The cards framed at this position: (yours, the AI's); both lie in the hand
        only exactly at a decision."""
        m = self.model
        k = m.exactly_at(self.pos)
        if k is None:
            return frozenset(), frozenset()
        codes = self.rules.pack.codes
        index = {c: i for i, c in enumerate(codes)}
        played = frozenset(index[c] for c in m.played[k])
        d = m.decision(k)
        best = frozenset(index[c] for c in d.best.split()) if d is not None else frozenset()
        return played, best

    def seek(self, p: int) -> None:
        super().seek(p)
        if hasattr(self, "next_button"):
            self._enable_steps()

    def raised_cards(self) -> frozenset[int]:
        if not hasattr(self, "model"):
            return frozenset()
        played, best = self.framed_cards()
        return played | best

    # --- texts -----------------------------------------------------------------------

    def _build_review_texts(self) -> None:
        self.panel = ReviewPanel(self.model, self.replay.rules.pack)
        self.t_tags = [arcade.Text("", 0, 0, (12, 20, 14), 9, anchor_x="center", anchor_y="center",
                                   font_name=FONT, bold=True) for _ in range(8)]
        self.chart_batch = pyglet.graphics.Batch()
        self.chart_texts: list[arcade.Text] = []
        self.chart_shapes = sh.ShapeElementList()

    def _build_buttons(self) -> None:
        super()._build_buttons()
        left, _bottom, w, _h = PANEL_BOX
        bw = (w - 30) / 2
        self.prev_button = Button(_("< Previous"), (left + 10 + bw / 2, BUTTON_Y, bw, 30), self.prev_decision,
                                  tooltip=_("Previous decision (P, Page Up)"), font_size=12)
        self.next_button = Button(_("Next >"), (left + w - 10 - bw / 2, BUTTON_Y, bw, 30), self.next_decision,
                                  tooltip=_("Next decision (N, Page Down)"), font_size=12)
        for b in (self.prev_button, self.next_button):
            fit(b.text, 12, bw - 10)
        self.buttons += [self.prev_button, self.next_button]
        self.deal_button = None
        if self.n_deals > 1:  # bottom left, beside the seek bar
            self.deal_button = Button(_("Deal {n}/{total}").format(n=self.deal, total=self.n_deals),
                                      DEAL_BUTTON, lambda: self.other_deal(1),
                                      tooltip=_("Review another deal (D, Shift+D)"), font_size=12)
            fit(self.deal_button.text, 12, DEAL_BUTTON[2] - 10)
            self.buttons.append(self.deal_button)

    def _refresh_texts(self) -> None:
        super()._refresh_texts()
        k = self.current_step()
        key = (k, self.pos, self.model.ready, self.progress, self.error, self.table.busy,
               tuple(sorted(self.face_up)))
        if key == self._review_key:
            return
        self._review_key = key
        several = self.timeline.state(self.timeline.n).n_deals > 1
        self.panel.show(k, pos=self.pos, error=self.error, progress=self.progress, several=several)
        self._set_marks()
        self._enable_steps()

    def _enable_steps(self) -> None:
        pos, at = self.pos, self.model.positions
        self.prev_button.enabled = bool(at) and pos > at[0]
        self.next_button.enabled = bool(at) and pos < at[-1]

    # --- the framed cards on the table -----------------------------------------------------

    def _to_screen_pt(self, x: float, y: float) -> tuple[float, float]:
        """A table point on the logical screen (the table is seen through its camera)."""
        (px, py), z = self.table_camera.position, self.table_camera.zoom
        return (x - px) * z + WIDTH / 2, (y - py) * z + HEIGHT / 2

    @staticmethod
    def _box(place) -> tuple[float, float, float, float]:
        w, h = CARD_W * place.scale / 2, CARD_H * place.scale / 2
        return place.x - w, place.y - h, place.x + w, place.y + h

    def _frame(self, s) -> list[tuple[float, float]]:
        """The outline of a card's visible part, as a line strip on the logical screen.

        A card of a fanned hand lies under its right neighbour: its frame runs
        along the bottom to the neighbour, up the left side, along the top and
        down the right side to the neighbour's top (a lifted card shows that
        much); a card nobody covers gets the whole outline."""
        p = s.place
        if p.angle % 360 != 0:  # a turned card: its whole outline
            w, h = CARD_W * p.scale / 2, CARD_H * p.scale / 2
            a = math.radians(p.angle)
            c, si = math.cos(a), math.sin(a)
            pts = [(p.x + dx * c + dy * si, p.y - dx * si + dy * c)
                   for dx, dy in ((-w, -h), (w, -h), (w, h), (-w, h), (-w, -h))]
            return [self._to_screen_pt(x, y) for x, y in pts]
        left, bottom, right, top = self._box(p)
        cover = None
        for o in self.table.sprites:
            q = o.place
            if o is s or q.hidden or q.z <= p.z or q.angle % 360 != 0:
                continue
            ol, ob, or_, ot = self._box(q)
            if left < ol < right and ob < top and bottom < ot and (cover is None or ol < cover[0]):
                cover = (ol, ob, or_, ot)
        if cover is None:
            pts = [(left, bottom), (right, bottom), (right, top), (left, top), (left, bottom)]
        else:
            ol, ob, _or, ot = cover
            pts = [(ol, bottom), (left, bottom), (left, top), (right, top)]
            if ot < top:
                pts.append((right, max(ot, bottom)))
        return [self._to_screen_pt(x, y) for x, y in pts]

    def _set_marks(self) -> None:
        self._marks = []
        self._marks_rect = None
        played, best = self.framed_cards()
        if not (played or best) or self.table.busy:
            return
        by_key = {s.key: s for s in self.table.sprites}
        tags = iter(self.t_tags)
        xs, ys = [], []
        placed: list[tuple[float, float, float]] = []
        for card in sorted(played | best, key=lambda c: (c not in played, c)):
            s = by_key.get(("card", card))
            if s is None or s.place.hidden or not s.face_up:
                continue
            frame = self._frame(s)
            colour = self._played_colour() if card in played else AI_COLOUR
            if card in played and card in best:
                word = _("You · AI")
            elif card in played:
                word = _("You")
            else:
                word = _("AI")
            tag = next(tags, None)
            if tag is None:
                break
            left = min(x for x, _y in frame)
            top = max(y for _x, y in frame)
            tag.text = word
            half = tag.content_width / 2 + 4
            tx, ty = left + half, top + 12  # clear of the card under the tag (and of a raised neighbour)
            # tags of neighbouring cards (a discard, a close hand) are stacked, not overlaid
            while any(abs(tx - ox) < half + oh + 2 and abs(ty - oy) < 16 for ox, oy, oh in placed):
                ty += 17
            placed.append((tx, ty, half))
            tag.x, tag.y = tx, ty
            self._marks.append((tuple(frame), colour, tag))
            xs += [x for x, _y in frame] + [tx - half, tx + half]
            ys += [y for _x, y in frame] + [ty + 9]
        for tag in tags:
            tag.text = ""
        if xs:
            self._marks_rect = (min(xs) - 4, min(ys) - 4, max(xs) + 4, max(ys) + 4)

    def _played_colour(self):
        d = self.model.decision(self.model.exactly_at(self.pos))
        return LABEL_COLOURS[d.label] if d is not None else INK

    def _draw_marks(self) -> None:
        for frame, colour, tag in self._marks:
            arcade.draw_line_strip(frame, colour, 3)
            w = tag.content_width + 8
            arcade.draw_lbwh_rectangle_filled(tag.x - w / 2, tag.y - 8, w, 16, colour)
            tag.draw()

    # --- the chart -------------------------------------------------------------------

    def _plot_box(self) -> tuple[float, float, float, float]:
        left, bottom, w, h = CHART_BOX
        pl, pr, pb, pt = PLOT_PAD
        return left + pl, bottom + pb, w - pl - pr, h - pb - pt

    def _xy(self, trick: float, points: float) -> tuple[float, float]:
        x0, y0, w, h = self._plot_box()
        t0, t1 = self.model.x_range()
        lo, hi = self.model.y_range()
        return x0 + w * (trick - t0) / max(t1 - t0, 1), y0 + h * (points - lo) / (hi - lo)

    def _build_chart(self) -> None:
        """The chart's fixed part (one shape list, one text batch), rebuilt when the review comes in."""
        left, bottom, w, h = CHART_BOX
        shapes = sh.ShapeElementList()
        shapes.append(sh.create_rectangle_filled(left + w / 2, bottom + h / 2, w, h, PANEL))
        self.chart_batch = batch = pyglet.graphics.Batch()
        texts: list[arcade.Text] = []

        def text(s, x, y, colour=DIM_INK, size=9, anchor_x="center", bold=False):
            texts.append(arcade.Text(s, x, y, colour, size, anchor_x=anchor_x, anchor_y="center",
                                     font_name=FONT, bold=bold, batch=batch))
            return texts[-1]

        self._chart_heading(shapes, text)
        self._chart_axes(shapes, text)
        self._chart_curve(shapes, text, texts, batch)
        self.chart_shapes = shapes
        self.chart_texts = texts

    def _chart_heading(self, shapes, text) -> None:
        """The title and the legend: your card (a dot), the AI's (a ring), the result (a diamond)."""
        left, bottom, w, h = CHART_BOX
        teams = self.rules.n_sides < self.rules.n_seats
        title = text(_("Your side's expected points") if teams else _("Your expected points"),
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
                shapes.append(sh.create_ellipse_filled(lx, ly, 4, 4, INK))
            elif kind == "ring":
                shapes.append(sh.create_ellipse_outline(lx, ly, 4, 4, AI_COLOUR, 2))
            else:
                shapes.append(sh.create_polygon([(lx, ly - 5), (lx + 5, ly), (lx, ly + 5), (lx - 5, ly)], GOLD))
            t = text(word, lx + 8, ly, DIM_INK, size, "left")
            lx += 8 + t.content_width + 14

    def _chart_axes(self, shapes, text) -> None:
        """The plot's track, the points' grid and the even line, the tricks' ticks."""
        m = self.model
        x0, y0, pw, ph = self._plot_box()
        lo, hi = m.y_range()
        t0, t1 = m.x_range()
        shapes.append(sh.create_rectangle_filled(x0 + pw / 2, y0 + ph / 2, pw, ph, TRACK))
        step = 10 if hi - lo <= 40 else 20
        v = math.ceil(lo / step) * step
        while v <= hi + 1e-9:
            _x, y = self._xy(t0, v)
            shapes.append(sh.create_line(x0, y, x0 + pw, y, GRID, 1))
            text(f"{v:g}", x0 - 5, y, DIM_INK, 9, "right")
            v += step
        if lo < m.even < hi:
            _x, y = self._xy(t0, m.even)
            for xa in range(int(x0), int(x0 + pw), 8):
                shapes.append(sh.create_line(xa, y, min(xa + 4, x0 + pw), y, EVEN_LINE, 1))
        ticks = sorted({*range(5, t1 + 1, 5), t1} | ({1} if t0 else set()))
        clear = -1e9  # the trick labels start right of the discard's
        if t0 == 0:
            x, _y = self._xy(0, lo)
            shapes.append(sh.create_line(x, y0, x, y0 - 4, DIM_INK, 1))
            clear = text(_("discard"), x - 3, y0 - 12, DIM_INK, 8, "left").right + 3
        for t in ticks:
            x, _y = self._xy(t, lo)
            shapes.append(sh.create_line(x, y0, x, y0 - 4, DIM_INK, 1))
            label = text(str(t), x, y0 - 12, DIM_INK, 9)
            if label.left < clear:
                label.text = ""
        text(_("tricks"), x0 + pw, y0 - 26, DIM_INK, 8, "right")

    def _chart_curve(self, shapes, text, texts, batch) -> None:
        """The curve of your choices, a ring where the AI's was worth more, the
        result; or a line saying why there is no curve yet."""
        m = self.model
        x0, y0, pw, ph = self._plot_box()
        t1 = m.x_range()[1]
        pts = m.curve()
        if not pts:
            msg = self.error and _("The review failed") or (
                _("No decision to review") if not len(m) else _("The curve comes with the review"))
            texts.append(arcade.Text(msg, x0 + pw / 2, y0 + ph / 2, DIM_INK, 10, anchor_x="center",
                                     anchor_y="center", font_name=FONT, batch=batch, multiline=True,
                                     width=int(pw - 16), align="center"))
            return
        line = [self._xy(p.trick, p.played) for p in pts]
        if m.result is not None:
            line.append(self._xy(t1, m.result))
        shapes.append(sh.create_line_strip(line, (245, 240, 225, 170), 2))
        for p in pts:
            x, yp = self._xy(p.trick, p.played)
            if p.best - p.played > 0.05:
                _x, yb = self._xy(p.trick, p.best)
                colour = LABEL_COLOURS[p.label]
                shapes.append(sh.create_line(x, yp, x, yb, (*colour[:3], 150), 2))
                shapes.append(sh.create_ellipse_outline(x, yb, 4, 4, AI_COLOUR, 2))
            shapes.append(sh.create_ellipse_filled(x, yp, 4, 4, LABEL_COLOURS[p.label]))
        if m.result is not None:
            x, y = self._xy(t1, m.result)
            shapes.append(sh.create_polygon([(x, y - 6), (x + 6, y), (x, y + 6), (x - 6, y)], GOLD))
            text(str(m.result), x + 6, y + 13, GOLD, 9, "right", True)

    def _chart_now(self) -> tuple:
        m = self.model
        k = self.current_step()
        return (m.ready, bool(self.error), k if m.ready else None)

    def _draw_chart(self) -> None:
        key = (self.model.ready, bool(self.error))
        if key != self._chart_key:
            self._chart_key = key
            self._build_chart()
        self.chart_shapes.draw()
        self.chart_batch.draw()
        m = self.model
        k = self.current_step()
        if m.ready and k is not None:
            p = m.curve()[k]
            x, y = self._xy(p.trick, p.played)
            x0, y0, pw, ph = self._plot_box()
            arcade.draw_line(x, y0, x, y0 + ph, (*GOLD[:3], 150), 1)
            arcade.draw_circle_outline(x, y, 7, GOLD, 2)

    def _chart_rect(self) -> tuple[float, float, float, float]:
        left, bottom, w, h = CHART_BOX
        return left - 2, bottom - 2, left + w + 2, bottom + h + 2

    def _chart_step_at(self, x: float, y: float) -> int | None:
        left, bottom, w, h = CHART_BOX
        if not (left <= x <= left + w and bottom <= y <= bottom + h) or not self.model.ready:
            return None
        pts = self.model.curve()
        if not pts:
            return None
        return min(range(len(pts)), key=lambda k: abs(self._xy(pts[k].trick, 0)[0] - x))

    # --- the decisions on the seek bar ----------------------------------------------------

    def bar_extra_key(self) -> tuple:
        return (self.model.ready, tuple(self.model.positions))

    def draw_bar_extra(self) -> None:
        from game.theatre.theatre import BAR

        left, cy, w, h = BAR
        n = max(self.timeline.n, 1)
        m = self.model
        for k, p in enumerate(m.positions):
            d = m.decision(k)
            colour = LABEL_COLOURS[d.label] if d is not None else DIM_INK
            x = left + w * p / n
            arcade.draw_lbwh_rectangle_filled(x - 2, cy - h / 2 + 1, 4, h - 2, colour)

    # --- drawing -----------------------------------------------------------------------

    def side_items(self) -> list:
        texts = tuple((t.text, t.color, t.font_size) for t in self.panel.texts)
        panel_key = (texts, self.model.ready, self.progress, self.error)
        items = [damage.rect_item("review-panel", panel_key, self.panel.rect()),
                 damage.rect_item("review-chart", self._chart_now(), self._chart_rect()),
                 damage.rect_item("review-marks", tuple((tuple(c), col, t.text, t.x, t.y)
                                                        for c, col, t in self._marks), self._marks_rect)]
        return items

    def draw_side(self) -> None:
        if self.reaches("review-marks"):
            self._draw_marks()
        if self.reaches("review-panel"):
            self.panel.draw(error=self.error, progress=self.progress)
        if self.reaches("review-chart"):
            self._draw_chart()

    # --- input -----------------------------------------------------------------------

    def on_click(self, x: float, y: float, button: int) -> None:
        k = self._chart_step_at(x, y)
        if k is not None:
            self.goto_step(k)
            return
        super().on_click(x, y, button)

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        key = arcade.key
        if symbol in (key.N, key.PAGEDOWN):
            self.next_decision()
            return True
        if symbol in (key.P, key.PAGEUP):
            self.prev_decision()
            return True
        if symbol == key.D and self.n_deals > 1:
            self.other_deal(-1 if modifiers & key.MOD_SHIFT else 1)
            return True
        return super().on_key_press(symbol, modifiers)


def _store_accuracy(file: str, deal: int, accuracy: float, seat: int) -> None:
    from game.common import record

    try:
        record.set_accuracy(file, deal, round(min(100.0, max(0.0, accuracy)), 2), seat=seat)
    except Exception as exc:  # noqa: BLE001 - the record never stops the review
        print(f"tarocchi: the record could not note the review of {file}: {exc}", file=sys.stderr)


def open_review(window: arcade.Window, path, seat: int | None = None, back=None, *,
                deal: int | None = None):
    """"Review this deal": the theatre on ``path`` in review mode (the router's "review" screen).

    ``seat``: the seat reviewed (None: the file's human seat, else 0); ``back``: a
    callable run when the player leaves (None: the menu); ``deal``: the 1-based deal
    (None: the last scored deal, else the last).  The review starts in the AI
    process at once; the view is shown and returned.  A file that cannot be
    reviewed shows why (with ``back``) and returns None."""
    from engine.review import default_seat

    path = Path(path)
    try:
        rp = read_replay(path, tolerate_torn=True)
        seat = default_seat(rp) if seat is None else seat
        if not 0 <= seat < rp.rules.n_seats:
            raise ValueError(_("seat {seat} is not a seat of this game").format(seat=seat))
        if rp.final.deal_no == 0:
            raise ValueError(_("no card was dealt in this file"))
        deal = pick_deal(rp, deal)
    except (ReplayError, ValueError) as exc:
        show(window, "message", text=f"{path.name}\n{exc}", title=_("This deal cannot be reviewed"), back=back)
        return None
    view = ReviewView(window, rp, path, seat=seat, deal=deal, back=back)
    window.show_view(view)
    return view
