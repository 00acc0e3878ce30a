"""Where things are: the card art, sounds, message catalogs, and the user data
folder (autosave, replays, settings).  ``TAROCCHI_HOME`` overrides the data
folder (tests use a temporary one); ``TAROCCHI_ART_DIR`` overrides the art folder.
"""

from __future__ import annotations

import os
from pathlib import Path

import art
import sounds

GAME_DIR = Path(__file__).resolve().parent
LOCALE_DIR = GAME_DIR / "locale"


def art_dir() -> Path:
    return Path(os.environ.get("TAROCCHI_ART_DIR") or art.ART_DIR)


def cards_dir() -> Path:
    return art_dir() / "cards"


def table_dir() -> Path:
    return art_dir() / "table"


def card_path(code: str) -> Path:
    """``card_path("SK")``; ``card_path("back")`` for the back."""
    return cards_dir() / f"{code}.png"


def table_path(name: str) -> Path:
    return table_dir() / f"{name}.png"


def sound_path(name: str) -> Path:
    return Path(sounds.SOUNDS_DIR) / f"{name}.wav"


def home() -> Path:
    """The user data folder (created on first use)."""
    env = os.environ.get("TAROCCHI_HOME")
    if env:
        p = Path(env)
    else:
        import platformdirs

        p = Path(platformdirs.user_data_dir("tarocchi", appauthor=False))
    p.mkdir(parents=True, exist_ok=True)
    return p


def autosave_path() -> Path:
    return home() / "autosave.jsonl"


def replays_dir() -> Path:
    p = home() / "replays"
    p.mkdir(parents=True, exist_ok=True)
    return p


def settings_path() -> Path:
    return home() / "settings.json"
