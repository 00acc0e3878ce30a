"""Two server nodes on one PostgreSQL: four people of one table
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

import pytest

from engine.replay import read_replay
from engine.ruleset import ruleset
from engine.view import SPECTATOR
from online.bot import play, random_chooser
from online.client import ClientError, SeatClient
from online.server import start_background
from tests.support.online_harness import check_frames, final_views_match, truth, wait_until
from tests.support.online_pg_kill import export_to_sqlite, pg_owner, pg_table
from tests.support.pg_cluster import free_port

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
def test_a_node_whose_lease_was_taken_drops_the_table_and_its_client_follows(
        pg_dsn: str, tmp_path: Path) -> None:
    """Node a runs a table; its lease passes to node b behind its back (as when a
    paused a whole lease long).  A spectator who comes to a for another of its
    tables is redirected to b; a's next write is refused by the database, a drops
    the table and closes the connection; the client comes back, is sent
    to b, which rebuilds the table from the log, and its command (sent again, same
    id) is applied once there.  The game goes on to the end on b."""
    import psycopg

    from online.bot import my_turn
    from tests.support.online_pg_kill import pg_logs

    a = start_background(tmp_path / "a", db=pg_dsn, lease_seconds=30.0)
    b = start_background(tmp_path / "b", db=pg_dsn, lease_seconds=30.0)

    async def main() -> tuple[str, SeatClient, str]:
        c = SeatClient([a.url, b.url], "solo", record=True, max_backoff=0.2)
        await c.connect()
        code, _ = await c.create("piedicavallo", 1, ["human", "random", "random", "random"], {})
        await c.join(code, 0)
        await c.host("start")
        await wait_until(lambda: my_turn(c), 30, "seat 0's turn")
        other = SeatClient(a.url, "other")  # a second table at a, in its lobby
        await other.connect()
        code2, _ = await other.create("scarto", 1, ["human"] * 3, {})
        await other.close()
        assert b.server.cluster is not None
        with psycopg.connect(pg_dsn, autocommit=True) as conn:
            conn.execute("UPDATE leases SET node = %s, url = %s",
                         (b.server.cluster.node, b.url))
        # someone who comes to a for the second table is sent to b: a, which has not
        # written it since, does not show its stale copy
        watcher = SeatClient(a.url, "watcher", max_backoff=0.2)
        await watcher.connect()
        reply = await watcher.join(code2, None)
        assert reply["type"] == "watching" and watcher.url == b.url
        await watcher.close()
        v = c.view
        assert v is not None
        cid = await c.send_command(v.legal()[0])
        await wait_until(lambda: cid in c.acked, 30, "the command's ack, from b")
        await play(c, random_chooser(3), timeout=60)
        await c.close()
        return code, c, cid

    try:
        code, c, cid = asyncio.run(asyncio.wait_for(main(), 90))
        assert a.server.cluster is not None and a.server.cluster.evictions == 2
        assert a.server.hub is not None and code not in a.server.hub.tables
        assert c.redirects >= 1 and c.url == b.url
        assert pg_owner(pg_dsn, code) == b.url
        events = pg_logs(pg_dsn)[code]  # each seq once, no gap
        acks = [json.loads(f) for f in c.frames if '"type":"ack"' in f]
        assert {m["seq"] for m in acks if m["id"] == cid} == {c.acked[cid]}
        assert c.last_seq == len(events) and pg_table(pg_dsn, code)["status"] == "over"
    finally:
        a.stop()
        b.stop()


@pytest.mark.slow
def test_the_single_server_loopback_game_passes_on_postgresql(pg_dsn: str, tmp_path: Path) -> None:
    """The single server's loopback game (tests/test_online_games.py, its helper and
    its checks unchanged) on one node whose store is PostgreSQL."""
    from tests.test_online_games import _whole_game

    node = start_background(tmp_path / "node", db=pg_dsn)

    async def main() -> tuple[str, dict[int, SeatClient]]:
        code, clients = await _whole_game(node.url, "piedicavallo",
                                          ["human", "easy", "human", "easy"], 7)
        for c in clients.values():
            await c.close()
        replays = tmp_path / "node" / "replays"
        await wait_until(lambda: any(replays.glob(f"{code}-*.jsonl")), 10, "the replay file")
        return code, clients

    try:
        code, clients = asyncio.run(asyncio.wait_for(main(), 150))
    finally:
        node.stop()
    data = export_to_sqlite(pg_dsn, tmp_path / "truth")
    rules, events, states, _ = truth(data, code)
    assert len([e for e in events if type(e).__name__ == "DealScored"]) == rules.full_game
    final_views_match(clients, states)
    for seat, c in clients.items():
        assert check_frames(c, seat, data, code) >= len(events)
        assert sum(1 for f in c.frames if '"type":"event"' in f) == len(events), seat
    rp = read_replay(tmp_path / "node" / "replays" / f"{code}-{pg_table(pg_dsn, code)['id']}.jsonl")
    assert rp.events == events and rp.final == states[-1]
