"""The deal review in the game, pure Python (no arcade): the review of one deal
(run in the AI process, :func:`review_deal`) and the model the theatre's review
mode draws (:class:`ReviewModel`): the decisions to step through, the curve of
your side's expected points trick by trick, and the summary.

The grading itself is ``engine.review``'s (``tarocchi review``): the strongest
level values every candidate with only what the seat knew, on the same sampled
deals.  A file may hold several deals (a match, a game of Scarto) and the game
reviews one at a time; the review of deal *d* is the file's review restricted to
*d*, decision for decision (each decision's samples are seeded by its event
index in the file, which stays the same).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

from engine.cards import mask_cards
from engine.replay import Replay, read_replay
from engine.review import BLUNDER, LABELS, Decision, Grader, Review, default_seat, review_replay
from engine.state import CardPlayed, DealScored, Discarded
from engine.view import seat_view

#: the labels, best first (the order of the summary and of the colours)
LABEL_ORDER = tuple(name for _bound, name in LABELS) + (BLUNDER,)
#: what a decision is: a card played, or the dealer's discard
DecisionKind = Literal["play", "discard"]
#: the seed of the sampled deals: the one ``tarocchi review`` uses by default, so
#: the game's review of a deal is the command's, decision for decision
SEED = 0


# --- which deal, and its review ---------------------------------------------------------------


def deal_of_event(replay: Replay, i: int) -> int:
    """The 1-based deal that event ``i`` belongs to."""
    return replay.states[i + 1].deal_no


def deal_span(replay: Replay, deal: int) -> tuple[int, int]:
    """Positions ``(start, end)`` of deal ``deal``: the table after its deal event
    is ``start``, after its last event is ``end``."""
    idx = [i for i in range(len(replay.events)) if deal_of_event(replay, i) == deal]
    if not idx:
        raise ValueError(f"the file has no deal {deal}")
    return idx[0] + 1, idx[-1] + 1


def deals_in(replay: Replay) -> int:
    return replay.final.deal_no


def pick_deal(replay: Replay, deal: int | None = None) -> int:
    """``deal`` if the file holds it; None: the last scored deal, else the last deal."""
    n = deals_in(replay)
    if deal is not None:
        if not 1 <= deal <= n:
            raise ValueError(f"deal {deal} is not in the file (1-{n})")
        return deal
    scored = [deal_of_event(replay, i) for i, e in enumerate(replay.events) if isinstance(e, DealScored)]
    return scored[-1] if scored else max(n, 1)


def only_deal(replay: Replay, deal: int) -> Replay:
    """The replay with every event outside ``deal`` hidden (None), indices kept:
    ``review_replay`` then grades that deal's decisions, with the seeds of the
    whole file's review (a decision's seed is its event index)."""
    events: list[Any] = [e if deal_of_event(replay, i) == deal else None
                         for i, e in enumerate(replay.events)]
    return replace(replay, events=events)


def review_deal(path: str | os.PathLike[str], seat: int | None, deal: int | None, *,
                seed: int = SEED, budget: Grader | None = None, parallel: bool = True,
                progress: Callable[[int, int], None] | None = None) -> Review:
    """Review ``seat``'s decisions in one deal of the file at ``path`` (see the
    module docstring).  Runs in the AI process: it reads the file itself, so
    only the path travels there.  ``seat`` None: the file's human seat."""
    rp = read_replay(path, tolerate_torn=True)
    seat = default_seat(rp) if seat is None else seat
    deal = pick_deal(rp, deal)
    return review_replay(only_deal(rp, deal), seat, file=str(path), seed=seed, budget=budget,
                         parallel=parallel, progress=progress)


# --- the model of the review mode ------------------------------------------------------------


@dataclass(frozen=True)
class CurvePoint:
    """One point of the curve: after the choice at ``trick`` (0: the discard),
    the expected final points of the seat's side for the card played and for the
    best card; ``step`` is the decision's number among the steps."""

    trick: int
    played: float
    best: float
    label: str
    step: int


