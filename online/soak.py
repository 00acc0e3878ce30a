"""``tarocchi bench soak``: thousands of short games and abandoned lobbies through
one server, to show that it stays the same size (docs/SERVER.md, "Bounded for
months").

The server runs in a subprocess (``python -m online.server``) with its limits
per address as an operator gets them and a short lobby expiry.  One asyncio
process plays ``--games`` single deals, ``--at-once`` at a time: each a client
that connects, creates a table with one person's seat and the server's random AI
in the others, takes the seat, starts, plays random legal cards to the end and
leaves.  Between them, in step with the games, ``--lobbies`` clients create a
table and leave without starting it: abandoned lobbies, which the server
expires.  The clients speak from ``--addresses`` loopback addresses
(127.0.1.x), as many houses would.

Every ``--sample-seconds`` the server's resident memory (``/proc/PID/status``)
and its tables in memory by state (its own ``/metrics``) are sampled; at the
end, once the last lobby had time to expire, one more.  One JSON object is
printed: the samples, RSS after the first 500 games and at the end, the tables
left in memory, and what the store holds (every game's log kept).
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import shutil
import sqlite3
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from engine.ruleset import ruleset

from .bench import cpu_ms, raise_open_files, start_server
from .bot import play, random_chooser
from .client import ClientError, SeatClient

#: the RSS figure the end is compared with: after this many finished games
BASELINE_GAMES = 500


def rss_kb(pid: int) -> int:
    """A process' resident memory in kB (Linux ``/proc``)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


