"""Pictures painted with Pillow for the table's finish (no arcade, no GPU).

* :func:`backdrop`: the felt (the generated tile repeated), its light (the
  generated light map stretched over the screen) and the marks that never move
  (the ring round the trick and its arrows, the pile mats, the seats' name
  plates), composed once at the window's size.  The views copy it under
  every frame (``game.common.ui``: a framebuffer blit, no dearer than the clear it
  replaces), so a textured, lit table costs no fill.
* soft pictures made once and kept: a card's shadow, a glow, a panel, a button.

Everything is deterministic (no randomness, no fonts): the same size gives the
same pixels, which the damage tests rely on (a partial redraw copies the same
backdrop as a whole one).  Marks are given in logical coordinates (1280x720,
y up) and drawn supersampled, so their edges are smooth.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from game.common import paths
from game.common.constants import HEIGHT, WIDTH

Colour = tuple[int, int, int, int]
SS = 4  # supersampling of the marks

# --- the felt ----------------------------------------------------------------------


@lru_cache(maxsize=1)
def _felt_parts() -> tuple[Image.Image, Image.Image]:
    tile = Image.open(paths.table_path("felt")).convert("RGBA")
    light = Image.open(paths.table_path("light")).convert("RGBA")
    return tile, light


def felt(size: tuple[int, int]) -> Image.Image:
    """The lit felt at ``size`` pixels (RGBA, opaque): the tile at its own scale, the
    light stretched to the whole picture."""
    tile, light = _felt_parts()
    w, h = size
    out = Image.new("RGBA", (w, h))
    tw, th = tile.size
    for y in range(0, h, th):
        for x in range(0, w, tw):
            out.paste(tile, (x, y))
    out.alpha_composite(light.resize((w, h), Image.Resampling.BICUBIC))
    return out


# --- marks -------------------------------------------------------------------------


@dataclass(frozen=True)
class Ring:
    """The ring round the trick, with an arrowhead at each ``arrows`` angle (degrees,
    anticlockwise from the right) pointing the way play goes (anticlockwise)."""

    cx: float
    cy: float
    rx: float
    ry: float
    arrows: tuple[float, ...] = ()
    colour: Colour = (236, 196, 92, 70)
    width: float = 2.0


@dataclass(frozen=True)
class Box:
    """A rounded box (a pile's mat, a seat's plate): ``rect`` is left, bottom, right, top."""

    rect: tuple[float, float, float, float]
    radius: float
    fill: Colour | None = None
    edge: Colour | None = None
    edge_width: float = 1.0
    shadow: int = 0  # alpha of a soft drop shadow under it (0: none)


@dataclass(frozen=True)
class Disc:
    cx: float
    cy: float
    r: float
    fill: Colour | None = None
    edge: Colour | None = None
    edge_width: float = 1.5


Mark = Ring | Box | Disc
#: a point mapped to another plane (the table to the screen, the screen to a patch)
ToPatch = Callable[[float, float], tuple[float, float]]


def mark_bounds(m: Mark) -> tuple[float, float, float, float]:
    """A mark's bounds (left, bottom, right, top) in logical units, its shadow included."""
    if isinstance(m, Ring):
        pad = m.width + 10
        return m.cx - m.rx - pad, m.cy - m.ry - pad, m.cx + m.rx + pad, m.cy + m.ry + pad
    if isinstance(m, Box):
        pad = m.edge_width + (10 if m.shadow else 1)
        left, bottom, right, top = m.rect
        return left - pad, bottom - pad, right + pad, top + pad
    pad = m.edge_width + 1
    return m.cx - m.r - pad, m.cy - m.r - pad, m.cx + m.r + pad, m.cy + m.r + pad


def _arrow(d: ImageDraw.ImageDraw, m: Ring, deg: float, px: ToPatch, s: float) -> None:
    """An arrowhead on the ring at ``deg``, pointing anticlockwise along it."""
    a = math.radians(deg)
    x, y = m.cx + m.rx * math.cos(a), m.cy + m.ry * math.sin(a)
    tx, ty = -m.rx * math.sin(a), m.ry * math.cos(a)  # the tangent, anticlockwise
    n = math.hypot(tx, ty) or 1.0
    tx, ty = tx / n, ty / n
    nx, ny = -ty, tx
    size = 11.0
    tip = (x + tx * size, y + ty * size)
    back = (x - tx * size * 0.6, y - ty * size * 0.6)
    left = (back[0] + nx * size * 0.75, back[1] + ny * size * 0.75)
    right = (back[0] - nx * size * 0.75, back[1] - ny * size * 0.75)
    notch = (x - tx * size * 0.1, y - ty * size * 0.1)
    colour = m.colour[:3] + (min(255, m.colour[3] * 2),)
    d.polygon([px(*tip), px(*left), px(*notch), px(*right)], fill=colour)


