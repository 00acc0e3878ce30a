"""Play online at the real views (headless): host a table on this computer (the
player's name asked once, kept in Settings), a friend joins by the code, the
lobby fills, the host starts, and the table opens on a remote session in which
the host sits at the bottom; a wrong code is refused in one line.  The game's
own server takes free ports only here (tests/conftest.py)."""

from __future__ import annotations

import time

import arcade
import pytest

from game.common import i18n
from game.screens import online_lobby
from game.screens.online import LobbyView, OnlineView
from game.table.remote_session import RemoteSession
from game.table.table_view import TableView


def _until(cond, view, friend=None, seconds: float = 20.0) -> None:
    end = time.monotonic() + seconds
    while not cond():
        assert time.monotonic() < end, "timed out"
        view.on_update(1 / 60)
        if friend is not None:
            friend.poll()
        time.sleep(0.005)


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_host_a_table_a_friend_joins_and_the_table_opens(window, home, lang) -> None:
    i18n.set_language(lang)
    window.settings.variant = "piedicavallo"
    window.settings.match = False
    window.settings.online_server = ""
    window.settings.player_name = ""
    try:
        setup = OnlineView(window)
        window.show_view(setup)
        setup.on_draw()
        labels = [b.label for b in setup.buttons]
        assert all(labels) and all(b.label_fits() for b in setup.buttons), labels
        setup.host()  # the first time: the player's name is asked first
        assert window.current_view is setup and setup.typing == "name"
        setup.on_text("Anna ")
        setup.on_key_press(arcade.key.ENTER, 0)
        assert window.settings.player_name == "Anna"
        lobby_view = window.current_view
        assert isinstance(lobby_view, LobbyView)
        lobby = lobby_view.lobby
        assert lobby.is_host and len(lobby.code) == 6
        _until(lambda: lobby.seats(), lobby_view)
        assert not lobby.can_start  # East is a friend's seat, still empty
        assert not lobby_view.b_start.enabled
        assert lobby.seats()[0]["name"] == "Anna"  # the name chosen, not the login
        friend = online_lobby.join("", lobby.code.lower(), name="Bruno")  # not case-sensitive
        assert friend.seat == 1 and not friend.is_host
        _until(lambda: lobby.can_start, lobby_view, friend)
        lobby_view.on_draw()
        assert lobby_view.b_start.enabled
        _the_ai_for_a_friend_away_is_said(lobby_view, lang)
        lobby_view.start()
        _until(lambda: window.current_view is not lobby_view, lobby_view, friend)
        table = window.current_view
        assert isinstance(table, TableView)
        sess = table.session
        assert isinstance(sess, RemoteSession) and sess.human_seats == frozenset({0})
        assert sess.names[1] == "Bruno"  # East's plate: the friend's name
        assert sess.players[2:] == ("medium", "medium")
        assert table.game is None  # no engine game at an online table
        _until(lambda: sess.cursor >= 1, table, friend)  # the deal arrived
        table.on_draw()
        fs = friend.session()
        end = time.monotonic() + 20
        while fs.cursor < 1:  # the friend's table takes in the same deal, its own hand
            assert time.monotonic() < end
            fs.poll()
            time.sleep(0.005)
        assert fs.viewer == fs.seat == 1  # the friend sits at the bottom of theirs, as East
        assert fs.names[0] != "" and fs.names[1] == ""  # the host's plate named; the friend's own: "You"
        assert fs.view_at(fs.cursor).hand != sess.view_at(sess.cursor).hand
        table.ctl.close()
        fs.close()
    finally:
        i18n.set_language("en")


def _the_ai_for_a_friend_away_is_said(lobby_view, lang: str) -> None:
    """The lobby's labels fit; a friend's seat the AI plays while they are away says
    for whom (the lobby's takeover)."""
    assert all(b.label_fits() for b in lobby_view.buttons), [b.label for b in lobby_view.buttons]
    seats = lobby_view.lobby.info["seats"]
    seats[1] = {**seats[1], "takeover": "medium"}
    lobby_view._labels()
    ai_for = {"en": "AI for Bruno", "fr": "IA pour Bruno", "it": "IA per Bruno"}[lang]
    assert lobby_view.seat_rows[1].label.endswith(ai_for), lobby_view.seat_rows[1].label
    seats[1] = {k: v for k, v in seats[1].items() if k != "takeover"}
    lobby_view._labels()
    assert lobby_view.seat_rows[1].label.endswith("Bruno")


def test_a_wrong_code_is_refused_in_one_line(home) -> None:
    with pytest.raises(online_lobby.OnlineError) as exc:
        online_lobby.join("", "ZZZZZZ")
    text = str(exc.value)
    assert "ZZZZZZ" in text and "\n" not in text


def test_the_player_s_name_is_changed_in_settings_and_kept(window, home) -> None:
    from game.common.settings import Settings
    from game.screens.settings import SettingsView

    window.settings.player_name = "Anna"
    view = SettingsView(window)
    window.show_view(view)
    row = view.buttons[view.rows.index("name")]
    assert "Anna" in row.label
    row.action()  # its line is typed: Backspace, new letters, Enter
    for _i in range(4):
        view.on_key_press(arcade.key.BACKSPACE, 0)
    view.on_text("Bice\x07")
    view.on_key_press(arcade.key.ENTER, 0)
    assert window.settings.player_name == "Bice" and "Bice" in row.label
    assert Settings.load().player_name == "Bice"  # saved
    row.action()
    view.on_key_press(arcade.key.ESCAPE, 0)  # Esc: the name stays as it was
    assert window.settings.player_name == "Bice"
    view.on_draw()
    assert all(b.label_fits() for b in view.buttons), [b.label for b in view.buttons]
