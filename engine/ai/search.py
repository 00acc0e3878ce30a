"""Perfect-information Monte Carlo: value each candidate in sampled deals.

``evaluate_worlds`` is the unit of work a worker process runs: for each given
deal of the hidden cards it values every candidate card either by playing the
deal out with the policy (early) or exactly with the solver (late).  Values are
the searching seat's side's final points for the deal (the ruleset's scoring:
Piedicavallo's card points 0..114, Scarto's count in threes 0..78).
"""

from __future__ import annotations

import math

from ..cards import NO_SUIT
from .fast import Policy, c_tables, kernel
from .solver import Solver
from .worlds import Known

World = tuple[list[int], int]  # hands, discard


def play_values(
    kn: Known, hands: list[int], discard: int, cands: list[int], policy: Policy | None = None
) -> list[int]:
    """Each candidate's value in one deal, the rest played out by ``policy``
    (the rules of thumb unless given)."""
    k = kernel(kn.rules)
    me = kn.side
    dpts = kn.rules.pack.mask_points(discard)
    finish = k.finish
    final = k.final_points
    policy = policy or k.policy
    out = []
    for c in cands:
        pts, won = finish(list(hands), kn.leader, list(kn.trick), list(kn.pts), list(kn.won), policy, c)
        out.append(final(pts, won, kn.dealer_side, dpts)[me])
    return out


def play_values_view(kn: Known, hands: list[int], discard: int, cands: list[int]) -> list[int]:
    """As :func:`play_values`, every seat playing from what it could know
    (``Kernel.finish_view``) instead of open-handed."""
    k = kernel(kn.rules)
    me = kn.side
    dpts = kn.rules.pack.mask_points(discard)
    finish = k.finish_view
    final = k.final_points
    voids = kn.voids
    out = []
    for c in cands:
        pts, won = finish(list(hands), kn.leader, list(kn.trick), list(kn.pts), list(kn.won), voids, c)
        out.append(final(pts, won, kn.dealer_side, dpts)[me])
    return out


def exact_values(
    kn: Known,
    hands: list[int],
    discard: int,
    cands: list[int],
    deadline: float = math.inf,
    node_limit: float = math.inf,
    nodes: list[int] | None = None,
) -> list[int]:
    """Each candidate's exact open-hand value in one deal (raises
    :class:`~engine.ai.solver.OutOfTime` past ``deadline`` or ``node_limit``
    nodes); the nodes searched are added to ``nodes[0]`` if given."""
    rules = kn.rules
    me = kn.side
    acc = kn.pts[me]
    if kn.dealer_side == me:
        acc += rules.pack.mask_points(discard) + rules.discard_adjust
    mine = kn.won[me]
    others = sum(kn.won) - mine
    cm = 0
    for c in cands:
        cm |= 1 << c
    solver = Solver(rules, me, deadline, node_limit)
    try:
        vals = solver.root_values(hands, kn.leader, kn.trick, acc, mine, others, cm)
    finally:
        if nodes is not None:
            nodes[0] += solver.nodes
    return [vals[c] for c in cands]


def play_values_tail(
    kn: Known,
    hands: list[int],
    discard: int,
    cands: list[int],
    tail: int,
    deadline: float = math.inf,
    node_limit: float = math.inf,
    nodes: list[int] | None = None,
    policy: Policy | None = None,
) -> list[int]:
    """As :func:`play_values`, but the policy plays only until the hands are down
    to ``tail`` cards; the rest is solved exactly, open-handed (the leader's best
    card for its side).  Raises :class:`~engine.ai.solver.OutOfTime` as
    :func:`exact_values` does; the solver's nodes are added to ``nodes[0]``."""
    rules = kn.rules
    k = kernel(rules)
    me = kn.side
    dpts = rules.pack.mask_points(discard)
    extra = dpts + rules.discard_adjust if kn.dealer_side == me else 0
    finish = k.finish
    final = k.final_points
    policy = policy or k.policy
    solver = Solver(rules, me, deadline, node_limit)
    out = []
    try:
        for c in cands:
            h = list(hands)
            at: list[int] = []
            pts, won = finish(h, kn.leader, list(kn.trick), list(kn.pts), list(kn.won), policy, c, tail, at)
            if not at:
                out.append(final(pts, won, kn.dealer_side, dpts)[me])
                continue
            mine = won[me]
            out.append(solver.lead_value(h, at[0], pts[me] + extra, mine, sum(won) - mine))
    finally:
        if nodes is not None:
            nodes[0] += solver.nodes
    return out


