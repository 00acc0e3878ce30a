"""Deal review: grade one seat's decisions in a replay, as chess players do with an
engine.

For every decision of the seat (its discard when it dealt, every card it played)
the hard level's search, with more work than it has at the table and seeing
only that seat's view at that moment, values every candidate on the same
sampled deals: the expected final points of the seat's side (Piedicavallo's
card points, Scarto's count).  Deals are weighted by how well they explain the
other seats' plays; playouts end a few tricks early and the rest is solved
exactly; the last tricks are solved exactly in every deal.

A decision is a *real choice* when more than one card (or discard) may be
played and the candidates are not all worth the same.  The loss of a real
choice is the best candidate's value less the played one's, counted only when
the gap is beyond the search's noise: more than :attr:`Grader.z` standard
errors of the paired difference over the same deals, plus a quarter of a point
(else 0: as good as the best).  Its label follows the chess names: best, good (< 2 points),
inaccuracy (2-5), mistake (5-10), blunder (>= 10).  A forced card and a choice
among cards all worth the same are listed but not graded.

The summary, over the real choices: the mean loss, and the accuracy, the
share of them on which the seat played a best card (a loss of 0).

The review is a pure function of the file, the seat and the seed (fixed work,
no clock): the same file and seed give the same review.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from .cards import mask_cards
from .replay import Replay
from .rng import mix64
from .state import CardPlayed, Discarded
from .view import SeatView, seat_view

#: (upper bound of the loss, label), checked in order
LABELS = ((1e-9, "best"), (2.0, "good"), (5.0, "inaccuracy"), (10.0, "mistake"))
BLUNDER = "blunder"


def label(loss: float) -> str:
    for bound, name in LABELS:
        if loss < bound:
            return name
    return BLUNDER


@dataclass(frozen=True)
class Grader:
    """The review's fixed work a decision (no clock: the same on every machine)."""

    #: rounds of the hard search's sampled deals for a card (the hard level at the
    #: table completes about 50 in its second)
    rounds: int = 200
    #: exact solving is planned as the hard level plans it with this budget (ms)
    plan_ms: float = 8000.0
    #: playouts end with this many cards a hand, the rest solved exactly
    exact_tail: int = 4
    #: rounds of deals for the dealer's discard
    discard_rounds: int = 30
    #: a gap within this many standard errors of the paired difference, plus
    #: ``margin`` points, is no loss: the search cannot tell the two apart
    z: float = 2.0
    margin: float = 0.25


#: The review's work (``tarocchi review`` and the game's review screen).
REVIEW = Grader()


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
    #: a real choice: more than one option, and not all worth the same
    real: bool = True

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
        """The real choices (see the module): what the summary counts."""
        return [d for d in self.decisions if d.real]

    @property
    def mean_loss(self) -> float:
        g = self.graded
        return sum(d.loss for d in g) / len(g) if g else 0.0

    @property
    def accuracy(self) -> float:
        """The share of real choices, in percent, on which a best card was played."""
        g = self.graded
        if not g:
            return 100.0
        return 100.0 * sum(1 for d in g if d.loss < 1e-9) / len(g)

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


# --- the values of the candidates, deal by deal ------------------------------------------


@dataclass(frozen=True)
class Valued:
    """Candidates valued on the same deals: ``rows[w][j]`` is candidate ``j``'s
    value in deal ``w``, of weight ``weights[w]``."""

    cands: list[int]
    weights: list[float]
    rows: list[Sequence[float]]

    def mean(self, j: int) -> float:
        tot = sum(self.weights)
        return sum(w * r[j] for w, r in zip(self.weights, self.rows, strict=True)) / tot

    def gap(self, a: int, b: int) -> tuple[float, float]:
        """Candidate ``a``'s mean less ``b``'s, and the standard error of that
        paired difference."""
        ws = self.weights
        tot = sum(ws)
        g = sum(w * (r[a] - r[b]) for w, r in zip(ws, self.rows, strict=True)) / tot
        var = sum(w * w * (r[a] - r[b] - g) ** 2 for w, r in zip(ws, self.rows, strict=True))
        return g, math.sqrt(var) / tot


def beyond_noise(gap: float, se: float, grader: Grader) -> float:
    """A loss of ``gap`` points (standard error ``se``), or 0 when the search
    cannot tell it from no loss (see :class:`Grader`)."""
    return gap if gap > grader.z * se + grader.margin else 0.0


