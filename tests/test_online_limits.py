"""Limits per client address (online/limits.py): each answered as PROTOCOL.md says,
to the address that hit it, while another address plays a whole game meanwhile.

The server listens on 127.0.0.1; "another house" is another loopback address
(a client binds 127.0.0.2 or 127.0.0.3 as its source; Linux routes all of
127.0.0.0/8 to the loopback without set-up)."""

from __future__ import annotations

import asyncio
import http.client
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed

from online.bot import my_turn, random_chooser
from online.client import SeatClient
from online.limits import Bucket, Limits, LimitSettings, address_key, client_address, parse_networks
from online.server import ServerHandle, start_background
from tests.support.online_harness import check_frames, wait_until

STRANGER = "127.0.0.2"
FAMILY = "127.0.0.3"

#: small limits, so that each is reached in a few messages
SMALL = LimitSettings(connections=6, lobbies=2, hello_seconds=1.0, rate=10.0, burst=20.0,
                      wrong_codes=3, forgive_seconds=60.0, pause_seconds=1.0)


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


# --- the limits alone ------------------------------------------------------------------


def test_a_bucket_refills_at_its_rate() -> None:
    clock = Clock()
    b = Bucket(2.0, 3.0, clock)
    assert [b.take() for _ in range(4)] == [True, True, True, False]
    assert b.wait() == pytest.approx(0.5)
    clock.t += 0.5
    assert b.take() and not b.take()
    clock.t += 10
    assert b.full()


def test_addresses_count_ipv4_as_is_and_ipv6_by_its_64() -> None:
    assert address_key("192.0.2.7") == "192.0.2.7"
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:bbbb::9") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:192.0.2.7") == "192.0.2.7"


def test_forwarded_headers_count_only_from_a_trusted_proxy() -> None:
    trusted = parse_networks(["10.0.0.0/8", "127.0.0.1"])
    h = Headers()
    h["X-Forwarded-For"] = "203.0.113.9, 198.51.100.4"
    # an untrusted peer's header is anyone's words: its own address counts
    assert client_address("192.0.2.1", h, trusted) == "192.0.2.1"
    assert client_address("192.0.2.1", h, []) == "192.0.2.1"
    # from the proxy: the last hop the proxy saw (the left ones could be made up)
    assert client_address("127.0.0.1", h, trusted) == "198.51.100.4"
    h2 = Headers()
    h2["X-Forwarded-For"] = "198.51.100.4, 10.1.2.3"  # through two proxies of ours
    assert client_address("10.9.9.9", h2, trusted) == "198.51.100.4"
    h3 = Headers()
    h3["Forwarded"] = 'for=192.0.2.60;proto=https, for="[2001:db8::7]:4711"'
    h3["X-Forwarded-For"] = "203.0.113.1"  # Forwarded wins
    assert client_address("127.0.0.1", h3, trusted) == "2001:db8::/64"
    h4 = Headers()
    h4["X-Forwarded-For"] = "unknown"
    assert client_address("127.0.0.1", h4, trusted) == "127.0.0.1"
    assert client_address("127.0.0.1", Headers(), trusted) == "127.0.0.1"
    with pytest.raises(ValueError, match="not an IP"):
        parse_networks(["proxy.example"])


def test_wrong_codes_a_burst_then_a_pause_that_doubles_then_forgiven() -> None:
    clock = Clock()
    lim = Limits(SMALL, clock=clock)
    a = "192.0.2.5"
    for _ in range(3):
        lim.wrong_code(a)
        assert lim.code_pause(a) == 0
    lim.wrong_code(a)
    assert lim.code_pause(a) == pytest.approx(1.0)
    clock.t += 1.0
    lim.wrong_code(a)
    assert lim.code_pause(a) == pytest.approx(2.0)
    clock.t += 2.0
    lim.wrong_code(a)
    assert lim.code_pause(a) == pytest.approx(4.0)
    assert lim.hits["codes"] == 3 and lim.code_pause("192.0.2.6") == 0
    clock.t += 150  # two of the burst forgiven meanwhile: no free guesses while in pauses
    lim.wrong_code(a)
    assert lim.code_pause(a) == pytest.approx(8.0)
    clock.t += 3 * 60 + 8  # every wrong code forgiven: a new burst, the pause from 1 s again
    for _ in range(3):
        lim.wrong_code(a)
    assert lim.code_pause(a) == 0
    lim.wrong_code(a)
    assert lim.code_pause(a) == pytest.approx(1.0)


