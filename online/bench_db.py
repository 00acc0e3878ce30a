"""PostgreSQL's own share of a ``tarocchi bench server --db`` run: the CPU of the
database's processes (its backends, WAL writer, checkpointer, ...) when it runs
on this machine, and its transactions committed a second.

The processes are the postmaster and its children, found from the probe's own
backend (``pg_backend_pid()``, its parent) and read in ``/proc/PID/stat`` before
and after the play: a process that started during the play counts whole, one
that ended is lost (the nodes keep their connections, so few do).  A database
on another machine gives no CPU figure (``db_cpu_ms_per_move`` is None).
Transactions come from ``pg_stat_database.xact_commit``: every transaction of
the database, the nodes' leases and look-ups included, read once the
statistics are flushed (PostgreSQL sends them at most a second late).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

STATS_DELAY_S = 1.1


def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()


def _cpu_ms(fields: list[str]) -> float:
    return (int(fields[11]) + int(fields[12])) * 1000.0 / os.sysconf("SC_CLK_TCK")


def _comm(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


class DbProbe:
    """Snapshots of a PostgreSQL database's CPU and commits (:meth:`snapshot`)."""

    def __init__(self, dsn: str) -> None:
        import psycopg

        self.conn = psycopg.connect(dsn, autocommit=True, connect_timeout=10)
        row = self.conn.execute("SELECT pg_backend_pid()").fetchone()
        me = _stat(int(row[0])) if row else None
        parent = int(me[1]) if me else 0
        #: None: the database is not a process of this machine
        self.postmaster = parent if parent and _comm(parent) in ("postgres", "postmaster") \
            else None

    def _processes(self) -> dict[int, float]:
        if self.postmaster is None:
            return {}
        out: dict[int, float] = {}
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            pid = int(entry.name)
            f = _stat(pid)
            if f is not None and (pid == self.postmaster or int(f[1]) == self.postmaster):
                out[pid] = _cpu_ms(f)
        return out

    def _commits(self) -> int:
        row = self.conn.execute("SELECT xact_commit FROM pg_stat_database"
                                " WHERE datname = current_database()").fetchone()
        return int(row[0]) if row else 0

    def snapshot(self, wait_for_stats: bool = False) -> dict[str, Any]:
        cpu = self._processes()
        if wait_for_stats:
            time.sleep(STATS_DELAY_S)
        self.conn.execute("SELECT pg_stat_clear_snapshot()")
        return {"cpu": cpu, "commits": self._commits()}

    def figures(self, before: dict[str, Any], after: dict[str, Any], moves: int,
                seconds: float) -> dict[str, Any]:
        commits = after["commits"] - before["commits"]
        out: dict[str, Any] = {"db_commits_per_s": round(commits / seconds, 1),
                               "db_commits_per_move": round(commits / max(1, moves), 3)}
        if self.postmaster is None:
            out.update(db_cpu_ms_per_move=None, db_cpu_percent=None)
            return out
        cpu = sum(ms - before["cpu"].get(pid, 0.0) for pid, ms in after["cpu"].items())
        out.update(db_cpu_ms_per_move=round(cpu / max(1, moves), 3),
                   db_cpu_percent=round(cpu / 10 / seconds, 1),
                   db_processes=len(after["cpu"]))
        return out

    def close(self) -> None:
        self.conn.close()


__all__ = ["DbProbe"]
