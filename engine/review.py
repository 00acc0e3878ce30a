"""Deal review: grade one seat's decisions in a replay, as chess players do with an
engine.

For every decision of the seat (its discard when it dealt, every card it played)
the strongest AI level, seeing only that seat's view at that moment, values every
candidate on the same sampled deals: the expected final points of the seat's side
(Piedicavallo's card points, Scarto's count).  The loss of a decision is the best
candidate's value less the played one's (never negative), and its label follows
the chess names: best, good (< 2 points), inaccuracy (2-5), mistake (5-10),
blunder (>= 10).  A forced decision (one legal choice) is listed but not graded.

The summary: the mean loss per graded decision, and an accuracy percentage, the
mean over graded decisions of ``100 * exp(-loss / 5)`` (a best move is 100, a
loss of 2 points about 67, of 5 about 37, of 10 about 14).

The review is a pure function of the file, the seat and the seed (fixed sample
counts, no clock): the same file and seed give the same review.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from typing import Any

from .cards import mask_cards
from .replay import Replay
from .rng import mix64
from .state import CardPlayed, Discarded
from .view import seat_view

#: (upper bound of the loss, label), checked in order
LABELS = ((1e-9, "best"), (2.0, "good"), (5.0, "inaccuracy"), (10.0, "mistake"))
BLUNDER = "blunder"
#: The scale of the accuracy curve, in points of loss.
ACCURACY_SCALE = 5.0


def label(loss: float) -> str:
    for bound, name in LABELS:
        if loss < bound:
            return name
    return BLUNDER


@dataclass(frozen=True)
class Decision:
    index: int  # the event index in the file (0: the first event after the header)
    deal: int  # 1-based deal number
    trick: int  # 1-based trick of the deal (0 for the discard)
    kind: str  # "discard" or "play"
    played: str  # card codes, space-separated for a discard
    best: str
    expected_played: float
    expected_best: float
    loss: float
    label: str
    forced: bool
    options: int  # legal choices

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Review:
    file: str
    variant: str
    seat: int
    seed: int
    decisions: list[Decision]

    @property
    def graded(self) -> list[Decision]:
        return [d for d in self.decisions if not d.forced]

    @property
    def mean_loss(self) -> float:
        g = self.graded
        return sum(d.loss for d in g) / len(g) if g else 0.0

    @property
    def accuracy(self) -> float:
        g = self.graded
        if not g:
            return 100.0
        return sum(100.0 * math.exp(-d.loss / ACCURACY_SCALE) for d in g) / len(g)

    def counts(self) -> dict[str, int]:
        out = {name: 0 for _b, name in LABELS}
        out[BLUNDER] = 0
        for d in self.graded:
            out[d.label] += 1
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "variant": self.variant,
            "seat": self.seat,
            "seed": self.seed,
            "decisions": [d.to_json() for d in self.decisions],
            "graded": len(self.graded),
            "mean_loss": round(self.mean_loss, 3),
            "accuracy": round(self.accuracy, 1),
            "labels": self.counts(),
        }


def _text(codes: tuple[str, ...], kind: str, key: int) -> str:
    """A play's card code, or a discard's codes separated by spaces."""
    if kind == "discard":
        return " ".join(codes[c] for c in mask_cards(key))
    return codes[key]


def default_seat(replay: Replay) -> int:
    """The human seat of the file, else seat 0."""
    players = replay.header.players
    return players.index("human") if "human" in players else 0


def decision_points(replay: Replay, seat: int) -> Iterator[int]:
    """Event indices where ``seat`` decided (its discard and its plays)."""
    for i, e in enumerate(replay.events):
        if isinstance(e, CardPlayed | Discarded) and e.seat == seat:
            yield i


def _grade(replay: Replay, seat: int, i: int, dseed: int, budget: Any, parallel: bool) -> Decision:
    """The grade of ``seat``'s decision at event ``i``: the AI's values of every
    option on sampled deals seeded by ``dseed``, the one played against the best."""
    from .ai.players import card_values, discard_values_ranked

    codes = replay.rules.pack.codes
    state = replay.states[i]
    event = replay.events[i]
    view = seat_view(state, seat)
    legal = view.legal()
    if isinstance(event, Discarded):
        vals = discard_values_ranked(view, budget, dseed, parallel, include=event.cards)
        by = dict(vals)
        played_key = event.cards
        kind = "discard"
        trick = 0
    else:
        assert isinstance(event, CardPlayed)
        vals = card_values(view, budget, dseed, parallel)
        by = dict(vals)
        played_key = event.card
        kind = "play"
        trick = state.trick_no + 1
    forced = len(legal) == 1
    best_key, best_v = vals[0]
    played_v = by[played_key]
    loss = 0.0 if forced else max(0.0, best_v - played_v)
    if loss < 1e-9:
        best_key, best_v = played_key, played_v  # the played move is (one of) the best
    return Decision(
        index=i,
        deal=state.deal_no,
        trick=trick,
        kind=kind,
        played=_text(codes, kind, played_key),
        best=_text(codes, kind, best_key),
        expected_played=round(played_v, 3),
        expected_best=round(best_v, 3),
        loss=round(loss, 3),
        label=label(loss),
        forced=forced,
        options=len(legal),
    )


def review_replay(
    replay: Replay,
    seat: int,
    *,
    file: str = "",
    seed: int = 0,
    budget: Any = None,
    parallel: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Grade ``seat``'s decisions in ``replay`` (see the module docstring)."""
    from .ai.players import REVIEW

    rules = replay.rules
    if not 0 <= seat < rules.n_seats:
        raise ValueError(f"seat {seat} is not a seat {rules.seat_range_text()}")
    budget = budget or REVIEW
    points = list(decision_points(replay, seat))
    out: list[Decision] = []
    for k, i in enumerate(points):
        out.append(_grade(replay, seat, i, mix64(seed, i, seat), budget, parallel))
        if progress:
            progress(k + 1, len(points))
    return Review(file, rules.name, seat, seed, out)
