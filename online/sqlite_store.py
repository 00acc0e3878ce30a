"""The SQLite store: one file in the server's data folder, WAL mode, committed on
a writer thread with group commit.

The event loop never waits for the disk: a call puts its change on the writer's
queue and awaits a future.  The writer takes everything queued (up to
``GROUP_MAX`` changes), runs each in a savepoint (one refused change, say a
duplicate seq, does not spoil the others), commits them in one transaction
(``synchronous=FULL`` by default: one fsync for the whole group), and only then
resolves the futures, so a table sends an event only after its commit returned.
"""

from __future__ import annotations

import asyncio
import json
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .ring import Ring
from .store import CodeTaken, SeqConflict, TableRecord

GROUP_MAX = 512

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY,
    code TEXT NOT NULL UNIQUE,
    variant TEXT NOT NULL,
    deals INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,
    settings TEXT NOT NULL,
    host_hash TEXT NOT NULL,
    status TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tokens (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS commands (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    cmd_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat, cmd_id)
) WITHOUT ROWID;
"""

_INSERT_EVENT = "INSERT INTO events (table_id, seq, event) VALUES (?, ?, ?)"
_INSERT_COMMAND = "INSERT INTO commands (table_id, seat, cmd_id, seq) VALUES (?, ?, ?, ?)"
_SET_STATUS = "UPDATE tables SET status = ? WHERE id = ?"


class _Append:
    """One table's events (and the command id, the new status) to append."""

    __slots__ = ("rows", "command", "status", "t")

    def __init__(self, rows: list[tuple[int, int, str]], command: tuple[int, int, str, int] | None,
                 status: tuple[str, int] | None) -> None:
        self.rows = rows
        self.command = command
        self.status = status
        self.t = time.perf_counter()  # when it was queued (the bench's figures)

    def apply(self, db: sqlite3.Connection) -> None:
        try:
            db.executemany(_INSERT_EVENT, self.rows)
            if self.command:
                db.execute(_INSERT_COMMAND, self.command)
        except sqlite3.IntegrityError as exc:
            seq = self.rows[0][1] if self.rows else 0
            raise SeqConflict(f"seq {seq} is taken ({exc})") from None
        if self.status:
            db.execute(_SET_STATUS, self.status)


_Op = tuple[Callable[[sqlite3.Connection], Any] | _Append, asyncio.Future[Any] | None,
            asyncio.AbstractEventLoop | None]


#: the WAL's size past which the checkpointer empties it (the commits wait a moment)
WAL_LIMIT_BYTES = 64 * 1024 * 1024


