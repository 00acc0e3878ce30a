"""The table's words and marks round the cards: the seats' name plates, the piles'
lines, the dealer's chip, the glow of the seat to play, who takes the trick.

Each seat has a plate (a dark box with a token holding its letter, or the
dealer's chip) with its name and a second line (the AI level, the cards held).
Each side has a line of its points and tricks and a title by its pile; the
discard's trump count lies by the dealer's pile where the game announces it.
The fixed marks (the ring round the trick, the pile mats, the plates) are
:meth:`TableLabels.backdrop_marks`, painted once into the view's backdrop; the
texts are one pyglet batch.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import arcade
import pyglet

from engine.ruleset import Ruleset
from game.common import layout, paint, textures
from game.common.constants import (
    FONT,
    GOLD,
    HEIGHT,
    INK,
    PILE_EDGE,
    PILE_SCALE,
    TEAM_COLOURS,
    WIDTH,
)
from game.common.i18n import N_, _
from game.common.position import Position
from game.common.ui import Pill, fit_font
from game.common.words import Words, msg
from game.table.scene.sprites import Colour, set_colour

SUBTITLE_INK = (200, 200, 190)
Rect = tuple[float, float, float, float]

_LETTERS = {"South": N_("S"), "East": N_("E"), "North": N_("N"), "West": N_("W")}


def seat_letter(rules: Ruleset, seat: int) -> str:
    """The letter on a seat's token: "S", "E", "N", "W" (in the player's language)."""
    return _(_LETTERS[rules.seat_names[seat]])


class TableLabels:
    """The plates, labels and marks of one table (see the module).

    ``seating``: where each seat and each side's pile lie; ``open_hands``: the
    top seat's plate stands clear of an open hand (the theatre)."""

    TURN_MARGIN = 12

    def __init__(self, rules: Ruleset, words: Words, seating: layout.Seating, open_hands: bool,
                 tex: textures.Textures) -> None:
        self.rules = rules
        self.words = words
        self.n_seats = rules.n_seats
        self.seating = seating
        self.spots = seating.spots
        self.open_hands = open_hands
        #: by seat: its name plate (left, bottom, right, top)
        self.plates: tuple[Rect, ...] = tuple(layout.plate_rect(self.n_seats, w, open_hands) for w in self.spots)
        self.names: list[str] = []
        self.subtitles: list[str] = []
        self.urgent: frozenset[int] = frozenset()  # seats whose second line outranks their cards
        self.batch = pyglet.graphics.Batch()
        self._build_seat_labels()
        self._build_pile_texts()
        self.markers = textures.sprite_list()
        chip = tex.table["dealer"]
        self.dealer_marker = arcade.Sprite(chip, (2 * layout.TOKEN_R + 4) / chip.width)
        self.dealer_marker.visible = False
        self.markers.append(self.dealer_marker)
        # who takes the trick: over it, or under it where the top hand lies open down to it
        slot = layout.STATUS_POS if open_hands else layout.TOP_SLOT
        self.winner_text = arcade.Text("", *slot, GOLD, 15, anchor_x="center",
                                       anchor_y="center", font_name=FONT, bold=True)
        self._winner_pill = Pill(layout.SLOT_H, "status")
        self.turn = -1  # the seat to play, whose plate glows
        self._turn_marks: dict[int, arcade.SpriteList[arcade.Sprite]] = {}  # seat -> its glow
        self._marks: tuple[Any, ...] | None = None  # backdrop_marks, made once
        self._plate_marks: tuple[Any, ...] = ()
        self._pile_marks: tuple[Any, ...] = ()

    # --- building ---------------------------------------------------------------------

    def _build_seat_labels(self) -> None:
        """Each seat's name, card count and letter on its plate (one text batch)."""
        self.name_texts: list[arcade.Text] = []
        self.counts: list[arcade.Text] = []
        self.letters: list[arcade.Text] = []
        for seat, (_left, bottom, _right, top) in enumerate(self.plates):
            cy = (bottom + top) / 2
            tx, ty = layout.token_pos(self.n_seats, self.spots[seat], self.open_hands)
            x = tx + layout.TOKEN_R + 8
            self.name_texts.append(arcade.Text("", x, cy + 10, INK, 13, anchor_x="left", anchor_y="center",
                                               font_name=FONT, batch=self.batch, bold=True))
            self.counts.append(arcade.Text("", x, cy - 10, SUBTITLE_INK, 11, anchor_x="left",
                                           anchor_y="center", font_name=FONT, batch=self.batch))
            self.letters.append(arcade.Text(seat_letter(self.rules, seat), tx, ty, INK, 12, anchor_x="center",
                                            anchor_y="center", font_name=FONT, batch=self.batch, bold=True))

    def _build_pile_texts(self) -> None:
        """Each side's points by its pile, whose pile it is, and the discard's trump note."""
        seating = self.seating
        self.pile_labels = [
            arcade.Text("", x, y, self.side_colour(t), 14, anchor_x="left", anchor_y="center",
                        font_name=FONT, batch=self.batch, bold=True)
            for t, (x, y) in enumerate(seating.score_pos)
        ]
        self.trump_note = arcade.Text("", 0, 0, GOLD, 12, anchor_x="right", anchor_y="center",
                                      font_name=FONT, batch=self.batch)
        # whose tricks each pile holds, and how many: over a pile low on the screen or
        # on the left (clear of the stack as it grows and of the discard lying across
        # it), left of the pile at the top right (under it lies the discard's trump note),
        # unless the top seat's plate stands there (beside its open hand): then over it
        _pw, ph = layout.card_size(PILE_SCALE)
        self.pile_titles: list[arcade.Text] = []
        self._pile_title_room: list[float] = []
        for t, (x, y) in enumerate(seating.pile_pos):
            tx: float
            ty: float
            if y > HEIGHT / 2 and x > WIDTH / 2 and not self.open_hands:
                tx, ty, anchor = x - ph / 2 - 18, y, "right"
                room = tx - 1000  # as far as the top seat's plate (it ends at 996)
            else:
                tx, ty, anchor, room = x, y + ph / 2 + 12, "center", 2 * min(x, WIDTH - x) - 12
            self.pile_titles.append(arcade.Text("", tx, ty, self.side_colour(t), 11, anchor_x=anchor,
                                                anchor_y="center", font_name=FONT, batch=self.batch,
                                                bold=True))
            self._pile_title_room.append(room)
        self.texts = (*self.name_texts, *self.counts, *self.letters, *self.pile_labels, *self.pile_titles,
                      self.trump_note)

    def backdrop_marks(self, cleared: bool) -> tuple[Any, ...]:
        """The table's marks that never move, for the view's backdrop (see the module);
        without the name plates and pile mats while the table is ``cleared``."""
        if self._marks is None:
            self._marks = self._make_marks()
        if cleared:
            return tuple(m for m in self._marks if m not in self._plate_marks and m not in self._pile_marks)
        return self._marks

    def _make_marks(self) -> tuple[Any, ...]:
        n = self.n_seats
        teams = self.rules.n_sides < n
        marks: list[Any] = [paint.Ring(*layout.RING, arrows=layout.RING_ARROWS[n])]
        pw, ph = layout.card_size(PILE_SCALE)
        piles = len(marks)
        for t, (x, y) in enumerate(self.seating.pile_pos):
            colour = TEAM_COLOURS[t] if teams else PILE_EDGE
            marks.append(paint.Box((x - ph / 2 - 8, y - pw / 2 - 8, x + ph / 2 + 8, y + pw / 2 + 8), 7,
                                   fill=(0, 0, 0, 40), edge=(*colour, 130), edge_width=1.5))
        first = len(marks)
        self._pile_marks = tuple(marks[piles:first])
        for seat, rect in enumerate(self.plates):
            marks.append(paint.Box(rect, 10, fill=(6, 22, 14, 190), edge=(220, 200, 150, 90), shadow=110))
            tx, ty = layout.token_pos(n, self.spots[seat], self.open_hands)
            ring = TEAM_COLOURS[self.rules.side[seat]] if teams else (220, 200, 150)
            marks.append(paint.Disc(tx, ty, layout.TOKEN_R, fill=(0, 0, 0, 90), edge=(*ring, 210), edge_width=2.0))
        self._plate_marks = tuple(marks[first:])
        return tuple(marks)

    def side_colour(self, side: int) -> Colour:
        """A team's colour; where each plays alone no side has one (no team colours)."""
        if self.rules.n_sides < self.n_seats:
            return TEAM_COLOURS[side]
        return INK

    # --- the words --------------------------------------------------------------------

    def _text_room(self, seat: int) -> float:
        """How wide a plate's name and its second line may be."""
        return self.plates[seat][2] - 8 - self.name_texts[seat].x

    def set_names(self, names: Sequence[str], subtitles: Sequence[str] | None = None,
                  urgent: frozenset[int] = frozenset()) -> None:
        """Seat names (``names[seat]``) and a second line each (e.g. the AI level);
        ``urgent``: seats whose second line is kept over the cards they hold where
        both do not fit ("AI for Anna")."""
        self.names = list(names)
        self.subtitles = list(subtitles or [""] * self.n_seats)
        self.urgent = urgent
        for t in self.counts:
            t.text = ""  # laid out again at the next show
        for seat, (t, n) in enumerate(zip(self.name_texts, self.names, strict=False)):
            t.text = n
            fit_font(t, self._text_room(seat), 13, 10)

    def show(self, pos: Position) -> None:
        """The labels from ``pos``: card counts, each side's points and tricks, the
        dealer's chip, the trump note, the seat to play."""
        for seat in range(self.n_seats):
            self._show_count(seat, pos)
        w = self.words
        for t in range(self.rules.n_sides):
            self.pile_labels[t].text = w.pile_line(t, pos.points[t], pos.tricks_won[t])
            title = w.pile_title(t, pos.tricks_won[t]) if pos.deal_no else ""
            if self.pile_titles[t].text != title:
                self.pile_titles[t].text = title
                fit_font(self.pile_titles[t], self._pile_title_room[t], 11, 8)
        self._show_dealer(pos)
        if self.rules.announces_discard_trumps and pos.discard_trumps >= 0 and pos.dealer >= 0:
            self.trump_note.x, self.trump_note.y = self.seating.trump_note_pos[self.rules.side[pos.dealer]]
            self.trump_note.text = w.trumps_discarded(pos.discard_trumps)
        else:
            self.trump_note.text = ""
        self.turn = pos.turn
        for seat in range(self.n_seats):
            colour = GOLD if seat == pos.turn else INK
            set_colour(self.name_texts[seat], colour)
            set_colour(self.counts[seat], colour if seat == pos.turn else SUBTITLE_INK)

    def _show_count(self, seat: int, pos: Position) -> None:
        """A plate's second line: the seat's subtitle and the cards it holds (the
        count alone where a long level's name leaves it no room; the subtitle
        alone where it is urgent)."""
        cards = self.words.cards_held(pos.hand_sizes[seat]) if pos.deal_no else ""
        sub = self.subtitles[seat] if seat < len(self.subtitles) else ""
        text = " · ".join(x for x in (sub, cards) if x)
        t = self.counts[seat]
        if t.text != text:
            t.text = text
            fit_font(t, self._text_room(seat), 11, 9)
            if t.content_width > self._text_room(seat):
                t.text = sub if seat in self.urgent else cards
                fit_font(t, self._text_room(seat), 11, 9)

    def _show_dealer(self, pos: Position) -> None:
        """The dealer's chip on its plate's token, in place of its letter."""
        dealer = pos.dealer if pos.dealer >= 0 and pos.deal_no else -1
        if dealer >= 0:
            self.dealer_marker.position = layout.token_pos(self.n_seats, self.spots[dealer], self.open_hands)
            self.dealer_marker.visible = True
        else:
            self.dealer_marker.visible = False
        for seat, t in enumerate(self.letters):
            want = "" if seat == dealer else seat_letter(self.rules, seat)
            if t.text != want:
                t.text = want

    def say_winner(self, seat: int) -> None:
        """"East takes the trick" over the trick (``seat`` -1: nothing)."""
        self.winner_text.text = self.words.say(msg("trick", seat=seat)) if seat >= 0 else ""

    # --- drawing ----------------------------------------------------------------------

    def draw_turn(self) -> None:
        """The gold glow round the plate of the seat to play (one sprite per seat)."""
        turn = self.turn
        if not 0 <= turn < self.n_seats:
            return
        sl = self._turn_marks.get(turn)
        if sl is None:
            left, bottom, right, top = self.plates[turn]
            w, h = round(right - left), round(top - bottom)
            m = self.TURN_MARGIN
            tex = arcade.Texture(paint.ring_glow(w, h, 10, 5.0, 150, m, GOLD[:3], 2.0),
                                 hash=f"soft:turn:{w}:{h}:{textures.VERSION}")
            sl = arcade.SpriteList()
            sl.append(arcade.Sprite(tex, 1.0, (left + right) / 2, (bottom + top) / 2))
            self._turn_marks[turn] = sl
        sl.draw()

    def turn_rect(self) -> Rect | None:
        """The bounds of the glow round the plate of the seat to play (None: none)."""
        if not 0 <= self.turn < self.n_seats:
            return None
        left, bottom, right, top = self.plates[self.turn]
        m = self.TURN_MARGIN + 2
        return left - m, bottom - m, right + m, top + m

    def winner_box(self) -> tuple[float, float, float, float]:
        """The pill under "X takes the trick" (left, bottom, width, height)."""
        t = self.winner_text
        w = round(t.content_width + 32)
        h = layout.SLOT_H
        return t.x - w / 2, t.y - h / 2, w, h

    def winner_rect(self) -> Rect | None:
        """The bounds of "X takes the trick" and its pill (None: not said)."""
        if not self.winner_text.text:
            return None
        x, y, w, h = self.winner_box()
        return x - 2, y - 2, x + w + 2, y + h + 2

    def draw_winner(self) -> None:
        if self.winner_text.text:
            self._winner_pill.draw(self.winner_box())
            self.winner_text.draw()


__all__ = ["SUBTITLE_INK", "TableLabels", "seat_letter"]
