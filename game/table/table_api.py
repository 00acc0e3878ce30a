"""The play table's contracts (no arcade): what its controller hands the view and
asks of it, and what the rooms beside the controller ask of the controller.

* :class:`Step`: one thing for the view to animate; :class:`Presenter`: what the
  controller asks of its view (:class:`~game.table.table_view.TableView`, or a
  recorder in tests);
* :class:`Executor`: where the AI's calls run (the AI process, or at once);
* :class:`Table`: the controller (:class:`~game.table.table_controller.TableController`)
  as its rooms see it: the events shown as steps (``steps``), the discard being
  picked (``discard_pick``), the keyboard (``key_cursor``), practice undo
  (``rewind``), the hints (``hints``), the end of a deal (``deal_end``), the
  notices of an online seat (``notices``), the AI seats (``ai_turns``);
* the kinds of the table's state, as ``Literal`` types: :data:`Scene`,
  :data:`Waiting`, :data:`Tone`.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

from engine.errors import Refusal
from engine.files import SaveFailed
from engine.ruleset import Ruleset
from engine.state import Command, DealScored, Event
from engine.view import SeatView
from game.common.position import Position
from game.common.words import Msg
from game.table.table_session import TableSession

#: what the table is showing: nothing yet, a deal, the discard (or Scarto's
#: exchange: the stock taken, then the discard), the tricks, a deal's score
Scene = Literal["", "deal", "discard", "exchange", "play", "scoring"]
#: what the table waits for before it goes on: nothing; a click after a trick
#: ("trick", then "trick-go" as it goes on); a choice at the end of a deal
Waiting = Literal["", "trick", "trick-go", "scoring"]
#: the status line's tone: plain, a prompt to act (gold), a refusal or error (red)
Tone = Literal["info", "prompt", "error"]


@dataclass(frozen=True)
class Step:
    """One thing for the view to animate: ``kind`` is ``event`` (an engine event
    as the viewer sees it), ``deal`` (a deal up to the stock left in the middle)
    or ``take`` (the dealer takes the stock; no event)."""

    kind: Literal["event", "deal", "take"]
    event: Event | None
    before: Position
    after: Position
    delay: float = 0.0  # seconds at speed 1 before it starts


class Presenter(Protocol):
    """What the controller asks of the view."""

    @property
    def busy(self) -> bool: ...  # animations still running

    def show(self, step: Step) -> None: ...

    def lay(self, pos: Position, raised: frozenset[int], dimmed: frozenset[int], ease: bool) -> None: ...

    def show_hints(self, hints: dict[int, float]) -> None: ...

    def play_sound(self, name: str) -> None: ...


class Executor(Protocol):
    """Where the AI's calls run (the AI process, or at once in tests)."""

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]: ...


class Table(Protocol):
    """The controller as the rooms beside it see it."""

    rules: Ruleset
    session: TableSession
    out: Presenter
    executor: Executor
    human_seats: frozenset[int]
    practice: bool  # a practice game: undo, redo and hints
    auto_advance: bool  # the tricks go on by themselves (else a click after each)
    auto_continue: bool  # autoplay: no clicks needed anywhere
    speed: float
    on_scene: Callable[[Scene], None] | None
    on_exit: Callable[[], None] | None
    on_again: Callable[[], None] | None
    on_review: Callable[[Path], None] | None
    clock: float
    generation: int
    prompt_for: int
    status: Msg | None
    banner: Msg | None  # the announcement over the trick (None: none)
    finished: bool
    replay_path: Path | None

    @property
    def you(self) -> int | None: ...

    @property
    def shown(self) -> int: ...

    @property
    def stopped(self) -> bool: ...

    @property
    def waiting(self) -> Waiting: ...

    def position(self, i: int | None = None) -> Position: ...

    def view(self) -> SeatView: ...

    def hand_order(self) -> list[int]: ...

    def say(self, m: Msg | None, tone: Tone = "info") -> None: ...

    def announce(self, m: Msg, seconds: float = ...) -> None: ...

    def can_act(self) -> bool: ...

    def click_card(self, card: int) -> bool: ...

    def submit(self, cmd: Command) -> None: ...

    def refuse(self, refusal: Refusal, card: int = -1) -> None: ...

    def refused(self, refusal: Refusal | None, text: str) -> None: ...

    def clear_prompt(self) -> None: ...

    def save_failed(self, exc: SaveFailed) -> None: ...

    def retry_save(self) -> bool: ...

    def resync(self) -> None: ...

    def continue_(self) -> None: ...

    def close(self) -> None: ...

    def open_scoring(self, i: int, event: DealScored, sound: bool = True) -> None: ...


__all__ = ["Executor", "Presenter", "Scene", "Step", "Table", "Tone", "Waiting"]
