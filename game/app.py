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
        # pyglet checks glGetError after every GL call by default: ~200 calls a
        # frame, about 0.8 ms of the frame on llvmpipe.  TAROCCHI_DEBUG_GL=1 keeps it.
        pyglet.options.debug_gl = bool(os.environ.get("TAROCCHI_DEBUG_GL"))


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


def run(first_frame_exit: bool = False) -> int:
    """Open the window on the menu.  ``first_frame_exit``: draw one frame, print how
    long the process took to get there, and close (the start-up check)."""
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
    if first_frame_exit:

        window.dispatch_events()
        window.on_draw()
        window.flip()
        window.ctx.finish()
        print(f"first frame after {_since_process_start():.3f} s")
        window.close()
        return 0
    arcade.run()
    return 0


def _since_process_start() -> float:
    """Seconds since this process started (Linux: /proc start time vs the boot clock)."""
    import time

    try:
        with open("/proc/self/stat") as f:
            ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        return time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, AttributeError):
        return time.process_time()
