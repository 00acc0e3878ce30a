"""Saves, the engine's side: bounded reading (regular files only, size, line and name
caps), crash-safe writing (temporary file, fsync, rename), the autosave
continued on resume instead of rewritten, and ``check``'s output for any file
name under a strict locale."""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine import files
from engine.files import MAX_LINE_BYTES, MAX_NAME_CHARS, MAX_REPLAY_BYTES, FileRefused
from engine.game import Game
from engine.players import make_player
from engine.replay import (
    AutosaveConflict,
    Replay,
    ReplayError,
    format_replay,
    parse_replay,
    read_replay,
    write_replay,
)
from engine.simulate import play_game
from engine.variants import PIEDICAVALLO

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"


def _game(seed: int = 42, deals: int = 1):
    return play_game(seed, [make_player("random") for _ in range(4)], deals, rules=PIEDICAVALLO)


def _tarocchi(*args: str, env: dict | None = None, timeout: float = 120):
    e = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run([sys.executable, "-m", "game.cli", *args], cwd=ROOT, env=e,
                          capture_output=True, timeout=timeout)


# --- the caps, and why they fit real games -----------------------------------------


def test_caps_leave_room_for_real_games() -> None:
    g = _game(7, 4)
    text = format_replay(g.header, g.events)
    longest = max(len(line.encode()) for line in text.splitlines())
    assert len(text.encode()) * 30 < MAX_REPLAY_BYTES  # a match is ~16 KB here
    assert longest * 8 < MAX_LINE_BYTES  # the deal line, ~450 bytes
    g.header.players = ["n" * MAX_NAME_CHARS] * 4  # four longest names: still one short line
    assert parse_replay(format_replay(g.header, g.events)).header.players[0] == "n" * MAX_NAME_CHARS


# --- only regular files, never blocking ----------------------------------------------


def test_fifo_device_and_directory_are_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    for path, what in ((fifo, "FIFO"), (Path("/dev/zero"), "device"), (tmp_path, "directory")):
        with pytest.raises(ReplayError, match=f"{what}.*not a regular file"):
            read_replay(path)
        with pytest.raises(ReplayError, match="not a regular file"):
            read_replay(path, tolerate_torn=True)
    # the command too: one line each, no traceback (a watchdog timeout, not a measure)
    r = _tarocchi("check", str(fifo), "/dev/zero", str(tmp_path), timeout=60)
    lines = r.stdout.decode().splitlines()
    assert r.returncode == 1 and len(lines) == 3 and b"Traceback" not in r.stderr
    assert all("not a regular file" in line for line in lines)


def test_a_symlink_to_a_device_is_refused_too(tmp_path: Path) -> None:
    link = tmp_path / "zero.jsonl"
    link.symlink_to("/dev/zero")
    with pytest.raises(ReplayError, match="device"):
        read_replay(link)


