"""The hard level's anytime search: rounds of sampled deals until a deadline.

A decision is a sequence of *rounds*.  A round is a fixed batch of deals of the
hidden cards, drawn from the decision seed and the round's number (so round ``r``
always holds the same deals), each deal valued for every candidate: by policy
playouts early in the deal, exactly by the solver near its end, by whole-deal
playouts for the dealer's discard.  After each completed round the current best
answer is the (inference-weighted) average over the rounds so far.

* **Deadline** (``Limits(budget_ms=...)``): rounds run until the wall-clock
  budget, counted from the moment the decision was asked (sampling and solver
  calls included), is spent.  A round that would end past the deadline is
  abandoned, not waited for: playouts read the clock between deals and the
  solver every few hundred nodes, so no single call can overrun the budget.
* **Fixed work** (``Limits(rounds=N)``): exactly ``N`` rounds and no clock, for
  simulations, tests and tuning.

Either way the answer is a pure function of the view, the seed and the number of
completed rounds, also when the rounds run on the two workers of
:mod:`engine.ai.pool`: results are folded in round order, a round's candidates
depend only on rounds at least :data:`LAG` before it, and the rounds after an
abandoned one are ignored.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..cards import mask_cards
from ..rng import mix64
from ..ruleset import Ruleset
from ..state import DISCARD
from ..view import SeatView
from . import native, pool
from .fast import Policy, kernel, lookahead_policy
from .natural import LAST_MARGIN, TIE_MARGIN, TIE_Z, natural_first, tie_width, tied_indices
from .search import (
    discard_values,
    exact_values,
    likelihood_matches,
    likelihood_mix,
    play_values,
    play_values_tail,
    play_values_view,
)
from .solver import OutOfTime
from .uct import TREE_WORK, uct_counts
from .worlds import Known, known_of, sample

#: Candidates valued in one deal each (by playouts or solved), over every search
#: this process has folded: what ``tarocchi bench ai`` counts a second.
VALUED = [0]

#: A round's candidates may depend on the results of rounds up to ``r - LAG - 1``
#: only, so the same rounds give the same answer whether they ran one after the
#: other or two at a time on the pool's workers.
LAG = 2


# --- limits ------------------------------------------------------------------------


def safety_ms(budget_ms: float) -> float:
    """Time kept back from a budget for what follows the last round (merging,
    returning the answer, the scheduler's latency on a loaded machine)."""
    return min(40.0, 2.0 + 0.1 * budget_ms)


@dataclass(frozen=True)
class Limits:
    """How much one decision may do: a wall-clock budget in ms counted from
    ``start`` (a ``time.monotonic()`` instant), and/or a fixed number of rounds,
    and/or ``work_ms`` of counted work (see :class:`Meter`: a deadline on a
    clock that counts cards played, nodes searched and deals drawn instead of
    time, so deterministic and blind to the machine's load, for tuning).
    With none of them, a single round."""

    budget_ms: float | None = None
    rounds: int | None = None
    start: float = field(default_factory=time.monotonic)
    work_ms: float | None = None

    @property
    def deadline(self) -> float:
        if self.budget_ms is None:
            return math.inf
        return self.start + max(0.0, self.budget_ms - safety_ms(self.budget_ms)) / 1000

    @property
    def max_rounds(self) -> int:
        if self.rounds is not None:
            return max(1, self.rounds)
        return 1 if self.budget_ms is None and self.work_ms is None else 1 << 30

    def meter(self) -> Meter:
        work = math.inf if self.work_ms is None else self.work_ms * 1000 / WORK_UNIT_US
        return Meter(self.deadline, work)


#: Counted work, in units of about a microsecond of this machine unloaded.
WORK_UNIT_US = 1.0
CARD_WORK = 1.5  # one card played by the policy in a playout
VIEW_CARD_WORK = 2.3  # the same, each seat playing from what it could know
NODE_WORK = 2.5  # one solver node
SAMPLE_WORK = 40.0  # one deal of the hidden cards drawn
PLAY_SEEN_WORK = 1.5  # one seen play checked against the policy (inference)


class Meter:
    """What the rounds of one decision may spend: a deadline (``time.monotonic()``)
    and a total of counted work (``math.inf``: not counted).  Rounds add what
    they do to ``used``; counted work is meaningful only in-process (a worker
    gets a copy)."""

    __slots__ = ("deadline", "work", "used")

    def __init__(self, deadline: float = math.inf, work: float = math.inf) -> None:
        self.deadline = deadline
        self.work = work
        self.used = 0.0

    def over(self) -> bool:
        return self.used > self.work or time.monotonic() > self.deadline

    def __getstate__(self) -> tuple[float, float, float]:
        return self.deadline, self.work, self.used

    def __setstate__(self, st: tuple[float, float, float]) -> None:
        self.deadline, self.work, self.used = st


# --- configuration -------------------------------------------------------------------


@dataclass(frozen=True)
class HardConfig:
    """The hard search's settings for one game (tuned by duplicate tournaments)."""

    #: policy-played cards per playout round (sets the deals in a round)
    round_cards: int = 4000
    #: but at most this many deals a round (sampling costs the same late in the deal)
    round_max: int = 12
    #: stop once this many deals have been played out (more would not change the answer)
    max_worlds: int = 4000
    #: deals per exact round, by cards in the hand (0: never exact with that many)
    exact_round: tuple[int, ...] = (0, 1, 8, 6, 4, 2, 1)
    #: estimated ms to solve one deal exactly, by cards in the hand: exact solving
    #: is planned where the budget buys at least ``min_exact_worlds`` deals
    exact_cost_ms: tuple[float, ...] = (0, 0.05, 0.2, 0.5, 1.5, 6, 40)
    min_exact_worlds: int = 8
    max_exact_worlds: int = 600
    #: playout rounds run before the exact ones (an answer while the solver works)
    lead_rounds: int = 1
    #: stop early when one card is clearly best (see ``PlaySearch.done``)
    stop_every: int = 2
    stop_worlds: int = 120
    stop_exact_worlds: int = 24
    stop_z: float = 2.0
    stop_margin: float = 0.25
    #: playouts where each seat plays from what it could know (not open-handed)
    view_playouts: bool = False
    #: drop clearly worse candidates every this many rounds (0: never), when worse
    #: than the best by more than ``prune_z`` standard errors plus ``prune_margin``
    prune_every: int = 0
    prune_z: float = 3.0
    prune_margin: float = 0.5
    #: playouts end when the hands are down to this many cards, the rest solved
    #: exactly (0: played out to the end)
    exact_tail: int = 0
    #: weight deals by the policy's agreement with the others' plays (ratio per play)
    inference: float = 1.3
    #: when above 0, weight them instead by the plays' likelihood under a player who
    #: plays the policy's card but for a random legal card this often (see
    #: :func:`~engine.ai.search.likelihood_mix`)
    infer_mix: float = 0.0
    #: and scale those log-likelihoods by this (below 1 flattens the weights, so a
    #: few well-explained deals do not carry the whole average)
    infer_temp: float = 1.0
    #: when above 0, the playouts' leads are chosen by playing the trick out, the
    #: cards spent weighted by this (see :func:`~engine.ai.fast.lookahead_policy`)
    lead_lookahead: float = 0.0
    #: when above 0, the playouts lead to a partner's sure ruff first, valued this
    #: plus ``ruff_lead_points`` a point of the card led (see
    #: :meth:`~engine.ai.fast.Kernel.policy_variant`)
    ruff_lead: int = 0
    ruff_lead_points: int = 8
    #: deals drawn per deal kept (the best explained ones are kept)
    oversample: int = 2
    #: how much likelier a hidden discard is per card point it holds (log scale)
    discard_lambda: float = 0.35
    #: discards searched (the rules of thumb's best), halved every few rounds
    discard_cands: int = 16
    discard_round: int = 4
    discard_halve_every: int = 0
    discard_max_worlds: int = 600
    #: when above 0, the playout rounds of a card decision are trees of this many
    #: iterations (:mod:`engine.ai.uct`: each seat choosing for its own points)
    #: over ``uct_worlds`` deals each, with exploration ``uct_c`` (points), at
    #: most ``uct_max`` iterations in all.  Off: in Scarto, duplicate screens
    #: against two medium (40 deals from seed 7, ``work=1000,uct_play_work=6``:
    #: a play in the tree counted at 6 units, so about six times the flat
    #: search's CPU), paired against the flat search: 400 iterations a tree
    #: -0.33 [-1.27, +0.60], 3000 +0.12 [-0.87, +1.12] (c 8) and +0.27
    #: [-0.59, +1.12] (c 4), 4000 +0.06 [-0.88, +1.00] (c 3)
    uct_iters: int = 0
    uct_worlds: int = 16
    uct_c: float = 8.0
    uct_max: int = 200_000
    #: counted work of a play in the tree (see :data:`engine.ai.uct.TREE_WORK`)
    uct_play_work: float = TREE_WORK
    #: the natural-card tie-break (:mod:`engine.ai.natural`): among the cards within
    #: ``tie_z`` standard errors plus ``last_margin`` points of the best at the last
    #: card of a trick (``early_z`` and ``tie_margin`` before it), play the rules of
    #: thumb's card.  Before the last card only exact ties: a duplicate screen at 6
    #: rounds a decision with ``early_z=2`` against no tie-break, 90 deal pairs
    #: (seeds 41, 7): about -1.8 points
    natural: bool = True
    #: the C kernels where they are built (:mod:`engine.ai.native`); ``native=0``
    #: is the same search on the pure-Python kernels, about ten times slower (the
    #: yardstick a server's ``--ai-ms`` is measured against, docs/AI.md)
    native: bool = True
    tie_z: float = TIE_Z
    early_z: float = 0.0
    tie_margin: float = TIE_MARGIN
    last_margin: float = LAST_MARGIN


HARD_CONFIGS: dict[str, HardConfig] = {
    # infer_mix/infer_temp: duplicate screens against the match count at equal
    # counted work (work=250, 60 deal pairs): seeds 7, 10, 13 +2.00, +0.05, +2.18
    # ruff_lead: duplicate screens against the default without it, work=250, 60
    # deal pairs each: seeds 7, 10, 13, 16 +0.40, +2.90, +0.80, +2.48 (pooled
    # +1.64 [+0.43, +2.86])
    "piedicavallo": HardConfig(
        discard_halve_every=3, exact_tail=3, infer_mix=0.3, infer_temp=0.15, ruff_lead=70
    ),
    "scarto": HardConfig(
        exact_round=(0, 1, 8, 8, 6, 4, 2, 1),
        exact_cost_ms=(0, 0.05, 0.1, 0.3, 0.8, 2, 8, 30),
        discard_cands=48,
        discard_halve_every=2,
    ),
}


def config_for(rules: Ruleset) -> HardConfig:
    return HARD_CONFIGS.get(rules.name, HardConfig())


# --- rounds (run in a worker or in-process) ---------------------------------------------

Row = list[int]


def _play_rand(seed: int, r: int) -> random.Random:
    """The random draws of a card decision's round ``r``: the flat and the tree
    rounds share them, so both search the same deals."""
    return random.Random(mix64(seed, r, 0x5EA2C4))


def play_round(
    kn: Known,
    history: tuple[tuple[int, tuple[int, ...]], ...],
    cands: list[int],
    seed: int,
    r: int,
    n: int,
    exact: bool,
    inference: float,
    lam: float,
    cfg: HardConfig,
    meter: Meter,
) -> tuple[list[float], list[Row]] | None:
    """Round ``r`` of a card decision: ``n`` deals (the best explained of
    ``n * oversample`` when inference is on), each candidate valued in each.
    Returns the deals' log-weights and value rows, or None once ``meter`` is
    spent (the deadline passed)."""
    rand = _play_rand(seed, r)
    with native.pure(not cfg.native):
        policy, spent = _round_policy(kn, cfg)
        try:
            got = _round_worlds(kn, history, rand, n, inference, lam, cfg, meter)
            if got is None:
                return None
            worlds, logw = got
            rows = _round_rows(kn, worlds, cands, exact, cfg, meter, policy, spent)
            return None if rows is None else (logw, rows)
        except OutOfTime:
            return None


def uct_round(
    kn: Known,
    history: tuple[tuple[int, tuple[int, ...]], ...],
    cands: list[int],
    seed: int,
    r: int,
    n: int,
    inference: float,
    lam: float,
    cfg: HardConfig,
    meter: Meter,
) -> tuple[list[int], list[float]] | None:
    """Round ``r`` of a card decision as a tree (:func:`~engine.ai.uct.uct_counts`)
    over ``n`` deals drawn as :func:`play_round` draws them: each candidate's
    visits and summed points, or None once ``meter`` is spent."""
    rand = _play_rand(seed, r)
    with native.pure(not cfg.native):
        got = _round_worlds(kn, history, rand, n, inference, lam, cfg, meter)
        if got is None:
            return None
        worlds, logw = got
        top = max(logw)
        weights = [math.exp(w - top) for w in logw]
        return uct_counts(
            kn, worlds, weights, cands, cfg.uct_iters, cfg.uct_c, rand, meter, CARD_WORK,
            cfg.uct_play_work,
        )


def _round_policy(kn: Known, cfg: HardConfig) -> tuple[Policy | None, list[int]]:
    """The playouts' policy (None: the kernel's own) and its counter of extra cards."""
    policy, spent = (
        lookahead_policy(kn.rules, cfg.lead_lookahead) if cfg.lead_lookahead else (None, [0])
    )
    if policy is None and cfg.ruff_lead:
        policy = kernel(kn.rules).policy_variant(cfg.ruff_lead, cfg.ruff_lead_points)
    return policy, spent


def _round_worlds(
    kn: Known,
    history: tuple[tuple[int, tuple[int, ...]], ...],
    rand: random.Random,
    n: int,
    inference: float,
    lam: float,
    cfg: HardConfig,
    meter: Meter,
) -> tuple[list[tuple[list[int], int]], list[float]] | None:
    """A round's ``n`` deals and their log-weights: with inference, the best
    explained (by the play so far) of ``n * oversample`` drawn; a hidden
    discard made likelier by ``lam`` a card point it holds; None when the
    meter is spent."""
    got = _drawn_worlds(kn, history, rand, n, inference, cfg, meter)
    if got is None or not lam:
        return got
    worlds, logw = got
    mp = kn.rules.pack.mask_points
    k = kn.rules.discard_cards
    return worlds, [w + lam * (mp(d) - k) for w, (_h, d) in zip(logw, worlds, strict=True)]


def _drawn_worlds(
    kn: Known,
    history: tuple[tuple[int, tuple[int, ...]], ...],
    rand: random.Random,
    n: int,
    inference: float,
    cfg: HardConfig,
    meter: Meter,
) -> tuple[list[tuple[list[int], int]], list[float]] | None:
    """:func:`_round_worlds` before the discard's weight."""
    over = meter.over
    oversample = cfg.oversample
    mix, temp = cfg.infer_mix, cfg.infer_temp
    infer = inference > 1 and bool(history)
    drawn: list[tuple[list[int], int]] = []
    for _ in range(n * oversample if infer else n):
        if over():
            return None
        drawn.append(sample(kn, rand, True))
        meter.used += SAMPLE_WORK
    if not infer:
        return drawn, [0.0] * n
    lr = math.log(inference)
    seen = PLAY_SEEN_WORK * sum(len(t) for _l, t in history)
    scored: list[tuple[float, int]] = []
    for i, (h, _d) in enumerate(drawn):
        if over():
            return None
        if mix > 0:
            scored.append((temp * likelihood_mix(kn, history, h, mix), i))
        else:
            scored.append((likelihood_matches(kn, history, h) * lr, i))
        meter.used += seen
    scored.sort(key=lambda t: (-t[0], t[1]))
    return [drawn[i] for _m, i in scored[:n]], [m for m, _i in scored[:n]]


def _round_rows(
    kn: Known,
    worlds: list[tuple[list[int], int]],
    cands: list[int],
    exact: bool,
    cfg: HardConfig,
    meter: Meter,
    policy: Policy | None,
    spent: list[int],
) -> list[Row] | None:
    """Each candidate's value in each deal (exactly, by an exact tail, by
    playouts from the seats' views, or by open playouts), the work metered;
    None when the meter is spent."""
    over = meter.over
    view, tail = cfg.view_playouts, cfg.exact_tail
    rows: list[Row] = []
    left = sum(kn.need) + kn.hands_known[kn.seat].bit_count()
    nodes = [0]
    for h, d in worlds:
        if over():
            return None
        if exact:
            limit = (meter.work - meter.used) / NODE_WORK
            nodes[0] = 0
            try:
                rows.append(exact_values(kn, h, d, cands, meter.deadline, limit, nodes))
            finally:
                meter.used += NODE_WORK * nodes[0]
        elif tail and left > tail * kn.rules.n_seats:
            limit = (meter.work - meter.used) / NODE_WORK
            nodes[0] = 0
            s0 = spent[0]
            try:
                rows.append(
                    play_values_tail(kn, h, d, cands, tail, meter.deadline, limit, nodes, policy)
                )
            finally:
                plays = (left - tail * kn.rules.n_seats) * len(cands) + spent[0] - s0
                meter.used += NODE_WORK * nodes[0] + CARD_WORK * plays
        elif view:
            rows.append(play_values_view(kn, h, d, cands))
            meter.used += VIEW_CARD_WORK * left * len(cands)
        else:
            s0 = spent[0]
            rows.append(play_values(kn, h, d, cands, policy))
            meter.used += CARD_WORK * (left * len(cands) + spent[0] - s0)
    return rows


def discard_round(
    kn: Known, cands: list[int], seed: int, r: int, n: int, use_c: bool, meter: Meter
) -> list[Row] | None:
    """Round ``r`` of the dealer's discard: ``n`` deals of the other hands, each
    candidate discard valued by playing the whole deal out with the policy (on
    the C kernels if ``use_c`` and they are built)."""
    rand = random.Random(mix64(seed, r, 0xD15CA2D))
    rows: list[Row] = []
    cards = kn.rules.pack.n_cards - kn.rules.discard_cards
    with native.pure(not use_c):
        for _ in range(n):
            if meter.over():
                return None
            rows.append(discard_values(kn, cands, [sample(kn, rand, True)])[0])
            meter.used += SAMPLE_WORK + CARD_WORK * cards * len(cands)
    return rows


# --- the driver -----------------------------------------------------------------------


class Search(Protocol):
    def task(self, r: int) -> tuple[Any, tuple[Any, ...]] | None: ...
    def fold(self, r: int, result: Any) -> None: ...
    def done(self) -> bool: ...


def drive(search: Search, limits: Limits, parallel: bool) -> int:
    """Run the search's rounds within ``limits``; returns the rounds completed."""
    meter = limits.meter()
    max_rounds = limits.max_rounds
    ex = None
    if parallel and pool.parallel_enabled() and meter.work == math.inf:
        ex = pool.executor()
    if ex is None:
        return _drive_here(search, meter, max_rounds, 0)
    return _drive_pool(search, meter, max_rounds, ex)


def _drive_here(search: Search, meter: Meter, max_rounds: int, r: int) -> int:
    """Rounds ``r``, ``r + 1``, ... in this process; returns how many were done."""
    start = r
    while r < max_rounds and not meter.over():
        t = search.task(r)
        if t is None:
            break
        fn, args = t
        res = fn(*args, meter)
        if res is None:
            break
        search.fold(r, res)
        r += 1
        if search.done():
            break
    return r - start


def _drive_pool(search: Search, meter: Meter, max_rounds: int, ex: Any) -> int:
    width = min(pool.WORKERS, LAG)
    deadline = meter.deadline
    inflight: dict[int, Future[Any]] = {}
    ready: dict[int, Any] = {}
    folded = 0
    nxt = 0
    stop = False
    try:
        while True:
            while (
                not stop and len(inflight) < width and nxt < max_rounds and folded >= nxt - LAG
            ):
                t = search.task(nxt)
                if t is None:
                    stop = True
                    break
                fn, args = t
                inflight[nxt] = ex.submit(fn, *args, meter)
                nxt += 1
            if not inflight:
                break
            timeout = None if deadline == math.inf else max(0.0, deadline - time.monotonic())
            done, _ = wait(list(inflight.values()), timeout=timeout, return_when=FIRST_COMPLETED)
            if not done:
                break  # the deadline: the rounds in flight abandon themselves
            for r in [r for r, f in inflight.items() if f.done()]:
                res = inflight.pop(r).result()
                if res is None:
                    stop = True
                    max_rounds = min(max_rounds, r)
                else:
                    ready[r] = res
            while folded in ready and folded < max_rounds:
                search.fold(folded, ready.pop(folded))
                folded += 1
                if search.done():
                    return folded
            if stop and all(r >= max_rounds for r in inflight):
                break
    except Exception:  # noqa: BLE001 - a broken pool: finish the decision here
        pool.mark_broken()
        if search.done():
            return folded
        return folded + _drive_here(search, meter, max_rounds, folded)
    return folded


# --- card decisions -------------------------------------------------------------------


def root_classes(rules: Ruleset, legal: int, alive: int) -> list[list[int]]:
    """The legal cards in classes of equivalent ones (same suit and points, no
    card still in play between them), each class in ascending order: every
    card of a class is worth exactly the same, so only the first is searched."""
    p = rules.pack
    suit = p.suit
    points = p.points
    higher = p.higher
    out: list[list[int]] = []
    prev = -1
    for c in mask_cards(legal):
        if (
            prev >= 0
            and suit[prev] == suit[c]
            and points[prev] == points[c]
            and not (higher[prev] & ~higher[c] & ~(1 << c) & alive)
        ):
            out[-1].append(c)
        else:
            out.append([c])
        prev = c
    return out


def clear_leader(
    rows: Sequence[tuple[float, dict[int, int] | Sequence[float]]],
    idx: Sequence[int],
    z: float,
    margin: float,
) -> bool:
    """Whether one of the candidates ``idx`` beats every other, over the
    weighted rows (log-weight, values by candidate), by more than ``z`` standard
    errors of the paired difference plus ``margin``."""
    if len(idx) < 2:
        return True
    if not rows:
        return False
    top = max(lw for lw, _r in rows)
    ws = [math.exp(lw - top) for lw, _r in rows]
    tot = sum(ws)
    means = {i: sum(w * r[i] for w, (_l, r) in zip(ws, rows, strict=True)) / tot for i in idx}
    best = max(idx, key=lambda i: (means[i], -i))
    for i in idx:
        if i == best:
            continue
        gap = means[best] - means[i]
        var = 0.0
        for w, (_l, r) in zip(ws, rows, strict=True):
            d = r[best] - r[i] - gap
            var += w * w * d * d
        if gap <= z * math.sqrt(var) / tot + margin:
            return False
    return True


def plan_exact(cfg: HardConfig, in_hand: int, budget_ms: float) -> bool:
    """Whether to solve exactly with ``in_hand`` cards: the budget must buy at least
    ``min_exact_worlds`` deals at the estimated cost."""
    if in_hand >= len(cfg.exact_round) or not cfg.exact_round[in_hand]:
        return False
    cost = cfg.exact_cost_ms[min(in_hand, len(cfg.exact_cost_ms) - 1)]
    return cost * cfg.min_exact_worlds <= budget_ms


def with_truth(kn: Known, truth: tuple[Sequence[int], int] | None) -> Known:
    """``kn`` narrowed to the true deal (``truth``: every seat's hand and the
    discard), so that every sampled deal is the true one: a seat that sees all
    hands (a test-only oracle, the ceiling for inference)."""
    if truth is None:
        return kn
    hands, discard = truth
    n = kn.rules.n_seats
    allowed = tuple(0 if s == kn.seat else hands[s] for s in range(n))
    parts = ((discard, kn.rules.discard_cards),) if kn.hidden_discard else kn.discard_parts
    return kn._replace(allowed=allowed, discard_parts=parts)


class PlaySearch:
    """The anytime search for a card to play.

    With ``prune_every`` set, a candidate clearly worse than the best (by more
    than ``prune_z`` standard errors of the paired difference, over the same
    deals) stops being valued, so the rounds go to the close ones; which ones
    are valued in round ``r`` depends only on rounds up to ``r - LAG - 1``."""

    def __init__(
        self, view: SeatView, cfg: HardConfig, seed: int, plan_ms: float,
        truth: tuple[Sequence[int], int] | None = None,
    ) -> None:
        rules = view.rules
        self.cfg = cfg
        self.seed = seed
        self.kn = kn = with_truth(known_of(view), truth)
        self.history = view.history
        legal = view.legal_mask()
        tmask = 0
        for c in view.trick:
            tmask |= 1 << c
        self.classes = root_classes(rules, legal, view.unseen | view.hand | tmask)
        self.cands = [g[0] for g in self.classes]
        in_hand = view.hand.bit_count()
        self.exact = plan_exact(cfg, in_hand, plan_ms)
        self.remaining = max(1, sum(view.hand_sizes))
        self.exact_worlds = cfg.exact_round[min(in_hand, len(cfg.exact_round) - 1)] or 1
        self.inference = cfg.inference if view.history else 0.0
        self.lam = cfg.discard_lambda if kn.hidden_discard else 0.0
        self.lead = cfg.lead_rounds if self.exact else 0
        #: the playout rounds are trees (``cfg.uct_iters``): per candidate, the
        #: visits and summed points over the rounds folded
        self.tree = cfg.uct_iters > 0 and not self.exact
        self.visits = [0] * len(self.cands)
        self.sums = [0.0] * len(self.cands)
        #: per kind (playouts, exact): per round, (candidate indices, log-weights, rows)
        self.rounds: tuple[list[tuple[list[int], list[float], list[Row]]], ...] = ([], [])
        self._alive: dict[tuple[int, int], list[int]] = {}
        self.worlds = [0, 0]
        self.planned = 0  # playout deals in the rounds handed out so far
        self.n_rounds = 0
        # The rules of thumb's card, should no round complete in time.
        hands = list(kn.allowed)
        hands[view.seat] = view.hand
        self.fallback = kernel(rules).policy(hands, view.seat, view.leader, view.trick, legal)
        #: the points beyond the noise within which cards are ties (the tie-break)
        self.tie_z, self.margin = tie_width(
            view, cfg.early_z, cfg.tie_margin, cfg.tie_z, cfg.last_margin
        )

    def _kind(self, r: int) -> tuple[int, int]:
        """(1 for an exact round, 0 for playouts; the round's number in its kind)."""
        if self.exact and r >= self.lead:
            return 1, r - self.lead
        return 0, r

    def alive(self, kind: int, k: int) -> list[int]:
        """Indices of the candidates valued in round ``k`` of ``kind``."""
        every = self.cfg.prune_every
        if not every or k < every:
            return list(range(len(self.cands)))
        b = k - k % every
        got = self._alive.get((kind, b))
        if got is None:
            prev = self.alive(kind, b - 1)
            upto = b - LAG
            got = prev if len(prev) <= 2 or upto <= 0 else self._prune(kind, prev, upto)
            self._alive[(kind, b)] = got
        return got

    def _prune(self, kind: int, idx: list[int], upto: int) -> list[int]:
        rows: list[tuple[float, dict[int, int]]] = []
        for cands, logw, rr in self.rounds[kind][:upto]:
            for lw, row in zip(logw, rr, strict=True):
                rows.append((lw, dict(zip(cands, row, strict=True))))
        if len(rows) < 4:
            return idx
        top = max(lw for lw, _r in rows)
        ws = [math.exp(lw - top) for lw, _r in rows]
        tot = sum(ws)
        means = {i: sum(w * r[i] for w, (_l, r) in zip(ws, rows, strict=True)) / tot for i in idx}
        best = max(idx, key=lambda i: (means[i], -i))
        keep = []
        z = self.cfg.prune_z
        for i in idx:
            if i == best:
                keep.append(i)
                continue
            gap = means[best] - means[i]
            var = 0.0
            for w, (_l, r) in zip(ws, rows, strict=True):
                d = r[best] - r[i] - gap
                var += w * w * d * d
            se = math.sqrt(var) / tot
            if gap <= z * se + self.cfg.prune_margin:
                keep.append(i)
        return keep

    def task(self, r: int) -> tuple[Any, tuple[Any, ...]] | None:
        if len(self.cands) == 1:
            return None
        if self.tree:
            if self.planned >= self.cfg.uct_max:
                return None
            self.planned += self.cfg.uct_iters
            return uct_round, (
                self.kn, self.history, self.cands, self.seed, r, self.cfg.uct_worlds,
                self.inference, self.lam, self.cfg,
            )
        kind, k = self._kind(r)
        idx = self.alive(kind, k)
        cands = [self.cands[i] for i in idx]
        if kind:
            if k * self.exact_worlds >= self.cfg.max_exact_worlds:
                return None
            n = self.exact_worlds
        else:
            # planned, not folded, deals: the same whether or not earlier rounds are back
            if self.planned >= self.cfg.max_worlds:
                return None
            n = max(2, min(self.cfg.round_max, self.cfg.round_cards // (len(cands) * self.remaining)))
            self.planned += n
        return play_round, (
            self.kn, self.history, cands, self.seed, r, n, bool(kind),
            self.inference, self.lam, self.cfg,
        )

    def fold(self, r: int, result: Any) -> None:
        if self.tree:
            visits, sums = result
            for i, (n, v) in enumerate(zip(visits, sums, strict=True)):
                self.visits[i] += n
                self.sums[i] += v
            self.worlds[0] += sum(visits)
            VALUED[0] += sum(visits)
            self.n_rounds = r + 1
            return
        logw, rows = result
        kind, k = self._kind(r)
        alive = self.alive(kind, k)
        self.rounds[kind].append((alive, logw, rows))
        self.worlds[kind] += len(rows)
        VALUED[0] += len(rows) * len(alive)
        self.n_rounds = r + 1

    def done(self) -> bool:
        """Stop early when one card is clearly best: ahead of every other by more
        than ``stop_z`` standard errors of the paired difference plus
        ``stop_margin``, over at least ``stop_worlds`` deals (``stop_exact_worlds``
        solved exactly) of the kind the answer comes from; checked every
        ``stop_every`` rounds.  (More deals hardly change a decision once a few
        hundred are in: the search's answers at a quarter of the default budget
        agree with those at eight times it 95% of the time, at a cost of 0.006
        points a decision.)"""
        cfg = self.cfg
        if self.tree or not cfg.stop_every or self.n_rounds % cfg.stop_every:
            return False
        kind = 1 if self.exact and self.n_rounds > self.lead else 0
        if self.worlds[kind] < (cfg.stop_exact_worlds if kind else cfg.stop_worlds):
            return False
        rounds = self.rounds[kind]
        idx = rounds[-1][0]
        rows: list[tuple[float, dict[int, int]]] = []
        for cands, logw, rr in rounds:
            for lw, row in zip(logw, rr, strict=True):
                rows.append((lw, dict(zip(cands, row, strict=True))))
        return clear_leader(rows, idx, cfg.stop_z, cfg.stop_margin)

    def values(self) -> list[tuple[int, float]]:
        """Every legal card with its expected final points for the seat's side,
        best first (ties: ascending cards); candidates dropped by pruning after
        those valued to the end.  From trees: the most visited first, each
        valued by its mean."""
        if self.tree and self.n_rounds:
            ranked = sorted(
                range(len(self.cands)),
                key=lambda i: (-self.visits[i], -self.sums[i] / max(1, self.visits[i])),
            )
            return [
                (c, self.sums[i] / max(1, self.visits[i])) for i in ranked for c in self.classes[i]
            ]
        # Exact values once enough deals are solved; playouts until then.
        kind = 1 if self.worlds[1] >= self.cfg.min_exact_worlds or not self.worlds[0] else 0
        rounds = self.rounds[kind]
        out: list[tuple[int, int, float]] = []
        if rounds and any(rr for _c, _l, rr in rounds):
            top = max(lw for _c, logw, _r in rounds for lw in logw)
            sums = [0.0] * len(self.cands)
            tots = [0.0] * len(self.cands)
            for cands, logw, rr in rounds:
                for lw, row in zip(logw, rr, strict=True):
                    w = math.exp(lw - top)
                    for i, x in zip(cands, row, strict=True):
                        sums[i] += w * x
                        tots[i] += w
            final = set(rounds[-1][0])
            for i, g in enumerate(self.classes):
                mean = sums[i] / tots[i] if tots[i] else 0.0
                out += [(0 if i in final else 1, c, mean) for c in g]
        else:
            out = [(0, c, 1.0 if c == self.fallback else 0.0) for g in self.classes for c in g]
        out.sort(key=lambda t: (t[0], -t[2], t[1]))
        return [(c, v) for _f, c, v in out]

    def ties(self) -> list[int]:
        """The cards whose value is within the search's noise of the best (see
        :func:`~engine.ai.natural.tied_indices`), over the rounds that
        :meth:`values` reads; empty when no round completed (or from trees,
        whose visits already settle near-ties)."""
        if self.tree:
            return []
        kind = 1 if self.worlds[1] >= self.cfg.min_exact_worlds or not self.worlds[0] else 0
        rounds = [r for r in self.rounds[kind] if r[2]]
        if not rounds:
            return []
        final = rounds[-1][0]
        top = max(lw for _c, logw, _r in rounds for lw in logw)
        weights: list[float] = []
        rows: list[dict[int, int]] = []
        for cands, logw, rr in rounds:
            for lw, row in zip(logw, rr, strict=True):
                weights.append(math.exp(lw - top))
                rows.append(dict(zip(cands, row, strict=True)))
        idx = tied_indices(weights, rows, final, self.tie_z, self.margin)
        return [c for i in idx for c in self.classes[i]]


# --- the discard ----------------------------------------------------------------------


class DiscardSearch:
    """The anytime search for the dealer's discard: the rules of thumb's best
    candidates, played out over more and more deals, the weaker half dropped
    every ``discard_halve_every`` rounds (where set)."""

    def __init__(
        self, view: SeatView, cfg: HardConfig, seed: int, cands: Sequence[int],
        truth: tuple[Sequence[int], int] | None = None,
    ) -> None:
        self.cfg = cfg
        self.seed = seed
        self.kn = with_truth(known_of(view), truth)
        self.cands = list(cands)
        self.sums = [0.0] * len(self.cands)
        self.counts = [0] * len(self.cands)
        #: cumulative (sums, counts) after each folded round, for pruning with a lag
        self.snapshots: list[tuple[list[float], list[int]]] = []
        self._alive_at: dict[int, list[int]] = {}
        self.idx_of: list[list[int]] = []
        self.round_rows: list[list[Row]] = []
        self.n_rounds = 0

    def alive(self, r: int) -> list[int]:
        """Indices of the candidates valued in round ``r``."""
        every = self.cfg.discard_halve_every
        if not every or r < every:
            return list(range(len(self.cands)))
        b = r - r % every  # the last boundary at or before r
        got = self._alive_at.get(b)
        if got is None:
            prev = self.alive(b - 1)
            if len(prev) <= 2 or b - LAG - 1 < 0:
                got = prev
            else:
                sums, counts = self.snapshots[b - LAG - 1]
                ranked = sorted(prev, key=lambda i: (-sums[i] / max(1, counts[i]), i))
                got = sorted(ranked[: max(2, (len(prev) + 1) // 2)])
            self._alive_at[b] = got
        return got

    def task(self, r: int) -> tuple[Any, tuple[Any, ...]] | None:
        if len(self.cands) == 1 or r * self.cfg.discard_round >= self.cfg.discard_max_worlds:
            return None
        idx = self.alive(r)
        return discard_round, (
            self.kn, [self.cands[i] for i in idx], self.seed, r, self.cfg.discard_round,
            self.cfg.native,
        )

    def fold(self, r: int, rows: list[Row]) -> None:
        idx = self.alive(r)
        self.idx_of.append(idx)
        self.round_rows.append(rows)
        VALUED[0] += len(rows) * len(idx)
        for row in rows:
            for i, v in zip(idx, row, strict=True):
                self.sums[i] += v
                self.counts[i] += 1
        self.snapshots.append((list(self.sums), list(self.counts)))
        self.n_rounds = r + 1

    def done(self) -> bool:
        """Stop early once the candidates left (after halving) have a clear leader
        (as ``PlaySearch.done``), over at least ``stop_worlds`` deals."""
        cfg = self.cfg
        if not cfg.stop_every or self.n_rounds % cfg.stop_every:
            return False
        idx = self.alive(self.n_rounds)
        if len(idx) > 2 or self.rows_of(idx[0]) < cfg.stop_worlds:
            return False
        rows = [(0.0, dict(zip(self.idx_of[r], row, strict=True)))
                for r in range(self.n_rounds) for row in self.round_rows[r]]
        rows = [(lw, r) for lw, r in rows if all(i in r for i in idx)]
        return clear_leader(rows, idx, cfg.stop_z, cfg.stop_margin)

    def rows_of(self, i: int) -> int:
        return self.counts[i]

    def values(self, tie: Sequence[float]) -> list[tuple[int, float]]:
        """Candidates with their mean value, the finalists (valued in the last
        round) first, best first; ``tie`` breaks ties (the rules of thumb)."""
        last = set(self.alive(max(0, self.n_rounds - 1))) if self.n_rounds else set()
        out = []
        for i, d in enumerate(self.cands):
            mean = self.sums[i] / self.counts[i] if self.counts[i] else 0.0
            out.append((i in last, mean + tie[i] * 1e-4, d))
        out.sort(key=lambda t: (not t[0], -t[1]))
        return [(d, v) for _f, v, d in out]


def search_play(
    view: SeatView, cfg: HardConfig, seed: int, limits: Limits, parallel: bool,
    plan_ms: float, truth: tuple[Sequence[int], int] | None = None,
) -> tuple[list[tuple[int, float]], int]:
    """(every legal card valued, best first; rounds completed).  With
    ``cfg.natural`` the first is the natural card among those tied with the best
    within the search's noise (:mod:`engine.ai.natural`)."""
    s = PlaySearch(view, cfg, seed, plan_ms, truth)
    n = drive(s, limits, parallel)
    vals = s.values()
    if cfg.natural:
        vals = natural_first(view, vals, s.ties())
    return vals, n


def search_discard(
    view: SeatView, cfg: HardConfig, seed: int, limits: Limits, parallel: bool,
    cands: Sequence[int], tie: Sequence[float],
    truth: tuple[Sequence[int], int] | None = None,
) -> tuple[list[tuple[int, float]], int]:
    assert view.phase == DISCARD
    s = DiscardSearch(view, cfg, seed, cands, truth)
    n = drive(s, limits, parallel)
    return s.values(tie), n
