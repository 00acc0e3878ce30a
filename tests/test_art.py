"""The committed card art: complete, well-formed, distinct, and what the generator makes."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import pytest
from PIL import Image

from art import CARD_SIZE, CARDS_DIR, CONTACT_SHEET, TABLE_DIR
from art.generate import CARD_CODES, draw_card, generate, points

SUIT_RANKS = {
    "S": ("K", "Q", "N", "J", "10", "9", "8", "7", "6", "5"),
    "B": ("K", "Q", "N", "J", "10", "9", "8", "7", "6", "5"),
    "C": ("K", "Q", "N", "J", "1", "2", "3", "4", "5", "6"),
    "D": ("K", "Q", "N", "J", "1", "2", "3", "4", "5", "6"),
}
EXPECTED_CODES = (
    [f"T{n}" for n in range(1, 22)] + ["M"]
    + [s + r for s, ranks in SUIT_RANKS.items() for r in ranks]
)
TABLE_NAMES = ("felt", "dealer", "pile", "undo", "redo", "hint", "speed", "sound_on",
               "sound_off", "menu")
ALL_FACES = [*EXPECTED_CODES, "back"]


def test_pack_is_the_62_cards_of_rule_r1() -> None:
    assert len(EXPECTED_CODES) == 62
    assert sorted(CARD_CODES) == sorted(EXPECTED_CODES)
    assert sum(points(c) for c in CARD_CODES) == 114  # R4: the pack holds 114


@pytest.mark.parametrize("code", ALL_FACES)
def test_card_image_shape(code: str) -> None:
    path = CARDS_DIR / f"{code}.png"
    with Image.open(path) as im:
        assert im.format == "PNG"
        assert im.size == CARD_SIZE
        assert im.mode == "RGBA"
        w, h = im.size
        for corner in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)):
            assert im.getpixel(corner)[3] == 0, f"{code}: corner {corner} not transparent"
        assert im.getpixel((w // 2, h // 2))[3] == 255
        assert im.getpixel((w // 2, 3))[3] == 255  # opaque just inside the top edge


def test_card_width_is_at_least_300_and_tarot_shaped() -> None:
    w, h = CARD_SIZE
    assert w >= 300
    assert 1.7 < h / w < 2.0  # about 6 x 11 cm


def _pixel_hash(path: Path) -> str:
    with Image.open(path) as im:
        return hashlib.sha256(im.convert("RGBA").tobytes()).hexdigest()


def test_all_faces_are_distinct() -> None:
    hashes = {code: _pixel_hash(CARDS_DIR / f"{code}.png") for code in ALL_FACES}
    assert len(set(hashes.values())) == len(ALL_FACES)


def test_contact_sheet_and_table_images_exist() -> None:
    with Image.open(CONTACT_SHEET) as im:
        assert im.width >= 9 * 150 and im.height >= 7 * 250
    for name in TABLE_NAMES:
        with Image.open(TABLE_DIR / f"{name}.png") as im:
            assert im.mode == "RGBA", name
            assert min(im.size) >= 48, name
    with Image.open(TABLE_DIR / "felt.png") as felt:
        assert felt.size == (256, 256)
        # tileable: opposite edges are close in colour
        left = [felt.getpixel((0, y)) for y in range(256)]
        right = [felt.getpixel((255, y)) for y in range(256)]
        diff = sum(abs(a[0] - b[0]) + abs(a[1] - b[1]) for a, b in zip(left, right, strict=True))
        assert diff / 256 < 30


def test_double_ended_cards_read_the_same_upside_down() -> None:
    """Courts and trumps are mirrored about the middle: nearly invariant under 180° turn."""
    for code in ("SK", "CQ", "T13", "M"):
        with Image.open(CARDS_DIR / f"{code}.png") as im:
            a = im.convert("L")
            b = a.rotate(180)
            diff = sum(abs(x - y) for x, y in zip(a.tobytes(), b.tobytes(), strict=True))
            assert diff / (a.width * a.height) < 4, code


def test_png_bytes_are_deterministic() -> None:
    def render(code: str) -> bytes:
        buf = io.BytesIO()
        draw_card(code).save(buf, format="PNG", optimize=True)
        return buf.getvalue()

    for code in ("T19", "DK", "back"):
        assert render(code) == render(code)


def test_committed_files_are_what_the_generator_makes(tmp_path: Path) -> None:
    written = generate(tmp_path, processes=2)
    assert len(written) == 63 + 1 + len(TABLE_NAMES)
    for new in written:
        rel = new.relative_to(tmp_path)
        old = CARDS_DIR.parent / rel
        assert old.exists(), f"{rel} not committed"
        if old.read_bytes() == new.read_bytes():
            continue
        # zlib builds may compress differently; the pixels must still be identical
        assert _pixel_hash(old) == _pixel_hash(new), f"{rel} is stale: run python -m art.generate"
