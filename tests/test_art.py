"""The committed card art: complete, well-formed, distinct, and what the generator makes."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops

import art
from art import CARD_SIZE, CARDS_DIR, CONTACT_SHEET, SCARTO_CARDS_DIR, TABLE_DIR
from art.generate import (
    CARD_CODES,
    FACES,
    FULL_PACK_CODES,
    PIEDICAVALLO_CODES,
    POINTS_PIEDICAVALLO,
    POINTS_SCARTO,
    SCARTO_OVERRIDES,
    STRIPPED_CODES,
    draw_card,
    face_file,
    face_points,
    generate,
    points,
    save_png,
)
from tests.support.prereq import DEJAVU

SUIT_RANKS = {  # RULES R1/R3: Piedicavallo keeps Swords and Batons 5-10, Cups and Coins 1-6
    "S": ("K", "Q", "N", "J", "10", "9", "8", "7", "6", "5"),
    "B": ("K", "Q", "N", "J", "10", "9", "8", "7", "6", "5"),
    "C": ("K", "Q", "N", "J", "1", "2", "3", "4", "5", "6"),
    "D": ("K", "Q", "N", "J", "1", "2", "3", "4", "5", "6"),
}
EXPECTED_CODES = (
    [f"T{n}" for n in range(1, 22)] + ["M"]
    + [s + r for s, ranks in SUIT_RANKS.items() for r in ranks]
)
# RULES R1: what Piedicavallo removes from the 78 (S1 plays with them)
STRIPPED = ["S1", "S2", "S3", "S4", "B1", "B2", "B3", "B4",
            "C7", "C8", "C9", "C10", "D7", "D8", "D9", "D10"]
FULL_CODES = EXPECTED_CODES + STRIPPED
TABLE_NAMES = ("felt", "light", "dealer", "pile", "undo", "redo", "hint", "speed", "sound_on",
               "sound_off", "menu", "back", "prev_trick", "prev_card", "play", "pause", "next_card",
               "next_trick", "slower", "faster", "hands")
OVERRIDES = ("T20", "T21", "M")
# every face file: 78 shared faces, the back, Scarto's three
ALL_FACE_FILES = ([CARDS_DIR / f"{c}.png" for c in [*FULL_CODES, "back"]]
                  + [SCARTO_CARDS_DIR / f"{c}.png" for c in OVERRIDES])


def r4_points(code: str) -> int:  # RULES R4, written out independently of the generator
    if code in ("T1", "T21", "M"):
        return 5
    if code.startswith("T"):
        return 1
    return {"K": 5, "Q": 4, "N": 3, "J": 2}.get(code[1:], 1)


def s3_points(code: str) -> int:  # RULES S3
    if code in ("T1", "T20"):
        return 5
    if code == "M":
        return 4
    if code.startswith("T"):
        return 1
    return {"K": 5, "Q": 4, "N": 3, "J": 2}.get(code[1:], 1)


def test_piedicavallo_pack_is_the_62_cards_of_rule_r1() -> None:
    assert len(EXPECTED_CODES) == 62
    assert list(PIEDICAVALLO_CODES) == EXPECTED_CODES  # the order CARD_CODES always had
    assert CARD_CODES == PIEDICAVALLO_CODES
    assert sorted(POINTS_PIEDICAVALLO) == sorted(EXPECTED_CODES)
    assert {c: points(c) for c in EXPECTED_CODES} == {c: r4_points(c) for c in EXPECTED_CODES}
    assert sum(points(c, "piedicavallo") for c in PIEDICAVALLO_CODES) == 114  # R4


def test_full_pack_is_the_78_cards_of_rule_s1() -> None:
    assert len(FULL_CODES) == len(set(FULL_CODES)) == 78
    assert sorted(FULL_PACK_CODES) == sorted(FULL_CODES)
    assert sorted(STRIPPED_CODES) == sorted(STRIPPED)
    assert set(PIEDICAVALLO_CODES) <= set(FULL_PACK_CODES)
    # S2's rank order: Swords and Batons K Q N J 10 ... 1, Cups and Coins K Q N J 1 ... 10
    assert [c for c in FULL_PACK_CODES if c[0] == "B"] == (
        ["BK", "BQ", "BN", "BJ"] + [f"B{n}" for n in range(10, 0, -1)])
    assert [c for c in FULL_PACK_CODES if c[0] == "D"] == (
        ["DK", "DQ", "DN", "DJ"] + [f"D{n}" for n in range(1, 11)])
    assert sorted(POINTS_SCARTO) == sorted(FULL_CODES)
    assert {c: points(c, "scarto") for c in FULL_CODES} == {c: s3_points(c) for c in FULL_CODES}
    assert sum(points(c, "scarto") for c in FULL_PACK_CODES) == 129  # S3
    assert all(points(c, "scarto") == 1 for c in STRIPPED)


def test_scarto_overrides_are_exactly_the_faces_whose_points_differ() -> None:
    differ = tuple(c for c in PIEDICAVALLO_CODES if r4_points(c) != s3_points(c))
    assert differ == OVERRIDES == SCARTO_OVERRIDES == art.SCARTO_OVERRIDES
    for code in FULL_CODES:
        # the dots a shared face carries are right for both games, except the overrides
        if code in OVERRIDES:
            assert face_points(code, "scarto") == s3_points(code) != r4_points(code)
        else:
            assert face_points(code, "piedicavallo") == s3_points(code)
            if code in EXPECTED_CODES:
                assert face_points(code, "piedicavallo") == r4_points(code)


def test_face_paths() -> None:
    assert art.face_relpath("T20", "scarto") == "cards/scarto/T20.png"
    assert art.face_relpath("T20") == "cards/T20.png"
    assert art.face_relpath("S1", "scarto") == "cards/S1.png"
    assert art.face_relpath("back", "scarto") == "cards/back.png"
    with pytest.raises(ValueError):
        art.face_relpath("T20", "tarocco")
    assert sorted(face_file(CARDS_DIR.parent, c, g) for c, g in FACES) == sorted(ALL_FACE_FILES)


@pytest.mark.parametrize("path", ALL_FACE_FILES, ids=lambda p: "/".join(p.parts[-2:]))
def test_card_image_shape(path: Path) -> None:
    with Image.open(path) as im:
        assert im.format == "PNG"
        assert im.size == CARD_SIZE
        assert im.mode == "RGBA"
        w, h = im.size
        for corner in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)):
            assert im.getpixel(corner)[3] == 0, f"{path.name}: corner {corner} not transparent"
        assert im.getpixel((w // 2, h // 2))[3] == 255
        assert im.getpixel((w // 2, 3))[3] == 255  # opaque just inside the top edge


def test_no_stray_face_files() -> None:
    assert sorted(CARDS_DIR.glob("*.png")) == sorted(p for p in ALL_FACE_FILES
                                                     if p.parent == CARDS_DIR)
    assert sorted(SCARTO_CARDS_DIR.glob("*.png")) == sorted(SCARTO_CARDS_DIR / f"{c}.png"
                                                            for c in OVERRIDES)


def test_card_width_is_at_least_300_and_tarot_shaped() -> None:
    w, h = CARD_SIZE
    assert w >= 300
    assert 1.7 < h / w < 2.0  # about 6 x 11 cm


def _pixel_hash(path: Path) -> str:
    with Image.open(path) as im:
        return hashlib.sha256(im.convert("RGBA").tobytes()).hexdigest()


def test_all_faces_are_distinct() -> None:
    hashes = {path: _pixel_hash(path) for path in ALL_FACE_FILES}
    assert len(ALL_FACE_FILES) == 78 + 1 + 3
    assert len(set(hashes.values())) == len(ALL_FACE_FILES)


def test_contact_sheet_and_table_images_exist() -> None:
    with Image.open(CONTACT_SHEET) as im:
        # 82 cards at a readable size, yet a sheet that opens comfortably
        assert im.width >= 14 * 110 and im.height >= 6 * 200
        assert im.width * im.height <= 4_000_000
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
    for path in (CARDS_DIR / "SK.png", CARDS_DIR / "CQ.png", CARDS_DIR / "T13.png",
                 CARDS_DIR / "M.png", SCARTO_CARDS_DIR / "T20.png"):
        with Image.open(path) as im:
            a = im.convert("L")
            b = a.rotate(180)
            diff = sum(abs(x - y) for x, y in zip(a.tobytes(), b.tobytes(), strict=True))
            assert diff / (a.width * a.height) < 4, path


def test_scarto_faces_differ_from_the_shared_ones_only_by_the_index() -> None:
    """Same picture; the point dots (in the two corner indices) are all that changes."""
    for code in OVERRIDES:
        with Image.open(CARDS_DIR / f"{code}.png") as a, \
                Image.open(SCARTO_CARDS_DIR / f"{code}.png") as b:
            diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
            box = diff.getbbox()
            assert box is not None, code
            w, h = CARD_SIZE
            # inside the top-left index patch and its 180-degree copy
            top, bottom = diff.crop((0, 0, w // 3, h // 4)), diff.crop((w - w // 3, h - h // 4, w, h))
            assert top.getbbox() is not None and bottom.getbbox() is not None, code
            middle = diff.crop((0, h // 4, w, h - h // 4))
            assert middle.getbbox() is None, code


def test_unknown_card_or_game_is_refused() -> None:
    with pytest.raises(ValueError):
        draw_card("S0")
    with pytest.raises(ValueError):
        draw_card("T20", "tarocco")
    with pytest.raises(KeyError):
        points("S1", "piedicavallo")  # not in Piedicavallo's pack


@pytest.mark.slow
def test_png_bytes_are_deterministic(tmp_path: Path) -> None:
    def render(code: str, game: str = "piedicavallo") -> bytes:
        buf = io.BytesIO()
        draw_card(code, game).save(buf, format="PNG", compress_level=6)
        return buf.getvalue()

    for code in ("T19", "DK", "B1", "back"):
        assert render(code) == render(code)
    assert render("M", "scarto") == render("M", "scarto")
    save_png(draw_card("S1"), tmp_path / "a.png")
    save_png(draw_card("S1"), tmp_path / "b.png")
    assert (tmp_path / "a.png").read_bytes() == (tmp_path / "b.png").read_bytes()


@pytest.mark.slow
@pytest.mark.requires_file(*DEJAVU[0])
@pytest.mark.requires_file(*DEJAVU[1])  # Pillow's own font instead would draw other pictures
def test_committed_files_are_what_the_generator_makes(tmp_path: Path) -> None:
    written = generate(tmp_path, processes=2)
    assert len(written) == len(ALL_FACE_FILES) + 1 + len(TABLE_NAMES)
    rels = {new.relative_to(tmp_path) for new in written}
    assert {p.relative_to(CARDS_DIR.parent) for p in ALL_FACE_FILES} <= rels
    for new in written:
        rel = new.relative_to(tmp_path)
        old = CARDS_DIR.parent / rel
        assert old.exists(), f"{rel} not committed"
        if old.read_bytes() == new.read_bytes():
            continue
        # zlib builds may compress differently; the pixels must still be identical
        assert _pixel_hash(old) == _pixel_hash(new), f"{rel} is stale: run python -m art.generate"
