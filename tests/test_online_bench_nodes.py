"""``tarocchi bench server`` with ``--db`` and ``--nodes``: K server
nodes on one PostgreSQL, the tables spread over them, AI seats decided by the
nodes; every table finished, every replay accepted by ``tarocchi check``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.replay import read_replay

ROOT = Path(__file__).resolve().parent.parent


def _bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "game.cli", "bench", "server", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)


@pytest.mark.slow
def test_two_nodes_on_one_database_run_the_tables_between_them(pg_dsn: str,
                                                                tmp_path: Path) -> None:
    out = tmp_path / "replays"
    r = _bench("--db", pg_dsn, "--nodes", "2", "--tables", "4", "--think-ms", "0-20",
               "--ai-seats", "1", "--ai-level", "easy", "--out", str(out), "--json")
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout.strip().splitlines()[-1])
    assert result["store"] == "postgresql" and result["nodes"] == 2
    assert result["finished"] == 4 and result["replays_accepted"] == 4
    # PostgreSQL's own share, read beside the nodes' (its processes run on this machine)
    assert result["db_commits_per_s"] > 0 and 0 < result["db_commits_per_move"] <= 2
    assert result["db_cpu_ms_per_move"] > 0 and result["db_processes"] >= 3
    assert result["server_log_warnings"] == 0
    # table i is run by node i % 2: both nodes committed events and decided AI moves
    assert [s["commits"] > 0 for s in result["server"]] == [True, True]
    assert all(d > 0 for d in result["ai_decisions_per_s_per_node"])
    files = sorted(out.glob("*.jsonl"))
    assert len(files) == 4
    for f in files:  # read back: whole games
        replay = read_replay(f)
        assert replay.header.players == ["b0", "b1", "b2", "easy"]  # the last seat: the AI
    check = subprocess.run([sys.executable, "-m", "game.cli", "check", *map(str, files)],
                           capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert check.returncode == 0, check.stdout + check.stderr


@pytest.mark.slow
def test_several_nodes_without_a_database_are_refused_in_one_line(tmp_path: Path) -> None:
    r = _bench("--nodes", "2", "--tables", "1")
    assert r.returncode == 2
    assert "--db" in r.stderr and "Traceback" not in r.stderr


def test_a_bad_database_url_is_refused_before_anything_starts() -> None:
    r = _bench("--db", "mysql://x", "--tables", "1")
    assert r.returncode == 2
    assert "postgresql://" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.slow
def test_options_that_would_be_ignored_are_refused_in_one_line() -> None:
    cases = [
        (["--ai-level", "easy"], "--ai-seats"),
        (["--ai-workers", "2"], "--ai-seats"),
        (["--db-connections", "4"], "--db"),
        (["--db", "postgresql://x@127.0.0.1:1/x", "--synchronous", "NORMAL"], "SQLite"),
        (["--db", "postgresql://x@127.0.0.1:1/x", "--nodes", "2", "--pin"], "--pin"),
    ]
    for extra, word in cases:
        r = _bench("--tables", "1", *extra)
        assert r.returncode == 2, (extra, r.stdout, r.stderr)
        assert word in r.stderr and "Traceback" not in r.stderr, (extra, r.stderr)
