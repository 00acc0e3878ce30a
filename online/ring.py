"""A ring of the latest figures (the bench's latencies), in memory taken once.

A server that runs for months keeps the latest figures of its commits and AI
decisions for ``tarocchi bench server`` to read; a ``deque`` of tuples grew by
about 120 bytes a commit until full (24 MB for 200,000 commits), so that memory
rose for the first days of play.  Here the room is taken at the start, one
``array`` of floats, and the newest row overwrites the oldest: the process is
the same size from its first commit to its millionth.
"""

from __future__ import annotations

from array import array


class Ring:
    """The latest ``size`` rows of ``width`` floats."""

    __slots__ = ("size", "width", "_data", "_n")

    def __init__(self, size: int, width: int = 1) -> None:
        if size < 1 or width < 1:
            raise ValueError("a ring holds at least one row of one figure")
        self.size, self.width = size, width
        self._data = array("d", bytes(8 * size * width))  # zeroed and touched: resident now
        self._n = 0  # rows appended since the start

    def append(self, *values: float) -> None:
        if len(values) != self.width:
            raise ValueError(f"a row of this ring has {self.width} figures, not {len(values)}")
        at = (self._n % self.size) * self.width
        self._data[at:at + self.width] = array("d", values)
        self._n += 1

    def __len__(self) -> int:
        return min(self._n, self.size)

    def column(self, i: int = 0) -> list[float]:
        """Figure ``i`` of every row held, oldest first."""
        n, w = len(self), self.width
        start = self._n % self.size if self._n > self.size else 0
        return [self._data[((start + k) % self.size) * w + i] for k in range(n)]

    def rows(self) -> list[tuple[float, ...]]:
        cols = [self.column(i) for i in range(self.width)]
        return list(zip(*cols, strict=True))


__all__ = ["Ring"]
