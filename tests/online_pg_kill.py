"""Failover on PostgreSQL (issue 31): K server nodes on one database, games in
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

    python -m tests.online_pg_kill --kills 20
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
from pathlib import Path
from typing import Any

import psycopg

from engine.replay import Header, event_from_json, format_replay, parse_replay, read_replay
from engine.ruleset import ruleset
from engine.state import State, apply, decide, due_event, new_game
from engine.view import seat_view
from online.bot import play, random_chooser
from online.client import SeatClient
from online.tables import choose
from tests.online_kill import check_received, received
from tests.pg_cluster import free_port, pg_cluster

ROOT = Path(__file__).resolve().parent.parent

TABLES = [
    ("piedicavallo", ["human", "random", "human", "random"]),
    ("scarto", ["human", "human", "random"]),
    ("piedicavallo", ["human", "human", "human", "human"]),
]


def start_node(dsn: str, data: Path, port: int = 0, lease: float = 2.0
               ) -> tuple[subprocess.Popen[str], str]:
    """``python -m online.server --db DSN`` (one node); returns it and its URL."""
    cmd = [sys.executable, "-m", "online.server", "--db", dsn, "--data", str(data),
           "--port", str(port), "--rate", "1000", "--lease-seconds", str(lease)]
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    if not line.startswith("ws://"):
        proc.kill()
        proc.wait(10)
        raise RuntimeError(f"the node did not start: {line!r}")
    return proc, line


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
    single server's test helpers (tests/online_harness.py) check a node's frames
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


async def run(dsn: str, kills: int, seed: int = 1, nodes: int = 2, lease: float = 2.0,
              think_ms: float = 30.0, data: Path | None = None, log: Any = None,
              tables_spec: list[tuple[str, list[str]]] | None = None) -> dict[str, Any]:
    rnd = random.Random(seed)
    data = data or Path(tempfile.mkdtemp(prefix="tarocchi-pg-kill-"))
    ports = [free_port() for _ in range(nodes)]
    procs: list[subprocess.Popen[str]] = []
    urls: list[str] = []
    for k, port in enumerate(ports):
        proc, url = start_node(dsn, data / f"node{k}", port, lease)
        procs.append(proc)
        urls.append(url)
    tables: dict[str, dict[int, SeatClient]] = {}
    seats_of: dict[str, list[str]] = {}
    tasks = []
    kill_to_event: list[float] = []
    done_kills = 0
    t_start = time.monotonic()
    try:
        for i, (variant, seats) in enumerate(tables_spec or TABLES):
            rules = ruleset(variant)
            # the host creates the table at node i % K (which runs it); each other
            # person first reaches another node, which redirects them
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
            tables[code] = clients
            seats_of[code] = seats
            for s, c in clients.items():
                think_rnd = random.Random(seed * 100 + i * 10 + s)
                tasks.append(asyncio.get_running_loop().create_task(
                    play(c, random_chooser(seed * 1000 + i * 10 + s), timeout=600,
                         think=lambda r=think_rnd: r.uniform(0.0, think_ms / 1000))))
        for k in range(kills):
            await asyncio.sleep(rnd.uniform(0.2, 1.0))
            if all(t.done() for t in tasks):
                break
            live = [code for code in tables
                    if pg_table(dsn, code)["status"] != "over" and pg_owner(dsn, code) in urls]
            if not live:
                continue
            code = rnd.choice(live)
            victim = urls.index(str(pg_owner(dsn, code)))
            os.kill(procs[victim].pid, signal.SIGKILL)
            procs[victim].wait(10)
            before = len(pg_logs(dsn).get(code, []))  # the dead node's last event
            done_kills += 1
            checked = check_received_in_log(dsn, tables)
            try:
                secs = await _wait_for_event(dsn, code, before, 10 * lease + 30)
            finally:  # the killed node's port comes back as a new node
                procs[victim], url = start_node(dsn, data / f"node{victim}-{k}", ports[victim],
                                                lease)
                assert url == urls[victim]
            kill_to_event.append(secs)
            if log:
                print(f"kill {k + 1}: node {victim} ran {code} at seq {before}; the next event "
                      f"{secs:.2f} s later ({checked} received events in the log)",
                      file=log, flush=True)
        await asyncio.gather(*tasks)
    finally:
        for t in tasks:
            t.cancel()
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(5)
    # the end: every client's events are the log's; each log is a whole game
    checked = check_received_in_log(dsn, tables)
    logs = pg_logs(dsn)
    events_total = reconnects = redirects = ai_checked = 0
    for code, clients in tables.items():
        row = pg_table(dsn, code)
        rules = ruleset(row["variant"])
        events = [event_from_json(json.loads(t), rules) for t in logs[code]]
        events_total += len(events)
        header = Header(row["seed"], ["x"] * rules.n_seats, row["deals"], {}, row["variant"])
        rp = parse_replay(format_replay(header, events))  # the reader's own checks
        assert len(rp.final.scores) == rules.full_game, "the game did not end"
        st = new_game(row["seed"], row["deals"], rules)
        ai_checked += check_ai_decisions(row["seats"], st, events)
        for e in events:
            st = apply(st, e)
        assert rp.final == st  # the replay equals a fold of the log
        for f in data.glob(f"*/replays/{code}-{row['id']}.jsonl"):
            assert read_replay(f).events == events  # any node's replay file is the log
        for seat, c in clients.items():
            got = received(c)
            assert sorted(got) == list(range(1, len(events) + 1)), (code, seat, "a seq is missing")
            assert c.view == seat_view(st, seat)
            reconnects += c.reconnects
            redirects += c.redirects
            await c.close()
    ms = sorted(1000 * s for s in kill_to_event)
    return {"nodes": nodes, "kills": done_kills, "tables": len(tables), "events": events_total,
            "events_checked": checked, "ai_decisions_checked": ai_checked, "lost": 0,
            "duplicated": 0, "reconnects": reconnects, "redirects": redirects,
            "lease_s": lease,
            "kill_to_next_event_ms_p50": round(statistics.median(ms)) if ms else None,
            "kill_to_next_event_ms_p95": round(ms[min(len(ms) - 1, int(0.95 * len(ms)))])
            if ms else None,
            "seconds": round(time.monotonic() - t_start, 1)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.online_pg_kill")
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
