"""The cards the review frames on the table: at a decision, the card you played
(in its label's colour) and the one the AI prefers (in blue), each outlined where
it shows and tagged "You", "AI" or both; the tags of neighbouring cards are
stacked, never laid over each other."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import NamedTuple

import arcade
from arcade.types import RGBOrA255

from game.common.constants import CARD_H, CARD_W, FONT
from game.common.i18n import _
from game.common.layout import Place
from game.table.scene.sprites import CardSprite
from game.theatre.review_style import AI_COLOUR

Point = tuple[float, float]
Box = tuple[float, float, float, float]
#: a table point to the logical screen (the table is seen through a camera)
ToScreen = Callable[[float, float], Point]
TAGS = 8  # the most cards framed at once (a discard of three, yours and the AI's)


class Mark(NamedTuple):
    """One framed card: its outline (a line strip on the logical screen), its colour, its tag."""

    frame: tuple[Point, ...]
    colour: RGBOrA255
    tag: arcade.Text


def card_box(place: Place) -> Box:
    """A card's box on the table (unturned): left, bottom, right, top."""
    w, h = CARD_W * place.scale / 2, CARD_H * place.scale / 2
    return place.x - w, place.y - h, place.x + w, place.y + h


def outline(s: CardSprite, sprites: Iterable[CardSprite]) -> list[Point]:
    """The outline of a card's visible part, as a line strip on the table.

    A card of a fanned hand lies under its right neighbour: its frame runs
    along the bottom to the neighbour, up the left side, along the top and
    down the right side to the neighbour's top (a lifted card shows that
    much); a card nobody covers gets the whole outline."""
    p = s.place
    if p.angle % 360 != 0:  # a turned card: its whole outline
        w, h = CARD_W * p.scale / 2, CARD_H * p.scale / 2
        a = math.radians(p.angle)
        c, si = math.cos(a), math.sin(a)
        return [(p.x + dx * c + dy * si, p.y - dx * si + dy * c)
                for dx, dy in ((-w, -h), (w, -h), (w, h), (-w, h), (-w, -h))]
    left, bottom, right, top = card_box(p)
    cover = None
    for o in sprites:
        q = o.place
        if o is s or q.hidden or q.z <= p.z or q.angle % 360 != 0:
            continue
        ol, ob, or_, ot = card_box(q)
        if left < ol < right and ob < top and bottom < ot and (cover is None or ol < cover[0]):
            cover = (ol, ob, or_, ot)
    if cover is None:
        return [(left, bottom), (right, bottom), (right, top), (left, top), (left, bottom)]
    ol, ob, _or, ot = cover
    pts = [(ol, bottom), (left, bottom), (left, top), (right, top)]
    if ot < top:
        pts.append((right, max(ot, bottom)))
    return pts


class CardMarks:
    """The framed cards of the current position (:meth:`set`) and their drawing."""

    def __init__(self) -> None:
        self.tags = [arcade.Text("", 0, 0, (12, 20, 14), 9, anchor_x="center", anchor_y="center",
                                 font_name=FONT, bold=True) for _ in range(TAGS)]
        self.shown: list[Mark] = []
        self.rect: Box | None = None  # what the marks cover on the logical screen (None: nothing)

    def set(self, played: frozenset[int], best: frozenset[int], played_colour: RGBOrA255,
            sprites: list[CardSprite], to_screen: ToScreen) -> None:
        """Frame the cards ``played`` (in ``played_colour``) and ``best`` (the AI's)
        that lie face up on the table."""
        self.shown = []
        self.rect = None
        if not (played or best):
            return
        by_key = {s.key: s for s in sprites}
        tags = iter(self.tags)
        xs: list[float] = []
        ys: list[float] = []
        placed: list[tuple[float, float, float]] = []
        for card in sorted(played | best, key=lambda c: (c not in played, c)):
            s = by_key.get(("card", card))
            if s is None or s.place.hidden or not s.face_up:
                continue
            frame = [to_screen(x, y) for x, y in outline(s, sprites)]
            colour = played_colour if card in played else AI_COLOUR
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
            self.shown.append(Mark(tuple(frame), colour, tag))
            xs += [x for x, _y in frame] + [tx - half, tx + half]
            ys += [y for _x, y in frame] + [ty + 9]
        for tag in tags:
            tag.text = ""
        if xs:
            self.rect = (min(xs) - 4, min(ys) - 4, max(xs) + 4, max(ys) + 4)

    def damage_key(self) -> tuple[tuple[tuple[Point, ...], RGBOrA255, str, float, float], ...]:
        return tuple((m.frame, m.colour, m.tag.text, m.tag.x, m.tag.y) for m in self.shown)

    def draw(self) -> None:
        for frame, colour, tag in self.shown:
            arcade.draw_line_strip(frame, colour, 3)
            w = tag.content_width + 8
            arcade.draw_lbwh_rectangle_filled(tag.x - w / 2, tag.y - 8, w, 16, colour)
            tag.draw()
