"""A write error keeps the game.  A failed append of the
autosave (disk full, folder gone, read-only) leaves ``Game`` exactly as it was
before the command, cuts the log back to its last whole line (``tarocchi check``
accepts it) and raises one ``SaveFailed`` naming the file and the error."""

from __future__ import annotations

import contextlib
import errno
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from engine import replay as replay_mod
from engine.files import SaveFailed
from engine.game import Game
from engine.replay import read_replay
from engine.variants import PIEDICAVALLO

ROOT = Path(__file__).resolve().parent.parent


def _check(path: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "game.cli", "check", str(path)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


def _snapshot(g: Game):
    return (list(g.events), list(g.states), g.cursor, g.state)


def _play(g: Game, rand: random.Random, n: int) -> None:
    for _ in range(n):
        legal = g.legal()
        if not legal:
            return
        g.submit(legal[int(rand.random() * len(legal))])


class _DiskFull:
    """``os.pwrite`` of the autosave that writes part of what it is given, then
    fails with ENOSPC (a full disk stops a write half-way), while armed."""

    def __init__(self, monkeypatch) -> None:
        self.armed = False
        self.calls = 0
        real = os.pwrite

        def pwrite(fd, data, at):
            if not self.armed:
                return real(fd, data, at)
            self.calls += 1
            if self.calls == 1 and len(data) > 4:  # a torn line first
                return real(fd, bytes(data[: len(data) // 2]), at)
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        monkeypatch.setattr(replay_mod.os, "pwrite", pwrite)


@contextlib.contextmanager
def _small_tmpfs():
    """A 256 KB tmpfs (root, Linux), else None: then the error is injected."""
    d = tempfile.mkdtemp(prefix="tarocchi-full-")
    ok = False
    if hasattr(os, "geteuid") and os.geteuid() == 0 and sys.platform.startswith("linux"):
        ok = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", d],
                            capture_output=True).returncode == 0
    try:
        yield Path(d) if ok else None
    finally:
        if ok:
            subprocess.run(["umount", d], capture_output=True)
        os.rmdir(d)


def _fill(folder: Path) -> Path:
    """Fill the file system of ``folder`` to the last byte; returns the filler."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as f:
        for size in (65536, 4096, 512, 64, 1):
            while True:
                try:
                    f.write(b"\0" * size)
                except OSError as exc:
                    assert exc.errno == errno.ENOSPC
                    break
    return filler


def _assert_failure_atomic(g: Game, log: Path, command, before) -> SaveFailed:
    with pytest.raises(SaveFailed) as info:
        g.submit(command)
    exc = info.value
    assert str(log) in str(exc) and "\n" not in str(exc)
    assert isinstance(exc.__cause__, OSError)
    assert g.save_error is exc
    events, states, cursor, state = before
    assert g.events == events and g.cursor == cursor and g.state is state
    assert len(g.states) == len(states) and all(a is b for a, b in zip(g.states, states, strict=True))
    assert log.read_bytes().endswith(b"\n")
    rp = read_replay(log)  # strict: no torn line
    assert rp.events == g.log
    r = _check(log)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stdout + r.stderr
    return exc


def test_a_torn_append_is_cut_back_and_the_game_kept(tmp_path, monkeypatch) -> None:
    log = tmp_path / "autosave.jsonl"
    g = Game(5, 1, autosave=log, rules=PIEDICAVALLO)
    rand = random.Random(5)
    _play(g, rand, 9)
    disk = _DiskFull(monkeypatch)
    disk.armed = True
    command = g.legal()[0]
    before = _snapshot(g)
    exc = _assert_failure_atomic(g, log, command, before)
    assert "the disk is full" in str(exc)
    disk.armed = False  # room again: the same command goes through, and the game goes on
    g.submit(command)
    _play(g, rand, 400)
    assert g.over and read_replay(log).events == g.events


def test_a_failed_write_after_an_undo_keeps_the_redo_tail(tmp_path, monkeypatch) -> None:
    log = tmp_path / "autosave.jsonl"
    g = Game(8, 1, players=["random"] * 4, autosave=log, rules=PIEDICAVALLO)
    rand = random.Random(8)
    _play(g, rand, 20)
    seat = g.state.turn
    assert g.undo(seat)
    disk = _DiskFull(monkeypatch)
    disk.armed = True
    before = _snapshot(g)
    tail = list(g.events[g.cursor:])
    assert tail
    legal = g.legal()
    command = legal[-1]
    _assert_failure_atomic(g, log, command, before)
    assert g.events[g.cursor:] == tail  # redo still possible
    disk.calls = 0
    with pytest.raises(SaveFailed):  # redo appends the tail: refused the same way
        g.redo(seat)
    assert g.cursor == before[2] and read_replay(log).events == g.log
    disk.armed = False
    assert g.redo(seat)
    assert read_replay(log).events == g.log


def test_a_folder_gone_or_read_only_is_one_line(tmp_path, monkeypatch) -> None:
    log = tmp_path / "autosave.jsonl"
    g = Game(3, 1, autosave=log, rules=PIEDICAVALLO)
    _play(g, random.Random(3), 5)

    def refuse(fd, data, at):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(replay_mod.os, "pwrite", refuse)
    before = _snapshot(g)
    exc = _assert_failure_atomic(g, log, g.legal()[0], before)
    assert "read-only" in str(exc)


def test_a_full_disk_under_a_game() -> None:
    """The done-when check: a real full disk (a small tmpfs) where this runs as
    root, else the error injected at the write (the tests above)."""
    with _small_tmpfs() as folder:
        if folder is None:  # not root: the same path is taken with an injected error
            mp = pytest.MonkeyPatch()
            try:
                tmp = Path(tempfile.mkdtemp())
                g = Game(11, 1, autosave=tmp / "autosave.jsonl", rules=PIEDICAVALLO)
                _play(g, random.Random(11), 6)
                disk = _DiskFull(mp)
                disk.armed = True
                _assert_failure_atomic(g, tmp / "autosave.jsonl", g.legal()[0], _snapshot(g))
            finally:
                mp.undo()
            return
        log = folder / "autosave.jsonl"
        g = Game(11, 4, autosave=log, rules=PIEDICAVALLO)
        rand = random.Random(11)
        _play(g, rand, 6)
        filler = _fill(folder)
        failed = None
        for _ in range(400):  # the log's last page may still take a few lines
            command = g.legal()[int(rand.random() * len(g.legal()))]
            before = _snapshot(g)
            try:
                g.submit(command)
            except SaveFailed:
                failed = command
                break
        assert failed is not None, "the disk never filled"
        assert "the disk is full" in str(g.save_error)
        filler.unlink()  # check's own temporaries need no room; the file is as it was cut
        _assert_failure_atomic_after(g, log, before)
        g.submit(failed)  # room again: the game goes on from the same position
        _play(g, rand, 2000)
        assert g.over
        g.close()
        assert read_replay(log).events == g.events


def _assert_failure_atomic_after(g: Game, log: Path, before) -> None:
    events, states, cursor, state = before
    assert g.events == events and g.cursor == cursor and g.state is state
    assert len(g.states) == len(states)
    assert read_replay(log).events == g.log
    r = _check(log)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stdout + r.stderr


# --- autoplay on a full disk ------------------------------------------------------------------

#: ``tarocchi autoplay`` with the disk full from the first write (ENOSPC injected
#: at every write of a file, where no small tmpfs can be mounted)
AUTOPLAY_INJECTED = """
import errno, os, sys
from engine import files, replay
def full(*a, **k):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
files.os.write = full
replay.os.pwrite = full
from game.cli import main
sys.exit(main())
"""


def _autoplay_cmd(home: Path, injected: bool) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TAROCCHI_HOME": str(home), "ARCADE_HEADLESS": "1"}
    args = ["autoplay", "--deals", "1", "--speed", "8", "--players", "random,random,random,random"]
    head = ["-c", AUTOPLAY_INJECTED] if injected else ["-m", "game.cli"]
    return subprocess.run([sys.executable, *head, *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)


def _one_line_failure(r: subprocess.CompletedProcess) -> str:
    assert r.returncode == 1, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("tarocchi autoplay: could not save the game to ")
    assert "the disk is full" in lines[0]
    return lines[0]


def _logs(home: Path) -> list[Path]:
    folder = home / "autoplay"
    return sorted(folder.iterdir()) if folder.is_dir() else []


@pytest.mark.slow
def test_autoplay_on_a_full_disk_exits_with_one_line_and_leaves_no_empty_file(tmp_path) -> None:
    with _small_tmpfs() as folder:
        if folder is None:
            home = tmp_path / "home"
            line = _one_line_failure(_autoplay_cmd(home, injected=True))
            assert _logs(home) == []
            return
        # full from the start: one line, and no file left
        filler = _fill(folder)
        line = _one_line_failure(_autoplay_cmd(folder, injected=False))
        assert str(folder / "autoplay") in line
        assert _logs(folder) == []
        # full half-way through the deal (one page of room: the log of a deal is larger)
        os.truncate(filler, max(0, filler.stat().st_size - 4096))
        line = _one_line_failure(_autoplay_cmd(folder, injected=False))
        logs = _logs(folder)
        assert len(logs) == 1 and str(logs[0]) in line
        filler.unlink()
        assert logs[0].read_bytes().endswith(b"\n")
        rp = read_replay(logs[0])  # strict: ends at its last whole line
        assert 0 < len(rp.events) and len(rp.final.scores) == 0  # the deal was under way
        r = _check(logs[0])
        assert r.returncode == 0 and "unfinished" in r.stdout, r.stdout + r.stderr


@pytest.mark.slow
def test_autoplay_stops_at_a_failed_write_mid_game(window, home, monkeypatch) -> None:
    from game.autoplay import AutoplayFailed, run_autoplay

    real = os.pwrite
    calls = {"n": 0}

    def pwrite(fd, data, at):
        calls["n"] += 1
        if calls["n"] > 25:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd, data, at)

    monkeypatch.setattr(replay_mod.os, "pwrite", pwrite)
    with pytest.raises(AutoplayFailed) as info:
        run_autoplay(deals=1, seed=5, players=["random"] * 4, speed=8.0, window=window, max_seconds=60)
    assert "\n" not in str(info.value) and "the disk is full" in str(info.value)
    [log] = _logs(home)
    assert str(log) in str(info.value)
    rp = read_replay(log)
    assert len(rp.events) == 25  # every whole move up to the failure
