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

from engine.replay import Replay, ReplayError, read_replay
from engine.state import DealScored, Dealt, Discarded, State, TrickTaken

SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0)


@dataclass(frozen=True)
class Mark:
    position: int
    kind: str  # "deal", "discard", "trick", "score"


class Timeline:
    """Positions of a replay and the steps between them."""

    def __init__(self, replay: Replay) -> None:
        self.replay = replay
        self.events = replay.events
        self.n = len(replay.events)
        kinds = {Dealt: "deal", Discarded: "discard", TrickTaken: "trick", DealScored: "score"}
        self.marks = [
            Mark(p, kinds[type(e)]) for p, e in enumerate(self.events, start=1) if type(e) in kinds
        ]
        # A card step shows each new card; the sweep of a trick is folded into the
        # next card so the four cards of a trick stay in view for one step.
        self._card_steps = [
            p for p in range(self.n + 1) if p in (0, self.n) or type(self.events[p - 1]) is not TrickTaken
        ]
        self._trick_steps = sorted(
            {0, self.n} | {m.position for m in self.marks if m.kind in ("deal", "trick", "score")}
        )

    def state(self, p: int) -> State:
        return self.replay.states[self.clamp(p)]

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
    kind: str = ""  # "single deal" or "match"
    players: tuple[str, ...] = ()
    result: str = ""
    practice: bool = False
    error: str = ""

    @property
    def ok(self) -> bool:
        return not self.error


def _result_text(rp: Replay) -> str:
    s = rp.final
    if not s.scores:
        return f"unfinished (deal {s.deal_no})"
    a, b = s.totals
    done = len(s.scores) == s.n_deals
    head = f"{a}-{b}" if done else f"{a}-{b} after {len(s.scores)} of {s.n_deals} deals"
    if not done:
        return head
    return head + (" draw" if a == b else (" won" if a > b else " lost"))


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
    return Entry(
        path,
        when,
        kind="match" if rp.final.n_deals == 4 else "single deal",
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
