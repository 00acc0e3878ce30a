"""Two server nodes on one PostgreSQL (issue 31): four people of one table
spread over both nodes, a spectator at the other node.  The node that does not
run the table redirects (the URL of the owner, nothing else), the clients follow
by themselves, and the whole match is played to the end: every frame each client
received is what its seat could know (the single server's checks, unchanged),
and the replay file is accepted by ``tarocchi check``.  Bad input at a node: an
unknown code, an unreachable database."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

from engine.replay import read_replay
from engine.ruleset import ruleset
from engine.view import SPECTATOR
from online.bot import play, random_chooser
from online.client import ClientError, SeatClient
from online.server import start_background
from tests.online_harness import check_frames, final_views_match, truth, wait_until
from tests.online_pg_kill import export_to_sqlite, pg_owner, pg_table
from tests.pg_cluster import free_port

ROOT = Path(__file__).resolve().parent.parent


def test_two_nodes_four_people_spread_over_both_play_a_whole_match(pg_dsn: str,
                                                                   tmp_path: Path) -> None:
    a = start_background(tmp_path / "a", db=pg_dsn, lease_seconds=2.0)
    b = start_background(tmp_path / "b", db=pg_dsn, lease_seconds=2.0)
    rules = ruleset("piedicavallo")

    async def main() -> tuple[str, dict[int, SeatClient]]:
        host = SeatClient([a.url, b.url], "host", record=True)
        await host.connect()
        code, _ = await host.create("piedicavallo", rules.full_game, ["human"] * 4, {})
        clients = {0: host}
        await host.join(code, 0)
        for s in (1, 2, 3):  # seats 1 and 3 reach node b first: it redirects them to a
            c = SeatClient([b.url, a.url] if s % 2 else [a.url, b.url], f"p{s}", record=True)
            await c.connect()
            reply = await c.join(code, s)
            assert reply["type"] == "seated" and reply["seat"] == s
            clients[s] = c
        watcher = SeatClient(b.url, "watcher", record=True)
        await watcher.connect()
        await watcher.join(code, None)
        await host.host("start")
        await asyncio.gather(
            *(play(c, random_chooser(40 + s), timeout=120) for s, c in clients.items()),
            wait_until(lambda: watcher.over is not None, 120, "the spectator's game over"))
        clients[SPECTATOR] = watcher
        for c in clients.values():
            await c.close()
        return code, clients

    try:
        code, clients = asyncio.run(asyncio.wait_for(main(), 150))
        assert pg_owner(pg_dsn, code) == a.url
        for s in (1, 3, SPECTATOR):  # followed to the node that runs the table
            assert clients[s].redirects >= 1 and clients[s].url == a.url
        for c in clients.values():  # a redirect says where, and nothing of the table
            for raw in c.frames:
                msg = json.loads(raw)
                if msg.get("code") == "redirect":
                    assert set(msg) == {"type", "code", "text", "url"} and msg["url"] == a.url
        data = export_to_sqlite(pg_dsn, tmp_path / "truth")
        _rules, events, states, _ = truth(data, code)
        assert len([e for e in events if type(e).__name__ == "DealScored"]) == rules.full_game
        final_views_match(clients, states)
        for seat, c in clients.items():
            assert check_frames(c, seat, data, code) > len(events)
        row = pg_table(pg_dsn, code)
        assert row["status"] == "over"
        path = tmp_path / "a" / "replays" / f"{code}-{row['id']}.jsonl"
        asyncio.run(wait_until(path.exists, 10, "the replay file"))
        assert read_replay(path).events == events
        out = subprocess.run(
            [sys.executable, "-c", "import sys; from game.cli import main; sys.exit(main())",
             "check", str(path)], cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stdout + out.stderr
    finally:
        a.stop()
        b.stop()


def test_a_node_answers_bad_input_clearly(pg_dsn: str, tmp_path: Path) -> None:
    node = start_background(tmp_path / "n", db=pg_dsn)

    async def main() -> None:
        c = SeatClient(node.url, "x")
        await c.connect()
        try:
            try:
                await c.join("ZZZZZZ", 0)
            except ClientError as exc:
                assert exc.code == "unknown_table"
            else:
                raise AssertionError("joined a table that does not exist")
        finally:
            await c.close()

    try:
        asyncio.run(asyncio.wait_for(main(), 30))
    finally:
        node.stop()
    # a database that does not answer: one line, exit 1, no traceback
    dead = f"postgresql://nobody@127.0.0.1:{free_port()}/tarocchi"
    out = subprocess.run(
        [sys.executable, "-m", "online.server", "--db", dead, "--port", "0", "--data",
         str(tmp_path / "d")], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 1
    assert out.stderr.startswith("tarocchi serve: the database:"), out.stderr
    assert "Traceback" not in out.stderr
    # not a PostgreSQL URL: refused (not SQLite in its place), the URL not repeated
    out = subprocess.run(
        [sys.executable, "-m", "online.server", "--db", "mysql://me:s3cret@127.0.0.1/t",
         "--port", "0", "--data", str(tmp_path / "d")], cwd=ROOT, capture_output=True,
        text=True, timeout=60)
    assert out.returncode == 1 and "postgresql://" in out.stderr, out.stderr
    assert "s3cret" not in out.stderr and not out.stdout
