"""The review's panel, left of the trick: where the decision stands (the trick, or
your discard), its label, your card and the AI's with their expected points, the
points at stake, and the deal's summary (accuracy, mean loss, how many of each
label), or the review's progress while it runs.  The view (``review_view``) says
which decision is shown; the panel words it and draws it."""

from __future__ import annotations

import arcade
from arcade.types import RGBOrA255

from engine.cards import Pack
from engine.review import Decision
from game.common.constants import FONT, GOLD, INK, PANEL
from game.common.i18n import _
from game.common.words import cards_from_codes
from game.theatre.review_model import ReviewModel
from game.theatre.review_style import AI_COLOUR, DIM_INK, LABEL_COLOURS, TRACK, label_name

# logical 1280x720, left, bottom, width, height: beside the trick, clear of the
# hands (a lifted Scarto hand reaches y 262) and of the seat labels (West's ends at 213)
PANEL_BOX = (216, 268, 218, 304)
BUTTON_Y = 268 + 24  # the Previous and Next buttons' centre, at the panel's foot
ROWS_Y = 186  # the summary rows: the first one's middle, down from the panel's top
ROW_COUNT_X = 120  # the summary rows: the count's right edge (from the panel's inner left)

Box = tuple[float, float, float, float]


class ReviewPanel:
    """The panel's texts, set for one decision (:meth:`show`) and drawn (:meth:`draw`)."""

    def __init__(self, model: ReviewModel, pack: Pack) -> None:
        self.model = model
        self.pack = pack
        left, bottom, w, h = PANEL_BOX
        x0, x1, top = left + 10, left + w - 10, bottom + h

        def t(x: float, y: float, size: int = 12, colour: RGBOrA255 = INK, bold: bool = False,
              anchor_x: str = "left") -> arcade.Text:
            return arcade.Text("", x, y, colour, size, anchor_x=anchor_x, anchor_y="center", font_name=FONT,
                               bold=bold)

        self.t_where = t(x0, top - 16, 12, GOLD, True)
        self.t_count = t(x1, top - 16, 11, DIM_INK, anchor_x="right")
        self.t_label = t(x0, top - 40, 17, INK, True)
        # the cards named in words (a discard, or a long name, takes two lines)
        self.t_played = arcade.Text("", x0, top - 70, INK, 12, anchor_y="center", font_name=FONT,
                                    multiline=True, width=int(w - 66))
        self.t_played_v = t(x1, top - 70, anchor_x="right")
        self.t_best = arcade.Text("", x0, top - 102, INK, 12, anchor_y="center", font_name=FONT,
                                  multiline=True, width=int(w - 66))
        self.t_best_v = t(x1, top - 102, anchor_x="right")
        self.t_stake = t(x0, top - 128, 10)
        self.t_summary = t(x0, top - 148, 12, GOLD, True)
        self.t_mean = t(x0, top - 166, 11, DIM_INK)
        self.t_rows = [(t(x0 + 16, top - ROWS_Y - 16 * i, 10), t(x0 + ROW_COUNT_X, top - ROWS_Y - 16 * i, 10, INK,
                                                              True, anchor_x="right"))
                       for i in range(5)]
        self.texts = [self.t_where, self.t_count, self.t_label, self.t_played, self.t_played_v,
                      self.t_best, self.t_best_v, self.t_stake, self.t_summary, self.t_mean,
                      *(x for row in self.t_rows for x in row)]

    # --- the words ---------------------------------------------------------------------

    def show(self, k: int | None, *, pos: int, error: str, progress: tuple[int, int] | None,
             several: bool) -> None:
        """The panel for decision ``k`` (None: outside the decisions) with the table at
        ``pos``: where, which label, the two cards and their values, and the deal's
        summary.  ``several``: the file holds several deals."""
        d = self.model.decision(k)
        self._set_where(k, several)
        self._set_label(k, d, pos, error)
        self._set_cards(k, d, error)
        self._set_summary(error, progress)

    def _set_where(self, k: int | None, several: bool) -> None:
        m = self.model
        n = len(m)
        if k is None:
            where = _("Review of deal {n}").format(n=m.deal) if several else _("Review of the deal")
            count = ""
        elif m.kinds[k] == "discard":
            where, count = _("Your discard"), f"{k + 1}/{n}"
        else:
            where = _("Trick {t} of {n}").format(t=m.tricks[k], n=m.n_tricks)
            count = f"{k + 1}/{n}"
        self.t_where.text, self.t_count.text = where, count
        fit(self.t_where, 12, PANEL_BOX[2] - 60)

    def _set_label(self, k: int | None, d: Decision | None, pos: int, error: str) -> None:
        m = self.model
        label_colour: RGBOrA255 = INK
        if error:
            label = _("The review failed")
        elif not len(m):
            label = _("No decision to review")
        elif k is None:
            label = _("Before your first decision") if pos < m.positions[0] else \
                _("Outside this deal")
        elif d is None:
            label = _("Reviewing…")
            label_colour = DIM_INK
        else:
            label = label_name(d.label)
            label_colour = LABEL_COLOURS[d.label]
        self.t_label.text = label
        self.t_label.color = label_colour
        fit(self.t_label, 17, PANEL_BOX[2] - 20)

    def _set_cards(self, k: int | None, d: Decision | None, error: str) -> None:
        """Your card and the AI's, their expected points and the points at stake."""
        m = self.model
        played = best = played_v = best_v = stake = ""
        short = {}  # the cards alone, where the sentence does not fit in two lines (a discard of three)
        if error:
            played, best = error[:32], error[32:64]
        elif k is not None:
            pack = self.pack
            cards = cards_from_codes(pack, m.played[k])  # named, never a code
            played = (_("You laid aside {cards}") if m.kinds[k] == "discard"
                      else _("You played {cards}")).format(cards=cards)
            short["played"] = cards[:1].upper() + cards[1:]  # under "Your discard" / "Trick 3 of 15"
            best = _("The AI prefers …")
            if d is not None:
                played_v, best_v = f"{d.expected_played:.1f}", f"{d.expected_best:.1f}"
                same = set(d.best.split()) == set(d.played.split())
                best = _("The AI chooses the same") if same else _("The AI prefers {cards}").format(
                    cards=cards_from_codes(pack, d.best))
                short["best"] = _("AI: {cards}").format(cards=cards_from_codes(pack, d.best))
                stake = _("At stake: {points} points").format(points=f"{d.loss:.1f}")
        self.t_played.text, self.t_played_v.text = played, played_v
        self.t_best.text, self.t_best_v.text = best, best_v
        self.t_stake.text = stake
        for name, t in (("played", self.t_played), ("best", self.t_best)):
            fit_lines(t, 12)
            if t.content_height > 2 * t.font_size * 1.75 and name in short:
                t.text = short[name]
                fit_lines(t, 12, least=7)
        fit(self.t_stake, 10, PANEL_BOX[2] - 20)
        self.t_played.color = LABEL_COLOURS[d.label] if d is not None else INK
        self.t_best.color = AI_COLOUR if d is not None else DIM_INK

    def _set_summary(self, error: str, progress: tuple[int, int] | None) -> None:
        """The deal's accuracy, mean loss and count of each label (or the review's progress)."""
        m = self.model
        n = len(m)
        if m.ready:
            self.t_summary.text = _("Accuracy {pct}%").format(pct=f"{m.accuracy:.0f}")
            self.t_mean.text = _("Mean loss {points} a decision").format(points=f"{m.mean_loss:.1f}")
            for (name_t, count_t), (label, c) in zip(self.t_rows, m.counts(), strict=True):
                name_t.text, count_t.text = label_name(label), str(c)
                name_t.color = LABEL_COLOURS[label]
                fit(name_t, 10, ROW_COUNT_X - 16 - 22, 7)
        else:
            self.t_summary.text = "" if error or not n else _("The AI reviews your decisions")
            done, total = progress or (0, m.n_decisions)
            self.t_mean.text = "" if error or not n else \
                _("{done} of {total} decisions").format(done=done, total=total)
            for name_t, count_t in self.t_rows:
                name_t.text = count_t.text = ""
        fit(self.t_summary, 12, PANEL_BOX[2] - 20)
        fit(self.t_mean, 11, PANEL_BOX[2] - 20)

    # --- drawing -----------------------------------------------------------------------

    def rect(self) -> Box:
        """What the panel covers on the logical screen: left, bottom, right, top."""
        left, bottom, w, h = PANEL_BOX
        return left - 2, bottom - 2, left + w + 2, bottom + h + 2

    def draw(self, *, error: str, progress: tuple[int, int] | None) -> None:
        """The panel, its texts, and the bars of the summary (or of the review's progress)."""
        left, bottom, w, h = PANEL_BOX
        top = bottom + h
        arcade.draw_lbwh_rectangle_filled(left, bottom, w, h, PANEL)
        for t in self.texts:
            if t.text:
                t.draw()
        x0 = left + 10
        m = self.model
        if m.ready:
            most = max([c for _l, c in m.counts()] + [1])
            for i, (label, c) in enumerate(m.counts()):
                y = top - ROWS_Y - 16 * i
                arcade.draw_lbwh_rectangle_filled(x0, y - 5, 10, 10, LABEL_COLOURS[label])
                bx = x0 + ROW_COUNT_X + 6
                bw = w - 20 - ROW_COUNT_X - 6
                arcade.draw_lbwh_rectangle_filled(bx, y - 4, bw, 8, TRACK)
                if c:
                    arcade.draw_lbwh_rectangle_filled(bx, y - 4, bw * c / most, 8, LABEL_COLOURS[label])
        elif not error and len(m):
            done, total = progress or (0, max(len(m), 1))
            y = top - ROWS_Y
            bw = w - 20
            arcade.draw_lbwh_rectangle_filled(x0, y - 5, bw, 10, TRACK)
            arcade.draw_lbwh_rectangle_filled(x0, y - 5, bw * done / max(total, 1), 10, GOLD)
        arcade.draw_line(x0, top - 126, left + w - 10, top - 126, (245, 240, 225, 50), 1)


def fit(t: arcade.Text, size: int, width: float, least: int = 8) -> None:
    """Set ``t`` at ``size``, smaller if need be to fit ``width`` (a translation may be longer)."""
    if t.font_size != size:
        t.font_size = size
    while t.text and t.content_width > width and t.font_size > least:
        t.font_size -= 1


def fit_lines(t: arcade.Text, size: int, least: int = 8) -> None:
    """A wrapped text set at ``size`` on one line, else smaller on two at most."""
    for s in range(size, least - 1, -1):
        if t.font_size != s:
            t.font_size = s
        if t.content_height <= (1 if s > 9 else 2) * s * 1.75:
            return
