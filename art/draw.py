"""Vector drawing primitives, suit signs, court figures and trump emblems.

Everything is drawn with Pillow's ImageDraw at twice the final size; shapes are
described in local coordinates and placed with a :class:`Pen` (centre, scale,
rotation), so one suit sign can be drawn large on an ace or small in an index.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from PIL import ImageDraw

Colour = tuple[int, int, int, int]
Pt = tuple[float, float]

# Colours of the traditional pack: red, blue, yellow-ochre, flesh, on cream, black lines.
INK: Colour = (30, 24, 22, 255)
CREAM: Colour = (250, 244, 226, 255)
WHITE: Colour = (255, 253, 246, 255)
RED: Colour = (192, 38, 34, 255)
DARK_RED: Colour = (130, 24, 26, 255)
BLUE: Colour = (40, 82, 158, 255)
PALE_BLUE: Colour = (200, 220, 236, 255)
OCHRE: Colour = (228, 172, 52, 255)
PALE_OCHRE: Colour = (244, 218, 150, 255)
FLESH: Colour = (247, 208, 172, 255)
GREEN: Colour = (58, 128, 72, 255)
DARK_GREEN: Colour = (30, 84, 48, 255)
BROWN: Colour = (142, 90, 46, 255)
STEEL: Colour = (112, 150, 196, 255)
STEEL_DARK: Colour = (54, 86, 132, 255)
GREY: Colour = (150, 146, 140, 255)
BLACK: Colour = (20, 18, 18, 255)

LW = 5  # standard outline width at 2x


class Pen:
    """Draws local-coordinate shapes at a centre, scale and rotation (radians)."""

    def __init__(self, d: ImageDraw.ImageDraw, cx: float, cy: float, s: float,
                 ang: float = 0.0, flip: bool = False) -> None:
        self.d, self.cx, self.cy, self.s = d, cx, cy, s
        self.ca, self.sa = math.cos(ang), math.sin(ang)
        self.flip = flip

    def pt(self, x: float, y: float) -> Pt:
        if self.flip:
            x = -x
        return (self.cx + self.s * (x * self.ca - y * self.sa),
                self.cy + self.s * (x * self.sa + y * self.ca))

    def pts(self, pts: Sequence[Pt]) -> list[Pt]:
        return [self.pt(x, y) for x, y in pts]

    def w(self, width: float) -> int:
        return max(1, round(width))

    def poly(self, pts: Sequence[Pt], fill: Colour | None, outline: Colour | None = INK,
             width: float = LW) -> None:
        self.d.polygon(self.pts(pts), fill=fill, outline=outline, width=self.w(width))

    def line(self, pts: Sequence[Pt], fill: Colour = INK, width: float = LW) -> None:
        self.d.line(self.pts(pts), fill=fill, width=self.w(width), joint="curve")

    def ellipse(self, x: float, y: float, rx: float, ry: float, fill: Colour | None,
                outline: Colour | None = INK, width: float = LW, n: int = 48) -> None:
        self.poly(ellipse_pts(x, y, rx, ry, n), fill, outline, width)

    def circle(self, x: float, y: float, r: float, fill: Colour | None,
               outline: Colour | None = INK, width: float = LW) -> None:
        cx, cy = self.pt(x, y)
        rr = r * self.s
        self.d.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=fill, outline=outline,
                       width=self.w(width) if outline else 0)

    def rect(self, x0: float, y0: float, x1: float, y1: float, fill: Colour | None,
             outline: Colour | None = INK, width: float = LW) -> None:
        self.poly([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], fill, outline, width)

    def sub(self, x: float, y: float, s: float, ang: float = 0.0) -> Pen:
        """A pen for a child shape placed at local (x, y), scaled and rotated."""
        cx, cy = self.pt(x, y)
        base = math.atan2(self.sa, self.ca)
        return Pen(self.d, cx, cy, self.s * s, base + ang, self.flip)


def ellipse_pts(x: float, y: float, rx: float, ry: float, n: int = 48,
                a0: float = 0.0, a1: float = 2 * math.pi) -> list[Pt]:
    return [(x + rx * math.cos(a0 + (a1 - a0) * i / n), y + ry * math.sin(a0 + (a1 - a0) * i / n))
            for i in range(n + (0 if a1 - a0 >= 2 * math.pi else 1))]


def bezier(p0: Pt, c: Pt, p1: Pt, n: int = 32) -> list[Pt]:
    out = []
    for i in range(n + 1):
        t = i / n
        u = 1 - t
        out.append((u * u * p0[0] + 2 * u * t * c[0] + t * t * p1[0],
                    u * u * p0[1] + 2 * u * t * c[1] + t * t * p1[1]))
    return out


def ribbon(path: Sequence[Pt], widths: Sequence[float]) -> list[Pt]:
    """Outline polygon of a stroke along ``path`` with a half-width per point."""
    left, right = [], []
    n = len(path)
    for i, (x, y) in enumerate(path):
        a = path[max(0, i - 1)]
        b = path[min(n - 1, i + 1)]
        dx, dy = b[0] - a[0], b[1] - a[1]
        ln = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / ln, dx / ln
        w = widths[i]
        left.append((x + nx * w, y + ny * w))
        right.append((x - nx * w, y - ny * w))
    return left + right[::-1]


def star_pts(x: float, y: float, r0: float, r1: float, k: int, rot: float = -math.pi / 2) -> list[Pt]:
    out = []
    for i in range(2 * k):
        r = r0 if i % 2 == 0 else r1
        a = rot + math.pi * i / k
        out.append((x + r * math.cos(a), y + r * math.sin(a)))
    return out


# --------------------------------------------------------------------------------------
# Suit signs, in a unit box of about [-1, 1] x [-1, 1]
# --------------------------------------------------------------------------------------

def cup(p: Pen, body: Colour = RED, lw: float = LW) -> None:
    """A chalice: bowl, rim, knotted stem and foot."""
    bowl = ellipse_pts(0, -0.55, 0.62, 0.72, 24, 0, math.pi)
    p.poly([(-0.62, -0.55)] + bowl + [(0.62, -0.55)], body, INK, lw)
    p.poly([(-0.5, -0.3), (0.5, -0.3), (0.42, -0.15), (-0.42, -0.15)], OCHRE, INK, lw * 0.6)
    p.ellipse(0, -0.6, 0.68, 0.13, OCHRE, INK, lw)
    p.ellipse(0, -0.6, 0.5, 0.07, DARK_RED, None, 0)
    p.rect(-0.08, 0.15, 0.08, 0.62, OCHRE, INK, lw * 0.8)
    p.ellipse(0, 0.35, 0.2, 0.1, body, INK, lw * 0.8)
    p.poly([(-0.1, 0.6), (0.1, 0.6), (0.48, 0.9), (-0.48, 0.9)], body, INK, lw)
    p.ellipse(0, 0.9, 0.5, 0.09, OCHRE, INK, lw * 0.8)


def coin(p: Pen, lw: float = LW, rich: bool = False) -> None:
    """An ornate disc: rim, ring of beads, red field with an ochre rosette."""
    p.circle(0, 0, 1.0, OCHRE, INK, lw)
    p.circle(0, 0, 0.8, PALE_OCHRE, INK, lw * 0.6)
    for i in range(16 if rich else 12):
        a = 2 * math.pi * i / (16 if rich else 12)
        p.circle(0.9 * math.cos(a), 0.9 * math.sin(a), 0.055, DARK_RED, None, 0)
    p.circle(0, 0, 0.66, RED, INK, lw * 0.6)
    for i in range(8):
        a = 2 * math.pi * i / 8
        petal = ellipse_pts(0.34, 0, 0.3, 0.12, 16)
        ca, sa = math.cos(a), math.sin(a)
        p.poly([(x * ca - y * sa, x * sa + y * ca) for x, y in petal], OCHRE, INK, lw * 0.5)
    p.circle(0, 0, 0.16, BLUE, INK, lw * 0.6)
    p.circle(0, 0, 0.06, PALE_OCHRE, None, 0)


def sword_straight(p: Pen, length: float = 2.0, lw: float = LW) -> None:
    """A straight sword, hilt up, centred on the origin, blade along +y."""
    top = -length / 2
    blade = [(-0.09, top + 0.42), (0.09, top + 0.42), (0.07, length / 2 - 0.12),
             (0, length / 2), (-0.07, length / 2 - 0.12)]
    p.poly(blade, STEEL, INK, lw)
    p.line([(0, top + 0.5), (0, length / 2 - 0.15)], STEEL_DARK, lw * 0.6)
    p.poly([(-0.32, top + 0.32), (0.32, top + 0.32), (0.36, top + 0.42), (-0.36, top + 0.42)],
           OCHRE, INK, lw)
    p.rect(-0.06, top + 0.1, 0.06, top + 0.32, RED, INK, lw * 0.8)
    p.circle(0, top + 0.06, 0.09, OCHRE, INK, lw * 0.8)


def curved_sword(p: Pen, hilt: Pt, tip: Pt, mid: Pt, width: float, lw: float = LW) -> None:
    """A curved sabre from ``hilt`` to ``tip`` passing through ``mid`` (a quadratic curve)."""
    c = (2 * mid[0] - (hilt[0] + tip[0]) / 2, 2 * mid[1] - (hilt[1] + tip[1]) / 2)
    sabre(p, bezier(hilt, c, tip, 40), width, lw)


def sabre(p: Pen, path: Sequence[Pt], width: float, lw: float = LW) -> None:
    """A blade along ``path`` (hilt first), tapering to its point, with guard and grip."""
    n = len(path) - 1
    hilt = path[0]
    widths = [width * (1.0 - 0.75 * (i / n) ** 1.6) for i in range(n + 1)]
    widths[-1] = 0.5
    p.poly(ribbon(path, widths), STEEL, INK, lw)
    p.line(path[2:-4], STEEL_DARK, lw * 0.5)
    # guard, grip and pommel, perpendicular to the blade at the hilt
    ux, uy = path[1][0] - path[0][0], path[1][1] - path[0][1]
    ul = math.hypot(ux, uy)
    ux, uy = ux / ul, uy / ul
    vx, vy = -uy, ux
    g = width * 2.6
    hx, hy = hilt
    p.poly([(hx + vx * g, hy + vy * g), (hx + vx * g + ux * width * 0.7, hy + vy * g + uy * width * 0.7),
            (hx - vx * g + ux * width * 0.7, hy - vy * g + uy * width * 0.7),
            (hx - vx * g, hy - vy * g)], OCHRE, INK, lw)
    gl = width * 3.2
    gw = width * 0.55
    p.poly([(hx + vx * gw, hy + vy * gw), (hx - vx * gw, hy - vy * gw),
            (hx - vx * gw - ux * gl, hy - vy * gw - uy * gl),
            (hx + vx * gw - ux * gl, hy + vy * gw - uy * gl)], RED, INK, lw * 0.8)
    p.circle(hx - ux * (gl + width * 0.5), hy - uy * (gl + width * 0.5), width * 0.8, OCHRE, INK,
             lw * 0.8)


def baton(p: Pen, length: float = 2.0, lw: float = LW, t: float = 0.11) -> None:
    """A straight stave along y, centred: brown wood, ochre caps, green bindings."""
    h = length / 2
    p.poly([(-t, -h + 0.1), (t, -h + 0.1), (t * 0.8, h - 0.1), (-t * 0.8, h - 0.1)], BROWN, INK, lw)
    p.line([(-t * 0.3, -h + 0.15), (-t * 0.3, h - 0.15)], (176, 122, 70, 255), lw * 0.7)
    for y in (-h + 0.3, h - 0.3):
        p.rect(-t * 1.1, y - 0.04, t * 1.1, y + 0.04, GREEN, INK, lw * 0.6)
    p.ellipse(0, -h + 0.08, t * 1.45, t * 0.9, OCHRE, INK, lw * 0.8)
    p.ellipse(0, h - 0.08, t * 1.3, t * 0.8, OCHRE, INK, lw * 0.8)


def club(p: Pen, lw: float = LW) -> None:
    """A single knotty club, as held by the court figures of Batons."""
    p.poly([(-0.1, 0.95), (0.1, 0.95), (0.22, -0.7), (0.0, -0.98), (-0.22, -0.7)], BROWN, INK, lw)
    p.line([(0.0, 0.9), (0.05, -0.8)], (176, 122, 70, 255), lw * 0.7)
    for y, side in ((-0.45, 1), (-0.05, -1), (0.35, 1)):
        p.poly([(0.12 * side, y), (0.3 * side, y - 0.15), (0.36 * side, y - 0.05), (0.14 * side, y + 0.08)],
               GREEN, INK, lw * 0.6)
    p.rect(-0.12, 0.72, 0.12, 0.8, OCHRE, INK, lw * 0.6)


def leaf(p: Pen, x: float, y: float, length: float, ang: float, fill: Colour = GREEN,
         lw: float = 3) -> None:
    """A pointed leaf from (x, y) along ``ang`` (radians), ``length`` long."""
    q = p.sub(x, y, length, ang)
    q.poly(bezier((0, 0), (0.5, -0.32), (1, 0), 10) + bezier((1, 0), (0.5, 0.32), (0, 0), 10)[1:],
           fill, INK, lw)


def flower(p: Pen, petals: Colour = RED, heart: Colour = OCHRE, lw: float = 3, k: int = 6) -> None:
    """A small rosette in a unit box: ``k`` round petals and a heart."""
    for i in range(k):
        a = 2 * math.pi * i / k - math.pi / 2
        p.ellipse(0.55 * math.cos(a), 0.55 * math.sin(a), 0.42, 0.42, petals, INK, lw, 20)
    p.circle(0, 0, 0.4, heart, INK, lw)
    p.circle(0, 0, 0.14, DARK_RED if heart != DARK_RED else OCHRE, None, 0)


def sprig(p: Pen, petals: Colour = BLUE, lw: float = 3) -> None:
    """A flower on a curled stem with two pairs of leaves, rooted at (0, 1), growing up."""
    stem = bezier((0, 1.0), (0.35, 0.3), (0, -0.45), 16)
    p.line(stem, DARK_GREEN, max(3.0, 0.09 * p.s))  # widths are in pixels, not pen units
    for t, side in ((4, 1), (7, -1), (10, 1), (13, -1)):
        x, y = stem[t]
        leaf(p, x, y, 0.42, math.radians(-90 + side * 58), GREEN if side > 0 else DARK_GREEN, lw)
    flower(p.sub(0, -0.62, 0.3), petals, OCHRE, lw)


def grand_sword(p: Pen, lw: float = LW) -> None:
    """The ace's sword, point up, in a box of about [-0.6, 0.6] x [-1, 1]: a broad blade with a
    fuller, a scrolled guard, a bound grip and a faceted pommel."""
    p.poly([(-0.075, 0.52), (-0.085, -0.78), (0, -1.0), (0.085, -0.78), (0.075, 0.52)],
           STEEL, INK, lw)
    p.poly([(-0.012, 0.5), (-0.012, -0.8), (0, -0.86), (0.012, -0.8), (0.012, 0.5)], STEEL_DARK,
           None, 0)
    p.line([(0.045, 0.48), (0.05, -0.78)], WHITE, lw * 0.6)
    # the guard: a bar with scrolled ends
    p.poly([(-0.34, 0.5), (0.34, 0.5), (0.3, 0.58), (-0.3, 0.58)], OCHRE, INK, lw)
    for sx in (-1, 1):
        p.poly([(sx * 0.3, 0.5)] + ellipse_pts(sx * 0.38, 0.46, 0.07, 0.07, 12, 0, 2 * math.pi)
               + [(sx * 0.32, 0.58)], OCHRE, INK, lw * 0.8)
        p.circle(sx * 0.38, 0.46, 0.03, RED, None, 0)
    p.poly([(-0.1, 0.5), (0, 0.42), (0.1, 0.5), (0, 0.62)], RED, INK, lw * 0.8)
    p.rect(-0.045, 0.58, 0.045, 0.82, RED, INK, lw)
    for y in (0.63, 0.69, 0.75):
        p.line([(-0.045, y), (0.045, y + 0.03)], OCHRE, lw * 0.8)
    p.poly([(0, 0.8), (0.09, 0.86), (0.09, 0.93), (0, 1.0), (-0.09, 0.93), (-0.09, 0.86)], OCHRE,
           INK, lw)
    p.circle(0, 0.9, 0.03, BLUE, None, 0)


def grand_club(p: Pen, lw: float = LW) -> None:
    """The ace's knotty club, upright, thick end up, in a box of about [-0.5, 0.5] x [-1, 1]."""
    n = 28
    left, right = [], []
    for i in range(n + 1):  # bottom to top, swelling towards the head, the bark a little uneven
        y = 0.95 - 1.7 * i / n
        t = i / n
        half = 0.075 + 0.115 * t ** 1.3 + 0.012 * math.sin(i * 1.9)
        left.append((-half, y))
        right.append((half + 0.01 * math.sin(i * 2.7 + 1), y))
    head = [(-0.19, -0.78), (-0.22, -0.86), (-0.17, -0.95), (-0.08, -0.99), (-0.03, -0.96),
            (0.04, -1.0), (0.14, -0.97), (0.21, -0.88), (0.2, -0.79)]
    p.poly(left + head + right[::-1], BROWN, INK, lw)
    p.line([(-0.04, 0.9), (-0.06, -0.3), (-0.09, -0.85)], (176, 122, 70, 255), lw * 1.4)
    p.line([(0.07, 0.6), (0.1, -0.1)], (112, 70, 36, 255), lw * 0.8)
    p.line([(0.05, -0.35), (0.11, -0.75)], (112, 70, 36, 255), lw * 0.8)
    for x, y, side in ((0.16, -0.55, 1), (-0.15, -0.22, -1), (0.12, 0.15, 1), (-0.11, 0.48, -1)):
        p.poly([(x - side * 0.03, y + 0.05), (x + side * 0.1, y - 0.02), (x + side * 0.12, y - 0.09),
                (x + side * 0.08, y - 0.12), (x - side * 0.03, y - 0.07)], BROWN, INK, lw * 0.8)
        p.ellipse(x + side * 0.1, y - 0.075, 0.025, 0.035, (96, 58, 30, 255), None, 0)
        leaf(p, x + side * 0.1, y - 0.09, 0.2, math.radians(-90 + side * 40), GREEN, lw * 0.6)
    for x, y in ((-0.06, -0.88), (0.08, -0.84), (0.0, -0.7)):
        p.ellipse(x, y, 0.03, 0.02, (96, 58, 30, 255), None, 0)
    # an ochre ferrule at the foot
    p.rect(-0.09, 0.78, 0.09, 0.86, OCHRE, INK, lw * 0.8)
    p.poly([(-0.09, 0.86), (0.09, 0.86), (0.05, 0.97), (-0.05, 0.97)], OCHRE, INK, lw * 0.8)


