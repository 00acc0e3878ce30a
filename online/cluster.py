"""Several server nodes, one service: ``tarocchi serve --db postgresql://...``
(docs/SERVER.md).

Every node is an ordinary server (online/server.py, online/tables.py) whose store
is the shared PostgreSQL log (online/pg_store.py).  A table is run by one node at
a time, under a **lease**: an expiring row in PostgreSQL (why a row and not an
advisory lock: see online/pg_store.py), taken when the node creates the table or
first needs it, renewed every ``lease_seconds / 3`` while the node holds the
table in memory, and checked by every write of the table in the write's own
transaction (fencing).  A node that finds its lease gone (it was paused, or cut
from the database, long enough for another node to take it) drops the table and
closes its connections: the clients reconnect and find the new owner.

**A client at a node that does not run its table is redirected**, not
forwarded: the node answers ``join``, ``resume`` and the host's commands with
``error redirect {url}``, the URL of the node that holds the lease, and the
client reconnects there (online/client.py does it by itself).  Why not forward
through LISTEN/NOTIFY: a forwarded command would cross two nodes and the
database for every move, with its own ordering, loss and back-pressure
problems (NOTIFY is not durable, its payloads are capped at 8 kB, and a node
that dies between receiving and forwarding loses the message), while a
redirect costs one reconnect per client per failover and keeps the one path
that is already tested: a client talks to the table's own actor, which commits
before it sends.  Hidden information is unaffected: a node that redirects
sends nothing of the table but the owner's URL.

**Failover**: a node that dies stops renewing; after its leases expire (at most
``lease_seconds``) every other node's scan finds the tables in play without a
live lease, one of them takes each lease (the database's row lock decides),
rebuilds the table from its log (``Table(hub, record)``, as a restarted single
server does) and goes on: the AI seats are decided again from the same view and
seed, so the game is the one it would have been.  Clients reconnect to any node
of their list, are redirected to the new owner, resume with their token and
last seq, and send again the commands not acknowledged, with their ids (applied
once: the command ids are in the log).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import socket
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

import psycopg

from .pg_store import Lease, PgStore, StoreError
from .protocol import ProtocolError
from .tables import AiRunner, Hub, Table

log = logging.getLogger("tarocchi.online")
K = TypeVar("K")

#: the default lease: a dead node's tables are taken over within about this long
LEASE_SECONDS = 5.0


def redirect(lease: Lease) -> ProtocolError:
    return ProtocolError("redirect", f"table {lease.code} is run by another node: reconnect to "
                         f"{lease.url}", url=lease.url)


class KeyedLocks(Generic[K]):
    """One lock a key while someone holds or waits for it; none kept after (a lock
    a code ever looked up would grow for months)."""

    def __init__(self) -> None:
        self._locks: dict[K, tuple[asyncio.Lock, int]] = {}

    @contextlib.asynccontextmanager
    async def hold(self, key: K) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (None, 0))
        lock = lock or asyncio.Lock()
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users <= 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    def __len__(self) -> int:
        return len(self._locks)


class Cluster:
    """This node's part: which tables it runs (``hub.tables``), their leases, and
    the scan that takes over the tables of dead nodes."""

    def __init__(self, hub: Hub, store: PgStore) -> None:
        self.hub = hub
        self.store = store
        self.lease_seconds = store.lease_seconds
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loading: KeyedLocks[str] = KeyedLocks()
        self._taking: KeyedLocks[int] = KeyedLocks()
        self.takeovers = 0  # tables this node took over from a dead node (the scan)
        self.evictions = 0

    @property
    def node(self) -> str:
        assert self.store.node is not None
        return self.store.node

    def start(self) -> None:
        for coro in (self._renew_loop(), self._scan_loop()):
            task = asyncio.get_running_loop().create_task(coro)
            self._tasks.add(task)

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):  # clean stop: the others take over at once
            await self.store.release([t.rec.id for t in self.hub.tables.values()])

    # --- finding a table ------------------------------------------------------------

    async def table(self, code: str) -> Table:
        """The table if this node runs it (taking its lease if nobody holds it);
        else ``ProtocolError("redirect")`` with the owner's URL."""
        code = code.upper()
        if code in self.hub.done:  # a finished game someone still watches here
            return self.hub.done[code]
        t = self.hub.tables.get(code)
        if t is not None:
            # a join or resume (not every move): check that the lease is still ours, so
            # a node that lost the table unknowingly does not show a stale position
            lease = await self.store.lookup(code)
            if lease is not None and lease.node is not None and lease.node != self.node:
                self.evict(t, "its lease was taken by another node")
                raise redirect(lease)
            return t
        async with self._loading.hold(code):
            t = self.hub.tables.get(code)
            if t is not None:
                return t
            lease = await self.store.lookup(code)
            if lease is None or lease.status in ("over", "expired"):
                # a finished game is read from the log, by any node, and leased by none
                return await self.hub.find(code)
            if lease.node is not None and lease.node != self.node:
                raise redirect(lease)
            return await self._take(lease.table_id)

    async def _take(self, table_id: int) -> Table:
        # one at a time a table: the scan and a client's join may both want it, and
        # two Table objects of one table would be two writers in this node
        async with self._taking.hold(table_id):
            return await self._take_locked(table_id)

    async def _take_locked(self, table_id: int) -> Table:
        lease = await self.store.acquire(table_id)
        if lease.node != self.node:
            raise redirect(lease)
        existing = self.hub.tables.get(lease.code)
        if existing is not None:
            return existing
        rec = await self.store.load_table(table_id)
        if rec is None:
            raise ProtocolError("unknown_table", f"no table has the code {lease.code}")
        if rec.status in ("over", "expired"):  # it ended meanwhile: read, not run
            return await self.hub.find(rec.code)
        t = Table(self.hub, rec)
        self.hub.tables[rec.code] = t
        t.resume_after_restart()
        log.info("node %s runs table %s from seq %d", self.node, rec.code, len(rec.events))
        return t

    def evict(self, t: Table, why: str) -> None:
        """Drop a table this node no longer holds the lease of, and close its
        connections (1012): the clients reconnect and are redirected."""
        if self.hub.tables.get(t.code) is not t:
            return
        del self.hub.tables[t.code]
        self.evictions += 1
        log.warning("node %s drops table %s: %s", self.node, t.code, why)
        t.close()
        for c in list(t.conns):
            ws = getattr(c, "ws", None)
            if ws is not None:
                task = asyncio.get_running_loop().create_task(
                    ws.close(1012, "the table moved to another node"))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
        t.conns.clear()

    # --- leases ----------------------------------------------------------------------

    async def _renew_loop(self) -> None:
        while True:
            await asyncio.sleep(self.lease_seconds / 3)
            tables = list(self.hub.tables.values())
            try:
                held = await self.store.renew([t.rec.id for t in tables])
            except Exception as exc:  # the database is away: the writes are refused too
                log.warning("node %s: cannot renew leases: %s", self.node, exc)
                continue
            for t in tables:
                if t.rec.id not in held:
                    self.evict(t, "its lease was taken by another node")

    async def _scan_loop(self) -> None:
        while True:
            await asyncio.sleep(self.lease_seconds / 4 * random.uniform(0.5, 1.5))
            try:
                orphans = await self.store.orphans()
            except Exception as exc:
                log.warning("node %s: cannot scan for orphan tables: %s", self.node, exc)
                continue
            for tid in orphans:
                try:
                    await self._take(tid)
                    self.takeovers += 1
                except ProtocolError:
                    pass  # another node was quicker
                except Exception as exc:
                    log.warning("node %s: cannot take over table %d: %s", self.node, tid, exc)


