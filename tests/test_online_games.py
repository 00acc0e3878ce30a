"""Whole games over loopback websockets: two people and two AI seats play a
Piedicavallo match, people and an AI play a Scarto game, a spectator watches;
every frame every client received is checked against its seat's view, and the
server's replay file is accepted by the reader and equals what each client rebuilt."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from engine.replay import read_replay
from engine.ruleset import ruleset
from engine.view import SPECTATOR
from online.bot import play, random_chooser
from online.client import SeatClient
from online.server import start_background
from tests.support.online_harness import (
    check_frames,
    final_views_match,
    table_row,
    truth,
    wait_until,
)

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def server(tmp_path: Path):
    h = start_background(tmp_path / "server")
    yield h
    h.stop()


async def _whole_game(url: str, variant: str, seats: list[str], seed: int) -> tuple[str, dict[int, SeatClient]]:
    rules = ruleset(variant)
    host = SeatClient(url, "host", record=True)
    await host.connect()
    code, _ = await host.create(variant, rules.full_game, seats, {})
    people = [s for s, k in enumerate(seats) if k == "human"]
    clients: dict[int, SeatClient] = {}
    for i, s in enumerate(people):
        c = host if i == 0 else SeatClient(url, f"p{s}", record=True)
        if i:
            await c.connect()
        reply = await c.join(code, s)
        assert reply["type"] == "seated" and reply["seat"] == s
        clients[s] = c
    watcher = SeatClient(url, "watcher", record=True)
    await watcher.connect()
    await watcher.join(code, None)
    await host.host("start")
    await asyncio.gather(
        *(play(c, random_chooser(seed + s), timeout=120) for s, c in clients.items()),
        wait_until(lambda: watcher.over is not None, 120, "the spectator's game over"),
    )
    clients[SPECTATOR] = watcher
    return code, clients


@pytest.mark.slow
@pytest.mark.parametrize(
    "variant,seats",
    [("piedicavallo", ["human", "easy", "human", "easy"]), ("scarto", ["human", "human", "easy"])],
    ids=["piedicavallo-match", "scarto-game"],
)
def test_a_whole_game_leaks_nothing_and_exports_its_replay(server, variant, seats) -> None:
    async def main() -> tuple[str, dict[int, SeatClient]]:
        code, clients = await _whole_game(server.url, variant, seats, 7)
        for c in clients.values():
            await c.close()
        return code, clients

    code, clients = asyncio.run(main())
    data = server.data_dir
    rules, events, states, _ = truth(data, code)
    assert len([e for e in events if type(e).__name__ == "DealScored"]) == rules.full_game
    assert table_row(data, code)["status"] == "over"
    final_views_match(clients, states)
    frames = 0
    for seat, c in clients.items():
        frames += check_frames(c, seat, data, code)
        events_seen = sum(1 for f in c.frames if '"type":"event"' in f)
        assert events_seen == len(events), seat
    assert frames >= len(clients) * len(events)
    # the replay file: written after the game, accepted, the same game as the store's
    rid = table_row(data, code)["id"]
    path = data / "replays" / f"{code}-{rid}.jsonl"
    asyncio.run(wait_until(path.exists, 10, "the replay file"))
    rp = read_replay(path)
    assert rp.events == events and rp.final == states[-1]
    out = subprocess.run(
        [sys.executable, "-c", "import sys; from game.cli import main; sys.exit(main())",
         "check", str(path)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
