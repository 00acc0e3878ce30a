"""The replay theatre's model, pure Python (no arcade): the timeline of a replay
(positions, steps by card and by trick, seek marks) and the replay browser's list.

A *position* ``p`` (0..n) is the table after the first ``p`` events; the engine
keeps the state of every position, so a seek is a list lookup.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from engine.replay import Replay, ReplayError, read_replay
from engine.state import DealScored, Dealt, Discarded, Event, State, TrickTaken

#: what a mark on the seek bar stands for: the event after which it stands
MarkKind = Literal["deal", "discard", "trick", "score"]
_KINDS: dict[type, MarkKind] = {Dealt: "deal", Discarded: "discard", TrickTaken: "trick", DealScored: "score"}


@dataclass(frozen=True)
class Mark:
    position: int
    kind: MarkKind


class Timeline:
    """Positions of a replay (or of a game still being played) and the steps
    between them.  ``events`` and ``states`` are the engine's lists; a live game
    grows them, and :meth:`refresh` takes in what was added."""

    def __init__(self, events: Sequence[Event], states: Sequence[State]) -> None:
        self.events = events
        self.states = states
        self.marks: list[Mark] = []
        self._card_steps: list[int] = [0]
        self._trick_steps: list[int] = [0]
        self.n = 0
        self.refresh()

    @classmethod
    def from_replay(cls, replay: Replay) -> Timeline:
        return cls(replay.events, replay.states)

    def refresh(self) -> None:
        """Index events added since the last call (O(new events))."""
        n = min(len(self.events), len(self.states) - 1)
        # The last position of a growing log is always a step; re-add it below.
        for steps in (self._card_steps, self._trick_steps):
            if len(steps) > 1 and steps[-1] == self.n and not self._is_step(steps, self.n):
                steps.pop()
        for p in range(self.n + 1, n + 1):
            e = self.events[p - 1]
            kind = _KINDS.get(type(e))
            if kind:
                self.marks.append(Mark(p, kind))
            if type(e) is not TrickTaken:
                self._card_steps.append(p)
            if kind in ("deal", "trick", "score"):
                self._trick_steps.append(p)
        self.n = n
        for steps in (self._card_steps, self._trick_steps):
            if steps[-1] != n:
                steps.append(n)

    def _is_step(self, steps: list[int], p: int) -> bool:
        if p == 0:
            return True
        e = self.events[p - 1]
        if steps is self._card_steps:
            return type(e) is not TrickTaken
        return _KINDS.get(type(e)) in ("deal", "trick", "score")

    def state(self, p: int) -> State:
        return self.states[self.clamp(p)]

    def clamp(self, p: int) -> int:
        return max(0, min(self.n, p))

    @staticmethod
    def _after(steps: list[int], p: int) -> int:
        for q in steps:
            if q > p:
                return q
        return steps[-1]

    @staticmethod
    def _before(steps: list[int], p: int) -> int:
        for q in reversed(steps):
            if q < p:
                return q
        return steps[0]

    def next_card(self, p: int) -> int:
        return self._after(self._card_steps, p)

    def prev_card(self, p: int) -> int:
        return self._before(self._card_steps, p)

    def next_trick(self, p: int) -> int:
        return self._after(self._trick_steps, p)

    def prev_trick(self, p: int) -> int:
        return self._before(self._trick_steps, p)

    def fraction(self, p: int) -> float:
        return p / self.n if self.n else 0.0

    def at_fraction(self, f: float) -> int:
        return self.clamp(round(f * self.n))


# --- the replay browser ------------------------------------------------------------


@dataclass
class Entry:
    path: Path
    when: datetime
    kind: Literal["", "single deal", "match", "game"] = ""  # a whole game: a match (teams), a game
    variant: str = ""
    n_deals: int = 1
    players: tuple[str, ...] = ()
    result: str = ""
    practice: bool = False
    error: str = ""

    @property
    def ok(self) -> bool:
        return not self.error


def _result_text(rp: Replay) -> str:
    """The totals, and the result for South's side (the engine's outcome)."""
    s = rp.final
    if not s.scores:
        return f"unfinished (deal {s.deal_no})"
    totals = "-".join(str(v) for v in s.totals)
    done = len(s.scores) == s.n_deals
    if not done:
        return f"{totals} after {len(s.scores)} of {s.n_deals} deals"
    outcome = rp.rules.game_outcome(s.scores)
    mine = rp.rules.side[0]
    return totals + (" draw" if outcome.draw else (" won" if mine in outcome.winners else " lost"))


def describe(path: Path) -> Entry:
    """One browser row: a readable file's facts, or its error (never raises)."""
    try:
        mtime = datetime.fromtimestamp(path.stat().st_mtime, tz=UTC)
    except OSError:
        mtime = datetime.fromtimestamp(0, tz=UTC)
    try:
        rp = read_replay(path, tolerate_torn=True)
    except ReplayError as exc:
        return Entry(path, mtime, error=str(exc))
    created = rp.header.extra.get("created")
    when = mtime
    if isinstance(created, str):
        try:
            when = datetime.fromisoformat(created.replace("Z", "+00:00"))
            if when.tzinfo is None:
                when = when.replace(tzinfo=UTC)
        except ValueError:
            pass
    rules = rp.rules
    whole: Literal["match", "game"] = "match" if rules.n_sides < rules.n_seats else "game"
    return Entry(
        path,
        when,
        kind=whole if rp.final.n_deals > 1 else "single deal",
        variant=rules.name,
        n_deals=rp.final.n_deals,
        players=tuple(rp.header.players),
        result=_result_text(rp),
        practice=bool(rp.header.extra.get("practice")),
    )


def list_replays(folders: list[Path], extra_files: Sequence[Path] = ()) -> list[Entry]:
    """Every ``*.jsonl`` in ``folders`` plus ``extra_files``, newest first."""
    paths: dict[str, Path] = {}
    for folder in folders:
        if folder.is_dir():
            for p in folder.glob("*.jsonl"):
                paths[os.path.realpath(p)] = p
    for p in extra_files:
        paths[os.path.realpath(p)] = Path(p)
    entries = [describe(p) for p in paths.values()]
    entries.sort(key=lambda e: (e.when, str(e.path)), reverse=True)
    return entries
