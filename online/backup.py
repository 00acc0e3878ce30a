"""``tarocchi serve-backup OUT``: a copy of a server's SQLite store, taken while it
runs (SQLite's online backup API: a consistent snapshot, copied a slice of pages
at a time so the server's writer is never held up for long).

The copy is written to ``OUT.part``, checked (``PRAGMA quick_check``), flushed to
disk, then renamed to ``OUT``: a backup cut short leaves no half file under the
backup's name.  The replays (``replays/`` beside the store) are plain files:
copy them as files.  PostgreSQL's store is backed up with ``pg_dump``
(docs/SERVER.md).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from pathlib import Path
from typing import Any

STORE_NAME = "tarocchi.sqlite3"
#: pages copied a step (4 MB with SQLite's 4 kB pages), then the writer may go on
PAGES_A_STEP = 1024


class BackupError(Exception):
    """The backup could not be made; ``str()`` is one line saying why."""


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def backup(data_dir: Path, out: Path) -> dict[str, Any]:
    """Copy ``data_dir``'s store to ``out``; returns what the copy holds."""
    src_path = data_dir / STORE_NAME
    if not src_path.is_file():
        raise BackupError(f"{src_path}: no server store here (give the server's --data folder)")
    if out.exists() and out.resolve() == src_path.resolve():
        raise BackupError(f"{out} is the store itself: write the backup elsewhere")
    if out.is_dir():
        raise BackupError(f"{out} is a folder: give the backup's file name")
    part = out.with_name(out.name + ".part")
    try:
        src = sqlite3.connect(src_path, timeout=30)
    except sqlite3.Error as exc:
        raise BackupError(f"{src_path}: {exc}") from None
    try:
        part.unlink(missing_ok=True)
        dst = sqlite3.connect(part)
        try:
            src.backup(dst, pages=PAGES_A_STEP)
            check = dst.execute("PRAGMA quick_check").fetchone()
            if not check or check[0] != "ok":
                raise BackupError(f"the copy did not pass SQLite's check: {check}")
            held = {name: dst.execute(f"SELECT count(*) FROM {name}").fetchone()[0]
                    for name in ("tables", "events")}
            dst.execute("PRAGMA journal_mode=DELETE")
        finally:
            dst.close()
        _fsync(part)
        os.replace(part, out)
        _fsync(out.parent)
    except (sqlite3.Error, OSError) as exc:
        part.unlink(missing_ok=True)
        raise BackupError(f"{out}: {exc}") from None
    finally:
        src.close()
    return {"backup": str(out), "bytes": out.stat().st_size, **held}


def cmd_serve_backup(args: argparse.Namespace) -> int:
    import json

    from .server import default_data_dir

    data = Path(args.data) if args.data else default_data_dir()
    try:
        result = backup(data, Path(args.out))
    except BackupError as exc:
        print(f"tarocchi serve-backup: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(result))
    return 0


__all__ = ["BackupError", "backup", "cmd_serve_backup"]
