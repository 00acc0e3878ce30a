"""The replay's list of the deal's tricks, left of the trick: a line a trick (who
led, its cards drawn by their corners, who took it), the latest ones of a long
deal, and over them the deal's result or the totals so far.  The viewer
(:mod:`game.theatre.theatre`) says which position to show; this draws it."""

from __future__ import annotations

import arcade

from engine.ruleset import Ruleset
from engine.state import State, trick_winners
from game.common import damage, textures
from game.common.constants import FONT, GOLD, INK
from game.common.i18n import _
from game.common.textures import Sizes
from game.common.ui import draw_panel
from game.table.scene.labels import seat_letter
from game.table.scene.table_scene import TableScene

TRICK_LINES = 11  # the last 11 tricks of the deal (Scarto has 25), each card drawn by its corner
#: the tricks list: left, bottom, width, height (logical): its left edge clear of West's
#: plate (its right edge, 176 on the table, is 213 on the screen through the table's zoom),
#: its right edge clear of the pack at the first event
TRICKS_PANEL = (216, 250, 190, 336)
TRICK_ROW = 27  # a line of the list: the corners of its cards (TILE_H) and a gap
TILE_W, TILE_H = 19, 25  # a card's corner (its index) cut from its face 68 px wide
TILE_X, TILE_STEP = 58, 22  # the first corner from the panel's left, and from one to the next
PLACEHOLDER_INK = (190, 196, 182)  # the tricks list's "No tricks yet": quieter than a trick's line
_TILES: dict[tuple[str, str], arcade.Texture] = {}


def card_tile(faces: Sizes, code: str, key: str) -> arcade.Texture:
    """A card's corner (its rank and sign, as the table shows it) as a small picture:
    the tricks list draws the cards rather than writing their codes."""
    tex = _TILES.get((key, code))
    if tex is None:
        from game.common.textures import Textures

        face = Textures.nearest(faces, 68)
        img = face.image.crop((0, 0, TILE_W, TILE_H))
        tex = _TILES[(key, code)] = arcade.Texture(img, hash=f"tile:{key}:{code}")
    return tex


class TrickList:
    """The tricks of the deal at a position of ``rules``' game, drawn beside ``table``."""

    def __init__(self, rules: Ruleset, table: TableScene) -> None:
        self.rules = rules
        self.table = table
        left, bottom, _pw, ph = TRICKS_PANEL
        self.score_text = arcade.Text("", left + 10, bottom + ph - 14, GOLD, 10, font_name=FONT,
                                      anchor_y="center", bold=True)
        # One single-line Text per trick: a seek re-lays only the lines that change
        # (a multiline Text is laid out whole, several ms on llvmpipe).
        self.trick_lines = [arcade.Text("", left + 10, bottom + ph - 40 - TRICK_ROW * i, INK, 10,
                                        font_name=FONT, anchor_y="center") for i in range(TRICK_LINES)]
        # ... the cards of each trick drawn by their corners after it, then who took it
        self.trick_wins = [arcade.Text("", left + TILE_X + rules.n_seats * TILE_STEP + 4, line.y, INK, 10,
                                       font_name=FONT, anchor_y="center") for line in self.trick_lines]
        # Every corner of the pack on the shared card atlas at once: one added as its
        # card is first played could grow an atlas mid-replay, and an atlas laid out
        # again samples the corners already on the screen a texel apart.
        self.tiles: arcade.SpriteList[arcade.Sprite] = textures.sprite_list()
        atlas, codes = textures.get().atlas, rules.pack.codes
        for card in range(len(codes)):
            atlas.add(card_tile(table.faces[card], codes[card], rules.pack.name))
        self.tile_sprites = [[arcade.Sprite(table.tex.back) for _c in range(rules.n_seats)]
                             for _line in self.trick_lines]
        for row in self.tile_sprites:
            for sp in row:
                sp.visible = False
                self.tiles.append(sp)
        # Until the first trick is taken the list says so (an empty panel looks broken).
        self.no_tricks = arcade.Text("", left + 10, bottom + ph - 40, PLACEHOLDER_INK, 10, font_name=FONT,
                                     anchor_y="center")

    def show(self, st: State) -> None:
        """The list at the engine's state ``st`` (each text changed only if it must)."""
        winners = trick_winners(st)  # the engine's: who took each trick
        first = max(0, len(st.tricks) - len(self.trick_lines))  # the latest tricks of a long deal
        for i, (line, win) in enumerate(zip(self.trick_lines, self.trick_wins, strict=True)):
            text = won = ""
            k = first + i
            cards: tuple[int, ...] = ()
            if k < len(st.tricks):
                leader, cards = st.tricks[k]
                text = f"{k + 1:>2}. {seat_letter(self.rules, leader)}:"
                won = f"→ {seat_letter(self.rules, winners[k])}"
            if line.text != text:
                line.text = text
            if win.text != won:
                win.text = won
            self._show_cards(i, cards, line.y)
        placeholder = "" if st.tricks else _("No tricks yet")
        if self.no_tricks.text != placeholder:
            self.no_tricks.text = placeholder
        score = _("Tricks this deal")
        if st.scores:
            rules = self.rules
            sides = " · ".join(
                "-".join(seat_letter(rules, x) for x in range(rules.n_seats) if rules.side[x] == side)
                + " " + str(v).replace("-", "−")
                for side, v in enumerate(st.totals))
            score = (_("Totals: {sides}") if st.n_deals > 1 else _("Result: {sides}")).format(sides=sides)
        if self.score_text.text != score:
            self.score_text.text = score

    def _show_cards(self, i: int, cards: tuple[int, ...], y: float) -> None:
        """Line ``i``'s cards by their corners, in the order they were played."""
        codes = self.rules.pack.codes
        left = TRICKS_PANEL[0]
        for j, sp in enumerate(self.tile_sprites[i]):
            if j < len(cards):
                tex = card_tile(self.table.faces[cards[j]], codes[cards[j]], self.rules.pack.name)
                if sp.texture is not tex:
                    sp.texture = tex
                pos = (left + TILE_X + TILE_STEP * j + TILE_W / 2, y)
                if sp.position != pos:
                    sp.position = pos
                sp.visible = True
            elif sp.visible:
                sp.visible = False

    def damage_items(self) -> list[damage.Item]:
        """What :meth:`draw` draws: the panel (its whole height always: a panel that
        grew with the list would need a picture for each height), its texts, its corners."""
        x, y, w, h = TRICKS_PANEL
        items = [damage.rect_item("tricks-panel", h, (x - 1, y - 1, x + w + 1, y + h + 1))]
        items.extend(damage.text_item(t) for t in (self.score_text, self.no_tricks, *self.trick_lines,
                                                    *self.trick_wins))
        items.extend(damage.sprite_items(self.tiles))
        return items

    def draw(self) -> None:
        draw_panel(TRICKS_PANEL, "status", radius=8)
        self.score_text.draw()
        for line in (self.no_tricks, *self.trick_lines, *self.trick_wins):
            if line.text:
                line.draw()
        self.tiles.draw(pixelated=True)


__all__ = ["TRICKS_PANEL", "TRICK_ROW", "TILE_X", "TrickList", "card_tile"]
