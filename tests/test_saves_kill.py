"""Kill tests: a child process resuming or playing a game through the
real session path is SIGKILLed at random moments; every event it reported
written must still be in its file, which must read cleanly (a torn last line
is dropped).  Also ``simulate --jobs 2`` killed: its workers die with it and no
temporary file is left."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from engine.replay import event_to_json, read_replay

ROOT = Path(__file__).resolve().parent.parent

# The child: resume the interrupted game if there is one (session.resume, as the
# menu and `play --resume` do), else start a match (session.new_game, which files
# a finished autosave first).  After each command returns (its events appended
# and flushed), it prints them; at the end it files the game as the table does.
CHILD = r"""
import json, random, sys, time
from engine.replay import event_to_json
from game.table import session

rnd = random.Random(int(sys.argv[1]))
delay = float(sys.argv[2])
info = session.resumable()
if info and info[0] is not None:
    print("RESUMING", flush=True)
    g = session.resume()
    print("RESUMED", g.header.seed, len(g.log), flush=True)
else:
    g = session.new_game(partner="random", opponents="random", match=True, human=False,
                         players=["random"] * 4, seed=rnd.getrandbits(40))
    print("NEW", g.header.seed, len(g.log), flush=True)
while g.legal():
    before = len(g.log)
    g.submit(rnd.choice(g.legal()))
    print("\n".join(f"E {i + 1} {json.dumps(event_to_json(g.log[i], g.rules))}"
                    for i in range(before, len(g.log))), flush=True)
    if delay:
        time.sleep(delay)
print("FILED", session.archive_finished(g), flush=True)
"""


def _seed_of(path: Path) -> int | None:
    try:
        with open(path, encoding="utf-8") as f:
            return json.loads(f.readline()).get("seed")
    except (OSError, ValueError):
        return None


def _file_of(home: Path, seed: int) -> list[Path]:
    """The files holding the game ``seed``: the autosave and/or filed replays."""
    found = [p for p in (home / "replays").glob("*.jsonl") if _seed_of(p) == seed] \
        if (home / "replays").is_dir() else []
    auto = home / "autosave.jsonl"
    if auto.exists() and _seed_of(auto) == seed:
        found.append(auto)
    return found


def _check_game(home: Path, seed: int, reported: dict[int, dict], have: int) -> bool:
    """Every reported event of game ``seed`` is in its one file; returns whether it is finished."""
    files = _file_of(home, seed)
    assert len(files) == 1, (seed, files)  # in one place: never lost, never filed twice
    rp = read_replay(files[0], tolerate_torn=True)  # reads cleanly (a torn last line dropped)
    assert len(rp.events) >= max([have, *reported]), (files[0], len(rp.events), max(reported or [0]))
    for i, obj in reported.items():
        assert event_to_json(rp.events[i - 1], rp.rules) == obj, (files[0], i)
    return len(rp.final.scores) == rp.final.n_deals


class Lines:
    """The child's stdout, line by line, as it comes (read on a thread)."""

    def __init__(self, stream) -> None:
        self.got: list[bytes] = []
        self.ended = threading.Event()
        self._cv = threading.Condition()
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream) -> None:
        for line in iter(stream.readline, b""):
            with self._cv:
                self.got.append(line)
                self._cv.notify_all()
        with self._cv:
            self.ended.set()
            self._cv.notify_all()

    def saw(self, word: bytes | tuple[bytes, ...]) -> bool:
        return any(x.startswith(word) for x in self.got)

    def wait_for(self, word: bytes | tuple[bytes, ...], timeout: float) -> None:
        """Until a line starts with ``word`` or the stream ends (a watchdog timeout)."""
        with self._cv:
            self._cv.wait_for(lambda: self.ended.is_set() or self.saw(word), timeout=timeout)

    def all(self, timeout: float = 60) -> bytes:
        self._thread.join(timeout)
        return b"".join(self.got)


def _kill_one_run(rnd: random.Random, rounds: int, env: dict) -> tuple[bool, bool, bytes]:
    """One run of the child, killed at a random moment: (killed, killed inside
    session.resume(), what it printed)."""
    delay = rnd.choice((0.0, 0.0005, 0.002))
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(rounds), str(delay)], cwd=ROOT,
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
    lines = Lines(child.stdout)
    if rounds % 2:  # at a random moment: start-up, resume, play or filing
        time.sleep(rnd.uniform(0.0, 0.35))
    else:  # within 3 ms of the start of a resume (which takes about 4 ms), or early in a new game
        lines.wait_for((b"RESUMING", b"NEW"), timeout=30)
        time.sleep(rnd.uniform(0.0, 0.003 if lines.saw(b"RESUMING") else 0.1))
    killed = False
    if child.poll() is None:
        child.send_signal(signal.SIGKILL)
        killed = True
    child.wait(timeout=60)
    out = lines.all()
    # killed inside session.resume()
    in_resume = child.returncode == -signal.SIGKILL and lines.saw(b"RESUMING") and not lines.saw(b"RESUMED")
    err = child.stderr.read() if child.stderr else b""
    assert child.returncode in (0, -signal.SIGKILL), err.decode()[-2000:]
    return killed, in_resume, out


