"""The committed sound effects: well-formed, faded, equally loud, unclipped, reproducible."""

from __future__ import annotations

import math
import typing
import wave
from array import array
from pathlib import Path

import pytest

from sounds import SOUND_NAMES, SOUNDS_DIR
from sounds.generate import generate

RATE = 44100
FLOURISHES = {"shuffle", "deal_won", "deal_lost", "match_won"}


def read(path: Path) -> tuple[typing.NamedTuple, array]:
    with wave.open(str(path), "rb") as w:
        params = w.getparams()
        data = array("h", w.readframes(w.getnframes()))
    return params, data


def dbfs(samples: array) -> float:
    level = math.sqrt(sum(v * v for v in samples) / len(samples)) / 32768
    return 20 * math.log10(level)


def test_sound_names() -> None:
    assert set(SOUND_NAMES) == {"shuffle", "cut", "deal", "play", "trick", "matto", "click",
                                "deal_won", "deal_lost", "match_won"}
    assert len(SOUND_NAMES) == len(set(SOUND_NAMES))


@pytest.mark.parametrize("name", SOUND_NAMES)
def test_wav_format_length_and_level(name: str) -> None:
    params, data = read(SOUNDS_DIR / f"{name}.wav")
    assert (params.nchannels, params.sampwidth, params.framerate) == (1, 2, RATE)
    assert params.comptype == "NONE"
    seconds = params.nframes / RATE
    assert 0.05 < seconds <= (3.0 if name in FLOURISHES else 1.0)
    assert dbfs(data) > -30, "too quiet"
    peak = max(abs(v) for v in data)
    assert peak < 32767 * 0.99, "clipped or over the limit"
    assert 32767 not in data and -32768 not in data
    edge = int(0.002 * RATE)
    assert max(abs(v) for v in data[:edge]) < 300, "no fade-in"
    assert max(abs(v) for v in data[-edge:]) < 300, "no fade-out"


def test_all_sounds_equally_loud() -> None:
    levels = [dbfs(read(SOUNDS_DIR / f"{n}.wav")[1]) for n in SOUND_NAMES]
    assert max(levels) - min(levels) < 3.0


@pytest.mark.slow
def test_committed_sounds_are_what_the_generator_makes(tmp_path: Path) -> None:
    written = generate(tmp_path)
    assert [p.name for p in written] == [f"{n}.wav" for n in SOUND_NAMES]
    for path in written:
        committed = SOUNDS_DIR / path.name
        assert committed.read_bytes() == path.read_bytes(), f"{path.name} is stale"


@pytest.mark.slow
def test_generation_is_deterministic(tmp_path: Path) -> None:
    a = generate(tmp_path / "a")
    b = generate(tmp_path / "b")
    for x, y in zip(a, b, strict=True):
        assert x.read_bytes() == y.read_bytes()
