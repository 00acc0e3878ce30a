"""The trump emblems, one small drawing function a trump, pinned to the
pixels they drew before the table replaced the long if/elif: any change to the art
shows here, emblem by emblem, before it shows on a card."""

from __future__ import annotations

import hashlib

import pytest
from PIL import Image, ImageDraw

from art.draw import EMBLEMS, Pen, emblem

#: sha256 of the RGBA pixels of each emblem drawn alone (420 x 420, centre 210, scale
#: 185, as on the card), recorded from the if/elif ``emblem`` before the split.
DIGESTS = {
    0: "8c2f8d7cd34516af56aa207a7a901fb4d22d7255f2cc9edccd11ec11cdaaaa55",
    1: "8349a9ac01b432d69fc63ed61c90c00b5eabdd5b5f529115052ff0bc896dda77",
    2: "54f150ae3ec39bb64ebed974621841ffdc342f683dc6625b3084b883c103ba92",
    3: "731f4cdf44642455253a9dc6b899d50f6115fdf2167b3ba9b0ac8e3fd3dc787c",
    4: "67474c89fc60f18baaa0e21de51b84388e89614c1673e6967773f1a60de2f344",
    5: "ce599221badd145e9a82ec76da9d402b4064b9ce622db28c4aa661e6d35f29a8",
    6: "1a541bfb699140e0dc4cf1c3de45f3116a310fe10cf7199a21ea4753787d487f",
    7: "797cb22cb74ec063f2dd4c6eda2cac85659ca7ab2fe7e002eb550f23c59e4625",
    8: "3573984ac954f894a591b8ac7c03fb8b193a2fcffb8f9567cea8a3d91a30e069",
    9: "d8576f2285c509d2b7b52d29e9ea9ff651eb94b5ca06875075a16f8a6e5909de",
    10: "d9a6d40e9fd8f5f75aac9b998ac48e5b1aab1a72b441643ecf25a02e60bc9798",
    11: "a1deaa0fc3038e5b103adbb70187e10ccde2428f1e0db0f85a4cadf3d270cf26",
    12: "09a5dfaccebe881045855195df6a8085a1aadc8cf2ac7f5072d96b672fc0afda",
    13: "460a87cfb8de597ba06ac901a078918f4d98d3e8d10c35bc8c98f78b2b83fa8f",
    14: "c1d21bf281e7e52fff1df5de44f6fd3855193c7c41b2d250965d78cc06306faa",
    15: "db7d409af4c8df0a893e43a8b58e1d7b523cb378e34cc87968ca37798d71857b",
    16: "4af458c5bc81669148fd5dd3b9144133b95d3a447285f639a23e60e990067178",
    17: "5f0ac50ebbd4bdf111101c577dcc389cebfc4895cadda0f27ec782fd773452a0",
    18: "07f68253d1024fd47705811639796e06e5146af752b57626eb69d7d5b2ee4037",
    19: "993f10a8036bcdcf4d59b169ee74934aa90c2bf897295670f39ad96788ee3bcd",
    20: "939ca21d21cfcaf1349fb1c7c46a5049b5e98f8fa580b3bb736538938c4477be",
    21: "0647705a95ef6aa3a647ed969bdba7ee716b5ae3fa9f50d515560e34c51283c4",
}


def _pixels(n: int) -> str:
    img = Image.new("RGBA", (420, 420), (0, 0, 0, 0))
    emblem(Pen(ImageDraw.Draw(img), 210, 210, 185), n)
    return hashlib.sha256(img.tobytes()).hexdigest()


def test_one_drawing_a_trump_and_the_matto() -> None:
    assert sorted(EMBLEMS) == list(range(22))
    assert len(set(EMBLEMS.values())) == 22  # none drawn by another's function


@pytest.mark.parametrize("n", range(22))
def test_emblem_pixels_unchanged(n: int) -> None:
    assert _pixels(n) == DIGESTS[n], f"the emblem of trump {n} is drawn differently"


def test_emblems_differ() -> None:
    """Each trump (and the Matto) is drawn as its own picture: no two alike."""
    assert len({_pixels(n) for n in DIGESTS}) == len(DIGESTS) == 22


@pytest.mark.parametrize("n", [-1, 22])
def test_no_emblem_outside_the_trumps(n: int) -> None:
    img = Image.new("RGBA", (8, 8))
    with pytest.raises(ValueError, match="no trump emblem"):
        emblem(Pen(ImageDraw.Draw(img), 4, 4, 1), n)
