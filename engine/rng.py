"""Owned randomness: a SplitMix64 generator and our own Fisher-Yates shuffle.

Python's ``random`` may change between versions; this code does not, so a seed
deals the same cards everywhere and a replay file can be dealt again from its seed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import TypeVar

T = TypeVar("T")

_M64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def mix64(*parts: int) -> int:
    """Hash a few ints into one 64-bit seed (stable, order-sensitive)."""
    h = 0x243F6A8885A308D3
    for p in parts:
        h = (h ^ (p & _M64)) * 0xBF58476D1CE4E5B9 & _M64
        h = (h ^ (h >> 29) ^ (p >> 64 & _M64)) * 0x94D049BB133111EB & _M64
        h ^= h >> 32
    return h


@lru_cache(maxsize=8)
def _perm_bits(n: int) -> int:
    """Random bits needed to pick one of n! orderings with bias below 2**-32."""
    return math.factorial(n).bit_length() + 32


class Rng:
    """SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, good enough for shuffling."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _M64

    def next64(self) -> int:
        self.state = s = (self.state + _GOLDEN) & _M64
        s = (s ^ (s >> 30)) * 0xBF58476D1CE4E5B9 & _M64
        s = (s ^ (s >> 27)) * 0x94D049BB133111EB & _M64
        return s ^ (s >> 31)

    def below(self, n: int) -> int:
        """A number in ``range(n)`` (multiply-shift; bias under 2**-50 for our n)."""
        return (self.next64() * n) >> 64

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.below(len(seq))]

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def permutation(self, n: int) -> list[int]:
        """A uniformly random ordering of ``range(n)``.

        Fisher-Yates driven by one big random number read in the factorial number
        system: a handful of 64-bit draws instead of one per card (bias below
        2**-32 for a 62-card pack).
        """
        bits = 0
        need = _perm_bits(n)
        r = 0
        while bits < need:
            r = r << 64 | self.next64()
            bits += 64
        items = list(range(n))
        for i in range(n - 1, 0, -1):
            r, j = divmod(r, i + 1)
            items[i], items[j] = items[j], items[i]
        return items
