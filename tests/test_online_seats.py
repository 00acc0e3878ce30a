"""No stranger in a running game (PROTOCOL.md): the host cannot start while a
person's seat is empty, a seat is one connection (its token used elsewhere
closes the old one, which is told and does not fight back), and a ``join``
says which seat it wants (``null`` to watch)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from engine.view import SPECTATOR
from game.common.words import Words
from game.table.remote_session import RemoteSession
from game.table.table_controller import InlineExecutor, TableController
from online.bot import play, random_chooser
from online.client import ClientError, SeatClient, ThreadedClient
from online.server import ServerHandle, start_background
from tests.support.browser import Seat, chromium, needs_chromium
from tests.support.online_harness import check_frames, stored_events, wait_until
from tests.test_table_controller import Recorder


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerHandle]:
    h = start_background(tmp_path / "server")
    yield h
    h.stop()


def test_start_is_refused_while_a_persons_seat_is_empty(server: ServerHandle) -> None:
    async def main() -> None:
        host = SeatClient(server.url, "host")
        await host.connect()
        code, _ = await host.create("piedicavallo", 1, ["human", "human", "easy", "human"])
        await host.join(code, 0)
        with pytest.raises(ClientError) as refused:
            await host.host("start")
        assert refused.value.code == "seats_empty" and refused.value.msg["seats"] == [1, 3]
        assert stored_events(server.data_dir, code) == []  # nothing dealt
        # a stranger with the code finds a lobby, not a hand
        stranger = SeatClient(server.url, "stranger", record=True)
        await stranger.connect()
        seated = await stranger.join(code, 1)
        assert seated["snapshot"]["seq"] == 0 and seated["snapshot"]["view"]["hand"] == []
        with pytest.raises(ClientError) as refused:
            await host.host("start")
        assert refused.value.msg["seats"] == [3]
        # the host gives the last empty seat to the AI: now it starts
        lobby = await host.host("set_seat", seat=3, level="random")
        assert lobby["seats"][3]["kind"] == "ai"
        await host.host("start")
        await wait_until(lambda: host.last_seq >= 1 and stranger.last_seq >= 1, 10, "the deal")
        check_frames(stranger, 1, server.data_dir, code)
        await host.close()
        await stranger.close()

    asyncio.run(main())


def test_a_join_without_its_seat_field_is_a_bad_message(server: ServerHandle) -> None:
    async def main() -> None:
        host = SeatClient(server.url, "host")
        await host.connect()
        code, _ = await host.create("scarto", 1, ["human", "random", "random"])
        async with connect(server.url) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "name": "w"}))
            assert json.loads(await ws.recv())["type"] == "welcome"
            await ws.send(json.dumps({"type": "join", "code": code, "name": "w"}))
            err = json.loads(await ws.recv())
            assert err["type"] == "error" and err["code"] == "bad_message" and "'seat'" in err["text"]
            await ws.send(json.dumps({"type": "join", "code": code, "seat": None}))
            assert json.loads(await ws.recv())["type"] == "watching"
        await host.close()

    asyncio.run(main())


def test_a_seat_opened_elsewhere_closes_the_old_connection_which_stays_closed(
        server: ServerHandle) -> None:
    """The token used by a second connection: the first is told ``opened_elsewhere``
    and closed with 4001, and its client does not reconnect; the second plays the
    seat to the end, the seat never shown away."""

    async def main() -> None:
        first = SeatClient(server.url, "here", record=True)
        await first.connect()
        code, _ = await first.create("scarto", 1, ["human", "human", "random"])
        await first.join(code, 0)
        other = SeatClient(server.url, "other")
        await other.connect()
        await other.join(code, 1)
        await first.host("start")
        await wait_until(lambda: first.last_seq >= 1, 10, "the deal")
        heard: list[dict[str, Any]] = []
        first.on_message = heard.append
        seen_by_other: list[dict[str, Any]] = []
        other.on_message = seen_by_other.append
        second = SeatClient(server.url, "there", record=True)
        await second.connect()
        assert first.token is not None
        await second.resume(code, first.token, 0)
        await wait_until(lambda: first.closed, 10, "the first connection closed")
        assert [m["code"] for m in heard if m["type"] == "error"] == ["opened_elsewhere"]
        assert {"type": "connection", "state": "closed", "reason": "opened_elsewhere"} in heard
        assert first.ws is not None and first.ws.close_code == 4001
        await asyncio.sleep(0.5)
        assert first.reconnects == 0 and second.connected.is_set()
        assert not any(m["type"] == "presence" for m in seen_by_other)  # seat 0 never away
        await asyncio.gather(play(second, random_chooser(3), timeout=90),
                             play(other, random_chooser(4), timeout=90))
        assert second.over is not None
        check_frames(second, 0, server.data_dir, code)
        for c in (first, second, other):
            await c.close()

    asyncio.run(main())


def test_the_desktop_table_says_opened_elsewhere_and_does_not_reconnect(
        server: ServerHandle, home: Path) -> None:
    host = ThreadedClient()
    host.connect(server.url, "Anna")
    code, _ = host.create("scarto", 1, ["human", "random", "random"], {})
    joined = host.join(code, 0)
    host.start()
    ctl = TableController(RemoteSession(host, joined), {}, Recorder(), executor=InlineExecutor())
    ctl.speed = 1000.0
    elsewhere = ThreadedClient()
    try:
        elsewhere.connect(server.url, "Anna on the laptop")
        assert host.token is not None
        assert elsewhere.resume(code, host.token)["seat"] == 0
        end = time.monotonic() + 20
        while ctl.status is None or ctl.status.key != "opened_elsewhere":
            assert time.monotonic() < end, ctl.status
            ctl.update(1 / 60)
            time.sleep(0.01)
        time.sleep(0.5)
        ctl.update(1 / 60)
        assert ctl.status.key == "opened_elsewhere"  # no "reconnecting" after it
        assert host.client is not None and host.client.closed and host.client.reconnects == 0
        assert Words(ctl.rules, 0).say(ctl.status).startswith("Opened elsewhere")
        assert elsewhere.client is not None and elsewhere.client.connected.is_set()
    finally:
        elsewhere.close()
        host.close()


def test_a_spectator_and_the_bot_send_their_seat(server: ServerHandle) -> None:
    """The client library always sends ``seat`` (``null`` to watch), so the
    desktop client, the bot and the tests are never taken for a bad message."""

    async def main() -> None:
        host = SeatClient(server.url, "host")
        await host.connect()
        code, _ = await host.create("scarto", 1, ["human", "random", "random"])
        sent: list[str] = []
        watcher = SeatClient(server.url, "watcher")
        await watcher.connect()
        assert watcher.ws is not None
        real_send = watcher.ws.send

        async def spy(text: Any) -> None:
            sent.append(text)
            await real_send(text)

        watcher.ws.send = spy  # type: ignore[method-assign]
        reply = await watcher.join(code, None)
        assert reply["type"] == "watching" and watcher.seat == SPECTATOR
        (join,) = [json.loads(t) for t in sent if '"join"' in t]
        assert "seat" in join and join["seat"] is None
        await watcher.close()
        await host.close()

    asyncio.run(main())


@pytest.mark.slow
@needs_chromium
def test_a_browser_seat_opened_elsewhere_says_so_and_does_not_reconnect(
        server: ServerHandle) -> None:
    with chromium() as browser:
        a = Seat(browser, f"http://127.0.0.1:{server.port}", seed=1)
        sockets: list[Any] = []
        a.page.on("websocket", lambda ws: sockets.append(ws))
        a.open("/")
        link = a.create("Ann", "scarto", 1, ["random", "random"])
        a.start()
        code = link.rsplit("/", 1)[1]
        token = a.page.evaluate(f"() => JSON.parse(sessionStorage.getItem('tarocchi.table.{code}')).token")
        opened = len(sockets)

        phone = ThreadedClient()  # on a thread of its own: Playwright runs a loop here
        try:
            phone.connect(server.url, "Ann on the phone")
            assert phone.resume(code, token)["seat"] == 0
        finally:
            phone.close()
        a.page.wait_for_function(
            "() => document.body.textContent.includes('Opened elsewhere')", timeout=10000)
        time.sleep(2.0)  # a page that reconnected would have opened a socket by now
        assert len(sockets) == opened
        assert any(f.get("code") == "opened_elsewhere" for f in a.frames)
        assert "Opened elsewhere" in a.snap()["text"] and not a.errors
        a.close()
