"""Card and table textures, decoded and downscaled once, then kept.

Decoding 63 PNGs takes about half a second, so :func:`start_loading` does it on
a worker thread while the menu is already on screen; :func:`get` waits for it
and builds the ``arcade.Texture`` objects once (HEADLESS.md trap 10: arcade 3
does not cache ``load_texture``).  A missing file raises :class:`MissingAssets`
naming every missing file, which the window shows instead of a traceback.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path

from engine.variants import PIEDICAVALLO

from . import paths
from .constants import BACK_SIZES, BAND_H, FACE_SIZES, STRIP_W

CODES = PIEDICAVALLO.pack.codes

TABLE_IMAGES = ("felt", "dealer", "pile", "undo", "redo", "hint", "speed", "sound_on", "sound_off", "menu")
VERSION = "v1"


class MissingAssets(Exception):
    def __init__(self, missing: list[Path]) -> None:
        self.missing = missing
        names = ", ".join(str(p) for p in missing[:6])
        more = f" and {len(missing) - 6} more" if len(missing) > 6 else ""
        super().__init__(f"missing art: {names}{more}")


def required_files() -> list[Path]:
    files = [paths.card_path(c) for c in CODES] + [paths.card_path("back")]
    files += [paths.table_path(n) for n in TABLE_IMAGES]
    return files


def missing_files() -> list[Path]:
    return [p for p in required_files() if not p.is_file()]


@dataclass
class Textures:
    faces: list = field(default_factory=list)  # by card int
    back: object = None
    table: dict = field(default_factory=dict)
    atlas: object = None
    face_sizes: list = field(default_factory=list)  # by card: {width: texture}
    back_sizes: dict = field(default_factory=dict)  # {width: texture}
    # id(96-wide texture) -> (strip, top band, bottom band) for South's resting hand
    strips: dict = field(default_factory=dict)

    def face(self, card: int, width: float):
        """The face texture of ``card`` nearest to ``width`` pixels wide."""
        d = self.face_sizes[card]
        return d[min(d, key=lambda w: abs(w - width))]

    def back_for(self, width: float):
        d = self.back_sizes
        return d[min(d, key=lambda w: abs(w - width))]


def _decode() -> dict[str, object]:
    from PIL import Image

    missing = missing_files()
    if missing:
        raise MissingAssets(missing)
    out: dict[str, object] = {}
    for code in (*CODES, "back"):
        with Image.open(paths.card_path(code)) as im:
            im = im.convert("RGBA")
            # one halving first (fast box filter), then Lanczos to each exact size
            half = im.reduce(2)
            for w, h in BACK_SIZES if code == "back" else FACE_SIZES:
                out[f"card:{code}:{w}"] = half.resize((w, h), Image.Resampling.LANCZOS)
            # South's hand size (the first of both lists), cut for drawing a
            # resting hand (see TableScene._update_strips)
            w, h = FACE_SIZES[0]
            big = out[f"card:{code}:{w}"]
            assert isinstance(big, Image.Image)
            out[f"strip:{code}"] = big.crop((0, 0, STRIP_W, h))
            out[f"band-top:{code}"] = big.crop((STRIP_W, 0, w, BAND_H))
            out[f"band-bottom:{code}"] = big.crop((STRIP_W, h - BAND_H, w, h))
    for name in TABLE_IMAGES:
        with Image.open(paths.table_path(name)) as im:
            out["table:" + name] = im.convert("RGBA")
    return out


_future: Future | None = None
_textures: Textures | None = None
_lock = threading.Lock()


def start_loading() -> None:
    """Begin decoding on a thread (idempotent)."""
    global _future
    with _lock:
        if _future is not None:
            return
        fut: Future = Future()
        _future = fut

    def work() -> None:
        try:
            fut.set_result(_decode())
        except BaseException as exc:  # noqa: BLE001 - handed to the main thread
            fut.set_exception(exc)

    threading.Thread(target=work, name="textures", daemon=True).start()


def ready() -> bool:
    return _textures is not None or (_future is not None and _future.done())


def sprite_list(**kwargs):
    """A SpriteList on the shared card atlas."""
    import arcade

    return arcade.SpriteList(atlas=get().atlas, **kwargs)


def get() -> Textures:
    """The textures (waits for the decoder; raises MissingAssets)."""
    global _textures, _future
    if _textures is not None:
        return _textures
    start_loading()
    assert _future is not None
    try:
        images = _future.result()
    except MissingAssets:
        _future = None  # look again next time (the art may be generated meanwhile)
        raise
    import arcade

    t = Textures()
    t.face_sizes = [
        {w: arcade.Texture(images[f"card:{c}:{w}"], hash=f"card:{c}:{w}:{VERSION}") for w, _h in FACE_SIZES}
        for c in CODES
    ]
    t.back_sizes = {w: arcade.Texture(images[f"card:back:{w}"], hash=f"card:back:{w}:{VERSION}")
                    for w, _h in BACK_SIZES}
    t.faces = [d[FACE_SIZES[0][0]] for d in t.face_sizes]
    t.back = t.back_sizes[BACK_SIZES[0][0]]
    t.table = {n: arcade.Texture(images["table:" + n], hash=f"table:{n}:{VERSION}") for n in TABLE_IMAGES}
    w0 = FACE_SIZES[0][0]
    for code, full in (*zip(CODES, (d[w0] for d in t.face_sizes), strict=True), ("back", t.back_sizes[w0])):
        t.strips[id(full)] = tuple(
            arcade.Texture(images[f"{part}:{code}"], hash=f"{part}:{code}:{VERSION}")
            for part in ("strip", "band-top", "band-bottom"))
    # One atlas sized for the whole pack, filled once: adding textures one by one
    # to the default atlas as they first appear grows and rewrites it mid-game.
    from arcade.texture_atlas import DefaultTextureAtlas

    t.atlas = DefaultTextureAtlas((2048, 2048), auto_resize=True)
    for tex in (*(x for d in t.face_sizes for x in d.values()), *t.back_sizes.values(),
                *t.table.values(), *(x for trio in t.strips.values() for x in trio)):
        t.atlas.add(tex)
    _textures = t
    return t
