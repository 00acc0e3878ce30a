"""The table's remote session over a client that speaks like ``online.client``'s
``ThreadedClient`` (its ``poll`` messages, ``send_command``), with an engine game
standing in for the server: whole games at the table from every seat, each seat
drawn at the bottom of its own table under its own name; the positions the
table shows are the seat's own views, as the server sent them; a refusal comes
back as data; and at the end the game rebuilt from the public seed equals the
server's log, event for event.
"""

from __future__ import annotations

import pytest

from engine.game import Game
from engine.players import make_player
from engine.ruleset import ruleset
from engine.state import IllegalMove, Play
from engine.view import seat_event, seat_view
from game.common import layout
from game.common.position import Position
from game.common.words import Words
from game.table.remote_session import RemoteSession
from game.table.table_controller import InlineExecutor, TableController
from tests.test_table_controller import Recorder, act
from tests.test_table_session import drive


class FakeClient:
    """The server's game behind a ThreadedClient's interface: the other seats play
    (easy) when polled; messages carry ``engine_event``/``seat_view`` as the real
    client's do, after they were folded."""

    def __init__(self, variant: str, seed: int, n_deals: int, seat: int) -> None:
        rules = ruleset(variant)
        self.authority = Game(seed, n_deals, rules=rules)
        self.seat = seat
        self.rules = rules
        self.seed = seed
        self.ai = make_player("easy")
        self.sent: list = []
        self.inbox: list[dict] = []
        self.last_seq = 0
        self.view = seat_view(self.authority.states[0], seat)
        self.bad_next = False
        self.closed = False  # the deal is told on the first poll, as a server's would be

    def _take_in(self) -> None:
        g = self.authority
        for i in range(self.last_seq, g.cursor):
            seen = seat_event(g.events[i], self.seat, self.rules)
            self.view = seat_view(g.states[i + 1], self.seat)
            self.last_seq = i + 1
            self.inbox.append({"type": "event", "seq": i + 1, "engine_event": seen,
                               "seat_view": self.view})
        if not g.legal() and not any(m["type"] == "game_over" for m in self.inbox):
            self.inbox.append({"type": "game_over", "seed": self.seed, "code": "TEST22"})

    def poll(self) -> list[dict]:
        g = self.authority
        if self.last_seq < g.cursor:
            self._take_in()
        elif g.legal() and g.state.turn != self.seat:
            s = g.state.turn
            g.submit(self.ai.choose(g.view(s), g.view(s).legal(), g.cursor))
            self._take_in()
        out, self.inbox = self.inbox, []
        return out

    def send_command(self, cmd) -> str:
        self.sent.append(cmd)
        if self.bad_next:  # refused by the server, as data
            self.bad_next = False
            cmd = Play(cmd.seat, next(c for c in range(self.rules.pack.n_cards)
                                      if not self.view.hand >> c & 1))
        try:
            self.authority.submit(cmd)
        except IllegalMove as exc:
            r = exc.refusal
            self.inbox.append({"type": "error", "id": "c1", "code": "illegal", "text": str(exc),
                               "rule": r.rule, "reason": r.reason, "cards": list(r.cards),
                               "suit": r.suit, "count": r.count, "seat": r.seat})
            return "c1"
        self._take_in()
        return "c1"

    def close(self) -> None:
        self.closed = True


@pytest.mark.parametrize("variant,seat", [("piedicavallo", 0), ("piedicavallo", 1),
                                          ("piedicavallo", 2), ("scarto", 1), ("scarto", 2)])
