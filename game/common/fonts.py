"""Font warm-up: pyglet renders each glyph on first use, and a new glyph can
cost tens of milliseconds on llvmpipe (a texture upload).  The table warms the
sizes it uses before its first frame, so no frame stalls on a new letter."""

from __future__ import annotations

from game.common.constants import FONT

CHARSET = (
    "".join(chr(c) for c in range(32, 127))
    + "àâäçéèêëîïôöùûüÿœÀÂÇÉÈÊÎÔÙÛŒ·…’«»–—×−★≈"
)
#: (size, bold) pairs the views use.
SIZES = ((9, False), (9, True), (10, False), (10, True), (11, False), (11, True), (12, False), (12, True),
         (13, False), (13, True), (14, False), (14, True), (15, True), (16, True), (17, True), (18, True),
         (20, True), (22, True))
_warm: set[tuple[int, bool]] = set()


def warm(sizes: tuple[tuple[int, bool], ...] = SIZES) -> None:
    import arcade

    for size, bold in sizes:
        if (size, bold) in _warm:
            continue
        _warm.add((size, bold))
        arcade.Text(CHARSET, 0, 0, (255, 255, 255), size, font_name=FONT, bold=bold)
