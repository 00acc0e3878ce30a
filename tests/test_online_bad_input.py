"""What bad input gets: each case refused with an error to that client
alone, the other table still served, and no log changed."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from engine.view import SPECTATOR
from online.client import SeatClient
from online.protocol import MAX_FRAME
from online.server import start_background
from tests.support.online_harness import all_logs, wait_until


@pytest.fixture
def server(tmp_path: Path):
    h = start_background(tmp_path / "server")
    yield h
    h.stop()


async def _table(url: str) -> tuple[str, dict[int, SeatClient], SeatClient]:
    host = SeatClient(url, "host")
    await host.connect()
    code, _ = await host.create("piedicavallo", 1, ["human"] * 4, {})
    seats: dict[int, SeatClient] = {}
    for s in range(4):
        c = host if s == 0 else SeatClient(url, f"p{s}")
        if s:
            await c.connect()
        await c.join(code, s)
        seats[s] = c
    await host.host("start")
    await wait_until(lambda: all(c.last_seq == 1 for c in seats.values()), 10, "the deal")
    return code, seats, host


class Raw:
    """A bare websocket that records what it gets."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws

    async def send(self, obj: Any) -> None:
        await self.ws.send(obj if isinstance(obj, str) else json.dumps(obj))

    async def until(self, kind: str, timeout: float = 5.0) -> dict[str, Any]:
        while True:
            msg = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
            if msg["type"] == kind:
                return msg


OPEN: list[Raw] = []


async def _raw(url: str, hello: bool = True) -> Raw:
    r = Raw(await connect(url, max_size=2**20, close_timeout=1))
    OPEN.append(r)
    if hello:
        await r.send({"type": "hello", "protocol": 1, "name": "mallory"})
        await r.until("welcome")
    return r


async def _other_table_still_plays(b: dict[int, SeatClient]) -> None:
    """Table B: its seat to act plays a legal move and is acknowledged."""
    v = b[0].view
    assert v is not None
    seat = v.turn
    c = b[seat]
    before = c.last_seq
    assert c.view is not None
    cid = await c.send_command(c.view.legal()[0])
    await wait_until(lambda: cid in c.acked, 10, "B's ack")
    assert c.last_seq > before


def _run(server: Any, bad: Any) -> None:
    """Two tables; ``bad(url, code, seats)`` does its bad thing (and checks the
    error it got); then no log has changed and table B still plays."""

    async def main() -> None:
        code_a, a, _ = await _table(server.url)
        code_b, b, _ = await _table(server.url)
        logs = all_logs(server.data_dir)
        await bad(server.url, code_a, a)
        await asyncio.sleep(0.1)
        now = all_logs(server.data_dir)
        assert {k: now[k] for k in logs} == logs, "a log changed"
        assert not any(now[k] for k in now if k not in logs)
        await _other_table_still_plays(b)
        after = all_logs(server.data_dir)
        assert after[code_a] == logs[code_a]
        assert len(after[code_b]) > len(logs[code_b])
        for c in [*a.values(), *b.values()]:
            await c.close()
        while OPEN:
            await OPEN.pop().ws.close()

    asyncio.run(main())


def _dealer(a: dict[int, SeatClient]) -> int:
    v = a[0].view
    assert v is not None
    return v.dealer


def test_illegal_move_gets_the_engines_refusal_as_data(server) -> None:
    async def bad(url: str, code: str, a: dict[int, SeatClient]) -> None:
        d = _dealer(a)
        c = a[d]
        assert c.view is not None
        others = [x for x in range(62) if not c.view.hand >> x & 1][:2]
        codes = [c.view.rules.pack.codes[x] for x in others]
        got: list[dict[str, Any]] = []
        c.on_message = got.append
        cid = await c.send_command({"discard": codes})
        await wait_until(lambda: any(m.get("id") == cid for m in got), 5, "the error")
        err = next(m for m in got if m.get("id") == cid)
        assert err["type"] == "error" and err["code"] == "illegal_move"
        assert err["rule"] == "R6" and err["reason"] == "discard_not_held"
        assert set(err["cards"]) <= set(codes)
        # the others heard nothing of it
        for s, o in a.items():
            if s != d:
                assert o.last_seq == 1

    _run(server, bad)


