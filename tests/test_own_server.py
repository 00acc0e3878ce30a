"""The game's own server (game/screens/home_server.py): with its port taken by
another program it takes another and the lobby says which; a table is never
hosted on whatever answers there; on the home network it listens beyond
127.0.0.1; a second window on the same data folder sits at the same server; a
server that disappears is given up after bounded tries, saying why.  Loopback
only, ports free at run time (the port "taken" is one this test holds)."""

from __future__ import annotations

import http.server
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from game.common import i18n
from game.screens import home_server, online_lobby
from game.screens.online import server_lines

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture()
def fresh(home, monkeypatch) -> Iterator[None]:
    """No game server running in this process before or after the test."""
    home_server.stop()
    yield
    home_server.stop()


@pytest.fixture()
def squatter() -> Iterator[int]:
    """Another program (a plain web server) listening on a free loopback port."""
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    th = threading.Thread(target=srv.serve_forever, daemon=True)
    th.start()
    yield srv.server_address[1]
    srv.shutdown()
    srv.server_close()


def test_a_taken_port_is_never_borrowed_the_server_takes_another_and_says_which(
        fresh, squatter, monkeypatch) -> None:
    monkeypatch.setenv(home_server.PORT_VARIABLE, str(squatter))
    lobby = online_lobby.host("", "piedicavallo", 1, ["human", "random", "random"], name="Anna")
    try:
        own = lobby.own
        assert own is not None and own.mine and own.wanted == squatter and own.port != squatter
        assert lobby.url == f"ws://127.0.0.1:{own.port}"
        line, friends = server_lines(lobby)
        assert f"port {own.port}: port {squatter} is taken by another program" in line and not friends
        # the table is on the game's server: a friend joins it there
        friend = online_lobby.join("", lobby.code, name="Bruno")
        assert friend.url == lobby.url and friend.seat == 1
        friend.leave()
    finally:
        lobby.leave()
    for lang in ("fr", "it"):  # said in every language
        i18n.set_language(lang)
        try:
            assert str(squatter) in server_lines(lobby)[0] and str(own.port) in server_lines(lobby)[0]
        finally:
            i18n.set_language("en")


def test_this_computer_only_or_the_home_network_too(fresh) -> None:
    def reaches(host: str, port: int) -> bool:
        with socket.socket() as s:
            s.settimeout(2)
            return s.connect_ex((host, port)) == 0

    only_here = online_lobby.host("", "piedicavallo", 1, ["random"] * 3, name="Anna")
    port = only_here.own.port
    try:
        assert not only_here.own.lan and server_lines(only_here)[1] == ""
        assert reaches("127.0.0.1", port) and not reaches("127.0.0.2", port)  # 127.0.0.1 only
    finally:
        only_here.leave()
    house = online_lobby.host("", "piedicavallo", 1, ["random"] * 3, name="Anna", lan=True)
    try:
        own = house.own
        assert own.lan and own.port == port  # the same server, listening on every address now
        assert reaches("127.0.0.2", port)  # (any address of this computer: loopback is enough here)
        address = f"{home_server.lan_address()}:{port}"
        assert own.friends_address() == address
        assert address in server_lines(house)[1]
        assert house.link == f"http://{address}/t/{house.code}"
    finally:
        house.leave()


SECOND_WINDOW = """
import json, sys, time
from game.screens import home_server
own = home_server.own_server(False)
print(json.dumps({"url": own.url, "mine": own.mine}), flush=True)
sys.stdin.readline()
"""


@pytest.mark.slow
def test_a_second_window_on_the_same_data_folder_sits_at_the_same_server(fresh, home) -> None:
    env = {**os.environ, "TAROCCHI_HOME": str(home), "PYTHONPATH": str(ROOT)}
    first = subprocess.Popen([sys.executable, "-c", SECOND_WINDOW], env=env, cwd=ROOT,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert first.stdout is not None and first.stdin is not None
        theirs = json.loads(first.stdout.readline())
        assert theirs["mine"] is True
        own = home_server.own_server(None)
        assert not own.mine and own.url == theirs["url"]  # theirs: no second server on one store
        with pytest.raises(home_server.ServerError):  # theirs listens on this computer only
            home_server.own_server(True)
    finally:
        if first.stdin is not None:
            first.stdin.close()
        first.wait(30)
    home_server.stop()
    own = home_server.own_server(None)  # that window closed: this one runs the server now
    assert own.mine


def test_a_server_that_disappears_is_given_up_saying_why(fresh, monkeypatch) -> None:
    monkeypatch.setattr(online_lobby, "RECONNECT_ATTEMPTS", 3)
    lobby = online_lobby.host("", "piedicavallo", 1, ["human", "random", "random"], name="Anna")
    port = lobby.own.port
    home_server.stop()  # the server goes; another program takes its port
    squat = http.server.ThreadingHTTPServer(("127.0.0.1", port), http.server.SimpleHTTPRequestHandler)
    threading.Thread(target=squat.serve_forever, daemon=True).start()
    try:
        end = time.monotonic() + 60
        while not lobby.gone:
            assert time.monotonic() < end, "never given up"
            lobby.poll()
            time.sleep(0.05)
        assert lobby.error == "other_program"
        from game.common.words import server_gone

        assert "another program" in server_gone(lobby.error)
    finally:
        lobby.leave()
        squat.shutdown()
        squat.server_close()


def test_a_name_is_one_printable_line_of_at_most_32_characters() -> None:
    assert online_lobby.player_name("  Anna\tMaria \n") == "Anna Maria"
    assert online_lobby.player_name("\x1b[31mRed") == "[31mRed"
    assert len(online_lobby.player_name("x" * 100)) == 32
    assert online_lobby.player_name("") == "Player"



def test_the_table_says_its_server_is_gone_and_offers_the_menu(window, fresh, monkeypatch) -> None:
    from game.common.words import Words
    from game.table.table_view import TableView

    monkeypatch.setattr(online_lobby, "RECONNECT_ATTEMPTS", 3)
    lobby = online_lobby.host("", "piedicavallo", 1, ["random"] * 3, name="Anna")
    end = time.monotonic() + 20
    while not lobby.can_start:
        assert time.monotonic() < end
        lobby.poll()
        time.sleep(0.01)
    lobby.start()
    while not lobby.poll():
        assert time.monotonic() < end
        time.sleep(0.01)
    view = TableView(window, lobby.session(), {}, settings=window.settings)
    window.show_view(view)
    ctl = view.ctl
    home_server.stop()  # the server goes, and nothing answers at its address
    end = time.monotonic() + 60
    while not (ctl.status is not None and ctl.status.key == "server_gone"):
        assert time.monotonic() < end, view.words.say(ctl.status)
        view.on_update(1 / 60)
        time.sleep(0.02)
    view.on_draw()
    assert "no longer answers" in Words(ctl.rules, 0).say(ctl.status)
    assert ctl.end_choices == ("menu",)
    assert [b.label for b in view.toolbar.extra] == [i18n._("Back to the menu")]
    ctl.close()
