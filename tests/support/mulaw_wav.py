"""Reading the browser seat's sound files (mono mu-law WAV, sounds/web.py) in the
tests, independently of the code that writes them."""

from __future__ import annotations

import struct


def read_mulaw(data: bytes) -> tuple[int, bytes]:
    """A mono mu-law WAV file's rate and sample bytes."""
    assert data[:4] == b"RIFF" and data[8:12] == b"WAVE"
    at, rate = 12, 0
    while at + 8 <= len(data):
        tag, size = data[at:at + 4], struct.unpack("<I", data[at + 4:at + 8])[0]
        if tag == b"fmt ":
            fmt, channels, rate = struct.unpack("<HHI", data[at + 8:at + 16])
            assert (fmt, channels) == (7, 1)
        elif tag == b"data":
            assert rate, "no fmt chunk before the data"
            return rate, data[at + 8:at + 8 + size]
        at += 8 + size + size % 2
    raise AssertionError("no data chunk")
