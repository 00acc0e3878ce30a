"""The engine's command-line tools, run as a user would (``python -m game.cli``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from game.cli import main


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "game.cli", *args], capture_output=True, text=True, timeout=300
    )


@pytest.mark.slow
def test_help_for_every_command() -> None:
    for cmd in ([], ["check"], ["simulate"], ["bench", "engine"]):
        r = run(*cmd, "--help")
        assert r.returncode == 0 and "usage:" in r.stdout


def test_simulate_is_byte_identical_and_checks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    for out in (a, b):
        assert main(["simulate", "--games", "3", "--seed", "5", "--out", str(out), "--quiet"]) == 0
    summary = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert summary["games"] == 3 and sum(summary["team_wins"]) + summary["draws"] == 3
    files = sorted(a.iterdir())
    assert len(files) == 3
    for f in files:
        assert f.read_bytes() == (b / f.name).read_bytes()
    assert main(["check", "--json", *map(str, files)]) == 0
    for line in capsys.readouterr().out.splitlines():
        obj = json.loads(line)
        assert obj["ok"] is True and obj["deals"] == 1 and sum(obj["points"][0]) == 114


@pytest.mark.slow
def test_simulate_jobs_and_budget_give_the_same_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--jobs spreads games over processes without changing a byte; --budget-ms
    caps hard and is recorded in the header."""
    one, two = tmp_path / "one", tmp_path / "two"
    common = ["--games", "3", "--seed", "9", "--players", "hard,easy,medium,random",
              "--budget-ms", "5", "--quiet"]
    assert main(["simulate", *common, "--out", str(one)]) == 0
    assert main(["simulate", *common, "--jobs", "2", "--out", str(two)]) == 0
    outs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert outs[0] == {**outs[1], "out": str(one)} and outs[0]["budget_ms"] == 5
    files = sorted(one.iterdir())
    assert [f.name for f in files] == [f.name for f in sorted(two.iterdir())] and len(files) == 3
    for f in files:
        assert f.read_bytes() == (two / f.name).read_bytes()
        assert json.loads(f.read_text().splitlines()[0])["budget_ms"] == 5
    assert main(["check", *map(str, files)]) == 0


def test_simulate_refuses_bad_numbers(tmp_path: Path) -> None:
    for extra in (["--jobs", "0"], ["--budget-ms", "0"]):
        r = run("simulate", "--games", "1", "--seed", "1", "--out", str(tmp_path), *extra)
        assert r.returncode == 2 and "Traceback" not in r.stderr
        assert f"argument {extra[0]}: must be a positive whole number, not '0'" in r.stderr


def test_simulate_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "1", "--seed", "1", "--match", "--out", str(tmp_path), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["check", "--json", str(tmp_path / "game-00000.jsonl")]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["deals"] == 4 and len(obj["points"]) == 4


def test_check_reports_bad_file(tmp_path: Path) -> None:
    good = Path(__file__).parent / "golden" / "single-seed-42.jsonl"
    lines = good.read_text().splitlines()
    play = json.loads(lines[3])
    play["seat"] = (play["seat"] + 2) % 4
    lines[3] = json.dumps(play)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    r = run("check", "--json", str(good), str(bad))
    assert r.returncode == 1
    out = [json.loads(x) for x in r.stdout.splitlines()]
    assert out[0]["ok"] is True
    assert out[1] == {"file": str(bad), "ok": False, "line": 4, "error": out[1]["error"]}
    assert "out of turn" in out[1]["error"] and "Traceback" not in r.stderr
    r = run("check", str(bad))
    assert r.returncode == 1 and "line 4:" in r.stdout


def test_check_at_position(capsys: pytest.CaptureFixture[str]) -> None:
    good = str(Path(__file__).parent / "golden" / "single-seed-42.jsonl")
    assert main(["check", good, "--at", "4"]) == 0
    pos = json.loads(capsys.readouterr().out)
    # deal, discard, two plays: 2 cards in the trick, 15+15+15+15-2 cards in hands
    assert len(pos["trick"]) == 2 and sum(len(h) for h in pos["hands"]) == 58
    assert pos["turn"] == (pos["trick"][-1]["seat"] + 1) % 4
    assert pos["tricks"] == [0, 0] and pos["points"] == [0, 0]
    assert main(["check", good, "--at", "9999"]) == 1


def test_bench_engine_prints_json() -> None:
    r = run("bench", "engine", "--seconds", "0.2", "--json")
    assert r.returncode == 0, r.stderr
    obj = json.loads(r.stdout)
    assert obj["fast_deals_per_s"] > 0 and obj["event_deals_per_s"] > 0


def test_unknown_level_is_a_message() -> None:
    r = run("simulate", "--games", "1", "--seed", "1", "--players", "a,b,c,d", "--out", "/tmp/x")
    assert r.returncode != 0 and "unknown player level" in r.stderr and "Traceback" not in r.stderr
