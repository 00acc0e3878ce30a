"""Small UI pieces shared by the views: a letterboxed base view and buttons.

Every view draws in logical 1280x720 coordinates through a camera whose
viewport is the 16:9 letterbox of the window; mouse positions are mapped back
with :func:`game.layout.to_logical`.  Buttons work with the mouse (hover,
click) and the keyboard (Tab / arrows move the focus, Enter or Space press).
"""

from __future__ import annotations

from collections.abc import Callable

import arcade
from arcade.types import LBWH, LRBT

from . import damage, layout
from .constants import BUTTON, BUTTON_FOCUS, BUTTON_HOVER, FONT, GOLD, HEIGHT, INK, WIDTH


class Button:
    def __init__(
        self,
        label: str,
        rect: tuple[float, float, float, float],
        action: Callable[[], object] | None,
        *,
        icon: arcade.Texture | None = None,
        tooltip: str = "",
        enabled: bool = True,
        font_size: int = 16,
    ) -> None:
        self.rect = rect
        self.action = action
        self.icon = icon
        self.tooltip = tooltip
        self.enabled = enabled
        self.hover = False
        cx, cy, _w, _h = rect
        self.text = arcade.Text(label, cx, cy, INK, font_size, anchor_x="center",
                                anchor_y="center", font_name=FONT, bold=True)
        self._icon_list: arcade.SpriteList | None = None
        if icon is not None:
            self._icon_list = arcade.SpriteList()
            s = arcade.Sprite(icon, min(rect[2], rect[3]) * 0.8 / max(icon.width, icon.height), cx, cy)
            self._icon_list.append(s)

    def icon_texture(self):
        if self._icon_list is not None and len(self._icon_list):
            return self._icon_list[0].texture
        return None

    @property
    def label(self) -> str:
        return self.text.text

    @label.setter
    def label(self, v: str) -> None:
        self.text.text = v

    def contains(self, x: float, y: float) -> bool:
        return layout.in_rect(x, y, self.rect)

    def press(self) -> bool:
        if self.enabled and self.action is not None:
            self.action()
            return True
        return False

    def draw(self, focused: bool = False) -> None:
        cx, cy, w, h = self.rect
        colour = BUTTON_HOVER if (self.hover and self.enabled) else BUTTON
        alpha = 235 if self.enabled else 110
        arcade.draw_lbwh_rectangle_filled(cx - w / 2, cy - h / 2, w, h, (*colour, alpha))
        edge = BUTTON_FOCUS if focused else (200, 190, 150, 160 if self.enabled else 60)
        arcade.draw_lbwh_rectangle_outline(cx - w / 2, cy - h / 2, w, h, edge, 3 if focused else 1)
        if self._icon_list is not None:
            for s in self._icon_list:
                s.alpha = 255 if self.enabled else 90
            self._icon_list.draw()
        if self.text.text:
            self.text.color = INK if self.enabled else (150, 150, 140)
            self.text.draw()


def _present(window, boxes) -> None:
    """Tell the window what this frame redrew (None: everything), if it can show parts."""
    add = getattr(window, "add_present_boxes", None)
    if add is not None:
        add(boxes)


def button_bounds(rect) -> tuple[float, float, float, float]:
    """A button's bounds (left, bottom, right, top) with its outline (up to 3 px)."""
    cx, cy, w, h = rect
    return cx - w / 2 - 3, cy - h / 2 - 3, cx + w / 2 + 3, cy + h / 2 + 3