@pytest.mark.slow
def test_a_50_mb_file_is_refused_without_being_read(tmp_path: Path) -> None:
    big = tmp_path / "big.jsonl"
    with open(big, "wb") as f:
        f.write(b"{}\n" * (50 * 1024 * 1024 // 3))
    with pytest.raises(ReplayError, match="at most 2,097,152 bytes"):
        read_replay(big)
    # the command: refused in one line with a small footprint (the child's own peak RSS)
    code = ("import sys\nfrom game.cli import main\nrc = main(['check', sys.argv[1]])\n"
            "hwm = [x for x in open('/proc/self/status') if x.startswith('VmHWM')][0].split()[1]\n"
            "print('peak_kb', hwm, file=sys.stderr)\n"
            "sys.exit(rc)\n")
    r = subprocess.run([sys.executable, "-c", code, str(big)], cwd=ROOT, capture_output=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    assert r.returncode == 1 and b"at most" in r.stdout and b"Traceback" not in r.stderr
    peak_kb = int(r.stderr.split(b"peak_kb")[1].split()[0])
    print(f"check of a 50 MB file: peak RSS {peak_kb / 1024:.0f} MB")
    assert peak_kb < 300 * 1024


def test_a_file_growing_past_the_cap_while_read_is_cut_off(tmp_path: Path) -> None:
    p = tmp_path / "grow.jsonl"
    p.write_bytes(b"{}\n" * 10)
    it = files.iter_lines(p, max_bytes=40)
    next(it)
    with open(p, "ab") as f:  # it grows after the size check
        f.write(b"{}\n" * 100)
    with pytest.raises(FileRefused, match="over 40 bytes"):
        list(it)


def test_a_huge_line_or_player_name_is_refused_on_line_1(tmp_path: Path) -> None:
    g = _game()
    g.header.players[1] = "x" * (1900 * 1024)  # under the size cap, over the line cap
    p = tmp_path / "name.jsonl"
    p.write_text(format_replay(g.header, g.events))
    with pytest.raises(ReplayError, match=r"line 1: the line is over 4096 bytes"):
        read_replay(p)
    g.header.players[1] = "x" * (2 * 1024 * 1024)  # 2 MB: over the size cap
    p.write_text(format_replay(g.header, g.events))
    with pytest.raises(ReplayError, match="at most 2,097,152 bytes"):
        read_replay(p)
    g.header.players[1] = "y" * (MAX_NAME_CHARS + 1)  # a short line, a long name
    with pytest.raises(ReplayError, match="line 1: the name of player 1 is over 40 characters"):
        parse_replay(format_replay(g.header, g.events))
    g.header.players[1] = "z" * (2 * 1024 * 1024)  # in memory too
    with pytest.raises(ReplayError, match="over 40 characters"):
        parse_replay(format_replay(g.header, g.events))


def test_lines_are_refused_as_they_come() -> None:
    """A bad line stops the reading: what follows it is never asked for."""
    g = _game()
    head = format_replay(g.header, [])
    endless = itertools.repeat('{"type": "play"}\n')
    with pytest.raises(ReplayError, match="line 2: bad JSON"):
        parse_replay(itertools.chain([head, "{oops\n"], endless))


def test_a_torn_last_line_cut_inside_a_character_is_dropped(tmp_path: Path) -> None:
    g = Game(3, 1, ["human", "random", "r\u00e9mi", "random"], autosave=tmp_path / "a.jsonl", rules=PIEDICAVALLO)
    g.close()
    p = tmp_path / "a.jsonl"
    with open(p, "ab") as f:
        f.write('{"type": "note", "who": "r\u00e9'.encode()[:-1])  # half of the é
    with pytest.raises(ReplayError, match="line 3: the file is not UTF-8"):
        read_replay(p)
    rp = read_replay(p, tolerate_torn=True)
    assert "dropped" in rp.notice and rp.events == g.events


@pytest.mark.slow
def test_the_same_reader_serves_the_browser_and_the_viewer(tmp_path: Path) -> None:
    from game.theatre.theatre_model import list_replays

    os.mkfifo(tmp_path / "pipe.jsonl")
    (tmp_path / "zero.jsonl").symlink_to("/dev/zero")
    g = _game()
    write_replay(tmp_path / "ok.jsonl", g.header, g.events)
    entries = {e.path.name: e for e in list_replays([tmp_path])}
    assert entries["ok.jsonl"].ok
    assert "FIFO" in entries["pipe.jsonl"].error and "device" in entries["zero.jsonl"].error
    r = _tarocchi("replay", str(tmp_path / "pipe.jsonl"), "--screenshot", str(tmp_path / "x.png"),
                  env={"ARCADE_HEADLESS": "1"}, timeout=120)
    assert r.returncode == 1 and b"not a regular file" in r.stderr and b"Traceback" not in r.stderr


# --- writing ---------------------------------------------------------------------------


def test_atomic_write_keeps_the_old_file_and_no_temporary_on_failure(tmp_path: Path, monkeypatch) -> None:
    p = tmp_path / "f.json"
    files.atomic_write(p, "old")
    os.chmod(p, 0o640)

    def boom(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", boom)
    with pytest.raises(OSError):
        files.atomic_write(p, "new")
    monkeypatch.undo()
    assert p.read_text() == "old" and sorted(x.name for x in tmp_path.iterdir()) == ["f.json"]
    files.atomic_write(p, "new")
    assert p.read_text() == "new" and (p.stat().st_mode & 0o777) == 0o640  # its mode is kept
    with pytest.raises(FileExistsError):
        files.atomic_write(p, "other", overwrite=False)
    assert p.read_text() == "new" and sorted(x.name for x in tmp_path.iterdir()) == ["f.json"]


def test_temporaries_of_dead_writers_are_cleaned(tmp_path: Path) -> None:
    dead = tmp_path / f".game-1.jsonl.{2**22 + 7}-abc.tmp"  # beyond pid_max: no such process
    live = tmp_path / f".game-2.jsonl.{os.getpid()}-abc.tmp"
    legacy = tmp_path / "settings.json.tmp"  # the old NAME.tmp form
    other = tmp_path / "notes.tmp"
    for f in (dead, live, legacy, other):
        f.write_text("x")
    os.utime(legacy, (1, 1))
    removed = files.clean_temporaries(tmp_path)
    assert sorted(removed) == sorted([dead, legacy])
    assert live.exists() and other.exists()


# --- the autosave ------------------------------------------------------------------------


def _play(g: Game, n: int, seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(n):
        if not g.legal():
            return
        g.submit(rnd.choice(g.legal()))


def test_resume_appends_to_the_autosave_never_rewriting_it(tmp_path: Path) -> None:
    p = tmp_path / "auto.jsonl"
    g = Game(8, 4, autosave=p, rules=PIEDICAVALLO)
    _play(g, 60, 1)
    g.close()
    before = p.read_bytes()
    ino = p.stat().st_ino
    with open(p, "ab") as f:
        f.write(b'{"type": "pl')  # torn by a kill
    rp = read_replay(p, tolerate_torn=True)
    g2 = Game.from_replay(rp, autosave=p)
    assert p.stat().st_ino == ino  # the same file, continued in place
    assert p.read_bytes().startswith(before)  # what was there is still there, byte for byte
    _play(g2, 30, 2)
    assert read_replay(p).events == g2.log
    g2.close()


def test_resume_refuses_a_file_that_holds_another_game(tmp_path: Path) -> None:
    p = tmp_path / "auto.jsonl"
    g = Game(9, 1, autosave=p, rules=PIEDICAVALLO)
    _play(g, 40, 3)
    g.close()
    before = p.read_bytes()
    rp = read_replay(p)
    shorter = Replay(rp.header, rp.events[:10], rp.states[:11])
    with pytest.raises(AutosaveConflict, match="past the events resumed"):
        Game.from_replay(shorter, autosave=p)
    other = read_replay(GOLDEN / "single-seed-42.jsonl")
    with pytest.raises(AutosaveConflict, match="header"):
        Game.from_replay(other, autosave=p)
    assert p.read_bytes() == before


def test_a_new_autosave_is_made_whole_before_it_replaces_the_old(tmp_path: Path, monkeypatch) -> None:
    p = tmp_path / "auto.jsonl"
    g = Game(10, 1, autosave=p, rules=PIEDICAVALLO)
    _play(g, 20, 4)
    g.close()
    before = p.read_bytes()
    monkeypatch.setattr(files.os, "replace", lambda a, b: (_ for _ in ()).throw(OSError(5, "I/O error")))
    with pytest.raises(OSError):
        Game(11, 1, autosave=p, rules=PIEDICAVALLO)
    assert p.read_bytes() == before and os.listdir(tmp_path) == ["auto.jsonl"]


# --- check's output under a strict locale ---------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("env", [{"LC_ALL": "C", "PYTHONIOENCODING": "ascii:strict"},
                                 {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}])
def test_check_prints_a_non_utf8_file_name_under_a_strict_locale(tmp_path: Path, env: dict) -> None:
    g = _game()
    good = os.path.join(os.fsencode(tmp_path), b"ok-\xff\xfe.jsonl")
    bad = os.path.join(os.fsencode(tmp_path), b"bad-\xe9-caf\xc3\xa9.jsonl")
    with open(good, "w") as f:
        f.write(format_replay(g.header, g.events))
    with open(bad, "w") as f:
        f.write("{}\n")
    e = {**os.environ, "PYTHONPATH": str(ROOT), **env}
    for extra in ([], ["--json"]):
        r = subprocess.run([sys.executable, "-m", "game.cli", "check", *extra, good, bad],
                           cwd=ROOT, env=e, capture_output=True, timeout=120)
        assert b"Traceback" not in r.stderr, r.stderr.decode(errors="replace")[-1500:]
        lines = r.stdout.splitlines()
        assert r.returncode == 1 and len(lines) == 2
        if extra:
            objs = [json.loads(line) for line in lines]
            assert objs[0]["ok"] is True and objs[1]["ok"] is False
            assert os.fsencode(objs[0]["file"]) == good  # the name's own bytes, exactly
        else:
            assert b"ok-\\xff\\xfe.jsonl: ok, 1 deal, finished, points [[" in lines[0]
            assert b"bad-\\xe9-caf" in lines[1] and b"not a Tarocchi replay" in lines[1]