class SqliteStore:
    """:class:`online.store.Store` on SQLite (``path``: the database file)."""

    def __init__(self, path: str | os.PathLike[str], *, synchronous: str = "FULL",
                 wal_limit: int = WAL_LIMIT_BYTES) -> None:
        self.path = Path(path)
        self.wal_limit = wal_limit
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={synchronous}")
        # Checkpoints (copying the WAL into the database, with an fsync of it) run
        # on a thread of their own, so that no commit waits for one.
        self._db.execute("PRAGMA wal_autocheckpoint=0")
        self._stop_checkpoints = threading.Event()
        self._checkpointer = threading.Thread(target=self._checkpoints, name="store-checkpoint",
                                              daemon=True)
        self._db.executescript(SCHEMA)
        self._q: queue.SimpleQueue[list[_Op] | None] = queue.SimpleQueue()
        self._batch: list[_Op] = []  # changes of this loop iteration, handed over at its end
        self._thread = threading.Thread(target=self._writer, name="store-writer", daemon=True)
        self._thread.start()
        self._checkpointer.start()
        self.commits = 0  # transactions committed (for the bench)
        #: per group: (seconds the first append waited in the queue, seconds of the
        #: transaction, changes in it); per wake-up of a loop: seconds to be run
        self.timings = Ring(100_000, 3)
        self.wakeups = Ring(100_000)

    # --- the writer thread --------------------------------------------------------

    def _writer(self) -> None:
        while True:
            first = self._q.get()
            if first is None:
                return
            ops = list(first)
            stop = False
            while len(ops) < GROUP_MAX:
                try:
                    more = self._q.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                ops += more
            t_pick = time.perf_counter()
            try:
                results = self._group_fast(ops)
            except sqlite3.IntegrityError:
                results = self._group_each(ops)
            except Exception as exc:  # the commit failed: every change of the group
                results = [(False, exc)] * len(ops)
            by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], bool, Any]]] = {}
            for (ok, value), (_, fut, loop) in zip(results, ops, strict=True):
                if fut is not None and loop is not None:
                    by_loop.setdefault(loop, []).append((fut, ok, value))
            t_done = time.perf_counter()
            waited = max((t_pick - p.t for p, _, _ in ops if isinstance(p, _Append)), default=0.0)
            self.timings.append(waited, t_done - t_pick, len(ops))
            for loop, settled in by_loop.items():  # one wake-up of the loop a group
                try:
                    loop.call_soon_threadsafe(_settle_all, settled, t_done, self.wakeups)
                except RuntimeError:  # the loop is closed
                    pass
            if stop:
                return

    def _group_fast(self, ops: list[_Op]) -> list[tuple[bool, Any]]:
        """The whole group in one transaction, the appends of every table in one
        ``executemany``: few calls, so the writer seldom waits for the GIL (each
        return from SQLite needs it, and a busy event loop yields it only every
        switch interval).  A refused append (IntegrityError) rolls it all back and
        :meth:`_group_each` runs the group change by change."""
        db = self._db
        rows: list[tuple[int, int, str]] = []
        cmds: list[tuple[int, int, str, int]] = []
        stats: list[tuple[str, int]] = []
        for payload, _, _ in ops:
            if isinstance(payload, _Append):
                rows += payload.rows
                if payload.command:
                    cmds.append(payload.command)
                if payload.status:
                    stats.append(payload.status)
        results: list[tuple[bool, Any]] = []
        db.execute("BEGIN IMMEDIATE")
        try:
            if rows:
                db.executemany(_INSERT_EVENT, rows)
            if cmds:
                db.executemany(_INSERT_COMMAND, cmds)
            if stats:
                db.executemany(_SET_STATUS, stats)
            for payload, _, _ in ops:
                if isinstance(payload, _Append):
                    results.append((True, None))
                else:
                    results.append(self._one(payload))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        self.commits += 1
        return results

    def _group_each(self, ops: list[_Op]) -> list[tuple[bool, Any]]:
        db = self._db
        results: list[tuple[bool, Any]] = []
        try:
            db.execute("BEGIN IMMEDIATE")
            for payload, _, _ in ops:
                fn = payload.apply if isinstance(payload, _Append) else payload
                results.append(self._one(fn))
            db.execute("COMMIT")
            self.commits += 1
        except Exception as exc:
            try:
                db.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            results = [(False, exc)] * len(ops)
        return results

    def _one(self, fn: Callable[[sqlite3.Connection], Any]) -> tuple[bool, Any]:
        db = self._db
        db.execute("SAVEPOINT op")
        try:
            out = (True, fn(db))
            db.execute("RELEASE op")
            return out
        except Exception as exc:  # refused: this change only
            db.execute("ROLLBACK TO op")
            db.execute("RELEASE op")
            return (False, exc)

    async def _run(self, fn: Callable[[sqlite3.Connection], Any] | _Append) -> Any:
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[Any] = loop.create_future()
        # One hand-over to the writer a loop iteration, not one a change: each wakes
        # a thread, and on a busy machine a wake-up can cost the loop its CPU.
        if not self._batch:
            loop.call_soon(self._hand_over)
        self._batch.append((fn, fut, loop))
        return await fut

    def _hand_over(self) -> None:
        batch, self._batch = self._batch, []
        if batch:
            self._q.put(batch)

    # --- the Store interface ----------------------------------------------------------

    async def create_table(self, rec: TableRecord) -> int:
        def op(db: sqlite3.Connection) -> int:
            try:
                cur = db.execute(
                    "INSERT INTO tables (code, variant, deals, seed, seats, settings, host_hash,"
                    " status) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (rec.code, rec.variant, rec.deals, str(rec.seed), json.dumps(rec.seats),
                     json.dumps(rec.settings), rec.host_hash, rec.status),
                )
            except sqlite3.IntegrityError:
                raise CodeTaken(rec.code) from None
            return int(cur.lastrowid or 0)

        rec.id = int(await self._run(op))
        return rec.id

    async def update_table(self, table_id: int, *, seats: list[dict[str, Any]] | None = None,
                           status: str | None = None) -> None:
        seats_json = json.dumps(seats) if seats is not None else None

        def op(db: sqlite3.Connection) -> None:
            if seats_json is not None:
                db.execute("UPDATE tables SET seats = ? WHERE id = ?", (seats_json, table_id))
            if status is not None:
                db.execute("UPDATE tables SET status = ? WHERE id = ?", (status, table_id))

        await self._run(op)

    async def set_token(self, table_id: int, seat: int, token_hash: str) -> None:
        def op(db: sqlite3.Connection) -> None:
            db.execute("INSERT OR REPLACE INTO tokens (table_id, seat, hash) VALUES (?, ?, ?)",
                       (table_id, seat, token_hash))

        await self._run(op)

    async def append(self, table_id: int, first_seq: int, events: list[str],
                     command: tuple[int, str] | None = None, status: str | None = None) -> None:
        rows = [(table_id, first_seq + i, e) for i, e in enumerate(events)]
        cmd = ((table_id, command[0], command[1], first_seq + len(events) - 1)
               if command is not None else None)
        await self._run(_Append(rows, cmd, (status, table_id) if status is not None else None))

    async def load(self) -> list[TableRecord]:
        result: list[TableRecord] = await self._run(
            lambda db: _records(db, "status IN ('lobby', 'playing')", ()))
        return result

    async def load_code(self, code: str) -> TableRecord | None:
        found: list[TableRecord] = await self._run(lambda db: _records(db, "code = ?", (code,)))
        return found[0] if found else None

    async def finished(self) -> list[tuple[str, int]]:
        def op(db: sqlite3.Connection) -> list[tuple[str, int]]:
            return [(c, int(i)) for c, i in
                    db.execute("SELECT code, id FROM tables WHERE status = 'over' ORDER BY id")]

        result: list[tuple[str, int]] = await self._run(op)
        return result

    async def ping(self) -> None:
        """``SELECT 1`` on the writer thread: it answers once the commits queued
        before it are done (a writer stuck on the disk does not)."""

        def op(db: sqlite3.Connection) -> None:
            db.execute("SELECT 1").fetchone()

        await self._run(op)

    def _checkpoints(self, every: float = 1.0) -> None:
        """A passive checkpoint a second; past ``wal_limit`` bytes of WAL, one that
        empties it.  A passive one never waits for the writer, so under a steady
        stream of commits it is always a little behind, and SQLite starts the WAL
        afresh only once it has caught up: without the second kind the WAL (and its
        index, mapped in memory) grew by about 400 kB a game, without end."""
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        wal = self.path.with_name(self.path.name + "-wal")
        try:
            while not self._stop_checkpoints.wait(every):
                try:
                    size = wal.stat().st_size if wal.exists() else 0
                    # TRUNCATE waits (the busy timeout) for the commit under way, holds
                    # the next ones back while it copies what is left, then empties the WAL
                    mode = "TRUNCATE" if size > self.wal_limit else "PASSIVE"
                    db.execute(f"PRAGMA wal_checkpoint({mode})").fetchall()
                except (sqlite3.Error, OSError):
                    pass  # busy: the next one
        finally:
            db.close()

    async def close(self) -> None:
        self._stop_checkpoints.set()
        self._q.put(None)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, self._thread.join, 10)
        await loop.run_in_executor(None, self._checkpointer.join, 10)
        try:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error:
            pass
        self._db.close()

    # --- reading outside the server (tests, tools) ---------------------------------

    def events_of(self, code: str) -> list[str]:
        """The stored events of a table (a fresh connection: safe from any thread)."""
        return read_events(self.path, code)