class _Reports:
    """What the runs reported, game by game: the game's seed, its events by index and
    how many the child had; each game checked against its file as it goes."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.seed: int | None = None
        self.reported: dict[int, dict] = {}
        self.have = 0
        self.seeds: set[int] = set()
        self.resumed = 0

    def _game(self, word: str, rest: str) -> None:
        s, n = (int(x) for x in rest.split())
        if s != self.seed:  # another game: the last one must be filed, whole and finished
            if self.seed is not None:
                assert _check_game(self.home, self.seed, self.reported, self.have), "a game left unfinished"
            self.seed, self.reported, self.have = s, {}, 0
            self.seeds.add(s)
        self.resumed += word == "RESUMED"
        self.have = max(self.have, n)

    def read(self, out: bytes) -> None:
        """One run's output; then the game so far is checked against its file."""
        for line in out.decode().splitlines(keepends=True):
            if not line.endswith("\n"):
                break  # cut by the kill: not a report
            word, _, rest = line.rstrip("\n").partition(" ")
            if word in ("NEW", "RESUMED"):
                self._game(word, rest)
            elif word == "E":
                i, obj = rest.split(" ", 1)
                self.reported[int(i)] = json.loads(obj)
        if self.seed is not None:
            _check_game(self.home, self.seed, self.reported, self.have)


@pytest.mark.slow
def test_kills_while_playing_and_resuming_lose_no_reported_event(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {**os.environ, "TAROCCHI_HOME": str(home), "PYTHONPATH": str(ROOT)}
    env.pop("DISPLAY", None)
    rnd = random.Random(13)
    kills = rounds = in_resume = 0
    reports = _Reports(home)
    while (kills < 34 or reports.resumed < 10) and rounds < 120:  # resumes depend on the load
        rounds += 1
        killed, inside, out = _kill_one_run(rnd, rounds, env)
        kills += killed
        in_resume += inside
        reports.read(out)
    resumed, seeds = reports.resumed, reports.seeds
    print(f"kill test: {kills} kills in {rounds} runs ({in_resume} inside a resume), "
          f"{resumed} resumes, {len(seeds)} games, no reported event lost")
    assert kills >= 30 and resumed >= 10
    # the next start clears what the kills left: no temporary file anywhere
    subprocess.run([sys.executable, "-c", "from game.table import session; session.startup()"], cwd=ROOT,
                   env=env, check=True, timeout=60)
    assert not [p for p in home.rglob("*") if p.name.endswith(".tmp")]
    for s in seeds:  # each game in exactly one file
        assert len(_file_of(home, s)) == 1


def _children(pid: int) -> list[int]:
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(d.name))
    return out


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has exited


def _cmdline(pid: int) -> str:
    """The command line of a process ("" if it has just ended)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


@pytest.mark.slow
def test_simulate_jobs_workers_die_with_their_parent_and_leave_no_temporary(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    stale = out / f".game-00007.jsonl.{2**22 + 12345}-abc.tmp"  # a dead writer's (pid beyond pid_max)
    stale.write_text("{")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    parent = subprocess.Popen(
        [sys.executable, "-m", "game.cli", "simulate", "--games", "40", "--seed", "3", "--jobs", "2",
         "--players", "hard,hard,hard,hard", "--budget-ms", "40", "--quiet", "--out", str(out)],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        workers: list[int] = []
        while time.monotonic() < deadline:  # both workers started (a watchdog, not a measure)
            workers = [p for p in _children(parent.pid) if "spawn_main" in _cmdline(p)]
            if len(workers) >= 2:
                break
            time.sleep(0.05)
        assert len(workers) >= 2, "the workers did not start"
        assert not stale.exists()  # the run began by clearing what a killed run left
        time.sleep(0.5)  # mid-game in both workers
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(timeout=30)
        deadline = time.monotonic() + 30
        while any(_running(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = [w for w in workers if _running(w)]
    finally:
        if parent.poll() is None:
            parent.kill()
    for w in left:  # do not leave them behind even when the test fails
        os.kill(w, signal.SIGKILL)
    assert not left, f"workers {left} outlived their parent"
    assert not [p.name for p in out.iterdir() if p.name.endswith(".tmp")]
