"""``tarocchi bench server``: a server in a subprocess and N tables of headless
clients (one asyncio process) playing random legal cards on loopback to the end
of a deal, with a jittered think time; one JSON line of figures.

Latency (``p50_ms``, ``p95_ms``) is from a command sent to its event received by
every seat of the table.  ``server_cpu_ms_per_move`` is the server process's
user + system CPU time over the play, divided by the moves.  With ``--think-ms
0`` the clients answer at once: a closed loop that measures saturation
(``moves_per_s``), where latency is queueing.

With ``--db postgresql://...`` the servers are K nodes of one service on that
database (``--nodes K``, online/cluster.py): table i is created at node i % K,
which runs it, and its clients know every node (the first they try is that one).
PostgreSQL's own share is measured beside the nodes' (online/bench_db.py):
``db_cpu_ms_per_move`` (its processes' CPU, when it runs on this machine) and
``db_commits_per_s``.  ``server_log_warnings`` counts the nodes' log lines that
warn (a table dropped, a lease lost).  ``--ai-seats M`` gives the last M seats of every table to the server's AI
(``--ai-level``, ``--ai-workers`` processes a node): the latency is still that of
the people's commands, and ``ai_decisions_per_s_per_node`` is what the nodes
decided.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.replay import ReplayError, read_replay
from engine.ruleset import ruleset

from .bench_db import DbProbe
from .bot import play, random_chooser
from .client import SeatClient
from .serve_options import DB_CONNECTIONS

CONNECT_AT_ONCE = 64
#: every client of a bench comes from one address: the limits per address lifted
ONE_ADDRESS = ["--per-address-connections", "100000", "--per-address-lobbies", "100000",
               "--per-address-rate", "100000", "--wrong-codes", "100000"]


def raise_open_files(want: int) -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < want:
        new = want if hard == resource.RLIM_INFINITY else min(want, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
        soft = new
    return soft


def cpu_ms(pid: int) -> float:
    """User + system CPU of a process, in ms (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) * 1000.0 / ticks


def start_server(data: Path, *, pin: bool = False, synchronous: str = "FULL",
                 rate: float = 1000.0, port: int = 0, db: str | None = None,
                 lease: float = 5.0, ai_workers: int = 1,
                 db_connections: int = DB_CONNECTIONS, ai_ms: int | None = None,
                 options: Sequence[str] = ONE_ADDRESS) -> tuple[subprocess.Popen[str], str]:
    """``python -m online.server`` on a free port (a node of ``db`` if given), with
    ``options`` of ``tarocchi serve`` (default: the limits per address lifted);
    returns it and its URL.  It writes its figures to ``data/stats.json`` when
    stopped (SIGTERM)."""
    cmd = [sys.executable, "-m", "online.server", "--data", str(data), "--port", str(port),
           "--rate", str(rate), "--synchronous", synchronous, "--ai-workers", str(ai_workers),
           *options]
    if db:
        cmd += ["--db", db, "--lease-seconds", str(lease), "--db-connections", str(db_connections)]
    if ai_ms is not None:
        cmd += ["--ai-ms", str(ai_ms)]
    if pin and shutil.which("taskset"):
        cmd = ["taskset", "-c", "0", *cmd]
    root = Path(__file__).resolve().parent.parent
    data.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, PYTHONPATH=str(root) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               TAROCCHI_SERVER_STATS=str(data / "stats.json"))
    with open(data / "server.log", "w") as log:  # its log (a line a table) kept aside
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=log, text=True, cwd=root,
                                env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    if not line.startswith("ws://"):
        proc.kill()
        proc.wait(10)
        said = (data / "server.log").read_text(errors="replace").strip().splitlines()[-3:]
        raise RuntimeError(f"the server did not start: {line!r} {' '.join(said)}")
    return proc, line


