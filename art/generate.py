"""Draw the Tarocchi pack, its back, a contact sheet and the table dressing.

Run ``python -m art.generate [OUT_DIR]``: the 78 faces of the full pack and the back in
``cards/``, Scarto's versions of the three faces whose points differ in ``cards/scarto/``.
Output is deterministic: no randomness except a seeded generator for the felt, no
timestamps in the PNGs.
"""

from __future__ import annotations

import hashlib
import math
import random
import sys
from collections.abc import Callable
from multiprocessing import Pool
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from art import ART_DIR, CARD_SIZE, face_relpath
from art import SCARTO_OVERRIDES as ART_SCARTO_OVERRIDES
from art.draw import (
    BLUE,
    CREAM,
    DARK_GREEN,
    DARK_RED,
    GREEN,
    INK,
    LW,
    OCHRE,
    PALE_BLUE,
    PALE_OCHRE,
    RED,
    Colour,
    Pen,
    baton,
    bezier,
    coin,
    court,
    crown,
    cup,
    ellipse_pts,
    emblem,
    flower,
    grand_club,
    grand_sword,
    index_sign,
    leaf,
    ribbon_band,
    sabre,
    sprig,
    star_pts,
    sword_straight,
)

SS = 2  # supersampling factor
W, H = CARD_SIZE[0] * SS, CARD_SIZE[1] * SS
HALF = H // 2
RADIUS = 18 * SS

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
SANS_BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"
SERIF_BOLD = FONT_DIR / "DejaVuSerif-Bold.ttf"

SUITS = ("S", "B", "C", "D")
SUIT_NAMES = {"S": "Spade", "B": "Bastoni", "C": "Coppe", "D": "Denari"}
COURTS = ("K", "Q", "N", "J")
COURT_INDEX = {"K": "R", "Q": "D", "N": "C", "J": "F"}  # Re, Donna, Cavallo, Fante
COURT_TITLE = {"K": "RE", "Q": "DONNA", "N": "CAVALLO", "J": ""}  # the Fante is unlabelled
# Pip ranks in rank order, high to low (RULES R3 for Piedicavallo, S2 for the full pack)
NUMBERS_PIEDICAVALLO = {"S": ("10", "9", "8", "7", "6", "5"), "B": ("10", "9", "8", "7", "6", "5"),
                        "C": ("1", "2", "3", "4", "5", "6"), "D": ("1", "2", "3", "4", "5", "6")}
NUMBERS_FULL = {"S": tuple(str(n) for n in range(10, 0, -1)),
                "B": tuple(str(n) for n in range(10, 0, -1)),
                "C": tuple(str(n) for n in range(1, 11)), "D": tuple(str(n) for n in range(1, 11))}
NUMBERS = NUMBERS_PIEDICAVALLO  # the name older callers use
ROMAN = {"1": "I", "2": "II", "3": "III", "4": "IV", "5": "V", "6": "VI", "7": "VII",
         "8": "VIII", "9": "IX", "10": "X"}
TRUMP_TITLES = {
    0: "IL MATTO", 1: "IL BAGATTO", 2: "LA PAPESSA", 3: "L'IMPERATRICE", 4: "L'IMPERATORE",
    5: "IL PAPA", 6: "GLI AMANTI", 7: "IL CARRO", 8: "LA GIUSTIZIA", 9: "L'EREMITA",
    10: "LA RUOTA", 11: "LA FORZA", 12: "L'APPESO", 13: "LA MORTE", 14: "LA TEMPERANZA",
    15: "IL DIAVOLO", 16: "LA TORRE", 17: "LE STELLE", 18: "LA LUNA", 19: "IL SOLE",
    20: "L'ANGELO", 21: "IL MONDO",
}

SUIT_INK: dict[str, Colour] = {"S": BLUE, "B": DARK_GREEN, "C": RED, "D": (170, 110, 10, 255)}
TRUMP_FRAME: Colour = BLUE
COURT_FRAME: Colour = RED
MATTO_FRAME: Colour = DARK_GREEN

_TRUMPS = tuple(f"T{n}" for n in range(1, 22)) + ("M",)

#: The 62 cards of Piedicavallo (RULES R1), trumps, the Matto, then each suit high to low.
PIEDICAVALLO_CODES: tuple[str, ...] = _TRUMPS + tuple(
    s + r for s in SUITS for r in COURTS + NUMBERS_PIEDICAVALLO[s])
#: The full 78-card Tarocco Piemontese pack of Scarto (RULES S1), in the same order.
FULL_PACK_CODES: tuple[str, ...] = _TRUMPS + tuple(
    s + r for s in SUITS for r in COURTS + NUMBERS_FULL[s])
#: The 16 cards Piedicavallo strips out: Swords and Batons 1-4, Cups and Coins 7-10.
STRIPPED_CODES: tuple[str, ...] = tuple(c for c in FULL_PACK_CODES if c not in PIEDICAVALLO_CODES)
CARD_CODES = PIEDICAVALLO_CODES  # the name older callers use

_COURT_POINTS = {"K": 5, "Q": 4, "N": 3, "J": 2}


def _points_table(codes: tuple[str, ...], specials: dict[str, int]) -> dict[str, int]:
    return {c: specials.get(c, 1 if c.startswith("T") else _COURT_POINTS.get(c[1:], 1))
            for c in codes}


#: RULES R4: Kings, trump 1, trump 21 and the Matto 5; Queens 4; Knights 3; Jacks 2; others 1.
POINTS_PIEDICAVALLO: dict[str, int] = _points_table(PIEDICAVALLO_CODES,
                                                    {"T1": 5, "T21": 5, "M": 5})
#: RULES S3: Kings, trump 1 and trump 20 5; Queens and the Matto 4; Knights 3; Jacks 2; others 1.
POINTS_SCARTO: dict[str, int] = _points_table(FULL_PACK_CODES, {"T1": 5, "T20": 5, "M": 4})
POINTS = {"piedicavallo": POINTS_PIEDICAVALLO, "scarto": POINTS_SCARTO}
GAMES = tuple(POINTS)

