"""How a running server says how it is (online/metrics.py, online/logs.py):
``/metrics`` read while games run (the figures move, and agree with each
other), ``/healthz`` following PostgreSQL down and back, and the log's lines per
table and per limit hit as JSON lines."""

from __future__ import annotations

import asyncio
import http.client
import json
import logging
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import connect

from online.bot import play, random_chooser
from online.client import ClientError, SeatClient
from online.protocol import PROTOCOL_VERSION
from online.server import ServerHandle, start_background

ROOT = Path(__file__).resolve().parent.parent


def _get(port: int, path: str, timeout: float = 10.0) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        return r.status, r.read().decode()
    finally:
        conn.close()


def _figures(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of /metrics, parsed by prometheus_client's own parser."""
    status, text = _get(port, "/metrics")
    assert status == 200
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def _one(figs: dict, name: str, **labels: str) -> float:
    return figs.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerHandle]:
    handle = start_background(tmp_path / "srv", port=0)
    try:
        yield handle
    finally:
        handle.stop()


async def _table(url: str, seed: int, ready: asyncio.Event) -> str:
    """Three people and a random AI seat, thinking a little before each move."""
    clients = [SeatClient(url, f"p{s}") for s in range(3)]
    for c in clients:
        await c.connect(10)
    code, _ = await clients[0].create("piedicavallo", 1, ["human", "human", "human", "random"])
    for s, c in enumerate(clients):
        await c.join(code, s)
    await clients[0].host("start")
    ready.set()
    rnd = random.Random(seed)
    await asyncio.gather(*(play(c, random_chooser(seed + s), timeout=120,
                                think=lambda: rnd.uniform(0.0, 0.03))
                           for s, c in enumerate(clients)))
    for c in clients:
        await c.close()
    return code


async def _games_watched(server: ServerHandle) -> tuple[list[dict], dict]:
    port = server.port
    ready = [asyncio.Event(), asyncio.Event()]
    games = [asyncio.create_task(_table(server.url, 10 * i, ready[i])) for i in range(2)]
    await asyncio.gather(*(r.wait() for r in ready))
    stray = SeatClient(server.url, "stray", reconnect=False)
    await stray.connect(10)
    with pytest.raises(ClientError):
        await stray.join("ZZZZZZ", 0)  # unknown_table, counted as a refusal
    await stray.close()
    seen = []
    while not all(g.done() for g in games) and len(seen) < 400:
        seen.append(await asyncio.to_thread(_figures, port))
        health = await asyncio.to_thread(_get, port, "/healthz")
        assert health == (200, "ok\n")
        await asyncio.sleep(0.05)
    codes = await asyncio.gather(*games)
    assert len(set(codes)) == 2
    return seen, await asyncio.to_thread(_figures, port)


def test_the_metrics_move_while_games_run(server: ServerHandle,
                                          caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="tarocchi.online")
    seen, end = asyncio.run(_games_watched(server))
    assert len(seen) >= 3, "the games ended before they could be watched"
    during = seen[0]
    assert _one(during, "tarocchi_tables", state="playing") == 2
    assert _one(during, "tarocchi_connections") >= 6
    commits = [_one(f, "tarocchi_commits_total") for f in seen]
    assert commits == sorted(commits) and commits[-1] > commits[0]  # they moved
    # at the end: both finished, every append counted once and timed once
    assert _one(end, "tarocchi_tables_started_total") == 2
    assert _one(end, "tarocchi_tables_finished_total") == 2
    assert _one(end, "tarocchi_tables", state="playing") == 0
    n = _one(end, "tarocchi_commits_total")
    assert _one(end, "tarocchi_commit_seconds_count") == n
    assert _one(end, "tarocchi_moves_total") == n - 2  # every append but each table's deal
    assert _one(end, "tarocchi_events_total") > n
    ai = _one(end, "tarocchi_ai_decisions_total", level="random")
    assert ai > 0 and _one(end, "tarocchi_ai_decision_seconds_count") == ai
    assert _one(end, "tarocchi_refusals_total", code="unknown_table") == 1
    assert _one(end, "tarocchi_connections") == 0
    assert _one(end, "process_resident_memory_bytes") > 0
    started = [r for r in caplog.records if getattr(r, "event", "") == "table_started"]
    finished = [r for r in caplog.records if getattr(r, "event", "") == "table_finished"]
    assert len(started) == len(finished) == 2
    assert {r.fields["code"] for r in started} == {r.fields["code"] for r in finished}
    assert all(r.fields["people"] == 3 and r.fields["ai"] == 1 for r in started)


