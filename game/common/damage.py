"""Damage rectangles: redraw only the parts of the table that changed.

On a software renderer (Mesa's llvmpipe, what a machine without a GPU has) a
frame's cost is the pixels it fills: clearing and drawing the whole 1280x720
table costs 4-9 ms whatever moves.  Most frames move one card, so a view that
can describe what it draws redraws only the rectangles that changed since the
last frame, scissored, over a picture kept from frame to frame.

A view lists its drawables as *items* ``(ident, key, obj, rect_of)``: ``ident``
names the drawable from frame to frame, ``key`` is everything about it that
affects its pixels (position, texture, colour, text, draw order...), and
``rect_of(obj)`` gives its bounds ``(left, bottom, right, top)`` in logical
coordinates, or None when it draws nothing.  ``rect_of`` is only called when
the key changed, so a key must determine the rectangle.

:meth:`Damage.update` compares the items with the last frame's and returns the
rectangles to redraw: the old and the new bounds of each item that changed,
appeared or went away, merged into at most ``max_rects``; ``[]`` when nothing
changed; None when the whole picture must be drawn (the first frame, after
:meth:`Damage.invalidate`, or when the damage covers most of the screen anyway).

Redrawing a rectangle means clearing it and drawing, in order, every drawable
that reaches it, with the scissor box set to it; OpenGL's rasterisation does
not depend on the scissor box, so the picture is the same, pixel for pixel, as
a full redraw.  A draw call is skipped only when the items it draws all miss
the pass's scissor box (:meth:`Damage.shows`, with the bounds already worked
out; the box in logical units, rounding included, :func:`to_logical`).
``tests/test_damage.py`` checks the equality over a whole deal, every control
of the practice table and the theatre.

Where the picture is kept between frames (:func:`redraw_mode`):

``retained``  the EGL pbuffer of ``ARCADE_HEADLESS`` keeps its pixels (a
              pbuffer has no front buffer to swap with); so does the back
              buffer of an X window on a software renderer that shows its
              frames by copying rectangles (:class:`SubBufferPresenter`);
``fbo``       asked for (``TAROCCHI_REDRAW``): the picture is kept in an
              offscreen framebuffer and copied to the window each frame (the
              copy costs 3-4 ms on llvmpipe: its p95 is worse than ``full``);
``full``      any other window: on a GPU a whole redraw costs nothing.

A window whose framebuffer is not its size (a HiDPI pixel ratio) draws whole.
``TAROCCHI_REDRAW=full`` draws every frame whole, ``=damage`` redraws in pieces
even on a GPU, ``=fbo`` keeps the picture offscreen even where the back buffer
could keep it (headless too: to measure what that costs).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Hashable, Iterable
from typing import Any, Literal

import arcade

Rect = tuple[float, float, float, float]  # left, bottom, right, top
#: (ident, key, the drawable, its bounds from the drawable): the drawable's type is
#: the bounds function's to know
Item = tuple[Hashable, Hashable, Any, Callable[[Any], "Rect | None"]]

# A pass over every drawable costs about as much as filling this many pixels
# (0.35-0.45 ms of draw calls for a small pass, against 5-8 ns a pixel on llvmpipe;
# measured on 2 cores).
PASS_COST = 70_000.0
WHOLE = 0.85  # damage costing this share of a whole redraw is drawn whole
SPRITE_PAD = 2.0  # logical pixels around a sprite (rounding, linear sampling)
TEXT_PAD = 4.0  # around a text's layout box (glyph overhang, hinting)


# --- items ---------------------------------------------------------------------------


def sprite_key(s: arcade.Sprite) -> tuple[Hashable, ...]:
    """What decides a sprite's pixels; ``z`` is the draw order of a card sprite.

    Read from arcade's slots (arcade is pinned): the public ``color`` builds a
    new Color on every read, and this runs for every sprite on every frame.
    """
    return (s._visible, id(s._texture), s._position, s._angle, s._scale, s._color,
            getattr(s, "z", 0.0))


def sprite_rect(s: arcade.Sprite) -> Rect | None:
    if not s.visible or s.color[3] == 0:
        return None
    w, h = s.width, s.height
    a = math.radians(s.angle)
    c, si = abs(math.cos(a)), abs(math.sin(a))
    hw = (w * c + h * si) / 2 + SPRITE_PAD
    hh = (w * si + h * c) / 2 + SPRITE_PAD
    return s.center_x - hw, s.center_y - hh, s.center_x + hw, s.center_y + hh


def sprite_items(sprites: Iterable[arcade.Sprite]) -> Iterable[Item]:
    for s in sprites:
        yield id(s), sprite_key(s), s, sprite_rect


def text_key(t: arcade.Text) -> tuple[Hashable, ...]:
    lb = t.label  # the pyglet label: its properties are plain reads
    return (lb.text, lb.x, lb.y, lb.color, lb.font_size, lb.weight, lb.anchor_x, lb.anchor_y)


def text_rect(t: arcade.Text) -> Rect | None:
    if not t.text:
        return None
    return t.left - TEXT_PAD, t.bottom - TEXT_PAD, t.right + TEXT_PAD, t.top + TEXT_PAD


def text_item(t: arcade.Text, ident: Hashable = None) -> Item:
    """A text (an empty one draws nothing)."""
    return (id(t) if ident is None else ident), text_key(t), t, text_rect


def rect_item(ident: Hashable, key: Hashable, rect: Rect | None) -> Item:
    """A drawable whose bounds are known up front (a panel, a highlight)."""
    return ident, key, rect, _itself


def _itself(rect: Rect | None) -> Rect | None:
    return rect


def meets(clip: Rect | None, rect: Rect | None) -> bool:
    """Whether a drawable with bounds ``rect`` shows in a pass clipped to ``clip``.

    A pass over one damaged rectangle skips the draw calls that cannot reach it
    (each costs its own fixed time); ``clip`` None is a whole redraw.
    """
    if clip is None:
        return True
    return rect is not None and rect[0] < clip[2] and clip[0] < rect[2] and \
        rect[1] < clip[3] and clip[1] < rect[3]


def mapped(items: Iterable[Item], fn: Callable[[Rect], Rect]) -> list[Item]:
    """Items whose rectangles are mapped by ``fn`` (drawn through another camera)."""
    wrapped: dict[Callable[[Any], Rect | None], Callable[[Any], Rect | None]] = {}
    out: list[Item] = []
    for ident, key, obj, rect_of in items:
        w = wrapped.get(rect_of)
        if w is None:
            w = wrapped[rect_of] = _mapped_rect(rect_of, fn)
        out.append((ident, key, obj, w))
    return out


def _mapped_rect(rect_of: Callable[[Any], Rect | None], fn: Callable[[Rect], Rect]) -> Callable[[Any], Rect | None]:
    def w(o: Any) -> Rect | None:
        r = rect_of(o)
        return None if r is None else fn(r)

    return w


# --- the tracker ---------------------------------------------------------------------


def _area(r: Rect) -> float:
    return max(0.0, r[2] - r[0]) * max(0.0, r[3] - r[1])


def _union(a: Rect, b: Rect) -> Rect:
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])


def _clip(r: Rect, bounds: Rect) -> Rect | None:
    out = max(r[0], bounds[0]), max(r[1], bounds[1]), min(r[2], bounds[2]), min(r[3], bounds[3])
    return out if out[2] > out[0] and out[3] > out[1] else None


def merge(rects: list[Rect], pass_cost: float, max_rects: int) -> list[Rect]:
    """Fewer, larger rectangles covering ``rects``, at the least cost to draw.

    Each rectangle is a pass over every drawable (``pass_cost``: its draw calls,
    counted in the pixels that would fill in the same time) and fills its area.
    The pair whose union adds the fewest pixels is merged while that costs less
    than the pass it saves, then until at most ``max_rects`` are left.
    """
    rs: list[Rect] = []
    for r in rects:  # first each into the nearest kept rectangle: O(n) for many moves
        best = None
        area_r = _area(r)
        for i, o in enumerate(rs):
            grow = _area(_union(o, r)) - _area(o) - area_r
            if best is None or grow < best[0]:
                best = (grow, i)
        if best is not None and (best[0] < pass_cost or len(rs) >= 8):
            rs[best[1]] = _union(rs[best[1]], r)
        else:
            rs.append(r)
    while len(rs) > 1:
        pair: tuple[float, int, int] | None = None
        for i in range(len(rs)):
            a = rs[i]
            area_a = _area(a)
            for j in range(i + 1, len(rs)):
                grow = _area(_union(a, rs[j])) - area_a - _area(rs[j])
                if pair is None or grow < pair[0]:
                    pair = (grow, i, j)
        assert pair is not None  # two rectangles at least
        grow, i, j = pair
        if grow >= pass_cost and len(rs) <= max_rects:
            break
        rs[i] = _union(rs[i], rs[j])
        del rs[j]
    return rs


class Damage:
    """Which rectangles of the picture changed since the last frame (see the module)."""

    def __init__(self, bounds: Rect, pass_cost: float = PASS_COST, max_rects: int = 3) -> None:
        self.bounds = bounds
        self.pass_cost = pass_cost
        self.max_rects = max_rects
        self._prev: dict[Hashable, tuple[Hashable, Rect | None]] | None = None

    def rect(self, ident: Hashable) -> Rect | None:
        """The bounds of an item as of the last :meth:`update` (None: draws nothing)."""
        entry = self._prev.get(ident) if self._prev is not None else None
        return entry[1] if entry is not None else None

    def shows(self, clip: Rect | None) -> Callable[[Hashable], bool]:
        """Whether an item (by ident) reaches ``clip``: a cheap test for each pass."""
        if clip is None:
            return lambda _ident: True
        return lambda ident: meets(clip, self.rect(ident))

    def invalidate(self) -> None:
        """The kept picture is gone (first frame, resize, another view drew): draw it all."""
        self._prev = None

    def update(self, items: Iterable[Item]) -> list[Rect] | None:
        prev = self._prev
        cur: dict[Hashable, tuple[Hashable, Rect | None]] = {}
        dirty: list[Rect] = []
        if prev is None:
            for ident, key, obj, rect_of in items:
                cur[ident] = (key, rect_of(obj))
            self._prev = cur
            return None
        for ident, key, obj, rect_of in items:
            old = prev.pop(ident, None)
            if old is not None and old[0] == key:
                cur[ident] = old
                continue
            rect = rect_of(obj)
            cur[ident] = (key, rect)
            if rect is not None:
                dirty.append(rect)
            if old is not None and old[1] is not None:
                dirty.append(old[1])
        for _key, rect in prev.values():  # drawn last frame, gone now
            if rect is not None:
                dirty.append(rect)
        self._prev = cur
        clipped = [c for c in (_clip(r, self.bounds) for r in dirty) if c is not None]
        if not clipped:
            return []
        rects = merge(clipped, self.pass_cost, self.max_rects)
        if sum(_area(r) for r in rects) + (len(rects) - 1) * self.pass_cost >= WHOLE * _area(self.bounds):
            return None  # as cheap to draw it all
        return rects


# --- where the picture is kept ----------------------------------------------------------

SOFTWARE_RENDERERS = ("llvmpipe", "softpipe", "swrast", "software rasterizer")
#: where the picture is kept between frames (see the module)
RedrawMode = Literal["retained", "fbo", "full"]


def redraw_mode(window: arcade.Window) -> RedrawMode:
    """``retained``, ``fbo`` or ``full`` for this window (see the module)."""
    cached: RedrawMode | None = getattr(window, "_tarocchi_redraw_mode", None)
    if cached is not None:
        return cached
    choice = os.environ.get("TAROCCHI_REDRAW", "").strip().lower()
    headless = any(c.__module__.startswith("pyglet.window.headless") for c in type(window).__mro__)
    mode: RedrawMode
    if choice == "full":
        mode = "full"
    elif headless:
        mode = "fbo" if choice == "fbo" else "retained"
    else:
        renderer = ""
        try:
            renderer = str(window.ctx.info.RENDERER).lower()
        except Exception:  # noqa: BLE001 - no info: assume a GPU
            pass
        software = any(r in renderer for r in SOFTWARE_RENDERERS)
        # A window's back buffer is undefined after a swap: kept offscreen, the
        # picture costs a whole copy a frame (3-4 ms on llvmpipe: p95 worse than
        # drawing it whole), so only a window that never swaps redraws in pieces
        # unless asked to.
        mode = "fbo" if choice in ("damage", "fbo") else "full"
        if choice != "fbo" and (software or choice == "damage") and getattr(window, "presents_rects", False) \
                and presenter(window):
            mode = "retained"  # the back buffer is never swapped: see SubBufferPresenter
    window._tarocchi_redraw_mode = mode
    return mode


class SubBufferPresenter:
    """Shows rectangles of the back buffer in an X window (GLX_MESA_copy_sub_buffer).

    A buffer swap leaves the back buffer undefined, so a window that swaps
    must keep its picture elsewhere and copy all of it each frame (``fbo``:
    3 ms on llvmpipe).  Mesa's software GLX instead copies any rectangle of the
    back buffer to the window: the window never swaps, the back buffer keeps
    the picture, and a frame shows just the rectangles it redrew.
    """

    NAME = b"glXCopySubBufferMESA"

    def __init__(self, context: Any, fn: Callable[..., None]) -> None:
        self.context = context
        self.fn = fn

    @classmethod
    def for_window(cls, window: arcade.Window) -> SubBufferPresenter | None:
        """The presenter for ``window``, or None where the extension is missing."""
        import ctypes

        try:
            from pyglet.gl import glx

            context: Any = window.context  # pyglet's XlibContext here (GLX), else the except below
            if not context.config.glx_info.have_extension("GLX_MESA_copy_sub_buffer"):
                return None
            name = ctypes.cast(ctypes.c_char_p(cls.NAME), ctypes.POINTER(ctypes.c_ubyte))
            addr = glx.glXGetProcAddressARB(name)  # type: ignore[has-type]  # pyglet binds it at run time
            if not addr:
                return None
            proto = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int,
                                     ctypes.c_int, ctypes.c_int)
            fn = proto(ctypes.cast(addr, ctypes.c_void_p).value)  # type: ignore[arg-type]  # addr is not null
            context.x_display, context.glx_window  # noqa: B018 - both must exist
        except Exception:  # noqa: BLE001 - not GLX (EGL, Wayland, Windows, macOS)
            return None
        return cls(context, fn)

    def present(self, boxes: Iterable[tuple[int, int, int, int]]) -> None:
        """Show ``boxes`` (``x, y, w, h`` framebuffer pixels) of the back buffer."""
        ctx = self.context
        if not ctx.glx_window:
            return
        for x, y, w, h in boxes:
            self.fn(ctx.x_display, ctx.glx_window, int(x), int(y), int(w), int(h))


def presenter(window: arcade.Window) -> SubBufferPresenter | None:
    """The window's :class:`SubBufferPresenter`, made once, or None."""
    if not hasattr(window, "_tarocchi_presenter"):
        window._tarocchi_presenter = SubBufferPresenter.for_window(window)
    found: SubBufferPresenter | None = window._tarocchi_presenter
    return found


