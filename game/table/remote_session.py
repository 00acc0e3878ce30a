"""A seat at a table held by a Tarocchi server: the table's remote session (no arcade).

It implements :class:`game.table.table_session.TableSession` over the websocket client
of :mod:`online.client` (``ThreadedClient``: its socket runs on a thread of its
own; :meth:`RemoteSession.poll`, called by the table every frame, takes in what
arrived).  The server decides every command and sends this seat's events,
numbered: event ``seq`` n is the n-th of the table's log, so the session's
``event(i)`` is the one numbered ``i + 1`` and ``view_at(i)`` the seat's view
after ``i`` events, folded by the client (:func:`engine.view.advance`).

A snapshot (joining a game under way, or coming back far behind) lays the table
out at once: the events before it are not known here (``first``), and the
table is told to resync.  Online games have no undo.  When the game is over the
server makes its seed public; :meth:`archive` rebuilds the whole game with the
engine from that seed and the tricks this seat saw (each dealer's discard is
the only cards of its hand it never played), every move checked by ``decide``,
and files it under ``replays/`` like a local game.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from engine.errors import Refusal
from engine.game import Game
from engine.ruleset import Ruleset
from engine.state import (
    CardPlayed,
    Command,
    Dealt,
    Discard,
    Event,
    Play,
)
from engine.view import SeatView
from game.table.table_session import Notice

#: refusal fields the server sends as data (PROTOCOL.md, ``error``)
_REFUSAL_FIELDS = ("cards", "suit", "count", "seat")


def refusal_of(msg: dict[str, Any]) -> Refusal | None:
    """The engine's refusal carried by a server ``error`` (None if it has none)."""
    if not msg.get("rule") or not msg.get("reason"):
        return None
    fields: dict[str, Any] = {}
    for k in _REFUSAL_FIELDS:
        if k in msg:
            fields[k] = tuple(msg[k]) if k == "cards" else msg[k]
    try:
        return Refusal(str(msg["rule"]), str(msg["reason"]), str(msg.get("text", "")), **fields)
    except TypeError:
        return None


