"""Bounded, safe file reading and crash-safe writing (no UI imports).

Reading: only regular files are read (a FIFO, a device or a directory is refused
at once, without blocking: the path is checked with ``os.stat`` and opened with
``O_NONBLOCK``, then checked again with ``fstat``), at most ``max_bytes`` in
all and ``max_line`` bytes a line, line by line, so a hostile file never costs
more than the caps in time or memory.

Writing: :func:`atomic_write` puts the new content in a temporary file in the
same folder, fsyncs it, renames it over the target and fsyncs the folder; the
temporary file is removed if anything fails, and :func:`clean_temporaries`
removes those left by a killed process (its pid is in the name).

The save discipline of the whole program: every event is appended and flushed
before it is shown; any rewrite goes to a temporary file, fsync, rename.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

#: A replay file is at most 2 MB: a four-deal match is about 20-40 KB and a
#: three-deal game of the 78-card variant about 60 KB, so this is 30x headroom
#: while a refusal still costs nothing.
MAX_REPLAY_BYTES = 2 * 1024 * 1024
#: A replay line is at most 4 KB: the longest line of a real game is a deal
#: (about 450 bytes for 62 cards, 550 for 78); the header with four 40-character
#: names is under 400.
MAX_LINE_BYTES = 4096
#: Player names in a header: at most 40 characters (they are shown at the table).
MAX_NAME_CHARS = 40


class FileRefused(OSError):
    """A file that is not read: not a regular file, too big, a line too long.
    ``line`` is 1-based (0: the whole file); ``str()`` is the message alone."""

    def __init__(self, message: str, line: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.line = line

    def __str__(self) -> str:
        return self.message


def user_data_folder() -> Path:
    """The user's Tarocchi data folder (not created here): ``TAROCCHI_HOME`` if
    set, else the platform's place for it (platformdirs).  The game keeps its
    saves there and ``tarocchi serve`` its ``server/`` folder."""
    env = os.environ.get("TAROCCHI_HOME")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("tarocchi", appauthor=False))


def _size(n: int) -> str:
    if n >= 1024 * 1024:
        return f"{n:,} bytes ({n / (1024 * 1024):.3g} MB)"
    if n >= 1024:
        return f"{n:,} bytes ({n / 1024:.3g} KB)"
    return f"{n} bytes"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def open_regular(path: str | os.PathLike[str], max_bytes: int) -> tuple[int, int]:
    """Open ``path`` for reading if it is a regular file of at most ``max_bytes``;
    returns ``(fd, size)``.  Raises :class:`FileRefused` (or ``OSError`` from the
    system, e.g. a missing file) at once, never blocking."""
    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode):
        raise FileRefused(f"{_kind(st.st_mode)}, not a regular file")
    if st.st_size > max_bytes:
        raise FileRefused(f"the file is {_size(st.st_size)}; at most {_size(max_bytes)} is read")
    # O_NONBLOCK: if the path was swapped for a FIFO since the stat, open does not wait
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOCTTY", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FileRefused(f"{_kind(st.st_mode)}, not a regular file")
        if st.st_size > max_bytes:
            raise FileRefused(f"the file is {_size(st.st_size)}; at most {_size(max_bytes)} is read")
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd, st.st_size


def iter_lines(
    path: str | os.PathLike[str],
    *,
    max_bytes: int = MAX_REPLAY_BYTES,
    max_line: int = MAX_LINE_BYTES,
) -> Iterator[bytes]:
    """The lines of a regular file as bytes, each with its ``\\n`` (the last may
    lack it), never more than ``max_bytes`` in all nor ``max_line`` a line
    (newline excluded).  Raises :class:`FileRefused` at the first excess."""
    fd, _size_now = open_regular(path, max_bytes)
    with os.fdopen(fd, "rb", buffering=64 * 1024) as f:
        total = 0
        n = 0
        while True:
            line = f.readline(max_line + 2)
            if not line:
                return
            n += 1
            total += len(line)
            if total > max_bytes:  # the file grew while being read
                raise FileRefused(f"the file is over {_size(max_bytes)}; at most that is read", n)
            body = len(line) - (1 if line.endswith(b"\n") else 0)
            if body > max_line:
                raise FileRefused(
                    f"the line is over {max_line} bytes long (a replay line is at most {max_line})", n
                )
            yield line


def read_capped(path: str | os.PathLike[str], max_bytes: int) -> bytes:
    """The whole of a small regular file (settings and the like), at most ``max_bytes``."""
    fd, _ = open_regular(path, max_bytes)
    with os.fdopen(fd, "rb") as f:
        data = f.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise FileRefused(f"the file is over {_size(max_bytes)}; at most that is read")
    return data


# --- writing -------------------------------------------------------------------

#: Temporary files being written by this process (removed by the SIGTERM handler).
_IN_PROGRESS: set[str] = set()
_TMP_RE = re.compile(r"^\..+\.(\d+)-[A-Za-z0-9_]+\.tmp$")


def fsync_dir(folder: str | os.PathLike[str]) -> None:
    """Make a rename in ``folder`` durable (ignored where folders cannot be fsynced)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _umask() -> int:
    """The process umask, read without changing it (Linux), else the usual 022."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    return 0o022


def atomic_write(path: str | os.PathLike[str], data: bytes | str, *, overwrite: bool = True) -> None:
    """Write ``data`` to ``path`` so that a kill at any moment leaves either the old
    file or the whole new one: a temporary file in the same folder, fsync, rename,
    fsync the folder.  With ``overwrite=False`` an existing ``path`` is never
    replaced (``FileExistsError``).  The temporary file is removed on failure."""
    p = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=f".{p.name}.{os.getpid()}-", suffix=".tmp")
    _IN_PROGRESS.add(tmp)
    try:
        try:
            try:  # the mode of the file replaced, else what open() would give (mkstemp: 0600)
                mode = os.stat(p).st_mode & 0o777
            except OSError:
                mode = 0o666 & ~_umask()
            os.fchmod(fd, mode)
            view = memoryview(data)
            while view:
                k = os.write(fd, view)
                view = view[k:]
            os.fsync(fd)
        finally:
            os.close(fd)
        if overwrite:
            os.replace(tmp, p)
        else:
            os.link(tmp, p)  # fails if p exists: never overwrites
            os.unlink(tmp)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    finally:
        _IN_PROGRESS.discard(tmp)
    fsync_dir(p.parent)


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: someone else's live process
        return True
    return True


def clean_temporaries(folder: str | os.PathLike[str], legacy_age_s: float = 60.0) -> list[Path]:
    """Remove the temporary files a killed writer left in ``folder``: ours (their
    writer's pid is in the name and that process is gone), and the older
    ``NAME.tmp`` form once it is ``legacy_age_s`` old.  Returns what was removed."""
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    now = time.time()
    for e in entries:
        if not e.name.endswith(".tmp"):
            continue
        try:
            if not e.is_file(follow_symlinks=False):
                continue
            m = _TMP_RE.match(e.name)
            if m:
                stale = not _pid_alive(int(m.group(1)))
            else:
                stale = e.name.endswith((".jsonl.tmp", ".json.tmp")) and (
                    now - e.stat(follow_symlinks=False).st_mtime > legacy_age_s
                )
            if stale:
                os.unlink(e.path)
                removed.append(Path(e.path))
        except OSError:
            continue
    return removed


def remove_in_progress() -> None:
    """Remove this process's half-written temporary files (from a signal handler)."""
    for tmp in list(_IN_PROGRESS):
        try:
            os.unlink(tmp)
        except OSError:
            pass


def exit_cleanly_on_sigterm() -> None:
    """On SIGTERM, remove the temporary files being written and exit at once."""
    import signal

    def _on_term(signum: int, frame: object) -> None:
        remove_in_progress()
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, _on_term)