class TableRun:
    def __init__(self, n_seats: int) -> None:
        self.n = n_seats
        self.sent: dict[int, float] = {}  # seq of the event a command will make -> time sent
        self.got: dict[int, int] = {}
        self.latencies: list[float] = []
        self.events = 0

    def on_send(self, seq: int) -> None:
        self.sent[seq + 1] = time.perf_counter()

    def on_event(self, seq: int) -> None:
        k = self.got.get(seq, 0) + 1
        if k == 1:
            self.events += 1
        if k == self.n:
            self.got.pop(seq, None)
            t = self.sent.pop(seq, None)
            if t is not None:
                self.latencies.append(time.perf_counter() - t)
        else:
            self.got[seq] = k


async def _one_table(urls: list[str], variant: str, seats: list[str],
                     think: tuple[float, float], seed: int, sem: asyncio.Semaphore,
                     ready: asyncio.Event, started: list[int], timeout: float
                     ) -> tuple[TableRun, bool, str]:
    """One table: created at ``urls[0]``, one client a ``human`` seat (the others
    are the server's AI), each playing random legal cards to the end."""
    people = [s for s, kind in enumerate(seats) if kind == "human"]
    run = TableRun(len(people))
    clients: list[SeatClient] = []
    rnd = random.Random(seed)

    def hook(msg: dict[str, Any]) -> None:
        if msg.get("type") == "event":
            run.on_event(msg["seq"])

    try:
        async with sem:
            for s in people:
                c = SeatClient(urls, f"b{s}", on_message=hook, max_backoff=1.0)
                clients.append(c)
                await c.connect(30)
            code, _ = await clients[0].create(variant, 1, seats)
            for s, c in zip(people, clients, strict=True):
                await c.join(code, s)
    except BaseException:  # this table could not be set up: close what it opened
        for c in clients:
            await c.close()
        raise
    started[0] += 1
    await ready.wait()
    await clients[0].host("start")
    lo, hi = think

    def thinking() -> float:
        return rnd.uniform(lo, hi)

    finished = True
    try:
        await asyncio.gather(*(
            play(c, random_chooser(seed * 10 + s), timeout=timeout,
                 think=thinking if hi > 0 else None, on_send=run.on_send)
            for s, c in zip(people, clients, strict=True)))
    except (TimeoutError, Exception):
        finished = False
    for c in clients:
        c.on_message = None
        await c.close()
    return run, finished, code


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


async def _bench(urls: list[str], tables: int, variant: str, seats: list[str],
                 think: tuple[float, float], timeout: float, pids: list[int],
                 probe: DbProbe | None = None) -> dict[str, Any]:
    """Table i is created at node i % K (its clients try that node first)."""
    sem = asyncio.Semaphore(CONNECT_AT_ONCE)
    ready = asyncio.Event()
    started = [0]
    k = len(urls)
    tasks = [asyncio.get_running_loop().create_task(
        _one_table(urls[i % k:] + urls[:i % k], variant, seats, think, 1000 + i, sem, ready,
                   started, timeout))
        for i in range(tables)]
    # every table set up (or failed: a failed one never starts, and must not hold
    # the others back) before the play begins together
    while started[0] + sum(1 for t in tasks if t.done()) < tables:
        await asyncio.sleep(0.05)
    db0 = probe.snapshot() if probe else None
    cpu0 = [cpu_ms(p) for p in pids]
    me0 = time.process_time()
    t0 = time.perf_counter()
    ready.set()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    wall = time.perf_counter() - t0
    cpu = [cpu_ms(p) - c for p, c in zip(pids, cpu0, strict=True)]
    db1 = probe.snapshot(wait_for_stats=True) if probe else None
    runs = [r for r in results if isinstance(r, tuple)]
    lat = [x for r, _, _ in runs for x in r.latencies]
    events = sum(r.events for r, _, _ in runs)
    moves = len(lat)
    return {
        "tables": tables,
        "finished": sum(1 for _, ok, _ in runs if ok),
        "nodes": k,
        "seats": seats,
        "connections": tables * seats.count("human"),
        "variant": variant,
        "think_ms": [int(think[0] * 1000), int(think[1] * 1000)],
        "seconds": round(wall, 2),
        "moves": moves,
        "events": events,
        "events_per_s": round(events / wall, 1),
        "moves_per_s": round(moves / wall, 1),
        "p50_ms": round(_pct(lat, 0.50) * 1000, 2),
        "p95_ms": round(_pct(lat, 0.95) * 1000, 2),
        "p99_ms": round(_pct(lat, 0.99) * 1000, 2),
        # the people's moves only: the AI's cost is in ai_* below
        "server_cpu_ms_per_move": round(sum(cpu) / max(1, moves), 3),
        "server_cpu_percent": round(sum(cpu) / 10 / wall, 1),
        "node_cpu_percent": [round(c / 10 / wall, 1) for c in cpu],
        "client_cpu_percent": round((time.process_time() - me0) * 100 / wall, 1),
        **(probe.figures(db0, db1, moves, wall) if probe and db0 and db1 else {}),
        "_codes": [code for _, ok, code in runs if ok],
    }


