"""The AI seats a session lets the table ask itself, in the AI process (no arcade).

When such an AI seat is to play, the table hands the seat's own view (never the
engine's state) to its player in the AI process (:mod:`game.table.ai_service`)
and goes on drawing; on a later frame, once the answer has come and the seat
has taken the least time a card takes at the table's pace, the engine checks
the answer and submits it.  An answer asked before the table moved on (undo,
a new deal laid out) is dropped.
"""

from __future__ import annotations

import sys
from concurrent.futures import Future
from typing import Any

from engine.files import SaveFailed
from game.common.constants import T_AI_MIN, T_AI_READ
from game.common.words import msg
from game.table.table_api import Table
from game.table.table_session import AiSeats


class AiTurns:
    """The table's AI seats: ``players`` (seat -> its Player), and the answer being
    worked out, if any: ``pending`` is (the answer to come, the event index and
    the table's generation it was asked at, the table's clock then)."""

    def __init__(self, ctl: Table, players: dict[int, Any]) -> None:
        self.ctl = ctl
        self.players = players
        self.pending: tuple[Future[Any], int, int, float] | None = None

    @property
    def pause(self) -> float:
        """The least time an AI seat takes over a card (seconds, speed applied): a
        reading pace where each trick waits for a click (a new player's table, so
        every card of every trick can be seen), the quick pace where the tricks go
        on by themselves or nobody watches (autoplay)."""
        ctl = self.ctl
        quick = ctl.auto_advance or ctl.auto_continue or not ctl.human_seats
        return (T_AI_MIN if quick else T_AI_READ) / ctl.speed

    def play(self, seats: AiSeats, seat: int) -> None:
        """``seat`` is to play: ask its player, or submit the answer once it is in."""
        if self.pending is None:
            self._ask(seats, seat)
            return
        ctl = self.ctl
        fut, cursor, gen, started = self.pending
        if gen != ctl.generation or cursor != ctl.session.cursor:
            self.pending = None
            return
        if not fut.done() or ctl.clock - started < self.pause:
            return
        self.pending = None
        ctl.say(None)
        try:
            seats.ai_answer(seat, self.players[seat].name, fut.result())  # checked, then submitted
        except SaveFailed as exc:
            ctl.save_failed(exc)

    def _ask(self, seats: AiSeats, seat: int) -> None:
        """Hand ``seat``'s own view to its player in the AI process."""
        ctl = self.ctl
        if ctl.prompt_for != -1:
            ctl.clear_prompt()
        view = seats.ai_view(seat)
        executor = ctl.executor
        if not getattr(executor, "in_process", True):
            # the search shares this process's GIL: switch threads often so a
            # frame never waits the default 5 ms to get it back
            sys.setswitchinterval(min(sys.getswitchinterval(), 0.0005))
        cursor = ctl.session.cursor
        fut = executor.submit(self.players[seat].choose, view, view.legal(), cursor)
        self.pending = (fut, cursor, ctl.generation, ctl.clock)
        ctl.say(msg("thinking", seat=seat))

    def cancel(self) -> None:
        """Drop the answer asked (one already being worked out is ignored when it ends)."""
        if self.pending is not None:
            self.pending[0].cancel()
        self.pending = None


__all__ = ["AiTurns"]
