"""Card art for the browser seat: one sprite sheet a game, fit for a phone.

``python -m art.generate`` draws the faces (``cards/``), then these sheets from
them: every card of the game's pack and the back, each at :data:`CELL` (about
twice a phone's card, so sharp on a phone's dense screen), in rows of
:data:`COLS`, as lossy WebP (a game's whole pack in about 350 KB, the page's
first load within its budget).  The sheets go to the page's folder
(``online/web/cards-<game>.webp``); :func:`sprite_layout` tells the page where
each card lies (the catalog carries it, game/web_catalog.py).

Nothing here imports Pillow at module level: the catalog reads the layout
without drawing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from art import ART_DIR, face_relpath

WEB_OUT = ART_DIR.parent / "online" / "web"
CELL = (120, 222)
COLS = 10
QUALITY = 82
GAMES = ("piedicavallo", "scarto")


def sprite_codes(game: str) -> list[str]:
    """The cards of ``game``'s sheet in order: its pack, then the back."""
    from engine.ruleset import ruleset

    return [*ruleset(game).pack.codes, "back"]


def sprite_name(game: str) -> str:
    return f"cards-{game}.webp"


def sprite_layout(game: str) -> dict[str, Any]:
    """Where each card of ``game`` lies on its sheet (cell index, row-major)."""
    codes = sprite_codes(game)
    return {"file": sprite_name(game), "cols": COLS, "rows": -(-len(codes) // COLS),
            "index": {c: i for i, c in enumerate(codes)}}


def draw_sprite(game: str, faces_dir: Path = ART_DIR) -> Any:
    """The sheet of ``game`` as an RGBA image, from the faces under ``faces_dir``."""
    from PIL import Image

    codes = sprite_codes(game)
    layout = sprite_layout(game)
    w, h = CELL
    sheet = Image.new("RGBA", (layout["cols"] * w, layout["rows"] * h), (0, 0, 0, 0))
    for i, code in enumerate(codes):
        with Image.open(faces_dir / face_relpath(code, game)) as im:
            small = im.convert("RGBA").resize(CELL, Image.Resampling.LANCZOS)
        sheet.paste(small, ((i % COLS) * w, (i // COLS) * h))
    return sheet


def write_sprites(faces_dir: Path = ART_DIR, out_dir: Path = WEB_OUT) -> list[Path]:
    """Write every game's sheet (temporary file, then rename); returns the paths."""
    out: list[Path] = []
    for game in GAMES:
        path = out_dir / sprite_name(game)
        tmp = path.with_suffix(".tmp")
        draw_sprite(game, faces_dir).save(tmp, format="WEBP", quality=QUALITY, method=6)
        tmp.replace(path)
        out.append(path)
    return out


__all__ = ["CELL", "COLS", "GAMES", "WEB_OUT", "draw_sprite", "sprite_codes", "sprite_layout",
           "sprite_name", "write_sprites"]