def parse_think(text: str) -> tuple[float, float]:
    """``LO-HI`` (or one figure) in ms, each finite, 0 <= LO <= HI <= a minute."""
    parts = text.split("-")
    try:
        if len(parts) > 2 or len(text) > 40:
            raise ValueError
        lo = float(parts[0])
        hi = float(parts[1]) if len(parts) > 1 else lo
    except ValueError:
        raise argparse.ArgumentTypeError(f"--think-ms is LO-HI in ms, not {text[:40]!r}") from None
    if not (math.isfinite(lo) and math.isfinite(hi)) or lo < 0 or hi < lo or hi > 60_000:
        raise argparse.ArgumentTypeError(
            f"--think-ms is LO-HI with 0 <= LO <= HI <= 60000 ms, not {text[:40]!r}")
    return lo / 1000, hi / 1000


def table_seats(variant: str, ai_seats: int, ai_level: str) -> list[str]:
    """The seats of every bench table: people first, the last ``ai_seats`` the AI's."""
    n = ruleset(variant).n_seats
    if not 0 <= ai_seats < n:
        raise ValueError(f"--ai-seats: 0 to {n - 1} at a {variant} table (one seat is a person's)")
    return ["human"] * (n - ai_seats) + [ai_level] * ai_seats


def _replays(data: Path, expected: int) -> list[Path]:
    """The replay files every node wrote (they appear a moment after the end)."""
    deadline = time.monotonic() + 30
    files: list[Path] = []
    while time.monotonic() < deadline:
        files = sorted(data.glob("node*/replays/*.jsonl"))
        if len(files) >= expected:
            break
        time.sleep(0.1)
    return files


def _accepted(files: list[Path]) -> int:
    ok = 0
    for p in files:
        try:
            read_replay(p)
            ok += 1
        except ReplayError:
            pass
    return ok


def _node_stats(data: Path, nodes: int) -> list[dict[str, Any]]:
    out = []
    for k in range(nodes):
        f = data / f"node{k}" / "stats.json"
        out.append(json.loads(f.read_text()) if f.exists() else {})
    return out


def _log_warnings(data: Path) -> int:
    """Lines of the nodes' logs that warn or report an error (a table dropped, ...)."""
    n = 0
    for f in data.glob("node*/server.log"):
        n += sum(1 for line in f.read_text(errors="replace").splitlines()
                 if " WARNING " in line or " ERROR " in line)
    return n