def test_play_out_of_turn_is_refused(server) -> None:
    async def bad(url: str, code: str, a: dict[int, SeatClient]) -> None:
        s = (_dealer(a) + 1) % 4
        c = a[s]
        assert c.view is not None
        got: list[dict[str, Any]] = []
        c.on_message = got.append
        card = c.view.rules.pack.codes[(c.view.hand & -c.view.hand).bit_length() - 1]
        cid = await c.send_command({"play": card})
        await wait_until(lambda: any(m.get("id") == cid for m in got), 5, "the error")
        err = next(m for m in got if m.get("id") == cid)
        assert err["code"] == "illegal_move" and err["reason"] == "no_play_due"

    _run(server, bad)


def test_a_command_for_another_seat_is_refused(server) -> None:
    async def bad(url: str, code: str, a: dict[int, SeatClient]) -> None:
        d = _dealer(a)
        s = (d + 1) % 4
        c = a[s]
        assert c.ws is not None
        await c.ws.send(json.dumps({"type": "command", "id": "x1", "seat": d,
                                    "command": {"discard": ["S1", "SK"]}}))
        got: list[dict[str, Any]] = []
        c.on_message = got.append
        await wait_until(lambda: any(m.get("id") == "x1" for m in got), 5, "the error")
        assert got[-1]["code"] == "not_your_seat"

    _run(server, bad)


@pytest.mark.parametrize("case", ["forged", "other_table"])
def test_a_forged_or_stale_token_is_refused(server, case: str) -> None:
    async def bad(url: str, code: str, a: dict[int, SeatClient]) -> None:
        r = await _raw(url)
        token = "A" * 43
        if case == "other_table":  # a real token, of another table
            h = SeatClient(url, "x")
            await h.connect()
            other, _ = await h.create("scarto", 1, ["human", "easy", "easy"], {})
            await h.join(other, 0)
            token = h.token or ""
            await h.close()
        await r.send({"type": "resume", "code": code, "token": token, "last_seq": 0})
        err = await r.until("error")
        assert err["code"] == "bad_token"
        await r.send({"type": "command", "id": "c", "command": {"play": "SK"}})
        assert (await r.until("error"))["code"] == "not_seated"

    _run(server, bad)


def test_an_unknown_table_code_is_refused(server) -> None:
    async def bad(url: str, code: str, a: dict[int, SeatClient]) -> None:
        r = await _raw(url)
        unknown = "ZZZZZZ" if code != "ZZZZZZ" else "YYYYYY"
        await r.send({"type": "join", "code": unknown, "seat": 1})
        err = await r.until("error")
        assert err["code"] == "unknown_table" and unknown in err["text"]

    _run(server, bad)


@pytest.mark.parametrize("raw,code", [
    ("{not json", "bad_json"),
    ('{"type": "teleport"}', "unknown_type"),
    ('{"type": "join", "code": "ABCDEF", "seat": "north"}', "bad_message"),
    ('{"type": "command", "id": "c", "command": {"play": "XX9"}}', "bad_card"),
    ('{"type": "ping", "junk": "' + "j" * (MAX_FRAME + 10) + '"}', "too_big"),
], ids=["bad_json", "unknown_type", "bad_field", "bad_card", "too_big"])
def test_bad_frames_get_an_error_and_the_connection_stays(server, raw: str, code: str) -> None:
    async def bad(url: str, c_: str, a: dict[int, SeatClient]) -> None:
        c = a[0]
        assert c.ws is not None
        got: list[dict[str, Any]] = []
        c.on_message = got.append
        await c.ws.send(raw)
        await wait_until(lambda: any(m["type"] == "error" for m in got), 5, "the error")
        assert next(m for m in got if m["type"] == "error")["code"] == code
        await c.ws.send(json.dumps({"type": "ping", "t": 5}))
        await wait_until(lambda: any(m["type"] == "pong" for m in got), 5, "a pong after it")

    _run(server, bad)


def test_a_frame_over_the_hard_cap_closes_that_connection_only(server) -> None:
    async def bad(url: str, code: str, a: dict[int, SeatClient]) -> None:
        r = await _raw(url)
        await r.send("x" * 100_000)
        with pytest.raises(ConnectionClosed) as exc:
            await r.until("never")
        assert exc.value.rcvd is not None and exc.value.rcvd.code == 1009

    _run(server, bad)


