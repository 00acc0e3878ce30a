"""What the play table holds instead of a game: a *session* (no arcade).

The table (:class:`game.table.table_controller.TableController`) sees one seat's
knowledge and nothing else: the events as its viewer's seat saw them
(:func:`engine.view.seat_event`), numbered from 0, and the viewer's
:class:`~engine.view.SeatView` after any of them.  It sends commands and is told
what happened.  Two implementations:

* :class:`LocalSession`: a game on this machine (:class:`engine.game.Game`), with its
  autosave, practice undo and redo, and AI seats that the table itself asks in
  its AI process (``ai_seats``: the session hands the table the AI seat's own
  view, never the state);
* ``RemoteSession`` (:mod:`game.table.remote_session`): a seat at a table held by a
  Tarocchi server, over the websocket client of :mod:`online.client`; AI seats
  and the other people play on the server, and their moves arrive as events.

The models are boardgame.io's ``Master``/``Client`` and lichess's round: the
authority holds the log, a client holds a seat's view and the numbered events.
Nothing here, nor in the controller, reads an engine ``State``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from engine.errors import Refusal
from engine.game import Game
from engine.ruleset import Ruleset
from engine.simulate import play_turn
from engine.state import Command, Event
from engine.view import SeatView, seat_event, seat_view

#: what a notice tells (see :class:`Notice`)
NoticeKind = Literal["resync", "refused", "error", "presence", "connection", "takeover", "timeout", "stand_ins"]


@dataclass(frozen=True)
class Notice:
    """Something the session heard besides events, for the table to say:
    ``kind`` is ``resync`` (a snapshot replaced what was known: lay the table out
    again), ``refused`` (the last command: ``refusal``, or ``text`` where the rule
    gave none), ``error`` (``text``), ``presence`` (``seat``, ``connected``: a
    person's link went or came back), ``connection`` (``connected``: this seat's
    link to the server went or came back), ``takeover`` (``seat``: an AI took a
    seat over), ``timeout`` (``seat``: a seat's time ran out, its move made for it) or
    ``stand_ins`` (``data["seats"]``: every seat the AI plays now for its person, away)."""

    kind: NoticeKind
    text: str = ""
    refusal: Refusal | None = None
    seat: int = -1
    connected: bool = True
    data: dict[str, Any] = field(default_factory=dict)


class Answer:
    """A player whose choice is already made (the AI's, worked out in the AI
    process): :func:`engine.simulate.play_turn` asks it, checks and submits."""

    def __init__(self, name: str, command: Any) -> None:
        self.name = name
        self.command = command

    def choose(self, view: SeatView, legal: Sequence[object], event_index: int) -> Any:
        return self.command


class AiSeats(Protocol):
    """The AI seats a session lets the table ask itself, in its AI process."""

    def ai_view(self, seat: int) -> SeatView: ...  # the seat's own view, never the state

    def ai_answer(self, seat: int, name: str, command: Command) -> None: ...  # checked, then submitted


class TableSession(Protocol):
    """The table's side of a game: the viewer's seat's view and events."""

    rules: Ruleset
    viewer: int  # the seat at the bottom of the table
    human_seats: frozenset[int]  # seats whose moves a person makes *here*
    can_rewind: bool  # practice: undo and redo
    online: bool
    first: int  # the first event known here (a seat that joined a game under way: > 0)

    @property
    def ai_seats(self) -> AiSeats | None: ...  # the AI seats the table asks (None: they play elsewhere)

    @property
    def players(self) -> tuple[str, ...]: ...  # per seat: "human" or an AI level

    @property
    def names(self) -> tuple[str, ...]: ...  # per seat: a person's name ("" where none is known)

    @property
    def cursor(self) -> int: ...  # events known here

    def event(self, i: int) -> Event: ...  # the i-th event as the viewer saw it

    def view_at(self, i: int) -> SeatView: ...  # the viewer's view after i events

    def poll(self) -> list[Notice]: ...  # take in what arrived (remote); [] for local

    def submit(self, command: Command) -> None: ...  # IllegalMove at once (local) or a Notice later

    def archive(self) -> Path | None: ...  # the finished game filed as a replay

    @property
    def autosave_path(self) -> Path | None: ...  # the file the game is logged to here, if any

    @property
    def deal_number(self) -> int | None: ...  # a deal number one can type back (practice)

    def undo_target(self) -> int | None: ...  # where undo would go back to (None: nothing)

    def redo_target(self) -> int | None: ...  # where redo would go to (None: nothing)

    def undo(self) -> bool: ...  # back to the viewer's previous decision

    def redo(self) -> bool: ...  # forward again over what was undone

    def close(self) -> None: ...


class LocalSession:
    """A game on this machine: the engine's :class:`Game` with its autosave.

    ``game`` is for the code that started it (and tests); the table uses only the
    :class:`TableSession` methods, and for an AI seat :meth:`ai_view`."""

    online = False
    first = 0

    def __init__(self, game: Game, *, viewer: int = 0, human_seats: frozenset[int] = frozenset({0}),
                 practice: bool = False) -> None:
        self.game = game
        self.rules = game.rules
        self.viewer = viewer
        self.human_seats = frozenset(human_seats)
        self.can_rewind = practice

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.game.header.players)

    @property
    def names(self) -> tuple[str, ...]:
        return ("",) * self.rules.n_seats

    @property
    def cursor(self) -> int:
        return self.game.cursor

    def event(self, i: int) -> Event:
        return seat_event(self.game.events[i], self.viewer, self.rules)

    def view_at(self, i: int) -> SeatView:
        return seat_view(self.game.states[i], self.viewer)

    def view(self) -> SeatView:
        return self.view_at(self.cursor)

    def poll(self) -> list[Notice]:
        return []

    def submit(self, command: Command) -> None:
        self.game.submit(command)  # IllegalMove: refused, nothing changed

    # --- the AI seats, asked by the table in its AI process ------------------------

    @property
    def ai_seats(self) -> AiSeats:
        return self

    def ai_view(self, seat: int) -> SeatView:
        """The AI seat's own view (never the state)."""
        return self.game.view(seat)

    def ai_answer(self, seat: int, name: str, command: Command) -> None:
        """Submit the AI's choice, checked by the engine like any other."""
        play_turn(self.game, Answer(name, command))

    # --- practice -------------------------------------------------------------------

    def undo_target(self) -> int | None:
        return self.game.undo_target(self.viewer)

    def redo_target(self) -> int | None:
        return self.game.redo_target(self.viewer)

    def undo(self) -> bool:
        return self.game.undo(self.viewer)

    def redo(self) -> bool:
        return self.game.redo(self.viewer)

    # --- the file ---------------------------------------------------------------------

    @property
    def deal_number(self) -> int | None:
        """The game's seed where it is a deal number one can type back (practice)."""
        from game.table.session import DEAL_NUMBERS

        seed = self.game.header.seed
        return seed if 0 < seed < DEAL_NUMBERS else None

    @property
    def autosave_path(self) -> Path | None:
        return self.game.autosave_path

    def archive(self) -> Path | None:
        """The finished game filed as a replay (``session.archive_finished``)."""
        from game.table import session

        return session.archive_finished(self.game)

    def close(self) -> None:
        self.game.close()  # the autosave stays: the menu offers to resume


__all__ = ["AiSeats", "Answer", "LocalSession", "Notice", "NoticeKind", "TableSession"]