def ribbon_band(p: Pen, y: float, half: float, sag: float, depth: float, tail: float,
                fill: Colour = RED, back: Colour = DARK_RED, lw: float = 4) -> None:
    """A ribbon wound across an upright staff at height ``y`` (``half`` its half-width): the
    front band sags a little, its forked ends fly out to either side."""
    top = bezier((-half, y - sag), (0, y + sag), (half, y - sag), 12)
    bot = bezier((half, y - sag + depth), (0, y + sag + depth), (-half, y - sag + depth), 12)
    for sx in (-1, 1):
        x0 = sx * half
        p.poly([(x0, y - sag), (x0 + sx * tail, y - sag - depth * 0.8),
                (x0 + sx * tail * 0.8, y - sag + depth * 0.1),
                (x0 + sx * tail * 1.05, y - sag + depth * 0.9), (x0, y - sag + depth)],
               back, INK, lw)
    p.poly(top + bot, fill, INK, lw)


def suit_sign(p: Pen, suit: str, lw: float = LW) -> None:
    """The compact sign of a suit in a unit box (used in indices and by figures)."""
    if suit == "C":
        cup(p, RED, lw)
    elif suit == "D":
        coin(p, lw)
    elif suit == "S":
        sword_straight(p.sub(0, 0, 1.0, math.radians(25)), 2.1, lw)
    elif suit == "B":
        club(p.sub(0, 0, 1.0, math.radians(-20)), lw)
    else:  # pragma: no cover - guarded by callers
        raise ValueError(suit)


