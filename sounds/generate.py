"""Synthesise the Tarocchi sound effects as 16-bit mono 44.1 kHz WAV files.

Run ``python -m sounds.generate [OUT_DIR]``; into the project's own folder it
also writes the browser seat's small copies (``sounds/web.py``). Pure standard
library: seeded noise, simple filters, additive tones and envelopes. Every sound is faded in and out,
normalised to the same RMS loudness and soft-limited below full scale, so the
output is deterministic and never clips.
"""

from __future__ import annotations

import math
import random
import sys
import wave
from array import array
from collections.abc import Callable
from pathlib import Path

from sounds import SOUND_NAMES, SOUNDS_DIR

RATE = 44100
TARGET_RMS = 10 ** (-20 / 20)  # -20 dBFS
CEILING = 0.97  # peak limit, as a fraction of full scale
FADE_IN = 0.010
FADE_OUT = 0.025

# longest allowed duration in seconds: effects 1 s, flourishes (and the riffle) 3 s
LIMITS = {name: 1.0 for name in SOUND_NAMES} | {
    "shuffle": 3.0, "deal_won": 3.0, "deal_lost": 3.0, "match_won": 3.0,
}

Signal = list[float]


# --------------------------------------------------------------------------------------
# Building blocks
# --------------------------------------------------------------------------------------

def silence(seconds: float) -> Signal:
    return [0.0] * int(seconds * RATE)


def mix_into(dst: Signal, src: Signal, at: float, gain: float = 1.0) -> None:
    """Add ``src`` into ``dst`` starting at ``at`` seconds (clipped to dst)."""
    start = int(at * RATE)
    end = min(len(dst), start + len(src))
    for i in range(start, end):
        dst[i] += src[i - start] * gain


def noise(rng: random.Random, seconds: float) -> Signal:
    return [rng.uniform(-1.0, 1.0) for _ in range(int(seconds * RATE))]


def lowpass(x: Signal, cutoff: float) -> Signal:
    a = 1.0 - math.exp(-2 * math.pi * cutoff / RATE)
    y, out = 0.0, []
    for v in x:
        y += a * (v - y)
        out.append(y)
    return out


def highpass(x: Signal, cutoff: float) -> Signal:
    low = lowpass(x, cutoff)
    return [v - lo for v, lo in zip(x, low, strict=True)]


def bandpass(x: Signal, lo: float, hi: float) -> Signal:
    return lowpass(highpass(x, lo), hi)


def sweep_lowpass(x: Signal, f0: float, f1: float) -> Signal:
    """A lowpass whose cutoff glides from f0 to f1 (exponentially) over the signal."""
    n = len(x)
    y, out = 0.0, []
    for i, v in enumerate(x):
        f = f0 * (f1 / f0) ** (i / max(1, n - 1))
        a = 1.0 - math.exp(-2 * math.pi * f / RATE)
        y += a * (v - y)
        out.append(y)
    return out


def env_exp(x: Signal, decay: float, attack: float = 0.001) -> Signal:
    """Linear attack, then exponential decay with time constant ``decay`` seconds."""
    na = max(1, int(attack * RATE))
    return [v * (i / na if i < na else math.exp(-(i - na) / (decay * RATE)))
            for i, v in enumerate(x)]


def env_bell(x: Signal, peak: float = 0.5, sharp: float = 3.0) -> Signal:
    """A smooth hump (raised sine power) peaking at fraction ``peak`` of the signal."""
    n = len(x)
    out = []
    for i, v in enumerate(x):
        t = i / max(1, n - 1)
        u = t / peak if t < peak else (1 - t) / (1 - peak)
        out.append(v * math.sin(math.pi / 2 * max(0.0, u)) ** sharp)
    return out


def tone(freq: float, seconds: float, partials: tuple[float, ...] = (1.0, 0.5, 0.25),
         decay: float = 0.4, attack: float = 0.006, vibrato: float = 0.0,
         ratios: tuple[float, ...] | None = None) -> Signal:
    """Additive tone: partial k at ratio k+1 (or ``ratios``), higher ones decaying faster."""
    n = int(seconds * RATE)
    ratios = ratios or tuple(float(k + 1) for k in range(len(partials)))
    out = [0.0] * n
    for amp, ratio in zip(partials, ratios, strict=True):
        f = freq * ratio
        if f >= RATE / 2:
            continue
        tau = decay / (1 + 0.6 * (ratio - 1)) * RATE
        w = 2 * math.pi * f / RATE
        for i in range(n):
            ph = w * i
            if vibrato:
                ph += vibrato * math.sin(2 * math.pi * 5.5 * i / RATE) * (i / n)
            out[i] += amp * math.sin(ph) * math.exp(-i / tau)
    na = max(1, int(attack * RATE))
    for i in range(min(na, n)):
        out[i] *= i / na
    return out