@pytest.mark.slow
def test_healthz_follows_postgresql_down_and_back(tmp_path: Path) -> None:
    from tests.support.pg_cluster import PgCluster
    from tests.support.prereq import POSTGRESQL_DIRS, require_program

    initdb = require_program("initdb", "postgresql", extra_dirs=POSTGRESQL_DIRS)
    require_program("pg_ctl", "postgresql", extra_dirs=POSTGRESQL_DIRS)
    cluster = PgCluster(initdb)
    handle = None
    try:
        cluster.start()
        handle = start_background(tmp_path / "node", port=0, db=cluster.dsn)
        assert _get(handle.port, "/healthz") == (200, "ok\n")
        cluster.halt()
        answers = _until_status(handle.port, 503)
        print("PostgreSQL stopped:", answers[-1])
        assert answers[-1][1].startswith("store: unavailable")
        assert str(cluster.port) not in answers[-1][1]  # the page is public: no host, no port
        cluster.resume()
        answers = _until_status(handle.port, 200)
        assert answers[-1] == (200, "ok\n")
        figs = _figures(handle.port)  # the node's metrics answer too
        assert _one(figs, "tarocchi_tables", state="lobby") == 0
    finally:
        if handle is not None:
            handle.stop()
        cluster.stop()


def _until_status(port: int, want: int, seconds: float = 30.0) -> list[tuple[int, str]]:
    """GET /healthz until it answers ``want``; each answer is bounded in time."""
    answers = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t0 = time.monotonic()
        answers.append(_get(port, "/healthz"))
        took = time.monotonic() - t0
        print(f"/healthz {answers[-1][0]} in {took * 1000:.0f} ms")
        if answers[-1][0] == want:
            return answers
        time.sleep(0.2)
    raise AssertionError(f"/healthz never answered {want}: {answers[-3:]}")


async def _flood_and_a_game(url: str) -> None:
    async with connect(url, open_timeout=10) as ws:  # more than the burst at once
        await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION, "name": "x"}))
        for i in range(60):
            await ws.send(json.dumps({"type": "ping", "t": i}))
        with pytest.raises(Exception):  # noqa: B017 - closed by the server, 1008
            for _ in range(200):
                await asyncio.wait_for(ws.recv(), 10)
    host = SeatClient(url, "host")
    await host.connect(10)
    code, _ = await host.create("piedicavallo", 1, ["random"] * 4)
    await host.join(code, None)
    await host.host("start")
    end = time.monotonic() + 60
    while host.over is None:
        assert time.monotonic() < end
        await asyncio.sleep(0.05)
    await host.close()


@pytest.mark.slow
def test_the_log_says_tables_and_limits_in_json_lines(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "game.cli", "serve", "--port", "0", "--data", str(tmp_path),
         "--log-format", "json", "--rate", "2"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"))
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().strip()
        assert url.startswith("ws://"), url
        asyncio.run(_flood_and_a_game(url))
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    lines = [json.loads(line) for line in err.splitlines() if line.strip()]  # every line JSON
    by_event: dict[str, list[dict]] = {}
    for e in lines:
        assert {"time", "level", "event", "msg"} <= e.keys()
        by_event.setdefault(e["event"], []).append(e)
    hit = by_event["limit_hit"]
    assert len(hit) == 1  # one line, however many messages the flood sent past it
    assert hit[0]["limit"] == "rate" and hit[0]["address"] == "127.0.0.1"
    started, finished = by_event["table_started"], by_event["table_finished"]
    assert len(started) == len(finished) == 1 and started[0]["code"] == finished[0]["code"]
    assert started[0]["ai"] == 4 and started[0]["variant"] == "piedicavallo"
