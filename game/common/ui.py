"""Small UI pieces shared by the views: a letterboxed base view and buttons.

Every view draws in logical 1280x720 coordinates through a camera whose
viewport is the 16:9 letterbox of the window; mouse positions are mapped back
with :func:`game.common.layout.to_logical`.  Buttons work with the mouse (hover,
click) and the keyboard (Tab / arrows move the focus, Enter or Space press).

Every view is drawn over a *backdrop* (:meth:`BaseView.backdrop_key`): the lit
felt and whatever of the view never moves, painted once with Pillow
(:mod:`game.common.paint`) into a texture at the window's size and copied under each
frame, or under each damaged rectangle, texel for texel (:meth:`Backdrop.copy_to`).
The copy fills the damaged pixels once, as the clear it replaces did, at
about 3-4 ns a pixel on llvmpipe: a partial frame pays a fraction of a
millisecond for a textured, lit table, a whole redraw about 3 ms.

One button style everywhere (:class:`Button`): a rounded, softly lit panel
(:func:`game.common.paint.panel`) whose label is fitted to it by measuring (a long
French or Italian label is set smaller rather than spilling out); a disabled
button is flat and dim, its label grey.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any

import arcade
from arcade.types import LBWH, LRBT

if TYPE_CHECKING:
    from arcade.context import ArcadeContext
    from arcade.gl import Context, Framebuffer, Geometry, Program
    from PIL import Image

from game.common import damage, layout
from game.common.constants import FONT, GOLD, HEIGHT, INK, WIDTH

DISABLED_INK = (150, 150, 140)
TIP_H = 24  # a tooltip's height
BUTTON_PAD = 3  # the button's picture reaches this far round its rect (its shadow)
MIN_FONT = 9  # a label is never fitted smaller than this


# --- painted pictures, made once ---------------------------------------------------------

_PICTURES: dict[tuple[Hashable, ...], arcade.Texture] = {}


def picture(key: tuple[Hashable, ...], make: Callable[[], Image.Image]) -> arcade.Texture:
    """The texture of a painted picture (``make()`` returns a PIL image), made once."""
    tex = _PICTURES.get(key)
    if tex is None:
        tex = arcade.Texture(make(), hash="paint:" + ":".join(map(str, key)))
        _PICTURES[key] = tex
    return tex


def button_style(enabled: bool, hover: bool, focused: bool) -> str:
    if not enabled:
        return "button-off"
    if hover:
        return "button-hover"
    return "button-focus" if focused else "button"


def button_picture(w: float, h: float, style: str) -> arcade.Texture:
    """A button's panel, ``BUTTON_PAD`` larger on each side than its rect (its shadow)."""
    from game.common import paint

    w, h = round(w), round(h)
    radius = min(9.0, h / 4)
    return picture(("button", w, h, style), lambda: paint.panel(
        w, h, style, radius=radius, edge_width=2.0 if style == "button-focus" else 1.0,
        shadow=0 if style == "button-off" else 110, margin=BUTTON_PAD))


def panel_picture(w: float, h: float, style: str = "panel", radius: float = 8.0) -> arcade.Texture:
    """A panel (status line, banner, dialog, tooltip) of whole pixels, no margin."""
    from game.common import paint

    w, h = max(2, round(w)), max(2, round(h))
    return picture(("panel", w, h, style, radius), lambda: paint.panel(w, h, style, radius=radius))


def draw_panel(box: tuple[float, float, float, float], style: str = "panel", radius: float = 8.0) -> None:
    """Draw a panel over ``box`` (left, bottom, width, height) in the one panel style:
    for a box of a fixed size (a texture is painted for each size: see :class:`Pill`
    for a line of text whose width changes)."""
    x, y, w, h = box
    tex = panel_picture(w, h, style, radius)
    arcade.draw_texture_rect(tex, LBWH(x + (w - tex.width) / 2, y + (h - tex.height) / 2, tex.width,
                                       tex.height))