def _ai_figures(stats: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
    decisions = [int(s.get("ai_decisions", 0)) for s in stats]
    return {  # one entry a node, in node order (None: the node decided nothing)
        "ai_decisions": sum(decisions),
        "ai_decisions_per_s_per_node": [round(d / seconds, 2) for d in decisions],
        "ai_ms_p50": [s.get("ai_ms_p50") for s in stats],
        "ai_ms_p95": [s.get("ai_ms_p95") for s in stats],
    }


def _stop(procs: list[subprocess.Popen[str]]) -> None:
    for proc in procs:
        proc.terminate()  # SIGTERM: the node writes its stats and gives its leases back
    for proc in procs:
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def run_bench(tables: int, variant: str, think: tuple[float, float] = (0.25, 0.75),
              out: str | None = None, pin: bool = False, synchronous: str = "FULL",
              timeout: float = 900.0, *, db: str | None = None, nodes: int = 1,
              ai_seats: int = 0, ai_level: str = "medium", ai_workers: int = 1,
              db_connections: int = DB_CONNECTIONS, ai_ms: int | None = None) -> dict[str, Any]:
    """Start the server (SQLite) or ``nodes`` nodes on ``db`` (PostgreSQL), play
    ``tables`` tables to their end, stop the servers; the figures as a dict."""
    if nodes > 1 and not db:
        raise ValueError("--nodes: several nodes share one PostgreSQL database: give --db")
    seats = table_seats(variant, ai_seats, ai_level)
    raise_open_files(tables * len(seats) * 2 + 256)
    data = Path(tempfile.mkdtemp(prefix="tarocchi-bench-"))
    procs: list[subprocess.Popen[str]] = []
    urls: list[str] = []
    try:
        for k in range(nodes):
            proc, url = start_server(data / f"node{k}", pin=pin, synchronous=synchronous, db=db,
                                     ai_workers=ai_workers, db_connections=db_connections,
                                     ai_ms=ai_ms)
            procs.append(proc)
            urls.append(url)
        if pin:
            try:
                os.sched_setaffinity(0, {1})
            except (AttributeError, OSError):
                pass
        probe = DbProbe(db) if db else None
        try:
            result = asyncio.run(_bench(urls, tables, variant, seats, think, timeout,
                                        [p.pid for p in procs], probe))
        finally:
            if probe is not None:
                probe.close()
        result["store"] = "postgresql" if db else "sqlite"
        codes = result.pop("_codes")
        files = _replays(data, len(codes))
        result["replays"] = len(files)
        result["replays_accepted"] = _accepted(files)
        if out:
            o = Path(out)
            o.mkdir(parents=True, exist_ok=True)
            for p in files:
                shutil.copy2(p, o / p.name)
        _stop(procs)
        procs = []
        stats = _node_stats(data, nodes)
        result["server"] = stats[0] if nodes == 1 else stats
        result["server_log_warnings"] = _log_warnings(data)
        if ai_seats:
            result.update(_ai_figures(stats, result["seconds"]))
    finally:
        _stop(procs)
        shutil.rmtree(data, ignore_errors=True)
    return result


def _refused_combination(args: argparse.Namespace) -> str:
    """Options that would be accepted and then ignored, refused instead."""
    if args.nodes > 1 and not args.db:
        return "--nodes: several nodes share one PostgreSQL database: give --db postgresql://..."
    if args.db_connections != DB_CONNECTIONS and not args.db:
        return "--db-connections is for PostgreSQL nodes: give --db postgresql://..."
    if args.synchronous != "FULL" and args.db:
        return "--synchronous is SQLite's; PostgreSQL commits are always durable here"
    if args.pin and args.nodes > 1:
        return "--pin puts the server on CPU 0: with several nodes, leave it out"
    if not args.ai_seats and (
        args.ai_level is not None or args.ai_workers is not None or args.ai_ms is not None
    ):
        return "--ai-level, --ai-workers and --ai-ms are for AI seats: give --ai-seats M"
    return ""


def cmd_bench_server(args: argparse.Namespace) -> int:
    refusal = _refused_combination(args)
    if refusal:
        print(f"tarocchi bench server: {refusal}", file=sys.stderr)
        return 2
    try:
        think = parse_think(args.think_ms)
        args.ai_level = args.ai_level or "medium"
        table_seats(args.variant, args.ai_seats, args.ai_level)
    except (argparse.ArgumentTypeError, ValueError) as exc:
        print(f"tarocchi bench server: {exc}", file=sys.stderr)
        return 2
    try:
        result = run_bench(args.tables, args.variant, think, args.out, args.pin,
                           args.synchronous, args.timeout, db=args.db, nodes=args.nodes,
                           ai_seats=args.ai_seats,
                           ai_level=args.ai_level, ai_workers=args.ai_workers or 1,
                           db_connections=args.db_connections, ai_ms=args.ai_ms)
    except RuntimeError as exc:  # a server or node that did not start (its message says why)
        print(f"tarocchi bench server: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(result))
    return 0 if result["finished"] == result["tables"] else 1