def index_sign(p: Pen, suit: str, lw: float = LW) -> None:
    """A bold, simplified suit sign for the corner index, in a unit box. Each reads as its
    suit at hand size (about 15 px tall on a 96 px card): a red goblet, a gold coin with a
    red heart, one steel sword slanting with a broad gold guard, one near-upright brown club
    with a knobbly head and two green leaves (nothing crossed, so it never reads as an X)."""
    if suit == "C":
        p.poly([(-0.78, -0.8)] + ellipse_pts(0, -0.8, 0.78, 0.85, 20, 0, math.pi) + [(0.78, -0.8)],
               RED, INK, lw)
        p.ellipse(0, -0.8, 0.8, 0.16, OCHRE, INK, lw * 0.8)
        p.rect(-0.13, 0.05, 0.13, 0.66, RED, INK, lw)
        p.poly([(-0.16, 0.62), (0.16, 0.62), (0.64, 0.98), (-0.64, 0.98)], RED, INK, lw)
    elif suit == "D":
        p.circle(0, 0, 0.96, OCHRE, INK, lw)
        p.circle(0, 0, 0.54, RED, INK, lw * 0.8)
        p.circle(0, 0, 0.2, OCHRE, None, 0)
    elif suit == "S":  # one sword, hilt up-right, point down-left
        q = p.sub(0, 0, 1.0, math.radians(32))
        q.poly([(-0.2, -0.42), (0.2, -0.42), (0.17, 0.72), (0, 1.12), (-0.17, 0.72)], STEEL,
               INK, lw)
        q.poly([(-0.66, -0.66), (0.66, -0.66), (0.66, -0.4), (-0.66, -0.4)], OCHRE, INK, lw)
        q.rect(-0.12, -0.98, 0.12, -0.66, RED, INK, lw * 0.7)
        q.circle(0, -1.06, 0.16, OCHRE, INK, lw * 0.7)
    elif suit == "B":  # one knobbly club, near upright, head up, sprouting two leaves
        q = p.sub(0, 0, 1.0, math.radians(-12))
        for sx, y, a in ((-1, 0.3, -55), (1, 0.0, 55)):
            leaf(q, sx * 0.16, y, 0.62, math.radians(-90 + a), GREEN, lw * 0.6)
        q.poly([(-0.14, 1.0), (-0.2, 0.2), (-0.3, -0.38), (-0.46, -0.5), (-0.42, -0.72),
                (-0.2, -0.98), (0.12, -1.0), (0.4, -0.8), (0.46, -0.55), (0.3, -0.38), (0.2, 0.2),
                (0.14, 1.0)], BROWN, INK, lw)
        q.circle(-0.12, -0.7, 0.1, (176, 122, 70, 255), None, 0)
    elif suit == "T":  # trumps: a small red-and-blue lozenge with a star
        p.poly([(0, -1), (0.8, 0), (0, 1), (-0.8, 0)], BLUE, INK, lw)
        p.poly(star_pts(0, 0, 0.55, 0.22, 5), OCHRE, INK, lw * 0.5)
    elif suit == "M":  # the Matto: a jester's bell
        p.poly([(-0.7, 0.55)] + ellipse_pts(0, 0.1, 0.62, 0.85, 20, math.pi, 2 * math.pi)
               + [(0.7, 0.55)], OCHRE, INK, lw)
        p.rect(-0.82, 0.5, 0.82, 0.68, OCHRE, INK, lw)
        p.circle(0, 0.85, 0.18, DARK_GREEN, INK, lw * 0.6)


