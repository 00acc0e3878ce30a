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
from . import pool
from .fast import kernel
from .search import discard_values, exact_values, likelihood_matches, play_values
from .solver import OutOfTime
from .worlds import Known, known_of, sample

#: A round's candidates may depend on the results of rounds up to ``r - LAG - 1``
#: only, so the same rounds give the same answer whether they ran one after the
#: other or two at a time on the pool's workers.
LAG = 2


# --- limits ------------------------------------------------------------------------


def safety_ms(budget_ms: float) -> float:
    """Time kept back from a budget for what follows the last round (merging,
    returning the answer, the scheduler's latency on a loaded machine)."""
    return min(20.0, 2.0 + 0.05 * budget_ms)


@dataclass(frozen=True)
class Limits:
    """How much one decision may do: a wall-clock budget in ms counted from
    ``start`` (a ``time.monotonic()`` instant), and/or a fixed number of rounds.
    With neither, a single round."""

    budget_ms: float | None = None
    rounds: int | None = None
    start: float = field(default_factory=time.monotonic)

    @property
    def deadline(self) -> float:
        if self.budget_ms is None:
            return math.inf
        return self.start + max(0.0, self.budget_ms - safety_ms(self.budget_ms)) / 1000

    @property
    def max_rounds(self) -> int:
        if self.rounds is not None:
            return max(1, self.rounds)
        return 1 if self.budget_ms is None else 1 << 30


# --- configuration -------------------------------------------------------------------


@dataclass(frozen=True)
class HardConfig:
    """The hard search's settings for one game (tuned by duplicate tournaments)."""

    #: policy-played cards per playout round (sets the deals in a round)
    round_cards: int = 4000
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
    #: weight deals by the policy's agreement with the others' plays (ratio per play)
    inference: float = 1.3
    #: deals drawn per deal kept (the best explained ones are kept)
    oversample: int = 2
    #: how much likelier a hidden discard is per card point it holds (log scale)
    discard_lambda: float = 0.35
    #: discards searched (the rules of thumb's best), halved every few rounds
    discard_cands: int = 16
    discard_round: int = 4
    discard_halve_every: int = 0
    discard_max_worlds: int = 600


