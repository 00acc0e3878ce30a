"""``tarocchi serve``: the websocket server that holds the tables (PROTOCOL.md).

One asyncio process on ``websockets``.  A connection says hello (protocol
version checked), then creates a table, joins one by code (a seat, or as a
spectator), or resumes its seat with its token.  It acts only for its own seat.
Every bad input (bad JSON, an unknown type, a frame over :data:`MAX_FRAME`,
an unknown code, a forged or stale token, a command for another seat, an
illegal move) gets an ``error`` to that client alone and changes no log; a
flood (token bucket per connection) gets an error and the connection is closed
with 1008.  Every request, websocket or plain HTTP, counts against its client's
address (online/limits.py): connections, lobbies, hello in time, messages a
second, wrong codes; a sweep expires abandoned lobbies and forgets idle addresses.

Per-message compression is off: our messages are a few hundred bytes, where
deflate saves little on the wire and costs CPU on every send (four different
texts a move), and keeping a compression context per connection costs memory
(2,000 connections).

:func:`start_background` runs a server in a daemon thread with its own loop (the
table's "host a game on this machine", and the tests).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import math
import os
import signal
import ssl
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response
from websockets.protocol import State

from engine.files import user_data_folder
from engine.view import SPECTATOR

from .http import Routes, is_upgrade, response
from .limits import LOBBY_EXPIRY, Bucket, Limits, LimitSettings
from .metrics import Metrics, instrument
from .protocol import (
    HARD_MAX_FRAME,
    PROTOCOL_VERSION,
    ProtocolError,
    decode_client,
    encode,
)
from .ring import Ring
from .serve_options import AI_MS, DB_CONNECTIONS, limit_settings
from .sqlite_store import SqliteStore
from .store import SeqConflict, is_postgres_url
from .tables import AiRunner, Hub, Table, holds_token
from .tls import HANDSHAKE_SECONDS, server_context
from .web_routes import add_web_routes

if TYPE_CHECKING:
    from .cluster import Cluster

log = logging.getLogger("tarocchi.online")

SERVER_NAME = "tarocchi/0.1"
#: messages a connection may send: a burst of RATE_BURST, then RATE_PER_S a second
RATE_PER_S = 20.0
RATE_BURST = 40.0
#: bytes waiting for a connection that does not read: past this it is closed
MAX_BUFFER = 1 << 20
#: the close code of a connection whose seat was opened by another (PROTOCOL.md)
CLOSE_OPENED_ELSEWHERE = 4001
#: the close code of a connection over its address's share (1013: try again later)
CLOSE_TRY_LATER = 1013


def default_data_dir() -> Path:
    """The user data folder's ``server/`` (``TAROCCHI_HOME`` overrides the data folder)."""
    return user_data_folder() / "server"


class Peer:
    """One connection: its seat at one table.  ``send`` never waits: it frames the
    text at once and writes every frame queued in one loop iteration with one
    socket write (an event, its trick and the ack go out together), so a table's
    fan-out costs no task switch per connection.  A reader that does not read
    (more than MAX_BUFFER bytes waiting) is closed with 1008."""

    def __init__(self, ws: ServerConnection, rate: float, burst: float, addr: str = "") -> None:
        self.ws = ws
        self.addr = addr  # the client's address (online/limits.py)
        self.seat = SPECTATOR
        self.table: Table | None = None
        self.hello = False
        self.name = ""
        self.host_of: set[str] = set()
        self.bucket = Bucket(rate, burst)
        self.closing = False
        self._flush_due = False
        self._loop = asyncio.get_running_loop()

    def send(self, text: str) -> None:
        if self.closing:
            return
        ws = self.ws
        if ws.protocol.state is not State.OPEN:
            return
        if ws.transport.get_write_buffer_size() > MAX_BUFFER:
            self.closing = True
            self._loop.create_task(_close(ws, 1008, "too slow: messages piled up"))
            return
        # websockets 17's sans-I/O layer (pinned): frame now, write in _flush
        ws.protocol.send_text(text.encode())
        if not self._flush_due:
            self._flush_due = True
            self._loop.call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_due = False
        ws = self.ws
        if ws.protocol.state is not State.OPEN:
            return  # closing: the library writes what is left with its close frame
        data = [d for d in ws.protocol.data_to_send() if d]
        if data:
            try:
                ws.transport.write(b"".join(data))
            except Exception:  # a broken transport: the reader sees the connection close
                pass

    def displaced(self) -> None:
        """Another connection resumed this seat with its token: say so, then close
        (4001), so the client knows not to reconnect and fight for the seat."""
        self.send(encode(ProtocolError(
            "opened_elsewhere", "this seat was opened by another connection: this one is "
            "closed").message()))
        self.closing = True
        self._loop.create_task(self._close_after_flush(CLOSE_OPENED_ELSEWHERE, "opened elsewhere"))

    async def refuse(self, exc: ProtocolError, code: int, reason: str) -> None:
        """The error, then the close."""
        self.send(encode(exc.message()))
        self.closing = True
        await self._close_after_flush(code, reason)

    async def _close_after_flush(self, code: int, reason: str) -> None:
        await self.flush()
        await _close(self.ws, code, reason)

    async def flush(self, timeout: float = 2.0) -> None:
        if self._flush_due:
            self._flush()
        t0 = time.monotonic()
        while (self.ws.transport.get_write_buffer_size() and time.monotonic() - t0 < timeout
               and self.ws.protocol.state is State.OPEN):
            await asyncio.sleep(0.005)


