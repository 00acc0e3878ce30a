"""The Rules screen: both games' rules in sections, with the real card pictures.

The content is data (``game.screens.rules_content``); this view lays it out and draws
it.  Keys: Left/Right (or the tabs, Previous and Next) step through the
sections, 1-9 jump to one, Up/Down, PageUp/PageDown, Home/End and the mouse
wheel scroll a section taller than the panel, G switches between the games,
Tab and Enter work the buttons, Escape goes back.  The game shown first is the
one last looked at in this session, else the one last chosen in the settings.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial

import arcade
from arcade.types import LBWH, RGBOrA255

from engine.ruleset import Ruleset, ruleset, variant_names
from game.common import layout, textures
from game.common.constants import FONT, GOLD, HEIGHT, INK, PANEL, PILE_EDGE, TEAM_COLOURS, WIDTH
from game.common.i18n import _
from game.common.navigation import show
from game.common.ui import BaseView, Button
from game.common.words import game_name
from game.screens import rules_content as rc

DIM_INK = (190, 196, 180)
CAPTION = (226, 214, 170)
# The panel the sections are drawn in (logical coordinates), and its content area.
PANEL_BOX = (300, 64, 1260, 646)  # left, bottom, right, top
CONTENT = (322, 72, 1238, 600)
TAB_X, TAB_W, TAB_H, TAB_TOP, TAB_STEP = 160, 250, 42, 606, 48
GROUP_GAP = 26
WRAP_SLACK = 4  # a text wrapped at exactly its own width may still break
CAPTION_W = 420  # a caption wider than its cards wraps at this width (beside other groups)
BLOCK_GAP = 12
#: (game, section index) last shown in this session
LAST: dict[str, object] = {}


@dataclass
class _Sized:
    """A group of cards measured for its line."""

    group: rc.Group
    step: float
    cards_w: float
    width: float
    tops: list[str]
    bottoms: list[str]
    caption: str
    note: str
    left_over: float = 0.0  # how far the first card's labels reach out left of it
    right_over: float = 0.0


@dataclass
class CardSpot:
    """One card picture laid out: where (logical, scroll 0), its size and mark."""

    code: str
    x: float  # centre
    y: float
    w: int
    h: int
    mark: rc.Mark
    visible: float = 0.0  # how much of its width shows (a fanned card under its right neighbour)


class SectionLayout:
    """A section's drawables at scroll 0: texts, card spots, shapes, and the
    content's height (laid out in CONTENT's width, top down)."""

    def __init__(self, rules: Ruleset, section: rc.Section) -> None:
        self.rules = rules
        self.section = section
        self.texts: list[arcade.Text] = []
        self.cards: list[CardSpot] = []
        self.lines: list[tuple[float, float, float, float, RGBOrA255, float]] = []  # x0, y0, x1, y1, colour, width
        self.boxes: list[tuple[float, float, float, float, RGBOrA255]] = []  # filled l, b, w, h, colour
        self.arcs: list[tuple[float, float, float, float, float, RGBOrA255]] = []  # cx, cy, radius, from, to
        left, _b, right, top = CONTENT
        self.left: float = left
        self.right: float = right
        self.width: float = right - left
        y: float = top
        for i, block in enumerate(section.blocks):
            if i:
                y -= BLOCK_GAP
            y = self._block(block, y)
        self.bottom = y  # lowest point drawn (at scroll 0)

    # --- texts -----------------------------------------------------------------

    def text(self, s: str, x: float, y: float, size: int = 14, colour: RGBOrA255 = INK, *, bold: bool = False,
             width: float | None = None, anchor_x: str = "left", anchor_y: str = "top",
             align: str = "left") -> arcade.Text:
        t = arcade.Text(s, x, y, colour, size, anchor_x=anchor_x, anchor_y=anchor_y, font_name=FONT,
                        bold=bold, multiline=width is not None, width=int(width) if width else None,
                        align=align)
        self.texts.append(t)
        return t

    def para(self, s: str, y: float, size: int, colour: RGBOrA255, width: float | None = None,
             x: float | None = None) -> float:
        t = self.text(s, self.left if x is None else x, y, size, colour, width=width or self.width)
        return y - t.content_height

    # --- blocks -------------------------------------------------------------------

    def _block(self, block: rc.Block, y: float) -> float:
        """Lay ``block`` out from ``y`` down; returns the y below it."""
        if isinstance(block, rc.Para):
            return self._para(block, y)
        if isinstance(block, rc.Cards):
            return self._cards(block, y)
        if isinstance(block, rc.Seats):
            return self._seats(block, y)
        return self._scores(block, y)

    def _para(self, block: rc.Para, y: float) -> float:
        inks: dict[rc.Ink, RGBOrA255] = {"ink": INK, "gold": GOLD, "dim": DIM_INK}
        colour = inks[block.colour]
        return self.para(rc.words(block.text), y, block.size, colour)

    def _cards(self, block: rc.Cards, y: float) -> float:
        """A line of card groups, each under its caption; groups that do not fit
        beside the others go to a new line, and a fan too wide for the panel
        closes up."""
        w = block.width
        h = round(w * 592 / 320)
        alone = len(block.groups) == 1
        sized = []
        for g in block.groups:
            tops = [rc.words(f.top) for f in g.cards]
            bottoms = [rc.words(f.bottom) for f in g.cards]
            # each card's room: its own width or its widest label
            room = [max(w, _measure(t, 12, True), _measure(b, 12)) for t, b in zip(tops, bottoms, strict=True)]
            n = len(g.cards)
            if g.fan:
                step = w * g.spread
            else:
                step = max([w + 10.0] + [(a + b) / 2 + 12 for a, b in zip(room, room[1:], strict=False)])
            edges = (room[0] - w) / 2 + (room[-1] - w) / 2  # labels wider than the end cards
            if n > 1 and (n - 1) * step + w + edges > self.width:
                step = (self.width - w - edges) / (n - 1)
            cards_w = (n - 1) * step + w
            note = rc.words(g.note)
            content_w = max(cards_w + edges, _measure(note, 13, True))
            caption = rc.words(g.caption)
            cap_room = self.width if alone else max(content_w, CAPTION_W)
            width = max(content_w, min(_measure(caption, 13, True), cap_room))
            sized.append(_Sized(g, step, cards_w, width, tops, bottoms, caption, note, (room[0] - w) / 2,
                                (room[-1] - w) / 2))
        lines: list[list[_Sized]] = [[]]
        x = 0.0
        for item in sized:
            if lines[-1] and x + item.width > self.width:
                lines.append([])
                x = 0.0
            lines[-1].append(item)
            x += item.width + GROUP_GAP
        for i, line in enumerate(lines):
            y = self._card_line(line, y - (BLOCK_GAP if i else 0), w, h)
        return y

    def _card_line(self, line: list[_Sized], y: float, w: int, h: int) -> float:
        cap_h = max((_measure_h(it.caption, 13, True, it.width + WRAP_SLACK) for it in line if it.caption), default=0.0)
        top_h = max((_line_h(12) for it in line if any(it.tops)), default=0.0)
        bottom_h = max((_line_h(12) + 3 for it in line if any(it.bottoms)), default=0.0)
        note_h = max((_line_h(13) + 2 for it in line if it.note), default=0.0)
        card_top = y - cap_h - (6 if cap_h else 0) - top_h
        x = self.left
        for it in line:
            if it.caption:
                self.text(it.caption, x, y, 13, CAPTION, bold=True, width=it.width + WRAP_SLACK)
            x0 = x + it.left_over + (it.width - it.cards_w - it.left_over - it.right_over) / 2
            for i, f in enumerate(it.group.cards):
                cx = x0 + i * it.step + w / 2
                shown = it.step if it.group.fan and i < len(it.group.cards) - 1 else w
                self.cards.append(CardSpot(f.code, cx, card_top - h / 2, w, h, f.mark, min(w, shown)))
                if it.tops[i]:
                    self.text(it.tops[i], cx, card_top + 2, 12, GOLD, bold=True, anchor_x="center",
                              anchor_y="bottom")
                if it.bottoms[i]:
                    self.text(it.bottoms[i], cx, card_top - h - 3, 12, INK, anchor_x="center")
            if it.note:
                self.text(it.note, x + it.width / 2, card_top - h - bottom_h - 2, 13, GOLD, bold=True,
                          anchor_x="center")
            x += it.width + GROUP_GAP
        return card_top - h - bottom_h - note_h

    def _seats(self, block: rc.Seats, y: float) -> float:
        """The table from above: South at the bottom, play anticlockwise (East on
        South's right, drawn on the right of the screen)."""
        rules = self.rules
        lines = 1 + bool(block.counts) + bool(block.roles)
        dy = 36 + 19 * lines  # from the table's centre to North's and South's names
        bw, bh = 420, 2 * (dy + 12 + 19 * (lines - 1))
        cx, cy = self.left + bw / 2, y - bh / 2
        teams = rules.n_sides < rules.n_seats
        n = rules.n_seats
        # where each seat sits: South bottom, East right, North top, West left
        spots = {"South": (0, -1), "East": (1, 0), "North": (0, 1), "West": (-1, 0)}
        self.boxes.append((cx - 60, cy - 30, 120, 60, (22, 84, 50, 255)))
        # the arrow of play, anticlockwise on the screen: South -> East -> North -> West
        self.arcs.append((cx, cy, 20, -60, 200, GOLD))
        dy_ = dy
        for s in range(n):
            dx, dy = spots[rules.seat_names[s]]
            sx, sy = cx + dx * 150, cy + dy * dy_
            colour = TEAM_COLOURS[rules.side[s]] if teams else PILE_EDGE
            name = rc.words(block.names[s])
            self.text(name, sx, sy + (8 if block.counts else 0), 13, colour, bold=True,
                              anchor_x="center", anchor_y="center")
            if block.counts:
                self.text(rc.words(block.counts[s]), sx, sy - 12, 12, INK, anchor_x="center",
                          anchor_y="center")
            if block.roles and block.roles[s]:
                self.text(rc.words(block.roles[s]), sx, sy - (30 if block.counts else 14), 12, GOLD,
                          anchor_x="center", anchor_y="center")
        bottom = y - bh
        if block.caption:
            tx = self.left + bw + 30
            end = self.para(rc.words(block.caption), y - 20, 14, INK, width=self.right - tx, x=tx)
            if block.beside is not None:  # laid out in the column right of the table
                left, width = self.left, self.width
                self.left, self.width = tx, self.right - tx
                try:
                    end = self._cards(block.beside, end - BLOCK_GAP)
                finally:
                    self.left, self.width = left, width
            bottom = min(bottom, end)
        return bottom

    def _scores(self, block: rc.Scores, y: float) -> float:
        col0 = 150
        cols = [max(150, _measure(rc.words(hd), 13, True) + 24) for hd in block.header]
        x = self.left
        row_h = 26
        heads = [rc.words(hd) for hd in block.header]
        cx = x + col0
        for i, hd in enumerate(heads):
            self.text(hd, cx + cols[i] / 2, y, 13, CAPTION, bold=True, anchor_x="center")
            cx += cols[i]
        y -= row_h + 4
        for label, values in (*block.rows, block.total):
            total = label is block.total[0]
            if total:
                self.lines.append((x, y + 3, x + col0 + sum(cols), y + 3, CAPTION, 1.5))
                y -= 6
            self.text(rc.words(label), x, y, 13, GOLD if total else INK, bold=total)
            cx = x + col0
            for i, v in enumerate(values):
                self.text(_signed(v) if self.rules.par else str(v), cx + cols[i] / 2, y, 13,
                          GOLD if total else INK, bold=total, anchor_x="center")
                cx += cols[i]
            y -= row_h
        y -= 6
        return self.para(rc.words(block.result), y, 15, GOLD, width=self.width)


def _signed(v: int) -> str:
    return f"+{v}" if v > 0 else ("−" + str(-v) if v < 0 else "0")


_MEASURE: dict[tuple[str, int, bool], float] = {}


def _measure(s: str, size: int, bold: bool = False) -> float:
    if not s:
        return 0.0
    key = (s, size, bold)
    if key not in _MEASURE:
        _MEASURE[key] = arcade.Text(s, 0, 0, INK, size, font_name=FONT, bold=bold).content_width
    return _MEASURE[key]


def _measure_h(s: str, size: int, bold: bool, width: float) -> float:
    """The height of ``s`` wrapped at ``width``."""
    key = (f"{s}\0{int(width)}", size, bold)
    if key not in _MEASURE:
        _MEASURE[key] = arcade.Text(s, 0, 0, INK, size, font_name=FONT, bold=bold, multiline=True,
                                    width=int(width)).content_height
    return _MEASURE[key]


def _line_h(size: int) -> float:
    key = ("Ag", size, False)
    if key not in _MEASURE:
        _MEASURE[key] = arcade.Text("Ag", 0, 0, INK, size, font_name=FONT).content_height
    return _MEASURE[key]


def initial_game(window: arcade.Window) -> str:
    v = LAST.get("game") or getattr(getattr(window, "settings", None), "variant", "piedicavallo")
    return v if v in variant_names() else "piedicavallo"


class RulesView(BaseView):
    background = (16, 58, 36)

    def __init__(self, window: arcade.Window, game: str | None = None, section: int | None = None) -> None:
        super().__init__(window)
        self.game = game if game in variant_names() else initial_game(window)
        start = section if section is not None else LAST.get("section", 0)
        self.index = start if isinstance(start, int) else 0
        self.scroll = 0.0
        self.title = arcade.Text(_("Rules"), 40, HEIGHT - 40, GOLD, 30, anchor_x="left", anchor_y="center",
                                 font_name=FONT, bold=True)
        self.hint = arcade.Text(_("←/→ sections · ↑/↓ scroll · G other game · Esc back"),
                                (PANEL_BOX[0] + PANEL_BOX[2]) / 2, 36, DIM_INK, 12, anchor_x="center",
                                anchor_y="center", font_name=FONT)
        self.heading = arcade.Text("", CONTENT[0], PANEL_BOX[3] - 26, GOLD, 20, anchor_x="left",
                                   anchor_y="center", font_name=FONT, bold=True)
        self.rule_ids = arcade.Text("", CONTENT[2], PANEL_BOX[3] - 26, DIM_INK, 12, anchor_x="right",
                                    anchor_y="center", font_name=FONT)
        self.content_camera = arcade.Camera2D(projection=self.camera.projection, position=self.camera.position)
        self.sprites: arcade.SpriteList[arcade.Sprite] | None = None
        self._build()

    # --- building ------------------------------------------------------------------

    @property
    def rules(self) -> Ruleset:
        return ruleset(self.game)

    def _build(self) -> None:
        self.sections = rc.sections(self.rules)
        self.index = max(0, min(len(self.sections) - 1, self.index))
        LAST.update(game=self.game, section=self.index)
        section = self.sections[self.index]
        self.layout = SectionLayout(self.rules, section)
        self.heading.text = rc.words(section.title)
        self.rule_ids.text = _("Rules {ids}").format(ids=section.rules) if section.rules else ""
        self.max_scroll = max(0.0, CONTENT[1] - self.layout.bottom)
        self.scroll = max(0.0, min(self.scroll, self.max_scroll))
        self._build_sprites()
        self._build_buttons()

    def _build_sprites(self) -> None:
        self.sprites = None
        self.missing_art = False
        try:
            tex = textures.get()
        except textures.MissingAssets:
            self.missing_art = True  # the codes are drawn in boxes instead
            return
        faces = tex.faces_for(self.rules)
        pack = self.rules.pack
        sprites = textures.sprite_list()
        for spot in self.layout.cards:
            if spot.code == rc.BACK:
                t = tex.back_for(spot.w)
            else:
                t = tex.nearest(faces[pack.parse(spot.code)], spot.w)
            s = arcade.Sprite(t, spot.w / t.width, spot.x, spot.y)
            if spot.mark in (rc.DIMMED, rc.CROSSED):
                s.color = (150, 150, 150, 255)
            sprites.append(s)
        self.sprites = sprites

    def _build_buttons(self) -> None:
        focused = self.buttons[self.focus].label if 0 <= self.focus < len(self.buttons) else None
        buttons: list[Button] = []
        self.tab_buttons: list[Button] = []
        for i, s in enumerate(self.sections):
            b = Button(rc.words(s.tab), (TAB_X, TAB_TOP - i * TAB_STEP, TAB_W, TAB_H),
                       partial(self.show_section, i), font_size=14)
            self.tab_buttons.append(b)
            buttons.append(b)
        self.game_buttons: list[Button] = []
        for j, v in enumerate(variant_names()):
            b = Button(game_name(ruleset(v)), (WIDTH - 330 + j * 210, HEIGHT - 40, 196, 42),
                       partial(self.show_game, v), font_size=15)
            self.game_buttons.append(b)
            buttons.append(b)
        self.b_prev = Button(_("‹ Previous"), (PANEL_BOX[0] + 100, 36, 190, 40), lambda: self.step(-1),
                             font_size=14, enabled=self.index > 0)
        self.b_next = Button(_("Next ›"), (PANEL_BOX[2] - 100, 36, 190, 40), lambda: self.step(1),
                             font_size=14, enabled=self.index < len(self.sections) - 1)
        self.b_back = Button(_("Back"), (TAB_X, 36, 200, 40), self.on_back, font_size=15)
        buttons += [self.b_prev, self.b_next, self.b_back]
        self.buttons = buttons
        labels = [b.label for b in buttons]
        if focused in labels and buttons[labels.index(focused)].enabled:
            self.focus = labels.index(focused)
        elif self.focus >= 0:
            self.focus = -1

    # --- navigation -------------------------------------------------------------------

    def show_section(self, i: int) -> None:
        if 0 <= i < len(self.sections) and i != self.index:
            self.index = i
            self.scroll = 0.0
            self._build()

    def step(self, d: int) -> None:
        self.show_section(self.index + d)

    def show_game(self, v: str) -> None:
        if v != self.game:
            self.game = v
            self.scroll = 0.0
            self._build()

    def other_game(self) -> None:
        names = variant_names()
        self.show_game(names[(names.index(self.game) + 1) % len(names)])

    def scroll_by(self, dy: float) -> None:
        self.scroll = max(0.0, min(self.max_scroll, self.scroll + dy))

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        k = arcade.key
        page = CONTENT[3] - CONTENT[1] - 40
        moves: dict[int, float] = {k.UP: -40, k.DOWN: 40, k.PAGEUP: -page, k.PAGEDOWN: page,
                 k.HOME: -math.inf, k.END: math.inf}
        if symbol in moves:
            self.scroll_by(moves[symbol])
            return True
        if symbol in (k.LEFT, k.RIGHT):
            self.step(-1 if symbol == k.LEFT else 1)
            return True
        if symbol == k.G:
            self.other_game()
            return True
        if k.KEY_1 <= symbol <= k.KEY_9:
            self.show_section(symbol - k.KEY_1)
            return True
        if symbol == k.TAB:
            self.move_focus(-1 if modifiers & k.MOD_SHIFT else 1)
            return True
        return super().on_key_press(symbol, modifiers)

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> None:
        self.scroll_by(-scroll_y * 40)

    def on_back(self) -> None:
        show(self.window, "menu")

    # --- drawing ----------------------------------------------------------------------

    def content_box_pixels(self) -> tuple[int, int, int, int]:
        """The content area in window pixels (the scissor of the scrolled part)."""
        w, h = self.window.get_size()
        vl, vb, vw, vh = layout.letterbox(w, h)
        sx, sy = vw / WIDTH, vh / HEIGHT
        left, bottom, right, top = CONTENT[0] - 8, CONTENT[1] - 4, CONTENT[2] + 8, CONTENT[3] + 4
        x0, y0 = math.floor(vl + left * sx), math.floor(vb + bottom * sy)
        return x0, y0, math.ceil(vl + right * sx) - x0, math.ceil(vb + top * sy) - y0

    def draw_scene(self) -> None:
        left, bottom, right, top = PANEL_BOX
        arcade.draw_lrbt_rectangle_filled(left, right, bottom, top, PANEL)
        arcade.draw_lrbt_rectangle_outline(left, right, bottom, top, (236, 196, 92, 120), 1)
        self.title.draw()
        self.heading.draw()
        if self.rule_ids.text:
            self.rule_ids.draw()
        self.hint.draw()
        # the section shown (a bar beside its tab) and the game (a bar under its button)
        cx, cy, w, h = self.tab_buttons[self.index].rect
        arcade.draw_lrbt_rectangle_filled(cx - w / 2 - 12, cx - w / 2 - 5, cy - h / 2, cy + h / 2, GOLD)
        for gb, v in zip(self.game_buttons, variant_names(), strict=True):
            if v == self.game:
                cx, cy, w, h = gb.rect
                arcade.draw_lrbt_rectangle_filled(cx - w / 2, cx + w / 2, cy - h / 2 - 6, cy - h / 2 - 3, GOLD)
        self._draw_content()

    def _draw_content(self) -> None:
        cam = self.content_camera
        cam.viewport = self.camera.viewport
        cam.position = (WIDTH / 2, HEIGHT / 2 - self.scroll)
        cam.scissor = LBWH(*self.content_box_pixels())
        try:
            with cam.activate():
                lay = self.layout
                for bl, bb, bw, bh, colour in lay.boxes:
                    arcade.draw_lbwh_rectangle_filled(bl, bb, bw, bh, colour)
                    arcade.draw_lbwh_rectangle_outline(bl, bb, bw, bh, (200, 190, 150, 160), 1)
                for cx, cy, radius, a0, a1, colour in lay.arcs:
                    _arrow_arc(cx, cy, radius, a0, a1, colour)
                for x0, y0, x1, y1, colour, width in lay.lines:
                    arcade.draw_line(x0, y0, x1, y1, colour, width)
                if self.sprites is not None:
                    self.sprites.draw(pixelated=False)
                for spot in lay.cards:
                    self._draw_mark(spot)
                for t in lay.texts:
                    t.draw()
        finally:
            cam.scissor = None
            self.camera.use()

    def _draw_mark(self, spot: CardSpot) -> None:
        left, right = spot.x - spot.w / 2, spot.x + spot.w / 2
        b, t = spot.y - spot.h / 2, spot.y + spot.h / 2
        if self.sprites is None:
            arcade.draw_lrbt_rectangle_filled(left, right, b, t, (246, 238, 214))
            arcade.draw_text(spot.code, spot.x, spot.y, (40, 40, 40), 14, anchor_x="center",
                             anchor_y="center", font_name=FONT, bold=True)
        if spot.mark == rc.CROSSED:
            red = (214, 48, 40)
            arcade.draw_line(left + 6, b + 10, right - 6, t - 10, red, 5)
            arcade.draw_line(left + 6, t - 10, right - 6, b + 10, red, 5)
        elif spot.mark == rc.GOLD:  # round the part that shows
            arcade.draw_lrbt_rectangle_outline(left - 3, left + (spot.visible or spot.w) + 3, b - 3, t + 3, GOLD, 3)

    # --- for tests -------------------------------------------------------------------------

    def text_boxes(self) -> list[tuple[float, float, float, float, str]]:
        """(left, bottom, right, top, text) of every text drawn, on the screen (scroll applied)."""
        out = []
        fixed = [self.title, self.heading, self.hint, *([self.rule_ids] if self.rule_ids.text else [])]
        for t in fixed:
            out.append((t.left, t.bottom, t.right, t.top, t.text))
        for t in self.layout.texts:
            out.append((t.left, t.bottom + self.scroll, t.right, t.top + self.scroll, t.text))
        return out

    def card_boxes(self) -> list[tuple[float, float, float, float, str]]:
        return [(c.x - c.w / 2, c.y - c.h / 2 + self.scroll, c.x + c.w / 2, c.y + c.h / 2 + self.scroll, c.code)
                for c in self.layout.cards]


def _arrow_arc(cx: float, cy: float, radius: float, a0: float, a1: float, colour: RGBOrA255) -> None:
    """An arc from angle a0 to a1 (degrees, anticlockwise) with an arrowhead at a1."""
    pts = [(cx + radius * math.cos(math.radians(a)), cy + radius * math.sin(math.radians(a)))
           for a in range(int(a0), int(a1) + 1, 10)]
    arcade.draw_line_strip(pts, colour, 3)
    ex, ey = pts[-1]
    a = math.radians(a1)
    tx, ty = -math.sin(a), math.cos(a)  # the direction of travel
    nx, ny = math.cos(a), math.sin(a)
    tip = (ex + tx * 9, ey + ty * 9)
    arcade.draw_triangle_filled(tip[0], tip[1], ex + nx * 7, ey + ny * 7, ex - nx * 7, ey - ny * 7, colour)