def _draw_mark(d: ImageDraw.ImageDraw, m: Mark, px: ToPatch, s: float) -> None:
    """Draw ``m`` where ``px`` maps logical points to the patch and ``s`` logical lengths."""
    if isinstance(m, Ring):
        x0, y1 = px(m.cx - m.rx, m.cy - m.ry)
        x1, y0 = px(m.cx + m.rx, m.cy + m.ry)
        d.ellipse((x0, y0, x1, y1), outline=m.colour, width=max(1, round(m.width * s)))
        for deg in m.arrows:
            _arrow(d, m, deg, px, s)
    elif isinstance(m, Box):
        left, bottom, right, top = m.rect
        x0, y0 = px(left, top)
        x1, y1 = px(right, bottom)
        d.rounded_rectangle((x0, y0, x1, y1), radius=m.radius * s, fill=m.fill, outline=m.edge,
                            width=max(1, round(m.edge_width * s)) if m.edge else 0)
    else:
        x0, y1 = px(m.cx - m.r, m.cy - m.r)
        x1, y0 = px(m.cx + m.r, m.cy + m.r)
        d.ellipse((x0, y0, x1, y1), fill=m.fill, outline=m.edge,
                  width=max(1, round(m.edge_width * s)) if m.edge else 0)


def paint_marks(img: Image.Image, marks: Sequence[Mark], to_screen: ToPatch | None = None,
                zoom: float = 1.0) -> None:
    """Draw ``marks`` on ``img`` (the whole logical screen at ``img.size``), each on a
    supersampled patch of its own.  ``to_screen`` maps a mark's coordinates to the
    logical screen (a zoomed table) and ``zoom`` scales its lengths."""
    w, h = img.size
    sx, sy = w / WIDTH, h / HEIGHT
    for m in marks:
        left, bottom, right, top = mark_bounds(m)
        if to_screen is not None:
            left, bottom = to_screen(left, bottom)
            right, top = to_screen(right, top)
        # the patch in whole pixels of the picture
        px0, py0 = math.floor(left * sx), math.floor((HEIGHT - top) * sy)
        px1, py1 = math.ceil(right * sx), math.ceil((HEIGHT - bottom) * sy)
        px0, py0 = max(0, px0), max(0, py0)
        px1, py1 = min(w, px1), min(h, py1)
        if px1 <= px0 or py1 <= py0:
            continue
        pw, ph = px1 - px0, py1 - py0
        s = sx * zoom * SS  # logical length -> patch pixels

        def px(x: float, y: float, px0: int = px0, py0: int = py0) -> tuple[float, float]:
            if to_screen is not None:
                x, y = to_screen(x, y)
            return (x * sx - px0) * SS, ((HEIGHT - y) * sy - py0) * SS

        if isinstance(m, Box) and m.shadow:
            sh = Image.new("L", (pw * SS, ph * SS), 0)
            sd = ImageDraw.Draw(sh)
            left_, bottom_, right_, top_ = m.rect
            off = 3.0
            x0, y0 = px(left_ + 1, top_ - off)
            x1, y1 = px(right_ + 1, bottom_ - off)
            sd.rounded_rectangle((x0, y0, x1, y1), radius=m.radius * s, fill=m.shadow)
            sh = sh.resize((pw, ph), Image.Resampling.BOX).filter(ImageFilter.GaussianBlur(3 * sx * zoom))
            black = Image.new("RGBA", (pw, ph), (0, 0, 0, 255))
            black.putalpha(sh)
            img.alpha_composite(black, (px0, py0))
        patch = Image.new("RGBA", (pw * SS, ph * SS), (0, 0, 0, 0))
        _draw_mark(ImageDraw.Draw(patch), m, px, s)
        img.alpha_composite(patch.resize((pw, ph), Image.Resampling.BOX), (px0, py0))


def backdrop(size: tuple[int, int], marks: Sequence[Mark] = (), to_screen: ToPatch | None = None,
             zoom: float = 1.0) -> Image.Image:
    """The felt at ``size`` with ``marks`` painted on it (see :func:`paint_marks`)."""
    img = felt(size)
    paint_marks(img, marks, to_screen, zoom)
    return img


# --- soft pictures ----------------------------------------------------------------------


def soft_box(w: int, h: int, radius: float, blur: float, alpha: int, margin: int,
             colour: tuple[int, int, int] = (0, 0, 0)) -> Image.Image:
    """A blurred rounded box of ``w`` x ``h`` centred in a picture ``margin`` larger on
    each side: a shadow (black) or a glow (a colour)."""
    W, H = w + 2 * margin, h + 2 * margin
    mask = Image.new("L", (W * SS, H * SS), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (margin * SS, margin * SS, (margin + w) * SS - 1, (margin + h) * SS - 1), radius=radius * SS,
        fill=alpha)
    mask = mask.resize((W, H), Image.Resampling.BOX)
    if blur > 0:
        mask = mask.filter(ImageFilter.GaussianBlur(blur))
    out = Image.new("RGBA", (W, H), (*colour, 255))
    out.putalpha(mask)
    return out


