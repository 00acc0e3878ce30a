"""Failover on PostgreSQL: K server nodes on one database, games in
progress with clients spread over the nodes; SIGKILL the node that runs a table
at random moments (and start it again on its port, a new node).  Another node
takes the table over once the lease expired, rebuilds it from the log, the
clients reconnect through any node (redirected to the new owner) and every game
goes on to its end: 0 events lost (every event a client received is in the
log), 0 duplicated (each seq once, the same for every seat), each log a whole
game whose fold equals what every client folded, and every AI decision in the
log equals the one the AI makes again from the same view and seed.

The suite runs a short version (tests/test_online_pg_failover.py); the full run
starts its own throw-away cluster:

    python -m tests.support.online_pg_kill --kills 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg

from engine.replay import Header, event_from_json, format_replay, parse_replay, read_replay
from engine.ruleset import ruleset
from engine.state import State, apply, decide, due_event, new_game
from engine.view import seat_view
from online.bench import start_server
from online.bot import play, random_chooser
from online.client import SeatClient
from online.tables import choose
from tests.support.online_kill import check_received, received
from tests.support.pg_cluster import free_port, pg_cluster

ROOT = Path(__file__).resolve().parents[2]

TABLES = [
    ("piedicavallo", ["human", "random", "human", "random"]),
    ("scarto", ["human", "human", "random"]),
    ("piedicavallo", ["human", "human", "human", "human"]),
]


def start_node(dsn: str, data: Path, port: int = 0, lease: float = 2.0
               ) -> tuple[subprocess.Popen[str], str]:
    """``python -m online.server --db DSN`` (one node); returns it and its URL."""
    return start_server(data, port=port, db=dsn, lease=lease)


# --- the truth, from the database ---------------------------------------------------------


def pg_logs(dsn: str) -> dict[str, list[str]]:
    """Every table's log; asserts each seq is there once, with no gap."""
    out: dict[str, list[str]] = {}
    with psycopg.connect(dsn) as conn:
        for code, seq, ev in conn.execute(
                "SELECT t.code, e.seq, e.event FROM events e JOIN tables t ON t.id = e.table_id"
                " ORDER BY t.code, e.seq"):
            lst = out.setdefault(code, [])
            assert seq == len(lst) + 1, f"table {code}: a gap or a duplicate at seq {seq}"
            lst.append(ev)
    return out


def pg_table(dsn: str, code: str) -> dict[str, Any]:
    with psycopg.connect(dsn) as conn:
        row = conn.execute("SELECT id, variant, deals, seed, seats, status FROM tables"
                           " WHERE code = %s", (code,)).fetchone()
    assert row is not None, code
    return {"id": int(row[0]), "variant": row[1], "deals": row[2], "seed": int(row[3]),
            "seats": json.loads(row[4]), "status": row[5]}


def pg_owner(dsn: str, code: str) -> str | None:
    """The URL of the node that holds the table's lease now (None: nobody)."""
    with psycopg.connect(dsn) as conn:
        row = conn.execute("SELECT l.url FROM leases l JOIN tables t ON t.id = l.table_id"
                           " WHERE t.code = %s AND l.expires_at > now()", (code,)).fetchone()
    return None if row is None else str(row[0])


