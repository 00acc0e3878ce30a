"""SIGKILL the server at random moments of games in progress and restart it on
the same data folder: every event any client had received must still be in the
store, the clients reconnect by themselves, and the games go on to the end with
0 events lost and 0 duplicated.

The suite runs a short version (tests/test_online_kill.py); the full run:

    python -m tests.support.online_kill --kills 30
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.replay import Header, event_from_json, format_replay, parse_replay, read_replay
from engine.ruleset import ruleset
from engine.view import seat_event, seat_view
from online.bench import start_server
from online.bot import play, random_chooser
from online.client import SeatClient
from online.protocol import event_from_wire

TABLES = [
    ("piedicavallo", ["human", "random", "human", "random"]),
    ("scarto", ["human", "human", "random"]),
    ("piedicavallo", ["human", "human", "human", "human"]),
]


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = int(s.getsockname()[1])
    s.close()
    return port


def _store(data: Path) -> dict[str, list[str]]:
    db = sqlite3.connect(data / "tarocchi.sqlite3")
    try:
        out: dict[str, list[str]] = {}
        for code, seq, ev in db.execute(
            "SELECT t.code, e.seq, e.event FROM events e JOIN tables t ON t.id = e.table_id"
            " ORDER BY t.code, e.seq"
        ):
            lst = out.setdefault(code, [])
            assert seq == len(lst) + 1, f"table {code}: a gap or a duplicate at seq {seq}"
            lst.append(ev)
        return out
    finally:
        db.close()


def received(c: SeatClient) -> dict[int, dict[str, Any]]:
    """seq -> the event a client received (the same seq twice must be the same event)."""
    out: dict[int, dict[str, Any]] = {}
    for raw in c.frames:
        msg = json.loads(raw)
        if msg.get("type") == "event":
            seq = msg["seq"]
            if seq in out:
                assert out[seq] == msg["event"], f"seq {seq} came twice, different"
            out[seq] = msg["event"]
    return out


def check_received(logs: dict[str, list[str]], variant_of: Callable[[str], str],
                   tables: dict[str, dict[int, SeatClient]]) -> int:
    """Every event any client received is in its table's log (``logs``: code ->
    the stored events' JSON, in seq order), as that seat sees it; any store."""
    n = 0
    for code, clients in tables.items():
        log = logs.get(code, [])
        rules = ruleset(variant_of(code)) if log else None
        for seat, c in clients.items():
            for seq, ev in received(c).items():
                assert seq <= len(log), f"table {code} seat {seat}: seq {seq} was sent, not stored"
                assert rules is not None
                full = event_from_json(json.loads(log[seq - 1]), rules)
                assert event_from_wire(ev, rules) == seat_event(full, seat, rules), (code, seq)
                n += 1
    return n


def check_received_in_store(data: Path, tables: dict[str, dict[int, SeatClient]]) -> int:
    """Every event any client received is in the SQLite store, as that seat sees it."""
    return check_received(_store(data), lambda code: _variant(data, code), tables)


def _variant(data: Path, code: str) -> str:
    db = sqlite3.connect(data / "tarocchi.sqlite3")
    try:
        return str(db.execute("SELECT variant FROM tables WHERE code = ?", (code,)).fetchone()[0])
    finally:
        db.close()


async def _open_table(url: str, variant: str,
                      seats: list[str]) -> tuple[str, dict[int, SeatClient]]:
    """Create and start one table; returns its code and a client for each human seat."""
    rules = ruleset(variant)
    host = SeatClient(url, "host", record=True, max_backoff=0.2, max_attempts=10_000)
    await host.connect()
    code, _ = await host.create(variant, rules.full_game, seats, {})
    clients: dict[int, SeatClient] = {}
    for s, kind in enumerate(seats):
        if kind != "human":
            continue
        c = host if not clients else SeatClient(url, f"p{s}", record=True, max_backoff=0.2,
                                                max_attempts=10_000)
        if clients:
            await c.connect()
        await c.join(code, s)
        clients[s] = c
    await host.host("start")
    return code, clients


