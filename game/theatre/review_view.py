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

This module holds the view: the review's run, the stepping, the buttons and the
keys.  Its parts are beside it: the panel (``review_panel``), the chart
(``review_chart``), the framed cards (``review_marks``), their colours
(``review_style``); the model they draw is ``review_model``'s.
"""

from __future__ import annotations

import os
import sys
import threading
from concurrent.futures import CancelledError
from pathlib import Path

import arcade
from arcade.types import RGBOrA255

from engine.replay import Replay, ReplayError, read_replay
from engine.review import Grader, Review
from game.common import damage
from game.common.constants import HEIGHT, INK, WIDTH
from game.common.i18n import _
from game.common.navigation import Back, show
from game.common.ui import Button
from game.table import ai_service
from game.theatre.replay_list import game_title
from game.theatre.review_chart import ReviewChart
from game.theatre.review_marks import CardMarks
from game.theatre.review_model import ReviewModel, deals_in, pick_deal, review_deal
from game.theatre.review_panel import BUTTON_Y, PANEL_BOX, ReviewPanel, fit
from game.theatre.review_style import DIM_INK, LABEL_COLOURS
from game.theatre.theatre import ViewerView

DEAL_BUTTON = (68, 30, 112, 34)  # centre x, centre y, width, height: left of the seek bar
POLL = 0.1  # seconds between two looks at the review's progress
BUDGET: Grader | None = None  # the review's work (None: engine.review.REVIEW; tests set a small one)

#: a file's review, by the file (path, size and time when it can be read), seat and deal
ReviewKey = tuple[object, ...]
_cache: dict[ReviewKey, Review] = {}  # for this session


def _file_key(path: Path, seat: int, deal: int) -> ReviewKey:
    try:
        st = path.stat()
        return (str(path.resolve()), st.st_size, st.st_mtime_ns, seat, deal)
    except OSError:
        return (str(path), seat, deal)


class ReviewView(ViewerView):
    """The theatre on one deal of ``replay`` in review mode (see the module docstring)."""

    def __init__(self, window: arcade.Window | None, replay: Replay, path: str | os.PathLike[str], *,
                 seat: int, deal: int, back: Back | None = None, service: ai_service.AIService | None = None,
                 budget: Grader | None = None) -> None:
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
        self._review_key: tuple[object, ...] = ()
        self._build_parts()
        super().__init__(window, replay, title=_("Review: {name}").format(name=game_title(self.path)), face_up=False,
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

    def _start(self, key: ReviewKey, service: ai_service.AIService | None, budget: Grader | None) -> None:
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

    def _build_parts(self) -> None:
        """The review's parts: built before the theatre's, which draws a few positions at once."""
        self.panel = ReviewPanel(self.model, self.replay.rules.pack)
        self.marks = CardMarks()
        self.chart = ReviewChart(self.model, self.replay.rules)

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

    def _set_marks(self) -> None:
        """Frame your card and the AI's, once the table lies still."""
        played, best = self.framed_cards()
        if self.table.busy:
            played = best = frozenset()
        self.marks.set(played, best, self._played_colour(), self.table.sprites, self._to_screen_pt)

    def _played_colour(self) -> RGBOrA255:
        d = self.model.decision(self.model.exactly_at(self.pos))
        return LABEL_COLOURS[d.label] if d is not None else INK

    # --- the decisions on the seek bar ----------------------------------------------------

    def bar_extra_key(self) -> tuple[object, ...]:
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

    def side_items(self) -> list[damage.Item]:
        texts = tuple((t.text, t.color, t.font_size) for t in self.panel.texts)
        panel_key = (texts, self.model.ready, self.progress, self.error)
        items = [damage.rect_item("review-panel", panel_key, self.panel.rect()),
                 damage.rect_item("review-chart", self.chart.damage_key(self.current_step(), self.error),
                                  self.chart.rect()),
                 damage.rect_item("review-marks", self.marks.damage_key(), self.marks.rect)]
        return items

    def draw_side(self) -> None:
        if self.reaches("review-marks"):
            self.marks.draw()
        if self.reaches("review-panel"):
            self.panel.draw(error=self.error, progress=self.progress)
        if self.reaches("review-chart"):
            self.chart.draw(self.current_step(), self.error)

    # --- input -----------------------------------------------------------------------

    def on_click(self, x: float, y: float, button: int) -> None:
        k = self.chart.step_at(x, y)
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


def open_review(window: arcade.Window, path: str | os.PathLike[str], seat: int | None = None,
                back: Back | None = None, *, deal: int | None = None) -> ReviewView | None:
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
