"""Where things are: the card art, sounds, message catalogs, and the user data
folder (autosave, replays, settings, autoplay logs).  ``TAROCCHI_HOME`` overrides the data
folder (tests use a temporary one); ``TAROCCHI_ART_DIR`` overrides the art folder.
"""

from __future__ import annotations

import errno
import os
import tempfile
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


class DataFolderError(Exception):
    """The user data folder cannot be used; ``str()`` is one line saying why."""


def _folder_error(p: Path, exc: OSError) -> DataFolderError:
    if isinstance(exc, FileExistsError | NotADirectoryError):
        why = "it is a file, not a folder" if p.exists() else "a part of its path is a file"
    elif exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        why = "it is read-only" if exc.errno == errno.EROFS or p.is_dir() else "permission denied"
    elif exc.errno == errno.ENOSPC:
        why = "the disk is full"
    else:
        why = exc.strerror or str(exc)
    return DataFolderError(f"cannot use the data folder {p}: {why} (set TAROCCHI_HOME to another folder)")


def home() -> Path:
    """The user data folder (created on first use); :class:`DataFolderError` if it cannot be."""
    env = os.environ.get("TAROCCHI_HOME")
    if env:
        p = Path(env)
    else:
        import platformdirs

        p = Path(platformdirs.user_data_dir("tarocchi", appauthor=False))
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _folder_error(p, exc) from None
    return p


def check_home() -> Path:
    """:func:`home`, checked to be writable (a probe file made and removed), so a
    read-only folder is refused before a game is started rather than mid-game."""
    p = home()
    try:
        fd, probe = tempfile.mkstemp(dir=p, prefix=f".probe.{os.getpid()}-", suffix=".tmp")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise _folder_error(p, exc) from None
    return p


def _subfolder(name: str) -> Path:
    base = home()
    p = base / name
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _folder_error(p, exc) from None
    return p


def autosave_path() -> Path:
    return home() / "autosave.jsonl"


def replays_dir() -> Path:
    return _subfolder("replays")


def autoplay_dir() -> Path:
    """``tarocchi autoplay``'s game logs: never the user's autosave or replays."""
    return _subfolder("autoplay")


def settings_path() -> Path:
    return home() / "settings.json"