class BaseView(arcade.View):
    """A view drawn at the logical size, letterboxed, with keyboard-navigable buttons."""

    background = (12, 40, 26)

    def __init__(self, window: arcade.Window | None = None) -> None:
        super().__init__(window)
        self.camera = arcade.Camera2D(
            projection=LRBT(-WIDTH / 2, WIDTH / 2, -HEIGHT / 2, HEIGHT / 2),
            position=(WIDTH / 2, HEIGHT / 2),
        )
        self.buttons: list[Button] = []
        self.focus = -1
        self._damage: damage.Damage | None = None
        self._damage_state: tuple | None = None
        self.last_damage: list | None = None  # the rectangles redrawn last frame (None: all)
        # whether an item (by its ident in damage_items) reaches the rectangle being
        # redrawn (None: the frame is drawn whole); see reaches()
        self.shows = None
        self._chrome_now: tuple | None = None  # the buttons' key, once a frame
        self.tooltip = arcade.Text("", 0, 0, GOLD, 12, anchor_x="center", anchor_y="center",
                                   font_name=FONT)
        self._fit()

    # --- geometry -----------------------------------------------------------------

    def _fit(self) -> None:
        w, h = self.window.get_size() if self.window else (WIDTH, HEIGHT)
        left, bottom, vw, vh = layout.letterbox(w, h)
        self.camera.viewport = LBWH(left, bottom, vw, vh)
        self.camera.scissor = None

    def on_resize(self, width: int, height: int) -> None:
        self._fit()

    def on_show_view(self) -> None:
        self._fit()

    def logical(self, x: float, y: float) -> tuple[float, float]:
        w, h = self.window.get_size()
        return layout.to_logical(x, y, w, h)

    # --- drawing --------------------------------------------------------------------

    def on_draw(self) -> None:
        """Draw the frame: whole, or only its damaged rectangles (``game.damage``)."""
        try:
            self._draw_frame()
        finally:
            self._chrome_now = None

    def _draw_frame(self) -> None:
        self.prepare_frame()
        window = self.window
        ctx = window.ctx
        mode = damage.redraw_mode(window)
        w, h = window.get_size()
        fb_size = tuple(window.get_framebuffer_size())
        self._chrome_now = self._chrome_key()
        items = self.damage_items() if mode != "full" and fb_size == (w, h) else None
        kept = getattr(window, "_tarocchi_picture", None) is self
        window._tarocchi_picture = None  # until this frame is drawn: a failed frame is not kept
        if items is None:
            self.last_damage = None
            self._draw_whole(ctx.screen)
            _present(window, None)
            return
        target = ctx.screen if mode == "retained" else self._offscreen()
        state = (mode, w, h, fb_size, id(target), self.picture_key())
        if self._damage is None:
            self._damage = damage.Damage((0, 0, WIDTH, HEIGHT))
        if state != self._damage_state or not kept:
            self._damage.invalidate()
        self._damage_state = state
        rects = self._damage.update(items)
        self.last_damage = rects
        if rects is None:
            self._draw_whole(target)
            _present(window, None)
        else:
            viewport = layout.letterbox(w, h)
            boxes = []
            with target.activate():
                for r in rects:
                    box = damage.to_pixels(r, viewport, (WIDTH, HEIGHT), target.size)
                    if box is None:
                        continue
                    boxes.append(box)
                    target.clear(color=self.background, viewport=box)
                    self.camera.scissor = LBWH(*box)
                    # tested against the scissor box itself, rounding included: a draw
                    # call is skipped only if it cannot reach a pixel of the box
                    self.shows = self._damage.shows(damage.to_logical(box, viewport, (WIDTH, HEIGHT)))
                    try:
                        with self.camera.activate():
                            self.draw_scene()
                            self.draw_buttons()
                    finally:
                        self.camera.scissor = None
                        self.shows = None
                target.scissor = None  # nothing drawn after this frame is clipped to its last box
            _present(window, boxes)
        window._tarocchi_picture = self
        if target is not ctx.screen:
            ctx.copy_framebuffer(target, ctx.screen)
            ctx.screen.use(force=True)

    def _draw_whole(self, target) -> None:
        # The background is a clear of the letterbox (a scissored clear costs
        # nothing; a full-screen rectangle costs ~4 ms on llvmpipe).  The default
        # framebuffer takes window coordinates and scales them by the pixel ratio.
        w, h = self.window.get_size()
        left, bottom, vw, vh = layout.letterbox(w, h)
        with target.activate():
            target.viewport = (0, 0, w, h)
            target.scissor = None
            if (vw, vh) == (w, h):  # no bars: one full clear
                target.clear(color=self.background)
            else:
                target.clear(color=(0, 0, 0))
                target.clear(color=self.background, viewport=(left, bottom, vw, vh))
            with self.camera.activate():
                self.draw_scene()
                self.draw_buttons()

    def _offscreen(self):
        """The window's offscreen picture in ``fbo`` mode (one per window, window-sized)."""
        size = tuple(self.window.get_framebuffer_size())
        fbo = getattr(self.window, "_tarocchi_fbo", None)
        if fbo is None or fbo.size != size:
            ctx = self.window.ctx
            fbo = ctx.framebuffer(color_attachments=[ctx.texture(size, components=4)])
            self.window._tarocchi_fbo = fbo
        return fbo

    def prepare_frame(self) -> None:
        """Bring the drawables up to date for this frame (before ``damage_items``)."""

    def reaches(self, *idents) -> bool:
        """Whether any of these items (idents of ``damage_items``) is to be drawn in
        this pass: all are when the frame is drawn whole."""
        return self.shows is None or any(self.shows(i) for i in idents)

    def picture_key(self) -> tuple:
        """What, changed, makes the kept picture useless (e.g. a camera's zoom)."""
        return ()

    def forget_picture(self) -> None:
        """The window's picture was drawn over or cleared elsewhere: draw the next frame whole."""
        self.window._tarocchi_picture = None

    def damage_items(self) -> list | None:
        """This view's drawables as ``game.damage`` items, or None to draw each frame whole.

        A view that lists them must list everything ``draw_scene`` draws; the
        buttons and the tooltip are added by :meth:`chrome_items`.
        """
        return None

    def chrome_items(self) -> list:
        items = [damage.rect_item(("button", i), key, button_bounds(b.rect))
                 for i, (b, key) in enumerate(zip(self.buttons, self._chrome_now, strict=True))]
        tip = self._place_tooltip()
        if tip is None:
            items.append(damage.rect_item("tooltip", None, None))
        else:
            _text, x, y = tip
            w = self._tooltip_width()
            items.append(damage.rect_item("tooltip", tip, (x - w / 2 - 2, y - 14, x + w / 2 + 2, y + 14)))
        return items

    def draw_scene(self) -> None:
        pass

    def _chrome_key(self) -> tuple:
        return tuple((b.rect, b.hover, b.enabled, i == self.focus, b.label, id(b.icon),
                      b.icon_texture()) for i, b in enumerate(self.buttons))

    def _build_chrome(self) -> None:
        """All buttons as three draw calls (shapes, icons, texts), rebuilt on change."""
        import pyglet
        from arcade import shape_list as sh

        shapes = sh.ShapeElementList()
        icons = arcade.SpriteList()
        batch = pyglet.graphics.Batch()
        texts = []
        for i, b in enumerate(self.buttons):
            cx, cy, w, h = b.rect
            colour = BUTTON_HOVER if (b.hover and b.enabled) else BUTTON
            shapes.append(sh.create_rectangle_filled(cx, cy, w, h, (*colour, 235 if b.enabled else 110)))
            focused = i == self.focus
            edge = BUTTON_FOCUS if focused else (200, 190, 150, 160 if b.enabled else 60)
            shapes.append(sh.create_rectangle_outline(cx, cy, w, h, edge, 3 if focused else 1))
            tex = b.icon_texture()
            if tex is not None:
                sp = arcade.Sprite(tex, min(w, h) * 0.8 / max(tex.width, tex.height), cx, cy)
                sp.alpha = 255 if b.enabled else 90
                icons.append(sp)
            if b.label:
                texts.append(arcade.Text(b.label, cx, cy, INK if b.enabled else (150, 150, 140),
                                         b.text.font_size, anchor_x="center", anchor_y="center",
                                         font_name=FONT, bold=True, batch=batch))
        self._chrome = (shapes, icons, batch, texts)

    def draw_buttons(self) -> None:
        key = self._chrome_now if self._chrome_now is not None else self._chrome_key()
        if getattr(self, "_chrome_cache_key", None) != key:
            self._build_chrome()
            self._chrome_cache_key = key
        shapes, icons, batch, _texts = self._chrome
        if self.reaches(*(("button", i) for i in range(len(self.buttons)))):
            shapes.draw()
            icons.draw()
            batch.draw()
        if self._place_tooltip() is not None:
            x, y = self.tooltip.x, self.tooltip.y
            w = self._tooltip_width()
            arcade.draw_lbwh_rectangle_filled(x - w / 2, y - 12, w, 24, (0, 0, 0, 220))
            self.tooltip.draw()

    def _place_tooltip(self) -> tuple[str, float, float] | None:
        """Set the tooltip up for the hovered button; returns (text, x, y), or None."""
        for b in self.buttons:
            if b.hover and b.tooltip:
                cx, cy, _w, h = b.rect
                x = max(150, min(WIDTH - 150, cx))
                y = cy - h / 2 - 14 if cy > HEIGHT / 2 else cy + h / 2 + 14
                if (self.tooltip.text, self.tooltip.x, self.tooltip.y) != (b.tooltip, x, y):
                    self.tooltip.text = b.tooltip
                    self.tooltip.x, self.tooltip.y = x, y
                return b.tooltip, x, y
        return None

    def _tooltip_width(self) -> float:
        return self.tooltip.content_width + 16

    # --- input ----------------------------------------------------------------------

    def on_mouse_motion(self, x: float, y: float, dx: float, dy: float) -> None:
        lx, ly = self.logical(x, y)
        for b in self.buttons:
            b.hover = b.contains(lx, ly)
        self.on_logical_motion(lx, ly)

    def on_logical_motion(self, x: float, y: float) -> None:
        pass

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        lx, ly = self.logical(x, y)
        for i, b in enumerate(self.buttons):
            if b.contains(lx, ly):
                self.focus = i
                if b.press():
                    return
                return
        self.on_click(lx, ly, button)

    def on_click(self, x: float, y: float, button: int) -> None:
        pass

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        k = arcade.key
        if symbol == k.F11:
            self.window.set_fullscreen(not self.window.fullscreen)
            return True
        if self.buttons:
            if symbol in (k.TAB, k.DOWN, k.RIGHT) and not (symbol == k.TAB and modifiers & k.MOD_SHIFT):
                self.move_focus(1)
                return True
            if symbol in (k.UP, k.LEFT) or (symbol == k.TAB and modifiers & k.MOD_SHIFT):
                self.move_focus(-1)
                return True
            if symbol in (k.ENTER, k.RETURN, k.SPACE, k.NUM_ENTER) and 0 <= self.focus < len(self.buttons):
                self.buttons[self.focus].press()
                return True
        if symbol == k.ESCAPE:
            self.on_back()
            return True
        return None

    def move_focus(self, step: int) -> None:
        n = len(self.buttons)
        if not n:
            return
        i = self.focus
        for _ in range(n):
            i = (i + step) % n if i >= 0 else (0 if step > 0 else n - 1)
            if self.buttons[i].enabled:
                self.focus = i
                return

    def on_back(self) -> None:
        pass
