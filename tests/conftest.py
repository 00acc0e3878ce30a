"""Test setup.  For the GUI tests (tests/test_gui*.py): EGL when there is no
display, no sound device, and a temporary user data folder, all set before
arcade is first imported (HEADLESS.md traps 1-2).  The hidden window is a
session fixture used only by GUI tests, so engine tests never open one."""

from __future__ import annotations

import os
import tempfile

if not os.environ.get("DISPLAY"):
    os.environ.setdefault("ARCADE_HEADLESS", "1")
# Always a temporary data folder, even if TAROCCHI_HOME is set: the suite never
# touches the user's autosave, replays or settings.
os.environ["TAROCCHI_HOME"] = tempfile.mkdtemp(prefix="tarocchi-test-home-")

try:
    import pyglet

    pyglet.options.audio = ("silent",)
except ImportError:  # engine-only environments
    pyglet = None

import pytest


@pytest.fixture(scope="session")
def window():
    """One hidden 1280x720 window for every GUI test."""
    import arcade

    from game.settings import Settings
    from game.sound import SoundBoard

    win = arcade.Window(1280, 720, "Tarocchi tests", visible=False, antialiasing=False, vsync=False)
    win.settings = Settings()
    win.sound = SoundBoard(enabled=False)
    yield win
    win.close()


@pytest.fixture()
def home(tmp_path, monkeypatch):
    """A fresh user data folder for one test."""
    monkeypatch.setenv("TAROCCHI_HOME", str(tmp_path / "home"))
    return tmp_path / "home"
