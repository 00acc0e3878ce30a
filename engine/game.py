"""A game in progress: the event log, the state kept after every event, undo/redo
between a seat's decision points, and the autosave.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from pathlib import Path

from .files import SaveFailed
from .replay import AutosaveLog, Header, Replay
from .ruleset import Ruleset
from .state import (
    Command,
    Event,
    State,
    is_decision,
    judge,
    legal_commands,
    new_game,
)
from .view import SeatView, seat_view


class Game:
    """Commands in, events out; ``states[i]`` is the position after ``events[:i]``.

    After an undo the undone events stay as a redo tail until a new command
    replaces them.  Deals (chance events) are drawn from the seed automatically.
    """

    def __init__(
        self,
        seed: int,
        n_deals: int = 1,
        players: list[str] | None = None,
        *,
        rules: Ruleset,
        autosave: str | os.PathLike[str] | None = None,
        extra: dict[str, object] | None = None,
    ) -> None:
        players = list(players or ["random"] * rules.n_seats)
        if len(players) != rules.n_seats:
            raise ValueError(f"{rules.title} has {rules.n_seats} seats, not {len(players)} players")
        self.header = Header(seed, players, n_deals, dict(extra or {}), rules.name)
        self.events: list[Event] = []
        self.states: list[State] = [new_game(seed, n_deals, rules)]
        self.cursor = 0
        #: the last write error of the autosave (None once a command is saved)
        self.save_error: SaveFailed | None = None
        self._log = AutosaveLog(autosave, self.header) if autosave else None
        self._complete_or_close()

    @classmethod
    def from_replay(cls, replay: Replay, *, autosave: str | os.PathLike[str] | None = None) -> Game:
        """Continue a saved game (resume after a crash).  ``autosave`` is usually the
        file the replay was read from: it is checked and continued (appended to),
        never rewritten; a file holding another game raises
        ``engine.replay.AutosaveConflict`` and is left as it is.  A path with no
        file gets a new log."""
        g = cls.__new__(cls)
        g.header = dataclasses.replace(replay.header, deals=replay.states[0].n_deals)
        g.events = list(replay.events)
        g.states = list(replay.states)
        g.cursor = len(g.events)
        g.save_error = None
        g._log = AutosaveLog.resume(autosave, g.header, g.events) if autosave else None
        g._complete_or_close()
        return g

    def _complete_or_close(self) -> None:
        """At the start, the events due without a decision (the first deal; a
        trick's or a deal's result, or the next deal, where a log was cut, say by
        a crash); if the log cannot be written then, it is closed (cut back to its
        last whole line) and the ``OSError`` raised."""
        try:
            events, states, _after = judge(self.state, None)
            self._record(events, states)
        except OSError:
            if self._log:
                try:
                    self._log.rollback(self._log.n_events)
                except OSError:
                    pass
                self._log.close()
                self._log = None
            raise

    @property
    def autosave_path(self) -> Path | None:
        """The file this game is logged to (None without an autosave, or once closed)."""
        return self._log.path if self._log else None

    # --- reading --------------------------------------------------------------

    @property
    def rules(self) -> Ruleset:
        return self.states[0].rules

    @property
    def state(self) -> State:
        return self.states[self.cursor]

    @property
    def log(self) -> list[Event]:
        """The events that led to the current state (without the redo tail)."""
        return self.events[: self.cursor]

    def view(self, seat: int) -> SeatView:
        return seat_view(self.state, seat)

    def legal(self) -> Sequence[Command]:
        return legal_commands(self.state)

    @property
    def over(self) -> bool:
        return not self.legal()

    # --- acting -----------------------------------------------------------------

    def submit(self, command: Command) -> list[Event]:
        """Record what ``command`` causes (:func:`~engine.state.judge`): its events
        and those then due (a trick, a deal's score, the next deal); returns them.

        Failure-atomic: if the autosave cannot be written (``OSError``: disk full,
        folder gone, read-only), the game is left exactly as before the command
        (events, states, cursor, redo tail), the log is cut back to the events it
        held before, ending at a whole line, and :class:`SaveFailed` is raised;
        the same command can be submitted again once the disk has room."""
        events, states, _after = judge(self.state, command)  # IllegalMove: nothing changed
        mark = self._mark()
        try:
            if self.cursor < len(self.events):  # a new line of play drops the redo tail
                del self.events[self.cursor :]
                del self.states[self.cursor + 1 :]
                if self._log:
                    self._log.truncate(self.cursor)
            self._record(events, states)
        except OSError as exc:
            raise self._failed(mark, exc) from exc
        self.save_error = None
        return events

    def _mark(self) -> tuple[int, list[Event], list[State], int]:
        """What :meth:`_restore` needs to undo a command: the cursor, the redo tail
        (events and states past the cursor) and how many events the log holds."""
        return (
            self.cursor,
            self.events[self.cursor :],
            self.states[self.cursor + 1 :],
            self._log.n_events if self._log else 0,
        )

    def _failed(self, mark: tuple[int, list[Event], list[State], int], exc: OSError) -> SaveFailed:
        """Put the game back as it was at ``mark`` and the log back to the events it
        held then; returns the :class:`SaveFailed` to raise."""
        cursor, events_tail, states_tail, logged = mark
        del self.events[cursor:]
        del self.states[cursor + 1 :]
        self.events += events_tail
        self.states += states_tail
        self.cursor = cursor
        path = self._log.path if self._log else Path("?")
        if self._log:
            try:
                self._log.rollback(logged)
            except OSError:
                pass  # the file cannot even be cut (gone, read-only): a reader drops a torn tail
        self.save_error = SaveFailed(path, exc)
        return self.save_error

    def _record(self, events: list[Event], states: list[State]) -> None:
        """Append the judged events and their states at the cursor (the end of the
        log), then write them to the autosave one by one; on a write error
        (``OSError``) the caller takes them back."""
        self.states += states
        self.events += events
        self.cursor += len(events)
        if self._log:
            for e in events:
                self._log.append(e)

    # --- undo and redo ------------------------------------------------------------

    def undo_target(self, seat: int) -> int | None:
        for i in range(self.cursor - 1, -1, -1):
            if is_decision(self.states[i], seat):
                return i
        return None

    def redo_target(self, seat: int) -> int | None:
        for i in range(self.cursor + 1, len(self.states)):
            if is_decision(self.states[i], seat):
                return i
        return len(self.states) - 1 if self.cursor < len(self.states) - 1 else None

    def undo(self, seat: int) -> bool:
        """Back to ``seat``'s previous decision point; the undone events become the
        redo tail.  O(1) in the state: the state kept for that point is reused."""
        i = self.undo_target(seat)
        if i is None:
            return False
        self._move_to(i)
        return True

    def redo(self, seat: int) -> bool:
        i = self.redo_target(seat)
        if i is None:
            return False
        self._move_to(i)
        return True

    def _move_to(self, i: int) -> None:
        """Move the cursor; the autosave follows, so a crash resumes right here.
        Failure-atomic as :meth:`submit` (:class:`SaveFailed`, the cursor and
        the log as they were)."""
        if self._log:
            mark = self._mark()
            try:
                if i < self.cursor:
                    self._log.truncate(i)
                else:
                    for e in self.events[self.cursor : i]:
                        self._log.append(e)
            except OSError as exc:
                raise self._failed(mark, exc) from exc
        self.cursor = i
        self.save_error = None

    def close(self, *, sync: bool = False) -> None:
        """Close the autosave; ``sync``: fsync it first (before it is renamed)."""
        if self._log:
            if sync:
                self._log.sync()
            self._log.close()
            self._log = None
