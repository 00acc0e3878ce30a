"""The hands at rest drawn cheaply: hidden hands as one fan image, the bottom hand
as strips.

Without a GPU a frame costs the pixels it fills, and a hand of overlapping cards
fills most of its pixels many times over.  So a hidden hand at rest is drawn as
one image composed with PIL (its backs and their soft shadow: :meth:`HandImages.fan`),
and the bottom hand at rest as the strip of each card its right neighbour leaves
in view (:meth:`HandImages.lay_strips`).  The picture is the same pixel for pixel.
"""

from __future__ import annotations

from typing import Any

import arcade

from game.common import layout, textures
from game.common.constants import BAND_H, CARD_W, HAND_SCALE, SOUTH_STEP
from game.common.layout import Place
from game.table.scene.shadows import SHADOW_BASE, SHADOW_MARGIN, SHADOW_REST
from game.table.scene.sprites import OFFSCREEN, CardLook, CardSprite, set_visible

#: a fan image and where its centre lies
Fan = tuple[arcade.Texture, tuple[float, float]]


class HandImages:
    """The fan images of the hidden hands and the strips of the bottom hand.

    ``spots``: the screen spot of each seat (:func:`game.common.layout.spot`);
    every seat not at the bottom gets a fan sprite, composed ahead for every
    size its hand can have (not mid-game)."""

    def __init__(self, look: CardLook, cards: list[CardSprite], spots: tuple[int, ...], hand_cards: int,
                 dealer_cards: int) -> None:
        self.look = look
        self.tex = look.tex
        self.cards = cards
        self.spots = spots
        self.hand_cards = hand_cards
        self.fans = textures.sprite_list()
        self._fan_sprites: dict[int, arcade.Sprite] = {}
        self._fan_cache: dict[tuple[int, int, int], Fan] = {}
        for seat, where in enumerate(spots):
            if where == layout.BOTTOM:
                continue
            sp = arcade.Sprite(self.tex.back_for(54))
            sp.visible = False
            self._fan_sprites[seat] = sp
            self.fans.append(sp)
            for k in range(1, dealer_cards + 1):
                self.fan(seat, k)
        # the bands are the thin slivers the arc leaves visible under a right neighbour
        self.bands = textures.sprite_list()
        self._band_sprites: list[arcade.Sprite] = []
        for _i in range(dealer_cards + 1):
            b = arcade.Sprite(self.tex.back)
            b.visible = False
            b.position = OFFSCREEN
            self._band_sprites.append(b)
            self.bands.append(b)
        #: the ids of the strip textures: a card showing one is drawn as a strip
        self.strip_ids = {id(t[0]) for t in self.tex.strips.values()}
        self._strip_key: tuple[Any, ...] = ()

    def forget_strips(self) -> None:
        """Lay the strips afresh at the next frame (the textures changed)."""
        self._strip_key = ()

    # --- the hidden hands --------------------------------------------------------------

    def fan(self, seat: int, n: int) -> Fan:
        """A hidden hand of ``n`` at rest as one image, with its soft shadow."""
        where = self.spots[seat]
        full = self.hand_cards
        key = (where, n, full)
        got = self._fan_cache.get(key)
        if got is None:
            image, centre = self._compose_fan(layout.hand_places(where, n, False, full=full))
            tex = arcade.Texture(image, hash=f"fan:{where}:{n}:{full}:{textures.VERSION}:s")
            self.tex.atlas.add(tex)
            got = (tex, centre)
            self._fan_cache[key] = got
        return got

    def _compose_fan(self, places: list[Place]) -> tuple[Any, tuple[float, float]]:
        """The backs laid at ``places`` as one PIL image, over the hand's shadow: its
        outline, blurred, a little down and to the right; and the image's centre."""
        from PIL import Image, ImageFilter

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
        dx, dy = (round(v * places[0].scale * CARD_W / SHADOW_BASE[0]) for v in SHADOW_REST)
        alpha = cards.getchannel("A").point(lambda v: v * 150 // 255)
        shade = Image.new("L", cards.size, 0)
        shade.paste(alpha, (dx, -dy))
        canvas = Image.new("RGBA", cards.size, (0, 0, 0, 255))
        canvas.putalpha(shade.filter(ImageFilter.GaussianBlur(3)))
        canvas.alpha_composite(cards)
        return canvas, ((left + right) / 2, (bottom + top) / 2)

    def lay_fans(self) -> None:
        """Swap each resting hidden hand for its fan image (and back when it moves)."""
        by_seat: dict[object, list[CardSprite]] = {seat: [] for seat in self._fan_sprites}
        for s in self.cards:
            k = s.key
            if k[0] == "back" and k[1] in by_seat:
                by_seat[k[1]].append(s)
        for seat, group in by_seat.items():
            assert isinstance(seat, int)
            fan = self._fan_sprites[seat]
            resting = bool(group) and all(not s.tweens and 100 <= s.place.z < 300 for s in group)
            if resting:
                tex, centre = self.fan(seat, len(group))
                if fan.texture is not tex:
                    fan.texture = tex
                    fan.scale = 1.0
                    fan.position = centre
                fan.visible = True
                for s in group:
                    if s.visible:
                        set_visible(s, False)
            else:
                fan.visible = False
                for s in group:
                    if not s.place.hidden and not s.visible:
                        set_visible(s, True)

    # --- the bottom hand ---------------------------------------------------------------

    def _resting_hand(self) -> list[CardSprite]:
        """The bottom hand's cards at rest, left to right."""
        return sorted(
            (s for s in self.cards
             if s.visible and not s.tweens and 100 <= s.place.z < 300
             and s.place.scale == HAND_SCALE and s.place.angle == 0.0 and s.place.y < 300),
            key=lambda s: s.place.x)

    def lay_strips(self) -> None:
        """Draw the bottom hand at rest as the strips that show (fill is what costs).

        Each card of the hand at rest but the last is covered on its right by its
        neighbour, at most SOUTH_STEP pixels along, so it is drawn as its left STRIP_W
        columns (the 5 extra lie under the neighbour's rounded corner).  Where the arc
        sets the neighbour up to BAND_H pixels higher or lower, the sliver of the
        card left uncovered below or above it is drawn by a band sprite.  Cards
        that move, are raised apart from their neighbour, or are lifted keep
        their whole texture.
        """
        hand = self._resting_hand()
        key = tuple((id(s), s.place, id(s.texture), tuple(s.color)) for s in hand)
        if key == self._strip_key:
            return
        self._strip_key = key
        want = self._strips_wanted(hand)
        for s in self.cards:
            if id(s) not in want and id(s.texture) in self.strip_ids:
                self.look.set_face(s, s.face_up)
                if s.visible and (not s.tweens or s.tweens[0].frm is None):
                    s.position = (s.place.x, s.place.y)  # a tween not begun yet
        self._lay_bands(hand, want)

    def _strips_wanted(self, hand: list[CardSprite]) -> dict[int, tuple[Any, float]]:
        """id(card) -> (its strip trio, the rise to its right neighbour) for each card
        of ``hand`` whose neighbour covers all of it but a strip."""
        want: dict[int, tuple[Any, float]] = {}
        for a, b in zip(hand, hand[1:], strict=False):
            trio = self.tex.strips.get(id(self.look.texture_for(a, a.face_up, CARD_W * a.place.scale)))
            dy = b.place.y - a.place.y
            if (trio is not None and 0 < b.place.x - a.place.x <= SOUTH_STEP and abs(dy) <= BAND_H
                    and b.z > a.z):
                want[id(a)] = (trio, dy)
        return want

    def _lay_bands(self, hand: list[CardSprite], want: dict[int, tuple[Any, float]]) -> None:
        """Each strip its texture, and a band where the neighbour rises or drops.
        Bands are laid in the order of their cards: where the cards lie closer than
        a band is wide (a 25-card hand), a card's band overlaps the one of the card
        on its left, and must lie over it as the card itself does."""
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


__all__ = ["HandImages"]
