"""The server benchmark (online/bench.py's tables of headless clients, unchanged)
against K nodes on one PostgreSQL (issue 31): table i is created at node i % K,
which runs it, so the tables spread over the nodes.  Prints one JSON line: the
bench's figures (latency from a command to its event at every seat), the CPU of
every node, and the replay files every node wrote, each read back.

    python -m tests.online_pg_bench --nodes 2 --tables 100
    python -m tests.online_pg_bench --sqlite --tables 100     # the same on one SQLite server

(``tarocchi bench server`` itself does not start nodes yet: this is the
measurement until it does.)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from engine.replay import ReplayError, read_replay
from online.bench import _bench, cpu_ms, parse_think, raise_open_files, run_bench
from tests.online_pg_kill import start_node
from tests.pg_cluster import free_port, pg_cluster


async def _spread(urls: list[str], tables: int, variant: str, think: tuple[float, float],
                  timeout: float, pid: int) -> dict[str, Any]:
    """online.bench._bench with table i's clients pointed at node i % K first."""
    import online.bench as bench

    made = [0]
    real = bench._one_table

    async def one(url: Any, *args: Any) -> Any:
        i = made[0]
        made[0] += 1
        k = i % len(urls)
        return await real(urls[k:] + urls[:k], *args)  # type: ignore[arg-type]

    bench._one_table = one  # type: ignore[assignment]
    try:
        return await _bench(urls[0], tables, variant, think, timeout, pid)
    finally:
        bench._one_table = real


def run_nodes(dsn: str, nodes: int, tables: int, think: tuple[float, float],
              variant: str = "piedicavallo", timeout: float = 900.0) -> dict[str, Any]:
    raise_open_files(tables * 4 * 2 + 256)
    data = Path(tempfile.mkdtemp(prefix="tarocchi-pg-bench-"))
    procs = []
    urls = []
    for k in range(nodes):
        p, u = start_node(dsn, data / f"node{k}", free_port(), 5.0)
        procs.append(p)
        urls.append(u)
    try:
        cpu0 = [cpu_ms(p.pid) for p in procs]
        t0 = time.perf_counter()
        result = asyncio.run(_spread(urls, tables, variant, think, timeout, procs[0].pid))
        wall = time.perf_counter() - t0
        cpu = [cpu_ms(p.pid) - c for p, c in zip(procs, cpu0, strict=True)]
        codes = result.pop("_codes")
        deadline = time.monotonic() + 30
        files: list[Path] = []
        while time.monotonic() < deadline:
            files = list(data.glob("*/replays/*.jsonl"))
            if len(files) >= len(codes):
                break
            time.sleep(0.1)
        ok = 0
        for f in files:
            try:
                read_replay(f)
                ok += 1
            except ReplayError:
                pass
        result.pop("server_cpu_ms_per_move")
        result.pop("server_cpu_percent")
        result.update(nodes=nodes, replays=len(files), replays_accepted=ok,
                      node_cpu_percent=[round(c / 10 / wall, 1) for c in cpu],
                      node_cpu_ms_per_move=round(sum(cpu) / max(1, result["moves"]), 3))
        return result
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(15)
        shutil.rmtree(data, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.online_pg_bench")
    ap.add_argument("--nodes", type=int, default=2)
    ap.add_argument("--tables", type=int, required=True)
    ap.add_argument("--think-ms", default="250-750")
    ap.add_argument("--sqlite", action="store_true", help="one server on SQLite instead")
    ap.add_argument("--db", default=None, help="a postgresql:// URL (default: a throw-away cluster)")
    args = ap.parse_args(argv)
    think = parse_think(args.think_ms)
    if args.sqlite:
        result = run_bench(args.tables, think=think)
        result["store"] = "sqlite"
    elif args.db:
        result = run_nodes(args.db, args.nodes, args.tables, think)
    else:
        with pg_cluster() as c:
            result = run_nodes(c.dsn, args.nodes, args.tables, think)
    print(json.dumps(result))
    return 0 if result["finished"] == result["tables"] else 1


if __name__ == "__main__":
    sys.exit(main())