class Pill:
    """A one-line panel of any width (the status line, a banner, a tooltip): two
    painted ends and a stretched middle, three sprites, so a new width costs no new
    picture (painting one costs milliseconds)."""

    def __init__(self, h: int, style: str = "status", radius: float | None = None) -> None:
        from game.common import paint

        self.h = h
        r = h / 2 if radius is None else radius
        self.end = end = int(r) + 2
        w0 = 2 * end + 2

        def part(name: str, box: tuple[int, int, int, int]) -> Callable[[], Image.Image]:
            return lambda: paint.panel(w0, h, style, radius=r).crop(box)

        key = ("pill", h, style, r)
        self.parts = (picture((*key, "left"), part("left", (0, 0, end, h))),
                      picture((*key, "middle"), part("middle", (end, 0, end + 2, h))),
                      picture((*key, "right"), part("right", (w0 - end, 0, w0, h))))
        self.sprites: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        for tex in self.parts:
            self.sprites.append(arcade.Sprite(tex))
        self._box: tuple[float, float, float, float] | None = None

    def place(self, box: tuple[float, float, float, float]) -> None:
        """Lay the pill over ``box`` (left, bottom, width, height; the height is its own)."""
        if box == self._box:
            return
        self._box = box
        x, y, w, _h = box
        end = self.end
        w = max(w, 2 * end + 1)
        cy = y + self.h / 2
        left, middle, right = self.sprites
        left.position = (x + end / 2, cy)
        middle.position = (x + w / 2, cy)
        middle.width = w - 2 * end
        right.position = (x + w - end / 2, cy)

    def draw(self, box: tuple[float, float, float, float]) -> None:
        self.place(box)
        self.sprites.draw()


def fit_font(text: arcade.Text, width: float, size: float, smallest: float = MIN_FONT) -> None:
    """Set ``text`` at ``size``, or smaller until it is at most ``width`` wide.

    A text's width grows about as its size: the size is guessed from the width at
    the present size, then checked, so a changed text is laid out once or twice."""
    if not text.text:
        return
    cur = text.font_size
    wc = text.content_width
    if wc <= width and (cur >= size or wc * (cur + 1) / cur > width):
        return
    guess = max(smallest, min(size, int(cur * width / max(wc, 1.0))))
    if guess != cur:
        text.font_size = guess
    while text.content_width > width and text.font_size > smallest:
        text.font_size = text.font_size - 1


class Button:
    """A button: a label or an icon in a rect ``(centre x, centre y, width, height)``."""

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
        self._rect = rect
        self.action = action
        self.icon = icon
        self.tooltip = tooltip
        self.enabled = enabled
        self.hover = False
        self.font_size = font_size  # asked for; the label is fitted, maybe smaller
        cx, cy, _w, _h = rect
        self.text = arcade.Text(label, cx, cy, INK, font_size, anchor_x="center",
                                anchor_y="center", font_name=FONT, bold=True)
        self._fit()
        self._icon_list: arcade.SpriteList[arcade.Sprite] | None = None
        if icon is not None:
            self._icon_list = arcade.SpriteList()
            s = arcade.Sprite(icon, min(rect[2], rect[3]) * 0.8 / max(icon.width, icon.height), cx, cy)
            self._icon_list.append(s)

    def _fit(self) -> None:
        """The label at the asked size, or smaller until it fits inside the button."""
        _cx, _cy, w, h = self._rect
        fit_font(self.text, w - 2 * max(8.0, min(14.0, h * 0.3)), self.font_size)

    def label_fits(self) -> bool:
        """Whether the label lies inside the button (padding included)."""
        _cx, _cy, w, h = self._rect
        return self.text.content_width <= w - 2 * max(8.0, min(14.0, h * 0.3)) + 0.5 and \
            self.text.content_height <= h

    @property
    def rect(self) -> tuple[float, float, float, float]:
        return self._rect

    @rect.setter
    def rect(self, rect: tuple[float, float, float, float]) -> None:
        if rect == self._rect:
            return
        width_changed = rect[2:] != self._rect[2:]
        self._rect = rect
        self.text.x, self.text.y = rect[0], rect[1]
        if width_changed:
            self._fit()

    def icon_texture(self) -> arcade.Texture | None:
        if self._icon_list is not None and len(self._icon_list):
            return self._icon_list[0].texture
        return None

    @property
    def label(self) -> str:
        return self.text.text

    @label.setter
    def label(self, v: str) -> None:
        if v != self.text.text:
            self.text.text = v
            self._fit()

    def contains(self, x: float, y: float) -> bool:
        return layout.in_rect(x, y, self.rect)

    def press(self) -> bool:
        if self.enabled and self.action is not None:
            self.action()
            return True
        return False

    def draw(self, focused: bool = False) -> None:
        """Draw the button alone (views draw their :attr:`BaseView.buttons` in one go)."""
        cx, cy, w, h = self.rect
        tex = button_picture(w, h, button_style(self.enabled, self.hover, focused))
        arcade.draw_texture_rect(tex, LBWH(cx - tex.width / 2, cy - tex.height / 2, tex.width, tex.height))
        if self._icon_list is not None:
            for s in self._icon_list:
                s.alpha = 255 if self.enabled else 90
            self._icon_list.draw()
        if self.text.text:
            colour = INK if self.enabled else DISABLED_INK
            if tuple(self.text.color[:3]) != colour:
                self.text.color = colour
            self.text.draw()


