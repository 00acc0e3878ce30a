"""A server stays the same size however many games it held: a finished table
leaves memory (its log stays in the store, its replay in ``replays/``, and a late
``resume`` still gets ``game_over``), an abandoned lobby expires, neither counts
against the cap, and a restart reloads only the tables in play and in the lobby."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.replay import read_replay
from online.bot import play, random_chooser
from online.client import ClientError, SeatClient
from online.ring import Ring
from online.server import ServerHandle, start_background
from tests.support.online_harness import DB, stored_events, table_row, truth, wait_until


def _hub(h: ServerHandle) -> Any:
    assert h.server.hub is not None
    return h.server.hub


async def _game(url: str) -> tuple[str, SeatClient]:
    """A finished Scarto deal (one person, two random AI seats); the client stays open."""
    c = SeatClient(url, "p")
    await c.connect()
    code, _ = await c.create("scarto", 1, ["human", "random", "random"])
    await c.join(code, 0)
    await c.host("start")
    await play(c, random_chooser(11), timeout=90)
    return code, c


def test_a_finished_table_leaves_memory_and_a_late_resume_hears_game_over(tmp_path: Path) -> None:
    h = start_background(tmp_path / "server")

    async def main() -> None:
        hub = _hub(h)
        code, c = await _game(h.url)
        assert c.over is not None
        await wait_until(lambda: code not in hub.tables, 10, "the table out of the count")
        assert code in hub.done  # its player still looks at the end
        row = table_row(h.data_dir, code)
        replay = h.data_dir / "replays" / f"{code}-{row['id']}.jsonl"
        assert row["status"] == "over" and read_replay(replay).events == truth(h.data_dir, code)[1]
        await c.close()
        await wait_until(lambda: code not in hub.done, 10, "the last watcher gone")
        # a late resume: loaded from the store for as long as it looks
        late = SeatClient(h.url, "late")
        await late.connect()
        assert c.token is not None
        got = await late.resume(code, c.token, 0)
        assert got["seat"] == 0
        await wait_until(lambda: late.over is not None, 10, "game_over")
        assert late.over is not None and late.over["seed"] == c.over["seed"]
        assert late.over["totals"] == c.over["totals"] and late.last_seq == c.last_seq
        assert code not in hub.tables and code in hub.done
        with_seat = SeatClient(h.url, "stranger")
        await with_seat.connect()
        watching = await with_seat.join(code, None)  # anyone with the code may look at it
        assert watching["snapshot"]["seq"] == c.last_seq
        with_seat.reconnect = late.reconnect = False
        await with_seat.close()
        await late.close()
        await wait_until(lambda: code not in hub.done, 10, "out of memory again")
        assert len(stored_events(h.data_dir, code)) == c.last_seq and hub.finished == 1

    try:
        asyncio.run(main())
    finally:
        h.stop()


@pytest.mark.slow
def test_an_abandoned_lobby_expires_and_frees_its_place(tmp_path: Path) -> None:
    h = start_background(tmp_path / "server", lobby_expiry=0.5)
    hub = _hub(h)
    hub.max_tables = 3

    async def main() -> None:
        host = SeatClient(h.url, "host")
        await host.connect()
        seated, _ = await host.create("scarto", 1, ["human", "random", "random"])
        await host.join(seated, 0)  # someone sits at it: it stays
        other = SeatClient(h.url, "other", reconnect=False)
        await other.connect()
        hosted, _ = await other.create("scarto", 1, ["human", "random", "random"])
        gone = SeatClient(h.url, "gone", reconnect=False)
        await gone.connect()
        abandoned, _ = await gone.create("scarto", 1, ["human", "random", "random"])
        with_full = SeatClient(h.url, "late")
        await with_full.connect()
        try:
            await with_full.create("scarto", 1, ["human", "random", "random"])
            raise AssertionError("a fourth table on a server of three")
        except ClientError as exc:
            assert exc.code == "server_full"
        await gone.close()
        await wait_until(lambda: abandoned not in hub.tables, 10, "the abandoned lobby expired")
        assert table_row(h.data_dir, abandoned)["status"] == "expired"
        await asyncio.sleep(1.0)  # two expiry periods: the others are still there
        assert seated in hub.tables and hosted in hub.tables  # a person at it; its host connected
        code, _ = await with_full.create("scarto", 1, ["human", "random", "random"])  # room again
        try:
            await with_full.join(abandoned, 0)
            raise AssertionError("joined an expired lobby")
        except ClientError as exc:
            assert exc.code == "unknown_table" and "expired" in str(exc)
        await other.close()  # its host gone too: now it expires
        await wait_until(lambda: hosted not in hub.tables, 10, "the host's lobby expired")
        assert hub.expired == 2 and table_row(h.data_dir, hosted)["status"] == "expired"
        for c in (host, with_full):
            await c.close()

    try:
        asyncio.run(main())
    finally:
        h.stop()


def test_a_restart_reloads_only_the_tables_in_play_and_in_the_lobby(tmp_path: Path) -> None:
    data = tmp_path / "server"
    h = start_background(data, lobby_expiry=0.5)
    codes: dict[str, str] = {}

    async def first() -> None:
        codes["over"], c = await _game(h.url)
        await c.close()
        p = SeatClient(h.url, "p", reconnect=False)
        await p.connect()
        codes["playing"], _ = await p.create("scarto", 1, ["human", "random", "random"])
        await p.join(codes["playing"], 0)
        await p.host("start")
        g = SeatClient(h.url, "g", reconnect=False)
        await g.connect()
        codes["expired"], _ = await g.create("scarto", 1, ["human", "random", "random"])
        await g.close()
        await wait_until(lambda: codes["expired"] not in _hub(h).tables, 10, "expired")
        await wait_until(lambda: codes["over"] not in _hub(h).done, 10, "forgotten")
        await p.close()

    asyncio.run(first())
    h.stop()
    h = start_background(data)  # a long expiry: the lobby reloaded stays
    try:
        loaded = set(_hub(h).tables)
        assert codes["playing"] in loaded
        assert codes["over"] not in loaded and codes["expired"] not in loaded
        db = sqlite3.connect(data / DB)
        statuses = dict(db.execute("SELECT code, status FROM tables").fetchall())
        db.close()
        assert statuses == {codes["over"]: "over", codes["playing"]: "playing",
                            codes["expired"]: "expired"}
        assert stored_events(data, codes["over"])  # never deleted
    finally:
        h.stop()


def test_the_bench_figures_take_their_memory_once() -> None:
    """The latest figures of the commits kept in a ring taken at the start: the
    newest overwrite the oldest, in order, and nothing grows."""
    r = Ring(4, 2)
    assert len(r) == 0 and r.column(0) == []
    for i in range(3):
        r.append(i, 10 * i)
    assert r.rows() == [(0, 0), (1, 10), (2, 20)]
    size = sys.getsizeof(r._data)
    for i in range(3, 11):
        r.append(i, 10 * i)
    assert len(r) == 4 and r.column(0) == [7, 8, 9, 10] and r.column(1) == [70, 80, 90, 100]
    assert sys.getsizeof(r._data) == size
    with pytest.raises(ValueError):
        r.append(1.0)


def test_a_new_table_never_takes_the_code_of_a_finished_one(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A finished game leaves memory, not the store: a new code that clashes with
    its code is drawn again, and the old game is still the one found by it."""
    import online.tables as tables_mod

    h = start_background(tmp_path / "server")

    async def main() -> None:
        old, c = await _game(h.url)
        await c.close()
        await wait_until(lambda: old not in _hub(h).tables and old not in _hub(h).done, 10,
                         "the finished table out of memory")
        draws = iter([old, old, "NEWAAA"])
        monkeypatch.setattr(tables_mod, "new_code", lambda: next(draws))
        host = SeatClient(h.url, "next")
        await host.connect()
        code, _ = await host.create("scarto", 1, ["human", "random", "random"])
        assert code == "NEWAAA"
        watcher = SeatClient(h.url, "w")
        await watcher.connect()
        seen = await watcher.join(old, None)
        assert seen["snapshot"]["seq"] == c.last_seq  # the old game, whole
        for x in (host, watcher):
            await x.close()

    try:
        asyncio.run(main())
    finally:
        h.stop()
