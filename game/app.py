"""The game window: ``run()`` opens it on the menu."""

from __future__ import annotations

import os
import sys


def prepare_environment() -> None:
    """Before arcade is imported: EGL when asked or when there is no display, and
    silence where there is no sound device (HEADLESS.md traps 1 and 2)."""
    if sys.platform.startswith("linux") and not os.environ.get("DISPLAY") \
            and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("ARCADE_HEADLESS", "1")
    if "arcade" not in sys.modules:
        import pyglet

        if os.environ.get("ARCADE_HEADLESS") or os.environ.get("TAROCCHI_SILENT"):
            pyglet.options.audio = ("silent",)


class _Window:
    pass


def make_window(settings):
    import arcade

    from .constants import HEIGHT, TITLE, WIDTH

    class TarocchiWindow(arcade.Window):
        def __init__(self) -> None:
            super().__init__(WIDTH, HEIGHT, TITLE, resizable=True, antialiasing=False,
                             vsync=True, update_rate=1 / 60, draw_rate=1 / 60)
            self.set_minimum_size(640, 360)
            self.settings = settings

    return TarocchiWindow()


def run() -> int:
    prepare_environment()
    from . import i18n, textures
    from .settings import Settings

    settings = Settings.load()
    i18n.set_language(settings.language)
    textures.start_loading()  # decoded on a thread while the menu is shown
    import arcade

    from .sound import SoundBoard
    from .views.menu import MenuView

    window = make_window(settings)
    window.sound = SoundBoard(settings.sound, settings.volume)
    if settings.fullscreen:
        window.set_fullscreen(True)
    window.show_view(MenuView(window))
    arcade.run()
    return 0