# --------------------------------------------------------------------------------------
# Court figures (upper half, mirrored by the caller), on a 640 x 592 half canvas
# --------------------------------------------------------------------------------------

ROBES = {  # (robe, sleeve/cape, trim) per suit, alternating red and blue
    "S": (BLUE, RED, OCHRE),
    "B": (GREEN, RED, OCHRE),
    "C": (RED, BLUE, OCHRE),
    "D": (BLUE, OCHRE, RED),
}


def face(p: Pen, x: float, y: float, r: float, beard: Colour | None = None,
         hair: Colour = BROWN, long_hair: bool = False) -> None:
    if long_hair:
        p.poly([(x - r * 1.2, y - r * 0.4), (x + r * 1.2, y - r * 0.4), (x + r * 1.35, y + r * 2.0),
                (x - r * 1.35, y + r * 2.0)], hair, INK, LW)
    p.rect(x - r * 0.35, y + r * 0.8, x + r * 0.35, y + r * 1.5, FLESH, INK, LW)
    p.ellipse(x, y, r * 0.95, r * 1.15, FLESH, INK, LW)
    p.poly(ellipse_pts(x, y - r * 0.2, r * 1.0, r * 1.0, 20, math.pi, 2 * math.pi), hair, INK, LW)
    for sx in (-1, 1):
        p.ellipse(x + sx * r * 0.36, y + r * 0.05, r * 0.14, r * 0.08, WHITE, INK, 3)
        p.circle(x + sx * r * 0.36, y + r * 0.05, r * 0.055, BLUE, None, 0)
        p.line([(x + sx * r * 0.2, y - r * 0.22), (x + sx * r * 0.55, y - r * 0.2)], INK, 4)
    p.line([(x, y + r * 0.05), (x - r * 0.1, y + r * 0.45), (x + r * 0.05, y + r * 0.5)], INK, 3)
    p.circle(x - r * 0.55, y + r * 0.45, r * 0.14, (240, 160, 140, 255), None, 0)
    p.circle(x + r * 0.55, y + r * 0.45, r * 0.14, (240, 160, 140, 255), None, 0)
    if beard is not None:
        p.poly([(x - r * 0.9, y + r * 0.2), (x - r * 0.55, y + r * 0.7), (x - r * 0.25, y + r * 0.6),
                (x + r * 0.25, y + r * 0.6), (x + r * 0.55, y + r * 0.7), (x + r * 0.9, y + r * 0.2),
                (x + r * 0.7, y + r * 1.25), (x, y + r * 1.6), (x - r * 0.7, y + r * 1.25)],
               beard, INK, LW)
        p.line([(x - r * 0.25, y + r * 0.8), (x + r * 0.25, y + r * 0.8)], DARK_RED, 4)
    else:
        p.line([(x - r * 0.2, y + r * 0.75), (x + r * 0.2, y + r * 0.75)], DARK_RED, 5)


def crown(p: Pen, x: float, y: float, w: float, h: float, pts: int = 5) -> None:
    top = []
    for i in range(2 * pts - 1):
        tx = x - w + 2 * w * i / (2 * pts - 2)
        top.append((tx, y - h if i % 2 == 0 else y - h * 0.45))
    p.poly([(x - w, y)] + top + [(x + w, y)], OCHRE, INK, LW)
    p.rect(x - w, y - h * 0.25, x + w, y + h * 0.08, OCHRE, INK, LW)
    for i in range(pts):
        tx = x - w + 2 * w * i / (pts - 1)
        p.circle(tx, y - h - 6, 8, RED, INK, 3)
    p.circle(x, y - h * 0.08, 9, BLUE, INK, 3)


def torso(p: Pen, x: float, top: float, half: float, robe: Colour, cape: Colour,
          trim: Colour, bottom: float = 592) -> None:
    p.poly([(x - half, top), (x + half, top), (x + half * 1.55, bottom), (x - half * 1.55, bottom)],
           robe, INK, LW)
    p.poly([(x - half * 1.05, top), (x - half * 0.2, top), (x - half * 0.55, bottom),
            (x - half * 1.6, bottom)], cape, INK, LW)
    p.poly([(x - half * 0.12, top), (x + half * 0.12, top), (x + half * 0.2, bottom),
            (x - half * 0.2, bottom)], trim, INK, LW)
    p.ellipse(x, top + 4, half * 0.95, 28, trim, INK, LW)
    for i in range(3):
        p.circle(x, top + 70 + 80 * i, 9, RED if trim != RED else BLUE, INK, 3)


def hand(p: Pen, x: float, y: float, r: float = 24) -> None:
    p.ellipse(x, y, r, r * 0.85, FLESH, INK, LW)


def _court_re(p: Pen, robe: Colour, cape: Colour, trim: Colour) -> tuple[Pt, float]:
    """Re: on a throne, crowned and bearded, the sign raised in the right hand;
    returns the suit sign's centre and radius."""
    cx = 330
    # throne back
    p.poly([(170, 592), (170, 250)] + ellipse_pts(330, 250, 160, 110, 20, math.pi, 2 * math.pi)
           + [(490, 250), (490, 592)], PALE_OCHRE, INK, LW)
    torso(p, cx, 360, 95, robe, cape, trim)
    face(p, cx, 255, 62, beard=(236, 236, 230, 255), hair=(230, 228, 220, 255))
    crown(p, cx, 200, 70, 72)
    sign = (490, 300), 78
    p.line([(cx + 60, 420), (445, 360)], robe, 40)
    hand(p, 455, 355)
    p.line([(cx - 40, 420), (230, 520)], cape, 40)
    hand(p, 222, 525)
    return sign