async def _open_tables(url: str, seed: int, think_ms: float, play_timeout: float,
                       ) -> tuple[dict[str, dict[int, SeatClient]], list[asyncio.Task[Any]]]:
    """Every table of TABLES, each human seat played by a random bot that thinks a while."""
    tables: dict[str, dict[int, SeatClient]] = {}
    tasks = []
    for i, (variant, seats) in enumerate(TABLES):
        code, clients = await _open_table(url, variant, seats)
        tables[code] = clients
        for s, c in clients.items():
            think_rnd = random.Random(seed * 100 + i * 10 + s)
            tasks.append(asyncio.get_running_loop().create_task(
                play(c, random_chooser(seed * 1000 + i * 10 + s), timeout=play_timeout,
                     think=lambda r=think_rnd: r.uniform(0.0, think_ms / 1000))))
    return tables, tasks


async def _check_table_end(data: Path, code: str, clients: dict[int, SeatClient],
                           stored: list[str]) -> tuple[int, int]:
    """One table at the end: its log is a whole valid game, the same as its replay
    file, and every client has every seq and the view the log gives its seat.
    Returns (events, reconnects); closes the clients."""
    variant = _variant(data, code)
    rules = ruleset(variant)
    events = [event_from_json(json.loads(t), rules) for t in stored]
    rp = parse_replay(format_replay(Header(0, ["x"] * rules.n_seats, rules.full_game, {},
                                           variant), events))
    assert len(rp.final.scores) == rules.full_game, "the game did not end"
    db = sqlite3.connect(data / "tarocchi.sqlite3")
    seed_ = int(db.execute("SELECT seed FROM tables WHERE code = ?", (code,)).fetchone()[0])
    tid = int(db.execute("SELECT id FROM tables WHERE code = ?", (code,)).fetchone()[0])
    db.close()
    files = list((data / "replays").glob(f"{code}-{tid}.jsonl"))
    assert files, f"no replay file for {code}"
    assert read_replay(files[0]).events == events
    from engine.state import apply, new_game

    st = new_game(seed_, rules.full_game, rules)
    for e in events:
        st = apply(st, e)
    reconnects = 0
    for seat, c in clients.items():
        got = received(c)
        assert sorted(got) == list(range(1, len(events) + 1)), (code, seat, "a seq is missing")
        assert c.view == seat_view(st, seat)
        reconnects += c.reconnects
        await c.close()
    return len(events), reconnects


async def run(kills: int, seed: int = 1, data: Path | None = None, log: Any = None,
              think_ms: float = 20.0, play_timeout: float = 600.0) -> dict[str, Any]:
    rnd = random.Random(seed)
    data = data or Path(tempfile.mkdtemp(prefix="tarocchi-kill-"))
    port = free_port()
    proc, url = start_server(data, port=port)
    tables, tasks = await _open_tables(url, seed, think_ms, play_timeout)
    checked = 0
    done_kills = 0
    t_start = time.monotonic()
    for k in range(kills):
        await asyncio.sleep(rnd.uniform(0.05, 0.6))
        if all(t.done() for t in tasks):
            break
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        done_kills += 1
        checked += check_received_in_store(data, tables)
        if log:
            print(f"kill {k + 1}: store {sum(len(v) for v in _store(data).values())} events",
                  file=log, flush=True)
        proc, url2 = start_server(data, port=port)
        assert url2 == url
    try:
        await asyncio.gather(*tasks)
    finally:
        os.kill(proc.pid, signal.SIGTERM)
        proc.wait(10)
    # the end: every client's events are the store's; each table's log is a whole valid game
    checked += check_received_in_store(data, tables)
    store = _store(data)
    events_total = 0
    reconnects = 0
    for code, clients in tables.items():
        n_events, n_reconnects = await _check_table_end(data, code, clients, store[code])
        events_total += n_events
        reconnects += n_reconnects
    return {"kills": done_kills, "tables": len(tables), "events": events_total,
            "events_checked": checked, "lost": 0, "duplicated": 0, "reconnects": reconnects,
            "seconds": round(time.monotonic() - t_start, 1)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.support.online_kill")
    p.add_argument("--kills", type=int, default=30)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--think-ms", type=float, default=60.0)
    args = p.parse_args(argv)
    result = asyncio.run(run(args.kills, args.seed, log=sys.stderr, think_ms=args.think_ms))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
