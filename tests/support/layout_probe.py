"""What a view really draws, in draw order, read from the draw calls themselves:
every text's box (``arcade.Text``: its position, ``content_width`` and height),
every card face's index corner, every opaque picture laid over the screen
(cards, backs, panels, pills, buttons), and the seats' name plates of a table
(painted in the view's backdrop, so logged where the table is drawn), mapped
through the camera each was drawn with into logical 1280x720 coordinates.
:func:`collisions` then lists the texts that meet another text or a card's
index corner, whatever a later picture hides of them, and every text, card or
panel laid over a name plate that is not its own.  Used by
``tests/test_layout_scenes.py``."""

from __future__ import annotations

import weakref
from dataclasses import dataclass

import arcade
import pyglet

from game.common import layout
from game.table.scene.shadows import SHADOW_MARGIN

Rect = tuple[float, float, float, float]  # left, bottom, right, top (logical)

#: of the card art (art/generate.py): the index box and the suit sign under it
try:
    from art.generate import INDEX_BOX, SIGN_CENTRE, SIGN_R, H, W
except ImportError:  # pragma: no cover - the art package is part of the project
    raise


@dataclass
class Drawn:
    kind: str  # "text", "face" (a card face: its index corner), "cover" (an opaque picture), "plate"
    rect: Rect  # the text's box, the face's whole rect, the cover's or the plate's
    what: str  # the text, the card, the picture
    order: int
    corner: Rect | None = None  # a face's index corner
    ident: int = 0
    own: frozenset[int] = frozenset()  # a plate's own texts (its name, its second line, its letter)


_texts: weakref.WeakSet = weakref.WeakSet()
_installed = False
_log: list[Drawn] | None = None
_size: tuple[int, int] = (1280, 720)


def _hook_texts() -> None:
    """Every text made is known; a text drawn alone or with its batch is logged."""
    init, draw = arcade.Text.__init__, arcade.Text.draw
    batch_draw = pyglet.graphics.Batch.draw

    def text_init(self, *a, **k):
        init(self, *a, **k)
        _texts.add(self)

    def text_draw(self, *a, **k):
        if _log is not None:
            _text(self)
        return draw(self, *a, **k)

    def b_draw(self, *a, **k):
        if _log is not None:
            for t in list(_texts):
                if t._label.batch is self:
                    _text(t)
        return batch_draw(self, *a, **k)

    arcade.Text.__init__, arcade.Text.draw = text_init, text_draw
    pyglet.graphics.Batch.draw = b_draw


def _hook_pictures():
    """Sprites and textures drawn are logged; returns the texture hook."""
    sl_draw = arcade.SpriteList.draw
    tex_rect = arcade.draw_texture_rect

    def s_draw(self, *a, **k):
        if _log is not None:
            for s in self:
                _sprite(s)
        return sl_draw(self, *a, **k)

    def t_rect(texture, rect, *a, **k):
        if _log is not None:
            _cover(rect.left, rect.bottom, rect.right, rect.top, _name(texture))
        return tex_rect(texture, rect, *a, **k)

    arcade.SpriteList.draw = s_draw
    arcade.draw_texture_rect = t_rect
    return t_rect


def _hook_panels() -> None:
    """Filled rectangles all but opaque are logged as panels."""
    fill_lbwh, fill_lrbt = arcade.draw_lbwh_rectangle_filled, arcade.draw_lrbt_rectangle_filled

    def f_lbwh(left, bottom, width, height, color, *a, **k):
        if _log is not None and (len(color) < 4 or color[3] >= 200):
            _cover(left, bottom, left + width, bottom + height, "a filled panel")
        return fill_lbwh(left, bottom, width, height, color, *a, **k)

    def f_lrbt(left, right, bottom, top, color, *a, **k):
        if _log is not None and (len(color) < 4 or color[3] >= 200):
            _cover(left, bottom, right, top, "a filled panel")
        return fill_lrbt(left, right, bottom, top, color, *a, **k)

    arcade.draw_lbwh_rectangle_filled, arcade.draw_lrbt_rectangle_filled = f_lbwh, f_lrbt