def _court_donna(p: Pen, robe: Colour, cape: Colour, trim: Colour) -> tuple[Pt, float]:
    """Donna: crowned, long-haired, the sign held low;
    returns the suit sign's centre and radius."""
    cx = 330
    torso(p, cx, 365, 85, robe, cape, trim)
    face(p, cx, 262, 58, hair=OCHRE, long_hair=True)
    p.poly([(cx - 78, 215), (cx + 78, 215), (cx + 100, 330), (cx - 100, 330)], None, INK, 0)
    crown(p, cx, 205, 55, 48, 3)
    sign = (460, 420), 70
    p.line([(cx + 50, 430), (430, 470)], robe, 38)
    hand(p, 428, 470)
    p.line([(cx - 50, 430), (cx - 10, 500)], cape, 38)
    hand(p, cx - 5, 500)
    return sign


def _court_fante(p: Pen, robe: Colour, cape: Colour, trim: Colour) -> tuple[Pt, float]:
    """Fante: in a feathered cap, the sign raised;
    returns the suit sign's centre and radius."""
    cx = 330
    torso(p, cx, 380, 80, robe, cape, trim)
    face(p, cx, 280, 56, hair=(190, 120, 60, 255))
    # broad-brimmed cap with a feather
    p.ellipse(cx, 226, 92, 26, cape, INK, LW)
    p.poly(ellipse_pts(cx, 226, 62, 62, 16, math.pi, 2 * math.pi), robe, INK, LW)
    p.poly(bezier((cx + 40, 200), (cx + 130, 120), (cx + 150, 190), 12)
           + bezier((cx + 150, 190), (cx + 110, 170), (cx + 50, 215), 12), WHITE, INK, 4)
    sign = (470, 290), 72
    p.line([(cx + 55, 440), (455, 360)], robe, 36)
    hand(p, 460, 355)
    return sign


def _court_cavallo(p: Pen, robe: Colour, cape: Colour, trim: Colour) -> tuple[Pt, float]:
    """Cavallo: the rider on a horse facing left;
    returns the suit sign's centre and radius."""
    # horse neck and head, facing left
    neck = [(140, 592), (175, 430), (150, 330), (95, 300), (70, 330), (60, 365), (95, 380),
            (125, 395), (160, 450), (200, 592)]
    neck = [(x + 60, y) for x, y in neck]
    p.poly([(150, 592), (200, 420), (260, 360), (330, 420), (360, 592)], WHITE, INK, LW)
    p.poly(neck, WHITE, INK, LW)
    p.poly([(215, 330), (235, 290), (245, 338)], WHITE, INK, LW)  # ear
    p.poly([(225, 345), (265, 370), (290, 470), (255, 470), (232, 400)], BROWN, INK, 4)  # mane
    p.circle(185, 335, 7, INK, None, 0)
    p.line([(120, 375), (175, 360), (205, 395)], DARK_RED, 7)  # bridle
    p.line([(205, 395), (390, 470)], DARK_RED, 6)  # rein
    p.poly([(150, 592), (190, 520), (330, 520), (360, 592)], cape, INK, LW)  # caparison
    for i in range(5):
        p.circle(185 + 35 * i, 545, 9, trim, INK, 3)
    # rider
    torso(p, 395, 330, 62, robe, cape, trim, bottom=560)
    face(p, 395, 240, 50, hair=(110, 70, 40, 255))
    p.ellipse(395, 198, 70, 18, cape, INK, LW)
    p.poly(ellipse_pts(395, 198, 48, 52, 16, math.pi, 2 * math.pi), robe, INK, LW)
    p.poly(bezier((430, 170), (470, 90), (520, 140), 10) + [(470, 175)], OCHRE, INK, 4)
    sign = (520, 330), 62
    p.line([(430, 380), (505, 400)], robe, 32)
    hand(p, 505, 395, 20)
    return sign


#: Each court rank's figure (K Re, Q Donna, N Cavallo, J Fante).
COURT_FIGURES: dict[str, Callable[[Pen, Colour, Colour, Colour], tuple[Pt, float]]] = {
    "K": _court_re, "Q": _court_donna, "N": _court_cavallo, "J": _court_fante,
}


def court(p: Pen, rank: str, suit: str) -> None:
    """Upper half of a court card: Re, Donna, Cavallo or Fante holding the suit sign."""
    robe, cape, trim = ROBES[suit]
    sign_at, sign_r = COURT_FIGURES[rank](p, robe, cape, trim)
    q = p.sub(sign_at[0], sign_at[1], sign_r)
    suit_sign(q, suit, LW)


# --------------------------------------------------------------------------------------
# Trump emblems (upper half), centred on (0, 0) with radius about 1
# --------------------------------------------------------------------------------------

def _sun_face(p: Pen, r: float, fill: Colour = OCHRE) -> None:
    p.circle(0, 0, r, fill, INK, LW)
    lw = 4.0
    for sx in (-1, 1):
        p.ellipse(sx * r * 0.35, -r * 0.12, r * 0.12, r * 0.06, WHITE, INK, lw)
    p.line([(0, -r * 0.05), (-r * 0.08, r * 0.25), (r * 0.04, r * 0.28)], INK, lw)
    p.line([(-r * 0.22, r * 0.5), (0, r * 0.58), (r * 0.22, r * 0.5)], DARK_RED, lw * 1.3)


def _tiara(p: Pen, x: float, y: float, s: float) -> None:
    lw = LW
    p.poly(ellipse_pts(x, y, 0.45 * s, 0.9 * s, 24, math.pi, 2 * math.pi), WHITE, INK, lw)
    for i, yy in enumerate((-0.2, -0.45, -0.68)):
        w = 0.45 * s * math.sqrt(max(0.0, 1 - (yy / 0.9) ** 2))
        p.rect(x - w, y + yy * s - 0.05 * s, x + w, y + yy * s + 0.04 * s, OCHRE if i != 1 else RED,
               INK, lw * 0.6)
    p.line([(x, y - 0.9 * s), (x, y - 1.1 * s)], INK, lw)
    p.line([(x - 0.1 * s, y - 1.02 * s), (x + 0.1 * s, y - 1.02 * s)], INK, lw)
    p.rect(x - 0.5 * s, y, x + 0.5 * s, y + 0.1 * s, OCHRE, INK, lw)


def _eagle(p: Pen, lw: float) -> None:
    for sx in (-1, 1):
        wing = [(0, -0.2), (sx * 0.9, -0.6), (sx * 0.8, -0.35), (sx * 0.95, -0.3), (sx * 0.75, -0.05),
                (sx * 0.85, 0.02), (sx * 0.55, 0.2), (0, 0.15)]
        p.poly(wing, INK, INK, lw)
    p.ellipse(0, 0.05, 0.2, 0.42, INK, INK, lw)
    p.circle(0, -0.45, 0.14, INK, INK, lw)
    p.poly([(0.1, -0.47), (0.28, -0.43), (0.1, -0.38)], OCHRE, INK, lw * 0.5)
    p.poly([(-0.25, 0.4), (0, 0.75), (0.25, 0.4)], INK, INK, lw)