def note(name: str) -> float:
    """Frequency of a note such as 'C5', 'Eb4', 'F#3' (A4 = 440 Hz)."""
    steps = {"C": -9, "D": -7, "E": -5, "F": -4, "G": -2, "A": 0, "B": 2}[name[0]]
    rest = name[1:]
    if rest.startswith("#"):
        steps, rest = steps + 1, rest[1:]
    elif rest.startswith("b"):
        steps, rest = steps - 1, rest[1:]
    return 440.0 * 2 ** ((steps + 12 * (int(rest) - 4)) / 12)


# --------------------------------------------------------------------------------------
# The sounds
# --------------------------------------------------------------------------------------

def riffle_click(rng: random.Random, bright: float) -> Signal:
    burst = noise(rng, 0.012)
    burst = bandpass(burst, 900 + 1200 * bright, 5000 + 3000 * bright)
    return env_exp(burst, 0.0018 + 0.001 * rng.random(), 0.0003)


def shuffle() -> Signal:
    """Two riffles (bursts of filtered card clicks speeding up and slowing) and a bridge."""
    rng = random.Random(1001)
    out = silence(1.75)
    for start, count, dur in ((0.03, 30, 0.58), (0.72, 30, 0.55)):
        t = start
        for k in range(count):
            x = k / (count - 1)
            gap = dur / count * (1.25 - 0.6 * math.sin(math.pi * x))
            mix_into(out, riffle_click(rng, rng.random()), t, 0.5 + 0.5 * rng.random())
            t += gap * (0.85 + 0.3 * rng.random())
    bridge = env_bell(sweep_lowpass(noise(rng, 0.4), 3500, 600), 0.35, 2.0)
    mix_into(out, bridge, 1.32, 0.55)
    thump = env_exp(tone(110, 0.12, (1.0, 0.3)), 0.03)
    mix_into(out, thump, 1.62, 0.5)
    return out


def cut() -> Signal:
    """A packet slid off the pack, then set down with a soft tap."""
    rng = random.Random(1002)
    out = silence(0.42)
    slide = env_bell(bandpass(noise(rng, 0.2), 600, 3000), 0.6, 1.5)
    mix_into(out, slide, 0.01, 0.5)
    tap = env_exp(highpass(noise(rng, 0.03), 1500), 0.004, 0.0005)
    mix_into(out, tap, 0.23, 0.9)
    mix_into(out, env_exp(tone(130, 0.15, (1.0, 0.4)), 0.035), 0.23, 0.6)
    return out


def deal() -> Signal:
    """A card dealt: a short swish through the air ending in a light tick."""
    rng = random.Random(1003)
    out = silence(0.26)
    swish = env_bell(sweep_lowpass(highpass(noise(rng, 0.18), 400), 1200, 7000), 0.7, 2.0)
    mix_into(out, swish, 0.012, 0.8)
    mix_into(out, env_exp(highpass(noise(rng, 0.02), 2500), 0.003, 0.0004), 0.19, 0.5)
    return out


def play() -> Signal:
    """A card played: a crisp snap and a muffled thud on the felt."""
    rng = random.Random(1004)
    out = silence(0.3)
    snap = env_exp(bandpass(noise(rng, 0.03), 1800, 9000), 0.004, 0.0004)
    mix_into(out, snap, 0.012, 1.0)
    thud = env_exp(tone(95, 0.2, (1.0, 0.35, 0.1)), 0.045, 0.001)
    mix_into(out, thud, 0.012, 0.7)
    felt_noise = env_exp(lowpass(noise(rng, 0.12), 900), 0.03, 0.001)
    mix_into(out, felt_noise, 0.014, 0.5)
    return out


def trick() -> Signal:
    """The trick gathered: four cards slid together across the cloth."""
    rng = random.Random(1005)
    out = silence(0.62)
    for k in range(4):
        slide = env_bell(bandpass(noise(rng, 0.3), 300, 1800 + 300 * k), 0.55, 1.6)
        mix_into(out, slide, 0.02 + 0.09 * k + 0.02 * rng.random(), 0.5)
    mix_into(out, env_exp(lowpass(noise(rng, 0.05), 700), 0.015), 0.5, 0.4)
    return out


def matto() -> Signal:
    """The Matto: a jester's cap of little bells, shaken."""
    rng = random.Random(1006)
    out = silence(0.95)
    ratios = (1.0, 2.76, 5.4, 8.93)
    partials = (1.0, 0.5, 0.25, 0.12)
    bells = (note("E6"), note("G#6"), note("B6"), note("E7"))
    t = 0.012
    for k in range(9):
        f = bells[(k * 3 + rng.randrange(2)) % len(bells)] * (1 + 0.004 * (rng.random() - 0.5))
        b = tone(f, 0.45, partials, decay=0.12, attack=0.0015, ratios=ratios)
        mix_into(out, b, t, 0.9 - 0.05 * k)
        rattle = env_exp(highpass(noise(rng, 0.01), 4000), 0.002, 0.0003)
        mix_into(out, rattle, t, 0.15)
        t += 0.05 + 0.03 * rng.random() + (0.1 if k == 4 else 0.0)
    return out