#: The faces whose point dots differ in Scarto; drawn again under ``cards/scarto/``.
SCARTO_OVERRIDES: tuple[str, ...] = tuple(
    c for c in PIEDICAVALLO_CODES if POINTS_PIEDICAVALLO[c] != POINTS_SCARTO[c])
if SCARTO_OVERRIDES != ART_SCARTO_OVERRIDES:  # art/__init__ names them without Pillow
    raise RuntimeError(f"art.SCARTO_OVERRIDES should be {SCARTO_OVERRIDES}")


def points(code: str, game: str = "piedicavallo") -> int:
    """Card points in ``game`` (RULES R4 or S3); KeyError for a card not in that game's pack."""
    return POINTS[game][code]


def face_points(code: str, game: str = "piedicavallo") -> int:
    """The dots drawn on a face: the game's value where the card belongs to that game;
    the 16 cards only Scarto uses carry Scarto's (1 each) on the shared face."""
    return POINTS[game].get(code, POINTS_SCARTO[code])


# --------------------------------------------------------------------------------------
# Text
# --------------------------------------------------------------------------------------

def font(path: Path, size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.truetype(str(path), size)
    except OSError:
        return ImageFont.load_default(size=size)


def text_image(text: str, path: Path, size: int, fill: Colour, stroke: int = 0,
               stroke_fill: Colour | None = None) -> Image.Image:
    f = font(path, size)
    x0, y0, x1, y1 = f.getbbox(text, stroke_width=stroke)
    im = Image.new("RGBA", (max(1, x1 - x0), max(1, y1 - y0)), (0, 0, 0, 0))
    ImageDraw.Draw(im).text((-x0, -y0), text, font=f, fill=fill, stroke_width=stroke,
                            stroke_fill=stroke_fill)
    return im


def paste_text(canvas: Image.Image, text: str, box: tuple[float, float, float, float],
               path: Path = SANS_BOLD, fill: Colour = INK, align: str = "center",
               squeeze: float = 0.62, stroke: int = 0, stroke_fill: Colour | None = None) -> None:
    """Draw ``text`` fitted to the height of ``box``; squeeze it sideways if too wide."""
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    im = text_image(text, path, int(bh * 1.6), fill, stroke, stroke_fill)
    sc = bh / im.height
    w, h = im.width * sc, bh
    if w > bw:
        if w * squeeze <= bw:
            w = bw
        else:
            w *= squeeze
            k = bw / w
            w, h = bw, h * k
    im = im.resize((max(1, round(w)), max(1, round(h))), Image.Resampling.LANCZOS)
    if align == "left":
        px = x0
    elif align == "right":
        px = x1 - im.width
    else:
        px = x0 + (bw - im.width) / 2
    py = y0 + (bh - im.height) / 2
    canvas.alpha_composite(im, (round(px), round(py)))


# --------------------------------------------------------------------------------------
# Card furniture: outline, frame, index
# --------------------------------------------------------------------------------------

def blank() -> Image.Image:
    return Image.new("RGBA", (W, H), CREAM)


def rounded_mask() -> Image.Image:
    m = Image.new("L", (W, H), 0)
    ImageDraw.Draw(m).rounded_rectangle((0, 0, W - 1, H - 1), RADIUS, fill=255)
    return m


def frame(d: ImageDraw.ImageDraw, colour: Colour | None) -> None:
    """Black border line, and for picture cards a coloured frame band."""
    d.rounded_rectangle((3, 3, W - 4, H - 4), RADIUS - 2, outline=INK, width=6)
    if colour is not None:
        d.rounded_rectangle((14, 14, W - 15, H - 15), RADIUS - 8, outline=INK, width=18)
        d.rounded_rectangle((17, 17, W - 18, H - 18), RADIUS - 10, outline=colour, width=12)


INDEX_BOX = (24, 26, 156, 112)  # rank text box (2x) in the top-left corner
SIGN_CENTRE = (90, 166)
SIGN_R = 50
DOTS_Y = 236


def index_layer(rank_text: str, sign: str, pts: int, colour: Colour, font_path: Path,
                patch: Colour | None = None) -> Image.Image:
    """The corner index (rank, small sign, point dots) at top-left plus its 180° copy."""
    layer = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    if patch is not None:
        d.rounded_rectangle((18, 18, 166, 262), 22, fill=patch, outline=INK, width=4)
    paste_text(layer, rank_text, INDEX_BOX, font_path, colour, squeeze=0.55)
    index_sign(Pen(d, SIGN_CENTRE[0], SIGN_CENTRE[1], SIGN_R), sign, 4)
    # points for learners: a small, subtle row of dots
    r, gap = 7, 22
    x0 = 90 - (pts - 1) * gap / 2
    for i in range(pts):
        cx = x0 + i * gap
        d.ellipse((cx - r, DOTS_Y - r, cx + r, DOTS_Y + r), fill=(90, 80, 70, 150))
    layer.alpha_composite(layer.rotate(180))
    return layer


def finish(img: Image.Image) -> Image.Image:
    """Apply rounded corners and downsample to the final size."""
    img.putalpha(rounded_mask())
    # premultiply-safe downsample: corners become transparent, edges anti-aliased
    return img.resize(CARD_SIZE, Image.Resampling.LANCZOS)


def mirror_half(img: Image.Image, half: Image.Image) -> None:
    """Paste an upper half and its 180° rotation below, for a double-ended card."""
    img.alpha_composite(half, (0, 0))
    img.alpha_composite(half.rotate(180), (0, HALF))
    d = ImageDraw.Draw(img)
    d.line((24, HALF, W - 24, HALF), fill=INK, width=5)


# --------------------------------------------------------------------------------------
# Pip cards
# --------------------------------------------------------------------------------------

# Cups and Coins: x in columns (1 = 118 px at 2x from the middle), y in 330 px units.
# Up to 6, two columns; 7-10 as on the old packs: two columns of three or four, and
# one or two pips between them.
PIP_LAYOUTS: dict[int, list[tuple[float, float]]] = {
    2: [(0, -0.55), (0, 0.55)],
    3: [(0, -0.7), (0, 0), (0, 0.7)],
    4: [(-1, -0.55), (1, -0.55), (-1, 0.55), (1, 0.55)],
    5: [(-1, -0.7), (1, -0.7), (0, 0), (-1, 0.7), (1, 0.7)],
    6: [(-1, -0.7), (1, -0.7), (-1, 0), (1, 0), (-1, 0.7), (1, 0.7)],
    7: [(-1, -0.76), (1, -0.76), (0, -0.38), (-1, 0), (1, 0), (-1, 0.76), (1, 0.76)],
    8: [(-1, -0.76), (1, -0.76), (0, -0.38), (-1, 0), (1, 0), (0, 0.38), (-1, 0.76), (1, 0.76)],
    9: [(-1, -0.78), (1, -0.78), (-1, -0.26), (1, -0.26), (0, 0), (-1, 0.26), (1, 0.26),
        (-1, 0.78), (1, 0.78)],
    10: [(-1, -0.78), (1, -0.78), (0, -0.52), (-1, -0.26), (1, -0.26), (-1, 0.26), (1, 0.26),
         (0, 0.52), (-1, 0.78), (1, 0.78)],
}
PIP_RADIUS = {2: 118, 3: 100, 4: 92, 5: 92, 6: 92, 7: 80, 8: 80, 9: 72, 10: 72}
PIP_COLUMN = {7: 124, 8: 124, 9: 126, 10: 126}  # a touch wider for the crowded counts


def draw_swords(d: ImageDraw.ImageDraw, n: int) -> None:
    """Curved blades interlaced in an oval, a straight sword in the centre on odd counts;
    the low counts have flowers in and beside the oval, as on the old packs."""
    p = Pen(d, W / 2, H / 2, 1.0)
    k = n // 2
    spacing = 44 if k > 3 else 56
    blade = {2: 16, 3: 16, 4: 14}.get(n, 12)  # broader blades where there are few
    if n <= 4:
        for sgn in (-1, 1):  # leafy sprigs outside the oval, left and right
            sprig(p.sub(sgn * 212, 0, 120), RED if sgn < 0 else BLUE)
    for i in range(k):
        dx = (i - (k - 1) / 2) * spacing
        rx, c, hh = 150.0, 30.0, 330 - abs(dx) * 0.5
        # parallel bows bulging left, hilts near the top, and their 180-degree twins bulging
        # right: the curved blades cross in an oval lattice, as on the old swords cards
        a0, a1 = math.radians(256), math.radians(104)
        path = [(c + dx + rx * math.cos(a0 + (a1 - a0) * j / 40),
                 hh * math.sin(a0 + (a1 - a0) * j / 40)) for j in range(41)]
        sabre(p, path, blade)
        sabre(p, [(-x, -y) for x, y in path], blade)
    if n % 2:
        sword_straight(Pen(d, W / 2, H / 2 - 10, 400), 2.0, LW)
    elif n <= 4:  # a rosette with four leaves in the middle of the oval
        for a in range(4):
            leaf(p, 0, 0, 92 if n == 2 else 70, math.pi / 4 + a * math.pi / 2, GREEN, 3)
        flower(p.sub(0, 0, 44 if n == 2 else 34), BLUE, OCHRE, 3, 8)


def draw_batons(d: ImageDraw.ImageDraw, n: int) -> None:
    """Straight staves crossed in a lattice, an upright stave in the centre on odd counts;
    the low counts have flowers in the open angles between the staves."""
    k = n // 2
    gap = 78
    length = 760
    p = Pen(d, W / 2, H / 2, 1.0)
    if n <= 4:
        for sgn in (-1, 1):
            # top and bottom of the two: a sprig in the narrow angle (no room on 3 and 4)
            if n == 2:
                sprig(p.sub(0, sgn * 250, 120, 0 if sgn < 0 else math.pi), BLUE if sgn < 0 else RED)
            # left and right: a rosette in the wide angle
            flower(p.sub(sgn * 150, 0, 40 if n < 4 else 30), RED, OCHRE, 3, 6)
            for a in (-1, 1):
                leaf(p, sgn * (150 - 30), 0, 54, math.pi / 2 + sgn * math.pi / 2 + a * 0.9,
                     GREEN, 3)
    for sgn in (-1, 1):
        ang = math.radians(22) * sgn
        for i in range(k):
            o = (i - (k - 1) / 2) * gap
            cx = W / 2 + o * math.cos(ang)
            cy = H / 2 + o * math.sin(ang)
            baton(Pen(d, cx, cy, length / 2, ang), 2.0, LW, 0.055 if k > 1 else 0.065)
    if n % 2:
        baton(Pen(d, W / 2, H / 2, 400), 2.0, LW, 0.05 if k > 1 else 0.06)


def pip_card(code: str, game: str = "piedicavallo") -> Image.Image:
    suit, num = code[0], code[1:]
    n = int(num)
    img = blank()
    d = ImageDraw.Draw(img)
    # a thin inner double line, as on the old pip cards
    d.rounded_rectangle((18, 18, W - 19, H - 19), RADIUS - 8, outline=INK, width=3)
    d.rounded_rectangle((28, 28, W - 29, H - 29), RADIUS - 12, outline=(190, 150, 90, 255), width=3)
    if n == 1:
        draw_ace(img, d, suit)
    elif suit == "S":
        draw_swords(d, n)
    elif suit == "B":
        draw_batons(d, n)
    else:
        r = PIP_RADIUS[n]
        col = PIP_COLUMN.get(n, 118)
        for x, y in PIP_LAYOUTS[n]:
            pen = Pen(d, W / 2 + x * col, H / 2 + y * 330, r)
            if suit == "C":
                cup(pen, RED, LW)
            else:
                coin(pen, LW, rich=True)
        if suit == "D" and n == 2:  # a little flower between the two coins
            p = Pen(d, W / 2, H / 2, 1.0)
            for sgn in (-1, 1):
                p.ellipse(sgn * 52, 0, 40, 14, GREEN, INK, 4)
            p.poly(star_pts(0, 0, 30, 14, 6), BLUE, INK, 4)
            p.circle(0, 0, 9, OCHRE, None)
    if suit in "SB":
        label, fpath = ROMAN[num], SERIF_BOLD
    else:
        label, fpath = num, SANS_BOLD
    colour = SUIT_INK[suit]
    img.alpha_composite(index_layer(label, suit, face_points(code, game), colour, fpath, CREAM))
    frame(ImageDraw.Draw(img), None)
    return finish(img)


def _ace_swords(d: ImageDraw.ImageDraw) -> None:
    """The sword through a crown hung with laurel and palm, a red bow under the guard."""
    p = Pen(d, W / 2, H / 2, 1.0)
    # laurel (left) and palm (right) branches hanging from the crown, behind the sword
    for sgn in (-1, 1):
        stem = bezier((sgn * 40, -270), (sgn * 250, -200), (sgn * 165, 140), 24)
        p.line(stem, DARK_GREEN, 7)
        for t in range(3, 24, 3):
            x, y = stem[t]
            x1, y1 = stem[t + 1]
            tang = math.atan2(y1 - y, x1 - x)
            if sgn < 0:  # laurel: leaf pairs along the stem
                for side in (-1, 1):
                    leaf(p, x, y, 52, tang + side * 0.7, GREEN if side > 0 else DARK_GREEN, 3)
            else:  # palm: long fronds sweeping outward
                leaf(p, x, y, 74, tang - 0.9, GREEN, 3)
                leaf(p, x, y, 50, tang + 0.8, DARK_GREEN, 3)
    grand_sword(Pen(d, W / 2, H / 2 + 20, 430), LW)
    # the crown the point passes through (front band drawn over the blade)
    crown(Pen(d, W / 2, H / 2 - 236, 1.0), 0, 0, 96, 78, 5)
    # a red bow tied under the guard, its forked tails hanging out and down
    for sgn in (-1, 1):
        p.poly([(0, 300), (sgn * 60, 280), (sgn * 150, 330), (sgn * 175, 410),
                (sgn * 140, 385), (sgn * 118, 428), (sgn * 100, 350), (sgn * 40, 318)],
               RED, INK, 4)
        p.poly([(0, 300), (sgn * 70, 262), (sgn * 86, 300), (sgn * 64, 330)], DARK_RED, INK, 4)
    p.poly([(-22, 286), (22, 286), (18, 320), (-18, 320)], RED, INK, 4)


def _ace_batons(d: ImageDraw.ImageDraw) -> None:
    """The great knotted club in leaf and flowers, a ribbon wound about it."""
    p = Pen(d, W / 2, H / 2, 1.0)
    # sprays of leaves and flowers about the club, as on the old ace
    for sgn in (-1, 1):
        sprig(p.sub(sgn * 170, -140, 150, sgn * 0.35), BLUE if sgn < 0 else RED)
        sprig(p.sub(sgn * 150, 260, 120, sgn * 0.5), RED if sgn < 0 else BLUE)
    grand_club(Pen(d, W / 2, H / 2 + 10, 470), LW)
    # a red ribbon wound about the staff, twice
    ribbon_band(p, -70, 96, 14, 40, 70)
    ribbon_band(p, 130, 84, 14, 40, 70)


def _ace_cups(d: ImageDraw.ImageDraw) -> None:
    """The goblet as a flower vase."""
    p = Pen(d, W / 2, H / 2 + 120, 1.0)
    for x, y, c in ((-110, -330, RED), (0, -400, BLUE), (110, -330, RED), (-60, -250, OCHRE),
                    (60, -250, OCHRE)):
        p.line([(0, -160), (x * 0.6, (y - 160) / 2), (x, y)], DARK_GREEN, 8)
        p.poly(ellipse_pts(x * 0.55 + 20, (y - 160) / 2 + 20, 30, 12, 12), GREEN, INK, 3)
        p.poly(star_pts(x, y, 48, 24, 6), c, INK, LW)
        p.circle(x, y, 16, PALE_OCHRE, INK, 3)
    cup(Pen(d, W / 2, H / 2 + 170, 240), RED, LW)
    p2 = Pen(d, W / 2, H / 2 + 170, 240)
    p2.poly(star_pts(0, 0.0, 0.22, 0.1, 8), OCHRE, INK, LW)


def _ace_coins(d: ImageDraw.ImageDraw) -> None:
    """The grand coin in a wreath."""
    p = Pen(d, W / 2, H / 2, 1.0)
    for i in range(28):
        a = 2 * math.pi * i / 28
        q = p.sub(215 * math.cos(a), 215 * math.sin(a), 1.0, a + math.pi / 2)
        q.ellipse(0, 0, 26, 11, GREEN if i % 2 else DARK_GREEN, INK, 3)
    p.circle(0, 0, 196, RED, INK, LW)
    coin(Pen(d, W / 2, H / 2, 180), LW, rich=True)
    for sgn in (-1, 1):
        p.poly([(0, sgn * 250), (40, sgn * 320), (0, sgn * 390), (-40, sgn * 320)], BLUE, INK, LW)
        p.circle(0, sgn * 320, 14, OCHRE, INK, 3)


#: Each suit's ace, drawn whole on the card (no index numbers).
ACES: dict[str, Callable[[ImageDraw.ImageDraw], None]] = {
    "S": _ace_swords, "B": _ace_batons, "C": _ace_cups, "D": _ace_coins,
}


def draw_ace(img: Image.Image, d: ImageDraw.ImageDraw, suit: str) -> None:
    """The unnumbered aces: the sword through a crown hung with laurel and palm, the great
    knotted club in leaf, the goblet as a flower vase, and the grand coin."""
    ACES[suit](d)


# --------------------------------------------------------------------------------------
# Courts, trumps, Matto
# --------------------------------------------------------------------------------------

def half_canvas(ground: Colour | None = None) -> Image.Image:
    half = Image.new("RGBA", (W, HALF), (0, 0, 0, 0))
    if ground is not None:
        ImageDraw.Draw(half).rectangle((26, 26, W - 27, HALF), fill=ground)
    return half


def court_card(code: str, game: str = "piedicavallo") -> Image.Image:
    suit, rank = code[0], code[1]
    img = blank()
    half = half_canvas()
    hd = ImageDraw.Draw(half)
    # a floor band and a pale wall, as on the old courts
    hd.rectangle((26, 26, W - 27, HALF), fill=(246, 236, 210, 255))
    court(Pen(hd, 0, 0, 1.0), rank, suit)
    title = COURT_TITLE[rank]
    if title:
        hd.rounded_rectangle((186, 34, 600, 96), 14, fill=CREAM, outline=INK, width=4)
        paste_text(half, title, (200, 44, 586, 86), SERIF_BOLD, INK)
    mirror_half(img, half)
    colour = SUIT_INK[suit]
    img.alpha_composite(index_layer(COURT_INDEX[rank], suit, face_points(code, game), colour,
                                    SERIF_BOLD, CREAM))
    frame(ImageDraw.Draw(img), COURT_FRAME)
    return finish(img)


def trump_card(n: int, game: str = "piedicavallo") -> Image.Image:
    img = blank()
    half = half_canvas()
    hd = ImageDraw.Draw(half)
    matto = n == 0
    sky = (224, 236, 230, 255) if matto else (226, 234, 242, 255)
    # an arched niche behind the emblem
    arch = [(120, HALF)] + ellipse_pts(W / 2 + 20, 250, 210, 150, 24, math.pi, 2 * math.pi) \
        + [(W / 2 + 230, HALF)]
    hd.polygon([(x, y) for x, y in arch], fill=sky, outline=INK, width=4)
    emblem(Pen(hd, W / 2 + 20, 340, 185), n)
    hd.rounded_rectangle((186, 34, 600, 96), 14, fill=CREAM, outline=INK, width=4)
    paste_text(half, TRUMP_TITLES[n], (198, 44, 588, 86), SERIF_BOLD, INK)
    mirror_half(img, half)
    label = "0" if matto else str(n)
    colour = DARK_GREEN if matto else INK
    code = "M" if matto else f"T{n}"
    img.alpha_composite(index_layer(label, "M" if matto else "T", face_points(code, game), colour,
                                    SERIF_BOLD, CREAM))
    frame(ImageDraw.Draw(img), MATTO_FRAME if matto else TRUMP_FRAME)
    if matto:  # a gold inner line makes the Matto stand out in a fanned hand
        ImageDraw.Draw(img).rounded_rectangle((30, 30, W - 31, H - 31), RADIUS - 14,
                                              outline=OCHRE, width=6)
    return finish(img)


def back_card() -> Image.Image:
    """Dark blue ground, red lattice with ochre studs, a central medallion; 180° symmetric."""
    img = Image.new("RGBA", (W, H), CREAM)
    d = ImageDraw.Draw(img)
    navy = (26, 40, 92, 255)
    d.rounded_rectangle((26, 26, W - 27, H - 27), RADIUS - 8, fill=navy, outline=OCHRE, width=8)
    step = 64
    cx, cy = W / 2, H / 2
    lattice = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    ld = ImageDraw.Draw(lattice)
    for k in range(-20, 21):
        o = k * step
        ld.line((cx + o - 1000, cy - 1000, cx + o + 1000, cy + 1000), fill=RED, width=7)
        ld.line((cx + o + 1000, cy - 1000, cx + o - 1000, cy + 1000), fill=RED, width=7)
    for i in range(-12, 13):
        for j in range(-20, 21):
            if (i + j) % 2 == 0:
                x, y = cx + i * step / 2, cy + j * step / 2
                ld.ellipse((x - 8, y - 8, x + 8, y + 8), fill=OCHRE, outline=INK, width=2)
            else:
                x, y = cx + i * step / 2, cy + j * step / 2
                ld.polygon(star_pts(x, y, 12, 5, 4), fill=PALE_BLUE)
    m = Image.new("L", (W, H), 0)
    ImageDraw.Draw(m).rounded_rectangle((44, 44, W - 45, H - 45), RADIUS - 14, fill=255)
    img.paste(lattice, (0, 0), Image.composite(lattice, Image.new("RGBA", (W, H)), m))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((44, 44, W - 45, H - 45), RADIUS - 14, outline=OCHRE, width=4)
    p = Pen(d, cx, cy, 1.0)
    p.ellipse(0, 0, 170, 250, navy, OCHRE, 14)
    p.ellipse(0, 0, 170, 250, None, INK, 3)
    p.ellipse(0, 0, 140, 218, RED, INK, 4)
    p.poly(star_pts(0, 0, 190, 80, 8), OCHRE, INK, 4)
    p.poly(star_pts(0, 0, 110, 50, 8, -math.pi / 2 + math.pi / 8), PALE_OCHRE, INK, 3)
    p.circle(0, 0, 56, BLUE, INK, 4)
    coin(Pen(d, cx, cy, 44), 3)
    for sgn in (-1, 1):
        p.poly([(0, sgn * 270), (36, sgn * 330), (0, sgn * 390), (-36, sgn * 330)], OCHRE, INK, 4)
        p.poly([(sgn * 200, 0), (sgn * 240, -30), (sgn * 270, 0), (sgn * 240, 30)], OCHRE, INK, 4)
    frame(d, None)
    return finish(img)


def draw_card(code: str, game: str = "piedicavallo") -> Image.Image:
    """The face of ``code`` (or ``"back"``) with ``game``'s point dots."""
    if game not in POINTS:
        raise ValueError(f"unknown game {game!r}")
    if code == "back":
        return back_card()
    if code not in FULL_PACK_CODES:
        raise ValueError(f"no card {code!r}")
    if code == "M":
        return trump_card(0, game)
    if code.startswith("T"):
        return trump_card(int(code[1:]), game)
    if code[1] in COURTS:
        return court_card(code, game)
    return pip_card(code, game)


# --------------------------------------------------------------------------------------
# Table dressing
# --------------------------------------------------------------------------------------

#: The felt's mean colour where the light is full (the light map darkens it towards the rim).
FELT_BASE = (33, 104, 62)
#: Where the lamp hangs over the table (fractions of the width and height from the top
#: left): over the trick, a little above the middle (game/common/layout.py CENTRE).
LIGHT_CENTRE = (0.5, 0.41)


def _value_noise(w: int, h: int, cells: int, rng: random.Random) -> list[float]:
    """Smooth noise over w x h: a grid ``cells`` wide of random values, cosine-interpolated."""
    gw, gh = cells + 1, round(cells * h / w) + 1
    grid = [[rng.uniform(-1, 1) for _ in range(gw)] for _ in range(gh)]
    sx, sy = (gw - 1) / w, (gh - 1) / h
    out = [0.0] * (w * h)
    for y in range(h):
        gy, fy = divmod((y + 0.5) * sy, 1.0)
        y0, y1 = int(gy), min(int(gy) + 1, gh - 1)
        wy = (1 - math.cos(math.pi * fy)) / 2
        for x in range(w):
            gx, fx = divmod((x + 0.5) * sx, 1.0)
            x0, x1 = int(gx), min(int(gx) + 1, gw - 1)
            wx = (1 - math.cos(math.pi * fx)) / 2
            top = grid[y0][x0] * (1 - wx) + grid[y0][x1] * wx
            bottom = grid[y1][x0] * (1 - wx) + grid[y1][x1] * wx
            out[y * w + x] = top * (1 - wy) + bottom * wy
    return out


def felt() -> Image.Image:
    """A tileable green baize: a fine grain and short fibres along both weave directions,
    all with wrap-around, so the 256 px tile repeats without seams.  Only fine detail:
    anything broader would repeat visibly; the broad light is :func:`light`'s."""
    n = 256
    rng = random.Random(1750)
    grain = [rng.uniform(-1, 1) for _ in range(n * n)]
    data = bytearray()
    for y in range(n):
        row = y * n
        up, down = ((y - 1) % n) * n, ((y + 1) % n) * n
        for x in range(n):
            if (x // 4 + y // 4) % 2:  # a basket weave of short fibres
                f = grain[row + (x - 1) % n] + grain[row + x] + grain[row + (x + 1) % n]
            else:
                f = grain[up + x] + grain[row + x] + grain[down + x]
            v = f / 3 * 6 + grain[row + x] * 2.5
            data += bytes(max(0, min(255, round(c + v * k))) for c, k in zip(FELT_BASE, (0.7, 1.0, 0.8),
                                                                             strict=True))
    return Image.frombytes("RGB", (n, n), bytes(data)).convert("RGBA")


def light() -> Image.Image:
    """The lamp over the table, laid over the felt (alpha-composited, stretched to the
    screen): a warm glow under the lamp shading into a dark rim (a vignette), with a soft
    cloudiness, as a baize never lies quite evenly.  Smooth, so a small image stretched
    stays smooth; the screen's size, so nothing in it repeats."""
    w, h = 320, 180
    rng = random.Random(1751)
    cloud = [a * 0.65 + b * 0.35 for a, b in zip(_value_noise(w, h, 7, rng), _value_noise(w, h, 19, rng),
                                               strict=True)]
    cx, cy = LIGHT_CENTRE[0] * w, LIGHT_CENTRE[1] * h
    data = bytearray()
    for y in range(h):
        for x in range(w):
            # elliptical distance from the lamp: about 1.0 at the middle of each edge
            dx, dy = (x + 0.5 - cx) / (w * 0.55), (y + 0.5 - cy) / (h * 0.6)
            r = math.hypot(dx, dy)
            shade = min(1.0, max(0.0, (r - 0.3) / 0.9)) ** 1.5  # 0 under the lamp
            dark = max(0.0, min(1.0, 0.08 + 0.62 * shade + 0.07 * cloud[y * w + x]))
            glow = max(0.0, 1.0 - r / 0.5) ** 2  # the warm pool of light
            if glow * 0.12 > dark:
                data += bytes((255, 238, 196, round(255 * (glow * 0.12 - dark))))
            else:
                data += bytes((0, 10, 4, round(255 * (dark - glow * 0.12))))
    return Image.frombytes("RGBA", (w, h), bytes(data))


def icon_canvas(size: int = 64) -> tuple[Image.Image, ImageDraw.ImageDraw, int]:
    s = size * 4
    im = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    return im, ImageDraw.Draw(im), s


def icon_done(im: Image.Image, size: int = 64) -> Image.Image:
    return im.resize((size, size), Image.Resampling.LANCZOS)


def icon_disc(d: ImageDraw.ImageDraw, s: int) -> None:
    d.ellipse((8, 8, s - 9, s - 9), fill=CREAM, outline=INK, width=14)
    d.ellipse((26, 26, s - 27, s - 27), outline=OCHRE, width=6)


def arrow_icon(redo: bool) -> Image.Image:
    im, d, s = icon_canvas()
    icon_disc(d, s)
    p = Pen(d, s / 2, s / 2 + 6, 1.0, flip=redo)
    arc = ellipse_pts(0, 14, 66, 60, 24, math.pi * 1.0, math.pi * 2.15)
    p.line(arc, INK, 24)
    # arrowhead at the left end of the arc, pointing down
    p.poly([(-106, 6), (-26, 6), (-66, 66)], INK, INK, 2)
    return icon_done(im)


def hint_icon() -> Image.Image:
    im, d, s = icon_canvas()
    icon_disc(d, s)
    p = Pen(d, s / 2, s / 2, 1.0)
    p.poly([(-40, -10)] + ellipse_pts(0, -20, 56, 56, 24, math.pi * 0.8, math.pi * 2.2)
           + [(40, -10), (22, 30), (-22, 30)], OCHRE, INK, 8)
    p.rect(-22, 34, 22, 66, (120, 120, 120, 255), INK, 8)
    for a in range(5):
        ang = math.pi * (1.1 + 0.2 * a)
        p.line([(84 * math.cos(ang), -20 + 84 * math.sin(ang)),
                (104 * math.cos(ang), -20 + 104 * math.sin(ang))], OCHRE, 10)
    return icon_done(im)


def speed_icon() -> Image.Image:
    im, d, s = icon_canvas()
    icon_disc(d, s)
    p = Pen(d, s / 2, s / 2, 1.0)
    p.poly([(-80, -55), (-5, 0), (-80, 55)], BLUE, INK, 8)
    p.poly([(0, -55), (75, 0), (0, 55)], BLUE, INK, 8)
    return icon_done(im)


def sound_icon(on: bool) -> Image.Image:
    im, d, s = icon_canvas()
    icon_disc(d, s)
    p = Pen(d, s / 2 - 20, s / 2, 1.0)
    p.poly([(-60, -25), (-25, -25), (15, -62), (15, 62), (-25, 25), (-60, 25)], INK, INK, 4)
    if on:
        for r in (40, 70):
            p.line(ellipse_pts(15, 0, r, r, 16, -math.pi / 3.2, math.pi / 3.2), INK, 12)
    else:
        p.line([(40, -36), (100, 36)], RED, 16)
        p.line([(40, 36), (100, -36)], RED, 16)
    return icon_done(im)


def menu_icon() -> Image.Image:
    im, d, s = icon_canvas()
    icon_disc(d, s)
    for y in (-48, 0, 48):
        d.rounded_rectangle((s / 2 - 70, s / 2 + y - 12, s / 2 + 70, s / 2 + y + 12), 12, fill=INK)
    return icon_done(im)


# The replay's and the review's transport: the same discs as the table's buttons, the
# signs of a player of recordings (a bar marks a step to the start of a card or a trick).

def _bar_and_heads(p: Pen, heads: int) -> None:
    """A bar then ``heads`` triangles pointing left from it (a step back; mirrored, on)."""
    p.rect(-84, -56, -62, 56, INK, INK, 2)
    width = 118 / heads
    for i in range(heads):
        x0 = -54 + i * width
        p.poly([(x0, 0), (x0 + width, -56), (x0 + width, 56)], INK, INK, 2)


def step_icon(heads: int, forward: bool) -> Image.Image:
    """One card (one triangle) or one trick (two) back, or on (``forward``)."""
    im, d, s = icon_canvas()
    icon_disc(d, s)
    _bar_and_heads(Pen(d, s / 2 + (6 if forward else -6), s / 2, 1.0, flip=forward), heads)
    return icon_done(im)


def back_icon() -> Image.Image:
    """Back to where the player came from: an arrow pointing left."""
    im, d, s = icon_canvas()
    icon_disc(d, s)
    p = Pen(d, s / 2, s / 2, 1.0)
    p.line([(-20, 0), (76, 0)], INK, 30)
    p.poly([(-86, 0), (-14, -60), (-14, 60)], INK, INK, 2)
    return icon_done(im)


def play_icon(playing: bool) -> Image.Image:
    """Play (a triangle) or, while playing, pause (two bars)."""
    im, d, s = icon_canvas()
    icon_disc(d, s)
    p = Pen(d, s / 2, s / 2, 1.0)
    if playing:
        p.rect(-50, -58, -14, 58, BLUE, INK, 8)
        p.rect(14, -58, 50, 58, BLUE, INK, 8)
    else:
        p.poly([(-44, -66), (70, 0), (-44, 66)], BLUE, INK, 8)
    return icon_done(im)


def tempo_icon(faster: bool) -> Image.Image:
    """Slower or faster: the speed button's chevrons, one, under a minus or a plus."""
    im, d, s = icon_canvas()
    icon_disc(d, s)
    p = Pen(d, s / 2, s / 2, 1.0)
    p.poly([(-86, -50), (-20, 0), (-86, 50)], BLUE, INK, 8)
    p.rect(4, -13, 84, 13, INK, INK, 2)
    if faster:
        p.rect(31, -40, 57, 40, INK, INK, 2)
    return icon_done(im)


def hands_icon() -> Image.Image:
    """The hands shown or hidden: three cards fanned, the front one face up."""
    im, d, s = icon_canvas()
    icon_disc(d, s)
    for k, ang in enumerate((-0.42, 0.0, 0.42)):
        p = Pen(d, s / 2, s / 2 + 66, 1.0, ang=ang)
        face = k == 2
        p.rect(-30, -136, 30, -36, CREAM if face else BLUE, INK, 8)
        if face:
            p.circle(0, -86, 14, RED, INK, 4)
    return icon_done(im)


#: the transport's icons, by their file names under art/table
THEATRE_ICONS: dict[str, Callable[[], Image.Image]] = {
    "back": back_icon,
    "prev_trick": lambda: step_icon(2, False), "prev_card": lambda: step_icon(1, False),
    "play": lambda: play_icon(False), "pause": lambda: play_icon(True),
    "next_card": lambda: step_icon(1, True), "next_trick": lambda: step_icon(2, True),
    "slower": lambda: tempo_icon(False), "faster": lambda: tempo_icon(True), "hands": hands_icon,
}


def dealer_button() -> Image.Image:
    im, d, s = icon_canvas(96)
    d.ellipse((8, 8, s - 9, s - 9), fill=OCHRE, outline=INK, width=16)
    d.ellipse((40, 40, s - 41, s - 41), fill=CREAM, outline=DARK_RED, width=10)
    p = Pen(d, s / 2, s / 2, 1.0)
    pts = []
    for i in range(9):
        pts.append((-90 + 180 * i / 8, -120 if i % 2 == 0 else -80))
    p.poly([(-90, -60)] + pts + [(90, -60)], OCHRE, INK, 6)
    paste_text(im, "D", (s / 2 - 80, s / 2 - 40, s / 2 + 80, s / 2 + 110), SERIF_BOLD, DARK_RED)
    return icon_done(im, 96)


def pile_icon(back: Image.Image) -> Image.Image:
    size = (72, 96)
    im = Image.new("RGBA", size, (0, 0, 0, 0))
    small = back.resize((46, 85), Image.Resampling.LANCZOS)
    shadow = Image.new("RGBA", small.size, (0, 0, 0, 90))
    for i in range(5):
        off = 4 * (4 - i)
        im.alpha_composite(Image.composite(shadow, Image.new("RGBA", small.size), small),
                           (8 + off + 1, 3 + off // 2 + 2))
        im.alpha_composite(small, (8 + off, 3 + off // 2))
    return im


# --------------------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------------------

def save_png(img: Image.Image, path: Path) -> None:
    """Save without metadata: identical pixels give identical bytes. zlib level 6: files
    about 1.5% larger than level 9 (``optimize``) but written four times faster."""
    path.parent.mkdir(parents=True, exist_ok=True)
    img.save(path, format="PNG", compress_level=6)


def face_file(out_dir: Path, code: str, game: str = "piedicavallo") -> Path:
    """Where ``generate`` writes a face: ``cards/<CODE>.png``, or for Scarto's versions of
    :data:`SCARTO_OVERRIDES` ``cards/scarto/<CODE>.png``."""
    return Path(out_dir) / face_relpath(code, game)


#: Every face written: (code, game) with game "piedicavallo" for the shared faces.
FACES: tuple[tuple[str, str], ...] = (
    tuple((c, "piedicavallo") for c in (*FULL_PACK_CODES, "back"))
    + tuple((c, "scarto") for c in SCARTO_OVERRIDES))


def _render(args: tuple[str, str, str]) -> str:
    code, game, out = args
    save_png(draw_card(code, game), face_file(Path(out), code, game))
    return code


def sheet_layout() -> list[list[tuple[str, str] | None]]:
    """Rows of the contact sheet: trumps and the Matto with the back and Scarto's three
    faces beside them, then one row per suit (None leaves a gap)."""
    trumps = [(f"T{n}", "piedicavallo") for n in range(1, 22)] + [("M", "piedicavallo")]
    rows: list[list[tuple[str, str] | None]] = [
        [*trumps[:11], None, None, None, ("back", "piedicavallo")],
        [*trumps[11:], None, *((c, "scarto") for c in SCARTO_OVERRIDES)],
    ]
    for suit in SUITS:
        rows.append([(c, "piedicavallo") for c in FULL_PACK_CODES if c[0] == suit])
    return rows


def contact_sheet(out_dir: Path, width: int = 116) -> Image.Image:
    """All 78 faces, the back and Scarto's three faces, labelled with their codes."""
    rows = sheet_layout()
    cols = max(len(r) for r in rows)
    h = round(width * CARD_SIZE[1] / CARD_SIZE[0])
    pad, label, legend = 10, 24, 34
    felt_green = (34, 102, 58, 255)
    sheet = Image.new("RGBA", (cols * (width + pad) + pad,
                               len(rows) * (h + pad + label) + pad + legend), felt_green)
    d = ImageDraw.Draw(sheet)
    f = font(SANS_BOLD, 15)
    plain, stripped, scarto = (240, 236, 220, 255), (246, 206, 110, 255), (170, 210, 255, 255)
    for j, row in enumerate(rows):
        for i, entry in enumerate(row):
            if entry is None:
                continue
            code, game = entry
            x = pad + i * (width + pad)
            y = pad + j * (h + pad + label)
            card = Image.open(face_file(out_dir, code, game)).convert("RGBA")
            sheet.alpha_composite(card.resize((width, h), Image.Resampling.LANCZOS), (x, y))
            if game == "scarto":
                text, fill = f"{code} (Scarto)", scarto
                d.rounded_rectangle((x - 5, y - 5, x + width + 4, y + h + label - 2), 8,
                                    outline=scarto, width=2)
            else:
                text, fill = code, stripped if code in STRIPPED_CODES else plain
            d.text((x + width / 2, y + h + 4), text, font=f, fill=fill, anchor="mt")
    y = sheet.height - legend + 4
    d.text((pad, y), "gold codes: the 16 cards only Scarto uses (Piedicavallo strips them, R1)",
           font=f, fill=stripped)
    d.text((sheet.width - pad, y), "(Scarto): Scarto's point dots, S3", font=f, fill=scarto,
           anchor="ra")
    return sheet


def generate(out_dir: Path | str = ART_DIR, processes: int = 2) -> list[Path]:
    """Write all card faces, the back, Scarto's overrides, the contact sheet and table
    images under ``out_dir``."""
    out = Path(out_dir)
    jobs = [(c, g, str(out)) for c, g in FACES]
    if processes > 1:
        with Pool(processes) as pool:
            list(pool.imap_unordered(_render, jobs, chunksize=3))
    else:
        for job in jobs:
            _render(job)
    written = [face_file(out, c, g) for c, g in FACES]
    sheet = out / "contact-sheet.png"
    save_png(contact_sheet(out), sheet)
    written.append(sheet)
    table = out / "table"
    back = Image.open(out / "cards" / "back.png").convert("RGBA")
    items = {
        "felt": felt(), "light": light(), "dealer": dealer_button(), "pile": pile_icon(back),
        "undo": arrow_icon(False), "redo": arrow_icon(True), "hint": hint_icon(),
        "speed": speed_icon(), "sound_on": sound_icon(True), "sound_off": sound_icon(False),
        "menu": menu_icon(), **{name: draw() for name, draw in THEATRE_ICONS.items()},
    }
    for name, im in items.items():
        save_png(im, table / f"{name}.png")
        written.append(table / f"{name}.png")
    return written


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m art.generate",
                                 description="Draw the card faces and table pieces.")
    ap.add_argument("out", nargs="?", default=str(ART_DIR),
                    help=f"the folder to write into (default {ART_DIR})")
    ap.add_argument("--web", default=None,
                    help="the folder for the browser seat's sprite sheets (default: online/web "
                         "beside the art folder when drawing into it, else OUT_DIR/web)")
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    out = Path(args.out)
    files = generate(out)
    print(f"wrote {len(files)} images under {out}")
    from art.web import WEB_OUT, write_sprites

    web = Path(args.web) if args.web else (WEB_OUT if out.resolve() == ART_DIR else out / "web")
    web.mkdir(parents=True, exist_ok=True)
    sheets = write_sprites(out, web)
    print(f"wrote {len(sheets)} sprite sheets under {web}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
