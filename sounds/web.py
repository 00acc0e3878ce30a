"""The sound effects for the browser seat: the page's copies, small and in a
format any browser can take.

``python -m sounds.generate`` synthesises the sounds (``sounds/*.wav``, 16-bit
44.1 kHz, about 870 KB), then writes these copies of the ones the page plays
(``online/web/sound-<name>.wav``): mono, 22.05 kHz, 8-bit G.711 mu-law WAV,
about a quarter of the size (210 KB in all, 145 KB gzipped).  Mu-law keeps the quiet tails of
the bells and chords far cleaner than plain 8-bit samples would; the page
decodes it itself (``online/web/sound.js``: a table of 256 values), so it needs
no audio decoder of the browser's, and fetches the files only once the player
switches sound on.  Pure standard library: a windowed-sinc low-pass, halving
the rate, and the G.711 encoding.
"""

from __future__ import annotations

import math
import struct
import sys
import wave
from array import array
from operator import mul
from pathlib import Path

from sounds import SOUNDS_DIR

WEB_OUT = SOUNDS_DIR.parent / "online" / "web"
#: the sounds the page plays (the desktop's click and cut have no moment there)
WEB_SOUNDS = ("play", "matto", "trick", "shuffle", "deal", "deal_won", "deal_lost", "match_won")
SOURCE_RATE = 44100
WEB_RATE = SOURCE_RATE // 2
#: the low-pass before halving the rate: taps, and its cutoff in Hz (under the
#: new Nyquist frequency, 11 025 Hz)
TAPS = 63
CUTOFF = 10000.0
MULAW = 7  # the WAV format tag of G.711 mu-law
_BIAS = 0x84
_CLIP = 32635


def web_name(name: str) -> str:
    """The page's file of sound ``name``."""
    return f"sound-{name}.wav"


def _lowpass() -> list[float]:
    """A Blackman-windowed sinc, unity gain at 0 Hz."""
    mid = (TAPS - 1) / 2
    fc = CUTOFF / SOURCE_RATE
    taps = []
    for k in range(TAPS):
        x = k - mid
        sinc = 2 * fc if x == 0 else math.sin(2 * math.pi * fc * x) / (math.pi * x)
        w = 0.42 - 0.5 * math.cos(2 * math.pi * k / (TAPS - 1)) + 0.08 * math.cos(4 * math.pi * k / (TAPS - 1))
        taps.append(sinc * w)
    total = math.fsum(taps)
    return [t / total for t in taps]


def halve(samples: array[int]) -> list[float]:
    """16-bit samples at 44.1 kHz to floats (-1..1) at 22.05 kHz, filtered first
    so nothing above the new Nyquist frequency folds back."""
    h = _lowpass()
    pad = [0.0] * (TAPS // 2)
    x = pad + [v / 32768 for v in samples] + pad
    return [math.fsum(map(mul, h, x[i:i + TAPS])) for i in range(0, len(samples), 2)]


def mulaw(value: float) -> int:
    """One sample (-1..1) as a G.711 mu-law byte."""
    s = max(-32768, min(32767, round(value * 32768)))
    sign = 0x80 if s < 0 else 0
    s = min(abs(s), _CLIP) + _BIAS
    exponent = 7
    mask = 0x4000
    while exponent > 0 and not s & mask:
        exponent -= 1
        mask >>= 1
    mantissa = (s >> (exponent + 3)) & 0x0F
    return ~(sign | (exponent << 4) | mantissa) & 0xFF


def unmulaw(byte: int) -> float:
    """A mu-law byte back to a sample (-1..1), as the page decodes it."""
    b = ~byte & 0xFF
    exponent = (b >> 4) & 7
    s = ((((b & 0x0F) << 3) + _BIAS) << exponent) - _BIAS
    return (-s if b & 0x80 else s) / 32768


def mulaw_wav(samples: list[float], rate: int = WEB_RATE) -> bytes:
    """A mono mu-law WAV file: the fmt chunk of a non-PCM format, its fact
    chunk (the number of samples) and the data."""
    data = bytes(mulaw(v) for v in samples)
    fmt = struct.pack("<HHIIHHH", MULAW, 1, rate, rate, 1, 8, 0)
    fact = struct.pack("<I", len(samples))
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt
    body += b"fact" + struct.pack("<I", len(fact)) + fact
    body += b"data" + struct.pack("<I", len(data)) + data + (b"\0" if len(data) % 2 else b"")
    return b"RIFF" + struct.pack("<I", len(body)) + body


def web_sound(name: str, source_dir: Path = SOUNDS_DIR) -> bytes:
    """The page's copy of sound ``name``, made from its 44.1 kHz WAV."""
    with wave.open(str(source_dir / f"{name}.wav"), "rb") as w:
        if (w.getnchannels(), w.getsampwidth(), w.getframerate()) != (1, 2, SOURCE_RATE):
            raise ValueError(f"{name}.wav: expected 16-bit mono at {SOURCE_RATE} Hz")
        samples = array("h", w.readframes(w.getnframes()))
    if sys.byteorder == "big":
        samples.byteswap()
    return mulaw_wav(halve(samples))


def write_web_sounds(source_dir: Path = SOUNDS_DIR, out_dir: Path = WEB_OUT) -> list[Path]:
    """Write the page's copy of every sound it plays (temporary file, then
    rename); returns the paths."""
    out: list[Path] = []
    for name in WEB_SOUNDS:
        path = out_dir / web_name(name)
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(web_sound(name, source_dir))
        tmp.replace(path)
        out.append(path)
    return out


__all__ = ["WEB_OUT", "WEB_RATE", "WEB_SOUNDS", "halve", "mulaw", "mulaw_wav", "unmulaw",
           "web_name", "web_sound", "write_web_sounds"]