def click() -> Signal:
    """A button click: a short bright tick."""
    rng = random.Random(1007)
    out = silence(0.085)
    mix_into(out, env_exp(tone(1800, 0.05, (1.0, 0.3)), 0.008, 0.0005), 0.012, 0.8)
    mix_into(out, env_exp(highpass(noise(rng, 0.01), 3000), 0.0015, 0.0002), 0.012, 0.4)
    return out


def arpeggio(notes: list[tuple[str, float, float, float]], length: float,
             partials: tuple[float, ...], decay: float, vibrato: float = 0.0) -> Signal:
    """Notes as (name, start, duration, gain) on a simple additive timbre."""
    out = silence(length)
    for name, start, dur, gain in notes:
        mix_into(out, tone(note(name), dur, partials, decay=decay, vibrato=vibrato), start, gain)
    return out


BRASS = (1.0, 0.7, 0.45, 0.3, 0.18, 0.1)
FLUTE = (1.0, 0.25, 0.08)


def deal_won() -> Signal:
    """A bright rising arpeggio ending on a major chord."""
    notes = [("C5", 0.01, 0.3, 0.7), ("E5", 0.12, 0.3, 0.7), ("G5", 0.24, 0.3, 0.7)]
    notes += [(n, 0.38, 0.85, 0.5) for n in ("C5", "E5", "G5", "C6")]
    return arpeggio(notes, 1.3, BRASS, 0.35)


def deal_lost() -> Signal:
    """A slow falling minor figure, soft and short."""
    notes = [("G4", 0.01, 0.4, 0.7), ("Eb4", 0.28, 0.4, 0.7), ("D4", 0.55, 0.4, 0.6)]
    notes += [(n, 0.82, 0.75, 0.45) for n in ("C4", "Eb4", "G3")]
    return arpeggio(notes, 1.6, FLUTE, 0.45)


def match_won() -> Signal:
    """A small fanfare: a triplet call, then a held chord with vibrato."""
    notes = [("G4", 0.01, 0.2, 0.6), ("G4", 0.14, 0.2, 0.6), ("G4", 0.27, 0.2, 0.6),
             ("C5", 0.42, 0.45, 0.8), ("G4", 0.74, 0.2, 0.6), ("C5", 0.88, 0.2, 0.7),
             ("E5", 1.02, 0.2, 0.7)]
    out = arpeggio(notes, 2.6, BRASS, 0.3)
    for n in ("C5", "E5", "G5", "C6"):
        mix_into(out, tone(note(n), 1.4, BRASS, decay=0.9, vibrato=0.6), 1.18, 0.42)
    return out


SYNTHS: dict[str, Callable[[], Signal]] = {
    "shuffle": shuffle, "cut": cut, "deal": deal, "play": play, "trick": trick,
    "matto": matto, "click": click, "deal_won": deal_won, "deal_lost": deal_lost,
    "match_won": match_won,
}


# --------------------------------------------------------------------------------------
# Mastering and output
# --------------------------------------------------------------------------------------

def rms(x: Signal) -> float:
    return math.sqrt(sum(v * v for v in x) / max(1, len(x)))


def fade(x: Signal) -> Signal:
    """Squared raised-cosine fades: silent at both ends, no clicks."""
    y = list(x)
    n = len(y)
    for length, head in ((int(FADE_IN * RATE), True), (int(FADE_OUT * RATE), False)):
        for i in range(min(length, n)):
            g = (0.5 - 0.5 * math.cos(math.pi * i / length)) ** 2
            y[i if head else n - 1 - i] *= g
    return y


def soft_limit(x: Signal, knee: float = 0.6, ceiling: float = CEILING) -> Signal:
    span = ceiling - knee
    out = []
    for v in x:
        a = abs(v)
        if a > knee:
            a = knee + span * math.tanh((a - knee) / span)
            v = math.copysign(a, v)
        out.append(v)
    return out


def master(x: Signal) -> Signal:
    """Fade, bring to the target RMS and soft-limit the peaks (a few passes converge)."""
    y = fade(x)
    for _ in range(4):
        level = rms(y)
        if level > 0:
            y = [v * TARGET_RMS / level for v in y]
        y = soft_limit(y)
    return fade(y)


def write_wav(path: Path, x: Signal) -> None:
    pcm = array("h", (max(-32000, min(32000, round(v * 32767))) for v in x))
    if sys.byteorder == "big":
        pcm.byteswap()
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(pcm.tobytes())


def render(name: str) -> Signal:
    x = master(SYNTHS[name]())
    if len(x) / RATE > LIMITS[name]:  # pragma: no cover - a synth bug
        raise ValueError(f"{name} is longer than {LIMITS[name]} s")
    return x


def generate(out_dir: Path | str = SOUNDS_DIR) -> list[Path]:
    out = Path(out_dir)
    written = []
    for name in SOUND_NAMES:
        path = out / f"{name}.wav"
        write_wav(path, render(name))
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else SOUNDS_DIR
    files = generate(out)
    print(f"wrote {len(files)} sounds under {out}")
    if out == SOUNDS_DIR:
        from sounds.web import WEB_OUT, write_web_sounds

        web = write_web_sounds()
        print(f"wrote {len(web)} sounds for the browser seat under {WEB_OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
