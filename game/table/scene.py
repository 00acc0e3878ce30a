"""The table renderer: the card sprites of a game's pack, the seat labels, the piles.

:class:`TableScene` is shared by the play table and the replay theatre.  It
knows nothing about input or players; it lays cards where a
:class:`~game.common.position.Position` says (``snap``) or animates an engine event as
the shown seats see it (``animate``).  A position holds only the hands of the
seats it was seen by (the play table's viewer; the theatre's open hands), so
the scene cannot show a card those seats have not seen.

Public API
----------
``TableScene(rules, names=None, sound=None, subtitles=None, words=None)``
    ``rules`` is the game's :class:`~engine.ruleset.Ruleset` (its pack, seats,
    sides); ``names`` label the seats (default: ``words.names()``); ``sound`` is
    a :class:`game.common.sound.SoundBoard` (or None for silence).  Needs a current
    arcade window (textures).
``snap(pos, raised=(), highlight=None)``
    Cancel every tween and lay all cards exactly where ``pos`` says.
``animate(event, before, after) -> float``
    Start the animation of one event (``before`` -> ``after`` positions);
    returns its duration in seconds (already divided by ``speed``).  The labels
    (counts, points, turn) follow ``after`` when the animation ends.  A deal
    with a stock is :meth:`animate_deal` then :meth:`animate_take`.
``relayout(pos, raised=(), duration=0.12)``
    Ease the cards to ``pos``'s places (e.g. to raise the viewer's legal cards).
``update(dt)``, ``draw()``, ``busy`` (tweens running), ``clock``.
``card_at(x, y, seat=0) -> card | None``
    The topmost face-up card of ``seat``'s hand under a logical point.
``set_dimmed(cards)``, ``set_names(names)``, ``speed`` (animation speed factor),
``last_trick_overlay`` (set to ``(leader, cards)`` to show a past trick).
``backdrop_marks()``
    The table's fixed marks (the ring round the trick with the arrows of the
    direction of play, the pile mats, the seats' name plates) as
    :mod:`game.common.paint` marks: the view paints them into its backdrop, once.

The look: every card casts a soft shadow on the felt (a shadow sprite under all
the cards, lifted further while the card flies; the hidden hands' fan images
carry theirs; the strips of South's resting hand cast none, as their shadows
would lie under their neighbours and below the screen).  The card that led the
trick glows faintly; once every seat has played, the card that takes it glows
gold, and is lifted while the trick is shown before it is gathered.
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from dataclasses import dataclass

import arcade
from arcade import easing

from engine.ruleset import Ruleset
from engine.state import CardPlayed, DealScored, Dealt, Discarded, TrickTaken
from game.common import damage, layout, paint, textures
from game.common.constants import (
    BAND_H,
    CARD_W,
    DIM,
    FONT,
    GOLD,
    HAND_SCALE,
    HEIGHT,
    INK,
    PILE_EDGE,
    PILE_SCALE,
    SOUTH_STEP,
    T_CUT,
    T_DISCARD,
    T_PACKET,
    T_PACKET_GAP,
    T_PLAY,
    T_SHUFFLE,
    T_SWEEP,
    T_TRICK_SHOW,
    TEAM_COLOURS,
    WIDTH,
)
from game.common.i18n import N_, _
from game.common.layout import Place
from game.common.position import Position
from game.common.ui import Pill, fit_font, panel_picture
from game.common.words import Words, msg


@dataclass(slots=True)
class Tween:
    start: float  # scene clock time
    duration: float
    end: Place
    ease: object = None
    frm: Place | None = None


class CardSprite(arcade.Sprite):
    """A thin sprite: what it shows (``key``), where it is (``place``), its tweens."""

    def __init__(self, back: arcade.Texture) -> None:
        super().__init__(back)
        self.key: tuple = ("back", "deck", 0)
        self.place = Place(0, 0)
        self.tweens: deque[Tween] = deque()
        self.face_up = False
        self.z = 0.0
        self.covered = False  # exactly under a card drawn later: kept off screen (prepare)


#: Where hidden sprites wait.  A sprite with visible=False is still rasterised by
#: arcade's shaders (its fragments are discarded one by one); one outside the
#: viewport is culled before any fill, which saves ~1-2 ms a frame on llvmpipe.
OFFSCREEN = (-10000.0, -10000.0)


def _set_visible(s: arcade.Sprite, visible: bool) -> None:
    s.visible = visible
    s.position = (s.place.x, s.place.y) if visible else OFFSCREEN


def set_colour(t: arcade.Text, colour) -> None:
    """Colour a text only if its colour changes (alpha 255 when not given)."""
    want = tuple(colour) if len(colour) == 4 else (*colour, 255)
    if tuple(t.label.color) != want:
        t.color = want


# --- shadows and glows -------------------------------------------------------------------

SHADOW_BASE = (96, 178)  # shadows and glows are made for South's cards and scaled to others
SHADOW_MARGIN = 12
SHADOW_REST = (2.0, -3.0)  # a card at rest: offset of its shadow (scaled with the card)
SHADOW_LIFT = (7.0, -11.0)  # at the top of its flight
GLOWS = {"win": ((255, 210, 80), 255, 5.0, 3.0, 4), "lead": ((226, 232, 216), 150, 3.0, 1.5, 1)}
SUBTITLE_INK = (200, 200, 190)
_SOFT: dict[str, arcade.Texture] = {}


def soft_textures(atlas) -> dict[str, arcade.Texture]:
    """The shadow of a card and the glows round a card (made once, put in ``atlas``)."""
    if not _SOFT:
        w, h = SHADOW_BASE
        m = SHADOW_MARGIN
        _SOFT["shadow"] = arcade.Texture(paint.soft_box(w - 2, h - 2, 9, 3.5, 150, m + 1),
                                         hash=f"soft:shadow:{textures.VERSION}")
        for kind, (colour, alpha, blur, line, spread) in GLOWS.items():
            _SOFT[kind] = arcade.Texture(paint.ring_glow(w, h, 9, blur, alpha, m, colour, line, spread),
                                         hash=f"soft:{kind}:{textures.VERSION}")
    for tex in _SOFT.values():
        atlas.add(tex)
    return _SOFT


_LETTERS = {"South": N_("S"), "East": N_("E"), "North": N_("N"), "West": N_("W")}
#: the tags of the last trick shown again, under the card that led and the one that took it
N_("led"), N_("took it")


def seat_letter(rules: Ruleset, seat: int) -> str:
    return _(_LETTERS[rules.seat_names[seat]])


def _lerp(a: float, b: float, t: float) -> float:
    return a + (b - a) * t


def _lerp_angle(a: float, b: float, t: float) -> float:
    d = (b - a + 180.0) % 360.0 - 180.0
    return a + d * t


class TableScene:
    def __init__(self, rules: Ruleset, names=None, sound=None, subtitles=None,
                 words: Words | None = None, open_hands: bool = False) -> None:
        """``open_hands``: other seats' hands may be shown face up (the theatre),
        so North's plate stands clear of an open hand of 17."""
        self.rules = rules
        self.open_hands = open_hands
        self.words = words or Words(rules, None)
        n = rules.n_seats
        self.n_seats = n
        self.geo = layout.geometry(n)
        self.spots = tuple(layout.spot(n, s) for s in range(n))
        self.plates = tuple(layout.plate_rect(n, w, open_hands) for w in self.spots)  # by seat
        self.tex = textures.get()
        self.soft = soft_textures(self.tex.atlas)
        self.faces = self.tex.faces_for(rules)
        self.sound = sound
        self.speed = 1.0
        self.pixelated = True  # nearest sampling: exact when the window shows 1:1
        self.clock = 0.0
        self.busy_until = 0.0
        self.sprites: list[CardSprite] = [CardSprite(self.tex.back) for _ in range(rules.pack.n_cards)]
        self.sprite_list = textures.sprite_list()
        for i, s in enumerate(self.sprites):
            s.key = ("back", "deck", i)
            self.sprite_list.append(s)
        self._resort = False
        self._dimmed: frozenset[int] = frozenset()
        self._timers: list[tuple[float, object]] = []  # (time, callable) fired by update
        self.last_trick_overlay: tuple[int, tuple[int, ...]] | None = None
        self._overlay_key = None  # the overlay its sprites were made for
        self._overlay: tuple | None = None  # (glows, cards, batch, texts) of the overlay
        self.trick_marks: dict[int, str] = {}  # card -> "lead" or "win" (its glow)
        self._build_furniture()
        self.set_names(names if names is not None else self.words.names(), subtitles)
        self._info_pos: Position | None = None

    # --- furniture: felt, labels, markers ------------------------------------------

    def _build_furniture(self) -> None:
        # The felt, the ring round the trick, the pile mats and the plates are the
        # view's backdrop (backdrop_marks), painted once and copied under each frame.
        self._turn_marks: dict = {}  # seat -> the glow round its plate
        self._marks: tuple | None = None  # backdrop_marks, made once
        self.markers = textures.sprite_list()
        self._build_card_layers()
        self._build_markers()
        self.batch = pyglet_batch()
        self._build_seat_labels()
        self._build_pile_texts()
        self.winner_text = arcade.Text("", *layout.TOP_SLOT, GOLD, 15, anchor_x="center",
                                       anchor_y="center", font_name=FONT, bold=True)
        self._winner_pill = Pill(layout.SLOT_H, "status")
        self._turn = -1
        #: a sheet lies over the table (the end of a deal): the name plates and every
        #: label are put away, so none shows half covered at the sheet's edges
        self.cleared = False

    def _build_card_layers(self) -> None:
        """The sprites drawn in place of cards: shadows, hidden hands' fans, strips' bands."""
        # Every card's shadow, drawn under all the cards (prepare places them).
        self.shadows = textures.sprite_list()
        self._shadow_sprites = []
        for _s in self.sprites:
            sh = arcade.Sprite(self.soft["shadow"])
            sh.position = OFFSCREEN
            self._shadow_sprites.append(sh)
            self.shadows.append(sh)
        self._shadow_key: tuple = ()
        # Each hidden hand at rest is drawn as one pre-composed "fan" image instead
        # of its overlapping cards (a third of the pixels: fill is what costs here).
        self.fans = textures.sprite_list()
        self._fan_sprites = {}
        self._fan_cache = {}
        for seat in range(1, self.n_seats):
            sp = arcade.Sprite(self.tex.back_for(54))
            sp.visible = False
            self._fan_sprites[seat] = sp
            self.fans.append(sp)
            for k in range(1, self.rules.dealer_cards() + 1):  # composed now, not mid-game
                self._fan_texture(seat, k)
        # The viewer's resting hand is drawn as strips (see _update_strips): the
        # bands are the thin slivers the arc leaves visible under a right neighbour.
        self.bands = textures.sprite_list()
        self._band_sprites = []
        for _i in range(self.rules.dealer_cards() + 1):
            b = arcade.Sprite(self.tex.back)
            b.visible = False
            b.position = OFFSCREEN
            self._band_sprites.append(b)
            self.bands.append(b)
        self._strip_ids = {id(t[0]) for t in self.tex.strips.values()}
        self._strip_key: tuple = ()

    def _build_markers(self) -> None:
        """The dealer's chip and the glow round the plate of the seat to play."""
        chip = self.tex.table["dealer"]
        self.dealer_marker = arcade.Sprite(chip, (2 * layout.TOKEN_R + 4) / chip.width)
        self.dealer_marker.visible = False
        self.markers.append(self.dealer_marker)
        self.turn_glow = arcade.SpriteList()  # the glow round the plate of the seat to play

    def _build_seat_labels(self) -> None:
        """Each seat's name, card count and letter on its plate (one text batch)."""
        self.labels, self.counts, self.letters = [], [], []
        for seat, (_left, bottom, _right, top) in enumerate(self.plates):
            cy = (bottom + top) / 2
            tx, ty = layout.token_pos(self.n_seats, self.spots[seat], self.open_hands)
            x = tx + layout.TOKEN_R + 8
            self.labels.append(arcade.Text("", x, cy + 10, INK, 13, anchor_x="left", anchor_y="center",
                                           font_name=FONT, batch=self.batch, bold=True))
            self.counts.append(arcade.Text("", x, cy - 10, SUBTITLE_INK, 11, anchor_x="left",
                                           anchor_y="center", font_name=FONT, batch=self.batch))
            self.letters.append(arcade.Text(seat_letter(self.rules, seat), tx, ty, INK, 12, anchor_x="center",
                                            anchor_y="center", font_name=FONT, batch=self.batch, bold=True))

    def _build_pile_texts(self) -> None:
        """Each side's points by its pile, whose pile it is, and the discard's trump note."""
        geo = self.geo
        self.pile_labels = [
            arcade.Text("", x, y, self.side_colour(t), 14, anchor_x="left", anchor_y="center",
                        font_name=FONT, batch=self.batch, bold=True)
            for t, (x, y) in enumerate(geo.score_pos)
        ]
        self.trump_note = arcade.Text("", 0, 0, GOLD, 12, anchor_x="right", anchor_y="center",
                                      font_name=FONT, batch=self.batch)
        # whose tricks each pile holds, and how many: over a pile low on the screen or
        # on the left (clear of the stack as it grows and of the discard lying across
        # it), left of the pile at the top right (under it lies the discard's trump note)
        pw, ph = layout.card_size(PILE_SCALE)
        self.pile_titles = []
        self._pile_title_room = []
        for t, (x, y) in enumerate(geo.pile_pos):
            if y > HEIGHT / 2 and x > WIDTH / 2:
                tx, ty, anchor = x - ph / 2 - 18, y, "right"
                room = tx - 1000  # as far as North's plate (it ends at 996)
            else:
                tx, ty, anchor, room = x, y + ph / 2 + 12, "center", 2 * min(x, WIDTH - x) - 12
            self.pile_titles.append(arcade.Text("", tx, ty, self.side_colour(t), 11, anchor_x=anchor,
                                                anchor_y="center", font_name=FONT, batch=self.batch,
                                                bold=True))
            self._pile_title_room.append(room)
        self._batch_texts = (*self.labels, *self.counts, *self.letters, *self.pile_labels, *self.pile_titles,
                             self.trump_note)

    def backdrop_marks(self) -> tuple:
        """The table's marks that never move, for the view's backdrop (see the module);
        without the name plates while the table is :attr:`cleared`."""
        if self._marks is None:
            self._marks = self._make_marks()
        if self.cleared:
            return tuple(m for m in self._marks if m not in self._plate_marks and m not in self._pile_marks)
        return self._marks

    def _make_marks(self) -> tuple:
        n = self.n_seats
        teams = self.rules.n_sides < n
        marks: list = [paint.Ring(*layout.RING, arrows=layout.RING_ARROWS[n])]
        pw, ph = layout.card_size(PILE_SCALE)
        piles = len(marks)
        for t, (x, y) in enumerate(self.geo.pile_pos):
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

    def side_colour(self, side: int):
        """A team's colour; where each plays alone no side has one (no team colours)."""
        if self.rules.n_sides < self.n_seats:
            return TEAM_COLOURS[side]
        return INK

    def _text_room(self, seat: int) -> float:
        """How wide a plate's name and its second line may be."""
        return self.plates[seat][2] - 8 - self.labels[seat].x

    def set_names(self, names, subtitles=None) -> None:
        """Seat names (``names[seat]``) and a second line each (e.g. the AI level)."""
        self.names = list(names)
        self.subtitles = list(subtitles or [""] * self.n_seats)
        for seat, (t, n) in enumerate(zip(self.labels, self.names, strict=False)):
            t.text = n
            fit_font(t, self._text_room(seat), 13, 10)

    def _set_info(self, pos: Position) -> None:
        """Labels from ``pos``: card counts, each side's points and tricks, dealer, turn."""
        self._info_pos = pos
        w = self.words
        for seat in range(self.n_seats):
            cards = w.cards_held(pos.hand_sizes[seat]) if pos.deal_no else ""
            sub = self.subtitles[seat] if seat < len(self.subtitles) else ""
            text = " · ".join(x for x in (sub, cards) if x)
            t = self.counts[seat]
            if t.text != text:
                t.text = text
                fit_font(t, self._text_room(seat), 11, 9)
                if t.content_width > self._text_room(seat):  # a long level's name: the count alone
                    t.text = cards
                    fit_font(t, self._text_room(seat), 11, 9)
        for t in range(self.rules.n_sides):
            self.pile_labels[t].text = w.pile_line(t, pos.points[t], pos.tricks_won[t])
            title = w.pile_title(t, pos.tricks_won[t]) if pos.deal_no else ""
            if self.pile_titles[t].text != title:
                self.pile_titles[t].text = title
                fit_font(self.pile_titles[t], self._pile_title_room[t], 11, 8)
        dealer = pos.dealer if pos.dealer >= 0 and pos.deal_no else -1
        if dealer >= 0:
            self.dealer_marker.position = layout.token_pos(self.n_seats, self.spots[dealer], self.open_hands)
            self.dealer_marker.visible = True
        else:
            self.dealer_marker.visible = False
        for seat, t in enumerate(self.letters):  # the chip lies on the dealer's token
            want = "" if seat == dealer else seat_letter(self.rules, seat)
            if t.text != want:
                t.text = want
        if self.rules.announces_discard_trumps and pos.discard_trumps >= 0 and pos.dealer >= 0:
            self.trump_note.x, self.trump_note.y = self.geo.trump_note_pos[self.rules.side[pos.dealer]]
            self.trump_note.text = w.trumps_discarded(pos.discard_trumps)
        else:
            self.trump_note.text = ""
        self._turn = pos.turn
        for seat in range(self.n_seats):
            colour = GOLD if seat == pos.turn else INK
            set_colour(self.labels[seat], colour)
            set_colour(self.counts[seat], colour if seat == pos.turn else SUBTITLE_INK)
        self._mark_trick(pos)

    def _mark_trick(self, pos: Position) -> None:
        """The glows of the trick on the table: the card that led it, and once every
        seat has played, the card that takes it (the ruleset's: the engine's rule)."""
        marks = {}
        if pos.trick:
            marks[pos.trick[0]] = "lead"
            if len(pos.trick) == self.n_seats:
                marks[pos.trick[self.rules.trick_winner_index(pos.trick)]] = "win"
        self.trick_marks = marks

    # --- laying out --------------------------------------------------------------------

    def _apply_place(self, s: CardSprite, p: Place) -> None:
        s.place = p
        s.angle = p.angle
        _set_visible(s, not p.hidden)
        self._set_face(s, p.face_up, p.scale)
        if s.z != p.z:
            s.z = p.z
            self._resort = True

    def _texture_for(self, s: CardSprite, face_up: bool, width: float):
        """The face (a known card shown face up) or the back, made for the nearest size."""
        if face_up and s.key[0] == "card":
            return textures.Textures.nearest(self.faces[s.key[1]], width)
        return self.tex.back_for(width)

    def _set_face(self, s: CardSprite, face_up: bool, scale: float | None = None) -> None:
        """Show the face or the back, from the texture made for the nearest size."""
        width = CARD_W * (s.place.scale if scale is None else scale)
        tex = self._texture_for(s, face_up, width)
        s.face_up = face_up and s.key[0] == "card"
        if s.texture is not tex:
            s.texture = tex
        s.scale = width / tex.width

    def _match(self, targets: dict, hint_seat: int | None = None) -> dict[tuple, CardSprite]:
        """Give every target key a sprite: same key first, then the likeliest free one."""
        by_key = {s.key: s for s in self.sprites}
        out: dict[tuple, CardSprite] = {}
        free = [s for s in self.sprites if s.key not in targets]
        for k in targets:
            s = by_key.get(k)
            if s is not None:
                out[k] = s
        pending = [k for k in targets if k not in out]
        for k in pending:
            best = None
            owner = hint_seat if k[0] == "card" else k[1]
            if k[0] == "card" and hint_seat is None:
                owner = None
            for s in free:
                if s.key[0] == "back" and s.key[1] == owner:
                    if best is None or s.key[2] > best.key[2]:
                        best = s
            if best is None:
                best = free[-1]
            free.remove(best)
            out[k] = best
        for k, s in out.items():
            s.key = k
        return out

    def snap(self, pos: Position, raised=(), highlight=None) -> None:
        """Lay every card where ``pos`` says, cancelling all animation."""
        self._timers.clear()
        self.busy_until = self.clock
        self.last_trick_overlay = None
        self.winner_text.text = ""
        targets = layout.table_places(pos, frozenset(raised), highlight)
        for k, s in self._match(targets).items():
            s.tweens.clear()
            self._apply_place(s, targets[k])
        self._apply_dim()
        self._set_info(pos)
        self._resort = True

    def _tween_to(self, s: CardSprite, end: Place, start: float, duration: float, ease=None) -> None:
        s.tweens.append(Tween(start, max(duration, 1e-4), end, ease or easing.ease_in_out))

    def animate_to(self, pos: Position, start: float = 0.0, duration: float = T_PLAY, delays=None,
                   hint_seat: int | None = None, raised=(), highlight=None) -> float:
        """Ease every card to ``pos``'s places; times in seconds at speed 1, from now."""
        sp = self.speed
        targets = layout.table_places(pos, frozenset(raised), highlight)
        end = 0.0
        for k, s in self._match(targets, hint_seat).items():
            p = targets[k]
            last = s.tweens[-1].end if s.tweens else s.place
            if last == p:
                continue
            d = (delays or {}).get(k, 0.0)
            t0 = self.clock + (start + d) / sp
            self._tween_to(s, p, t0, duration / sp)
            end = max(end, (start + d + duration) / sp)
        self.busy_until = max(self.busy_until, self.clock + end)
        return end

    def relayout(self, pos: Position, raised=(), duration: float = 0.12) -> None:
        self.animate_to(pos, 0.0, duration, raised=raised)

    def _at(self, delay: float, fn) -> None:
        self._timers.append((self.clock + delay, fn))

    # --- events ---------------------------------------------------------------------

    def animate(self, event, before: Position, after: Position) -> float:
        """Start animating ``event``; returns its duration (seconds, speed applied)."""
        if isinstance(event, Dealt) and self.rules.stock_cards:
            return self.animate_take(after, self.animate_deal(event, after.with_stock_out()))
        self.last_trick_overlay = None
        self.winner_text.text = ""
        sp = self.speed
        if isinstance(event, Dealt):
            dur = self._animate_deal(event, after)
        elif isinstance(event, Discarded):
            self._play_sound("play")
            dur = self.animate_to(after, 0.0, T_DISCARD, hint_seat=event.seat)
        elif isinstance(event, CardPlayed):
            self._play_sound("matto" if event.card == self.rules.pack.matto else "play")
            dur = self.animate_to(after, 0.0, T_PLAY, hint_seat=event.seat)
        elif isinstance(event, TrickTaken):
            dur = self._animate_trick(event, before, after)
        elif isinstance(event, DealScored):
            dur = 0.2 / sp
        else:
            dur = 0.0
        return self._finish(after, dur)

    def _finish(self, after: Position, dur: float) -> float:
        self.busy_until = max(self.busy_until, self.clock + dur)
        self._at(dur, lambda: self._set_info(after))
        return dur

    def animate_deal(self, event: Dealt, out: Position) -> float:
        """The deal up to the stock laid face down in the middle (``out``:
        :meth:`Position.with_stock_out`); the whole deal where there is no stock."""
        self.last_trick_overlay = None
        self.winner_text.text = ""
        return self._finish(out, self._animate_deal(event, out))

    def animate_take(self, after: Position, start: float = 0.0) -> float:
        """The dealer takes the stock into the hand (S4); ``start`` seconds from now
        (speed applied).  Returns when it is over, from now."""
        sp = self.speed
        end = self.animate_to(after, start * sp + 0.15, T_DISCARD, hint_seat=after.dealer)
        self._play_sound("deal", start + 0.15 / sp)
        return self._finish(after, max(start, end))

    def _play_sound(self, name: str, delay: float = 0.0) -> None:
        if self.sound is None:
            return
        if delay <= 0:
            self.sound.play(name)
        else:
            self._at(delay, lambda: self.sound.play(name))

    def _animate_trick(self, event, before: Position, after: Position) -> float:
        sp = self.speed
        n = self.n_seats
        order = (event.winner - before.leader) % n
        winner_card = event.cards[order]
        s = next(x for x in self.sprites if x.key == ("card", winner_card))
        lifted = layout.trick_place(self.spots[event.winner], order, highlight=True)
        self._tween_to(s, lifted, self.clock, 0.18 / sp, easing.ease_out)
        self.trick_marks = {event.cards[0]: "lead", winner_card: "win"}
        self.winner_text.text = self.words.say(msg("trick", seat=event.winner))

        def gather() -> None:
            self.winner_text.text = ""
            self.trick_marks = {}

        self._at(T_TRICK_SHOW / sp, gather)
        self._play_sound("trick", T_TRICK_SHOW / sp)
        return self.animate_to(after, T_TRICK_SHOW, T_SWEEP)

    def _animate_deal(self, event: Dealt, after: Position) -> float:
        """Gather, shuffle, cut by the dealer's left, packets anticlockwise (R5, S4)."""
        sp = self.speed
        dspot = self.spots[event.dealer]
        # 1. gather the pack in front of the dealer, face down
        order = sorted(self.sprites, key=lambda s: (s.place.z, s.place.x))
        for i, s in enumerate(order):
            s.key = ("back", "deck", i)
            s.tweens.clear()
            p = layout.deck_place(dspot, i)
            if s.place != p:
                # the four cards of one place set off together: drawn as one (_cull_covered)
                self._tween_to(s, p, self.clock + 0.01 * ((i // 4) % 8) / sp, 0.35 / sp)
        t = 0.45
        self._animate_shuffle(order, dspot, t)
        t += T_SHUFFLE
        new_order = self._animate_cut(order, event, t)
        t += T_CUT + 0.1
        n_packets = self._animate_packets(new_order, event.dealer, after, t)
        end = t + n_packets * T_PACKET_GAP + T_PACKET + 0.1
        return end / sp

    def _animate_shuffle(self, order: list, dspot, t: float) -> None:
        """2. shuffle: the top half slides out and is riffled back in, twice."""
        sp = self.speed
        self._play_sound("shuffle", t / sp)
        for rep in range(2):
            for i, s in enumerate(order):
                if i % 2 == rep:
                    base = layout.deck_place(dspot, i)
                    side = base._replace(x=base.x + (46 if rep == 0 else -46), y=base.y + 6)
                    self._tween_to(s, side, self.clock + (t + rep * T_SHUFFLE / 2) / sp, T_SHUFFLE / 4 / sp)
                    self._tween_to(s, base, self.clock + (t + rep * T_SHUFFLE / 2 + T_SHUFFLE / 4) / sp,
                                   T_SHUFFLE / 4 / sp)

    def _animate_cut(self, order: list, event: Dealt, t: float) -> list:
        """3. the cut, toward the player who cuts (on the dealer's left); the pack's new order."""
        sp = self.speed
        n_cards = self.rules.pack.n_cards
        dspot = self.spots[event.dealer]
        cutter = self.rules.cutter(event.dealer)
        self._play_sound("cut", t / sp)
        cx, cy = layout.DECK_POS[self.spots[cutter]]
        dx0, dy0 = layout.DECK_POS[dspot]
        vx, vy = (cx - dx0), (cy - dy0)
        norm = math.hypot(vx, vy) or 1.0
        vx, vy = vx / norm * 60, vy / norm * 60
        n_top = n_cards - max(4, min(n_cards - 4, event.cut))
        top = order[n_cards - n_top:]
        rest = order[: n_cards - n_top]
        for i, s in enumerate(top):
            p = layout.deck_place(dspot, n_cards - n_top + i)
            self._tween_to(s, p._replace(x=p.x + vx, y=p.y + vy), self.clock + t / sp, T_CUT / 2 / sp)
        new_order = top + rest  # the cut-off top goes underneath
        for i, s in enumerate(new_order):
            self._tween_to(s, layout.deck_place(dspot, i), self.clock + (t + T_CUT / 2) / sp,
                           T_CUT / 2 / sp)
        return new_order

    def _animate_packets(self, new_order: list, dealer: int, after: Position, t: float) -> int:
        """4. packets anticlockwise from the dealer's right, as the ruleset deals
        them (its receivers: who gets each card of the cut pack; -1 the stock).
        The number of packets."""
        sp = self.speed
        targets = layout.table_places(after)
        owners: dict[object, list] = {}
        for k in targets:
            owners.setdefault(self._owner(k, after), []).append(k)
        for keys in owners.values():
            keys.sort(key=lambda k: targets[k].z)
        packets = [(seat, len(list(g))) for seat, g in itertools.groupby(self.rules.receivers[dealer])]
        taken: dict[object, int] = {}
        deck = list(reversed(new_order))  # top first
        pos = 0
        for p, (seat, size) in enumerate(packets):
            t_p = t + p * T_PACKET_GAP
            self._play_sound("deal", t_p / sp)
            for j in range(size):
                s = deck[pos]
                pos += 1
                i = taken.get(seat, 0)
                taken[seat] = i + 1
                k = owners[seat][i]
                s.key = k
                place = targets[k]
                self._tween_to(s, place._replace(z=place.z + 200), self.clock + (t_p + j * 0.012) / sp,
                               T_PACKET / sp, easing.ease_out)
                self._tween_to(s, place, self.clock + (t_p + T_PACKET) / sp, 0.01)
        return len(packets)

    @staticmethod
    def _owner(key, pos: Position) -> int | None:
        """Who a dealt card goes to: a seat, or -1 for the stock."""
        if key[0] == "back":
            if key[1] == "stock":
                return -1
            return key[1] if isinstance(key[1], int) else None
        c = key[1]
        if pos.stock_out and pos.stock >> c & 1:
            return -1
        for seat, hand in enumerate(pos.hands):
            if hand is not None and hand >> c & 1:
                return seat
        return None

    # --- per frame -------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        return self.clock < self.busy_until or any(s.tweens for s in self.sprites)

    def update(self, dt: float) -> None:
        self.clock += dt
        now = self.clock
        if self._timers:
            due = [fn for (t, fn) in self._timers if t <= now]
            if due:
                self._timers = [(t, fn) for (t, fn) in self._timers if t > now]
                for fn in due:
                    fn()
        for s in self.sprites:
            tw = s.tweens
            while tw:
                w = tw[0]
                if now < w.start:
                    break
                if w.frm is None:
                    w.frm = s.place
                    _set_visible(s, True)
                    if w.end.z != s.z:
                        s.z = w.end.z
                        self._resort = True
                p = (now - w.start) / w.duration
                if p >= 1.0:
                    tw.popleft()
                    self._apply_place(s, w.end)
                    continue
                e = w.ease(p)
                a, b = w.frm, w.end
                s.position = (_lerp(a.x, b.x, e), _lerp(a.y, b.y, e))
                s.angle = _lerp_angle(a.angle, b.angle, e)
                scale = _lerp(a.scale, b.scale, e)
                self._set_face(s, b.face_up if p >= 0.5 else a.face_up, scale)
                s.place = Place(s.center_x, s.center_y, s.angle, scale, s.face_up, s.z)
                break
        if self._resort:
            self._resort = False
            self.sprite_list.sort(key=lambda s: s.z)

    def set_dimmed(self, cards) -> None:
        self._dimmed = frozenset(cards)
        self._apply_dim()

    def _apply_dim(self) -> None:
        for s in self.sprites:
            dim = s.key[0] == "card" and s.key[1] in self._dimmed
            want = DIM if dim else (255, 255, 255)
            if tuple(s.color[:3]) != want:
                s.color = (*want, 255)

    def card_at(self, x: float, y: float, seat: int = 0) -> int | None:
        """The topmost card of ``seat``'s (face-up) hand under a logical point."""
        best = None
        for s in self.sprites:
            if s.key[0] != "card" or not s.face_up or s.tweens:
                continue
            if s.place.z < 100 or s.place.z >= 300:
                continue
            pos = self._info_pos
            if pos is None or not pos.hand(seat) >> s.key[1] & 1:
                continue
            if layout.point_in_place(x, y, s.place) and (best is None or s.z > best.z):
                best = s
        return best.key[1] if best else None

    def face_at(self, x: float, y: float):
        """The topmost card lying face up (at rest) under a logical point: a card the
        viewer may see, in a hand, the trick or the stock; None elsewhere."""
        if self.last_trick_overlay:
            return None
        best = None
        for s in self.sprites:
            if s.key[0] != "card" or not s.face_up or s.tweens or not s.visible and not s.covered:
                continue
            if layout.point_in_place(x, y, s.place) and (best is None or s.place.z > best.place.z):
                best = s
        return best

    def _fan_texture(self, seat: int, n: int):
        """A hidden hand of ``n`` at rest as one image, with its soft shadow."""
        where = self.spots[seat]
        full = self.rules.hand_cards
        key = (where, n, full)
        tex = self._fan_cache.get(key)
        if tex is None:
            from PIL import Image, ImageFilter

            places = layout.hand_places(where, n, False, full=full)
            back = self.tex.back_for(CARD_W * places[0].scale).image
            img = back.rotate(-places[0].angle, expand=True)
            w, h = img.size
            m = SHADOW_MARGIN
            xs = [p.x for p in places]
            ys = [p.y for p in places]
            left, right = min(xs) - w / 2 - m, max(xs) + w / 2 + m
            bottom, top = min(ys) - h / 2 - m, max(ys) + h / 2 + m
            cards = Image.new("RGBA", (round(right - left), round(top - bottom)), (0, 0, 0, 0))
            for p in places:
                cards.alpha_composite(img, (round(p.x - w / 2 - left), round(top - (p.y + h / 2))))
            # the shadow: the hand's outline, blurred, a little down and to the right
            dx, dy = (round(v * places[0].scale * CARD_W / SHADOW_BASE[0]) for v in SHADOW_REST)
            alpha = cards.getchannel("A").point(lambda v: v * 150 // 255)
            shade = Image.new("L", cards.size, 0)
            shade.paste(alpha, (dx, -dy))
            canvas = Image.new("RGBA", cards.size, (0, 0, 0, 255))
            canvas.putalpha(shade.filter(ImageFilter.GaussianBlur(3)))
            canvas.alpha_composite(cards)
            tex = (arcade.Texture(canvas, hash=f"fan:{where}:{n}:{full}:{textures.VERSION}:s"),
                   ((left + right) / 2, (bottom + top) / 2))
            self.tex.atlas.add(tex[0])
            self._fan_cache[key] = tex
        return tex

    def _update_fans(self) -> None:
        """Swap each resting hidden hand for its fan image (and back when it moves)."""
        by_seat: dict[int, list[CardSprite]] = {seat: [] for seat in self._fan_sprites}
        for s in self.sprites:
            k = s.key
            if k[0] == "back" and k[1] in by_seat:
                by_seat[k[1]].append(s)
        for seat, group in by_seat.items():
            fan = self._fan_sprites[seat]
            resting = bool(group) and all(
                not s.tweens and 100 <= s.place.z < 300 for s in group)
            if resting:
                n = len(group)
                tex, centre = self._fan_texture(seat, n)
                if fan.texture is not tex:
                    fan.texture = tex
                    fan.scale = 1.0
                    fan.position = centre
                fan.visible = True
                for s in group:
                    if s.visible:
                        _set_visible(s, False)
            else:
                fan.visible = False
                for s in group:
                    if not s.place.hidden and not s.visible:
                        _set_visible(s, True)

    def _update_strips(self) -> None:
        """Draw South's resting hand as the strips that show (fill is what costs).

        Each card of the hand at rest but the last is covered on its right by its
        neighbour, at most SOUTH_STEP pixels along, so it is drawn as its left STRIP_W
        columns (the 5 extra lie under the neighbour's rounded corner).  Where the arc
        sets the neighbour up to BAND_H pixels higher or lower, the sliver of the
        card left uncovered below or above it is drawn by a band sprite.  Cards
        that move, are raised apart from their neighbour, or are lifted keep
        their whole texture; the picture is the same pixel for pixel.
        """
        strips = self.tex.strips
        hand = sorted(
            (s for s in self.sprites
             if s.visible and not s.tweens and 100 <= s.place.z < 300
             and s.place.scale == HAND_SCALE and s.place.angle == 0.0 and s.place.y < 300),
            key=lambda s: s.place.x)
        key = tuple((id(s), s.place, id(s.texture), tuple(s.color)) for s in hand)
        if key == self._strip_key:
            return
        self._strip_key = key
        want: dict[int, tuple] = {}  # id(sprite) -> (strip trio, dy to the neighbour)
        for a, b in zip(hand, hand[1:], strict=False):
            trio = strips.get(id(self._texture_for(a, a.face_up, CARD_W * a.place.scale)))
            dy = b.place.y - a.place.y
            if (trio is not None and 0 < b.place.x - a.place.x <= SOUTH_STEP and abs(dy) <= BAND_H
                    and b.z > a.z):
                want[id(a)] = (trio, dy)
        for s in self.sprites:
            if id(s) not in want and id(s.texture) in self._strip_ids:
                self._set_face(s, s.face_up)
                if s.visible and (not s.tweens or s.tweens[0].frm is None):
                    s.position = (s.place.x, s.place.y)  # a tween not begun yet
        # Bands are drawn in the order of their cards: where the cards lie closer
        # than a band is wide (a 25-card hand), a card's band overlaps the one of
        # the card on its left, and must lie over it as the card itself does.
        bands = iter(self._band_sprites)
        for s in hand:
            got = want.get(id(s))
            if got is None:
                continue
            (strip, top, bottom), dy = got
            half_w = s.place.scale * CARD_W / 2
            if s.texture is not strip:
                s.texture = strip
                s.scale = 1.0
            s.position = (s.place.x - half_w + strip.width / 2, s.place.y)
            if dy:
                band = next(bands)
                band.texture = bottom if dy > 0 else top
                band.color = s.color
                h = strip.height / 2 - BAND_H / 2
                band.position = (s.place.x - half_w + strip.width + band.texture.width / 2,
                                 s.place.y - h if dy > 0 else s.place.y + h)
                band.visible = True
        for band in bands:
            if band.visible:
                band.visible = False
                band.position = OFFSCREEN

    def prepare(self) -> None:
        """Settle what this frame draws: the draw order, resting hands as fans and
        strips, covered cards.  (``snap`` sets new places without sorting: a frame
        drawn before the next ``update`` must still draw them in order.)"""
        if self._resort:
            self._resort = False
            self.sprite_list.sort(key=lambda s: s.z)
        self._update_fans()
        self._update_strips()
        self._cull_covered()
        self._update_shadows()

    def _casters(self) -> set[int]:
        """The cards that cast a shadow this frame (by id), fill being what costs:
        every card of the trick and every card in flight; on the table only the top
        of each stack (piles, the pack, the discard) and the last card of each hand
        at rest (a hand's other shadows would lie under its cards; a hidden hand at
        rest is a fan image that carries its own)."""
        out = set()
        tops: list = []
        last: dict = {}  # a hand at rest: its owner -> its last card
        pos = self._info_pos
        low = []
        for s in self.sprites:
            if not s.visible or s.covered or s.position == OFFSCREEN:
                continue
            z = s.place.z
            moving = bool(s.tweens) and s.tweens[0].frm is not None
            if z >= 300 or (moving and z >= 100) or 250 <= z < 300:
                out.add(id(s))
            elif z < 100:
                low.append(s)
            else:
                k = s.key
                owner = k[1] if k[0] == "back" else next(
                    (seat for seat, h in enumerate(pos.hands) if h is not None and h >> k[1] & 1), None) \
                    if pos is not None else None
                got = last.get(owner)
                if got is None or s.z > got.z:
                    last[owner] = s
        out.update(id(s) for s in last.values())
        low.sort(key=lambda s: -s.z)
        for s in low:
            x, y = s.place.x, s.place.y
            if all(abs(x - a) > 30 or abs(y - b) > 30 for a, b in tops):
                tops.append((x, y))
                out.add(id(s))
        return out

    def _update_shadows(self) -> None:
        """Lay each card's shadow (or glow) under it: lifted with the card in flight."""
        casters = self._casters()
        now = self.clock
        marks = self.trick_marks
        soft = self.soft
        base = SHADOW_BASE[0]
        for s, sh in zip(self.sprites, self._shadow_sprites, strict=True):
            want = None
            if s.visible and s.position != OFFSCREEN and id(s.texture) not in self._strip_ids \
                    and s._color[3] == 255:
                tw = s.tweens[0] if s.tweens and s.tweens[0].frm is not None else None
                if id(s) in casters:
                    k = s.place.scale * CARD_W / base
                    kind = marks.get(s.key[1]) if s.key[0] == "card" and s.face_up else None
                    if kind is not None:
                        want = (soft[kind], s.center_x, s.center_y, s.angle, k)
                    else:
                        lift = math.sin(math.pi * min(1.0, max(0.0, (now - tw.start) / tw.duration))) \
                            if tw is not None else 0.0
                        ox = _lerp(SHADOW_REST[0], SHADOW_LIFT[0], lift) * k
                        oy = _lerp(SHADOW_REST[1], SHADOW_LIFT[1], lift) * k
                        want = (soft["shadow"], round(s.center_x + ox), round(s.center_y + oy), s.angle,
                                k * (1 + 0.05 * lift))
            if want is None:
                if sh.position != OFFSCREEN:
                    sh.position = OFFSCREEN
                continue
            tex, x, y, angle, scale = want
            if sh.texture is not tex:
                sh.texture = tex
            if sh._position != (x, y):
                sh.position = (x, y)
            if sh._angle != angle:
                sh.angle = angle
            if sh._scale != (scale, scale):
                sh.scale = scale

    def _cull_covered(self) -> None:
        """Keep off screen each card lying exactly under a card drawn after it.

        Cards of one silhouette at the same place, angle and size cover each other
        but for the few partly clear pixels of their rounded corners (the pack
        stacks four to a place): of the 62 cards of the pack while it is
        gathered, shuffled and cut, 16 are drawn, not 62, and its corners are
        those of one card, not of four laid on each other.
        """
        seen = set()
        for s in reversed(self.sprite_list):  # the last drawn first
            if not s.visible:
                continue
            p = s.place
            where = (p.x, p.y, p.angle, p.scale)
            if where in seen:
                if s.position != OFFSCREEN:
                    s.position = OFFSCREEN
                s.covered = True
                continue
            if s._color[3] == 255:  # an opaque card hides what lies exactly under it
                seen.add(where)
            if s.covered:
                s.covered = False
                if s.position == OFFSCREEN:
                    s.position = (p.x, p.y)

    def damage_items(self) -> list:
        """Everything :meth:`draw` draws, as ``game.common.damage`` items (after :meth:`prepare`)."""
        items = []
        for sl in (self.shadows, self.fans, self.bands, self.sprite_list, self.markers):
            items.extend(damage.sprite_items(sl))
        for t in self._batch_texts:
            items.append(damage.text_item(t))
        w = self.winner_text
        items.append(damage.rect_item("winner", damage.text_key(w), self._winner_rect() if w.text else None))
        turn = self._turn if 0 <= self._turn < self.n_seats else -1
        items.append(damage.rect_item("turn", turn, self._turn_rect(turn) if turn >= 0 else None))
        ov = self.last_trick_overlay
        items.append(damage.rect_item("last-trick", ov, self._overlay_bounds() if ov else None))
        if self.cleared:  # put away under a sheet: nothing of the table is drawn
            return [damage.rect_item(item[0], None, None) for item in items]
        return items

    def draw(self, prepare: bool = True, shows=None) -> None:
        """Draw the table; ``prepare=False`` when :meth:`prepare` already ran this frame.

        ``shows(ident)``, when given, says whether the item of :meth:`damage_items`
        called ``ident`` reaches the rectangle being redrawn: draw calls that
        reach nothing of it are skipped.  The felt, the ring and the plates are the
        view's backdrop (:meth:`backdrop_marks`), already under everything.
        """
        if prepare:
            self.prepare()

        def reach(*idents) -> bool:
            return shows is None or any(shows(i) for i in idents)

        if self.cleared:  # a sheet lies over the table: nothing of it shows at the sheet's edges
            return
        if reach(*map(id, self.shadows)):
            self.shadows.draw()  # scaled and blurred: linear
        turn = self._turn
        if 0 <= turn < self.n_seats and reach("turn"):
            self._draw_turn(turn)
        for sl, drawn in ((self.fans, self.fans), (self.bands, self.bands), (self.sprite_list, self.sprites)):
            if reach(*map(id, drawn)):
                sl.draw(pixelated=self.pixelated)  # cards at 1:1: nearest sampling
        if reach(*map(id, self.markers)) and not self.cleared:
            self.markers.draw()  # the dealer marker is scaled down: linear
        if reach(*map(id, self._batch_texts)) and not self.cleared:
            self.batch.draw()
        if self.winner_text.text and reach("winner"):
            self._winner_pill.draw(self._winner_box())
            self.winner_text.draw()
        if self.last_trick_overlay and reach("last-trick"):
            self._draw_last_trick()

    # --- the turn, the trick's winner, the last trick ----------------------------------

    TURN_MARGIN = 12

    def _draw_turn(self, turn: int) -> None:
        """The gold glow round the plate of the seat to play (one sprite per seat)."""
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

    def _turn_rect(self, turn: int):
        """The bounds of the glow round the plate of the seat to play."""
        left, bottom, right, top = self.plates[turn]
        m = self.TURN_MARGIN + 2
        return left - m, bottom - m, right + m, top + m

    def _winner_box(self) -> tuple[float, float, float, float]:
        """The pill under "X takes the trick" (left, bottom, width, height)."""
        t = self.winner_text
        w = round(t.content_width + 32)
        h = layout.SLOT_H
        return t.x - w / 2, t.y - h / 2, w, h

    def _winner_rect(self):
        x, y, w, h = self._winner_box()
        return x - 2, y - 2, x + w + 2, y + h + 2

    def _overlay_bounds(self):
        left, bottom, right, top = layout.overlay_rect(self.n_seats)
        return left - 2, bottom - 2, right + 2, top + 2

    def _build_overlay(self) -> None:
        """The last trick shown again: its cards in the order they were played, each
        over its player's name; the card that led and the one that took it marked."""
        import pyglet

        leader, cards = self.last_trick_overlay
        n = self.n_seats
        left, bottom, right, top = layout.overlay_rect(n)
        win = self.rules.trick_winner_index(cards)
        glows, faces = arcade.SpriteList(), arcade.SpriteList()
        glows.append(arcade.Sprite(panel_picture(right - left, top - bottom, "panel", 12), 1.0,
                                   (left + right) / 2, (bottom + top) / 2))
        batch = pyglet.graphics.Batch()
        cx = (left + right) / 2
        texts = [arcade.Text(_("Last trick (click to close)"), cx, top - 19, INK, 13, anchor_x="center",
                             anchor_y="center", font_name=FONT, batch=batch)]
        y = bottom + 146
        k = layout.card_size(layout.TRICK_SCALE)[0] / SHADOW_BASE[0]
        for i, c in enumerate(cards):
            seat = (leader + i) % n
            x = layout.overlay_card_x(n, i)
            kind = "win" if i == win else ("lead" if i == 0 else None)
            if kind is not None:
                glows.append(arcade.Sprite(self.soft[kind], k, x, y))
            face = textures.Textures.nearest(self.faces[c], CARD_W * layout.TRICK_SCALE)
            faces.append(arcade.Sprite(face, 1.0, x, y))
            name = arcade.Text(self.names[seat], x, bottom + 52, GOLD if i == win else INK, 12,
                               anchor_x="center", anchor_y="center", font_name=FONT, bold=True, batch=batch)
            fit_font(name, 100, 12, 9)
            texts.append(name)
            tags = [_("led")] if i == 0 else []
            if i == win:
                tags.append(_("took it"))
            if tags:
                texts.append(arcade.Text(" · ".join(tags), x, bottom + 32, GOLD, 11, anchor_x="center",
                                         anchor_y="center", font_name=FONT, batch=batch))
        self._overlay = (glows, faces, batch, texts)
        self._overlay_key = self.last_trick_overlay

    def _draw_last_trick(self) -> None:
        if self._overlay_key != self.last_trick_overlay or self._overlay is None:
            self._build_overlay()
        glows, faces, batch, _texts = self._overlay
        glows.draw()
        faces.draw(pixelated=self.pixelated)
        batch.draw()


def pyglet_batch():
    import pyglet

    return pyglet.graphics.Batch()


__all__ = ["TableScene", "seat_letter", "set_colour", "soft_textures"]
