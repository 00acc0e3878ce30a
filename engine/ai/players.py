"""The AI levels and the hint.

* ``easy``: the partner-aware rules of thumb of :mod:`engine.ai.fast`, played from
  what the seat may know (cards unseen, voids shown), with human-like slips.
* ``medium``: card counting and void inference through sampled deals of the
  hidden cards, each candidate played out by the policy; exact open-hand solving
  of the last four tricks.
* ``hard``: the anytime search of :mod:`engine.ai.anytime`: rounds of sampled
  deals, weighted by how well they explain the other seats' plays (inference),
  solved exactly as early in the deal as the budget allows, the discard chosen
  by playing out the rules of thumb's best candidates; on both CPU cores where
  the pool is on.  Its budget is a deadline, or fixed work (``rounds``).

Easy and medium decisions, and hard ones in fixed-work mode, are pure functions
of the view and the decision seed.  A hard decision against a deadline is a pure
function of those and of the number of rounds it completed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..cards import mask_cards
from ..player_api import decision_seed
from ..ruleset import Ruleset
from ..state import DISCARD, PLAY, Command, Discard, Play
from ..view import SeatView
from . import pool
from .anytime import HardConfig, Limits, config_for, search_discard, search_play
from .fast import kernel
from .natural import LAST_MARGIN, TIE_MARGIN, TIE_Z, natural_first, tie_width, tied_indices
from .search import World, discard_values, evaluate_worlds, likelihood_matches
from .worlds import Known, known_of, sample

# --- the discard's rules of thumb ----------------------------------------------------


def discard_score(rules: Ruleset, hand: int, cards: int) -> int:
    """Rules of thumb for the dealer's discard: bank points that could be lost
    (Queens, Knights, Jacks; Kings may not be discarded), void a short suit when
    holding trumps to ruff it, keep trumps."""
    p = rules.pack
    rest = hand & ~cards
    v = 10 * p.mask_points(cards)
    has_trumps = bool(rest & p.trump_mask)
    for s in range(4):
        sm = p.suit_mask[s]
        if hand & sm and not rest & sm and has_trumps:
            v += 14
        elif (rest & sm).bit_count() == 1 and has_trumps:
            v += 3
    v -= 25 * (cards & p.trump_mask).bit_count()
    return v


def ranked_discards(rules: Ruleset, hand: int) -> list[int]:
    """Legal discards, best by the rules of thumb first (ties: ascending cards)."""
    options = rules.legal_discards(hand)
    return sorted(options, key=lambda d: -discard_score(rules, hand, d))


def hard_discard_candidates(rules: Ruleset, hand: int, k: int) -> list[tuple[int, int]]:
    """The hard level's candidate discards with their rules-of-thumb scores, best
    first: the rules of thumb, then the lower cards where points are equal, and
    one discard per shape (the suits and points of its cards), so that the few
    candidates searched differ in what they bank and which suits they void
    rather than in which of two small cards of a suit they lay aside (Scarto
    has thousands of legal triples, most of them such near twins)."""
    p = rules.pack
    rank = p.rank
    suit = p.suit
    points = p.points
    best: dict[tuple[tuple[int, int], ...], tuple[int, int, int]] = {}
    for d in rules.legal_discards(hand):
        cards = mask_cards(d)
        shape = tuple(sorted((suit[c], points[c]) for c in cards))
        v = discard_score(rules, hand, d)
        low = -sum(rank[c] for c in cards)
        got = best.get(shape)
        if got is None or (v, low) > (got[0], got[1]):
            best[shape] = (v, low, d)
    ranked = sorted(best.values(), key=lambda t: (-t[0], -t[1], mask_cards(t[2])))
    return [(d, v) for v, _low, d in ranked[:k]]


def _discard_cmd(seat: int, cards: int) -> Discard:
    return Discard(seat, tuple(mask_cards(cards)))


def _pick(legal: Sequence[Command], cmd: Command) -> Command:
    """``cmd``, checked against ``legal``."""
    if cmd in legal:
        return cmd
    raise AssertionError(f"AI chose {cmd}, which is not legal")  # pragma: no cover


# --- easy ------------------------------------------------------------------------------


def possible_hands(view: SeatView) -> list[int]:
    """Own hand exactly; for the others, every unseen card they may still hold."""
    kn = known_of(view)
    hands = list(kn.allowed)
    hands[view.seat] = view.hand
    return hands


def slip_choices(rules: Ruleset, legal: Sequence[Command]) -> Sequence[Command]:
    """The cards a slip may play: any legal card but one worth 5 points while a
    cheaper card other than the Matto is legal (a slip plays a wrong small card;
    it does not throw a King or trump 1 away where anyone can see it)."""
    points = rules.pack.points
    matto = rules.pack.matto
    cards = [c.card for c in legal if isinstance(c, Play)]
    if len(cards) < len(legal) or not any(c != matto and points[c] < 5 for c in cards):
        return legal
    return [c for c in legal if isinstance(c, Play) and points[c.card] < 5]


class EasyPlayer:
    """Sound rules of thumb, with a slip now and then."""

    name = "easy"

    def __init__(self, slip: float = 0.12) -> None:
        self.slip = slip

    def choose(self, view: SeatView, legal: Sequence[Command], event_index: int) -> Command:
        rand = random.Random(decision_seed(view, event_index))
        if len(legal) == 1:
            return legal[0]
        if view.phase == DISCARD:
            ranked = ranked_discards(view.rules, view.hand)
            pick = ranked[1] if len(ranked) > 1 and rand.random() < self.slip else ranked[0]
            return _pick(legal, _discard_cmd(view.seat, pick))
        if rand.random() < self.slip:
            choices = slip_choices(view.rules, legal)
            return choices[rand.randrange(len(choices))]
        card = kernel(view.rules).policy(
            possible_hands(view), view.seat, view.leader, view.trick, view.legal_mask()
        )
        return _pick(legal, Play(view.seat, card))


# --- sampled search (medium, hard, hint) ------------------------------------------------


@dataclass(frozen=True)
class Budget:
    """Fixed work per decision (set from a time budget by calibrated constants)."""

    #: policy-played cards per decision in playouts (worlds x candidates x cards)
    playout_cards: int
    min_worlds: int
    max_worlds: int
    #: solve exactly once the hand holds at most this many cards
    exact_cards: int
    #: worlds solved exactly, by cards in hand (index = cards in hand)
    exact_worlds: tuple[int, ...]
    discard_pairs: int
    discard_worlds: int
    #: weight deals by the policy's agreement with the seen plays
    inference: float
    #: deals sampled per deal kept when inference is on
    oversample: int = 1
    #: the natural-card tie-break (:mod:`engine.ai.natural`): among the cards
    #: within ``tie_z`` standard errors plus ``tie_margin`` points of the best,
    #: play the rules of thumb's card
    natural: bool = True
    tie_z: float = TIE_Z
    #: before the last card of a trick (see ``HardConfig.early_z``): exact ties
    #: only (duplicate screens, 100 deal pairs from seed 13: against easy +8.20
    #: with 0, +6.66 with 2)
    early_z: float = 0.0
    tie_margin: float = TIE_MARGIN
    last_margin: float = LAST_MARGIN


MEDIUM = Budget(
    playout_cards=18000,
    min_worlds=6,
    max_worlds=60,
    exact_cards=4,
    exact_worlds=(0, 1, 24, 16, 10),
    discard_pairs=4,
    discard_worlds=6,
    inference=0.0,
)

#: The hard level's default budget (ms a decision).
HARD_MS = 1000
#: The hint values at most this many discards: every one of Piedicavallo's (C(17, 2)),
#: the best by the rules of thumb of Scarto's thousands.
HINT_DISCARDS = 136
#: How much likelier a hidden discard is per card point it holds (log scale); the
#: medium level does not use it.
DISCARD_LAMBDA = 0.35
#: Fixed-work rounds that stand for a budget where no clock may be read
#: (``simulate``): about what one core completes in that time at the median.
ROUND_MS = 20


def rounds_for_ms(ms: int) -> int:
    """The fixed-work equivalent of a budget of ``ms`` (see :data:`ROUND_MS`)."""
    return max(2, ms // ROUND_MS)


def _worlds(kn: Known, rand: random.Random, n: int) -> list[World]:
    return [sample(kn, rand) for _ in range(n)]


def _split(items: list[World], parts: int) -> list[list[World]]:
    return [items[i::parts] for i in range(parts)]


def _merge(parts: list[list[list[int]]], n: int) -> list[list[int]]:
    """Undo :func:`_split` on per-world results."""
    out: list[list[int]] = [[] for _ in range(n)]
    k = len(parts)
    for j, rows in enumerate(parts):
        for i, row in enumerate(rows):
            out[i * k + j] = row
    return out


def card_values(
    view: SeatView, budget: Budget, seed: int, parallel: bool
) -> list[tuple[int, float]]:
    """Every legal card with its expected final card points for the seat's team,
    best first."""
    return card_search(view, budget, seed, parallel)[0]


def card_search(
    view: SeatView, budget: Budget, seed: int, parallel: bool
) -> tuple[list[tuple[int, float]], list[int]]:
    """As :func:`card_values`, and the cards tied with the best within the
    search's noise (:func:`~engine.ai.natural.tied_indices`; none with a single
    legal card)."""
    rand = random.Random(seed)
    cands = mask_cards(view.legal_mask())
    if len(cands) == 1:
        return [(cands[0], 0.0)], []
    kn = known_of(view)
    in_hand = view.hand.bit_count()
    exact = in_hand <= budget.exact_cards
    if exact:
        n = budget.exact_worlds[min(in_hand, len(budget.exact_worlds) - 1)]
    else:
        remaining = sum(view.hand_sizes)
        n = budget.playout_cards // max(1, len(cands) * remaining)
        n = max(budget.min_worlds, min(budget.max_worlds, n))
    weights: list[float]
    if budget.inference > 0 and view.history and budget.oversample > 1:
        pool_w = _worlds(kn, rand, n * budget.oversample)
        scored = [(likelihood_matches(kn, view.history, h), i) for i, (h, _d) in enumerate(pool_w)]
        scored.sort(key=lambda t: (-t[0], t[1]))
        keep = scored[:n]
        worlds = [pool_w[i] for _m, i in keep]
        top = keep[0][0]
        weights = [budget.inference ** (m - top) for m, _i in keep]
    else:
        worlds = _worlds(kn, rand, n)
        weights = [1.0] * n
    mp = view.rules.pack.mask_points
    n_discard = view.rules.discard_cards
    if budget.inference > 0 and kn.hidden_discard:
        # Dealers bank points in the discard (Queens, Knights): likelier deals.
        weights = [
            w * math.exp(DISCARD_LAMBDA * (mp(d) - n_discard))
            for w, (_h, d) in zip(weights, worlds, strict=True)
        ]
    k = pool.WORKERS if parallel and len(worlds) > 1 else 1
    if k > 1 and pool.parallel_enabled():
        parts = pool.map_chunks(
            evaluate_worlds, [(kn, cands, ch, exact) for ch in _split(worlds, k)]
        )
        rows = _merge(parts, len(worlds))
    else:
        rows = evaluate_worlds(kn, cands, worlds, exact)
    tot_w = sum(weights)
    vals = []
    for j, c in enumerate(cands):
        s = 0.0
        for w, row in zip(weights, rows, strict=True):
            s += w * row[j]
        vals.append((c, s / tot_w))
    vals.sort(key=lambda t: -t[1])  # stable: ties keep the ascending card order
    z, margin = tie_width(view, budget.early_z, budget.tie_margin, budget.tie_z, budget.last_margin)
    idx = tied_indices(weights, rows, range(len(cands)), z, margin)
    return vals, [cands[i] for i in idx]


def discard_values_ranked(
    view: SeatView,
    budget: Budget,
    seed: int,
    parallel: bool,
    n_pairs: int | None = None,
    include: int = 0,
) -> list[tuple[int, float]]:
    """Candidate discards (the rules of thumb's best ``n_pairs``, and ``include``
    if given) with their expected final points for the dealer's side, best first,
    all valued on the same sampled deals."""
    rand = random.Random(seed)
    ranked = ranked_discards(view.rules, view.hand)
    pairs = ranked[: n_pairs if n_pairs is not None else budget.discard_pairs]
    if include and include not in pairs:
        pairs.append(include)
    if len(pairs) == 1:
        return [(pairs[0], 0.0)]
    kn = known_of(view)
    worlds = _worlds(kn, rand, budget.discard_worlds)
    k = pool.WORKERS if parallel and len(worlds) > 1 else 1
    if k > 1 and pool.parallel_enabled():
        parts = pool.map_chunks(discard_values, [(kn, pairs, ch) for ch in _split(worlds, k)])
        rows = _merge(parts, len(worlds))
    else:
        rows = discard_values(kn, pairs, worlds)
    vals = []
    for j, p in enumerate(pairs):
        tie = discard_score(view.rules, view.hand, p) * 1e-4
        vals.append((p, sum(r[j] for r in rows) / len(rows) + tie))
    vals.sort(key=lambda t: -t[1])
    return vals


class SearchPlayer:
    """Sampled deals searched open-handed (medium and hard differ by budget)."""

    def __init__(self, name: str, budget: Budget, parallel: bool = False) -> None:
        self.name = name
        self.budget = budget
        self.parallel = parallel

    def choose(self, view: SeatView, legal: Sequence[Command], event_index: int) -> Command:
        if len(legal) == 1:
            return legal[0]
        seed = decision_seed(view, event_index)
        if view.phase == DISCARD:
            pair = discard_values_ranked(view, self.budget, seed, self.parallel)[0][0]
            return _pick(legal, _discard_cmd(view.seat, pair))
        vals, ties = card_search(view, self.budget, seed, self.parallel)
        if self.budget.natural:
            vals = natural_first(view, vals, ties)
        return _pick(legal, Play(view.seat, vals[0][0]))


class MediumPlayer(SearchPlayer):
    def __init__(self) -> None:
        super().__init__("medium", MEDIUM, parallel=False)


class HardPlayer:
    """The anytime search (:mod:`engine.ai.anytime`).

    ``budget_ms`` is a deadline counted from the moment ``choose`` is called;
    ``rounds`` asks for fixed work instead (exactly that many rounds, no clock:
    deterministic), and the budget then only plans how early to solve exactly;
    ``work_ms`` (for tuning) is a deadline on counted work instead of the clock
    (deterministic too).  ``parallel`` runs the rounds on the pool's two workers."""

    name = "hard"

    def __init__(
        self,
        budget_ms: int = HARD_MS,
        parallel: bool = True,
        rounds: int | None = None,
        config: HardConfig | None = None,
        work_ms: float | None = None,
        overrides: dict[str, Any] | None = None,
        oracle: bool = False,
    ) -> None:
        self.budget_ms = budget_ms
        self.parallel = parallel
        self.rounds = rounds
        self.config = config
        self.work_ms = work_ms
        #: settings changed from the game's ``HardConfig`` (tuning matches)
        self.overrides = dict(overrides or {})
        #: test-only oracle (tuning matches): the match sets ``truth``, which
        #: returns the true (hands, discard), and the search samples only the
        #: true deal (sees all hands)
        self.oracle = oracle
        self.truth: Callable[[], tuple[Sequence[int], int]] | None = None
        #: rounds completed by the last decision (for tests and benchmarks)
        self.last_rounds = 0

    def limits(self, start: float) -> Limits:
        if self.rounds is not None or self.work_ms is not None:
            return Limits(None, self.rounds, start, self.work_ms)
        return Limits(self.budget_ms, None, start)

    def choose(self, view: SeatView, legal: Sequence[Command], event_index: int) -> Command:
        start = time.monotonic()
        if len(legal) == 1:
            return legal[0]
        seed = decision_seed(view, event_index)
        cfg = self.config or config_for(view.rules)
        if self.overrides:
            cfg = replace(cfg, **self.overrides)
        truth = self.truth() if self.truth is not None else None
        limits = self.limits(start)
        if view.phase == DISCARD:
            vals, self.last_rounds = hard_discards(
                view, cfg, seed, limits, self.parallel, truth=truth
            )
            return _pick(legal, _discard_cmd(view.seat, vals[0][0]))
        plan = self.work_ms if self.work_ms is not None else self.budget_ms
        vals, self.last_rounds = search_play(view, cfg, seed, limits, self.parallel, plan, truth)
        return _pick(legal, Play(view.seat, vals[0][0]))