def tables_in_memory(port: int) -> dict[str, int]:
    """``tarocchi_tables{state}`` and ``tarocchi_connections`` from the server's /metrics."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", "/metrics")
        text = conn.getresponse().read().decode()
    finally:
        conn.close()
    out: dict[str, int] = {}
    for line in text.splitlines():
        if line.startswith('tarocchi_tables{state="'):
            state = line.split('"')[1]
            out[state] = int(float(line.rsplit(" ", 1)[1]))
        elif line.startswith("tarocchi_connections "):
            out["connections"] = int(float(line.rsplit(" ", 1)[1]))
    return out


@dataclass
class Soak:
    """What the clients did, and what was sampled."""

    url: str
    pid: int
    variant: str
    addresses: list[str]
    games_done: int = 0
    games_ended: int = 0  # done or failed
    lobbies_done: int = 0
    failed: dict[str, int] = field(default_factory=dict)
    samples: list[dict[str, Any]] = field(default_factory=list)
    baseline: dict[str, Any] | None = None
    t0: float = field(default_factory=time.monotonic)

    @property
    def port(self) -> int:
        return int(urlsplit(self.url).port or 0)

    def address(self, i: int) -> tuple[str, int]:
        return (self.addresses[i % len(self.addresses)], 0)

    def fail(self, exc: BaseException) -> None:
        key = getattr(exc, "code", "") or type(exc).__name__
        self.failed[key] = self.failed.get(key, 0) + 1

    def sample(self) -> dict[str, Any]:
        s = {"t": round(time.monotonic() - self.t0, 1), "games": self.games_done,
             "lobbies": self.lobbies_done, "rss_kb": rss_kb(self.pid),
             **tables_in_memory(self.port)}
        self.samples.append(s)
        return s


async def _connected(soak: Soak, name: str, i: int) -> SeatClient | None:
    """A client connected from address ``i`` (of the soak's); a refusal is
    counted, and None returned."""
    c = SeatClient(soak.url, name, reconnect=False, local_addr=soak.address(i))
    try:
        await c.connect()
    except (ClientError, OSError, TimeoutError) as exc:
        soak.fail(exc)
        await c.close()
        return None
    return c


async def one_game(soak: Soak, i: int) -> None:
    c = await _connected(soak, f"g{i}", i)
    try:
        if c is None:
            return
        n = ruleset(soak.variant).n_seats
        code, _ = await c.create(soak.variant, 1, ["human"] + ["random"] * (n - 1))
        await c.join(code, 0)
        await c.host("start")
        await play(c, random_chooser(i), timeout=120)
        soak.games_done += 1
    except (ClientError, OSError, TimeoutError) as exc:
        soak.fail(exc)
    finally:
        soak.games_ended += 1
        if c is not None:
            await c.close()


async def one_lobby(soak: Soak, i: int) -> None:
    """A table created and left: nobody ever starts it."""
    c = await _connected(soak, f"l{i}", i)
    if c is None:
        return
    try:
        await c.create(soak.variant, 1, ["human"] * ruleset(soak.variant).n_seats)
        soak.lobbies_done += 1
    except (ClientError, OSError, TimeoutError) as exc:
        soak.fail(exc)
    finally:
        await c.close()


async def _sampler(soak: Soak, every: float) -> None:
    while True:
        await asyncio.sleep(every)
        await asyncio.to_thread(soak.sample)


async def _games(soak: Soak, games: int, at_once: int) -> None:
    sem = asyncio.Semaphore(at_once)

    async def run(i: int) -> None:
        async with sem:
            await one_game(soak, i)
        if soak.baseline is None and soak.games_done >= BASELINE_GAMES:
            soak.baseline = await asyncio.to_thread(soak.sample)

    await asyncio.gather(*(run(i) for i in range(games)))


async def _lobbies(soak: Soak, lobbies: int, games: int) -> None:
    """Lobbies in step with the games: lobby k once k/lobbies of the games are done."""
    sem = asyncio.Semaphore(8)
    tasks = []
    for k in range(lobbies):
        while soak.games_ended * lobbies < k * games and soak.games_ended < games:
            await asyncio.sleep(0.01)
        await sem.acquire()
        task = asyncio.get_running_loop().create_task(one_lobby(soak, k))
        task.add_done_callback(lambda _: sem.release())
        tasks.append(task)
    await asyncio.gather(*tasks)


async def _soak(soak: Soak, games: int, lobbies: int, at_once: int, every: float,
                expiry: float, timeout: float) -> dict[str, Any]:
    sampler = asyncio.get_running_loop().create_task(_sampler(soak, every))
    cpu0 = cpu_ms(soak.pid)
    work = asyncio.gather(_games(soak, games, at_once), _lobbies(soak, lobbies, games))
    timed_out = False
    try:
        await asyncio.wait_for(work, timeout)
    except TimeoutError:  # what was done is reported, and the verdict says it fell short
        timed_out = True
    # the last lobbies expire (an expiry, and a sweep a quarter of one later), then the end
    await asyncio.sleep(expiry * 1.5 + 1.0)
    sampler.cancel()
    end = await asyncio.to_thread(soak.sample)
    seconds = time.monotonic() - soak.t0
    base = soak.baseline or soak.samples[0]
    return {
        "games": soak.games_done, "lobbies": soak.lobbies_done, "failed": soak.failed,
        "timed_out": timed_out,
        "seconds": round(seconds, 1),
        "server_cpu_s": round((cpu_ms(soak.pid) - cpu0) / 1000, 1),
        "rss_mb_after_first_500": round(base["rss_kb"] / 1024, 1),
        "rss_mb_end": round(end["rss_kb"] / 1024, 1),
        "rss_growth_percent": round((end["rss_kb"] / base["rss_kb"] - 1) * 100, 2),
        "tables_in_memory_end": {k: v for k, v in end.items()
                                 if k in ("lobby", "playing", "over")},
        "connections_end": end.get("connections"),
        "samples": soak.samples,
    }


def stored(data: Path) -> dict[str, int]:
    """The store's tables by status (nothing of a game is deleted)."""
    db = sqlite3.connect(data / "tarocchi.sqlite3")
    try:
        out = {str(s): int(n) for s, n in
               db.execute("SELECT status, count(*) FROM tables GROUP BY status")}
        out["events"] = int(db.execute("SELECT count(*) FROM events").fetchone()[0])
        return out
    finally:
        db.close()


def run_soak(games: int, lobbies: int, *, variant: str, at_once: int = 16,
             expiry: float = 1.0, every: float = 2.0, addresses: int = 50,
             synchronous: str = "NORMAL", timeout: float = 7200.0) -> dict[str, Any]:
    """Start a server, soak it, stop it; the figures as a dict.  Past ``timeout``
    seconds the clients are stopped and what they did is reported."""
    raise_open_files(4 * (at_once + 16) + 256)
    data = Path(tempfile.mkdtemp(prefix="tarocchi-soak-"))
    proc = None
    try:
        proc, url = start_server(data, synchronous=synchronous, rate=20.0,
                                 options=["--lobby-expiry", str(expiry)])
        hosts = [f"127.0.1.{1 + i}" for i in range(addresses)] if addresses else ["127.0.0.1"]
        soak = Soak(url, proc.pid, variant, hosts)
        soak.sample()
        out = asyncio.run(_soak(soak, games, lobbies, at_once, every, expiry, timeout))
        proc.terminate()
        proc.wait(30)
        proc = None
        out.update(variant=variant, at_once=at_once, lobby_expiry_s=expiry,
                   addresses=len(hosts), synchronous=synchronous, store=stored(data),
                   replays=sum(1 for _ in (data / "replays").glob("*.jsonl")))
        return out
    finally:
        if proc is not None:
            proc.kill()
            proc.wait(10)
        shutil.rmtree(data, ignore_errors=True)


def verdict(out: dict[str, Any], games: int, lobbies: int) -> list[str]:
    """What falls short of the soak's promise (empty: none)."""
    bad = []
    if out.get("timed_out"):
        bad.append("the soak did not end in its time (--timeout)")
    if out["games"] < games or out["lobbies"] < lobbies:
        bad.append(f"{out['games']} games and {out['lobbies']} lobbies of {games} and {lobbies}")
    if games >= BASELINE_GAMES and abs(out["rss_growth_percent"]) > 10:
        bad.append(f"RSS changed by {out['rss_growth_percent']}% since the first "
                   f"{BASELINE_GAMES} games")
    if any(out["tables_in_memory_end"].values()):
        bad.append(f"tables left in memory: {out['tables_in_memory_end']}")
    return bad


def cmd_soak(args: argparse.Namespace) -> int:
    out = run_soak(args.games, args.lobbies, at_once=args.at_once, variant=args.variant,
                   expiry=args.lobby_expiry, every=args.sample_seconds,
                   addresses=args.addresses, synchronous=args.synchronous,
                   timeout=args.timeout)
    bad = verdict(out, args.games, args.lobbies)
    out["ok"] = not bad
    print(json.dumps(out))
    for line in bad:
        print(f"tarocchi bench soak: {line}", file=sys.stderr)
    return 0 if not bad else 1


__all__ = ["cmd_soak", "run_soak", "verdict"]
