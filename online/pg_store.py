"""The PostgreSQL store: the one durable event log that several server nodes share,
on psycopg 3 (async).

The same :class:`online.store.Store` as the SQLite store, with the same rows:
``events`` is one append-only table keyed by (table id, seq), so two writers can
never both append event n: the database refuses the second with a unique
violation, which the store raises as :class:`~online.store.SeqConflict` (nothing
of that append is written; the loser reloads the table from the log).  A
trigger refuses any UPDATE or DELETE of an event.  Each call returns once its
transaction has committed (``synchronous_commit`` on, PostgreSQL's default), so
a table still sends an event only after it is durable.

The schema is created and migrated by the server itself at start-up, in one
transaction under an advisory lock (two nodes starting at once do not race),
with the version in a one-row table ``tarocchi_schema``; a database newer than
this server is refused with a clear error.

**Leases** (one node runs a table at a time): an expiring row per table in
``leases`` (node id, the node's URL, ``expires_at``), renewed by its node every
few seconds, rather than an advisory lock, because

- an advisory lock lives as long as the session that took it: a node whose
  machine vanishes (no FIN, no RST) holds its tables until TCP keepalive gives
  up, minutes later; a row expires when we say, on the database's one clock;
- the row carries the owner's URL, which another node needs to redirect a
  client (online/cluster.py), and is plain data anyone can read;
- it **fences** writes: with ``node`` given, every write of a table (events,
  seats, tokens) first reads the table's lease row ``FOR SHARE`` in the same
  transaction and is refused (:class:`LeaseLost`, nothing written) unless this
  node holds it unexpired.  Taking a lease updates that row, so it waits for a
  write in flight and every write after it is refused: a paused node that wakes
  up after its lease was taken cannot append behind the new owner's back.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import errors as pg_errors

from .store import SeqConflict, TableRecord

SCHEMA_VERSION = 1

#: connections a node keeps (``tarocchi serve --db-connections``): each holds one
#: transaction at a time, and a commit waits for the WAL's flush, so this is how
#: many moves can be committing at once; PostgreSQL flushes the WAL of commits
#: that arrive together once (group commit).  ``tarocchi bench server --db ...
#: --db-connections C`` at 200 tables: 4 gave p95 636 ms, 16 gave 476 ms on a
#: loaded machine; see docs/SERVER.md's figures.
CONNECTIONS = 8

#: version -> the SQL that brings the schema from version - 1 to it
MIGRATIONS: dict[int, str] = {
    1: """
