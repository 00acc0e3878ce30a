"""Failover: two nodes on one throw-away PostgreSQL, games in
progress (AI seats and people, clients spread over both nodes), SIGKILL the node
that runs a game, twice: another node takes it over once the lease expired, the
clients continue to the end through any node, 0 events lost, 0 duplicated, the
replay equals a fold of the log, and the AI's decisions are the ones it makes
again from the same view and seed.  (The full run: ``python -m tests.support.online_pg_kill``.)"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.support.online_pg_kill import TABLES, run


@pytest.mark.slow
def test_killed_node_is_taken_over_and_the_games_end_the_same(pg_dsn: str,
                                                              tmp_path: Path) -> None:
    lease = 1.5
    result = asyncio.run(run(pg_dsn, 2, seed=5, nodes=2, lease=lease, think_ms=20,
                             data=tmp_path, tables_spec=TABLES[:2]))
    assert result["kills"] == 2
    assert result["lost"] == 0 and result["duplicated"] == 0
    assert result["events_checked"] > result["events"]
    assert result["ai_decisions_checked"] > 0
    assert result["reconnects"] >= 2 and result["redirects"] >= 1
    # taken over once the lease expired (not before: the dead node held it), in a few seconds
    assert lease * 0.5 <= result["kill_to_next_event_ms_p50"] / 1000 <= lease + 8
