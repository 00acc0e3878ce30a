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

**Group commit**: the appends of many tables are written together.  An append
is queued; a writer (at most ``connections - 1`` at once) takes everything
queued and writes it in one statement, so one transaction and one round trip
(:data:`GROUP_FENCED`: the leases of the group's tables read ``FOR SHARE`` and
only the tables this node holds written; the others are refused with
:class:`LeaseLost`, each table's writes all or nothing).  At a light load each
append goes alone, at once; under load the queue grows while the writers are
busy and the next group carries it.  Measured (docs/SERVER.md): a node's CPU a
move about halved, PostgreSQL's too.  The leases' renewals and scans have a
connection of their own, so a node busy committing never loses its tables for
want of a connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import errors as pg_errors

from .ring import Ring
from .store import CodeTaken, SeqConflict, TableRecord

SCHEMA_VERSION = 1

#: connections a node keeps (``tarocchi serve --db-connections``): all but one
#: carry group commits (each a transaction of every append queued when it began),
#: the last the other writes and reads; the leases have one more of their own.
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


#: the appends one statement carries at most
GROUP_MAX = 256

#: the appends of a group in one statement (one transaction, one round trip): the
#: leases of its tables read FOR SHARE (each table's fence, as ``tarocchi_fence``),
#: and only the tables this node holds unexpired written; returns those
_GROUP_WRITES = """
ev AS (
    INSERT INTO events (table_id, seq, event)
    SELECT t, q, e FROM unnest(%(ev_t)s::bigint[], %(ev_q)s::integer[], %(ev_e)s::text[])
        AS u(t, q, e)
    WHERE t IN (SELECT table_id FROM held)),
cm AS (
    INSERT INTO commands (table_id, seat, cmd_id, seq)
    SELECT t, a, c, q FROM unnest(%(c_t)s::bigint[], %(c_a)s::integer[], %(c_c)s::text[],
                                  %(c_q)s::integer[]) AS u(t, a, c, q)
    WHERE t IN (SELECT table_id FROM held)),
st AS (
    UPDATE tables SET status = u.v FROM unnest(%(s_t)s::bigint[], %(s_v)s::text[]) AS u(t, v)
    WHERE tables.id = u.t AND u.t IN (SELECT table_id FROM held))
SELECT coalesce(array_agg(table_id), '{}') FROM held
"""
GROUP_FENCED = """
WITH held AS (
    SELECT table_id FROM leases
    WHERE table_id = ANY(%(tids)s::bigint[]) AND node = %(me)s AND expires_at > now()
    FOR SHARE),""" + _GROUP_WRITES
#: a store without a node (one server on PostgreSQL): nothing fenced
GROUP_UNFENCED = """
WITH held AS (SELECT DISTINCT unnest(%(tids)s::bigint[]) AS table_id),""" + _GROUP_WRITES


class _Append:
    """One table's append waiting for its group (:meth:`PgStore.append`)."""

    __slots__ = ("table_id", "first_seq", "events", "command", "status", "future", "t")

    def __init__(self, table_id: int, first_seq: int, events: list[str],
                 command: tuple[int, str] | None, status: str | None) -> None:
        self.table_id, self.first_seq, self.events = table_id, first_seq, events
        self.command, self.status = command, status
        self.future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.t = time.perf_counter()

    def settle(self, exc: BaseException | None = None) -> None:
        if self.future.done():
            return
        if exc is None:
            self.future.set_result(None)
        else:
            self.future.set_exception(exc)


def group_params(group: list[_Append], node: str | None) -> dict[str, Any]:
    """The arrays of :data:`GROUP_FENCED` for these appends."""
    p: dict[str, Any] = {k: [] for k in ("ev_t", "ev_q", "ev_e", "c_t", "c_a", "c_c", "c_q",
                                         "s_t", "s_v")}
    p["tids"] = [op.table_id for op in group]
    p["me"] = node
    for op in group:
        for i, e in enumerate(op.events):
            p["ev_t"].append(op.table_id)
            p["ev_q"].append(op.first_seq + i)
            p["ev_e"].append(e)
        if op.command is not None:
            p["c_t"].append(op.table_id)
            p["c_a"].append(op.command[0])
            p["c_c"].append(op.command[1])
            p["c_q"].append(op.first_seq + len(op.events) - 1)
        if op.status is not None:
            p["s_t"].append(op.table_id)
            p["s_v"].append(op.status)
    return p


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
        # group commit: appends queued, taken whole by a writer on a pooled connection
        self._queue: list[_Append] = []
        self._kick_due = False
        self._writers = 0
        #: group transactions in flight at most (the pool keeps one connection for the rest)
        self.max_writers = max(1, connections - 1)
        # the leases' upkeep (renew, scan, take) on a connection of its own, never
        # queued behind the commits: a busy node must not lose its tables to a wait
        self._upkeep_conn: psycopg.AsyncConnection[Any] | None = None
        self._upkeep_lock = asyncio.Lock()
        #: per group: (seconds its first append waited, seconds of its transaction, appends)
        self.timings = Ring(100_000, 3)

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

    @contextlib.asynccontextmanager
    async def _upkeep(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        """The leases' own connection (one user at a time)."""
        async with self._upkeep_lock:
            conn = self._upkeep_conn
            if conn is None or conn.closed or conn.broken:
                conn = self._upkeep_conn = await self._new_conn()
            try:
                yield conn
            finally:
                if conn.closed or conn.broken:
                    self._upkeep_conn = None
                    with contextlib.suppress(Exception):
                        await conn.close()

    # --- group commit -----------------------------------------------------------------

    def _kick(self) -> None:
        """Start a writer for the queued appends if fewer than ``max_writers`` run;
        else the next writer free takes them all, as one group."""
        self._kick_due = False
        if self._queue and self._writers < self.max_writers:
            self._writers += 1
            asyncio.get_running_loop().create_task(self._writer())

    async def _writer(self) -> None:
        group: list[_Append] = []
        try:
            async with self._conn() as conn:
                while self._queue:
                    group = self._queue[:GROUP_MAX]
                    del self._queue[:GROUP_MAX]
                    await self._commit_group(conn, group)
                    if conn.broken:
                        break
        except BaseException as exc:  # no connection (the database is away), or cancelled
            failed = exc if isinstance(exc, Exception) else ConnectionError("the store closed")
            for op in [*group, *self._queue]:
                op.settle(failed)
            self._queue.clear()
            if not isinstance(exc, Exception):
                raise
        finally:
            self._writers -= 1
            if self._queue and not self._kick_due:
                self._kick_due = True
                asyncio.get_running_loop().call_soon(self._kick)

    async def _commit_group(self, conn: psycopg.AsyncConnection[Any], group: list[_Append]
                            ) -> None:
        """One statement, one transaction: every append of the group whose table this
        node holds; the others :class:`LeaseLost`.  A taken seq (unique violation)
        refuses the whole statement: then each append goes alone, and only the one
        whose seq is taken is refused (:class:`SeqConflict`).  A broken connection
        fails the group (nothing is known of it: the tables reload from the log)."""
        t0 = time.perf_counter()
        sql = GROUP_FENCED if self.node is not None else GROUP_UNFENCED
        try:
            cur = await conn.execute(sql, group_params(group, self.node))
            row = await cur.fetchone()
        except psycopg.Error as exc:
            if len(group) > 1 and not conn.broken:  # one append's fault (a taken seq): alone
                for op in group:
                    await self._commit_group(conn, [op])
                return
            failed: Exception = exc
            if isinstance(exc, pg_errors.UniqueViolation):
                failed = SeqConflict(str(exc).strip())
            for op in group:  # the connection or the database failed: nothing known
                op.settle(failed)
            return
        self.commits += 1
        t1 = time.perf_counter()
        self.timings.append(t0 - min(op.t for op in group), t1 - t0, len(group))
        held = set(row[0]) if row else set()
        for op in group:
            if op.table_id in held:
                op.settle()
            else:
                op.settle(LeaseLost(f"table {op.table_id}: node {self.node} does not hold "
                                    "its lease"))

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
        try:
            return await self._create_table(rec)
        except pg_errors.UniqueViolation:
            raise CodeTaken(rec.code) from None

    async def _create_table(self, rec: TableRecord) -> int:
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
        """Queued for the next group commit (:meth:`_commit_group`); returns once the
        group's transaction has committed."""
        op = _Append(table_id, first_seq, events, command, status)
        self._queue.append(op)
        if not self._kick_due:  # the appends of this loop iteration go together
            self._kick_due = True
            asyncio.get_running_loop().call_soon(self._kick)
        await op.future

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
        for op in self._queue:
            op.settle(ConnectionError("the store closed"))
        self._queue.clear()
        if self._upkeep_conn is not None:
            with contextlib.suppress(Exception):
                await self._upkeep_conn.close()
            self._upkeep_conn = None
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
        async with self._upkeep() as conn, conn.transaction():
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
        async with self._upkeep() as conn:
            cur = await conn.execute(
                "UPDATE leases SET expires_at = now() + make_interval(secs => %s)"
                " WHERE node = %s AND table_id = ANY(%s) RETURNING table_id",
                (self.lease_seconds, self.node, table_ids))
            return {int(r[0]) for r in await cur.fetchall()}

    async def release(self, table_ids: list[int]) -> None:
        """Give up leases (a node that stops cleanly: others take over at once)."""
        if not table_ids:
            return
        async with self._upkeep() as conn:
            await conn.execute("DELETE FROM leases WHERE node = %s AND table_id = ANY(%s)",
                               (self.node, table_ids))

    async def orphans(self, limit: int = 64) -> list[int]:
        """Tables in play whose lease expired (their node died) or that have none."""
        async with self._upkeep() as conn:
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

