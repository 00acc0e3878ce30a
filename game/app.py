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


def window_class():
    """The game's window class (arcade imported): see :func:`make_window`."""
    import arcade

    from game.common import damage

    class TarocchiWindow(arcade.Window):
        """An arcade window that can show just the rectangles a frame redrew.

        Views add what each ``on_draw`` redrew (``add_present_boxes``): None
        for the whole window, else framebuffer boxes; ``flip`` shows them (all
        of the window if nothing said what it drew) and starts again.  It
        matters only where the back buffer is never swapped
        (``game.common.damage.SubBufferPresenter``; no vsync there); elsewhere
        ``flip`` swaps as usual.  A view switch, an Expose event and a
        fullscreen switch show the whole window once.
        """

        presents_rects = True

        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self.present_boxes: list | None = None  # None: the whole window
            self._told = False  # whether a view said what it drew since the last flip
            self._exposed = True
            self._presented_size: tuple | None = None

        def on_expose(self) -> None:
            self._exposed = True  # uncovered or mapped: show all of the kept picture

        def show_screen(self, screen: str, **arguments):
            """Show a screen by its name (``game.router``: the one place that knows them)."""
            from game import router

            return router.show(self, screen, **arguments)

        def knows_screen(self, screen: str) -> bool:
            from game import router

            return screen in router.SCREENS

        def show_view(self, new_view) -> None:
            super().show_view(new_view)
            self._exposed = True  # the next frame shows the whole window once

        def set_fullscreen(self, *args, **kwargs) -> None:
            super().set_fullscreen(*args, **kwargs)
            # a new X window and GL surface, even at the same size: a blank back buffer
            self._presented_size = None
            self._tarocchi_picture = None
            self._exposed = True
            self.__dict__.pop("_tarocchi_presenter", None)  # made again for the new X window

        def add_present_boxes(self, boxes: list | None) -> None:
            """What an ``on_draw`` redrew (None: all of it), added up until ``flip``."""
            if not self._told:
                self._told, self.present_boxes = True, []
            if boxes is None or self.present_boxes is None:
                self.present_boxes = None
            else:
                self.present_boxes.extend(boxes)

        def flip(self) -> None:
            # drawn by something that did not say what: show it all
            boxes = self.present_boxes if self._told else None
            self.present_boxes, self._told = None, False
            presenter = damage.presenter(self) if damage.redraw_mode(self) == "retained" else None
            if presenter is None:
                super().flip()
                return
            size = tuple(self.get_framebuffer_size())
            if size != self._presented_size:
                # a new size reaches the GL drawable at a buffer swap; the swap
                # leaves the back buffer undefined, so the next frame is drawn whole
                self._presented_size = size
                self._tarocchi_picture = None
                super().flip()
                return
            self.ctx.gc()
            if boxes is None or self._exposed:
                self._exposed = False
                boxes = [(0, 0, *size)]
            presenter.present(boxes)
            sync = getattr(self, "_sync_resize", None)  # what pyglet's X flip does after a swap
            if sync is not None:
                sync()

    return TarocchiWindow


def make_window(settings):
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
    from game.common import paths
    from game.table import session

    try:
        paths.check_home()
    except paths.DataFolderError as exc:
        print(f"tarocchi: {exc}", file=sys.stderr)
        return 2
    filed = session.startup()  # stale temporary files, a finished game not yet filed
    game = None
    if resume:
        try:
            game = session.resume()
        except session.ResumeBusy as exc:  # another window has it: one line, the folder named
            print(f"tarocchi: {exc}", file=sys.stderr)
            return 1
        except session.ResumeError as exc:
            print(f"tarocchi: cannot resume: {exc}", file=sys.stderr)
            return 1
    prepare_environment()
    from game.common import i18n, textures
    from game.common.settings import Settings

    settings = Settings.load()
    i18n.set_language(settings.language)
    textures.start_loading()  # decoded on a thread while the menu is shown
    import arcade

    from game.common.i18n import _
    from game.common.sound import SoundBoard

    window = make_window(settings)
    window.sound = SoundBoard(settings.sound, settings.volume)
    if settings.fullscreen:
        window.set_fullscreen(True)
    if game is not None:
        window.show_screen("game", game=game, practice=bool(game.header.extra.get("practice")), resumed=True)
    else:
        notice = _("The last game was finished but not yet filed: it is now in Replays.") if filed else ""
        window.show_screen("menu", notice=notice)
    view = window.current_view
    if first_frame_exit:
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
