"""Saves, the table's side: archive first then clear, a finished game filed at
the next start, `play --resume`, an autosave that cannot be resumed left as it
is (one line says why), New game asking before filing an interrupted game,
autoplay's own log, and clear one-line errors for an unusable data folder or
settings file."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.game import Game
from engine.replay import read_replay
from engine.variants import PIEDICAVALLO
from game.common import paths
from game.common.settings import Settings
from game.table import session
from tests.test_gui_helpers import click

ROOT = Path(__file__).resolve().parent.parent


def _autosave_game(*, finished: bool, seed: int = 5, players=None, moves: int = 25) -> bytes:
    """A game in the user's autosave, as a killed table leaves it; returns its bytes."""
    g = Game(seed, 1, players or ["human", "random", "random", "random"],
             autosave=paths.autosave_path(), extra={"ui": "tarocchi-table"}, rules=PIEDICAVALLO)
    rnd = random.Random(seed)
    n = 0
    while g.legal() and (finished or n < moves):
        g.submit(rnd.choice(g.legal()))
        n += 1
    g.close()
    return paths.autosave_path().read_bytes()


def _env(home: Path, **extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    env.update(ARCADE_HEADLESS="1", PYTHONPATH=str(ROOT), TAROCCHI_HOME=str(home), **extra)
    return env


def _tarocchi(home: Path, *args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "game.cli", *args], cwd=ROOT, env=_env(home),
                          capture_output=True, text=True, timeout=timeout)


def _one_line(r: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in r.stderr, r.stderr[-2000:]
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    return lines[0]


# --- play --resume --------------------------------------------------------------------


@pytest.mark.slow
def test_play_resume_opens_the_interrupted_game_and_first_frame_exit_draws_it(home, tmp_path):
    before = _autosave_game(finished=False)
    script = (
        "import arcade, sys\n"
        "from game import app\n"
        "close = arcade.Window.close\n"
        "def keep(self):\n"
        "    print('view', type(self.current_view).__name__, self.current_view.game.cursor)\n"
        "    close(self)\n"
        "arcade.Window.close = keep\n"
        "sys.argv = ['tarocchi', 'play', '--resume', '--first-frame-exit']\n"
        "from game.cli import main\n"
        "sys.exit(main())\n"
    )
    r = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=_env(home), capture_output=True,
                       text=True, timeout=180)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "first frame after" in r.stdout
    n = len(read_replay(paths.autosave_path(), tolerate_torn=True).events)
    assert f"view TableView {n}" in r.stdout  # straight onto the table, the game where it was
    after = paths.autosave_path().read_bytes()
    assert after.startswith(before)  # continued, never rewritten


BROKEN = {
    "unknown level": lambda h, e: [h | {"players": ["human", "grandmaster", "random", "random"]}, *e],
    "missing players": lambda h, e: [{k: v for k, v in h.items() if k != "players"}, *e],
    "non-string player": lambda h, e: [h | {"players": ["human", 7, "random", "random"]}, *e],
    "bad JSON": lambda h, e: [h, *e[:3], "{oops", *e[3:]],
    "not a replay": lambda h, e: [{"format": "something else"}],
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(BROKEN))
def test_play_resume_with_an_autosave_it_cannot_resume_says_why_and_keeps_it(home, case):
    _autosave_game(finished=False)
    lines = paths.autosave_path().read_text().splitlines()
    objs = BROKEN[case](json.loads(lines[0]), lines[1:])
    text = "".join((o if isinstance(o, str) else json.dumps(o)) + "\n" for o in objs)
    paths.autosave_path().write_text(text)
    before = paths.autosave_path().read_bytes()
    r = _tarocchi(home, "play", "--resume", "--first-frame-exit")
    line = _one_line(r)
    assert r.returncode == 1 and line.startswith("tarocchi: cannot resume: the autosave ")
    assert {"unknown level": "'grandmaster'", "missing players": "does not say who plays",
            "non-string player": "'7'", "bad JSON": "line 5: bad JSON",
            "not a replay": "not a Tarocchi replay"}[case] in line
    assert paths.autosave_path().read_bytes() == before  # byte-identical
    # nothing else made but the data folder's writer lock, which is never removed
    assert sorted(p.name for p in home.iterdir() if p.name != paths.LOCK_NAME) == ["autosave.jsonl"]