def test_lobbies_count_until_they_start_and_addresses_are_forgotten() -> None:
    clock = Clock()
    open_lobbies = {"AAAAAA", "BBBBBB"}
    lim = Limits(SMALL, clock=clock, is_lobby=lambda c: c in open_lobbies)
    a = "192.0.2.5"
    assert lim.may_create(a)
    lim.created(a, "AAAAAA")
    lim.created(a, "BBBBBB")
    assert not lim.may_create(a) and lim.hits["lobbies"] == 1
    open_lobbies.discard("AAAAAA")  # it started
    assert lim.may_create(a)
    assert lim.connect(a) and lim.connections(a) == 1
    lim.disconnect(a)
    assert lim.message(a) == 0
    assert lim.sweep() == 1  # still a lobby of its own
    open_lobbies.clear()
    clock.t += 10
    assert lim.sweep() == 0 and len(lim) == 0


def test_connections_and_messages_per_address() -> None:
    clock = Clock()
    lim = Limits(SMALL, clock=clock)
    a, b = "192.0.2.5", "192.0.2.6"
    assert all(lim.connect(a) for _ in range(6))
    assert not lim.connect(a) and lim.connect(b)
    assert lim.hits["connections"] == 1 and lim.connections(a) == 6
    assert all(lim.message(a) == 0 for _ in range(20))
    assert lim.message(a) == pytest.approx(0.1) and lim.message(b) == 0
    assert lim.hits["messages"] == 1


# --- over the network ----------------------------------------------------------------------


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerHandle]:
    h = start_background(tmp_path / "server", limits=SMALL)
    yield h
    h.stop()


async def _raw(url: str, addr: str = STRANGER, hello: bool = True,
               headers: dict[str, str] | None = None) -> ClientConnection:
    ws = await connect(url, local_addr=(addr, 0), close_timeout=1, additional_headers=headers)
    if hello:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "name": "stranger"}))
        assert json.loads(await ws.recv())["type"] == "welcome"
    return ws


async def _ask(ws: ClientConnection, msg: dict[str, Any], kind: str = "error") -> dict[str, Any]:
    await ws.send(json.dumps(msg))
    while True:
        got = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if got["type"] == kind:
            return got


async def _closed_with(ws: ClientConnection) -> int | None:
    with pytest.raises(ConnectionClosed) as exc:
        while True:
            await asyncio.wait_for(ws.recv(), 10)
    return exc.value.rcvd.code if exc.value.rcvd else None


