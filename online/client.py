"""The websocket client of a seat (no arcade): used by the bot, the tests, the
bench, and the table's remote session.

:class:`SeatClient` (asyncio) connects, says hello, creates or joins a table,
keeps its seat token and the last seq it saw, and folds its seat's events into
its :class:`~engine.view.SeatView` (``engine.view.advance``), checking that the
seq numbers have no gap (a gap: it asks the server to resume from its last
seq).  When the connection drops it reconnects by itself (backoff doubling up to
``max_backoff`` seconds), resumes its seat with token + last seq, and sends again
every command not yet acknowledged, with the same id (the server applies an id
once).

:class:`ThreadedClient` runs a SeatClient on its own loop on a daemon thread and
gives a GUI a synchronous API:

* ``connect(url, name)``; ``create(variant, deals, seats, settings) -> (code, host_token)``;
  ``join(code, seat)`` (``seat=None``: watch) -> the ``seated``/``watching`` message;
  ``resume(code, token, last_seq)``; ``start()``, ``set_seat(seat, level)``,
  ``takeover(seat)`` (host only);
* ``send_command(cmd) -> id`` (an :class:`engine.state.Command`, or
  ``{"play": "SK"}`` / ``{"discard": [...]}``), never blocks;
* ``poll() -> list[dict]``: every message received since the last poll, in
  arrival order, never blocks.  Each is the server's message (PROTOCOL.md) as a
  dict, already applied: ``event``, ``snapshot``, ``seated`` and ``watching``
  messages carry two extra keys, ``"seat_view"`` (the :class:`SeatView` right
  after that message) and, for ``event``, ``"engine_event"`` (the
  :class:`engine.state.Event` as this seat saw it).  Synthetic messages:
  ``{"type": "connection", "state": "lost" | "back"}`` and
  ``{"type": "connection", "state": "closed", "reason": ...}`` when it gives up
  (reason ``"opened_elsewhere"``: the seat was opened by another connection with
  its token, and this one was closed; it does not reconnect; ``"unreachable"``:
  nothing answered at the server's address in ``max_attempts`` tries;
  ``"other_program"``: something answered there, but not a Tarocchi server: the
  server is gone and another program has its port; both with ``detail``, the
  last failure in words);
* ``view`` (the latest SeatView, or None), ``last_seq``, ``seat``, ``code``,
  ``token``, ``host_token``, ``pending`` (ids not yet acknowledged); ``close()``.

An ``error`` message answering a command has that command's ``id``; an illegal
move's error carries the engine's refusal as data (``rule``, ``reason``,
``cards``, ``suit``, ``count``, ``seat``), the same refusals the table words.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import queue
import secrets
import ssl
import threading
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidMessage

from engine.ruleset import Ruleset, ruleset
from engine.state import Command
from engine.view import SPECTATOR, SeatView, advance

from .protocol import (
    CLIENT_MAX_FRAME,
    PROTOCOL_VERSION,
    command_to_json,
    encode,
    event_from_wire,
    view_from_json,
)
from .tls import client_context, handshake_error

#: the close code of a connection whose seat another connection opened with the
#: token (PROTOCOL.md): the client does not reconnect
OPENED_ELSEWHERE = 4001

#: redirects one request follows (a node answers ``redirect`` to the node that runs
#: the table; a failover may move it once more meanwhile)
MAX_REDIRECTS = 5


class ClientError(Exception):
    """The server refused a request (``msg`` is its error message) or did not answer."""

    def __init__(self, text: str, msg: dict[str, Any] | None = None) -> None:
        super().__init__(text)
        self.msg = msg or {}
        self.code = self.msg.get("code", "")


class SeatClient:
    """One seat's connection (asyncio).  ``on_message(msg)`` is called for every
    message after it was applied (and the synthetic ``connection`` ones);
    ``record``: keep every raw frame received, in ``frames``."""

    def __init__(self, url: str | list[str], name: str = "", *, reconnect: bool = True,
                 max_backoff: float = 2.0, max_attempts: int = 200,
                 on_message: Callable[[dict[str, Any]], None] | None = None,
                 record: bool = False, tls: ssl.SSLContext | None = None,
                 local_addr: tuple[str, int] | None = None) -> None:
        # several nodes of one service (online/cluster.py): reconnect through any of
        # them, and follow a ``redirect`` to the node that runs the table
        self.urls = [url] if isinstance(url, str) else list(url)
        if not self.urls:
            raise ValueError("no server URL")
        self.url = self.urls[0]
        #: for wss:// addresses (online/tls.py): None is the system's trust store
        self.tls = tls
        self._url_index = 0
        self.redirects = 0
        self._redirect_delay = 0.0  # grows while redirects lead nowhere (a dead owner)
        self._back = asyncio.Event()
        self.name = name
        self.local_addr = local_addr  # the address to connect from (tests: 127.0.0.x)
        self.reconnect = reconnect
        self.max_backoff = max_backoff
        self.max_attempts = max_attempts
        self.on_message = on_message
        self.record = record
        self.frames: list[str] = []
        self.ws: ClientConnection | None = None
        self.code: str | None = None
        self.seat: int | None = None
        self.token: str | None = None
        self.host_token: str | None = None
        self.view: SeatView | None = None
        self.rules: Ruleset | None = None
        self.last_seq = 0
        self.pending: dict[str, dict[str, Any]] = {}  # id -> command json, not yet acknowledged
        self.acked: dict[str, int] = {}
        self.lobby: dict[str, Any] | None = None
        self.over: dict[str, Any] | None = None
        self.closed = False
        self.connected = asyncio.Event()
        self.reconnects = 0
        self._ids = itertools.count(1)
        self._tag = secrets.token_hex(3)
        self._waiters: list[tuple[frozenset[str], asyncio.Future[dict[str, Any]], str | None]] = []
        self._reader: asyncio.Task[None] | None = None
        self._resyncing = False

    # --- connecting ------------------------------------------------------------------

    async def connect(self, timeout: float = 10.0) -> None:
        await self._open(timeout)
        self._reader = asyncio.get_running_loop().create_task(self._run())

    async def _open(self, timeout: float) -> None:
        self.ws = await self._handshake(timeout)
        await self.ws.send(encode({"type": "hello", "protocol": PROTOCOL_VERSION, "name": self.name[:32] or "player"}))
        reply = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        if self.record:
            self.frames.append(encode(reply))
        if reply.get("type") != "welcome":
            raise ClientError(f"the server refused hello: {reply.get('text')}", reply)
        self.connected.set()

    async def _handshake(self, timeout: float) -> ClientConnection:
        """The websocket opened (over TLS for wss://, the certificate checked); a TLS
        failure, or a plain client at a TLS port, is a :class:`ClientError` saying so."""
        url = self.url
        extra: dict[str, Any] = {"local_addr": self.local_addr} if self.local_addr else {}
        if url.startswith("wss://"):
            if self.tls is None:
                self.tls = client_context()
            extra["ssl"] = self.tls
        try:
            return await asyncio.wait_for(
                connect(url, max_size=CLIENT_MAX_FRAME, compression=None, open_timeout=timeout,
                        ping_interval=20, ping_timeout=20, **extra),
                timeout)
        except ssl.SSLError as exc:
            code = "tls_untrusted" if isinstance(exc, ssl.SSLCertVerificationError) else "tls"
            raise ClientError(handshake_error(url, exc) or str(exc), {"code": code}) from None
        except ConnectionResetError:
            if not url.startswith("wss://"):
                raise
            raise ClientError(f"{url} hung up during the TLS handshake: is it a plain server? "
                              "then use ws://") from None
        except InvalidMessage as exc:  # the server hung up before any HTTP answer
            hint = " (a TLS server? then use wss://)" if url.startswith("ws://") else ""
            raise ClientError(f"{url} closed the connection during the handshake{hint}: "
                              f"{exc}") from None
        except TimeoutError:
            hint = " (a TLS server? then use wss://)" if url.startswith("ws://") else ""
            raise ClientError(f"{url} did not answer the handshake in {timeout:g} s"
                              f"{hint}") from None

    async def _run(self) -> None:
        attempt = 0
        while not self.closed:
            ws = self.ws
            assert ws is not None
            try:
                async for raw in ws:
                    attempt = 0
                    self._handle(raw if isinstance(raw, str) else raw.decode())
            except ConnectionClosed:
                pass
            self.connected.clear()
            if self.closed:
                break
            if ws.close_code == OPENED_ELSEWHERE:
                # the seat's token was used by another connection, which holds the seat
                # now: reconnecting would take it back, and so on for ever
                self.closed = True
                self._fail_waiters("this seat was opened elsewhere")
                self._deliver({"type": "connection", "state": "closed",
                               "reason": "opened_elsewhere"})
                return
            self._deliver({"type": "connection", "state": "lost"})
            if not self.reconnect:
                self.closed = True  # a player waiting on it must hear it is gone
                self._fail_waiters("the connection was lost")
                self._deliver({"type": "connection", "state": "closed", "reason": "lost"})
                return
            backoff = max(0.05, self._redirect_delay)
            why = ("unreachable", "")
            while not self.closed:
                attempt += 1
                if attempt > self.max_attempts:
                    self._fail_waiters("the server cannot be reached")
                    self._deliver({"type": "connection", "state": "closed",
                                   "reason": why[0], "detail": why[1]})
                    self.closed = True
                    return
                await asyncio.sleep(backoff)
                backoff = min(self.max_backoff, backoff * 2)
                try:
                    await self._open(5.0)
                except (OSError, TimeoutError) as exc:  # nothing answers there
                    why = ("unreachable", str(exc) or type(exc).__name__)
                    self._next_url()
                    continue
                except (ConnectionClosed, InvalidHandshake, ClientError, json.JSONDecodeError) as exc:
                    # something answers, but it is not a Tarocchi server (or it hung up)
                    why = ("other_program", str(exc) or type(exc).__name__)
                    self._next_url()
                    continue
                self.reconnects += 1
                await self._rejoin()
                self._back.set()
                self._deliver({"type": "connection", "state": "back"})
                break

    async def _rejoin(self) -> None:
        """After a reconnect: the seat back (token + last seq), then the commands
        never acknowledged, with their ids."""
        if self.code is None:
            return
        if self.token is not None:
            # the commands not acknowledged go again once the seat is back ("resumed"):
            # sent before, a node that redirects would refuse them, and the client
            # would take that refusal for the command's
            await self._send({"type": "resume", "code": self.code, "token": self.token,
                              "last_seq": self.last_seq})
        elif self.seat == SPECTATOR:
            await self._send({"type": "join", "code": self.code, "seat": None, "name": self.name})

    async def _send(self, msg: dict[str, Any]) -> None:
        if self.ws is None:
            return
        with contextlib.suppress(ConnectionClosed):
            await self.ws.send(encode(msg))

    async def close(self) -> None:
        self.closed = True
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._reader, 5)
        self._fail_waiters("the client was closed")

    # --- requests --------------------------------------------------------------------

    async def _request(self, msg: dict[str, Any], answers: set[str], timeout: float = 10.0,
                       done: str | None = None) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        for attempt in range(MAX_REDIRECTS + 1):
            fut: asyncio.Future[dict[str, Any]] = loop.create_future()
            self._waiters.append((frozenset(answers | {"error"}), fut, done))
            if attempt == 0 or msg["type"] != "resume":  # a resume is sent again by _rejoin
                await self._send(msg)
            try:
                reply = await asyncio.wait_for(fut, max(0.0, end - loop.time()))
            except TimeoutError:
                raise ClientError(f"no answer to {msg['type']}") from None
            if reply.get("type") != "error" or reply.get("code") != "redirect":
                break
            if msg["type"] != "resume":  # reconnected to the table's node: ask again there
                try:
                    await asyncio.wait_for(self._back.wait(), max(0.0, end - loop.time()))
                except TimeoutError:
                    raise ClientError(f"no answer to {msg['type']} after a redirect") from None
        if reply.get("type") == "error":
            raise ClientError(f"{reply.get('code')}: {reply.get('text')}", reply)
        return reply

    async def create(self, variant: str, deals: int | None = None,
                     seats: list[str] | None = None, settings: dict[str, Any] | None = None
                     ) -> tuple[str, str]:
        """A new table (this client is its host); returns (code, host token)."""
        rules = ruleset(variant)
        msg: dict[str, Any] = {"type": "create", "variant": variant,
                               "deals": deals or rules.full_game,
                               "seats": seats or ["human"] * rules.n_seats}
        if settings:
            msg["settings"] = settings
        reply = await self._request(msg, {"created"})
        self.host_token = reply["host_token"]
        self.code = reply["code"]
        return reply["code"], reply["host_token"]

    async def join(self, code: str, seat: int | None = None) -> dict[str, Any]:
        """Take ``seat`` (None: watch); the reply is ``seated`` or ``watching``."""
        reply = await self._request({"type": "join", "code": code, "seat": seat, "name": self.name},
                                    {"seated", "watching"})
        return reply

    async def resume(self, code: str, token: str, last_seq: int = 0) -> dict[str, Any]:
        self.code, self.token = code, token
        if self.view is None:
            last_seq = 0  # no view to fold into: the server sends a snapshot
        return await self._request({"type": "resume", "code": code, "token": token,
                                    "last_seq": last_seq}, {"resumed"})

    async def host(self, kind: str, **fields: Any) -> dict[str, Any]:
        """A host command (``start``, ``set_seat``, ``takeover``); the reply is the lobby."""
        if self.code is None or self.host_token is None:
            raise ClientError("this client hosts no table")
        msg = {"type": kind, "code": self.code, "host_token": self.host_token, **fields}
        return await self._request(msg, {"lobby"}, done=kind)

    def new_id(self) -> str:
        return f"{self._tag}-{next(self._ids)}"

    async def send_command(self, cmd: Command | dict[str, Any], cid: str | None = None) -> str:
        """Send a command; returns its id (its ``ack`` or ``error`` carries it).  Kept
        until acknowledged and sent again after a reconnect."""
        cid, body = self.prepare(cmd, cid)
        await self._send({"type": "command", "id": cid, "command": body})
        return cid

    def prepare(self, cmd: Command | dict[str, Any], cid: str | None = None
                ) -> tuple[str, dict[str, Any]]:
        """The command's id and wire form, recorded as pending (not yet acknowledged)."""
        if isinstance(cmd, dict):
            body = cmd
        else:
            if self.rules is None:
                raise ClientError("no table yet: join one before sending commands")
            body = command_to_json(cmd, self.rules)
        cid = cid or self.new_id()
        self.pending[cid] = body
        return cid, body

    # --- receiving ---------------------------------------------------------------------

    def _deliver(self, msg: dict[str, Any]) -> None:
        for w in list(self._waiters):
            types, fut, done = w
            if msg.get("type") in types and not fut.done():
                if msg.get("type") == "error" and msg.get("id") is not None:
                    continue  # a command's error: not an answer to a request
                if done is not None and msg.get("type") == "lobby" and msg.get("done") != done:
                    continue  # a lobby sent for another reason
                fut.set_result(msg)
                self._waiters.remove(w)
                break
        if self.on_message is not None:
            self.on_message(msg)

    def _fail_waiters(self, why: str) -> None:
        for _, fut, _ in self._waiters:
            if not fut.done():
                fut.set_result({"type": "error", "code": "closed", "text": why})
        self._waiters.clear()

    def _set_view(self, snap: dict[str, Any]) -> None:
        self.view = view_from_json(snap["view"])
        self.rules = self.view.rules
        self.last_seq = int(snap["seq"])

    def _handle(self, raw: str) -> None:
        if self.record:
            self.frames.append(raw)
        msg = json.loads(raw)
        kind = msg.get("type")
        if kind == "event":
            seq = msg["seq"]
            if self.view is None or seq <= self.last_seq:
                return  # already folded (sent again after a resume)
            if seq != self.last_seq + 1:
                self._resync()
                return
            assert self.rules is not None
            e = event_from_wire(msg["event"], self.rules)
            self.view = advance(self.view, e)
            self.last_seq = seq
            msg["engine_event"] = e
            msg["seat_view"] = self.view
        elif kind == "snapshot":
            self._set_view(msg)
            self._resyncing = False
            msg["seat_view"] = self.view
        elif kind in ("seated", "watching"):
            self.code = msg["code"]
            self._redirect_delay = 0.0
            self.seat = msg.get("seat", SPECTATOR)
            if kind == "seated":
                self.token = msg["token"]
            self._set_view(msg["snapshot"])
            msg["seat_view"] = self.view
        elif kind == "resumed":
            self.seat = msg["seat"]
            self._resyncing = False
            self._redirect_delay = 0.0
            for cid, cmd in list(self.pending.items()):
                asyncio.get_running_loop().create_task(
                    self._send({"type": "command", "id": cid, "command": cmd}))
        elif kind == "error" and msg.get("code") == "redirect":
            self._follow(str(msg.get("url", "")))
        elif kind == "ack":
            self.pending.pop(msg["id"], None)
            self.acked[msg["id"]] = msg["seq"]
        elif kind == "error" and msg.get("id") is not None:
            self.pending.pop(msg["id"], None)
        elif kind == "lobby":
            self.lobby = msg
        elif kind == "game_over":
            self.over = msg
        self._deliver(msg)

    def _next_url(self) -> None:
        """A node did not answer: the next one of the list."""
        self._url_index = (self._url_index + 1) % len(self.urls)
        self.url = self.urls[self._url_index]

    def _follow(self, url: str) -> None:
        """``redirect``: another node runs the table; reconnect there (bounded: the
        reconnect loop's attempts, and :data:`MAX_REDIRECTS` a request)."""
        if not url.startswith(("ws://", "wss://")):
            return
        self.redirects += 1
        # until the lease of a dead node expires, nodes send us to it: back off
        self._redirect_delay = min(self.max_backoff, max(0.05, self._redirect_delay * 2))
        self.url = url
        self._back.clear()
        if self.ws is not None:
            self.ws.transport.abort()  # _run reconnects, to self.url first

    def _resync(self) -> None:
        """A gap in the seq numbers: ask for what is missing (once at a time)."""
        if self._resyncing or self.code is None:
            return
        self._resyncing = True
        loop = asyncio.get_running_loop()
        if self.token is not None:
            loop.create_task(self._send({"type": "resume", "code": self.code, "token": self.token,
                                         "last_seq": self.last_seq}))

    async def drop(self) -> None:
        """Cut the connection as a network failure would (tests): it reconnects."""
        if self.ws is not None:
            self.ws.transport.abort()  # no close handshake


class ThreadedClient:
    """A :class:`SeatClient` on its own asyncio loop on a daemon thread, with a
    synchronous API for a GUI (see the module's docstring)."""

    def __init__(self, *, reconnect: bool = True, max_backoff: float = 2.0,
                 tls: ssl.SSLContext | None = None, max_attempts: int = 200) -> None:
        self._tls = tls
        self._max_attempts = max_attempts
        self._q: queue.SimpleQueue[dict[str, Any]] = queue.SimpleQueue()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="tarocchi-client",
                                        daemon=True)
        self._thread.start()
        self._reconnect = reconnect
        self._max_backoff = max_backoff
        self.client: SeatClient | None = None

    def _call(self, coro: Any, timeout: float = 15.0) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout)

    def connect(self, url: str, name: str = "", timeout: float = 10.0) -> None:
        self.client = SeatClient(url, name, reconnect=self._reconnect,
                                 max_backoff=self._max_backoff, on_message=self._q.put,
                                 tls=self._tls, max_attempts=self._max_attempts)
        self._call(self.client.connect(timeout), timeout + 5)

    def _c(self) -> SeatClient:
        if self.client is None:
            raise ClientError("not connected: call connect(url, name) first")
        return self.client

    def create(self, variant: str, deals: int | None = None,
               seats: list[str] | None = None, settings: dict[str, Any] | None = None
               ) -> tuple[str, str]:
        c = self._c()
        code, host_token = self._call(c.create(variant, deals, seats, settings))
        return code, host_token

    def join(self, code: str, seat: int | None = None) -> dict[str, Any]:
        return dict(self._call(self._c().join(code, seat)))

    def resume(self, code: str, token: str, last_seq: int = 0) -> dict[str, Any]:
        return dict(self._call(self._c().resume(code, token, last_seq)))

    def start(self) -> dict[str, Any]:
        return dict(self._call(self._c().host("start")))

    def set_seat(self, seat: int, level: str) -> dict[str, Any]:
        return dict(self._call(self._c().host("set_seat", seat=seat, level=level)))

    def takeover(self, seat: int, level: str | None = None) -> dict[str, Any]:
        return dict(self._call(self._c().host("takeover", seat=seat, level=level)))

    def send_command(self, cmd: Command | dict[str, Any]) -> str:
        c = self._c()
        cid, body = c.prepare(cmd)  # pending at once: the GUI sees it before the send
        asyncio.run_coroutine_threadsafe(
            c._send({"type": "command", "id": cid, "command": body}), self._loop)
        return cid

    def poll(self) -> list[dict[str, Any]]:
        out = []
        while True:
            try:
                out.append(self._q.get_nowait())
            except queue.Empty:
                return out

    @property
    def view(self) -> SeatView | None:
        return self.client.view if self.client else None

    @property
    def last_seq(self) -> int:
        return self.client.last_seq if self.client else 0

    @property
    def seat(self) -> int | None:
        return self.client.seat if self.client else None

    @property
    def code(self) -> str | None:
        return self.client.code if self.client else None

    @property
    def token(self) -> str | None:
        return self.client.token if self.client else None

    @property
    def host_token(self) -> str | None:
        return self.client.host_token if self.client else None

    @property
    def pending(self) -> list[str]:
        return list(self.client.pending) if self.client else []

    def close(self) -> None:
        if self.client is not None:
            with contextlib.suppress(Exception):
                self._call(self.client.close(), 10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