class TarocchiServer:
    def __init__(self, data_dir: str | os.PathLike[str], *, rate: float = RATE_PER_S,
                 burst: float = RATE_BURST, ai_workers: int = 1, synchronous: str = "FULL",
                 db: str | None = None, node_url: str | None = None,
                 lease_seconds: float = 5.0, db_connections: int = DB_CONNECTIONS,
                 ai_ms: int = AI_MS, tls_cert: str | None = None,
                 tls_key: str | None = None, limits: LimitSettings | None = None,
                 lobby_expiry: float = LOBBY_EXPIRY) -> None:
        self.data_dir = Path(data_dir)
        #: ``--tls-cert``/``--tls-key`` (online/tls.py): the port speaks wss:// and https://
        self.tls_cert, self.tls_key = tls_cert, tls_key
        self.tls: ssl.SSLContext | None = None
        #: the counters of /metrics (online/metrics.py); limits call metrics.limit_hit
        self.metrics = Metrics()
        #: limits per client address (online/limits.py): each hit counted in the metrics
        self.limits = Limits(limits, is_lobby=self._is_lobby, on_hit=self.metrics.limit_hit)
        self.lobby_expiry = lobby_expiry
        #: each connection's client address, and whether it counts against it
        self._addresses: dict[ServerConnection, tuple[str, bool]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self.ai_ms = ai_ms
        self.db_connections = db_connections
        # db: a postgresql:// URL makes this server one node of several (online/cluster.py)
        self.db, self.node_url, self.lease_seconds = db, node_url, lease_seconds
        self.cluster: Cluster | None = None
        self.rate, self.burst = rate, burst
        self.ai_workers = ai_workers
        self.synchronous = synchronous
        self.hub: Hub | None = None
        self.server: Server | None = None
        self.connections = 0
        self.peers: set[Peer] = set()
        #: plain HTTP on the same port (online/http.py): health, metrics, the web seat
        self.http = Routes()
        self.web = add_web_routes(self.http)

    @property
    def scheme(self) -> str:
        """``wss`` when the port speaks TLS, else ``ws``."""
        return "wss" if self.tls_cert else "ws"

    async def start(self, host: str = "127.0.0.1", port: int = 8765) -> int:
        self.tls = server_context(self.tls_cert, self.tls_key)  # a bad file: one line, first
        self.data_dir.mkdir(parents=True, exist_ok=True)
        sock = None
        if self.db and not is_postgres_url(self.db):
            # (the URL is not repeated: it may hold a password)
            raise OSError("--db takes a postgresql://user@host:port/dbname URL "
                          "(without --db: SQLite in the data folder)")
        if is_postgres_url(self.db):
            try:
                from .cluster import start_node
            except ImportError as exc:
                raise OSError(f"--db postgresql://... needs psycopg 3: pip install "
                              f"'tarocchi[postgres]' ({exc})") from None
            sock = await start_node(self, host, port)  # tables are leased one by one
        else:
            store = SqliteStore(self.data_dir / "tarocchi.sqlite3", synchronous=self.synchronous)
            self.hub = Hub(store, self.data_dir, AiRunner(self.ai_workers, budget_ms=self.ai_ms))
            await self.hub.load()
        assert self.hub is not None
        self.hub.lobby_expiry = self.lobby_expiry
        instrument(self, self.metrics)
        tls: dict[str, Any] = ({"ssl": self.tls, "ssl_handshake_timeout": HANDSHAKE_SECONDS}
                               if self.tls else {})
        self.server = await serve(
            self.handler, None if sock else host, None if sock else port, sock=sock,
            max_size=HARD_MAX_FRAME, compression=None,
            process_request=self.process_request,
            ping_interval=20, ping_timeout=20, max_queue=64, close_timeout=2, **tls,
        )
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop())
        sock = next(iter(self.server.sockets))
        return int(sock.getsockname()[1])

    async def stop(self) -> None:
        """Say ``bye`` to every connection, close them (1001), close the store."""
        bye = encode({"type": "bye", "text": "the server is shutting down"})
        for p in list(self.peers):
            p.send(bye)
            p._flush()
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
        if self.cluster is not None:
            await self.cluster.stop()
        if self.hub is not None:
            self.hub.close()
            await self.hub.store.close()

    # --- limits per address -----------------------------------------------------------

    async def process_request(self, connection: ServerConnection, request: Request
                              ) -> Response | None:
        """Every request, websocket or plain HTTP: counted against its client's
        address (online/limits.py), then handed to the routes (online/http.py).  A
        plain request over the address's share is answered 429; a websocket one
        is let through to be told ``too_many_connections`` in the protocol."""
        addr = self.limits.address(_address(connection), request.headers)
        counted = self.limits.connect(addr)
        self._addresses[connection] = (addr, counted)
        connection.connection_lost_waiter.add_done_callback(
            lambda _: self._connection_gone(connection))
        if not counted and not is_upgrade(request):
            return response(429, "too many connections from your address\n",
                            headers={"Retry-After": "10"})
        return await self.http.process_request(connection, request)

    def _connection_gone(self, connection: ServerConnection) -> None:
        addr, counted = self._addresses.pop(connection, ("", False))
        if counted:
            self.limits.disconnect(addr)

    def _is_lobby(self, code: str) -> bool:
        t = self.hub.tables.get(code) if self.hub is not None else None
        return t is not None and t.rec.status == "lobby"

    async def _sweep_loop(self) -> None:
        """Abandoned lobbies expire, idle addresses are forgotten (a few times per
        expiry period, at least once a minute)."""
        every = max(0.05, min(60.0, self.lobby_expiry / 4))
        while True:
            await asyncio.sleep(every)
            try:
                await self.sweep()
            except Exception:  # the store away: the next sweep tries again
                log.exception("the sweep of lobbies failed")

    async def sweep(self) -> None:
        hub = self.hub
        if hub is None:
            return
        hosted: set[str] = set()
        for p in self.peers:
            p.host_of &= hub.tables.keys()
            hosted |= p.host_of
        await hub.expire_lobbies(hosted)
        self.limits.sweep()

    def _late_hello(self, peer: Peer) -> None:
        if not peer.hello and not peer.closing:
            self.limits.hit("hello", peer.addr)
            peer.ws.loop.create_task(self._refuse(peer, ProtocolError(
                "hello_timeout", f"no hello within {self.limits.settings.hello_seconds:g} s: "
                "the connection is closed"), 1008, "no hello"))

    async def _refuse(self, peer: Peer, exc: ProtocolError, code: int, reason: str) -> None:
        """A limit's error (counted among the refusals), then the close."""
        self.metrics.refused(exc.code)
        await peer.refuse(exc, code, reason)

    def _over_rate(self, peer: Peer) -> ProtocolError | None:
        """The connection's own bucket, then its address's."""
        if not peer.bucket.take():
            self.metrics.limit_hit("rate", peer.addr)
            return ProtocolError("rate_limited", "too many messages: the connection is closed")
        wait = self.limits.message(peer.addr)
        if wait:
            return ProtocolError(
                "rate_limited", "too many messages from your address: the connection is closed",
                retry_after=round(wait + 0.05, 1))
        return None

    # --- one connection ------------------------------------------------------------

    async def handler(self, ws: ServerConnection) -> None:
        addr, counted = self._addresses.get(ws, (_address(ws), True))
        peer = Peer(ws, self.rate, self.burst, addr)
        if not counted:
            await self._refuse(peer, ProtocolError(
                "too_many_connections", f"your address has {self.limits.settings.connections} "
                "connections open to this server: close one, or try again later"),
                CLOSE_TRY_LATER, "too many connections")
            return
        self.connections += 1
        self.peers.add(peer)
        timer = ws.loop.call_later(self.limits.settings.hello_seconds, self._late_hello, peer)
        try:
            async for raw in ws:
                if not await self._receive(peer, raw):
                    break
        except ConnectionClosed:
            pass
        finally:
            timer.cancel()
            self.connections -= 1
            self.peers.discard(peer)
            if peer.table is not None:
                peer.table.detach(peer)
            peer.closing = True

    async def _receive(self, peer: Peer, raw: str | bytes) -> bool:
        """One message: checked, dispatched, answered; False closes the connection."""
        ws = peer.ws
        refused = self._over_rate(peer)
        if refused is not None:
            await self._refuse(peer, refused, 1008, "rate limit")
            return False
        msg_id = None
        try:
            msg = decode_client(raw)
            msg_id = msg.get("id")
            await self.dispatch(peer, msg)
        except ProtocolError as exc:
            self.metrics.refused(exc.code)
            peer.send(encode(exc.message(msg_id)))
            if exc.code == "protocol_version":
                await peer.flush()
                await _close(ws, 1002, "protocol version")
                return False
        except SeqConflict:
            if self.cluster is None or peer.table is None:  # one server: never; a fault
                log.exception("a write of one server was refused as a conflict")
                peer.send(encode(ProtocolError(
                    "server_error", "the server could not do this (SeqConflict); "
                    "nothing was changed").message(msg_id)))
                return True
            # another node runs the table now: drop ours (closes this connection);
            # the client reconnects, is redirected, and sends its command again
            self.cluster.evict(peer.table, "a write was refused (its lease is gone)")
            return False
        except ConnectionClosed:
            raise
        except Exception as exc:  # a fault of ours (the store, a bug): said, not hidden
            log.exception("message from a client failed")
            peer.send(encode(ProtocolError(
                "server_error", f"the server could not do this ({type(exc).__name__}); "
                "nothing was changed").message(msg_id)))
        return True

    async def table_of(self, code: str) -> Table:
        """The table with this code; a node of several may answer ``redirect``."""
        if self.cluster is not None:
            return await self.cluster.table(code)
        assert self.hub is not None
        return await self.hub.find(code)

    async def find(self, peer: Peer, msg: dict[str, Any]) -> Table:
        """The table a message names by code, under the limit of wrong codes: past
        its burst the address pauses, and during a pause only a message that holds
        one of the table's tokens is let through (a scanner learns nothing: a code
        that exists and one that does not get the same answer)."""
        pause = self.limits.code_pause(peer.addr)
        try:
            table = await self.table_of(msg["code"])
        except ProtocolError as exc:
            if pause and exc.code in ("unknown_table", "redirect"):
                raise _paused(pause) from None  # the same answer, whether the table exists or not
            if exc.code != "unknown_table":
                raise
            self.limits.wrong_code(peer.addr)
            pause = self.limits.code_pause(peer.addr)
            if pause:
                raise _paused(pause) from None
            raise
        if pause and not holds_token(table.rec, msg.get("token"), msg.get("host_token")):
            raise _paused(pause)
        return table

    def _hello(self, peer: Peer, msg: dict[str, Any]) -> None:
        """The greeting: refused unless the client speaks this server's protocol."""
        if msg["protocol"] != PROTOCOL_VERSION:
            raise ProtocolError(
                "protocol_version",
                f"this server speaks protocol {PROTOCOL_VERSION}, not {msg['protocol']}",
                protocol=PROTOCOL_VERSION)
        peer.hello = True
        peer.name = msg["name"]
        peer.send(encode({"type": "welcome", "protocol": PROTOCOL_VERSION,
                          "server": SERVER_NAME}))

    async def _join_or_resume(self, peer: Peer, msg: dict[str, Any]) -> None:
        """A seat (or a watcher's place) taken at a table, or taken again with a token."""
        kind = msg["type"]
        if kind == "resume" and peer.table is not None and peer.table.code == msg["code"]:
            await peer.table.resume(peer, msg["token"], msg["last_seq"])  # a re-sync
            return
        if peer.table is not None:
            raise ProtocolError("already_joined", f"this connection is at table {peer.table.code}")
        table = await self.find(peer, msg)
        if kind == "join":
            await table.join(peer, msg["seat"], msg["name"] or peer.name,
                             host=table.code in peer.host_of)
        else:
            await table.resume(peer, msg["token"], msg["last_seq"])
        peer.table = table

    async def _command(self, peer: Peer, msg: dict[str, Any]) -> None:
        """A seated player's command, acknowledged with its place in the table's log."""
        table_or_none = peer.table
        if table_or_none is None or peer.seat < 0:
            raise ProtocolError("not_seated", "join a seat before sending commands")
        if msg["seat"] is not None and msg["seat"] != peer.seat:
            raise ProtocolError("not_your_seat",
                                f"this connection plays seat {peer.seat}, not seat {msg['seat']}")
        seq = await table_or_none.command(peer.seat, msg["command"], msg["id"])
        peer.send(encode({"type": "ack", "id": msg["id"], "seq": seq}))

    async def dispatch(self, peer: Peer, msg: dict[str, Any]) -> None:
        hub = self.hub
        assert hub is not None
        kind = msg["type"]
        if kind == "ping":
            peer.send(encode({"type": "pong", "t": msg.get("t")}))
            return
        if kind == "hello":
            self._hello(peer, msg)
            return
        if not peer.hello:
            raise ProtocolError("no_hello", "say hello first (with the protocol version)")
        if kind == "create":
            if not self.limits.may_create(peer.addr):
                raise ProtocolError(
                    "too_many_lobbies", f"your address has {self.limits.settings.lobbies} tables "
                    "waiting to start: start one, or wait for one to expire",
                    limit=self.limits.settings.lobbies)
            table, host_token = await hub.create(msg["variant"], msg["deals"], msg["seats"],
                                                 msg["settings"])
            self.limits.created(peer.addr, table.code)
            peer.host_of.add(table.code)
            peer.send(encode({"type": "created", "code": table.code, "host_token": host_token}))
            peer.send(encode(table.lobby()))
            return
        if kind in ("join", "resume"):
            await self._join_or_resume(peer, msg)
            return
        if kind == "command":
            await self._command(peer, msg)
            return
        # the host's lobby commands
        table = await self.find(peer, msg)
        table.check_host(msg["host_token"])
        if kind == "set_seat":
            await table.set_seat(msg["seat"], msg["level"])
        elif kind == "start":
            await table.start()
        elif kind == "takeover":
            await table.takeover(msg["seat"], msg["level"])
        peer.send(encode({**table.lobby(), "done": kind}))  # the answer: the lobby after it