def _wheel(p: Pen, r: float, lw: float, spokes: int = 8) -> None:
    p.circle(0, 0, r, OCHRE, INK, lw)
    p.circle(0, 0, r * 0.8, PALE_OCHRE, INK, lw)
    for i in range(spokes):
        a = 2 * math.pi * i / spokes
        p.line([(0, 0), (r * 0.8 * math.cos(a), r * 0.8 * math.sin(a))], BROWN, lw * 1.6)
    p.circle(0, 0, r * 0.2, RED, INK, lw)


def _emblem_matto(p: Pen) -> None:
    """Il Matto: jester's cap with bells, and a bundle on a stick."""
    lw = LW
    p.poly([(-0.7, 0.35), (-0.95, -0.55), (-0.3, -0.05), (0, -0.85), (0.3, -0.05), (0.95, -0.55),
            (0.7, 0.35)], None, INK, 0)
    p.poly([(-0.7, 0.35), (-0.95, -0.55), (-0.3, -0.05), (0, 0.0), (0, 0.35)], RED, INK, lw)
    p.poly([(0, 0.35), (0, 0.0), (0.3, -0.05), (0.95, -0.55), (0.7, 0.35)], DARK_GREEN, INK, lw)
    p.poly([(-0.3, -0.05), (0, -0.85), (0.3, -0.05), (0, 0.0)], OCHRE, INK, lw)
    for x, y in ((-0.95, -0.55), (0, -0.85), (0.95, -0.55)):
        p.circle(x, y - 0.08, 0.11, OCHRE, INK, lw)
    p.ellipse(0, 0.45, 0.8, 0.14, OCHRE, INK, lw)
    face(p.sub(0, 0.72, 0.0028), 0, 0, 60)


def _emblem_bagatto(p: Pen) -> None:
    """Il Bagatto: the juggler's table with cup, coin and wand."""
    lw = LW
    thin = 3.5
    p.rect(-0.85, 0.1, 0.85, 0.28, BROWN, INK, lw)
    p.rect(-0.7, 0.28, -0.58, 0.95, BROWN, INK, lw)
    p.rect(0.58, 0.28, 0.7, 0.95, BROWN, INK, lw)
    cup(p.sub(-0.45, -0.22, 0.3), RED, lw)
    coin(p.sub(0.1, -0.05, 0.16), lw * 0.7)
    p.circle(0.45, 0.02, 0.08, BLUE, INK, thin)
    p.circle(0.62, 0.02, 0.08, RED, INK, thin)
    p.line([(0.2, -0.95), (0.65, -0.35)], INK, lw * 2.5)
    p.line([(0.2, -0.95), (0.65, -0.35)], OCHRE, lw * 1.2)


def _emblem_papessa(p: Pen) -> None:
    """La Papessa: tiara and an open book."""
    lw = LW
    thin = 3.5
    _tiara(p, 0, -0.05, 0.9)
    p.poly([(-0.8, 0.35), (0, 0.45), (0, 0.95), (-0.8, 0.85)], WHITE, INK, lw)
    p.poly([(0.8, 0.35), (0, 0.45), (0, 0.95), (0.8, 0.85)], WHITE, INK, lw)
    for i in range(4):
        y = 0.52 + 0.09 * i
        p.line([(-0.68, y), (-0.1, y + 0.06)], GREY, thin)
        p.line([(0.1, y + 0.06), (0.68, y)], GREY, thin)


def _emblem_ruler(p: Pen, emperor: bool) -> None:
    """L'Imperatrice / L'Imperatore: crown over an eagle shield; the Emperor's crown
    has five points and a staff, the Empress's three and a sceptre."""
    lw = LW
    p.poly([(-0.62, -0.35), (0.62, -0.35), (0.62, 0.35), (0, 0.98), (-0.62, 0.35)], OCHRE, INK, lw)
    _eagle(p.sub(0, 0.25, 0.55), lw)
    crown(p.sub(0, -0.55, 1 / 300), 0, 0, 140, 110, 5 if emperor else 3)
    if emperor:
        p.line([(0.8, -0.9), (0.8, 0.9)], INK, lw * 2.2)
        p.line([(0.8, -0.9), (0.8, 0.9)], OCHRE, lw)
        p.circle(0.8, -0.95, 0.1, OCHRE, INK, lw)
    else:
        p.circle(-0.82, -0.2, 0.14, BLUE, INK, lw)
        p.line([(-0.82, -0.05), (-0.82, 0.8)], INK, lw * 1.6)


def _emblem_papa(p: Pen) -> None:
    """Il Papa: tiara and crossed keys."""
    lw = LW
    _tiara(p, 0, -0.1, 0.9)
    for ang in (-40, 40):
        q = p.sub(0, 0.55, 0.55, math.radians(ang))
        q.line([(0, -0.7), (0, 0.8)], INK, lw * 3.2)
        q.line([(0, -0.7), (0, 0.8)], OCHRE if ang < 0 else GREY, lw * 1.6)
        q.circle(0, -0.85, 0.22, OCHRE if ang < 0 else GREY, INK, lw)
        q.rect(0, 0.5, 0.3, 0.7, OCHRE if ang < 0 else GREY, INK, lw)


def _emblem_amanti(p: Pen) -> None:
    """Gli Amanti: two hearts pierced by Cupid's arrow."""
    lw = LW
    thin = 3.5
    for x, c in ((-0.35, RED), (0.35, BLUE)):
        h = [(x, 0.55)] + [(x + 0.42 * math.sin(t) ** 3 * 1.0,
                           -0.05 - 0.33 * (13 * math.cos(t) - 5 * math.cos(2 * t)
                                           - 2 * math.cos(3 * t) - math.cos(4 * t)) / 16)
                           for t in (i * 2 * math.pi / 40 for i in range(1, 40))]
        p.poly(h, c, INK, lw)
    p.line([(-0.95, 0.55), (0.9, -0.55)], INK, lw * 1.4)
    p.poly([(0.9, -0.55), (0.7, -0.55), (0.8, -0.38)], INK, INK, lw)
    p.poly([(-0.95, 0.55), (-0.9, 0.75), (-0.78, 0.55), (-0.82, 0.4)], OCHRE, INK, thin)


def _emblem_carro(p: Pen) -> None:
    """Il Carro: the chariot, canopy and wheels."""
    lw = LW
    thin = 3.5
    p.poly([(-0.7, -0.65), (0.7, -0.65), (0.8, -0.45), (-0.8, -0.45)], RED, INK, lw)
    p.line([(-0.65, -0.45), (-0.65, 0.15)], INK, lw * 1.2)
    p.line([(0.65, -0.45), (0.65, 0.15)], INK, lw * 1.2)
    p.rect(-0.8, 0.1, 0.8, 0.5, BLUE, INK, lw)
    star = star_pts(0, 0.3, 0.14, 0.06, 5)
    p.poly(star, OCHRE, INK, thin)
    for x in (-0.55, 0.55):
        _wheel(p.sub(x, 0.62, 0.32), 1.0, lw, 6)


