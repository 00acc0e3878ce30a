"""Card and table textures, decoded and downscaled once, then kept.

The faces are those of every game's pack (``rules.pack.codes`` of each
variant): ``art/cards/<variant>/<code>.png`` where a game has its own picture of
a card (Scarto's trumps 20 and 21 and Matto carry other points), else
``art/cards/<code>.png``.  A face that is drawn by no file yet is a plain
placeholder naming the card (:func:`placeholder_face`), so a game whose art is
still coming can be played; :func:`missing_faces` lists them.  The faces every
game shares, the back and the table images are required: a missing one raises
:class:`MissingAssets`, naming every missing file, which the window shows
instead of a traceback.

Decoding some 80 PNGs takes most of a second, so :func:`start_loading` does it
on a worker thread while the menu is already on screen; :func:`get` waits for it
and builds the ``arcade.Texture`` objects once (docs/HEADLESS.md trap 10: arcade 3
does not cache ``load_texture``).
"""

from __future__ import annotations

import threading
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.ruleset import Ruleset, ruleset, variant_names
from game.common import paths
from game.common.constants import BACK_SIZES, BAND_H, CARD_H, CARD_W, FACE_SIZES, STRIP_W

if TYPE_CHECKING:  # arcade and PIL load when the textures are made, not when this module is imported
    import arcade
    from arcade.texture_atlas import DefaultTextureAtlas
    from PIL import Image

#: a card's picture at each width drawn: {width: texture}
Sizes = dict[int, "arcade.Texture"]

TABLE_IMAGES = ("felt", "light", "dealer", "pile", "undo", "redo", "hint", "speed", "sound_on", "sound_off", "menu",
                "back", "prev_trick", "prev_card", "play", "pause", "next_card", "next_trick", "slower", "faster",
                "hands")
VERSION = "v1"


class MissingAssets(Exception):
    def __init__(self, missing: list[Path]) -> None:
        self.missing = missing
        names = ", ".join(str(p) for p in missing[:6])
        more = f" and {len(missing) - 6} more" if len(missing) > 6 else ""
        super().__init__(f"missing art: {names}{more}")


def variant_card_path(variant: str, code: str) -> Path:
    """A game's own picture of a card (``art/cards/scarto/T20.png``)."""
    return paths.cards_dir() / variant / f"{code}.png"


def face_file(variant: str, code: str) -> Path | None:
    """The picture of ``code`` in ``variant``: its own if it has one, else the
    shared one; None while neither is drawn."""
    for p in (variant_card_path(variant, code), paths.card_path(code)):
        if p.is_file():
            return p
    return None


def _shared_codes() -> list[str]:
    """The cards every game's pack holds (the 62 of Piedicavallo), in pack order."""
    packs = [ruleset(v).pack for v in variant_names()]
    common = set.intersection(*(set(p.codes) for p in packs))
    return [c for c in packs[0].codes if c in common]


def required_files() -> list[Path]:
    files = [paths.card_path(c) for c in _shared_codes()] + [paths.card_path("back")]
    files += [paths.table_path(n) for n in TABLE_IMAGES]
    return files


def missing_files() -> list[Path]:
    return [p for p in required_files() if not p.is_file()]


def missing_faces() -> list[tuple[str, str]]:
    """(variant, code) of every face drawn as a placeholder for want of its file."""
    return [(v, c) for v in variant_names() for c in ruleset(v).pack.codes if face_file(v, c) is None]