def _records(db: sqlite3.Connection, where: str, args: tuple[Any, ...]) -> list[TableRecord]:
    """The tables ``WHERE where`` with their events, tokens and command ids."""
    recs: dict[int, TableRecord] = {}
    for row in db.execute(
        "SELECT id, code, variant, deals, seed, seats, settings, host_hash, status"
        f" FROM tables WHERE {where} ORDER BY id", args
    ):
        recs[row[0]] = TableRecord(
            id=row[0], code=row[1], variant=row[2], deals=row[3], seed=int(row[4]),
            seats=json.loads(row[5]), settings=json.loads(row[6]), host_hash=row[7],
            status=row[8],
        )
    ids = f"(SELECT id FROM tables WHERE {where})"
    for tid, seq, ev in db.execute(
            f"SELECT table_id, seq, event FROM events WHERE table_id IN {ids}"
            " ORDER BY table_id, seq", args):
        r = recs[tid]
        if seq != len(r.events) + 1:
            raise RuntimeError(f"table {tid}: the log jumps to seq {seq}")
        r.events.append(ev)
    for tid, seat, h in db.execute(
            f"SELECT table_id, seat, hash FROM tokens WHERE table_id IN {ids}", args):
        recs[tid].tokens[seat] = h
    for tid, seat, cid, seq in db.execute(
            f"SELECT table_id, seat, cmd_id, seq FROM commands WHERE table_id IN {ids}", args):
        recs[tid].commands[(seat, cid)] = seq
    return list(recs.values())


def read_events(path: str | os.PathLike[str], code: str) -> list[str]:
    db = sqlite3.connect(path)
    try:
        return [e for (e,) in db.execute(
            "SELECT e.event FROM events e JOIN tables t ON t.id = e.table_id"
            " WHERE t.code = ? ORDER BY e.seq", (code,))]
    finally:
        db.close()


def _settle_all(settled: list[tuple[asyncio.Future[Any], bool, Any]], t_done: float,
                wakeups: Ring) -> None:
    wakeups.append(time.perf_counter() - t_done)
    for fut, ok, value in settled:
        if fut.done():
            continue
        if ok:
            fut.set_result(value)
        else:
            fut.set_exception(value)
