"""Two tables play one online game on a loopback server: each table holds a
remote session (``game.table.remote_session``) over ``online.client.ThreadedClient``,
the host creates the table and shares the code, a friend joins by it, two AI
seats play on the server.  Both tables reach the end, each showed only its own
seat's view (its seat drawn at the bottom, under its own number), and both
file the same game as the server's replay."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from engine.replay import read_replay
from engine.ruleset import ruleset
from engine.state import DISCARD, PLAY
from engine.view import seat_view
from game.common.position import Position
from game.table.remote_session import RemoteSession
from game.table.table_controller import InlineExecutor, TableController
from online.client import ThreadedClient
from online.server import start_background
from tests.support.online_harness import truth
from tests.test_table_controller import Recorder, act


@pytest.fixture
def server(tmp_path: Path):
    h = start_background(tmp_path / "server")
    yield h
    h.stop()


def _table(client: ThreadedClient, reply) -> TableController:
    """A table on a remote session of ``client``'s seat, animations at once."""
    ctl = TableController(RemoteSession(client, reply), {}, Recorder(), executor=InlineExecutor())
    ctl.speed = 1000.0
    return ctl


def _run(tables: list[TableController], cond, seconds: float = 30, each=None) -> None:
    """Frames of every table (then ``each(table)``) until ``cond()``, at most ``seconds``."""
    end = time.monotonic() + seconds
    while not cond():
        assert time.monotonic() < end
        for ctl in tables:
            ctl.update(1 / 60)
            if each is not None:
                each(ctl)
        time.sleep(0.002)


@pytest.mark.slow
@pytest.mark.parametrize("variant,seats", [("piedicavallo", ["human", "easy", "human", "easy"]),
                                           ("scarto", ["human", "human", "easy"])])
def test_two_tables_play_one_online_game(server, tmp_path, home, variant, seats) -> None:
    rules = ruleset(variant)
    people = [s for s, k in enumerate(seats) if k == "human"]
    clients = []
    joined = []
    host = ThreadedClient()
    host.connect(server.url, "Anna")
    code, _token = host.create(variant, 1, seats, {})
    for i, s in enumerate(people):
        c = host if i == 0 else ThreadedClient()
        if i:
            c.connect(server.url, "Bruno")
        reply = c.join(code, s)
        assert reply["seat"] == s
        clients.append(c)
        joined.append(reply)
    host.start()
    tables = []
    for c, reply in zip(clients, joined, strict=True):
        sess = RemoteSession(c, reply, players=tuple(seats))
        out = Recorder()
        ctl = TableController(sess, {}, out, executor=InlineExecutor(), auto_continue=True)
        ctl.speed = 1000.0
        tables.append((ctl, sess, out))
    try:
        _play_to_the_end(tables)
    finally:
        for c in clients:
            c.close()
    _rules, events, states, _seed = truth(server.data_dir, code)
    for (ctl, sess, out), s in zip(tables, people, strict=True):
        _check_table(rules, ctl, sess, out, s, events, states)


def _play_to_the_end(tables) -> None:
    """Every table plays its seat until each has shown the end and filed the game."""
    deadline = time.monotonic() + 120
    while not all(ctl.finished and ctl.shown == sess.cursor and ctl.replay_path is not None
                  for ctl, sess, _ in tables):
        assert time.monotonic() < deadline, [(ctl.scene, sess.cursor) for ctl, sess, _ in tables]
        for ctl, _sess, _out in tables:
            if ctl.waiting == "scoring":
                ctl.continue_()
            elif ctl.can_act():
                act(ctl)
            ctl.update(1 / 60)
        time.sleep(0.002)


def _check_table(rules, ctl, sess, out, s: int, events, states) -> None:
    """Seat ``s``'s table drew only its seat's view, as the server sent it, with
    ``s`` at the bottom, and filed the server's game."""
    assert sess.viewer == s
    views = {Position.of([seat_view(st, s)]) for st in states}
    for step in out.steps:
        if step.kind == "event":
            assert step.after in views
        for pos in (step.before, step.after):
            assert all(pos.hands[o] is None for o in range(rules.n_seats) if o != s)
    # the finished game filed under replays/ is the server's game
    assert ctl.replay_path is not None
    rp = read_replay(ctl.replay_path)
    assert rp.events == events and rp.header.extra["seat"] == s


