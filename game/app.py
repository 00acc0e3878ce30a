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

    from . import damage

    class TarocchiWindow(arcade.Window):
        """An arcade window that can show just the rectangles a frame redrew.

        Views set ``present_boxes`` each frame (``game.ui.BaseView.on_draw``):
        None for the whole window, else the framebuffer boxes they redrew.  It
        matters only where the back buffer is never swapped
        (``game.damage.SubBufferPresenter``); elsewhere ``flip`` swaps as usual.
        """

        presents_rects = True

        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self.present_boxes: list | None = None
            self._exposed = True
            self._presented_size: tuple | None = None

        def on_expose(self) -> None:
            self._exposed = True  # uncovered or mapped: show all of the kept picture

        def flip(self) -> None:
            boxes, self.present_boxes = self.present_boxes, None
            if damage.redraw_mode(self) != "retained" or damage.presenter(self) is None:
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
                boxes = [(0, 0, *self.get_framebuffer_size())]
            damage.presenter(self).present(boxes)
            sync = getattr(self, "_sync_resize", None)  # what pyglet's X flip does after a swap
            if sync is not None:
                sync()

    return TarocchiWindow


def make_window(settings):
    from .constants import HEIGHT, TITLE, WIDTH

    window = window_class()(WIDTH, HEIGHT, TITLE, resizable=True, antialiasing=False,
                            vsync=True, update_rate=1 / 60, draw_rate=1 / 60)
    window.set_minimum_size(640, 360)
    window.settings = settings
    return window


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