class ReviewModel:
    """The review mode's model of one deal: what it steps through, and, once the
    review has come back (:meth:`set_review`), the grades, the curve and the summary.

    ``positions`` are the seat's decisions in the deal that had a choice (a
    forced card is no decision), known from the file alone, so stepping works
    while the review still runs.  A decision is shown at its event index: the
    table just before the card is played, the card still in the hand.
    ``result`` is the side's final points of the deal when it was scored.
    """

    def __init__(self, replay: Replay, seat: int, deal: int) -> None:
        self.rules = rules = replay.rules
        if not 0 <= seat < rules.n_seats:
            raise ValueError(f"seat {seat} is not a seat {rules.seat_range_text()}")
        self.seat = seat
        self.deal = deal
        self.side = rules.side[seat]
        self.start, self.end = deal_span(replay, deal)
        codes = rules.pack.codes
        self.positions: list[int] = []
        self.played: list[list[str]] = []  # the codes chosen at each step
        self.tricks: list[int] = []  # the trick of each step (0: the discard)
        self.kinds: list[DecisionKind] = []
        self.result: int | None = None
        self.n_decisions = 0  # forced cards included (what the review's progress counts)
        for i in range(self.start - 1, self.end):
            e = replay.events[i]
            if isinstance(e, DealScored):
                self.result = e.points[self.side]
            if not (isinstance(e, CardPlayed | Discarded) and e.seat == seat):
                continue
            self.n_decisions += 1
            state = replay.states[i]
            if isinstance(e, CardPlayed):
                if len(seat_view(state, seat).legal()) == 1:
                    continue  # forced
                self.played.append([codes[e.card]])
                self.tricks.append(state.trick_no + 1)
                self.kinds.append("play")
            else:
                self.played.append([codes[c] for c in mask_cards(e.cards)])
                self.tricks.append(0)
                self.kinds.append("discard")
            self.positions.append(i)
        self.n_tricks = rules.n_tricks
        self.review: Review | None = None
        self.steps: list[Decision] = []

    def set_review(self, review: Review) -> None:
        """Take in the review of this deal (its graded decisions are the steps)."""
        steps = [d for d in review.decisions if not d.forced and d.deal == self.deal]
        if [d.index for d in steps] != self.positions or review.seat != self.seat:
            raise ValueError("the review is not of this deal's decisions")
        self.review = review
        self.steps = steps

    @property
    def ready(self) -> bool:
        return self.review is not None

    def decision(self, k: int | None) -> Decision | None:
        if k is None or not self.ready:
            return None
        return self.steps[k]

    def __len__(self) -> int:
        return len(self.positions)

    # --- stepping -----------------------------------------------------------------------

    def step_at(self, pos: int) -> int | None:
        """The step shown at position ``pos``: the last one at or before it (None before the first)."""
        k = None
        for i, p in enumerate(self.positions):
            if p > pos:
                break
            k = i
        return k

    def exactly_at(self, pos: int) -> int | None:
        """The step whose decision is at ``pos`` (its cards then lie in the hand)."""
        try:
            return self.positions.index(pos)
        except ValueError:
            return None

    def next_position(self, pos: int) -> int:
        """The position of the next step after ``pos`` (the last step's, at the end)."""
        for p in self.positions:
            if p > pos:
                return p
        return self.positions[-1] if self.positions else pos

    def prev_position(self, pos: int) -> int:
        """The position of the step before ``pos`` (the first step's, at the start)."""
        for p in reversed(self.positions):
            if p < pos:
                return p
        return self.positions[0] if self.positions else pos

    def first_position(self) -> int:
        return self.positions[0] if self.positions else self.start

    # --- the curve ----------------------------------------------------------------------

    def curve(self) -> list[CurvePoint]:
        """One point a step, in order (empty until the review is in)."""
        return [CurvePoint(d.trick, d.expected_played, d.expected_best, d.label, k)
                for k, d in enumerate(self.steps)]

    @property
    def even(self) -> float:
        """A fair share of the deal's points (57 of 114; 26 of 78)."""
        return self.rules.total / self.rules.n_sides

    def y_range(self) -> tuple[float, float]:
        """The chart's points axis: the values, the result and the fair share,
        padded and rounded out to tens, within 0 and the deal's total."""
        vals = [v for p in self.curve() for v in (p.played, p.best)]
        if self.result is not None:
            vals.append(float(self.result))
        vals.append(self.even)
        lo, hi = min(vals), max(vals)
        pad = max(3.0, (hi - lo) * 0.08)
        lo = max(0.0, math.floor((lo - pad) / 10) * 10)
        hi = min(float(self.rules.total), math.ceil((hi + pad) / 10) * 10)
        if hi - lo < 20:
            hi = min(float(self.rules.total), lo + 20)
            lo = hi - 20
        return lo, hi

    def x_range(self) -> tuple[int, int]:
        """The chart's trick axis: the discard (0) when the seat dealt, else trick 1,
        to the last trick (where the result is drawn)."""
        return (0 if "discard" in self.kinds else 1), self.n_tricks

    # --- the summary --------------------------------------------------------------------

    @property
    def accuracy(self) -> float | None:
        return self.review.accuracy if self.review is not None else None

    @property
    def mean_loss(self) -> float | None:
        return self.review.mean_loss if self.review is not None else None

    def counts(self) -> list[tuple[str, int]]:
        """(label, how many steps have it), best first."""
        c = {name: 0 for name in LABEL_ORDER}
        for d in self.steps:
            c[d.label] += 1
        return list(c.items())