def ring_glow(w: int, h: int, radius: float, blur: float, alpha: int, margin: int,
              colour: tuple[int, int, int], line: float = 2.5, spread: int = 3) -> Image.Image:
    """A glow round a box (its inside clear) with a crisp line along its edge; the glow
    is a box ``spread`` larger each side, blurred."""
    W, H = w + 2 * margin, h + 2 * margin
    glow = soft_box(w + 2 * spread, h + 2 * spread, radius + spread, blur, alpha, margin - spread, colour)
    a = glow.getchannel("A")
    inner = Image.new("L", (W * SS, H * SS), 0)
    ImageDraw.Draw(inner).rounded_rectangle(
        (margin * SS, margin * SS, (margin + w) * SS - 1, (margin + h) * SS - 1), radius=radius * SS, fill=255)
    inner = inner.resize((W, H), Image.Resampling.BOX)
    a = Image.composite(Image.new("L", (W, H), 0), a, inner)  # clear inside the box
    edge = Image.new("L", (W * SS, H * SS), 0)
    ImageDraw.Draw(edge).rounded_rectangle(
        (margin * SS, margin * SS, (margin + w) * SS - 1, (margin + h) * SS - 1), radius=radius * SS,
        outline=255, width=round(line * SS))
    edge = edge.resize((W, H), Image.Resampling.BOX)
    out = Image.new("RGBA", (W, H), (*colour, 255))
    out.putalpha(ImageChops.lighter(a, edge))
    return out


#: The panel styles: fill (top, bottom), edge, highlight along the top edge.
PANELS: dict[str, tuple[Colour, Colour, Colour, int]] = {
    "panel": ((14, 38, 25, 236), (6, 20, 13, 236), (236, 196, 92, 200), 28),
    "plate": ((12, 34, 22, 200), (4, 16, 10, 200), (220, 200, 150, 90), 22),
    "status": ((8, 20, 14, 215), (2, 10, 6, 215), (220, 200, 150, 70), 14),
    "tip": ((28, 30, 26, 240), (14, 16, 14, 240), (220, 200, 150, 120), 0),
    "button": ((64, 132, 90, 250), (34, 92, 58, 250), (226, 210, 160, 200), 60),
    "button-hover": ((84, 158, 110, 255), (44, 114, 72, 255), (246, 226, 170, 230), 70),
    "button-focus": ((72, 142, 98, 255), (38, 100, 64, 255), (236, 196, 92, 255), 60),
    "button-off": ((46, 70, 56, 170), (34, 56, 44, 170), (160, 160, 150, 90), 0),
}


def panel(w: int, h: int, style: str = "panel", radius: float = 8.0, edge_width: float = 1.0,
          shadow: int = 0, margin: int = 0) -> Image.Image:
    """A rounded panel ``w`` x ``h`` (plus ``margin`` on each side for its shadow): a
    vertical gradient, an edge, a faint highlight along the top."""
    top_c, bottom_c, edge, shine = PANELS[style]
    W, H = w + 2 * margin, h + 2 * margin
    out = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    if shadow:
        out.alpha_composite(soft_box(w, h, radius, 2.0, shadow, margin).transform(
            (W, H), Image.Transform.AFFINE, (1, 0, 0, 0, 1, -2), resample=Image.Resampling.BILINEAR))
    grad = Image.new("RGBA", (1, h * SS))
    for y in range(h * SS):
        t = y / max(1, h * SS - 1)
        grad.putpixel((0, y), tuple(round(a + (b - a) * t) for a, b in zip(top_c, bottom_c, strict=True)))
    grad = grad.resize((w * SS, h * SS))
    mask = Image.new("L", (w * SS, h * SS), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, w * SS - 1, h * SS - 1), radius=radius * SS, fill=255)
    body = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    body.paste(grad, (0, 0), mask)
    d = ImageDraw.Draw(body)
    if shine:
        d.line((radius * SS, round(1.5 * SS), (w - radius) * SS, round(1.5 * SS)),
               fill=(255, 255, 240, shine), width=SS)
    d.rounded_rectangle((0, 0, w * SS - 1, h * SS - 1), radius=radius * SS, outline=edge,
                        width=max(1, round(edge_width * SS)))
    out.alpha_composite(body.resize((w, h), Image.Resampling.BOX), (margin, margin))
    return out


__all__ = ["Box", "Disc", "Ring", "backdrop", "felt", "mark_bounds", "paint_marks", "panel",
           "ring_glow", "soft_box"]