def export_to_sqlite(dsn: str, data: Path) -> Path:
    """A copy of the PostgreSQL store as the SQLite store's file in ``data``, so the
    single server's test helpers (tests/support/online_harness.py) check a node's frames
    unchanged."""
    import sqlite3

    from online.sqlite_store import SCHEMA

    data.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(data / "tarocchi.sqlite3")
    try:
        db.executescript(SCHEMA)
        with psycopg.connect(dsn) as conn:
            for row in conn.execute("SELECT id, code, variant, deals, seed, seats, settings,"
                                    " host_hash, status FROM tables"):
                db.execute("INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           (*row[:4], str(row[4]), *row[5:]))
            db.executemany("INSERT INTO events VALUES (?, ?, ?)",
                           conn.execute("SELECT table_id, seq, event FROM events").fetchall())
        db.commit()
    finally:
        db.close()
    return data


def check_received_in_log(dsn: str, tables: dict[str, dict[int, SeatClient]]) -> int:
    """Every event any client received is in the PostgreSQL log, as that seat sees it."""
    return check_received(pg_logs(dsn), lambda code: str(pg_table(dsn, code)["variant"]), tables)


def check_ai_decisions(seats: list[dict[str, Any]], st: State, events: list[Any]) -> int:
    """Every decision of an AI seat in the log is the one that AI makes again from
    the same view at the same seq (so a node that took over played the same game)."""
    n = 0
    for i, e in enumerate(events):
        if due_event(st) is None and st.turn >= 0 and seats[st.turn]["kind"] == "ai":
            cmd = choose(seats[st.turn]["level"], seat_view(st, st.turn), i)
            assert decide(st, cmd)[0] == e, f"seq {i + 1}: the AI of seat {st.turn} differs"
            n += 1
        st = apply(st, e)
    return n


# --- the run ---------------------------------------------------------------------------------


async def _wait_for_event(dsn: str, code: str, after: int, timeout: float) -> float:
    """Seconds until the table's log grows past ``after`` events (bounded)."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if len(pg_logs(dsn).get(code, [])) > after:
            return time.monotonic() - t0
        await asyncio.sleep(0.02)
    raise TimeoutError(f"table {code}: no event {timeout:g} s after the kill")


@dataclass
class _Nodes:
    """The server nodes of a run: node k listens on ports[k] at urls[k]; procs[k]
    is its live process (a new one after each kill)."""

    dsn: str
    data: Path
    lease: float
    ports: list[int]
    procs: list[subprocess.Popen[str]] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)


def _start_nodes(dsn: str, data: Path, nodes: int, lease: float) -> _Nodes:
    net = _Nodes(dsn, data, lease, [free_port() for _ in range(nodes)])
    for k, port in enumerate(net.ports):
        proc, url = start_node(dsn, data / f"node{k}", port, lease)
        net.procs.append(proc)
        net.urls.append(url)
    return net


def _stop_nodes(net: _Nodes, tasks: list[asyncio.Task[Any]]) -> None:
    for t in tasks:
        t.cancel()
    for p in net.procs:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
    for p in net.procs:
        try:
            p.wait(15)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(5)


async def _open_table(urls: list[str], i: int, variant: str,
                      seats: list[str]) -> tuple[str, dict[int, SeatClient]]:
    """Table ``i``: the host creates it at node i % K (which runs it); each other
    person first reaches another node, which redirects them."""
    nodes = len(urls)
    rules = ruleset(variant)
    order = urls[i % nodes:] + urls[:i % nodes]
    host = SeatClient(order, "host", record=True, max_backoff=0.2, max_attempts=10_000)
    await host.connect()
    code, _ = await host.create(variant, rules.full_game, seats, {})
    clients: dict[int, SeatClient] = {}
    for s, kind in enumerate(seats):
        if kind != "human":
            continue
        if clients:
            j = len(clients)
            mine = urls[(i + j) % nodes:] + urls[:(i + j) % nodes]
            c = SeatClient(mine, f"p{s}", record=True, max_backoff=0.2,
                           max_attempts=10_000)
            await c.connect()
        else:
            c = host
        await c.join(code, s)
        clients[s] = c
    await host.host("start")
    return code, clients


async def _open_tables(net: _Nodes, spec: list[tuple[str, list[str]]], seed: int,
                       think_ms: float, tables: dict[str, dict[int, SeatClient]],
                       tasks: list[asyncio.Task[Any]]) -> None:
    """Every table of ``spec`` into ``tables``, each human seat played by a random bot
    that thinks a while (its task into ``tasks``, at once, so a failure stops it)."""
    for i, (variant, seats) in enumerate(spec):
        code, clients = await _open_table(net.urls, i, variant, seats)
        tables[code] = clients
        for s, c in clients.items():
            think_rnd = random.Random(seed * 100 + i * 10 + s)
            tasks.append(asyncio.get_running_loop().create_task(
                play(c, random_chooser(seed * 1000 + i * 10 + s), timeout=600,
                     think=lambda r=think_rnd: r.uniform(0.0, think_ms / 1000))))


async def _kill_owner(net: _Nodes, code: str, k: int,
                      tables: dict[str, dict[int, SeatClient]], log: Any) -> float:
    """SIGKILL the node that runs ``code``, check the log, start a new node on its
    port; returns the seconds from the kill to the table's next event."""
    victim = net.urls.index(str(pg_owner(net.dsn, code)))
    os.kill(net.procs[victim].pid, signal.SIGKILL)
    net.procs[victim].wait(10)
    before = len(pg_logs(net.dsn).get(code, []))  # the dead node's last event
    checked = check_received_in_log(net.dsn, tables)
    try:
        secs = await _wait_for_event(net.dsn, code, before, 10 * net.lease + 30)
    finally:  # the killed node's port comes back as a new node
        net.procs[victim], url = start_node(net.dsn, net.data / f"node{victim}-{k}",
                                            net.ports[victim], net.lease)
        assert url == net.urls[victim]
    if log:
        print(f"kill {k + 1}: node {victim} ran {code} at seq {before}; the next event "
              f"{secs:.2f} s later ({checked} received events in the log)",
              file=log, flush=True)
    return secs


async def _kill_at_random(net: _Nodes, kills: int, rnd: random.Random,
                          tables: dict[str, dict[int, SeatClient]],
                          tasks: list[asyncio.Task[Any]], log: Any) -> list[float]:
    """Up to ``kills`` kills of a live table's node at random moments; returns the
    seconds from each kill to the next event of its table."""
    kill_to_event: list[float] = []
    for k in range(kills):
        await asyncio.sleep(rnd.uniform(0.2, 1.0))
        if all(t.done() for t in tasks):
            break
        live = [code for code in tables
                if pg_table(net.dsn, code)["status"] != "over"
                and pg_owner(net.dsn, code) in net.urls]
        if not live:
            continue
        code = rnd.choice(live)
        kill_to_event.append(await _kill_owner(net, code, k, tables, log))
    return kill_to_event


async def _check_table_end(dsn: str, data: Path, code: str, clients: dict[int, SeatClient],
                           stored: list[str]) -> dict[str, int]:
    """One table at the end: its log is a whole game, every AI decision in it is the
    AI's, the replay equals its fold, every node's replay file is the log, every
    client has every seq and its seat's view.  Closes the clients."""
    row = pg_table(dsn, code)
    rules = ruleset(row["variant"])
    events = [event_from_json(json.loads(t), rules) for t in stored]
    header = Header(row["seed"], ["x"] * rules.n_seats, row["deals"], {}, row["variant"])
    rp = parse_replay(format_replay(header, events))  # the reader's own checks
    assert len(rp.final.scores) == rules.full_game, "the game did not end"
    st = new_game(row["seed"], row["deals"], rules)
    got = {"events": len(events), "reconnects": 0, "redirects": 0,
           "ai_checked": check_ai_decisions(row["seats"], st, events)}
    for e in events:
        st = apply(st, e)
    assert rp.final == st  # the replay equals a fold of the log
    for f in data.glob(f"*/replays/{code}-{row['id']}.jsonl"):
        assert read_replay(f).events == events  # any node's replay file is the log
    for seat, c in clients.items():
        seqs = received(c)
        assert sorted(seqs) == list(range(1, len(events) + 1)), (code, seat, "a seq is missing")
        assert c.view == seat_view(st, seat)
        got["reconnects"] += c.reconnects
        got["redirects"] += c.redirects
        await c.close()
    return got


async def run(dsn: str, kills: int, seed: int = 1, nodes: int = 2, lease: float = 2.0,
              think_ms: float = 30.0, data: Path | None = None, log: Any = None,
              tables_spec: list[tuple[str, list[str]]] | None = None) -> dict[str, Any]:
    rnd = random.Random(seed)
    data = data or Path(tempfile.mkdtemp(prefix="tarocchi-pg-kill-"))
    net = _start_nodes(dsn, data, nodes, lease)
    tables: dict[str, dict[int, SeatClient]] = {}
    tasks: list[asyncio.Task[Any]] = []
    t_start = time.monotonic()
    try:
        await _open_tables(net, tables_spec or TABLES, seed, think_ms, tables, tasks)
        kill_to_event = await _kill_at_random(net, kills, rnd, tables, tasks, log)
        await asyncio.gather(*tasks)
    finally:
        _stop_nodes(net, tasks)
    # the end: every client's events are the log's; each log is a whole game
    checked = check_received_in_log(dsn, tables)
    logs = pg_logs(dsn)
    total = {"events": 0, "reconnects": 0, "redirects": 0, "ai_checked": 0}
    for code, clients in tables.items():
        got = await _check_table_end(dsn, data, code, clients, logs[code])
        total = {key: total[key] + got[key] for key in total}
    ms = sorted(1000 * s for s in kill_to_event)
    return {"nodes": nodes, "kills": len(kill_to_event), "tables": len(tables),
            "events": total["events"], "events_checked": checked,
            "ai_decisions_checked": total["ai_checked"], "lost": 0,
            "duplicated": 0, "reconnects": total["reconnects"], "redirects": total["redirects"],
            "lease_s": lease,
            "kill_to_next_event_ms_p50": round(statistics.median(ms)) if ms else None,
            "kill_to_next_event_ms_p95": round(ms[min(len(ms) - 1, int(0.95 * len(ms)))])
            if ms else None,
            "seconds": round(time.monotonic() - t_start, 1)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.support.online_pg_kill")
    p.add_argument("--kills", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--nodes", type=int, default=2)
    p.add_argument("--lease", type=float, default=2.0)
    p.add_argument("--think-ms", type=float, default=60.0)
    p.add_argument("--db", default=None, help="a postgresql:// URL (default: a throw-away cluster)")
    args = p.parse_args(argv)

    def go(dsn: str) -> dict[str, Any]:
        return asyncio.run(run(dsn, args.kills, args.seed, args.nodes, args.lease, args.think_ms,
                               log=sys.stderr))

    if args.db:
        result = go(args.db)
    else:
        with pg_cluster() as c:
            result = go(c.dsn)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
