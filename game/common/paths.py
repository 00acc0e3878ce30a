"""Where things are: the card art, sounds, message catalogs, and the user data
folder (autosave, replays, settings, autoplay logs).  ``TAROCCHI_HOME`` overrides the data
folder (tests use a temporary one); ``TAROCCHI_ART_DIR`` overrides the art folder.
"""

from __future__ import annotations

import errno
import os
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import art
import sounds
from engine.files import user_data_folder

GAME_DIR = Path(__file__).resolve().parent.parent  # game/ (this file is game/common/paths.py)
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
    p = user_data_folder()
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


# --- one writer per data folder ------------------------------------------------------
#
# The process that has the autosave open holds an exclusive lock on
# ``<data folder>/autosave.lock`` for as long as it does.  The lock is the
# operating system's own: ``fcntl.flock`` on POSIX, ``msvcrt.locking`` on
# Windows.  Both belong to the open file and the kernel drops them when the
# process ends, however it ends (a crash, SIGKILL, a power-off of the machine
# that held it), so a lock left by a dead process never blocks anyone: there is
# no pid file to judge stale, no timeout, no clean-up, and no package to pin
# (``filelock`` does the same underneath).  The lock file itself is never
# removed (removing it would let two processes lock two different files).
# Within one process the lock is counted, so a game that is set aside by a new
# one, or filed once finished, keeps the folder until the last holder lets go.

LOCK_NAME = "autosave.lock"


class AutosaveBusy(DataFolderError):
    """Another Tarocchi process has the game in progress open in this data folder."""


_locks: dict[str, list[int]] = {}  # data folder -> [fd, holders in this process]
_locks_mutex = threading.Lock()


def _try_lock(fd: int) -> bool:
    if os.name == "nt":  # pragma: no cover - Windows
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]  # checked as on Linux
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            return False
        raise
    return True


def try_lock(fd: int) -> bool:
    """Take the exclusive lock of the open file ``fd`` without waiting (True), or
    find it held by another process (False); held until ``fd`` is closed or the
    process ends, however it ends."""
    return _try_lock(fd)


def _unlock(fd: int) -> None:
    try:
        if os.name == "nt":  # pragma: no cover - Windows
            import msvcrt

            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)  # type: ignore[attr-defined]  # checked as on Linux
        else:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def busy_message(folder: Path) -> str:
    return f"The game in progress is open in another Tarocchi window (data folder {folder})"


def acquire_autosave() -> Path:
    """Take this data folder's writer lock (or one more hold of it, if this process
    has it already); returns the folder.  :class:`AutosaveBusy` at once, without
    waiting, if another process holds it; :class:`DataFolderError` if the lock
    file cannot be made."""
    folder = home()
    key = str(folder.resolve())
    with _locks_mutex:
        held = _locks.get(key)
        if held is not None:
            held[1] += 1
            return folder
        try:
            fd = os.open(folder / LOCK_NAME, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
        except OSError as exc:
            raise _folder_error(folder, exc) from None
        try:
            locked = _try_lock(fd)
        except OSError as exc:
            os.close(fd)
            raise _folder_error(folder, exc) from None
        if not locked:
            os.close(fd)
            raise AutosaveBusy(busy_message(folder))
        _locks[key] = [fd, 1]
        return folder


def release_autosave(folder: Path) -> None:
    """Give back one hold of :func:`acquire_autosave`; the last one unlocks."""
    key = str(folder.resolve())
    with _locks_mutex:
        held = _locks.get(key)
        if held is None:
            return
        held[1] -= 1
        if held[1] <= 0:
            del _locks[key]
            _unlock(held[0])


def holds_autosave(folder: Path | None = None) -> bool:
    """Whether this process holds the writer lock of ``folder`` (default: the data folder)."""
    key = str((folder or home()).resolve())
    with _locks_mutex:
        return key in _locks


@contextmanager
def autosave_lock() -> Iterator[Path]:
    """:func:`acquire_autosave` for the length of a ``with`` block."""
    folder = acquire_autosave()
    try:
        yield folder
    finally:
        release_autosave(folder)