def test_a_friend_who_drops_is_shown_reconnecting_then_back(server, home) -> None:
    """The other table says "East is reconnecting" while a friend's connection is
    gone (the seat stays theirs), then that they are back; the friend's table
    is back at the exact position."""
    import asyncio

    host = ThreadedClient()
    host.connect(server.url, "Anna")
    code, _ = host.create("piedicavallo", 1, ["human", "human", "easy", "easy"], {})
    joined = [host.join(code, 0)]
    friend = ThreadedClient()
    friend.connect(server.url, "Bruno")
    joined.append(friend.join(code, 1))
    host.start()
    try:
        tables = [_table(c, reply) for c, reply in zip((host, friend), joined, strict=True)]
        host_ctl, friend_ctl = tables

        def run(cond) -> None:
            _run(tables, cond)

        run(lambda: host_ctl.session.cursor >= 1 and friend_ctl.session.cursor >= 1)
        asyncio.run_coroutine_threadsafe(friend.client.drop(), friend._loop).result(5)
        run(lambda: 1 in host_ctl.notices.away)  # the friend sits East of the host (seat 1)
        assert host_ctl.banner is not None and host_ctl.banner.key == "reconnecting"
        run(lambda: 1 not in host_ctl.notices.away)  # the client came back by itself
        assert host_ctl.banner.key == "seat_back"
        run(lambda: friend_ctl.session.cursor == host_ctl.session.cursor)
        assert friend_ctl.session.view_at(friend_ctl.session.cursor).hand == friend.view.hand
    finally:
        host.close()
        friend.close()


@pytest.mark.slow
def test_the_ai_playing_for_a_dropped_friend_is_said_until_the_friend_is_back(server, home) -> None:
    """The host gives a dropped friend's seat to the AI: the host's table knows the
    AI plays for that seat (its plate says "AI for Bruno"), and forgets it once the
    friend resumes the seat with its token."""
    host = ThreadedClient()
    host.connect(server.url, "Anna")
    code, _ = host.create("piedicavallo", 1, ["human", "human", "easy", "easy"], {})
    reply = host.join(code, 0)
    friend = ThreadedClient()
    friend.connect(server.url, "Bruno")
    friend.join(code, 1)
    token = friend.token
    host.start()
    back = ThreadedClient()
    open_clients = [host, friend, back]
    try:
        ctl = _table(host, reply)

        def run(cond) -> None:
            _run([ctl], cond)

        run(lambda: ctl.session.cursor >= 1)
        assert ctl.notices.ai_for == frozenset()
        open_clients.remove(friend)
        friend.close()
        run(lambda: 1 in ctl.notices.away)
        host.takeover(1)
        run(lambda: ctl.notices.ai_for == {1})
        back.connect(server.url, "Bruno")
        back.resume(code, token)
        run(lambda: ctl.notices.ai_for == frozenset())
    finally:
        for c in open_clients:
            c.close()


def test_the_hand_stays_dark_while_the_server_has_not_answered_a_card(server, home) -> None:
    """A card clicked at an online table goes to the server; until its event (or
    its refusal) comes back the hand does not light up again, and a second click
    sends nothing: before, the cards lit up again at once and a second card went
    out, which the server refused ("not your turn")."""
    host = ThreadedClient()
    host.connect(server.url, "Anna")
    code, _ = host.create("piedicavallo", 1, ["human", "easy", "easy", "easy"], {})
    reply = host.join(code, 0)
    host.start()
    try:
        ctl = _table(host, reply)

        def discard(ctl: TableController) -> None:
            if ctl.can_act() and ctl.view().phase == DISCARD:
                act(ctl)  # the dealer's discard, answered as usual

        def run(cond) -> None:
            _run([ctl], cond, each=discard)

        run(lambda: ctl.can_act() and ctl.view().phase == PLAY)
        held: list = []
        send = host.send_command
        host.send_command = held.append  # type: ignore[method-assign]  # the answer held back
        at = ctl.session.cursor
        first, second = (c.card for c in ctl.view().legal()[:2]) if len(ctl.view().legal()) > 1 \
            else (ctl.view().legal()[0].card, -1)
        assert ctl.click_card(first) and len(held) == 1
        for _ in range(30):  # half a second of frames, no answer yet
            ctl.update(1 / 60)
        assert ctl.session.cursor == at
        assert not ctl.legal_cards and not ctl.can_act()
        assert not ctl.click_card(second if second >= 0 else first)
        assert len(held) == 1  # nothing more went out
        host.send_command = send  # type: ignore[method-assign]
        send(held[0])  # the server hears the card now
        run(lambda: ctl.session.cursor > at)
        run(lambda: ctl.can_act() or ctl.view().turn != 0)  # and the game goes on
    finally:
        host.close()