def _card_values(view: SeatView, grader: Grader, seed: int, parallel: bool) -> tuple[Valued, list[list[int]]]:
    """The legal cards' classes (equivalent cards together) and the first card of
    each valued on the hard search's deals."""
    from .ai.anytime import Limits, PlaySearch, config_for, drive

    cfg = replace(config_for(view.rules), stop_every=0, prune_every=0, natural=False, uct_iters=0,
                  max_worlds=1 << 30, max_exact_worlds=1 << 30, exact_tail=grader.exact_tail)
    s = PlaySearch(view, cfg, seed, grader.plan_ms)
    if len(s.cands) > 1:
        drive(s, Limits(None, grader.rounds), parallel)
    kind = 1 if s.worlds[1] >= cfg.min_exact_worlds or not s.worlds[0] else 0
    weights: list[float] = []
    rows: list[Sequence[float]] = []
    rounds = [r for r in s.rounds[kind] if r[2]]
    if rounds:
        top = max(lw for _c, logw, _r in rounds for lw in logw)
        for _c, logw, rr in rounds:
            for lw, row in zip(logw, rr, strict=True):
                weights.append(math.exp(lw - top))
                rows.append(row)
    else:  # a single class: nothing to compare
        weights, rows = [1.0], [[0.0] * len(s.cands)]
    return Valued(s.cands, weights, rows), s.classes


def _discard_values(view: SeatView, grader: Grader, seed: int, parallel: bool, played: int) -> Valued:
    """The hard level's candidate discards and the one played, valued on the same deals."""
    from .ai.anytime import DiscardSearch, Limits, config_for, drive
    from .ai.players import hard_discard_candidates

    cfg = replace(config_for(view.rules), stop_every=0, discard_halve_every=0,
                  discard_max_worlds=1 << 30)
    cands = [d for d, _v in hard_discard_candidates(view.rules, view.hand, cfg.discard_cands)]
    if played not in cands:
        cands.append(played)
    s = DiscardSearch(view, cfg, seed, cands)
    if len(cands) > 1:
        drive(s, Limits(None, grader.discard_rounds), parallel)
    rows: list[Sequence[float]] = [row for rr in s.round_rows for row in rr] or [[0.0] * len(cands)]
    return Valued(cands, [1.0] * len(rows), rows)


def _grade(replay: Replay, seat: int, i: int, dseed: int, grader: Grader, parallel: bool) -> Decision:
    """The grade of ``seat``'s decision at event ``i``: every option valued on the
    same sampled deals seeded by ``dseed``, the one played against the best."""
    codes = replay.rules.pack.codes
    state = replay.states[i]
    event = replay.events[i]
    view = seat_view(state, seat)
    legal = view.legal()
    if isinstance(event, Discarded):
        kind, trick, played = "discard", 0, event.cards
        valued = _discard_values(view, grader, dseed, parallel, played)
        at = valued.cands.index(played)
        keys = list(valued.cands)
    else:
        assert isinstance(event, CardPlayed)
        kind, trick, played = "play", state.trick_no + 1, event.card
        valued, classes = _card_values(view, grader, dseed, parallel)
        at = next(j for j, g in enumerate(classes) if played in g)
        keys = [played if j == at else c for j, c in enumerate(valued.cands)]
    means = [valued.mean(j) for j in range(len(keys))]
    best = max(range(len(keys)), key=lambda j: (means[j], j == at))
    real = len(legal) > 1 and max(means) - min(means) > 1e-9
    loss = beyond_noise(*valued.gap(best, at), grader) if real else 0.0
    if loss == 0.0:
        best = at  # the played move is (one of) the best
    return Decision(
        index=i,
        deal=state.deal_no,
        trick=trick,
        kind=kind,
        played=_text(codes, kind, played),
        best=_text(codes, kind, keys[best]),
        expected_played=round(means[at], 3),
        expected_best=round(means[best], 3),
        loss=round(loss, 3),
        label=label(loss),
        forced=len(legal) == 1,
        options=len(legal),
        real=real,
    )


def review_replay(
    replay: Replay,
    seat: int,
    *,
    file: str = "",
    seed: int = 0,
    budget: Grader | None = None,
    parallel: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Grade ``seat``'s decisions in ``replay`` (see the module docstring) with
    the work of ``budget`` (default :data:`REVIEW`)."""
    grader = budget or REVIEW
    rules = replay.rules
    if not 0 <= seat < rules.n_seats:
        raise ValueError(f"seat {seat} is not a seat {rules.seat_range_text()}")
    points = list(decision_points(replay, seat))
    out: list[Decision] = []
    for k, i in enumerate(points):
        out.append(_grade(replay, seat, i, mix64(seed, i, seat), grader, parallel))
        if progress:
            progress(k + 1, len(points))
    return Review(file, rules.name, seat, seed, out)