def to_logical(box: tuple[int, int, int, int], viewport: tuple[int, int, int, int],
               logical: tuple[int, int]) -> Rect:
    """A scissor box ``(x, y, w, h)`` back in logical units: the clip of its pass."""
    vx, vy, vw, vh = viewport
    sx, sy = vw / logical[0], vh / logical[1]
    x, y, w, h = box
    return (x - vx) / sx, (y - vy) / sy, (x + w - vx) / sx, (y + h - vy) / sy


def to_pixels(rect: Rect, viewport: tuple[int, int, int, int], logical: tuple[int, int],
              limit: tuple[int, int]) -> tuple[int, int, int, int] | None:
    """A logical rectangle as a scissor box ``(x, y, w, h)`` of framebuffer pixels.

    Rounded outwards, one pixel more on each side, and kept inside the viewport.
    """
    vx, vy, vw, vh = viewport
    sx, sy = vw / logical[0], vh / logical[1]
    x0 = max(vx, math.floor(vx + rect[0] * sx) - 1)
    y0 = max(vy, math.floor(vy + rect[1] * sy) - 1)
    x1 = min(vx + vw, limit[0], math.ceil(vx + rect[2] * sx) + 1)
    y1 = min(vy + vh, limit[1], math.ceil(vy + rect[3] * sy) + 1)
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, y0, x1 - x0, y1 - y0
