"""The other pages of the end of a deal, drawn over the table in place of the score
panel: the deal's tricks in the order played, and the viewer's pile and discard.

Both are read off the deal's :class:`~game.table.score_sheet.ScoreSheet` (its
tricks, its piles, Scarto's groups counted in threes); the cards are the
table's own faces (:class:`~game.table.scene.table_scene.TableScene`).  Another
seat's discard stays face down: nobody else sees it.
"""

from __future__ import annotations

from collections.abc import Sequence

import arcade

from engine.scoring import DISCARD, MATTO, MATTO_TRICK, TRICK
from game.common import layout, textures
from game.common.constants import FONT, GOLD, HEIGHT, INK, PANEL_EDGE, WIDTH
from game.common.i18n import _, ngettext
from game.common.words import Words, card_list, msg
from game.table.deal_end import Page
from game.table.scene.labels import SUBTITLE_INK
from game.table.scene.sprites import Colour
from game.table.scene.table_scene import TableScene
from game.table.score_sheet import ScoreSheet


class ReviewPanel:
    """The review of a deal, at its end: ``page`` "tricks" (each trick in the order
    played: who led, who took it, every card, the winning one raised on a gold
    edge) or "piles" (the viewer's side's pile, and the discard where the viewer
    dealt; another seat's discard stays face down: nobody else sees it)."""

    LEFT, RIGHT = 20, WIDTH - 20

    def __init__(self, sheet: ScoreSheet, words: Words, page: Page, table: TableScene) -> None:
        self.sheet = sheet
        self.words = words
        self.page = page
        self.table = table
        self.texts: list[arcade.Text] = []
        self.sprites: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.halos: list[tuple[float, float, float, float]] = []  # behind the winning cards
        # under the toolbar, and under the three pile lines of a three-seat table
        self.top = HEIGHT - (72 if sheet.rules.n_seats == 4 else 92)
        self.h = self.top - 14
        self.button_y = self.top - self.h + 30
        self.done = True
        multi = sheet.n_deals > 1
        deal = _("Deal {n} of {total}").format(n=sheet.deal, total=sheet.n_deals) if multi else ""
        if page == "tricks":
            title = _("The tricks of the deal, in the order played")
            self._tricks()
        else:
            title = _("Your pile and your discard") if sheet.rules.n_sides == sheet.rules.n_seats \
                else _("Our pile and the discard")
            self._piles()
        self._text(" · ".join(t for t in (deal, title) if t), WIDTH / 2, self.top - 24, GOLD, 17, bold=True)

    # --- building -----------------------------------------------------------------

    def _text(self, s: str, x: float, y: float, colour: Colour, size: int, anchor: str = "center",
              bold: bool = False) -> arcade.Text:
        t = arcade.Text(s, x, y, colour, size, anchor_x=anchor, anchor_y="center", font_name=FONT,
                        bold=bold)
        self.texts.append(t)
        return t

    def _card(self, card: int | None, x: float, y: float, width: float) -> tuple[float, float]:
        """A card face (None: a back) centred at x, y; returns its size."""
        if card is None:
            tex = self.table.tex.back_for(width)
        else:
            tex = textures.Textures.nearest(self.table.faces[card], width)
        sp = arcade.Sprite(tex, width / tex.width, x, y)
        self.sprites.append(sp)
        return sp.width, sp.height

    def _row(self, cards: Sequence[int | None], x: float, y: float, width: float, step: float,
             raised: int | None = None) -> float:
        """Cards left to right from ``x`` (their left edge), each ``step`` along;
        returns the right edge."""
        h = width * 592 / 320
        for i, c in enumerate(cards):
            cx = x + width / 2 + i * step
            lift = 8 if raised is not None and c == raised else 0
            if lift:
                self.halos.append((cx - width / 2 - 3, y - h / 2 + lift - 3, width + 6, h + 6))
            self._card(c, cx, y + lift, width)
        return x + width + step * max(0, len(cards) - 1)

    def _tricks(self) -> None:
        sheet = self.sheet
        rules = sheet.rules
        tricks = sheet.tricks
        cols = 5 if rules.n_seats == 4 else 7
        rows = max(1, -(-len(tricks) // cols))
        top = self.top - 56  # the first row's labels
        bottom = self.button_y + 30
        cell_h = (top - bottom) / rows
        cell_w = (self.RIGHT - self.LEFT) / cols
        says = [f"{t.number} · " + self.words.say(msg("led_took", leader=t.leader, winner=t.winner))
                for t in tricks]
        size = 11  # one size for every label, the longest fitting its cell, else in two lines
        probe = arcade.Text("", 0, 0, INK, size, font_name=FONT)
        widest = max(says, key=len, default="")
        while size > 9:
            probe.text, probe.font_size = widest, size
            if probe.content_width <= cell_w - 8:
                break
            size -= 1
        probe.text, probe.font_size = widest, size
        wrap = probe.content_width > cell_w - 8
        below = 20 + (size + 5 if wrap else 0)  # from the label's middle to the cards' top
        width = min(68.0, (cell_h - 40 - (below - 20)) * 320 / 592)  # the cards fill the cell
        h = width * 592 / 320
        step = min(30.0, (cell_w - 18 - width) / max(1, rules.n_seats - 1))
        for k, (t, say) in enumerate(zip(tricks, says, strict=True)):
            r, c = divmod(k, cols)
            x0 = self.LEFT + c * cell_w
            y_label = top - r * cell_h
            if wrap:  # two lines centred in the cell, the first where one line would be
                label = arcade.Text(say, x0 + cell_w / 2, y_label + size / 2 + 3, INK, size, anchor_x="center",
                                    anchor_y="top", font_name=FONT, multiline=True, width=int(cell_w - 8),
                                    align="center")
                label.y = y_label + label.content_height / 2 - (size + 5) / 2 + 1
                self.texts.append(label)
            else:
                self._text(say, x0 + cell_w / 2, y_label, INK, size)
            row_w = width + step * (len(t.cards) - 1)
            self._row(t.cards, x0 + (cell_w - row_w) / 2, y_label - below - h / 2, width, step,
                      raised=t.winning_card)

    def _piles(self) -> None:
        sheet = self.sheet
        if sheet.rules.trick_adjust and sheet.groups:
            self._groups()
            return
        rules = sheet.rules
        words = self.words
        side = sheet.viewer_side
        pile = layout.sorted_hand(sum(1 << c for c in sheet.pile(side)), rules.pack)
        y: float = self.top - 70
        width = 68
        h = width * 592 / 320
        avail = self.RIGHT - self.LEFT - 40 - width
        tricks_text = ngettext("{n} trick", "{n} tricks", sum(1 for t in sheet.tricks
                                                           if rules.side[t.winner] == side)).format(
            n=sum(1 for t in sheet.tricks if rules.side[t.winner] == side))
        cards_text = words.cards_held(len(pile))
        heading = _("Your pile: {cards}, {tricks}") if rules.n_sides == rules.n_seats \
            else _("Our pile: {cards}, {tricks}")
        self._text(heading.format(cards=cards_text, tricks=tricks_text), self.LEFT + 20, y, INK, 14,
                   anchor="left", bold=True)
        rows_of = [pile]
        if pile and avail / max(1, len(pile) - 1) < 14:  # a long Scarto pile: two rows
            half = -(-len(pile) // 2)
            rows_of = [pile[:half], pile[half:]]
        y -= 20 + h / 2  # the centre of the first row
        for i, cards in enumerate(rows_of):
            if i:
                y -= h + 14
            step = min(34.0, avail / max(1, len(cards) - 1))
            self._row(cards, self.LEFT + 20, y, width, step)
        y -= h / 2 + 30  # the discard's heading
        discard = sheet.discard
        n = rules.discard_cards
        if discard is not None:
            self._text(_("Your discard: {cards}").format(cards=card_list(rules.pack, discard)),
                       self.LEFT + 20, y, INK, 14, anchor="left", bold=True)
            self._row(discard, self.LEFT + 20, y - 20 - h / 2, width, width + 8)
        elif sheet.dealer >= 0:
            self._text(_("{dealer} dealt: the discard stays face down, nobody else sees it").format(
                dealer=words.name(sheet.dealer)), self.LEFT + 20, y, INK, 14, anchor="left", bold=True)
            self._row([None] * n, self.LEFT + 20, y - 20 - h / 2, width, width + 8)

    def _groups(self) -> None:
        """Counting in threes (Scarto, S6): the viewer's pile as the engine counted it,
        group by group (each trick taken, the Matto's trick of two, the Matto alone,
        the dealer's discard where the viewer dealt), each with its card points and
        what it adds to the count; then the count and the deal score (the sheet's)."""
        sheet = self.sheet
        rules = sheet.rules
        side = sheet.viewer_side
        groups = sheet.groups[side]
        y = self.top - 62
        n = sum(1 for g in groups if g.kind in (TRICK, MATTO_TRICK))
        self._text(ngettext("Your pile, counted in threes: {n} trick taken",
                            "Your pile, counted in threes: {n} tricks taken", n).format(n=n),
                   self.LEFT + 20, y, INK, 14, anchor="left", bold=True)
        self._text(_("Each trick is a group: its card points − {n}. The Matto's trick leaves a group "
                     "of two (+{a} − {n}); the Matto counts alone; the dealer's discard is a group.")
                   .format(n=-rules.trick_adjust, a=rules.matto_trick_adjust),
                   self.LEFT + 20, y - 24, SUBTITLE_INK, 12, anchor="left")
        width, step = 44.0, 18.0
        h = width * 592 / 320
        cell_w, cell_h = 98.0, h + 42
        cols = int((self.RIGHT - self.LEFT - 40) // cell_w)
        top = y - 50  # the top of the first row of cards
        captions = {TRICK: _("trick"), MATTO_TRICK: _("group of two"), MATTO: _("the Matto"),
                    DISCARD: _("discard")}
        for k, g in enumerate(groups):
            r, c = divmod(k, cols)
            x0 = self.LEFT + 20 + c * cell_w
            cy = top - r * cell_h - h / 2
            cards = g.cards or (None,) * rules.discard_cards
            self._row(cards, x0, cy, width, step)
            fig = f"{g.points} = {g.value}"  # the Matto alone: its points
            if g.kind == MATTO_TRICK:
                fig = f"{g.points} + {rules.matto_trick_adjust} − {-rules.trick_adjust} = {g.value}"
            elif g.value != g.points:
                fig = f"{g.points} − {g.points - g.value} = {g.value}"
            self._text(fig, x0 + (width + step * (len(cards) - 1)) / 2, cy - h / 2 - 10, GOLD, 11,
                       bold=True)
            self._text(captions.get(g.kind, ""), x0 + (width + step * (len(cards) - 1)) / 2,
                       cy - h / 2 - 28, SUBTITLE_INK, 9)
        count = next((r.values[side] for r in sheet.rows if r.strong), None)
        score = sheet.rows[-1].values[side] if rules.par else None
        rows = max(1, -(-len(groups) // cols))
        y_end = top - rows * cell_h - 14
        if count is not None:
            line = _("Count: {count}").format(count=count)
            if score is not None:
                line += " · " + _("deal score: {score:+d}").format(score=score)
            self._text(line, self.LEFT + 20, y_end, GOLD, 14, anchor="left", bold=True)
        if sheet.discard is None and sheet.dealer >= 0 and rules.side[sheet.dealer] != side:
            self._text(_("{dealer} dealt: the discard stays face down, nobody else sees it").format(
                dealer=self.words.name(sheet.dealer)), self.LEFT + 20, y_end - 26, INK, 12,
                anchor="left")

    # --- the panel's surface ------------------------------------------------------

    def bounds(self) -> tuple[float, float, float, float]:
        return 7, self.top - self.h - 3, WIDTH - 7, self.top + 3

    def update(self, dt: float) -> None:
        pass

    def finish(self) -> None:
        pass

    @property
    def done_for(self) -> float:
        return 0.0

    def draw(self) -> None:
        arcade.draw_lbwh_rectangle_filled(10, self.top - self.h, WIDTH - 20, self.h, (8, 24, 16, 255))
        arcade.draw_lbwh_rectangle_outline(10, self.top - self.h, WIDTH - 20, self.h, PANEL_EDGE, 3)
        for box in self.halos:
            arcade.draw_lbwh_rectangle_filled(*box, GOLD)
        self.sprites.draw()
        for t in self.texts:
            t.draw()


__all__ = ["ReviewPanel"]