def _hook_plates() -> None:
    """A table drawn logs its seats' name plates first (they lie in the backdrop,
    under everything the table draws), unless a sheet has put them away."""
    from game.table.scene.table_scene import TableScene

    draw = TableScene.draw

    def t_draw(self, *a, **k):
        if _log is not None and not self.cleared:
            lb = self.labels
            for seat, rect in enumerate(lb.plates):
                own = frozenset(id(t) for t in (lb.name_texts[seat], lb.counts[seat], lb.letters[seat]))
                _add(Drawn("plate", _map(*rect), f"the plate of {lb.rules.seat_names[seat]}", 0, own=own))
        return draw(self, *a, **k)

    TableScene.draw = t_draw


def install() -> None:
    """Hook the draw calls (once a session); nothing is recorded outside :func:`record`."""
    global _installed
    if _installed:
        return
    _installed = True
    _hook_panels()
    _hook_plates()
    _hook_texts()
    t_rect = _hook_pictures()
    import game.common.ui

    game.common.ui.arcade.draw_texture_rect = t_rect  # the same module object: for clarity


class record:
    """``with record(size) as log:`` the frames drawn inside are logged (a window of ``size``)."""

    def __init__(self, size: tuple[int, int] = (1280, 720)) -> None:
        self.size = size
        self.log: list[Drawn] = []

    def __enter__(self) -> list[Drawn]:
        global _log, _size
        install()
        _log, _size = self.log, self.size
        return self.log

    def __exit__(self, *exc) -> None:
        global _log
        _log = None


def _map(left: float, bottom: float, right: float, top: float) -> Rect:
    """World coordinates of the camera in use -> logical coordinates of the screen."""
    cam = arcade.get_window().current_camera
    w, h = _size
    pts = []
    for x, y in ((left, bottom), (right, top)):
        px, py = cam.project((x, y))[:2]
        pts.append(layout.to_logical(px, py, w, h))
    (x0, y0), (x1, y1) = pts
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


def _add(d: Drawn) -> None:
    assert _log is not None
    d.order = len(_log)
    _log.append(d)


def _text(t) -> None:
    if not t.text or not t.visible or len(t.color) > 3 and t.color[3] == 0:
        return
    _add(Drawn("text", _map(t.left, t.bottom, t.right, t.top), t.text, 0, ident=id(t)))


def _name(texture) -> str:
    return str(getattr(texture, "_hash", None) or getattr(texture, "cache_name", ""))


def _cover(left, bottom, right, top, name: str) -> None:
    _add(Drawn("cover", _map(left, bottom, right, top), name, 0))