def _paused(seconds: float) -> ProtocolError:
    return ProtocolError(
        "rate_limited", f"too many wrong table codes from your address: try again in "
        f"{math.ceil(seconds)} s", retry_after=round(seconds + 0.05, 1))


def _address(ws: ServerConnection) -> str:
    """The client's address as the socket sees it (a proxy's, behind one)."""
    peer = ws.remote_address
    return str(peer[0]) if peer else ""


async def _close(ws: ServerConnection, code: int, reason: str) -> None:
    """Close with ``code``, reading (and dropping) what the client still sends:
    unread messages would pause reading, and the client's close frame with it."""

    async def drain() -> None:
        with contextlib.suppress(ConnectionClosed):
            async for _ in ws:
                pass

    drainer = asyncio.get_running_loop().create_task(drain())
    try:
        await asyncio.wait_for(ws.close(code, reason), 3)
    except TimeoutError:
        ws.transport.abort()
    drainer.cancel()


# --- running it ------------------------------------------------------------------------


@dataclass
class ServerHandle:
    """A server running on a daemon thread: ``url``, ``port``, ``stop()``."""

    url: str
    port: int
    data_dir: Path
    _loop: asyncio.AbstractEventLoop
    _thread: threading.Thread
    _stop: asyncio.Event
    server: TarocchiServer

    def stop(self, timeout: float = 10.0) -> None:
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._stop.set)
            self._thread.join(timeout)