def test_a_flood_gets_an_error_then_1008(server) -> None:
    async def bad(url: str, code: str, a: dict[int, SeatClient]) -> None:
        r = await _raw(url)
        for _ in range(200):
            try:
                await r.send({"type": "ping"})
            except ConnectionClosed:
                break
        err = await r.until("error")
        assert err["code"] == "rate_limited"
        with pytest.raises(ConnectionClosed) as exc:
            await r.until("never")
        assert exc.value.rcvd is not None and exc.value.rcvd.code == 1008

    _run(server, bad)


def test_no_hello_wrong_version_taken_seat_and_not_host(server) -> None:
    async def bad(url: str, code: str, a: dict[int, SeatClient]) -> None:
        r = await _raw(url, hello=False)
        await r.send({"type": "join", "code": code, "seat": 1})
        assert (await r.until("error"))["code"] == "no_hello"
        await r.send({"type": "hello", "protocol": 2})
        err = await r.until("error")
        assert err["code"] == "protocol_version" and err["protocol"] == 1
        r = await _raw(url)
        await r.send({"type": "join", "code": code, "seat": 1})
        assert (await r.until("error"))["code"] == "seat_taken"
        await r.send({"type": "start", "code": code, "host_token": "B" * 43})
        assert (await r.until("error"))["code"] == "not_host"
        await r.send({"type": "takeover", "code": code, "host_token": "B" * 43, "seat": 1})
        assert (await r.until("error"))["code"] == "not_host"
        # a spectator may watch but not play
        await r.send({"type": "join", "code": code, "seat": None})
        w = await r.until("watching")
        assert w["snapshot"]["view"]["seat"] == SPECTATOR and w["snapshot"]["view"]["hand"] == []
        await r.send({"type": "command", "id": "s1", "command": {"play": "SK"}})
        assert (await r.until("error"))["code"] == "not_seated"

    _run(server, bad)


def test_a_retried_command_is_applied_once(server) -> None:
    async def main() -> None:
        code, a, _ = await _table(server.url)
        d = _dealer(a)
        c = a[d]
        assert c.view is not None and c.ws is not None
        cmd = c.view.legal()[0]
        cid = await c.send_command(cmd)
        await wait_until(lambda: cid in c.acked, 5, "the ack")
        first = c.acked.pop(cid)
        n = len(all_logs(server.data_dir)[code])
        got: list[dict[str, Any]] = []
        c.on_message = got.append
        await c.send_command(cmd, cid)  # the same id again: acknowledged, not applied
        await wait_until(lambda: cid in c.acked, 5, "the second ack")
        assert c.acked[cid] == first
        assert len(all_logs(server.data_dir)[code]) == n
        assert not any(m["type"] == "event" for m in got)
        for x in a.values():
            await x.close()

    asyncio.run(main())


def test_a_store_failure_is_an_error_and_changes_nothing(server) -> None:
    """The disk refuses a commit: the sender gets server_error, nobody gets the
    event, the table's position is unchanged, and the same command goes through
    once the store works again."""
    store = server.server.hub.store
    real = store.append
    fail = [True]

    async def flaky(*args: Any, **kw: Any) -> None:
        if fail[0]:
            fail[0] = False
            raise OSError(28, "No space left on device")
        await real(*args, **kw)

    async def main() -> None:
        code, a, _ = await _table(server.url)
        d = _dealer(a)
        c = a[d]
        assert c.view is not None
        got: list[dict[str, Any]] = []
        c.on_message = got.append
        cmd = c.view.legal()[0]
        store.append = flaky
        try:
            cid = await c.send_command(cmd)
            await wait_until(lambda: any(m.get("id") == cid for m in got), 5, "the error")
            assert next(m for m in got if m.get("id") == cid)["code"] == "server_error"
            assert len(all_logs(server.data_dir)[code]) == 1
            assert all(x.last_seq == 1 for x in a.values())
            await c.send_command(cmd, cid)  # the same command again: now it is applied
            await wait_until(lambda: cid in c.acked, 5, "the ack")
            assert len(all_logs(server.data_dir)[code]) == 2
        finally:
            store.append = real
        for x in a.values():
            await x.close()

    asyncio.run(main())