HARD_CONFIGS: dict[str, HardConfig] = {
    "piedicavallo": HardConfig(),
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


def play_round(
    kn: Known,
    history: tuple[tuple[int, tuple[int, ...]], ...],
    cands: list[int],
    seed: int,
    r: int,
    n: int,
    exact: bool,
    inference: float,
    oversample: int,
    lam: float,
    deadline: float,
) -> tuple[list[float], list[Row]] | None:
    """Round ``r`` of a card decision: ``n`` deals (the best explained of
    ``n * oversample`` when inference is on), each candidate valued in each.
    Returns the deals' log-weights and value rows, or None past ``deadline``."""
    rand = random.Random(mix64(seed, r, 0x5EA2C4))
    clock = time.monotonic
    try:
        if inference > 1 and history and oversample > 1:
            drawn = [sample(kn, rand, True) for _ in range(n * oversample)]
            if clock() > deadline:
                return None
            scored = sorted(
                ((likelihood_matches(kn, history, h), i) for i, (h, _d) in enumerate(drawn)),
                key=lambda t: (-t[0], t[1]),
            )[:n]
            worlds = [drawn[i] for _m, i in scored]
            lr = math.log(inference)
            logw = [m * lr for m, _i in scored]
        elif inference > 1 and history:
            worlds = [sample(kn, rand, True) for _ in range(n)]
            lr = math.log(inference)
            logw = [likelihood_matches(kn, history, h) * lr for h, _d in worlds]
        else:
            worlds = [sample(kn, rand, True) for _ in range(n)]
            logw = [0.0] * n
        if lam:
            mp = kn.rules.pack.mask_points
            k = kn.rules.discard_cards
            logw = [w + lam * (mp(d) - k) for w, (_h, d) in zip(logw, worlds, strict=True)]
        rows: list[Row] = []
        for h, d in worlds:
            if clock() > deadline:
                return None
            if exact:
                rows.append(exact_values(kn, h, d, cands, deadline))
            else:
                rows.append(play_values(kn, h, d, cands))
        return logw, rows
    except OutOfTime:
        return None


def discard_round(
    kn: Known, cands: list[int], seed: int, r: int, n: int, deadline: float
) -> list[Row] | None:
    """Round ``r`` of the dealer's discard: ``n`` deals of the other hands, each
    candidate discard valued by playing the whole deal out with the policy."""
    rand = random.Random(mix64(seed, r, 0xD15CA2D))
    worlds = [sample(kn, rand, True) for _ in range(n)]
    rows: list[Row] = []
    for w in worlds:
        if time.monotonic() > deadline:
            return None
        rows.append(discard_values(kn, cands, [w])[0])
    return rows


# --- the driver -----------------------------------------------------------------------


class Search(Protocol):
    def task(self, r: int) -> tuple[Any, tuple[Any, ...]] | None: ...
    def fold(self, r: int, result: Any) -> None: ...
    def done(self) -> bool: ...


def drive(search: Search, limits: Limits, parallel: bool) -> int:
    """Run the search's rounds within ``limits``; returns the rounds completed."""
    deadline = limits.deadline
    max_rounds = limits.max_rounds
    ex = pool.executor() if parallel and pool.parallel_enabled() else None
    if ex is None:
        return _drive_here(search, deadline, max_rounds)
    return _drive_pool(search, deadline, max_rounds, ex)


def _drive_here(search: Search, deadline: float, max_rounds: int) -> int:
    r = 0
    while r < max_rounds and time.monotonic() < deadline:
        t = search.task(r)
        if t is None:
            break
        fn, args = t
        res = fn(*args, deadline)
        if res is None:
            break
        search.fold(r, res)
        r += 1
        if search.done():
            break
    return r


def _drive_pool(search: Search, deadline: float, max_rounds: int, ex: Any) -> int:
    width = min(pool.WORKERS, LAG)
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
                inflight[nxt] = ex.submit(fn, *args, deadline)
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
        return folded + _drive_rest(search, deadline, max_rounds, folded)
    return folded


def _drive_rest(search: Search, deadline: float, max_rounds: int, start: int) -> int:
    r = start
    while r < max_rounds and time.monotonic() < deadline and not search.done():
        t = search.task(r)
        if t is None:
            break
        fn, args = t
        res = fn(*args, deadline)
        if res is None:
            break
        search.fold(r, res)
        r += 1
    return r - start


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


def plan_exact(cfg: HardConfig, in_hand: int, budget_ms: float) -> bool:
    """Whether to solve exactly with ``in_hand`` cards: the budget must buy at least
    ``min_exact_worlds`` deals at the estimated cost."""
    if in_hand >= len(cfg.exact_round) or not cfg.exact_round[in_hand]:
        return False
    cost = cfg.exact_cost_ms[min(in_hand, len(cfg.exact_cost_ms) - 1)]
    return cost * cfg.min_exact_worlds <= budget_ms


class PlaySearch:
    """The anytime search for a card to play."""

    def __init__(
        self, view: SeatView, cfg: HardConfig, seed: int, plan_ms: float
    ) -> None:
        rules = view.rules
        self.cfg = cfg
        self.seed = seed
        self.kn = kn = known_of(view)
        self.history = view.history
        legal = view.legal_mask()
        tmask = 0
        for c in view.trick:
            tmask |= 1 << c
        self.classes = root_classes(rules, legal, view.unseen | view.hand | tmask)
        self.cands = [g[0] for g in self.classes]
        in_hand = view.hand.bit_count()
        self.exact = plan_exact(cfg, in_hand, plan_ms)
        remaining = max(1, sum(view.hand_sizes))
        self.round_worlds = max(2, cfg.round_cards // (len(self.cands) * remaining))
        self.exact_worlds = cfg.exact_round[min(in_hand, len(cfg.exact_round) - 1)] or 1
        self.inference = cfg.inference if view.history else 0.0
        self.lam = cfg.discard_lambda if kn.hidden_discard else 0.0
        self.lead = cfg.lead_rounds if self.exact else 0
        self.rows: tuple[list[tuple[float, Row]], list[tuple[float, Row]]] = ([], [])
        self.n_rounds = 0
        # The rules of thumb's card, should no round complete in time.
        hands = list(kn.allowed)
        hands[view.seat] = view.hand
        self.fallback = kernel(rules).policy(hands, view.seat, view.leader, view.trick, legal)

    def _is_exact(self, r: int) -> bool:
        return self.exact and r >= self.lead

    def task(self, r: int) -> tuple[Any, tuple[Any, ...]] | None:
        if len(self.cands) == 1:
            return None
        exact = self._is_exact(r)
        if exact:
            if (r - self.lead) * self.exact_worlds >= self.cfg.max_exact_worlds:
                return None
            n = self.exact_worlds
        else:
            if r * self.round_worlds >= self.cfg.max_worlds:
                return None
            n = self.round_worlds
        return play_round, (
            self.kn, self.history, self.cands, self.seed, r, n, exact,
            self.inference, self.cfg.oversample, self.lam,
        )

    def fold(self, r: int, result: tuple[list[float], list[Row]]) -> None:
        logw, rows = result
        self.rows[1 if self._is_exact(r) else 0].extend(zip(logw, rows, strict=True))
        self.n_rounds = r + 1

    def done(self) -> bool:
        return False

    def values(self) -> list[tuple[int, float]]:
        """Every legal card with its expected final points for the seat's side,
        best first (ties: ascending cards)."""
        playout, exact = self.rows
        # Exact values once enough deals are solved; playouts until then.
        use = exact if len(exact) >= self.cfg.min_exact_worlds or not playout else playout
        out: list[tuple[int, float]] = []
        if use:
            top = max(w for w, _r in use)
            ws = [math.exp(w - top) for w, _r in use]
            tot = sum(ws)
            for j, g in enumerate(self.classes):
                v = sum(w * row[j] for w, (_lw, row) in zip(ws, use, strict=True)) / tot
                out += [(c, v) for c in g]
        else:
            out = [(c, 1.0 if c == self.fallback else 0.0) for g in self.classes for c in g]
        out.sort(key=lambda t: (-t[1], t[0]))
        return out


# --- the discard ----------------------------------------------------------------------


class DiscardSearch:
    """The anytime search for the dealer's discard: the rules of thumb's best
    candidates, played out over more and more deals, the weaker half dropped
    every ``discard_halve_every`` rounds (where set)."""

    def __init__(
        self, view: SeatView, cfg: HardConfig, seed: int, cands: Sequence[int]
    ) -> None:
        self.cfg = cfg
        self.seed = seed
        self.kn = known_of(view)
        self.cands = list(cands)
        self.sums = [0.0] * len(self.cands)
        self.counts = [0] * len(self.cands)
        #: cumulative (sums, counts) after each folded round, for pruning with a lag
        self.snapshots: list[tuple[list[float], list[int]]] = []
        self._alive_at: dict[int, list[int]] = {}
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
        )

    def fold(self, r: int, rows: list[Row]) -> None:
        idx = self.alive(r)
        for row in rows:
            for i, v in zip(idx, row, strict=True):
                self.sums[i] += v
                self.counts[i] += 1
        self.snapshots.append((list(self.sums), list(self.counts)))
        self.n_rounds = r + 1

    def done(self) -> bool:
        return False

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
    plan_ms: float,
) -> tuple[list[tuple[int, float]], int]:
    """(every legal card valued, best first; rounds completed)."""
    s = PlaySearch(view, cfg, seed, plan_ms)
    n = drive(s, limits, parallel)
    return s.values(), n


def search_discard(
    view: SeatView, cfg: HardConfig, seed: int, limits: Limits, parallel: bool,
    cands: Sequence[int], tie: Sequence[float],
) -> tuple[list[tuple[int, float]], int]:
    assert view.phase == DISCARD
    s = DiscardSearch(view, cfg, seed, cands)
    n = drive(s, limits, parallel)
    return s.values(tie), n