def _emblem_giustizia(p: Pen) -> None:
    """La Giustizia: scales and a sword."""
    lw = LW
    thin = 3.5
    sword_straight(p.sub(0, 0.05, 0.95), 2.0, lw)
    p.line([(-0.75, -0.5), (0.75, -0.5)], INK, lw * 1.5)
    for x in (-0.75, 0.75):
        p.line([(x, -0.5), (x - 0.22, 0.05)], INK, thin)
        p.line([(x, -0.5), (x + 0.22, 0.05)], INK, thin)
        p.poly(ellipse_pts(x, 0.05, 0.28, 0.15, 12, 0, math.pi), OCHRE, INK, lw)


def _emblem_eremita(p: Pen) -> None:
    """L'Eremita: lantern and staff."""
    lw = LW
    thin = 3.5
    p.line([(0.55, -0.95), (0.55, 0.95)], INK, lw * 3)
    p.line([(0.55, -0.95), (0.55, 0.95)], BROWN, lw * 1.6)
    p.line([(0.4, -0.55), (-0.2, -0.55), (-0.2, -0.45)], INK, thin)
    p.poly([(-0.45, -0.45), (0.05, -0.45), (0.12, -0.3), (-0.52, -0.3)], INK, INK, lw)
    p.poly([(-0.48, -0.3), (0.08, -0.3), (0.02, 0.3), (-0.42, 0.3)], PALE_OCHRE, INK, lw)
    p.ellipse(-0.2, 0.0, 0.09, 0.16, OCHRE, RED, thin)
    p.line([(-0.2, -0.3), (-0.2, 0.3)], INK, thin)
    p.rect(-0.5, 0.3, 0.1, 0.42, INK, INK, lw)


def _emblem_ruota(p: Pen) -> None:
    """La Ruota della Fortuna."""
    lw = LW
    _wheel(p, 0.85, lw, 8)
    p.rect(-0.08, 0.85, 0.08, 1.0, BROWN, INK, lw)
    p.poly([(-0.3, -0.85), (0.3, -0.85), (0.2, -1.0), (-0.2, -1.0)], RED, INK, lw)


def _emblem_forza(p: Pen) -> None:
    """La Forza: a column and a lion's head."""
    lw = LW
    thin = 3.5
    p.rect(-0.75, -0.75, -0.35, -0.6, OCHRE, INK, lw)
    p.rect(-0.7, -0.6, -0.4, 0.8, PALE_OCHRE, INK, lw)
    for x in (-0.6, -0.5):
        p.line([(x, -0.55), (x, 0.75)], GREY, thin)
    p.rect(-0.8, 0.8, -0.3, 0.95, OCHRE, INK, lw)
    mane = star_pts(0.35, 0.15, 0.62, 0.45, 14)
    p.poly(mane, BROWN, INK, lw)
    p.circle(0.35, 0.15, 0.38, OCHRE, INK, lw)
    for sx in (-1, 1):
        p.circle(0.35 + sx * 0.14, 0.05, 0.05, INK, None, 0)
    p.poly([(0.27, 0.2), (0.43, 0.2), (0.35, 0.3)], INK, INK, thin)
    p.line([(0.2, 0.38), (0.35, 0.42), (0.5, 0.38)], DARK_RED, thin)


def _emblem_appeso(p: Pen) -> None:
    """L'Appeso: gallows with the hanged man."""
    lw = LW
    thin = 3.5
    p.rect(-0.85, -0.9, 0.85, -0.75, BROWN, INK, lw)
    p.rect(-0.85, -0.75, -0.7, 0.95, BROWN, INK, lw)
    p.rect(0.7, -0.75, 0.85, 0.95, BROWN, INK, lw)
    p.line([(0, -0.75), (0, -0.5)], INK, thin)
    p.rect(-0.12, -0.5, 0.12, -0.05, BLUE, INK, lw)
    p.poly([(-0.18, -0.05), (0.18, -0.05), (0.3, 0.5), (-0.3, 0.5)], RED, INK, lw)
    p.circle(0, 0.68, 0.18, FLESH, INK, lw)
    p.poly(ellipse_pts(0, 0.68, 0.19, 0.19, 12, 0, math.pi), OCHRE, INK, thin)


def _emblem_morte(p: Pen) -> None:
    """La Morte: skull and scythe."""
    lw = LW
    thin = 3.5
    p.line([(-0.7, 0.95), (0.6, -0.9)], INK, lw * 2.4)
    p.line([(-0.7, 0.95), (0.6, -0.9)], BROWN, lw * 1.2)
    p.poly(bezier((0.6, -0.9), (0.1, -1.05), (-0.55, -0.7), 16)
           + bezier((-0.55, -0.7), (0.05, -0.82), (0.52, -0.72), 16), STEEL, INK, thin)
    p.ellipse(0, 0.1, 0.45, 0.42, WHITE, INK, lw)
    p.rect(-0.25, 0.4, 0.25, 0.65, WHITE, INK, lw)
    for sx in (-1, 1):
        p.ellipse(sx * 0.18, 0.12, 0.12, 0.14, INK, None, 0)
    p.poly([(-0.05, 0.32), (0.05, 0.32), (0, 0.22)], INK, INK, thin)
    for i in range(4):
        p.line([(-0.15 + 0.1 * i, 0.47), (-0.15 + 0.1 * i, 0.62)], INK, thin)


def _emblem_temperanza(p: Pen) -> None:
    """La Temperanza: water poured between two vases."""
    lw = LW
    for x, y, c in ((-0.55, -0.35, RED), (0.5, 0.45, BLUE)):
        q = p.sub(x, y, 0.42, math.radians(-30 if x < 0 else 0))
        cup(q, c, lw)
    p.line(bezier((-0.3, -0.6), (0.6, -0.5), (0.5, 0.12), 20), BLUE, lw * 2.2)
    p.line(bezier((-0.3, -0.6), (0.6, -0.5), (0.5, 0.12), 20), PALE_BLUE, lw)


def _emblem_diavolo(p: Pen) -> None:
    """Il Diavolo: horned mask and trident."""
    lw = LW
    thin = 3.5
    p.line([(0.75, -0.95), (0.75, 0.95)], INK, lw * 2.4)
    p.line([(0.75, -0.95), (0.75, 0.95)], OCHRE, lw * 1.1)
    p.line([(0.55, -0.95), (0.55, -0.7), (0.95, -0.7), (0.95, -0.95)], INK, lw * 1.4)
    for sx in (-1, 1):
        p.poly([(sx * 0.3, -0.35), (sx * 0.65, -0.95), (sx * 0.5, -0.3)], WHITE, INK, lw)
    p.poly([(-0.5, -0.35), (0.5, -0.35), (0.45, 0.2), (0, 0.7), (-0.45, 0.2)], RED, INK, lw)
    for sx in (-1, 1):
        p.poly([(sx * 0.1, -0.12), (sx * 0.35, -0.2), (sx * 0.3, -0.05)], OCHRE, INK, thin)
    p.poly([(-0.25, 0.25), (0.25, 0.25), (0, 0.4)], INK, INK, thin)
    p.poly([(-0.9, -0.3), (-0.55, -0.5), (-0.6, 0.2)], DARK_GREEN, INK, lw)  # wing