def test_a_whole_online_game_from_any_seat(variant: str, seat: int, home) -> None:
    rules = ruleset(variant)
    client = FakeClient(variant, 5 + seat, rules.full_game, seat)
    sess = RemoteSession(client, players=tuple("human" if s == seat else "easy"
                                               for s in range(rules.n_seats)))
    assert sess.viewer == seat and sess.human_seats == {seat} and sess.players[seat] == "human"
    out = Recorder()
    ctl = TableController(sess, {}, out, executor=InlineExecutor(), auto_continue=True)
    ctl.speed = 1000.0
    drive(ctl, sess)
    g = client.authority
    assert not g.legal()
    # the commands went out as the table made them: this seat's
    assert client.sent and all(c.seat == seat for c in client.sent)
    # what the table showed is the seat's own view, no other hand in it
    views = [Position.of([seat_view(st, seat)]) for st in g.states]
    for step in out.steps:
        if step.kind == "event":
            assert step.after in views
        for pos in (step.before, step.after):
            assert all(pos.hands[s] is None for s in range(rules.n_seats) if s != seat)
    # the sheet speaks of the real sides, the viewer's among them
    assert ctl.end.sheet is not None and ctl.end.sheet.points == g.state.scores[-1]
    assert ctl.end.sheet.viewer_side == rules.side[seat]
    # the game rebuilt from the public seed equals the server's, and is filed
    full = sess.full_game()
    assert full is not None and full.log == g.log
    path = ctl.replay_path
    assert path is not None and path.exists() and "online" in path.name
    from engine.replay import read_replay

    rp = read_replay(path)
    assert rp.events == g.log and rp.header.extra["seat"] == seat
    # and your record counts it from your seat, not from the first person's
    from game.common.record import deal_outcome, read_record

    rec = read_record(path)
    assert rec.human and rec.seat == seat
    assert deal_outcome(rec.variant, rec.seat, list(g.state.scores[0]))[0] == \
        g.state.scores[0][rules.side[seat]]


@pytest.mark.parametrize("variant", ["piedicavallo", "scarto"])
def test_each_seat_sits_at_the_bottom_of_its_own_table_under_its_own_name(variant: str, home) -> None:
    """The layout puts the viewer's seat at the bottom and the others round it in
    the order of play, each keeping its seat's name and its side's pile: the host
    (South) and a guest at any other seat name the same seats."""
    rules = ruleset(variant)
    for seat in range(rules.n_seats):
        client = FakeClient(variant, 3, 1, seat)
        sess = RemoteSession(client)
        ctl = TableController(sess, {}, Recorder(), executor=InlineExecutor())
        while not ctl.view().hand:  # the deal comes with the first poll
            ctl.update(1 / 60)
        pos = ctl.position()
        places = layout.table_places(pos, bottom=sess.viewer)
        mine = [places[("card", c)] for c in ctl.hand_order()]
        assert mine and all(p.y < layout.SOUTH_Y + 20 and p.face_up for p in mine)  # the bottom hand
        seating = layout.Seating(rules, seat)
        for s in range(rules.n_seats):  # the next seat in the order of play on the right
            assert seating.spot(s) == layout.spot(rules.n_seats, (s - seat) % rules.n_seats)
            if s != seat:
                assert all(places[("back", s, i)].y > layout.SOUTH_Y + 60 for i in range(pos.hand_sizes[s]))
        assert seating.pile_pos[rules.side[seat]] == layout.geometry(rules.n_seats).pile_pos[0]
        words = Words(rules, ctl.you)
        assert [words.name(s) for s in range(rules.n_seats)][seat] == "You"
        assert all(words.name(s) in (rules.seat_names[s], "Partner") for s in range(rules.n_seats) if s != seat)
        ctl.close()


def test_a_refusal_from_the_server_comes_back_to_the_prompt(home) -> None:
    client = FakeClient("piedicavallo", 4, 1, 2)
    sess = RemoteSession(client)
    out = Recorder()
    ctl = TableController(sess, {}, out, executor=InlineExecutor())
    ctl.speed = 1000.0
    for _ in range(20_000):
        if ctl.can_act():
            break
        ctl.update(1 / 60)
    assert ctl.can_act()
    client.bad_next = True
    before = sess.cursor
    act(ctl)
    ctl.update(1 / 60)
    assert sess.cursor == before and ctl.tone == "error" and ctl.status.key == "refused"
    act(ctl)  # the prompt came back: this time it goes through
    for _ in range(10):
        ctl.update(1 / 60)
    assert client.authority.cursor > before