class Node(Protocol):
    """What :func:`start_node` reads and sets on the server it makes a node (an
    ``online.server.TarocchiServer``), named here so the cluster imports no server."""

    db: str | None
    node_url: str | None
    lease_seconds: float
    db_connections: int
    data_dir: Path
    ai_workers: int
    ai_ms: int
    hub: Hub | None
    cluster: Cluster | None

    @property
    def scheme(self) -> str: ...


async def start_node(srv: Node, host: str, port: int) -> socket.socket:
    """Open the PostgreSQL store and this node's :class:`Cluster` for ``srv``;
    returns the listening socket (bound first, so the node's URL, stored in its
    leases, is known before anyone connects)."""
    sock = socket.create_server((host, port))
    actual = int(sock.getsockname()[1])
    url = srv.node_url or f"{srv.scheme}://{host}:{actual}"
    node = f"{socket.gethostname()}:{actual}:{uuid.uuid4().hex[:8]}"
    try:
        assert srv.db is not None
        store = await PgStore.open(srv.db, node=node, url=url, lease_seconds=srv.lease_seconds,
                                    connections=srv.db_connections)
    except (psycopg.Error, StoreError) as exc:  # one line for `tarocchi serve`, no traceback
        sock.close()
        raise OSError(f"the database: {str(exc).strip()}") from None
    except BaseException:
        sock.close()
        raise
    srv.hub = Hub(store, srv.data_dir, AiRunner(srv.ai_workers, budget_ms=srv.ai_ms))
    srv.cluster = Cluster(srv.hub, store)
    srv.cluster.start()
    return sock