def hard_discards(
    view: SeatView, cfg: HardConfig, seed: int, limits: Limits, parallel: bool,
    n_cands: int | None = None, truth: tuple[Sequence[int], int] | None = None,
) -> tuple[list[tuple[int, float]], int]:
    """The hard search's discards with their values, best first (and the rounds):
    one per shape (:func:`hard_discard_candidates`), or with ``n_cands`` (the
    hint) the rules of thumb's best ``n_cands`` of all."""
    rules = view.rules
    if n_cands is None:
        got = hard_discard_candidates(rules, view.hand, cfg.discard_cands)
        cands = [d for d, _v in got]
        tie = [float(v) for _d, v in got]
    else:
        cands = ranked_discards(rules, view.hand)[:n_cands]
        tie = [float(discard_score(rules, view.hand, d)) for d in cands]
    return search_discard(view, cfg, seed, limits, parallel, cands, tie, truth)


def hint(
    view: SeatView, budget_ms: int = HARD_MS, event_index: int = 0, rounds: int | None = None
) -> list[tuple[Command, float]]:
    """For a seat to act: every legal command with the hard search's expected
    points for the seat's side at the end of the deal, best first (the first is
    the natural card among those tied within the search's noise, as the hard
    level plays it: :mod:`engine.ai.natural`).  A deadline of
    ``budget_ms`` (from this call), or ``rounds`` of fixed work."""
    start = time.monotonic()
    if view.turn != view.seat or view.phase not in (PLAY, DISCARD):
        return []
    cfg = config_for(view.rules)
    limits = Limits(None, rounds, start) if rounds is not None else Limits(budget_ms, None, start)
    seed = decision_seed(view, event_index)
    if view.phase == DISCARD:
        n = min(len(view.rules.legal_discards(view.hand)), HINT_DISCARDS)
        vals, _r = hard_discards(view, cfg, seed, limits, True, n_cands=n)
        return [(_discard_cmd(view.seat, p), v) for p, v in vals]
    vals, _r = search_play(view, cfg, seed, limits, True, budget_ms)
    return [(Play(view.seat, c), v) for c, v in vals]