def _http_status(port: int, source: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    try:
        conn.request("GET", "/no-such-page")
        return conn.getresponse().status
    finally:
        conn.close()


class FamilyGame:
    """A whole Scarto game from the family's address (one person, two AI seats),
    played in the background while a stranger spends every limit: its last two
    cards wait until the stranger is done, so the game spans it all."""

    def __init__(self, url: str) -> None:
        self.client = SeatClient(url, "family", record=True, local_addr=(FAMILY, 0))
        self.errors: list[dict[str, Any]] = []
        self.started = self.ended = 0.0
        self.moves: list[float] = []  # when each of its moves was acknowledged
        self.stranger_done = asyncio.Event()

    async def run(self) -> None:
        c = self.client
        c.on_message = lambda m: self.errors.append(m) if m.get("type") == "error" else None
        await c.connect()
        self.code, _ = await c.create("scarto", 1, ["human", "random", "random"])
        await c.join(self.code, 0)
        await c.host("start")
        self.started = time.monotonic()
        choose = random_chooser(7)
        while c.over is None:
            await wait_until(lambda: c.over is not None or my_turn(c), 30, "the family's turn")
            v = c.view
            if c.over is not None or v is None:
                break
            if v.hand_sizes[0] <= 2:
                await self.stranger_done.wait()
            await asyncio.sleep(0.1)
            cid = await c.send_command(choose(v, v.legal(), c.last_seq))
            await wait_until(lambda cid=cid: cid in c.acked, 10, "the family's ack")
            self.moves.append(time.monotonic())
        self.ended = time.monotonic()


@pytest.mark.slow
def test_each_limit_is_answered_while_another_address_plays_a_whole_game(
        server: ServerHandle) -> None:
    async def main() -> None:
        family = FamilyGame(server.url)
        game = asyncio.get_running_loop().create_task(family.run())
        await wait_until(lambda: family.started > 0, 20, "the family's game")
        t0 = time.monotonic()
        await _connections(server)
        await _no_hello(server)
        await _lobbies(server)
        await _messages(server)
        await _wrong_codes(server, family.code)
        t1 = time.monotonic()
        family.stranger_done.set()
        await game
        # the family played its game through it all, and was refused nothing
        assert family.started < t0 and family.ended > t1
        assert sum(1 for t in family.moves if t0 < t < t1) >= 10, (t0, t1, family.moves)
        assert family.client.over is not None and family.errors == []
        check_frames(family.client, 0, server.data_dir, family.code)
        await family.client.close()
        hits = server.server.limits.hits
        assert all(hits[k] >= 1 for k in ("connections", "hello", "lobbies", "messages", "codes")), hits

    asyncio.run(main())


async def _connections(server: ServerHandle) -> None:
    """Six connections a stranger may hold: the seventh is told and closed (1013),
    a plain HTTP request is 429; the family is not counted with them."""
    held = [await _raw(server.url) for _ in range(6)]
    extra = await _raw(server.url, hello=False)
    err = json.loads(await asyncio.wait_for(extra.recv(), 10))
    assert err["type"] == "error" and err["code"] == "too_many_connections"
    assert await _closed_with(extra) == 1013
    assert await asyncio.to_thread(_http_status, server.port, STRANGER) == 429
    assert await asyncio.to_thread(_http_status, server.port, FAMILY) == 404
    for ws in held:
        await ws.close()
    await wait_until(lambda: server.server.limits.connections(STRANGER) == 0, 10, "counted out")
    again = await _raw(server.url)  # a closed connection frees its place
    await again.close()


async def _no_hello(server: ServerHandle) -> None:
    ws = await _raw(server.url, hello=False)
    err = json.loads(await asyncio.wait_for(ws.recv(), 10))
    assert err["type"] == "error" and err["code"] == "hello_timeout"
    assert await _closed_with(ws) == 1008


async def _lobbies(server: ServerHandle) -> None:
    """Two tables waiting to start per address: a third is refused; one that
    starts (all AI seats) stops counting."""
    ws = await _raw(server.url)
    create = {"type": "create", "variant": "scarto", "deals": 1,
              "seats": ["random", "random", "random"]}
    first = await _ask(ws, create, "created")
    second = await _ask(ws, {**create, "seats": ["human", "random", "random"]}, "created")
    err = await _ask(ws, create)
    assert err["code"] == "too_many_lobbies" and err["limit"] == 2
    await _ask(ws, {"type": "start", "code": first["code"], "host_token": first["host_token"]},
               "lobby")
    fourth = await _ask(ws, create, "created")
    assert (await _ask(ws, create))["code"] == "too_many_lobbies"
    # started, they count no more (the second's empty seat given to the AI first)
    await _ask(ws, {"type": "set_seat", "code": second["code"], "host_token": second["host_token"],
                    "seat": 0, "level": "random"}, "lobby")
    for t in (second, fourth):
        await _ask(ws, {"type": "start", "code": t["code"], "host_token": t["host_token"]}, "lobby")
    assert server.server.limits.lobbies(STRANGER) == 0
    await ws.close()


async def _messages(server: ServerHandle) -> None:
    """Four connections, each under its own rate, together over the address's:
    one is told ``rate_limited`` with ``retry_after`` and closed (1008)."""
    conns = [await _raw(server.url) for _ in range(4)]
    await asyncio.sleep(2.5)  # the hellos' tokens back in the address's bucket
    for ws in conns:
        for _ in range(8):  # 32 in all: over the address's burst of 20
            try:
                await ws.send(json.dumps({"type": "ping"}))
            except ConnectionClosed:
                break
    refused = []
    for ws in conns:
        try:
            while True:
                m = json.loads(await asyncio.wait_for(ws.recv(), 5))
                if m["type"] == "error":
                    refused.append(m)
        except ConnectionClosed as exc:
            assert exc.rcvd is not None and exc.rcvd.code == 1008
        except TimeoutError:
            await ws.close()
    assert refused and all(m["code"] == "rate_limited" and m["retry_after"] > 0 for m in refused)
    assert "address" in refused[0]["text"]
    await asyncio.sleep(2.5)  # the address's bucket full again


async def _wrong_codes(server: ServerHandle, family_code: str) -> None:
    """Three wrong codes, then a pause: every lookup by code is ``rate_limited``
    (a real code too: a scanner learns nothing), except one holding the table's
    token; the family looks its own code up meanwhile; the next pause is longer."""
    ws = await _raw(server.url)
    mine = await _ask(ws, {"type": "create", "variant": "scarto", "deals": 1,
                           "seats": ["human", "random", "random"]}, "created")
    seated = await _ask(ws, {"type": "join", "code": mine["code"], "seat": 0}, "seated")
    await ws.close()
    scan = await _raw(server.url)
    wrong = [c for c in ("ZZZZZZ", "YYYYYY", "XXXXXX", "WWWWWW", "VVVVVV")
             if c not in (family_code, mine["code"])]
    for code in wrong[:3]:
        assert (await _ask(scan, {"type": "join", "code": code, "seat": 0}))["code"] == "unknown_table"
    err = await _ask(scan, {"type": "join", "code": wrong[3], "seat": 0})
    assert err["code"] == "rate_limited" and 0 < err["retry_after"] <= 1.2
    err = await _ask(scan, {"type": "join", "code": family_code, "seat": None})
    assert err["code"] == "rate_limited"
    # the family's address looks a table up by its code, unhindered
    watcher = await _raw(server.url, FAMILY)
    assert (await _ask(watcher, {"type": "join", "code": family_code, "seat": None},
                       "watching"))["code"] == family_code
    await watcher.close()
    # a player of the stranger's address comes back with its token: let through
    back = await _raw(server.url)
    got = await _ask(back, {"type": "resume", "code": mine["code"], "token": seated["token"],
                            "last_seq": 0}, "resumed")
    assert got["seat"] == 0
    await back.close()
    await asyncio.sleep(err["retry_after"])
    err2 = await _ask(scan, {"type": "join", "code": wrong[4], "seat": 0})
    assert err2["code"] == "rate_limited" and 1.2 < err2["retry_after"] <= 2.2
    await scan.close()


def test_behind_a_trusted_proxy_the_forwarded_address_counts(tmp_path: Path) -> None:
    proxy = "127.0.0.4"
    settings = LimitSettings(connections=2, trusted_proxies=(proxy,))
    h = start_background(tmp_path / "server", limits=settings)

    async def main() -> None:
        a = {"X-Forwarded-For": "198.51.100.7"}
        held = [await _raw(h.url, proxy, headers=a) for _ in range(2)]
        extra = await _raw(h.url, proxy, hello=False, headers=a)
        assert json.loads(await asyncio.wait_for(extra.recv(), 10))["code"] == "too_many_connections"
        # another client through the same proxy is another address
        other = await _raw(h.url, proxy, headers={"X-Forwarded-For": "198.51.100.8"})
        assert h.server.limits.connections("198.51.100.7") == 2
        assert h.server.limits.connections("198.51.100.8") == 1
        # a client that is no trusted proxy cannot choose its address with the header
        liars = [await _raw(h.url, "127.0.0.5", headers={"X-Forwarded-For": f"203.0.113.{i}"})
                 for i in range(2)]
        liar = await _raw(h.url, "127.0.0.5", hello=False, headers={"X-Forwarded-For": "203.0.113.9"})
        assert json.loads(await asyncio.wait_for(liar.recv(), 10))["code"] == "too_many_connections"
        for ws in [*held, other, *liars]:
            await ws.close()

    try:
        asyncio.run(main())
    finally:
        h.stop()
