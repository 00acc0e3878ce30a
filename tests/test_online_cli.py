"""The command line: `tarocchi serve` prints its URL and serves; `tarocchi bot`
plays a seat to the end of the game."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from game.cli import main
from online.client import ClientError, SeatClient, ThreadedClient
from online.server import start_background

ROOT = Path(__file__).resolve().parent.parent
CLI = "import sys; from game.cli import main; sys.exit(main())"


@pytest.mark.slow
def test_serve_prints_its_url_and_answers_hello(tmp_path: Path) -> None:
    env = dict(os.environ, TAROCCHI_HOME=str(tmp_path / "home"))
    p = subprocess.Popen([sys.executable, "-c", CLI, "serve", "--port", "0"], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert p.stdout is not None
        url = p.stdout.readline().strip()
        assert url.startswith("ws://127.0.0.1:")

        async def hello() -> None:
            c = SeatClient(url, "x", reconnect=False)
            await c.connect()
            code, host = await c.create("scarto", 1, ["human", "easy", "easy"])
            assert len(code) == 6 and host
            await c.close()

        asyncio.run(hello())
        # the default data folder: TAROCCHI_HOME's server/
        assert (tmp_path / "home" / "server" / "tarocchi.sqlite3").exists()

        async def bye() -> list[str]:
            c = SeatClient(url, "y", reconnect=False, record=True)
            await c.connect()
            p.send_signal(signal.SIGTERM)
            for _ in range(500):
                if c.closed or any('"bye"' in f for f in c.frames):
                    break
                await asyncio.sleep(0.02)
            frames = list(c.frames)
            await c.close()
            return frames

        assert any('"type":"bye"' in f for f in asyncio.run(bye()))
        assert p.wait(20) == 0  # SIGTERM: a clean stop
    finally:
        if p.poll() is None:
            p.kill()
            p.wait(10)


def test_bot_plays_a_seat_to_the_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The host may start only once the bot sits at the person's seat."""
    h = start_background(tmp_path / "server")
    host = ThreadedClient(reconnect=False)
    try:
        host.connect(h.url, "host")
        code, _ = host.create("scarto", 1, ["human", "random", "random"])
        with pytest.raises(ClientError) as refused:
            host.start()
        assert refused.value.code == "seats_empty" and refused.value.msg["seats"] == [0]
        result: list[int] = []
        bot = threading.Thread(target=lambda: result.append(
            main(["bot", "--server", h.url, "--code", code, "--level", "easy"])))
        bot.start()
        deadline = time.monotonic() + 30
        while True:  # started once the bot has taken its seat
            try:
                host.start()
                break
            except ClientError as exc:
                assert exc.code == "seats_empty" and time.monotonic() < deadline
                time.sleep(0.05)
        bot.join(120)
        assert result == [0]
        assert "game over" in capsys.readouterr().out
        assert main(["bot", "--server", h.url, "--code", "ZZZZZZ"]) == 1
        assert "unknown_table" in capsys.readouterr().err
    finally:
        host.close()
        h.stop()