def placeholder_face(code: str) -> Image.Image:
    """A plain card face naming ``code``, at the art's size, for a card whose
    picture is not drawn yet."""
    from PIL import Image, ImageDraw, ImageFont

    img = Image.new("RGBA", (CARD_W, CARD_H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    # opaque to the edges but for the rounded corners, as the drawn faces are (the
    # player's resting hand is drawn as strips on that assumption)
    d.rounded_rectangle((0, 0, CARD_W - 1, CARD_H - 1), radius=18, fill=(246, 238, 214, 255))
    d.rounded_rectangle((2, 2, CARD_W - 3, CARD_H - 3), radius=17, outline=(60, 60, 60, 255), width=5)
    big: ImageFont.FreeTypeFont | ImageFont.ImageFont
    small: ImageFont.FreeTypeFont | ImageFont.ImageFont
    try:
        big = ImageFont.truetype("DejaVuSans-Bold.ttf", 72)
        small = ImageFont.truetype("DejaVuSans-Bold.ttf", 60)
    except OSError:
        big = small = ImageFont.load_default()
    d.text((18, 14), code, font=small, fill=(40, 40, 40, 255))
    d.text((CARD_W / 2, CARD_H / 2), code, font=big, fill=(40, 40, 40, 255), anchor="mm")
    return img


@dataclass
class Textures:
    back: arcade.Texture
    table: dict[str, arcade.Texture]
    atlas: DefaultTextureAtlas
    #: by variant name: by card int of its pack, {width: texture}
    variant_faces: dict[str, list[Sizes]]
    back_sizes: Sizes
    # id(96-wide texture) -> (strip, top band, bottom band) for South's resting hand
    strips: dict[int, tuple[arcade.Texture, arcade.Texture, arcade.Texture]]

    def faces_for(self, rules: Ruleset) -> list[Sizes]:
        """The faces of ``rules``' pack, by card int: each {width: texture}."""
        return self.variant_faces[rules.name]

    @staticmethod
    def nearest(sizes: Sizes, width: float) -> arcade.Texture:
        """The texture of ``sizes`` ({width: texture}) nearest to ``width``."""
        return sizes[min(sizes, key=lambda w: abs(w - width))]

    def back_for(self, width: float) -> arcade.Texture:
        d = self.back_sizes
        return d[min(d, key=lambda w: abs(w - width))]


def _face_sources() -> tuple[dict[str, Path | None], dict[tuple[str, str], str]]:
    """Each face picture to decode, by its key (a file, or None for a placeholder),
    and the key of each (variant, code)."""
    sources: dict[str, Path | None] = {}
    keys: dict[tuple[str, str], str] = {}
    for v in variant_names():
        for code in ruleset(v).pack.codes:
            p = face_file(v, code)
            if p is None:
                key = f"placeholder/{code}"
            else:
                key = f"{v}/{code}" if p.parent.name == v else code
            sources.setdefault(key, p)
            keys[(v, code)] = key
    return sources, keys


@dataclass
class _Decoded:
    """The pictures decoded off the frame loop, by name, and each (variant, code)'s face key."""

    images: dict[str, Image.Image]
    keys: dict[tuple[str, str], str]


def _decode() -> _Decoded:
    from PIL import Image

    missing = missing_files()
    if missing:
        raise MissingAssets(missing)
    out: dict[str, Image.Image] = {}
    faces, keys = _face_sources()
    sources: dict[str, Path | None] = {**faces, "back": paths.card_path("back")}
    for key, path in sources.items():
        if path is None:
            im = placeholder_face(key.rsplit("/", 1)[1])
        else:
            with Image.open(path) as f:
                im = f.convert("RGBA")
        # one halving first (fast box filter), then Lanczos to each exact size
        half = im.reduce(2)
        for w, h in BACK_SIZES if key == "back" else FACE_SIZES:
            out[f"card:{key}:{w}"] = half.resize((w, h), Image.Resampling.LANCZOS)
        # South's hand size (the first of both lists), cut for drawing a
        # resting hand (see game.table.scene.hand_images)
        w, h = FACE_SIZES[0]
        big = out[f"card:{key}:{w}"]
        out[f"strip:{key}"] = big.crop((0, 0, STRIP_W, h))
        out[f"band-top:{key}"] = big.crop((STRIP_W, 0, w, BAND_H))
        out[f"band-bottom:{key}"] = big.crop((STRIP_W, h - BAND_H, w, h))
    for name in TABLE_IMAGES:
        with Image.open(paths.table_path(name)) as im:
            out["table:" + name] = im.convert("RGBA")
    return _Decoded(out, keys)


_future: Future[_Decoded] | None = None
_textures: Textures | None = None
_lock = threading.Lock()


def start_loading() -> None:
    """Begin decoding on a thread (idempotent)."""
    global _future
    with _lock:
        if _future is not None:
            return
        fut: Future[_Decoded] = Future()
        _future = fut

    def work() -> None:
        try:
            fut.set_result(_decode())
        except BaseException as exc:  # noqa: BLE001 - handed to the main thread
            fut.set_exception(exc)

    threading.Thread(target=work, name="textures", daemon=True).start()


def ready() -> bool:
    return _textures is not None or (_future is not None and _future.done())


def sprite_list(**kwargs: Any) -> arcade.SpriteList[Any]:
    """A SpriteList on the shared card atlas (its sprites of any kind: cards, markers...)."""
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
        decoded = _future.result()
    except MissingAssets:
        _future = None  # look again next time (the art may be generated meanwhile)
        raise
    import arcade
    from arcade.texture_atlas import DefaultTextureAtlas

    images, keys = decoded.images, decoded.keys
    by_key = {
        key: {w: arcade.Texture(images[f"card:{key}:{w}"], hash=f"card:{key}:{w}:{VERSION}")
              for w, _h in FACE_SIZES}
        for key in sorted(set(keys.values()))
    }
    back_sizes = {w: arcade.Texture(images[f"card:back:{w}"], hash=f"card:back:{w}:{VERSION}")
                  for w, _h in BACK_SIZES}
    w0 = FACE_SIZES[0][0]

    def texture(part: str, key: str) -> arcade.Texture:
        return arcade.Texture(images[f"{part}:{key}"], hash=f"{part}:{key}:{VERSION}")

    # One atlas sized for every pack, filled once: adding textures one by one to
    # the default atlas as they first appear grows and rewrites it mid-game.
    t = Textures(
        back=back_sizes[BACK_SIZES[0][0]],
        table={n: arcade.Texture(images["table:" + n], hash=f"table:{n}:{VERSION}") for n in TABLE_IMAGES},
        atlas=DefaultTextureAtlas((2048, 4096), auto_resize=True),
        variant_faces={v: [by_key[keys[(v, c)]] for c in ruleset(v).pack.codes] for v in variant_names()},
        back_sizes=back_sizes,
        strips={id(full): (texture("strip", key), texture("band-top", key), texture("band-bottom", key))
                for key, full in (*((k, d[w0]) for k, d in by_key.items()), ("back", back_sizes[w0]))},
    )
    for tex in (*(x for d in by_key.values() for x in d.values()), *t.back_sizes.values(),
                *t.table.values(), *(x for trio in t.strips.values() for x in trio)):
        t.atlas.add(tex)
    _textures = t
    return t