def _present(window: arcade.Window, boxes: list[tuple[int, int, int, int]] | None) -> None:
    """Tell the window what this frame redrew (None: everything), if it can show parts."""
    add = getattr(window, "add_present_boxes", None)
    if add is not None:
        add(boxes)


def typed_line_key(symbol: int, typed: str) -> tuple[str, str]:
    """A key on a line being typed (a deal number, a table's code, an address):
    ``("enter" | "cancel" | "edit", the text after it)``; every other key is
    swallowed (``("", typed)``) so it does not reach the screen's shortcuts."""
    k = arcade.key
    if symbol in (k.ENTER, k.RETURN, k.NUM_ENTER):
        return "enter", typed
    if symbol == k.ESCAPE:
        return "cancel", ""
    if symbol == k.BACKSPACE:
        return "edit", typed[:-1]
    return "", typed


def button_bounds(rect: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """A button's bounds (left, bottom, right, top) with its shadow (``BUTTON_PAD``),
    rounded out to whole pixels as its picture is."""
    cx, cy, w, h = rect
    hw, hh = round(w) / 2 + BUTTON_PAD + 1, round(h) / 2 + BUTTON_PAD + 1
    return cx - hw, cy - hh, cx + hw, cy + hh


# --- the backdrop ----------------------------------------------------------------------

BACKDROPS_KEPT = 3  # per window: the menu's, the table's, the theatre's


class Backdrop:
    """A view's backdrop: a picture the size of the window's framebuffer, in a
    texture, copied under each frame (see the module).  The letterbox bars are
    black in it."""

    def __init__(self, ctx: ArcadeContext, size: tuple[int, int], image: Image.Image) -> None:
        from PIL import Image

        self.size = size
        self.kept = True  # still among the window's backdrops (window_backdrop)
        full = Image.new("RGBA", size, (0, 0, 0, 255))
        vx, vy, vw, vh = layout.letterbox(*size)
        if image.size != (vw, vh):
            image = image.resize((vw, vh), Image.Resampling.LANCZOS)
        full.paste(image, (vx, size[1] - vy - vh))
        data = full.transpose(Image.Transpose.FLIP_TOP_BOTTOM).tobytes()
        self.texture = ctx.texture(size, components=4, data=data)

    def copy_to(self, target: Framebuffer, box: tuple[int, int, int, int] | None = None) -> None:
        """Copy ``box`` (x, y, w, h framebuffer pixels; None: all) onto ``target``,
        the active framebuffer.

        A quad over the box whose every fragment fetches its own texel of the
        backdrop (no filtering, no blending): the same pixels whether a frame is
        drawn whole or in pieces.  Not a framebuffer blit: on llvmpipe a blit
        waits for everything drawn before it (up to 16 ms seen), a draw does not.
        The viewport and the scissor box are left to the camera that draws next
        (its ``activate`` sets both); blending is put back on.
        """
        from pyglet import gl

        ctx = target.ctx
        prog, geo = _copy_program(ctx)
        x, y, w, h = box if box is not None else (0, 0, *self.size)
        gl.glViewport(0, 0, *self.size)
        gl.glScissor(int(x), int(y), int(w), int(h))
        # cleared first: llvmpipe then starts the box's tiles afresh instead of
        # loading them (the copy alone costs as much again as copy and clear)
        gl.glClearColor(0.0, 0.0, 0.0, 1.0)
        gl.glClear(gl.GL_COLOR_BUFFER_BIT)
        ctx.disable(ctx.BLEND)  # type: ignore[no-untyped-call]  # arcade.gl leaves it unannotated
        self.texture.use(0)
        geo.render(prog)
        ctx.enable(ctx.BLEND)


_COPY_VS = """#version 330
in vec2 in_vert;
void main() { gl_Position = vec4(in_vert, 0.0, 1.0); }
"""
_COPY_FS = """#version 330
uniform sampler2D picture;
out vec4 colour;
void main() { colour = texelFetch(picture, ivec2(gl_FragCoord.xy), 0); }
"""


def _copy_program(ctx: Context) -> tuple[Program, Geometry]:
    """The program and the quad that copy a backdrop, made once per context."""
    got: tuple[Program, Geometry] | None = getattr(ctx, "_tarocchi_copy", None)
    if got is None:
        import array

        prog = ctx.program(vertex_shader=_COPY_VS, fragment_shader=_COPY_FS)
        buf = ctx.buffer(data=array.array("f", [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0]))
        geo = ctx.geometry([arcade.gl.BufferDescription(buf, "2f", ["in_vert"])], mode=ctx.TRIANGLE_STRIP)
        got = (prog, geo)
        ctx._tarocchi_copy = got  # type: ignore[attr-defined]  # kept on the context it belongs to
    return got


def window_backdrop(view: BaseView, key: Hashable) -> Backdrop:
    """The window's backdrop for ``key`` at its framebuffer size, painted by
    ``view.paint_backdrop`` when it is not kept yet (the last few are kept)."""
    window = view.window
    size = window.get_framebuffer_size()
    kept: OrderedDict[tuple[Hashable, tuple[int, int]], Backdrop] = window.__dict__.setdefault(
        "_tarocchi_backdrops", OrderedDict())
    full_key = (key, size)
    bd = kept.get(full_key)
    if bd is not None:
        kept.move_to_end(full_key)
        return bd
    vw, vh = layout.letterbox(*size)[2:]
    bd = Backdrop(window.ctx, size, view.paint_backdrop((vw, vh)))
    kept[full_key] = bd
    while len(kept) > BACKDROPS_KEPT:
        kept.popitem(last=False)[1].kept = False
    return bd


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
        self._damage_state: tuple[Hashable, ...] | None = None
        self.last_damage: list[damage.Rect] | None = None  # the rectangles redrawn last frame (None: all)
        # whether an item (by its ident in damage_items) reaches the rectangle being
        # redrawn (None: the frame is drawn whole); see reaches()
        self.shows: Callable[[Hashable], bool] | None = None
        self._chrome_now: tuple[Hashable, ...] | None = None  # the buttons' key, once a frame
        self._chrome: tuple[arcade.SpriteList[arcade.Sprite], arcade.SpriteList[arcade.Sprite], Any,
                            list[arcade.Text]] | None = None
        self._chrome_cache_key: tuple[Hashable, ...] | None = None
        self._tip_pill: Pill | None = None
        self._backdrop_now: tuple[Hashable, tuple[int, int], Backdrop] | None = None
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
        """Draw the frame: whole, or only its damaged rectangles (``game.common.damage``)."""
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
        fb_size = window.get_framebuffer_size()
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
        bd = self._backdrop()
        state = (mode, w, h, fb_size, id(target), self.picture_key(), id(bd))
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
            boxes: list[tuple[int, int, int, int]] = []
            with target.activate():
                for r in rects:
                    box = damage.to_pixels(r, viewport, (WIDTH, HEIGHT), target.size)
                    if box is None:
                        continue
                    boxes.append(box)
                    if bd is not None:
                        bd.copy_to(target, box)
                    else:
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

    def _draw_whole(self, target: Framebuffer) -> None:
        # The background is the backdrop, copied (Backdrop.copy_to: about 3 ms at
        # 720p on llvmpipe, a clear 1 ms), or for a view without one a clear of the
        # letterbox.  The default framebuffer takes window coordinates and scales
        # them by the pixel ratio.
        w, h = self.window.get_size()
        left, bottom, vw, vh = layout.letterbox(w, h)
        bd = self._backdrop()
        with target.activate():
            target.viewport = (0, 0, w, h)
            target.scissor = None
            if bd is not None:
                bd.copy_to(target)
            elif (vw, vh) == (w, h):  # no bars: one full clear
                target.clear(color=self.background)
            else:
                target.clear(color=(0, 0, 0))
                target.clear(color=self.background, viewport=(left, bottom, vw, vh))
            with self.camera.activate():
                self.draw_scene()
                self.draw_buttons()

    def _offscreen(self) -> Framebuffer:
        """The window's offscreen picture in ``fbo`` mode (one per window, window-sized)."""
        size = self.window.get_framebuffer_size()
        fbo: Framebuffer | None = getattr(self.window, "_tarocchi_fbo", None)
        if fbo is None or fbo.size != size:
            ctx = self.window.ctx
            fbo = ctx.framebuffer(color_attachments=[ctx.texture(size, components=4)])
            self.window._tarocchi_fbo = fbo
        return fbo

    # --- the backdrop ---------------------------------------------------------------

    def backdrop_key(self) -> Hashable | None:
        """What this view's backdrop shows (equal keys: the same picture), or None to
        clear to :attr:`background` instead.  Every view lies on the lit felt."""
        return ("felt",)

    def paint_backdrop(self, size: tuple[int, int]) -> Image.Image:
        """The backdrop at ``size`` pixels (the letterbox), as a PIL image: the felt
        and whatever of the view never moves (drawn here, it is not drawn again)."""
        from game.common import paint

        return paint.felt(size)

    def _backdrop(self) -> Backdrop | None:
        key = self.backdrop_key()
        if key is None:
            return None
        size = self.window.get_framebuffer_size()
        got = self._backdrop_now  # this view's, by identity: no hashing a frame
        if got is not None and got[0] is key and got[1] == size and got[2].kept:
            return got[2]
        bd = window_backdrop(self, key)
        self._backdrop_now = (key, size, bd)
        return bd

    def prepare_frame(self) -> None:
        """Bring the drawables up to date for this frame (before ``damage_items``)."""

    def reaches(self, *idents: Hashable) -> bool:
        """Whether any of these items (idents of ``damage_items``) is to be drawn in
        this pass: all are when the frame is drawn whole."""
        shows = self.shows
        return shows is None or any(shows(i) for i in idents)

    def picture_key(self) -> tuple[Hashable, ...]:
        """What, changed, makes the kept picture useless (e.g. a camera's zoom)."""
        return ()

    def forget_picture(self) -> None:
        """The window's picture was drawn over or cleared elsewhere: draw the next frame whole."""
        self.window._tarocchi_picture = None

    def damage_items(self) -> list[damage.Item] | None:
        """This view's drawables as ``game.common.damage`` items, or None to draw each frame whole.

        A view that lists them must list everything ``draw_scene`` draws; the
        buttons and the tooltip are added by :meth:`chrome_items`.
        """
        return None

    def chrome_items(self) -> list[damage.Item]:
        now = self._chrome_now if self._chrome_now is not None else self._chrome_key()
        items = [damage.rect_item(("button", i), key, button_bounds(b.rect))
                 for i, (b, key) in enumerate(zip(self.buttons, now, strict=True))]
        tip = self._place_tooltip()
        if tip is None:
            items.append(damage.rect_item("tooltip", None, None))
        else:
            _text, x, y = tip
            w = self._tooltip_width()
            items.append(damage.rect_item("tooltip", tip, (x - w / 2 - 2, y - TIP_H / 2 - 2,
                                                           x + w / 2 + 2, y + TIP_H / 2 + 2)))
        return items

    def draw_scene(self) -> None:
        pass

    def _chrome_key(self) -> tuple[Hashable, ...]:
        return tuple((b.rect, b.hover, b.enabled, i == self.focus, b.label, id(b.icon),
                      b.icon_texture()) for i, b in enumerate(self.buttons))

    def _build_chrome(self) -> None:
        """All buttons as three draw calls (panels, icons, texts), rebuilt on change."""
        import pyglet

        panels: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        icons: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        batch = pyglet.graphics.Batch()
        texts: list[arcade.Text] = []
        for i, b in enumerate(self.buttons):
            cx, cy, w, h = b.rect
            panels.append(arcade.Sprite(button_picture(w, h, button_style(b.enabled, b.hover, i == self.focus)),
                                        1.0, cx, cy))
            tex = b.icon_texture()
            if tex is not None:
                sp = arcade.Sprite(tex, min(w, h) * 0.8 / max(tex.width, tex.height), cx, cy)
                sp.alpha = 255 if b.enabled else 90
                icons.append(sp)
            if b.label:
                texts.append(arcade.Text(b.label, cx, cy, INK if b.enabled else DISABLED_INK,
                                         b.text.font_size, anchor_x="center", anchor_y="center",
                                         font_name=FONT, bold=True, batch=batch))
        self._chrome = (panels, icons, batch, texts)

    def draw_buttons(self) -> None:
        key = self._chrome_now if self._chrome_now is not None else self._chrome_key()
        if self._chrome is None or self._chrome_cache_key != key:
            self._build_chrome()
            self._chrome_cache_key = key
        assert self._chrome is not None
        panels, icons, batch, _texts = self._chrome
        if self.reaches(*(("button", i) for i in range(len(self.buttons)))):
            panels.draw()
            icons.draw()
            batch.draw()
        if self._place_tooltip() is not None:
            x, y = self.tooltip.x, self.tooltip.y
            w = self._tooltip_width()
            if self._tip_pill is None:
                self._tip_pill = Pill(TIP_H, "tip", radius=5)
            self._tip_pill.draw((x - w / 2, y - TIP_H / 2, w, TIP_H))
            self.tooltip.draw()

    def _place_tooltip(self) -> tuple[str, float, float] | None:
        """Set the tooltip up for the hovered button; returns (text, x, y), or None.

        Under the button (over it in the lower half of the screen), kept inside the
        screen; views keep the space under their top toolbar free of text."""
        for b in self.buttons:
            if b.hover and b.tooltip:
                cx, cy, _w, h = b.rect
                if self.tooltip.text != b.tooltip:
                    self.tooltip.text = b.tooltip
                half = self._tooltip_width() / 2
                x = max(4 + half, min(WIDTH - 4 - half, cx))
                y = cy - h / 2 - 6 - TIP_H / 2 if cy > HEIGHT / 2 else cy + h / 2 + 6 + TIP_H / 2
                if (self.tooltip.x, self.tooltip.y) != (x, y):
                    self.tooltip.x, self.tooltip.y = x, y
                return b.tooltip, x, y
        return None

    def _tooltip_width(self) -> float:
        return round(self.tooltip.content_width + 16)

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
