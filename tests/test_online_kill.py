"""SIGKILL the server mid-game and restart it (a short run; the full one is
``python -m tests.support.online_kill --kills 30``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.support.online_kill import run


@pytest.mark.slow
def test_killed_server_loses_nothing_and_the_games_end(tmp_path: Path) -> None:
    result = asyncio.run(run(5, seed=3, data=tmp_path / "server", think_ms=15, play_timeout=180))
    assert result["kills"] == 5
    assert result["lost"] == 0 and result["duplicated"] == 0
    assert result["events_checked"] > result["events"]
    assert result["reconnects"] >= 5