def start_background(data_dir: str | os.PathLike[str], host: str = "127.0.0.1", port: int = 0,
                     **options: Any) -> ServerHandle:
    """Start a server in a daemon thread with its own event loop; returns once it
    listens (``port=0``: a free port, see ``handle.port``)."""
    ready = threading.Event()
    box: dict[str, Any] = {}

    async def main() -> None:
        srv = TarocchiServer(data_dir, **options)
        stop = asyncio.Event()
        try:
            box["port"] = await srv.start(host, port)
        except BaseException as exc:
            box["error"] = exc
            ready.set()
            raise
        box.update(loop=asyncio.get_running_loop(), stop=stop, server=srv)
        ready.set()
        await stop.wait()
        await srv.stop()

    def run() -> None:
        with contextlib.suppress(Exception):
            asyncio.run(main())

    th = threading.Thread(target=run, name="tarocchi-server", daemon=True)
    th.start()
    ready.wait(30)
    if "error" in box:
        raise box["error"]
    if "port" not in box:
        raise RuntimeError("the server did not start")
    p = box["port"]
    return ServerHandle(f"{box['server'].scheme}://{host}:{p}", p, Path(data_dir), box["loop"],
                        th, box["stop"], box["server"])


async def _serve_forever(data_dir: Path, host: str, port: int, **options: Any) -> None:
    # The store's writer thread needs the GIL back after each SQLite call; a busy
    # loop lets it go only every switch interval (5 ms by default), which would
    # add up to the commit's latency.  A server process can afford to switch more.
    sys.setswitchinterval(0.0005)
    srv = TarocchiServer(data_dir, **options)
    actual = await srv.start(host, port)
    print(f"{srv.scheme}://{host}:{actual}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    stats = os.environ.get("TAROCCHI_SERVER_STATS")
    if stats and srv.hub is not None:
        write_stats(srv, Path(stats))
    await srv.stop()


def write_stats(srv: TarocchiServer, path: Path) -> None:
    """Server-side latencies (the bench reads them): commit = the store's append,
    fan-out = from the commit to the last send queued."""
    import json

    assert srv.hub is not None

    def pct(xs: list[float], q: float) -> float:
        xs = sorted(xs)
        return round(xs[min(len(xs) - 1, int(q * len(xs)))] * 1000, 2) if xs else 0.0

    commit = srv.hub.timings.column(0)
    fan = srv.hub.timings.column(1)
    store = srv.hub.store
    out = {
        "commits": len(commit), "transactions": getattr(store, "commits", None),
        "commit_p50_ms": pct(commit, 0.5), "commit_p95_ms": pct(commit, 0.95),
        "fanout_p50_ms": pct(fan, 0.5), "fanout_p95_ms": pct(fan, 0.95),
    }
    ai = srv.hub.ai.timings.column()
    if ai:
        out.update({"ai_decisions": srv.hub.ai.decisions, "ai_ms_p50": pct(ai, 0.5),
                    "ai_ms_p95": pct(ai, 0.95)})
    groups: Ring | None = getattr(store, "timings", None)  # each store's group commits
    wakes: Ring | None = getattr(store, "wakeups", None)
    g = groups.rows() if groups is not None else []
    w = wakes.column() if wakes is not None else []
    if g:
        out.update({
            "queue_wait_p50_ms": pct([x[0] for x in g], 0.5),
            "queue_wait_p95_ms": pct([x[0] for x in g], 0.95),
            "transaction_p50_ms": pct([x[1] for x in g], 0.5),
            "transaction_p95_ms": pct([x[1] for x in g], 0.95),
            "group_mean": round(sum(x[2] for x in g) / len(g), 1),
            "loop_wakeup_p50_ms": pct(w, 0.5), "loop_wakeup_p95_ms": pct(w, 0.95),
        })
    path.write_text(json.dumps(out))


def cmd_serve(args: argparse.Namespace) -> int:
    from .logs import setup

    data = Path(args.data) if args.data else default_data_dir()
    setup(getattr(args, "log_format", "text"))
    try:
        asyncio.run(_serve_forever(data, args.host, args.port, rate=args.rate,
                                   burst=max(RATE_BURST, 2 * args.rate),
                                   ai_workers=args.ai_workers, synchronous=args.synchronous,
                                   db=getattr(args, "db", None),
                                   node_url=getattr(args, "node_url", None),
                                   lease_seconds=getattr(args, "lease_seconds", 5.0),
                                   db_connections=getattr(args, "db_connections", DB_CONNECTIONS),
                                   ai_ms=getattr(args, "ai_ms", AI_MS),
                                   tls_cert=getattr(args, "tls_cert", None),
                                   tls_key=getattr(args, "tls_key", None),
                                   limits=limit_settings(args),
                                   lobby_expiry=getattr(args, "lobby_expiry", LOBBY_EXPIRY)))
    except OSError as exc:
        print(f"tarocchi serve: {exc}", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    from .serve_options import add_serve_arguments

    p = argparse.ArgumentParser(prog="python -m online.server", description="the Tarocchi server")
    add_serve_arguments(p)
    return cmd_serve(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