@pytest.mark.slow
def test_play_resume_without_an_autosave_says_so(home):
    home.mkdir(parents=True, exist_ok=True)
    r = _tarocchi(home, "play", "--resume", "--first-frame-exit")
    assert r.returncode == 1 and "no interrupted game" in _one_line(r)


# --- archive first, then clear ----------------------------------------------------------------


def test_a_finished_game_left_in_the_autosave_is_filed_at_the_next_start(window, home):
    from game.screens.menu import MenuView

    before = _autosave_game(finished=True)  # killed between the score and the filing
    menu = MenuView(window)  # the menu's start files it
    assert not paths.autosave_path().exists()
    filed = list(paths.replays_dir().iterdir())
    assert len(filed) == 1 and filed[0].read_bytes() == before
    assert menu.buttons[0].label == "New game"  # nothing to resume
    before = _autosave_game(finished=True, seed=6)
    path = session.startup()  # the application's start does the same
    assert path is not None and path.read_bytes() == before and not paths.autosave_path().exists()


def test_a_failed_filing_keeps_the_finished_autosave_for_the_next_start(home):
    game = Game(12, 1, ["human", "random", "random", "random"], autosave=paths.autosave_path(), rules=PIEDICAVALLO)
    rnd = random.Random(12)
    while game.legal():
        game.submit(rnd.choice(game.legal()))
    paths.home()
    (home / "replays").write_text("in the way")  # filing cannot happen
    with pytest.raises(paths.DataFolderError):
        session.archive_finished(game)
    kept = read_replay(paths.autosave_path())
    assert kept.events == game.log  # nothing lost
    (home / "replays").unlink()
    filed = session.startup()
    assert filed is not None and read_replay(filed).events == game.log
    assert not paths.autosave_path().exists()


def test_new_game_asks_before_filing_an_interrupted_game(window, home):
    from game.screens.menu import ConfirmNewGameView, MenuView, NewGameView
    from game.table.table_view import TableView

    window.settings = Settings(partner="random", opponents="random")
    before = _autosave_game(finished=False)
    menu = MenuView(window)
    window.show_view(menu)
    menu.on_draw()
    assert re.fullmatch(r"Resume Piedicavallo: trick \d+", menu.buttons[0].label)
    new_game = next(b for b in menu.buttons if b.label == "New game")
    click(menu, *new_game.rect[:2])
    ask = window.current_view
    assert isinstance(ask, ConfirmNewGameView)
    ask.on_draw()
    assert paths.autosave_path().read_bytes() == before  # asking changes nothing
    labels = [b.label for b in ask.buttons]
    assert labels == ["Resume it", "File it and start a new game", "Back"]
    click(ask, *ask.buttons[1].rect[:2])
    setup = window.current_view
    assert isinstance(setup, NewGameView)
    click(setup, *setup.b_start.rect[:2])
    table = window.current_view
    assert isinstance(table, TableView)
    table.close()
    filed = [p for p in paths.replays_dir().iterdir() if p.name.endswith("-unfinished.jsonl")]
    assert len(filed) == 1 and filed[0].read_bytes() == before  # filed whole, not discarded
    assert read_replay(paths.autosave_path(), tolerate_torn=True).header.seed == table.game.header.seed


