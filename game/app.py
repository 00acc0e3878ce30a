"""The game window: ``run()`` opens it on the menu."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.game import Game
    from game.common.settings import Settings
    from game.window import TarocchiWindow


def prepare_environment() -> None:
    """Before arcade is imported: EGL when asked or when there is no display, and
    silence where there is no sound device (docs/HEADLESS.md traps 1 and 2)."""
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


def window_class() -> type[TarocchiWindow]:
    """The game's window class (arcade imported): see :func:`make_window`."""
    from game.window import TarocchiWindow

    return TarocchiWindow


def make_window(settings: Settings) -> TarocchiWindow:
    from game.common.constants import HEIGHT, TITLE, WIDTH

    window = window_class()(WIDTH, HEIGHT, TITLE, resizable=True, antialiasing=False,
                            vsync=True, update_rate=1 / 60, draw_rate=1 / 60)
    window.set_minimum_size(640, 360)
    window.settings = settings
    return window


def run(first_frame_exit: bool = False, resume: bool = False) -> int:
    """Open the window on the menu (``resume``: straight on the interrupted game).
    ``first_frame_exit``: draw one frame, print how long the process took to get
    there, and close (the start-up check).  An unusable data folder, or an
    autosave that cannot be resumed, is one line on stderr and a non-zero exit
    (the autosave untouched)."""
    ready = _check_data_folder(resume)
    if isinstance(ready, int):
        return ready
    filed, game = ready
    window = _open_window()
    _first_screen(window, game, filed)
    if first_frame_exit:
        return _first_frame_and_exit(window)
    import arcade

    arcade.run()
    return 0


def _check_data_folder(resume: bool) -> tuple[Path | None, Game | None] | int:
    """Before the window: the data folder usable, the autosave filed or resumed.
    ``(filed, game)`` (``game``: the resumed game, or None), or an exit status."""
    from game.common import paths
    from game.table import session

    try:
        paths.check_home()
    except paths.DataFolderError as exc:
        print(f"tarocchi: {exc}", file=sys.stderr)
        return 2
    filed = session.startup()  # stale temporary files, a finished game not yet filed
    game: Game | None = None
    if resume:
        try:
            game = session.resume()
        except session.ResumeBusy as exc:  # another window has it: one line, the folder named
            print(f"tarocchi: {exc}", file=sys.stderr)
            return 1
        except session.ResumeError as exc:
            print(f"tarocchi: cannot resume: {exc}", file=sys.stderr)
            return 1
    return filed, game


def _open_window() -> TarocchiWindow:
    """The window with the player's settings, language, sound and textures loading."""
    prepare_environment()
    from game.common import i18n, textures
    from game.common.settings import Settings
    from game.common.sound import SoundBoard

    settings = Settings.load()
    i18n.set_language(settings.language)
    textures.start_loading()  # decoded on a thread while the menu is shown
    window = make_window(settings)
    window.sound = SoundBoard(settings.sound, settings.volume)
    if settings.fullscreen:
        window.set_fullscreen(True)
    return window


def _first_screen(window: TarocchiWindow, game: Game | None, filed: Path | None) -> None:
    """The resumed game at the table, else the menu (saying a game was just filed)."""
    from game.common.i18n import _

    if game is not None:
        window.show_screen("game", game=game, practice=bool(game.header.extra.get("practice")), resumed=True)
    else:
        notice = _("The last game was finished but not yet filed: it is now in Replays.") if filed else ""
        window.show_screen("menu", notice=notice)


def _first_frame_and_exit(window: TarocchiWindow) -> int:
    """The start-up check: one frame drawn, the time since the process started printed."""
    view = window.current_view
    assert view is not None  # _first_screen showed one
    window.dispatch_events()
    view.on_update(1 / 60)
    view.on_draw()  # the view itself: Window.on_draw draws nothing, and a
    window.flip()  # dispatched on_draw would wait in pyglet's event queue
    window.ctx.finish()
    print(f"first frame after {_since_process_start():.3f} s")
    from game.table.table_view import TableView

    if isinstance(view, TableView):
        view.close()  # its game closed, the autosave kept for the next resume
    window.close()
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
