"""Sound effects for Tarocchi: names and paths (synthesised by ``python -m sounds.generate``)."""

from pathlib import Path

SOUNDS_DIR = Path(__file__).resolve().parent
SOUND_NAMES = (
    "shuffle",
    "cut",
    "deal",
    "play",
    "trick",
    "matto",
    "click",
    "deal_won",
    "deal_lost",
    "match_won",
)

__all__ = ["SOUNDS_DIR", "SOUND_NAMES"]