def evaluate_worlds(
    kn: Known, cands: list[int], worlds: list[World], exact: bool
) -> list[list[int]]:
    """Values (one list per world, one entry per candidate)."""
    f = exact_values if exact else play_values
    return [f(kn, h, d, cands) for h, d in worlds]


def policy_plays(
    kn: Known, history: tuple[tuple[int, tuple[int, ...]], ...], hands: list[int]
) -> list[tuple[int, bool]]:
    """The other seats' past plays as the policy would judge them, had the hidden
    cards been ``hands``: for each play with more than one legal card, how many
    legal cards there were and whether the play was the policy's card."""
    rules = kn.rules
    tables = c_tables(rules)
    if tables is not None:  # the loop below in C
        return tables.policy_plays(history, kn.leader, kn.trick, hands, kn.seat)  # type: ignore[no-any-return]
    n = rules.n_seats
    matto = rules.pack.matto
    suit = rules.pack.suit
    legal_mask = rules.legal_mask
    policy = kernel(rules).policy
    played_hands = list(hands)
    # Rebuild each seat's hand at the start of the play: current hand plus its plays.
    tricks = [*history, (kn.leader, kn.trick)]
    for leader, cards in tricks:
        for i, c in enumerate(cards):
            played_hands[(leader + i) % n] |= 1 << c
    out: list[tuple[int, bool]] = []
    me = kn.seat
    for leader, cards in tricks:
        trick: list[int] = []
        for i, c in enumerate(cards):
            s = (leader + i) % n
            h = played_hands[s]
            if s != me:
                led = NO_SUIT
                for x in trick:
                    if x != matto:
                        led = suit[x]
                        break
                legal = legal_mask(h, led)
                if legal & (legal - 1):
                    out.append((legal.bit_count(), policy(played_hands, s, leader, trick, legal) == c))
            played_hands[s] = h & ~(1 << c)
            trick.append(c)
    return out


def likelihood_matches(
    kn: Known, history: tuple[tuple[int, tuple[int, ...]], ...], hands: list[int]
) -> int:
    """How many of the other seats' past plays this deal agree with the policy, had
    the hidden cards been ``hands`` (the inference model: plays are mostly the
    policy's).  Plays with a single legal card do not count."""
    return sum(1 for _n, hit in policy_plays(kn, history, hands) if hit)


def likelihood_mix(
    kn: Known, history: tuple[tuple[int, tuple[int, ...]], ...], hands: list[int], eps: float
) -> float:
    """The log-likelihood of the other seats' past plays in this deal under a model
    player who plays the policy's card with probability ``1 - eps`` and any legal
    card at random otherwise: a play that agrees with the policy counts for more
    the more legal cards it was chosen from."""
    hit = [0.0] * 80
    miss = [0.0] * 80
    total = 0.0
    for n, ok in policy_plays(kn, history, hands):
        if ok:
            x = hit[n] or math.log(eps / n + 1 - eps)
            hit[n] = x
        else:
            x = miss[n] or math.log(eps / n)
            miss[n] = x
        total += x
    return total


def discard_values(kn: Known, discards: list[int], worlds: list[World]) -> list[list[int]]:
    """The dealer's value of each candidate discard in each deal of the other hands,
    the whole deal played out by the policy."""
    rules = kn.rules
    k = kernel(rules)
    seat = kn.seat
    me = kn.side
    hand = kn.hands_known[seat]
    mp = rules.pack.mask_points
    zeros = [0] * rules.n_sides
    out = []
    for hands, _d in worlds:
        row = []
        for cards in discards:
            h = list(hands)
            h[seat] = hand & ~cards
            pts, won = k.finish(h, kn.leader, [], list(zeros), list(zeros))
            row.append(k.final_points(pts, won, kn.dealer_side, mp(cards))[me])
        out.append(row)
    return out