CREATE TABLE tables (
    id BIGSERIAL PRIMARY KEY,
    code TEXT NOT NULL UNIQUE,
    variant TEXT NOT NULL,
    deals INTEGER NOT NULL,
    seed BIGINT NOT NULL,
    seats TEXT NOT NULL,
    settings TEXT NOT NULL,
    host_hash TEXT NOT NULL,
    status TEXT NOT NULL
);
CREATE TABLE events (
    table_id BIGINT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL CHECK (seq >= 1),
    event TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TABLE tokens (
    table_id BIGINT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE commands (
    table_id BIGINT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    cmd_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat, cmd_id)
);
CREATE TABLE leases (
    table_id BIGINT PRIMARY KEY REFERENCES tables(id),
    node TEXT NOT NULL,
    url TEXT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX leases_node ON leases (node);
CREATE INDEX tables_playing ON tables (id) WHERE status = 'playing';
CREATE FUNCTION tarocchi_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the event log is append-only (% refused)', TG_OP;
END $$;
CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION tarocchi_events_append_only();
-- the fence of a write, as one statement (an append is sent in one round trip)
CREATE FUNCTION tarocchi_fence(tid BIGINT, me TEXT) RETURNS void LANGUAGE plpgsql AS $$
DECLARE holder TEXT; live BOOLEAN;
BEGIN
    SELECT node, expires_at > now() INTO holder, live FROM leases WHERE table_id = tid FOR SHARE;
    IF holder IS DISTINCT FROM me OR NOT live THEN
        RAISE EXCEPTION USING ERRCODE = 'TL031', MESSAGE = format(
            'table %s: node %s does not hold its lease (%s)', tid, me,
            coalesce('node ' || holder || CASE WHEN live THEN '' ELSE ', expired' END, 'nobody'));
    END IF;
END $$;
""",
}

#: the SQLSTATE of a write refused by its fence (tarocchi_fence)
FENCE_FAILED = "TL031"

#: the advisory lock key that serialises schema migrations between nodes
MIGRATE_LOCK = 31_0031


class StoreError(Exception):
    """The database cannot be used (a schema newer than this server, ...)."""


class LeaseLost(SeqConflict):
    """A write of a table whose lease this node does not hold (nothing written)."""


@dataclass
class Lease:
    """Who runs a table: ``node`` is None when no node holds an unexpired lease."""

    table_id: int
    code: str
    status: str
    node: str | None
    url: str


class PgStore:
    """:class:`online.store.Store` on PostgreSQL.  Open it with :meth:`open`.

    ``node``: this server node's id; with it, writes are fenced by the table's
    lease (see the module's docstring) and a created table is leased to this
    node at once.  Without it (a single server, the store tests) nothing is
    fenced and the (table, seq) key alone refuses a second event n."""

    def __init__(self, dsn: str, *, node: str | None = None, url: str = "",
                 lease_seconds: float = 5.0, connections: int = CONNECTIONS) -> None:
        self.dsn = dsn
        self.node = node
        self.url = url
        self.lease_seconds = lease_seconds
        self.size = connections
        self._free: asyncio.Queue[psycopg.AsyncConnection[Any] | None] = asyncio.Queue()
        self.commits = 0

    @classmethod
    async def open(cls, dsn: str, **options: Any) -> PgStore:
        store = cls(dsn, **options)
        first = await store._new_conn()
        try:
            await migrate(first)
        except BaseException:
            await first.close()
            raise
        store._free.put_nowait(first)
        for _ in range(store.size - 1):
            store._free.put_nowait(None)  # connected on first use
        return store

    async def _new_conn(self) -> psycopg.AsyncConnection[Any]:
        return await psycopg.AsyncConnection.connect(self.dsn, autocommit=True, connect_timeout=10)

    @contextlib.asynccontextmanager
    async def _conn(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        conn = await self._free.get()
        try:
            if conn is None or conn.closed:
                conn = await self._new_conn()
            yield conn
        finally:
            if conn is not None and (conn.closed or conn.broken):
                with contextlib.suppress(Exception):
                    await conn.close()
                conn = None  # a new one on next use
            self._free.put_nowait(conn)

    async def _fence(self, conn: psycopg.AsyncConnection[Any], table_id: int) -> None:
        """Inside a transaction: refuse unless this node holds the table's lease
        (:data:`FENCE_FAILED`, raised as :class:`LeaseLost` by :meth:`_write`)."""
        if self.node is not None:
            await conn.execute("SELECT tarocchi_fence(%s, %s)", (table_id, self.node))

    @contextlib.asynccontextmanager
    async def _write(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        """A write transaction, its statements pipelined (one round trip, then the
        commit): a refused fence is :class:`LeaseLost`, a taken seq :class:`SeqConflict`."""
        try:
            async with self._conn() as conn, conn.pipeline(), conn.transaction():
                yield conn
        except pg_errors.UniqueViolation as exc:
            raise SeqConflict(str(exc).strip()) from None
        except psycopg.Error as exc:
            if exc.sqlstate == FENCE_FAILED:
                raise LeaseLost(str(exc).strip()) from None
            raise
        self.commits += 1

    # --- the Store interface ----------------------------------------------------------

    async def create_table(self, rec: TableRecord) -> int:
        async with self._conn() as conn, conn.transaction():
            cur = await conn.execute(
                "INSERT INTO tables (code, variant, deals, seed, seats, settings, host_hash,"
                " status) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) RETURNING id",
                (rec.code, rec.variant, rec.deals, rec.seed, json.dumps(rec.seats),
                 json.dumps(rec.settings), rec.host_hash, rec.status))
            row = await cur.fetchone()
            assert row is not None
            rec.id = int(row[0])
            if self.node is not None:
                await conn.execute(
                    "INSERT INTO leases (table_id, node, url, expires_at)"
                    " VALUES (%s, %s, %s, now() + make_interval(secs => %s))",
                    (rec.id, self.node, self.url, self.lease_seconds))
        self.commits += 1
        return rec.id

    async def update_table(self, table_id: int, *, seats: list[dict[str, Any]] | None = None,
                           status: str | None = None) -> None:
        async with self._write() as conn:
            await self._fence(conn, table_id)
            if seats is not None:
                await conn.execute("UPDATE tables SET seats = %s WHERE id = %s",
                                   (json.dumps(seats), table_id))
            if status is not None:
                await conn.execute("UPDATE tables SET status = %s WHERE id = %s",
                                   (status, table_id))

    async def set_token(self, table_id: int, seat: int, token_hash: str) -> None:
        async with self._write() as conn:
            await self._fence(conn, table_id)
            await conn.execute(
                "INSERT INTO tokens (table_id, seat, hash) VALUES (%s, %s, %s)"
                " ON CONFLICT (table_id, seat) DO UPDATE SET hash = EXCLUDED.hash",
                (table_id, seat, token_hash))

    async def append(self, table_id: int, first_seq: int, events: list[str],
                     command: tuple[int, str] | None = None, status: str | None = None) -> None:
        seqs = [first_seq + i for i in range(len(events))]
        async with self._write() as conn:
            await self._fence(conn, table_id)
            if events:
                await conn.execute(
                    "INSERT INTO events (table_id, seq, event)"
                    " SELECT %s, s, e FROM unnest(%s::integer[], %s::text[]) AS u(s, e)",
                    (table_id, seqs, events))
            if command is not None:
                await conn.execute(
                    "INSERT INTO commands (table_id, seat, cmd_id, seq) VALUES (%s, %s, %s, %s)",
                    (table_id, command[0], command[1], first_seq + len(events) - 1))
            if status is not None:
                await conn.execute("UPDATE tables SET status = %s WHERE id = %s",
                                   (status, table_id))

    async def load(self) -> list[TableRecord]:
        """Every table in play or in its lobby (a single server's start-up; a node of
        several loads the tables it leases one by one, :meth:`load_table`)."""
        async with self._conn() as conn:
            cur = await conn.execute(
                "SELECT id FROM tables WHERE status IN ('lobby', 'playing') ORDER BY id")
            ids = [int(r[0]) for r in await cur.fetchall()]
        out = []
        for tid in ids:
            rec = await self.load_table(tid)
            if rec is not None:
                out.append(rec)
        return out

    async def load_code(self, code: str) -> TableRecord | None:
        lease = await self.lookup(code)
        return None if lease is None else await self.load_table(lease.table_id)

    async def finished(self) -> list[tuple[str, int]]:
        async with self._conn() as conn:
            cur = await conn.execute("SELECT code, id FROM tables WHERE status = 'over' ORDER BY id")
            return [(str(c), int(i)) for c, i in await cur.fetchall()]

    async def load_table(self, table_id: int) -> TableRecord | None:
        """One table with its events, tokens and command ids (one snapshot)."""
        async with self._conn() as conn, conn.transaction():
            await conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            cur = await conn.execute(
                "SELECT id, code, variant, deals, seed, seats, settings, host_hash, status"
                " FROM tables WHERE id = %s", (table_id,))
            row = await cur.fetchone()
            if row is None:
                return None
            rec = TableRecord(id=int(row[0]), code=row[1], variant=row[2], deals=row[3],
                              seed=int(row[4]), seats=json.loads(row[5]),
                              settings=json.loads(row[6]), host_hash=row[7], status=row[8])
            cur = await conn.execute(
                "SELECT seq, event FROM events WHERE table_id = %s ORDER BY seq", (table_id,))
            for seq, ev in await cur.fetchall():
                if seq != len(rec.events) + 1:
                    raise RuntimeError(f"table {table_id}: the log jumps to seq {seq}")
                rec.events.append(ev)
            cur = await conn.execute("SELECT seat, hash FROM tokens WHERE table_id = %s",
                                     (table_id,))
            for seat, h in await cur.fetchall():
                rec.tokens[seat] = h
            cur = await conn.execute("SELECT seat, cmd_id, seq FROM commands WHERE table_id = %s",
                                     (table_id,))
            for seat, cid, seq in await cur.fetchall():
                rec.commands[(seat, cid)] = seq
        return rec

    async def ping(self) -> None:
        """``SELECT 1`` on a connection of the pool (a new one if the last broke)."""
        async with self._conn() as conn:
            await conn.execute("SELECT 1")

    async def close(self) -> None:
        while not self._free.empty():
            conn = self._free.get_nowait()
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()

    # --- leases (online/cluster.py) -------------------------------------------------

    async def lookup(self, code: str) -> Lease | None:
        """The table with this code and who runs it now (None: no such table)."""
        async with self._conn() as conn:
            cur = await conn.execute(
                "SELECT t.id, t.code, t.status, l.node, l.url FROM tables t"
                " LEFT JOIN leases l ON l.table_id = t.id AND l.expires_at > now()"
                " WHERE t.code = %s", (code,))
            row = await cur.fetchone()
        if row is None:
            return None
        return Lease(int(row[0]), row[1], row[2], row[3], row[4] or "")

    async def acquire(self, table_id: int) -> Lease:
        """Take the table's lease if nobody holds it unexpired (or we do: renewed);
        returns who holds it after the attempt."""
        assert self.node is not None
        async with self._conn() as conn, conn.transaction():
            await conn.execute(
                "INSERT INTO leases (table_id, node, url, expires_at)"
                " VALUES (%s, %s, %s, now() + make_interval(secs => %s))"
                " ON CONFLICT (table_id) DO UPDATE SET node = EXCLUDED.node, url = EXCLUDED.url,"
                " expires_at = EXCLUDED.expires_at"
                " WHERE leases.expires_at <= now() OR leases.node = EXCLUDED.node",
                (table_id, self.node, self.url, self.lease_seconds))
            cur = await conn.execute(
                "SELECT t.id, t.code, t.status, l.node, l.url FROM tables t"
                " JOIN leases l ON l.table_id = t.id WHERE t.id = %s", (table_id,))
            row = await cur.fetchone()
        assert row is not None
        return Lease(int(row[0]), row[1], row[2], row[3], row[4])

    async def renew(self, table_ids: list[int]) -> set[int]:
        """Extend this node's leases; returns the ids still held.  A lease that
        expired but that no other node took is still ours (every write was fenced
        meanwhile, and a taker would have changed ``node``)."""
        if not table_ids:
            return set()
        async with self._conn() as conn:
            cur = await conn.execute(
                "UPDATE leases SET expires_at = now() + make_interval(secs => %s)"
                " WHERE node = %s AND table_id = ANY(%s) RETURNING table_id",
                (self.lease_seconds, self.node, table_ids))
            return {int(r[0]) for r in await cur.fetchall()}

    async def release(self, table_ids: list[int]) -> None:
        """Give up leases (a node that stops cleanly: others take over at once)."""
        if not table_ids:
            return
        async with self._conn() as conn:
            await conn.execute("DELETE FROM leases WHERE node = %s AND table_id = ANY(%s)",
                               (self.node, table_ids))

    async def orphans(self, limit: int = 64) -> list[int]:
        """Tables in play whose lease expired (their node died) or that have none."""
        async with self._conn() as conn:
            cur = await conn.execute(
                "SELECT t.id FROM tables t LEFT JOIN leases l ON l.table_id = t.id"
                " WHERE t.status = 'playing' AND (l.table_id IS NULL OR l.expires_at <= now())"
                " ORDER BY t.id LIMIT %s", (limit,))
            return [int(r[0]) for r in await cur.fetchall()]


async def migrate(conn: psycopg.AsyncConnection[Any]) -> int:
    """Create or bring the schema up to :data:`SCHEMA_VERSION`; returns the version."""
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATE_LOCK,))
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS tarocchi_schema ("
            " one BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one), version INTEGER NOT NULL)")
        cur = await conn.execute("SELECT version FROM tarocchi_schema")
        row = await cur.fetchone()
        have = int(row[0]) if row else 0
        if have > SCHEMA_VERSION:
            raise StoreError(f"the database's schema is version {have}, newer than this "
                             f"server's ({SCHEMA_VERSION}): upgrade the server")
        for v in range(have + 1, SCHEMA_VERSION + 1):
            await conn.execute(MIGRATIONS[v].encode())
        await conn.execute(
            "INSERT INTO tarocchi_schema (one, version) VALUES (TRUE, %s)"
            " ON CONFLICT (one) DO UPDATE SET version = EXCLUDED.version", (SCHEMA_VERSION,))
    return SCHEMA_VERSION

