"""Screens navigate by name: a view asks its window for another screen
(``show(window, "menu")``, ``show(window, "game", game=g, practice=True)``) and never
imports it.  The window's router (:mod:`game.router`, installed on the window by
``game.router.install`` or ``game.app.make_window``) is the one place that knows
every screen; this module knows none of them.

``going_back`` and ``back_tip`` label a way back (the "<" button's tooltip)."""

from __future__ import annotations

from typing import Any


class NoRouter(RuntimeError):
    """The window was made without a router (``game.router.install``)."""


def show(window: Any, screen: str, **arguments: Any) -> Any:
    """Show the screen called ``screen`` with ``arguments``; what the router's
    opener returns (the view, or None when it showed a message instead)."""
    router = getattr(window, "show_screen", None)
    if router is None:
        raise NoRouter(f"cannot show the screen {screen!r}: the window {type(window).__name__} has no "
                       "router (make it with game.app.make_window, or call game.router.install on it)")
    return router(screen, **arguments)


def knows(window: Any, screen: str) -> bool:
    """Whether the window's router has a screen called ``screen`` (a button for a
    screen that is not there is not shown)."""
    known = getattr(window, "knows_screen", None)
    return bool(known and known(screen))


def going_back(fn: Any, tip: str) -> Any:
    """``fn`` (a view's way back) with the tooltip of the "<" button that runs it,
    saying where it goes ("Back to the replays (Esc)")."""
    fn.tip = tip
    return fn


def back_tip(back: Any) -> str:
    """Where the "<" button goes: the menu when nothing else is said."""
    from game.common.i18n import _

    if back is None:
        return _("Back to the menu (Esc)")
    return getattr(back, "tip", None) or _("Back (Esc)")
