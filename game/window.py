"""The game's window: an arcade window that knows its screens by name
(``show_screen``, through :mod:`game.router`) and can show just the rectangles a
frame redrew.  Importing this module imports arcade: ``game.app.prepare_environment``
comes first (``game.app.window_class``)."""

from __future__ import annotations

from typing import Any

import arcade

from game.common import damage
from game.common.navigation import Screen


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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.present_boxes: list[tuple[int, int, int, int]] | None = None  # None: the whole window
        self._told = False  # whether a view said what it drew since the last flip
        self._exposed = True
        self._presented_size: tuple[int, int] | None = None

    def on_expose(self) -> None:
        self._exposed = True  # uncovered or mapped: show all of the kept picture

    def show_screen(self, screen: Screen, **arguments: Any) -> Any:
        """Show a screen by its name (``game.router``: the one place that knows them)."""
        from game import router

        return router.show(self, screen, **arguments)

    def knows_screen(self, screen: Screen) -> bool:
        from game import router

        return screen in router.SCREENS

    def show_view(self, new_view: arcade.View) -> None:
        super().show_view(new_view)
        self._exposed = True  # the next frame shows the whole window once

    def set_fullscreen(self, *args: Any, **kwargs: Any) -> None:
        super().set_fullscreen(*args, **kwargs)
        # a new X window and GL surface, even at the same size: a blank back buffer
        self._presented_size = None
        self._tarocchi_picture = None
        self._exposed = True
        self.__dict__.pop("_tarocchi_presenter", None)  # made again for the new X window

    def add_present_boxes(self, boxes: list[tuple[int, int, int, int]] | None) -> None:
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
        size = self.get_framebuffer_size()
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