def die_with_parent(parent_pid: int | None = None) -> None:
    """Linux: get SIGTERM when the parent process dies (``PR_SET_PDEATHSIG``), so
    a worker is never left running after its parent is killed.  ``parent_pid``:
    the parent's pid as it knew it (else 1 stands for an orphan)."""
    if not sys.platform.startswith("linux"):
        return
    import signal

    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != (parent_pid or os.getppid()) or os.getppid() == 1:
        os._exit(1)  # the parent died before the line above


def describe_os_error(exc: OSError) -> str:
    """A short reason for an OSError (``strerror`` without the path)."""
    if exc.errno == errno.ENOSPC:
        return "the disk is full"
    if exc.errno == errno.EROFS:
        return "the disk is read-only"
    if exc.errno == errno.EDQUOT:
        return "the disk quota is used up"
    return exc.strerror or str(exc)


class SaveFailed(Exception):
    """A game's autosave could not be written (disk full, folder gone, read-only).

    Raised by :meth:`engine.game.Game.submit`, ``undo`` and ``redo`` instead of
    the ``OSError`` (chained as ``__cause__``), after the game was put back
    exactly as it was before the command and its log cut back to its last whole
    line.  ``str()`` is one line naming the file and the error; ``path`` and
    ``error`` hold them."""

    def __init__(self, path: str | os.PathLike[str], error: OSError) -> None:
        self.path = Path(path)
        self.error = error
        super().__init__(f"could not save the game to {self.path}: {describe_os_error(error)}")