class RemoteSession:
    """The table's side of an online seat (``client`` is joined to its seat).

    Every seat keeps its number and name at the table: ``seat`` (the viewer,
    drawn at the bottom by the table's layout) is the seat taken at the server's
    table, and the events, views, refusals and commands are the server's own.
    A watcher (``seat`` -1) sees the table from South, with no hand."""

    can_rewind = False  # online games have no undo
    online = True
    ai_seats = None  # the AI seats play at the server's table: their moves come as events
    autosave_path: Path | None = None
    deal_number: int | None = None

    def __init__(self, client: Any, joined: dict[str, Any] | None = None, *,
                 players: tuple[str, ...] = (), names: tuple[str, ...] = (),
                 backlog: list[dict[str, Any]] | None = None) -> None:
        """``joined``: the server's ``seated`` (or ``watching``) answer, whose
        snapshot is where this session starts (the client may have folded later
        events already: they come through :meth:`poll`); without it, the
        client's view as it stands."""
        if joined is not None:
            view: SeatView | None = joined["seat_view"]
            first = int(joined["snapshot"]["seq"])
        else:
            view, first = client.view, client.last_seq
        if view is None:
            raise ValueError("the client has not joined a seat")
        self.client = client
        self.rules: Ruleset = view.rules
        self.seat = view.seat
        self.viewer = max(view.seat, 0)
        self.human_seats = frozenset({view.seat}) if view.seat >= 0 else frozenset()
        n = self.rules.n_seats
        self._players = tuple(players) or tuple("human" for _ in range(n))
        given = names or ("",) * n
        self._given = tuple(given)  # every person's name, yours too (the game's file keeps them)
        self._created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())  # when this seat sat down
        self._names = tuple("" if s == view.seat else given[s] for s in range(n))  # yours: "You"
        self.first = first  # events before this one are not known here
        self._views: dict[int, SeatView] = {self.first: view}
        self._events: dict[int, Event] = {}  # as the server numbered and sent them, from 0
        self._cursor = self.first
        self._backlog = list(backlog or [])
        self._stand_ins: frozenset[int] | None = None  # the seats the AI plays for their person
        self.over: dict[str, Any] | None = None
        self._filed: Path | str | None = None  # the replay written at the end ("": none)

    @property
    def players(self) -> tuple[str, ...]:
        return self._players

    @property
    def names(self) -> tuple[str, ...]:
        return self._names

    @property
    def cursor(self) -> int:
        return self._cursor

    def event(self, i: int) -> Event:
        return self._events[i]

    def view_at(self, i: int) -> SeatView:
        return self._views[i]

    def poll(self) -> list[Notice]:
        out: list[Notice] = []
        msgs, self._backlog = [*self._backlog, *self.client.poll()], []
        for m in msgs:
            kind = m.get("type")
            if kind == "event" and "engine_event" in m:
                seq = int(m["seq"])
                if seq == self._cursor + 1:
                    self._events[seq - 1] = m["engine_event"]
                    self._views[seq] = m["seat_view"]
                    self._cursor = seq
            elif kind == "snapshot" and "seat_view" in m:
                seq = int(m["seq"])
                v = m["seat_view"]
                if seq != self._cursor or self._views.get(seq) != v:
                    self.first = self._cursor = seq
                    self._views = {seq: v}
                    self._events = {}
                    out.append(Notice("resync"))
            elif kind == "error":
                if m.get("id") is not None:  # the answer to a command of ours
                    out.append(Notice("refused", str(m.get("text", "")), refusal_of(m)))
                else:
                    out.append(Notice("error", str(m.get("text", ""))))
            elif kind == "presence":
                out.append(Notice("presence", seat=int(m.get("seat", -1)), connected=bool(m.get("connected"))))
            elif kind == "connection":
                out.append(Notice("connection", str(m.get("reason", "")),
                                  connected=m.get("state") == "back"))
            elif kind in ("takeover", "timeout"):
                out.append(Notice(kind, seat=int(m.get("seat", -1)), data=dict(m)))
            elif kind == "game_over":
                self.over = m
            elif kind == "lobby":
                out.extend(self._hear_lobby(m))
        return out

    def _hear_lobby(self, m: dict[str, Any]) -> list[Notice]:
        """The seats the AI plays for a person who is away (the lobby's ``takeover``),
        said when they change: the plates say "AI for Anna" until the person is back."""
        seats = m.get("seats")
        if not isinstance(seats, list):
            return []
        now = frozenset(s for s, seat in enumerate(seats) if isinstance(seat, dict) and seat.get("takeover"))
        if now == self._stand_ins:
            return []
        self._stand_ins = now
        return [Notice("stand_ins", data={"seats": sorted(now)})]

    def submit(self, command: Command) -> None:
        self.client.send_command(command)  # the answer comes through poll

    def undo_target(self) -> int | None:
        return None

    def redo_target(self) -> int | None:
        return None

    def undo(self) -> bool:
        return False

    def redo(self) -> bool:
        return False

    # --- the end of the game ---------------------------------------------------------

    def full_game(self, players: list[str] | None = None) -> Game | None:
        """The whole game, rebuilt by the engine from the seed the server made
        public at the end and the plays this seat saw; None before the end or
        where this session did not see every event."""
        if self.over is None or self.first != 0 or "seed" not in self.over:
            return None
        seed = int(self.over["seed"])
        last = self._views[self._cursor]
        names = players or list(self._players)
        g = Game(seed, last.n_deals, names, rules=self.rules,
                 extra={"online": True, "seat": self.seat, "names": list(self._given),
                        "created": self._created})
        plays = [e for i, e in sorted(self._events.items()) if isinstance(e, (CardPlayed, Dealt))]
        pending: list[CardPlayed] = []
        for e in [*plays, None]:
            if isinstance(e, CardPlayed):
                pending.append(e)
                continue
            if pending:  # one deal's plays: its discard first, found by elimination
                st = g.state
                dealer = st.dealer
                mine = 0
                for p in pending:
                    if p.seat == dealer:
                        mine |= 1 << p.card
                cards = tuple(c for c in range(self.rules.pack.n_cards)
                              if (st.hands[dealer] & ~mine) >> c & 1)
                g.submit(Discard(dealer, cards))
                for p in pending:
                    g.submit(Play(p.seat, p.card))
                pending = []
        return g

    def archive(self) -> Path | None:
        """File the finished game under ``replays/`` (as a local game is) and note
        it in the record."""
        from engine.files import atomic_write
        from engine.replay import format_replay
        from game.common import paths, record

        if self.over is None:  # the server's word of the end may still be on its way
            return None
        if self._filed is not None:
            return self._filed if isinstance(self._filed, Path) else None
        self._filed = ""  # once: a game that cannot be rebuilt is not tried every frame
        g = self.full_game()
        if g is None:
            return None
        stamp = time.strftime("%Y%m%d-%H%M%S")
        kind = "match" if (g.header.deals or 1) > 1 else "deal"
        if self.rules.name != "piedicavallo":
            kind = f"{self.rules.name}-{kind}"
        folder = paths.replays_dir()
        text = format_replay(g.header, g.log)
        for n in range(1, 100):
            path = folder / f"{stamp}-online-{kind}-{g.header.seed}{'' if n == 1 else f'-{n}'}.jsonl"
            try:
                atomic_write(path, text, overwrite=False)
            except FileExistsError:
                continue
            record.note_later(path)
            self._filed = path
            return path
        return None

    def close(self) -> None:
        self.client.close()


__all__ = ["RemoteSession", "refusal_of"]
