"""The AI service (game/table/ai_service.py): decisions run in a helper process, give
the same answer as in-process, fall back cleanly, and leave nothing behind."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from engine.ai import pool
from engine.game import Game
from engine.players import make_player
from engine.variants import PIEDICAVALLO
from game.table.ai_service import AIService

ROOT = Path(__file__).resolve().parent.parent


def _alive(pid: int) -> bool:
    """True while ``pid`` is a live process (a zombie counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _wait_gone(pids: list[int], seconds: float = 10.0) -> list[int]:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        left = [p for p in pids if _alive(p)]
        if not left:
            return []
        time.sleep(0.05)
    return [p for p in pids if _alive(p)]


@pytest.fixture()
def service():
    s = AIService(use_process=True)
    yield s
    s.close()


def test_calls_run_in_another_process(service: AIService) -> None:
    pid = service.submit(os.getpid).result(timeout=60)
    assert service.in_process
    assert pid != os.getpid()


def test_a_decision_is_the_same_in_the_helper(service: AIService) -> None:
    player = make_player("medium")
    game = Game(11, rules=PIEDICAVALLO)
    for _ in range(9):  # a few plays in, so the view has history
        legal = game.legal()
        game.submit(legal[0])
    seat = game.state.turn
    view, legal = game.view(seat), game.legal()
    here = player.choose(view, legal, game.cursor)
    there = service.submit(player.choose, view, legal, game.cursor).result(timeout=120)
    assert there == here
    assert service.in_process


def test_errors_come_back_as_errors(service: AIService) -> None:
    with pytest.raises(ValueError):
        service.submit(int, "not a number").result(timeout=60)
    assert service.submit(int, "42").result(timeout=60) == 42  # the helper lives on


def test_a_call_that_cannot_travel_runs_here(service: AIService, tmp_path: Path) -> None:
    here = os.getpid()
    assert service.submit(lambda: os.getpid()).result(timeout=60) == here
    assert service.submit(os.getpid).result(timeout=60) != here
    # pickled here, but the helper cannot import it back: it runs here too
    mod = tmp_path / "only_here_mod.py"
    mod.write_text("import os\ndef pid():\n    return os.getpid()\n")
    sys.path.insert(0, str(tmp_path))
    try:
        import only_here_mod

        assert service.submit(only_here_mod.pid).result(timeout=60) == here
    finally:
        sys.path.remove(str(tmp_path))
    assert service.in_process and service.submit(os.getpid).result(timeout=60) != here


def test_a_dead_helper_falls_back_without_losing_the_call() -> None:
    s = AIService(use_process=True)
    try:
        pid = s.submit(os.getpid).result(timeout=60)
        os.kill(pid, 9)
        assert _wait_gone([pid]) == []
        assert s.submit(int, "7").result(timeout=60) == 7
        assert not s.in_process
        assert "stopped" in s.fallback_reason
    finally:
        s.close()


def test_switched_off_runs_on_a_thread() -> None:
    s = AIService(use_process=False)
    try:
        assert s.submit(os.getpid).result(timeout=10) == os.getpid()
        assert s.fallback_reason == "switched off"
    finally:
        s.close()


def test_close_lets_the_call_in_hand_finish_and_cancels_the_rest(service: AIService) -> None:
    helper = service.submit(os.getpid).result(timeout=60)
    running = service.submit(time.sleep, 1.0)
    queued = service.submit(os.getpid)
    time.sleep(0.2)
    service.close(timeout=10)
    assert running.done() and running.exception() is None
    assert queued.cancelled()
    assert _wait_gone([helper]) == []
    with pytest.raises(RuntimeError):
        service.submit(os.getpid)


def test_close_stops_a_call_that_runs_too_long_and_its_workers(service: AIService) -> None:
    helper = service.submit(os.getpid).result(timeout=60)
    workers = service.submit(pool.worker_pids).result(timeout=60)
    stuck = service.submit(time.sleep, 60)
    time.sleep(0.3)
    t0 = time.monotonic()
    service.close(timeout=0.5)
    assert time.monotonic() - t0 < 15
    assert _wait_gone([helper, *workers]) == []
    assert stuck.done() and isinstance(stuck.exception(), RuntimeError)


def test_close_stops_the_helper_and_its_search_workers(service: AIService) -> None:
    helper = service.submit(os.getpid).result(timeout=60)
    workers = service.submit(pool.worker_pids).result(timeout=60)
    if pool.WORKERS > 1:
        assert workers, "the hard level's search workers should run inside the helper"
    assert all(_alive(p) for p in [helper, *workers])
    t0 = time.monotonic()
    service.close()
    assert time.monotonic() - t0 < 10
    assert _wait_gone([helper, *workers]) == []


@pytest.mark.slow
def test_a_program_using_it_exits_without_closing_it(tmp_path: Path) -> None:
    """The exit path of the app: atexit stops the helper and its workers; no hang."""
    script = tmp_path / "use.py"
    script.write_text(textwrap.dedent("""
        import os, sys
        from engine.ai import pool
        from engine.game import Game
        from engine.ruleset import ruleset
        from engine.players import make_player
        from game.table.ai_service import service

        if __name__ == "__main__":
            s = service()
            game = Game(5, rules=ruleset("piedicavallo"))
            player = make_player("hard")
            print(s.submit(os.getpid).result(timeout=60))
            print(" ".join(map(str, s.submit(pool.worker_pids).result(timeout=60))))
            cmd = s.submit(player.choose, game.view(game.state.turn), game.legal(), game.cursor)
            print(cmd.result(timeout=120))
            # a daemon thread calling in while the program exits starts nothing new
            import threading, time
            from game.table import ai_service

            def late():
                time.sleep(0.5)
                try:
                    ai_service.service().submit(os.getpid)
                    print("late call ran")
                except RuntimeError:
                    print("late call refused")
                sys.stdout.flush()

            threading.Thread(target=late, daemon=True).start()
            ai_service._at_exit()  # what atexit does first
            time.sleep(1.0)
            assert ai_service.service() is s and s.closed
            sys.stdout.flush()
    """))
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=180, env=env)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    helper = int(lines[0])
    workers = [int(p) for p in lines[1].split()]
    assert lines[-1] == "late call refused"
    assert _wait_gone([helper, *workers]) == []
