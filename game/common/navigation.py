"""Screens navigate by name: a view asks its window for another screen
(``show(window, "menu")``, ``show(window, "game", game=g, practice=True)``) and never
imports it.  The window's router (:mod:`game.router`, installed on the window by
``game.router.install`` or ``game.app.make_window``) is the one place that knows
every screen; this module knows none of them.

``going_back`` and ``back_tip`` label a way back (the "<" button's tooltip)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

#: every screen by name: the window's router has one opener for each
#: (``game.router.SCREENS``), so a misspelt name fails the type check
Screen = Literal["menu", "new_game", "message", "rules", "settings", "lessons", "record", "online",
                 "replays", "watch", "replay", "review", "table", "game"]


#: a screen's way back (its "<" button, Escape): what ``going_back`` returns
Back = Callable[[], None]


class NoRouter(RuntimeError):
    """The window was made without a router (``game.router.install``)."""


def show(window: Any, screen: Screen, **arguments: Any) -> Any:
    """Show the screen called ``screen`` with ``arguments``; what the router's
    opener returns (the view, or None when it showed a message instead)."""
    router = getattr(window, "show_screen", None)
    if router is None:
        raise NoRouter(f"cannot show the screen {screen!r}: the window {type(window).__name__} has no "
                       "router (make it with game.app.make_window, or call game.router.install on it)")
    return router(screen, **arguments)


def knows(window: Any, screen: Screen) -> bool:
    """Whether the window's router has a screen called ``screen`` (a button for a
    screen that is not there is not shown)."""
    known = getattr(window, "knows_screen", None)
    return bool(known and known(screen))


def going_back(fn: Back, tip: str) -> Back:
    """``fn`` (a view's way back) with the tooltip of the "<" button that runs it,
    saying where it goes ("Back to the replays (Esc)")."""
    fn.tip = tip  # type: ignore[attr-defined]  # the function's own attribute, read by back_tip
    return fn


def back_tip(back: Back | None) -> str:
    """Where the "<" button goes: the menu when nothing else is said."""
    from game.common.i18n import _

    if back is None:
        return _("Back to the menu (Esc)")
    return getattr(back, "tip", None) or _("Back (Esc)")
