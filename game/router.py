"""The router: the one place that knows every screen, by name.

A view never imports another screen: it calls
``game.common.navigation.show(window, "replays")`` and the window's router opens
it here.  Every screen module is imported lazily, inside its opener, so opening
the menu loads neither the theatre nor the online lobby.  A new screen is a view
module plus one opener and one line in :data:`SCREENS`.

Each opener takes the window and the screen's arguments, shows the screen (or a
message saying why it cannot) and returns the view shown, or None."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from game.common.navigation import Screen


def _menu(window: Any, notice: str = "") -> Any:
    from game.screens.menu import MenuView

    return _show(window, MenuView(window, notice))


def _new_game(window: Any, practice: bool = False) -> Any:
    from game.screens.menu import NewGameView

    return _show(window, NewGameView(window, practice))


def _message(window: Any, text: str, *, title: str = "", back: Callable[[], None] | None = None) -> Any:
    from game.screens.message import MessageView

    return _show(window, MessageView(window, text, title=title, back=back))


def _rules(window: Any) -> Any:
    from game.screens.rules import RulesView

    return _show(window, RulesView(window))


def _settings(window: Any) -> Any:
    from game.screens.settings import SettingsView

    return _show(window, SettingsView(window))


def _lessons(window: Any) -> Any:
    from game.screens.lessons_view import LessonsView

    return _show(window, LessonsView(window))


def _record(window: Any, variant: str | None = None) -> Any:
    from game.screens.record_view import RecordView

    return _show(window, RecordView(window) if variant is None else RecordView(window, variant))


def _online(window: Any) -> Any:
    from game.screens.online import OnlineView

    return _show(window, OnlineView(window))


def _replays(window: Any) -> Any:
    from game.theatre.replay_browser import ReplayBrowserView

    return _show(window, ReplayBrowserView(window))


def _watch(window: Any) -> Any:
    from game.theatre.theatre import WatchSetupView

    return _show(window, WatchSetupView(window))


def _replay(window: Any, path: Any, back: Callable[[], None] | None = None) -> Any:
    from game.theatre import theatre

    return theatre.open_replay(window, path, back=back)


def _review(window: Any, path: Any, seat: int | None = None, back: Callable[[], None] | None = None,
            deal: int | None = None) -> Any:
    from game.theatre import review_view

    return review_view.open_review(window, path, seat=seat, back=back, deal=deal)


def _table(window: Any, *args: Any, **kwargs: Any) -> Any:
    """The table on any session (a lesson's, an online seat's): ``TableView``'s arguments."""
    from game.table.table_view import TableView

    return _show(window, TableView(window, *args, **kwargs))


def _game(window: Any, game: Any, practice: bool = False, resumed: bool = False) -> Any:
    """The table on a local game (new or resumed), with its way back and "Play again"."""
    from game.table import table_view

    return table_view.start_table(window, game, practice=practice, resumed=resumed)


#: every screen by name: its opener
SCREENS: dict[Screen, Callable[..., Any]] = {
    "menu": _menu,
    "new_game": _new_game,
    "message": _message,
    "rules": _rules,
    "settings": _settings,
    "lessons": _lessons,
    "record": _record,
    "online": _online,
    "replays": _replays,
    "watch": _watch,
    "replay": _replay,
    "review": _review,
    "table": _table,
    "game": _game,
}


def _show(window: Any, view: Any) -> Any:
    window.show_view(view)
    return view


def show(window: Any, screen: Screen, **arguments: Any) -> Any:
    """Open the screen called ``screen`` on ``window``."""
    try:
        opener = SCREENS[screen]
    except KeyError:
        raise KeyError(f"no screen called {screen!r}; the screens are: {', '.join(sorted(SCREENS))}") from None
    return opener(window, **arguments)


def install(window: Any) -> Any:
    """Give a window (any arcade window: the tests' hidden one) this router:
    ``window.show_screen(name, **arguments)`` and ``window.knows_screen(name)``."""
    window.show_screen = lambda screen, **arguments: show(window, screen, **arguments)
    window.knows_screen = lambda screen: screen in SCREENS
    return window