def _sprite(s) -> None:
    if not s.visible or s.alpha == 0:
        return
    name = _name(s.texture)
    if name.startswith(("soft:", "table:")) or s.center_x < -5000:
        return  # shadows, glows, the dealer's chip: soft-edged, never over an index
    w, h = s.width, s.height
    m = SHADOW_MARGIN if name.startswith("fan:") else 0  # a hidden hand's picture holds its shadow
    rect = _map(s.center_x - w / 2 + m, s.center_y - h / 2 + m, s.center_x + w / 2 - m, s.center_y + h / 2 - m)
    if name.startswith(("card:", "strip:")) and not name.startswith("card:back") and s.angle % 360 == 0:
        left, _b, right, top = rect
        full_h = rect[3] - rect[1]
        full_w = full_h * W / H
        corner = (left, top - full_h * (SIGN_CENTRE[1] + SIGN_R) / H, left + full_w * INDEX_BOX[2] / W, top)
        _add(Drawn("face", rect, name, 0, corner=corner, ident=id(s)))
        return
    if s.angle % 90:
        return  # a card on its way at an angle: in flight, not laid out
    if s.angle % 180:
        cx, cy = (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2
        rect = (cx - h / 2 * (rect[2] - rect[0]) / w, cy - w / 2 * (rect[3] - rect[1]) / h,
                cx + h / 2 * (rect[2] - rect[0]) / w, cy + w / 2 * (rect[3] - rect[1]) / h)
    _add(Drawn("cover", rect, name, 0, ident=id(s)))


def _meet(a: Rect, b: Rect, slack: float = 0.5) -> bool:
    return a[0] + slack < b[2] and b[0] + slack < a[2] and a[1] + slack < b[3] and b[1] + slack < a[3]


def _inside(a: Rect, b: Rect) -> bool:
    return b[0] <= a[0] and b[1] <= a[1] and a[2] <= b[2] and a[3] <= b[3]


def _hidden(card: Drawn, text: Drawn, log: list[Drawn]) -> bool:
    """Whether a panel drawn between ``card`` and ``text`` covers where they meet."""
    a, b = card.rect, text.rect
    meet = (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
    return any(p.kind == "cover" and not p.what.startswith(("card:", "strip:", "fan:"))
               and p.rect[0] <= meet[0] and p.rect[1] <= meet[1] and p.rect[2] >= meet[2] and p.rect[3] >= meet[3]
               for p in log[card.order + 1:text.order])


_CARDS = ("card:", "strip:", "fan:")  # the pictures of cards (faces, backs, hidden hands)
_SOFT = ("soft:", "table:")  # soft-edged marks (a glow, the dealer's chip): never logged as covers


def _texts_meeting(texts: list[Drawn], faces: list[Drawn]) -> list[str]:
    """Every text that meets another text or a card's index corner."""
    out: list[str] = []
    seen: set[tuple] = set()
    for i, a in enumerate(texts):
        for b in texts[i + 1:]:
            # two lines of text may touch by the line gap their boxes hold (2 px)
            if a.ident != b.ident and _meet(a.rect, b.rect, 2.0) and (a.what, b.what) not in seen:
                seen.add((a.what, b.what))
                out.append(f"text {a.what!r} meets text {b.what!r}")
        for f in faces:
            if f.corner and _meet(a.rect, f.corner):
                out.append(f"text {a.what!r} meets the index of {f.what}")
    return out


def _text_layers(d: Drawn, log: list[Drawn]) -> list[str]:
    """A text drawn over a card (not hidden by a panel between), or under a picture."""
    out: list[str] = []
    under = [c for c in log[:d.order] if c.kind == "face" or c.kind == "cover" and c.what.startswith(_CARDS)]
    under = [c for c in under if _meet(c.rect, d.rect) and not _hidden(c, d, log)]
    if under:
        out.append(f"text {d.what!r} is over {under[0].what}")
    hidden = [c for c in log[d.order + 1:] if c.kind in ("cover", "face") and _meet(c.rect, d.rect)]
    if hidden:
        out.append(f"text {d.what!r} is under {hidden[0].what}")
    return out


def _card_layers(d: Drawn, log: list[Drawn]) -> list[str]:
    """A card half under a later panel, or its index corner under a later picture."""
    out: list[str] = []
    if d.kind in ("face", "cover") and d.what.startswith(_CARDS):
        over = [c for c in log[d.order + 1:] if c.kind == "cover" and not c.what.startswith(_CARDS)
                and _meet(c.rect, d.rect, 2.0) and not _inside(d.rect, c.rect)]
        if over:
            out.append(f"{d.what} lies half under {over[0].what}")
    if d.kind == "face" and d.corner:
        hidden = [c for c in log[d.order + 1:] if c.kind in ("cover", "face") and c.ident != d.ident
                  and _meet(c.rect, d.corner)]
        if hidden:
            out.append(f"the index of {d.what} is under {hidden[0].what}")
    return out


def _over_plates(plate: Drawn, log: list[Drawn]) -> list[str]:
    """What is drawn over a seat's name plate and is not its own: another text, a
    card or a pile, a panel (where no panel drawn between hides the plate)."""
    out: list[str] = []
    for d in log[plate.order + 1:]:
        if d.kind == "plate" or d.ident in plate.own or not _meet(d.rect, plate.rect, 1.0):
            continue
        if d.kind == "cover" and d.what.startswith(_SOFT):
            continue
        if _hidden(plate, d, log):
            continue
        what = f"text {d.what!r}" if d.kind == "text" else d.what
        out.append(f"{what} is over {plate.what}")
    return out


def collisions(log: list[Drawn]) -> list[str]:
    """Every text that meets another text or a card's index corner, every text
    or index corner that a picture drawn later (a card, a panel, a button) hides,
    and whatever lies over a seat's name plate that is not its own."""
    texts = [d for d in log if d.kind == "text"]
    faces = [d for d in log if d.kind == "face"]
    out = _texts_meeting(texts, faces)
    for d in log:
        if d.kind == "text":
            out += _text_layers(d, log)
        elif d.kind == "plate":
            out += _over_plates(d, log)
        out += _card_layers(d, log)
    return out


install()  # at import: every text made from now on is known, whatever batch it is drawn with
