"""One writer per data folder.  The process that has the
autosave open holds the folder's lock; a second Tarocchi on the same folder is
refused a game (new or resumed) in one line naming the folder, and a lock left
by a dead process never blocks anyone."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from engine.replay import read_replay
from game.common import paths
from game.table import session

ROOT = Path(__file__).resolve().parent.parent

#: The first Tarocchi: starts a game in TAROCCHI_HOME, plays ``n`` moves, says
#: "ready", and on each line of stdin plays ``n`` more; "end" closes the game.
WRITER = """
import json, random, sys
from game.table import session
n = int(sys.argv[1])
game = session.new_game(partner="random", opponents="random", match=True,
                        players=["human", "random", "random", "random"])
rand = random.Random(7)

def play():
    for _ in range(n):
        legal = game.legal()
        if legal:
            game.submit(legal[int(rand.random() * len(legal))])
    print(json.dumps({"events": len(game.events), "cursor": game.cursor}), flush=True)

play()
for line in sys.stdin:
    if line.strip() == "end":
        break
    play()
from engine.replay import format_replay
text = format_replay(game.header, game.log)  # every event this process made, as its file holds them
game.close()
print(json.dumps({"closed": text}), flush=True)
"""

NEW_GAME = """
import sys
from game.common import paths
from game.table import session
try:
    session.new_game(partner="random", opponents="random", match=False)
except paths.AutosaveBusy as exc:
    print(exc, file=sys.stderr)
    sys.exit(1)
print("started")
"""


def _env(home: Path, **extra: str) -> dict:
    return {**os.environ, "PYTHONPATH": str(ROOT), "TAROCCHI_HOME": str(home), "ARCADE_HEADLESS": "1",
            **extra}


def _writer(home: Path, n: int) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", WRITER, str(n)], cwd=ROOT, env=_env(home),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _refused_in_one_line(r: subprocess.CompletedProcess, home: Path) -> None:
    assert r.returncode != 0, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert len(lines) == 1, r.stderr
    assert "The game in progress is open in another Tarocchi window" in lines[0]
    assert str(home) in lines[0]


@pytest.mark.slow
def test_a_second_tarocchi_is_refused_and_the_first_keeps_every_event(home):
    home.mkdir(parents=True)
    a = _writer(home, 30)
    try:
        first = json.loads(a.stdout.readline())
        assert first["events"] >= 30
        # a second process: play --resume exits non-zero with the one line
        r = subprocess.run([sys.executable, "-m", "game.cli", "play", "--resume"], cwd=ROOT,
                           env=_env(home), capture_output=True, text=True, timeout=120)
        _refused_in_one_line(r, home)
        # and starting a game is refused the same way, the autosave untouched
        size = (home / "autosave.jsonl").stat().st_size
        r = subprocess.run([sys.executable, "-c", NEW_GAME], cwd=ROOT, env=_env(home),
                           capture_output=True, text=True, timeout=60)
        _refused_in_one_line(r, home)
        assert (home / "autosave.jsonl").stat().st_size == size
        assert not (home / "replays").exists() or not list((home / "replays").iterdir())
        # here too: the menu's paths refuse, the record and replays stay readable
        assert session.resumable() == (None, paths.busy_message(home))
        with pytest.raises(session.ResumeBusy):
            session.resume()
        with pytest.raises(paths.AutosaveBusy):
            session.new_game(partner="random", opponents="random", match=False)
        assert session.startup() is None
        a.stdin.write("more\n")
        a.stdin.flush()
        second = json.loads(a.stdout.readline())
        a.stdin.write("end\n")
        a.stdin.flush()
        made = json.loads(a.stdout.readline())["closed"]
        assert a.wait(timeout=30) == 0, a.stderr.read()
    finally:
        if a.poll() is None:
            a.kill()
            a.wait()
        for f in (a.stdin, a.stdout, a.stderr):
            f.close()
    rp = read_replay(home / "autosave.jsonl")  # strict: a valid game
    assert len(rp.events) == second["cursor"] > first["cursor"]
    # every event the first one made, byte for byte, and nothing else
    assert (home / "autosave.jsonl").read_text(encoding="utf-8") == made
    r = subprocess.run([sys.executable, "-m", "game.cli", "check", str(home / "autosave.jsonl")],
                       cwd=ROOT, env=_env(home), capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and ": ok," in r.stdout
    # the first one has closed it: now this process may resume and continue it
    game = session.resume()
    try:
        assert game.log == rp.events
    finally:
        game.close()


def test_a_lock_left_by_a_killed_process_blocks_nobody(home):
    home.mkdir(parents=True)
    a = _writer(home, 12)
    try:
        made = json.loads(a.stdout.readline())
        with pytest.raises(paths.AutosaveBusy):
            paths.acquire_autosave()
        os.kill(a.pid, signal.SIGKILL)
        a.wait(timeout=30)
    finally:
        if a.poll() is None:
            a.kill()
            a.wait()
        for f in (a.stdin, a.stdout, a.stderr):
            f.close()
    assert (home / paths.LOCK_NAME).exists()  # left behind, and harmless
    game = session.resume()
    try:
        assert len(game.log) == made["cursor"]
        legal = game.legal()
        game.submit(legal[int(random.Random(1).random() * len(legal))])
    finally:
        game.close()
    assert len(read_replay(home / "autosave.jsonl").events) >= made["cursor"] + 1


def test_the_lock_is_held_while_a_game_is_open_and_counted(home):
    game = session.new_game(partner="random", opponents="random", match=False)
    assert paths.holds_autosave()
    nxt = session.new_game(partner="random", opponents="random", match=False)  # this process: allowed
    game.close()
    assert paths.holds_autosave()  # the second game still has it
    r = subprocess.run([sys.executable, "-c", NEW_GAME], cwd=ROOT, env=_env(home),
                       capture_output=True, text=True, timeout=60)
    _refused_in_one_line(r, home)
    nxt.close()
    assert not paths.holds_autosave()
    r = subprocess.run([sys.executable, "-c", NEW_GAME], cwd=ROOT, env=_env(home),
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == "started", r.stderr


def test_the_menu_says_the_refusal_in_one_line(window, home):
    from game.screens.menu import MenuView, NewGameView, resume_game
    from game.screens.message import MessageView

    home.mkdir(parents=True)
    a = _writer(home, 8)
    try:
        json.loads(a.stdout.readline())
        menu = MenuView(window)
        assert menu.notice.text.endswith(paths.busy_message(home)) or \
            paths.busy_message(home) in menu.notice.text
        window.show_view(menu)
        menu.on_draw()
        resume_game(window)
        view = window.current_view
        assert isinstance(view, MessageView) and view.text.text == paths.busy_message(home)
        setup = NewGameView(window, practice=False)
        window.show_view(setup)
        setup.start()
        view = window.current_view
        assert isinstance(view, MessageView) and view.text.text == paths.busy_message(home)
        view.on_draw()
    finally:
        a.kill()
        a.wait()
        for f in (a.stdin, a.stdout, a.stderr):
            f.close()
