"""``tarocchi bench server``: a server in a subprocess and N tables of headless
clients (one asyncio process) playing random legal cards on loopback to the end
of a deal, with a jittered think time; one JSON line of figures.

Latency (``p50_ms``, ``p95_ms``) is from a command sent to its event received by
every seat of the table.  ``server_cpu_ms_per_move`` is the server process's
user + system CPU time over the play, divided by the moves.  With ``--think-ms
0`` the clients answer at once: a closed loop that measures saturation
(``moves_per_s``), where latency is queueing.
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
from pathlib import Path
from typing import Any

from engine.replay import ReplayError, read_replay
from engine.ruleset import ruleset

from .bot import play, random_chooser
from .client import SeatClient

CONNECT_AT_ONCE = 64


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
                 rate: float = 1000.0, port: int = 0) -> tuple[subprocess.Popen[str], str]:
    """``python -m online.server`` on a free port; returns it and its URL."""
    cmd = [sys.executable, "-m", "online.server", "--data", str(data), "--port", str(port),
           "--rate", str(rate), "--synchronous", synchronous]
    if pin and shutil.which("taskset"):
        cmd = ["taskset", "-c", "0", *cmd]
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=str(root) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               TAROCCHI_SERVER_STATS=str(data / "stats.json"))
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, cwd=root, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    if not line.startswith("ws://"):
        proc.kill()
        raise RuntimeError(f"the server did not start: {line!r}")
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


async def _one_table(url: str, variant: str, think: tuple[float, float], seed: int,
                     sem: asyncio.Semaphore, ready: asyncio.Event, started: list[int],
                     timeout: float) -> tuple[TableRun, bool, str]:
    rules = ruleset(variant)
    run = TableRun(rules.n_seats)
    clients: list[SeatClient] = []
    rnd = random.Random(seed)

    def hook(msg: dict[str, Any]) -> None:
        if msg.get("type") == "event":
            run.on_event(msg["seq"])

    async with sem:
        for s in range(rules.n_seats):
            c = SeatClient(url, f"b{s}", on_message=hook, max_backoff=1.0)
            await c.connect(30)
            clients.append(c)
        code, _ = await clients[0].create(variant, 1, ["human"] * rules.n_seats)
        for s, c in enumerate(clients):
            await c.join(code, s)
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
            for s, c in enumerate(clients)))
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


async def _bench(url: str, tables: int, variant: str, think: tuple[float, float],
                 timeout: float, server_pid: int) -> dict[str, Any]:
    sem = asyncio.Semaphore(CONNECT_AT_ONCE)
    ready = asyncio.Event()
    started = [0]
    tasks = [asyncio.get_running_loop().create_task(
        _one_table(url, variant, think, 1000 + i, sem, ready, started, timeout))
        for i in range(tables)]
    while started[0] < tables and not all(t.done() for t in tasks):
        await asyncio.sleep(0.05)
    cpu0 = cpu_ms(server_pid)
    me0 = time.process_time()
    t0 = time.perf_counter()
    ready.set()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    wall = time.perf_counter() - t0
    cpu1 = cpu_ms(server_pid)
    runs = [r for r in results if isinstance(r, tuple)]
    lat = [x for r, _, _ in runs for x in r.latencies]
    events = sum(r.events for r, _, _ in runs)
    moves = len(lat)
    n = ruleset(variant).n_seats
    return {
        "tables": tables,
        "finished": sum(1 for _, ok, _ in runs if ok),
        "connections": tables * n,
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
        "server_cpu_ms_per_move": round((cpu1 - cpu0) / max(1, moves), 3),
        "server_cpu_percent": round((cpu1 - cpu0) / 10 / wall, 1),
        "client_cpu_percent": round((time.process_time() - me0) * 100 / wall, 1),
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


def run_bench(tables: int, variant: str = "piedicavallo", think: tuple[float, float] = (0.25, 0.75),
              out: str | None = None, pin: bool = False, synchronous: str = "FULL",
              timeout: float = 900.0) -> dict[str, Any]:
    n = ruleset(variant).n_seats
    raise_open_files(tables * n * 2 + 256)
    data = Path(tempfile.mkdtemp(prefix="tarocchi-bench-"))
    proc, url = start_server(data, pin=pin, synchronous=synchronous)
    if pin:
        try:
            os.sched_setaffinity(0, {1})
        except (AttributeError, OSError):
            pass
    try:
        result = asyncio.run(_bench(url, tables, variant, think, timeout, proc.pid))
        codes = result.pop("_codes")
        # the replay files the server wrote for the finished tables
        replays = data / "replays"
        deadline = time.monotonic() + 30
        files: list[Path] = []
        while time.monotonic() < deadline:
            files = [p for p in replays.glob("*.jsonl")] if replays.exists() else []
            if len(files) >= len(codes):
                break
            time.sleep(0.1)
        ok = 0
        for p in files:
            try:
                read_replay(p)
                ok += 1
            except ReplayError:
                pass
        result["replays"] = len(files)
        result["replays_accepted"] = ok
        if out:
            o = Path(out)
            o.mkdir(parents=True, exist_ok=True)
            for p in files:
                shutil.copy2(p, o / p.name)
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
        stats = data / "stats.json"
        if stats.exists():
            result["server"] = json.loads(stats.read_text())
        shutil.rmtree(data, ignore_errors=True)
    return result


def cmd_bench_server(args: argparse.Namespace) -> int:
    try:
        think = parse_think(args.think_ms)
    except argparse.ArgumentTypeError as exc:
        print(f"tarocchi bench server: {exc}", file=sys.stderr)
        return 2
    result = run_bench(args.tables, args.variant, think, args.out, args.pin, args.synchronous,
                       args.timeout)
    print(json.dumps(result))
    return 0 if result["finished"] == result["tables"] else 1
