"""The desktop's lobby shows the table's link for a browser beside its code, with
a button that copies it; drawn in three languages (headless), the link and the
buttons fit the window."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from game.common import i18n
from game.common.constants import WIDTH
from game.screens import online_lobby
from game.screens.online import LobbyView
from online.server import start_background


def test_a_table_s_link_is_on_the_server_that_holds_it() -> None:
    link = online_lobby.table_link
    assert link("ws://127.0.0.1:8765", "ABC234") == "http://127.0.0.1:8765/t/ABC234"
    assert link("wss://cards.example.org:443/", "ABC234") == "https://cards.example.org:443/t/ABC234"
    assert link("ws://[::1]:9000", "XYZ789") == "http://[::1]:9000/t/XYZ789"


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_the_lobby_shows_the_link_and_copies_it(window, home, lang: str, tmp_path: Path) -> None:
    import arcade

    i18n.set_language(lang)
    server = start_background(tmp_path / "server")  # a free port of its own
    lobby = None
    try:
        lobby = online_lobby.host(f"127.0.0.1:{server.port}", "piedicavallo", 1,
                                  ["human", "random", "random"])
        view = LobbyView(window, lobby)
        window.show_view(view)
        end = time.monotonic() + 10
        while not lobby.seats() and time.monotonic() < end:
            view.on_update(1 / 60)
            time.sleep(0.01)
        view.on_update(1 / 60)
        view.on_draw()
        assert lobby.link == f"http://127.0.0.1:{server.port}/t/{lobby.code}"
        assert lobby.link in view.link.text
        assert view.link.content_width < WIDTH - 40, view.link.text
        assert all(b.label_fits() for b in view.buttons), [b.label for b in view.buttons]
        view.copy_link()
        # the window's clipboard, or where there is none (a headless run) a line that says so
        assert view.status.text in (i18n._("Copied"),
                                    i18n._("No clipboard here: the link is above, to type"))
        view.on_draw()
        shots = os.environ.get("TAROCCHI_WEB_SHOTS")
        folder = Path(shots) if shots else tmp_path
        folder.mkdir(parents=True, exist_ok=True)
        arcade.get_image().save(folder / f"desktop-lobby-{lang}.png")
    finally:
        if lobby is not None:
            lobby.leave()
        server.stop()
        i18n.set_language("en")
