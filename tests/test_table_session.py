"""The table holds a session, not a game: driven through a session that has no
game and no State at all, only one seat's events and the views folded from
them (what a network client has), the controller plays whole games of both
variants to the end, shows exactly what the seat may know, and takes a refusal
that arrives later as data.

``SeatOnlySession`` stands for the server: its authority (an engine ``Game``)
sits behind a wall the controller cannot reach (any attribute outside the
session interface raises), its AI seats play when the table polls, and every
event crosses the wall as the viewer's seat sees it.
"""

from __future__ import annotations

import random

import pytest

from engine.game import Game
from engine.players import make_player
from engine.ruleset import ruleset
from engine.state import DealScored, IllegalMove, Play
from engine.view import advance, initial_view, seat_event, seat_view
from game.common.position import Position
from game.table.table_controller import InlineExecutor, TableController
from game.table.table_session import Notice
from tests.test_table_controller import Recorder, act

SESSION_API = frozenset({
    "rules", "viewer", "human_seats", "ai_seats", "can_rewind", "online", "players", "cursor",
    "event", "view_at", "poll", "submit", "archive", "close", "autosave_path", "deal_number",
    "first", "names", "undo_target", "redo_target", "undo", "redo",
})


class SeatOnlySession:
    """A remote seat without a network: events and views only."""

    ai_seats = None
    can_rewind = False
    online = True
    autosave_path = None
    deal_number = None
    first = 0

    def __init__(self, variant: str, seed: int, n_deals: int, viewer: int = 0) -> None:
        rules = ruleset(variant)
        self._authority = Game(seed, n_deals, rules=rules)
        self._ai = make_player("easy")
        self._rng = random.Random(seed)
        self._inbox: list[Notice] = []
        self._events: list = []
        self._views = [initial_view(seed, n_deals, rules, viewer)]
        self.rules = rules
        self.viewer = viewer
        self.human_seats = frozenset({viewer})
        self.players = tuple("human" if s == viewer else "easy" for s in range(rules.n_seats))
        self.names = ("",) * rules.n_seats
        self.refuse_next = False
        self._take_in()

    def __getattribute__(self, name: str):
        if name.startswith("_") or name in SESSION_API or name == "refuse_next":
            return object.__getattribute__(self, name)
        raise AssertionError(f"the table reached past the session interface: {name}")

    def _take_in(self) -> None:
        """Events the authority made cross the wall, as the viewer's seat sees them."""
        for e in self._authority.events[len(self._events):]:
            seen = seat_event(e, self.viewer, self.rules)
            self._events.append(seen)
            self._views.append(advance(self._views[-1], seen))

    @property
    def cursor(self) -> int:
        return len(self._events)

    def event(self, i: int):
        return self._events[i]

    def view_at(self, i: int):
        return self._views[i]

    def poll(self) -> list[Notice]:
        g = self._authority
        st = g.state
        if g.legal() and st.turn != self.viewer:  # a seat on the server plays
            seat = st.turn
            g.submit(self._ai.choose(g.view(seat), g.view(seat).legal(), g.cursor))
            self._take_in()
        out, self._inbox = self._inbox, []
        return out

    def submit(self, command) -> None:
        if self.refuse_next:  # the server refuses it, later, as data
            self.refuse_next = False
            bad = Play(self.viewer, next(iter(c for c in range(self.rules.pack.n_cards)
                                               if not self._views[-1].hand >> c & 1)))
            try:
                self._authority.submit(bad)
            except IllegalMove as exc:
                self._inbox.append(Notice("refused", str(exc), exc.refusal))
            return
        self._authority.submit(command)
        self._take_in()

    def archive(self):
        return None

    def undo_target(self) -> None:
        return None

    def redo_target(self) -> None:
        return None

    def undo(self) -> bool:
        return False

    def redo(self) -> bool:
        return False

    def close(self) -> None:
        pass


def drive(ctl: TableController, sess: SeatOnlySession, limit: int = 200_000) -> None:
    for _ in range(limit):
        if ctl.finished and ctl.shown == sess.cursor:
            return
        if ctl.waiting == "scoring":
            ctl.continue_()
        elif ctl.can_act():
            before = sess.cursor
            act(ctl)
            for _ in range(3):  # a remote answer comes with the next frames
                if sess.cursor > before:
                    break
                ctl.update(1 / 60)
            assert sess.cursor > before, ctl.status
        ctl.update(1 / 60)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("variant", ["piedicavallo", "scarto"])
def test_a_whole_game_through_a_session_without_state(variant: str, home) -> None:
    rules = ruleset(variant)
    sess = SeatOnlySession(variant, 7, rules.full_game)
    out = Recorder()
    ctl = TableController(sess, {}, out, executor=InlineExecutor(), auto_continue=True)
    ctl.speed = 1000.0
    drive(ctl, sess)
    g = sess._authority
    assert not g.legal() and len(g.state.scores) == rules.full_game
    # every position the table laid or animated is exactly the seat's view
    views = [Position.of([seat_view(st, 0)]) for st in g.states]
    for step in out.steps:
        if step.kind == "event":
            assert step.after in views
        for pos in (step.before, step.after):
            assert all(pos.hands[s] is None for s in range(1, rules.n_seats))
    assert ctl.end.sheet is not None and ctl.end.sheet.points == g.state.scores[-1]
    scored = [i for i, e in enumerate(g.events) if isinstance(e, DealScored)]
    assert len(scored) == rules.full_game


def test_a_refusal_from_the_server_is_shown_and_the_prompt_comes_back(home) -> None:
    sess = SeatOnlySession("piedicavallo", 3, 1)
    out = Recorder()
    ctl = TableController(sess, {}, out, executor=InlineExecutor())
    ctl.speed = 1000.0
    for _ in range(20_000):
        if ctl.can_act():
            break
        ctl.update(1 / 60)
    assert ctl.can_act()
    sess.refuse_next = True
    before = sess.cursor
    act(ctl)  # sent; the answer comes on a later frame
    ctl.update(1 / 60)
    assert sess.cursor == before and ctl.tone == "error" and ctl.status is not None
    assert ctl.status.key == "refused"
    for _ in range(100):
        ctl.update(1 / 60)
        if ctl.can_act():
            break
    assert ctl.can_act()  # asked again
    act(ctl)
    assert sess.cursor > before