def _emblem_torre(p: Pen) -> None:
    """La Torre: tower struck by lightning."""
    lw = LW
    thin = 3.5
    p.rect(-0.45, -0.4, 0.45, 0.95, PALE_OCHRE, INK, lw)
    for i in range(5):
        p.rect(-0.5 + 0.22 * i, -0.55, -0.38 + 0.22 * i, -0.4, PALE_OCHRE, INK, thin)
    p.poly([(-0.1, 0.95), (-0.1, 0.55), (0.1, 0.55), (0.1, 0.95)], BROWN, INK, thin)
    p.rect(-0.12, 0.0, 0.12, 0.2, INK, INK, thin)
    for i in range(6):
        p.line([(-0.45, -0.15 + 0.2 * i), (0.45, -0.15 + 0.2 * i)], GREY, thin * 0.6)
    p.poly([(0.95, -1.0), (0.5, -0.65), (0.7, -0.62), (0.2, -0.2), (0.45, -0.55), (0.3, -0.58),
            (0.65, -0.95)], OCHRE, RED, thin)
    p.poly([(0.2, -0.6), (0.55, -0.75), (0.45, -0.45)], RED, INK, thin)


def _emblem_stelle(p: Pen) -> None:
    """Le Stelle."""
    lw = LW
    thin = 3.5
    p.poly(star_pts(0, -0.1, 0.7, 0.28, 8), OCHRE, INK, lw)
    p.poly(star_pts(0, -0.1, 0.35, 0.14, 8, -math.pi / 2 + math.pi / 8), RED, INK, thin)
    for x, y in ((-0.75, 0.6), (0.75, 0.6), (-0.8, -0.75), (0.8, -0.75), (0, 0.8)):
        p.poly(star_pts(x, y, 0.18, 0.07, 5), BLUE, INK, thin)


def _emblem_luna(p: Pen) -> None:
    """La Luna: crescent with a face, and falling drops."""
    lw = LW
    thin = 3.5
    outer = ellipse_pts(0, -0.1, 0.75, 0.75, 32, math.pi * 0.5, math.pi * 1.5)
    inner = ellipse_pts(-0.25, -0.1, 0.6, 0.6, 32, math.pi * 1.5, math.pi * 0.5)
    p.poly(outer + inner, PALE_BLUE, INK, lw)
    p.circle(-0.5, -0.2, 0.05, INK, None, 0)
    p.line([(-0.75, 0.15), (-0.6, 0.2)], DARK_RED, thin)
    for x, y in ((0.3, 0.55), (0.55, 0.75), (0.05, 0.8), (0.5, 0.25), (0.78, 0.45)):
        p.poly([(x, y - 0.12)] + ellipse_pts(x, y, 0.06, 0.06, 10, 0, math.pi), BLUE, INK, thin)


def _emblem_sole(p: Pen) -> None:
    """Il Sole."""
    thin = 3.5
    for i in range(16):
        a = 2 * math.pi * i / 16
        r1 = 0.95 if i % 2 == 0 else 0.78
        b = math.pi / 16
        p.poly([(0.5 * math.cos(a - b), 0.5 * math.sin(a - b)), (r1 * math.cos(a), r1 * math.sin(a)),
                (0.5 * math.cos(a + b), 0.5 * math.sin(a + b))], RED if i % 2 else OCHRE, INK, thin)
    _sun_face(p, 0.52)


def _emblem_angelo(p: Pen) -> None:
    """L'Angelo: trumpet from a cloud, rays and tears."""
    lw = LW
    thin = 3.5
    for i in range(7):
        a = math.pi * (0.2 + 0.6 * i / 6)
        p.line([(0, -0.2), (0.95 * math.cos(a), -0.2 + 0.95 * math.sin(a))], OCHRE, lw * 1.2)
    for x, y in ((-0.6, 0.5), (-0.2, 0.75), (0.25, 0.7), (0.6, 0.45)):
        p.poly([(x, y - 0.1)] + ellipse_pts(x, y, 0.05, 0.05, 8, 0, math.pi), RED, INK, thin)
    for x, r in ((-0.6, 0.28), (-0.25, 0.38), (0.2, 0.36), (0.58, 0.28)):
        p.circle(x, -0.35, r, WHITE, INK, lw)
    p.rect(-0.8, -0.35, 0.8, -0.05, WHITE, None, 0)
    p.line([(-0.85, -0.05), (0.85, -0.05)], INK, lw)
    p.poly([(-0.1, -0.6), (0.6, -0.95), (0.75, -1.0), (0.7, -0.8), (-0.05, -0.52)], OCHRE, INK,
           thin)
    p.circle(-0.28, -0.5, 0.13, FLESH, INK, thin)


def _emblem_mondo(p: Pen) -> None:
    """Il Mondo: globe in a laurel wreath."""
    lw = LW
    thin = 3.5
    p.ellipse(0, 0, 0.62, 0.9, None, DARK_GREEN, lw * 2)
    for i in range(18):
        a = 2 * math.pi * i / 18
        x, y = 0.62 * math.cos(a), 0.9 * math.sin(a)
        q = p.sub(x, y, 0.12, a)
        q.ellipse(0, 0, 1.0, 0.45, GREEN, INK, thin)
    p.circle(0, 0, 0.42, PALE_BLUE, INK, lw)
    p.line(ellipse_pts(0, 0, 0.18, 0.42, 24) + [(0.18, 0)], BLUE, thin)
    p.line([(-0.42, 0), (0.42, 0)], BLUE, thin)
    p.line(ellipse_pts(0, -0.2, 0.37, 0.06, 24, 0, math.pi), BLUE, thin)
    p.line(ellipse_pts(0, 0.2, 0.37, 0.06, 24, math.pi, 2 * math.pi), BLUE, thin)
    for x, y, c in ((-0.75, -0.85, RED), (0.75, -0.85, BLUE), (-0.75, 0.85, OCHRE),
                    (0.75, 0.85, GREEN)):
        p.circle(x, y, 0.12, c, INK, thin)


def _emblem_imperatrice(p: Pen) -> None:
    """L'Imperatrice: crown over an eagle shield, and a sceptre."""
    _emblem_ruler(p, emperor=False)


def _emblem_imperatore(p: Pen) -> None:
    """L'Imperatore: crown over an eagle shield, and a staff."""
    _emblem_ruler(p, emperor=True)


#: The drawing of each trump's emblem, by trump number (0 = the Matto).
EMBLEMS: dict[int, Callable[[Pen], None]] = {
    0: _emblem_matto,
    1: _emblem_bagatto,
    2: _emblem_papessa,
    3: _emblem_imperatrice,
    4: _emblem_imperatore,
    5: _emblem_papa,
    6: _emblem_amanti,
    7: _emblem_carro,
    8: _emblem_giustizia,
    9: _emblem_eremita,
    10: _emblem_ruota,
    11: _emblem_forza,
    12: _emblem_appeso,
    13: _emblem_morte,
    14: _emblem_temperanza,
    15: _emblem_diavolo,
    16: _emblem_torre,
    17: _emblem_stelle,
    18: _emblem_luna,
    19: _emblem_sole,
    20: _emblem_angelo,
    21: _emblem_mondo,
}


def emblem(p: Pen, n: int) -> None:
    """The emblem of trump ``n`` (0 = the Matto), drawn by its entry in :data:`EMBLEMS`."""
    draw = EMBLEMS.get(n)
    if draw is None:
        raise ValueError(f"no trump emblem numbered {n!r} (0 to 21)")
    draw(p)

