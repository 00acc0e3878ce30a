"""Screens navigate by name: a view asks its window for a screen and the
router (game/router.py) opens it; the menu's buttons go where they say."""

from __future__ import annotations

import pytest

from game import router
from game.common import navigation

#: the screens that need no argument, and the view each one shows
PLAIN = {
    "menu": "MenuView",
    "new_game": "NewGameView",
    "rules": "RulesView",
    "settings": "SettingsView",
    "lessons": "LessonsView",
    "record": "RecordView",
    "online": "OnlineView",
    "replays": "ReplayBrowserView",
    "watch": "WatchSetupView",
}


def test_a_window_without_a_router_says_so() -> None:
    class Bare:
        pass

    with pytest.raises(navigation.NoRouter, match="cannot show the screen 'menu'.*game.router.install"):
        navigation.show(Bare(), "menu")
    assert not navigation.knows(Bare(), "menu")


def test_an_unknown_screen_is_named_with_the_known_ones(window) -> None:
    with pytest.raises(KeyError, match="no screen called 'nowhere'; the screens are: game, lessons, menu"):
        navigation.show(window, "nowhere")
    assert navigation.knows(window, "review") and not navigation.knows(window, "nowhere")


def test_the_screen_type_names_every_screen_of_the_router_and_no_other() -> None:
    """``navigation.Screen`` (what ``show`` accepts, so mypy refuses a misspelt
    name) and the router's openers are the same set."""
    from typing import get_args

    assert set(get_args(navigation.Screen)) == set(router.SCREENS)


@pytest.mark.slow
@pytest.mark.parametrize("screen", sorted(PLAIN))
def test_each_screen_opens_by_its_name(window, home, screen) -> None:
    view = navigation.show(window, screen)
    assert window.current_view is view
    assert type(view).__name__ == PLAIN[screen]
    view.on_update(1 / 60)
    view.on_draw()


def test_a_message_keeps_its_text_title_and_way_back(window, home) -> None:
    back = []
    view = navigation.show(window, "message", text="A line", title="A title", back=lambda: back.append(1))
    assert (view.text.text, view.title.text) == ("A line", "A title")
    view.on_back()
    assert back == [1]
    view = navigation.show(window, "message", text="Another")
    view.on_back()  # no way back given: the menu
    assert type(window.current_view).__name__ == "MenuView"


def test_the_menu_buttons_open_their_screens_by_name(window, home, monkeypatch) -> None:
    asked = []
    menu = navigation.show(window, "menu")
    monkeypatch.setattr(window, "show_screen", lambda screen, **kw: asked.append(screen))
    for name in ("Learn to play", "Replays", "Your record", "Rules", "Settings", "Play online", "Watch AI game"):
        (button,) = [b for b in menu.buttons if b.label == name]
        button.action()
    assert asked == ["lessons", "replays", "record", "rules", "settings", "online", "watch"]


def test_a_screen_the_router_lacks_is_coming_soon(window, home, monkeypatch) -> None:
    menu = navigation.show(window, "menu")
    monkeypatch.delitem(router.SCREENS, "replays")
    (button,) = [b for b in menu.buttons if b.label == "Replays"]
    button.action()
    assert type(window.current_view).__name__ == "MessageView"
    assert window.current_view.text.text == "Coming soon."
