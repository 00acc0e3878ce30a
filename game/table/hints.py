"""The practice table's hints (no arcade): what each card is worth to the viewer.

Asked with H (or the hint button) on the viewer's decision, the AI's hint
function (``engine.ai.hint``) ranks the legal moves by their expected points; it
runs in the AI process like any AI move, and :meth:`Hints.poll` picks its answer
up on a later frame.  A card gets the value of the best move it belongs to (a
discard's cards share it), and the best move gets one reason in words
(:func:`engine.ai.reasons.reason`, from the viewer's own view only).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

from engine.state import Command, Discard, Play
from engine.view import SeatView
from game.common.words import msg
from game.table.table_api import Table

if TYPE_CHECKING:
    from engine.ai.reasons import Reason

#: the hint function: (view, time to think in ms, event index) -> [(command, value)], best first
HintFn = Callable[[SeatView, int, int], list[tuple[Command, float]]]
#: how long a hint may think (ms)
HINT_MS = 400


def find_hint() -> HintFn | None:
    """The AI's hint function (``engine.ai.hint``) if the AI package has one."""
    try:
        mod = importlib.import_module("engine.ai")
    except Exception:  # noqa: BLE001 - no AI yet: hints stay off
        return None
    fn: HintFn | None = getattr(mod, "hint", None)
    return fn


class Hints:
    """The hint asked for, or shown: the values by card and the best move's reason.
    ``fn``: the hint function (None: no hints)."""

    def __init__(self, ctl: Table, fn: HintFn | None) -> None:
        self.ctl = ctl
        self.fn = fn
        #: (the AI's answer to come, the event index and the table's generation it was asked at)
        self.future: tuple[Future[Any], int, int] | None = None
        self.values: dict[int, float] = {}
        self.reason: Reason | None = None

    @property
    def available(self) -> bool:
        """Hints are offered: a practice game, with an AI to ask."""
        return self.ctl.practice and self.fn is not None

    def clear(self) -> None:
        """No hint shown (a new decision, or the table laid out again)."""
        self.values = {}
        self.reason = None
        self.ctl.out.show_hints({})

    def ask(self) -> None:
        """Ask the AI for a hint on the viewer's decision (once; where the viewer may act)."""
        ctl = self.ctl
        if self.fn is None or self.future is not None or not (self.available and ctl.can_act()):
            return
        cursor = ctl.session.cursor
        self.future = (ctl.executor.submit(self.fn, ctl.view(), HINT_MS, cursor), cursor, ctl.generation)
        ctl.say(msg("thinking_hint"), "prompt")

    def poll(self) -> None:
        """Show the AI's answer if it has come for the decision still on the table;
        an answer to a decision no longer there is dropped."""
        if self.future is None:
            return
        ctl = self.ctl
        fut, at, gen = self.future
        if gen != ctl.generation or at != ctl.session.cursor:
            self.future = None
            return
        if not fut.done():
            return
        self.future = None
        ranked: list[tuple[Command, float]] = fut.result()
        from engine.ai.reasons import reason  # with the hint, the AI package is loaded

        self.reason = reason(ctl.view(), ranked[0][0]) if ranked else None
        values: dict[int, float] = {}
        for cmd, value in ranked:
            if isinstance(cmd, Play):
                values[cmd.card] = value
            elif isinstance(cmd, Discard):
                for c in cmd.cards:
                    values[c] = max(values.get(c, -1e9), value)
        self.values = values
        ctl.out.show_hints(values)
        ctl.say(msg("hints", reason=self.reason), "prompt")

    def cancel(self) -> None:
        """Drop the hint asked for (one running is ignored when it ends)."""
        if self.future is not None:
            self.future[0].cancel()
        self.future = None


__all__ = ["HINT_MS", "HintFn", "Hints", "find_hint"]
