"""Numbers with their nouns for the command line's English: "1 deal", "2 deals"."""

from __future__ import annotations


def counted(n: int, one: str, many: str | None = None) -> str:
    """``n`` and the noun, singular for exactly one (``many``: an irregular plural)."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


__all__ = ["counted"]