def test_an_autosave_that_cannot_be_resumed_is_kept_and_set_aside_by_a_new_game(window, home):
    from game.screens.menu import MenuView

    home.mkdir(parents=True, exist_ok=True)
    paths.autosave_path().write_text('{"format": "tarocchi-replay", "version": 1, "variant": "x"}\n')
    before = paths.autosave_path().read_bytes()
    menu = MenuView(window)
    assert "cannot be resumed" in menu.notice.text and "unknown variant" in menu.notice.text
    assert menu.buttons[0].label == "New game"
    with pytest.raises(session.ResumeError, match="cannot be read: line 1: unknown variant"):
        session.resume()
    assert paths.autosave_path().read_bytes() == before
    g = session.new_game(partner="random", opponents="random", match=False)
    g.close()
    aside = list(home.glob("autosave-broken-*.jsonl"))
    assert len(aside) == 1 and aside[0].read_bytes() == before  # kept, never deleted
    assert read_replay(paths.autosave_path()).header.seed == g.header.seed


def test_an_unknown_level_autosave_is_explained_in_the_menu(window, home):
    from game.screens.menu import MenuView

    before = _autosave_game(finished=False, players=["human", "grandmaster", "random", "random"])
    menu = MenuView(window)
    assert "'grandmaster'" in menu.notice.text and menu.buttons[0].label == "New game"
    assert paths.autosave_path().read_bytes() == before


# --- autoplay keeps to its own file ------------------------------------------------------------


def test_autoplay_log_paths_are_new_files_each_time(home):
    a = session.autoplay_log_path()
    b = session.autoplay_log_path()
    assert a != b and a.parent == b.parent == home / "autoplay" and a.exists() and b.exists()


# --- an unusable data folder or settings file ---------------------------------------------------


def _read_only(folder: Path) -> None:
    """Make ``folder`` refuse new files, as root too (chmod, then the immutable flag)."""
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o555)
    probe = folder / "probe"
    try:
        probe.write_text("")
    except OSError:
        return
    probe.unlink()
    subprocess.run(["chattr", "+i", str(folder)], check=True)  # root ignores the mode


def _writable_again(folder: Path) -> None:
    subprocess.run(["chattr", "-i", str(folder)], capture_output=True)
    os.chmod(folder, 0o755)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["a file", "read-only"])
def test_an_unusable_data_folder_is_one_line_in_play_and_autoplay(tmp_path, kind):
    home = tmp_path / "home"
    if kind == "a file":
        home.write_text("not a folder")
    else:
        _read_only(home)
    try:
        for args in (["play", "--first-frame-exit"], ["play", "--resume"], ["autoplay"]):
            r = _tarocchi(home, *args)
            line = _one_line(r)
            assert r.returncode == 2 and line.startswith(f"tarocchi: cannot use the data folder {home}")
            assert ("it is a file" if kind == "a file" else "read-only") in line
    finally:
        if kind != "a file":
            _writable_again(home)


def test_new_game_on_an_unusable_data_folder_is_a_message(window, tmp_path, monkeypatch):
    from game.screens.menu import NewGameView
    from game.screens.message import MessageView

    monkeypatch.setenv("TAROCCHI_HOME", str(tmp_path / "home"))
    paths.home()
    window.settings = Settings(partner="random", opponents="random")
    setup = NewGameView(window, practice=False)
    window.show_view(setup)
    _read_only(tmp_path / "home")
    try:
        setup.start()
    finally:
        _writable_again(tmp_path / "home")
    shown = window.current_view
    assert isinstance(shown, MessageView)
    assert shown.text.text.startswith("Cannot start a game: cannot use the data folder")
    assert "read-only" in shown.text.text and "\n" not in shown.text.text


def test_a_settings_file_that_is_a_folder_or_a_fifo(home, capsys):
    home.mkdir(parents=True, exist_ok=True)
    paths.settings_path().mkdir()
    assert Settings.load() == Settings()
    s = Settings(speed=2.0)
    msg = s.save()
    assert "cannot be saved" in msg and "folder" in msg and s.save() == msg  # no exception, twice
    paths.settings_path().rmdir()
    os.mkfifo(paths.settings_path())
    assert Settings.load() == Settings()  # read at once, not waited on
    paths.settings_path().unlink()
    assert Settings(speed=4.0).save() == ""
    assert Settings.load().speed == 4.0
    assert not [p for p in home.iterdir() if p.name.endswith(".tmp")]
