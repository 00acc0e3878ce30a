"""Perfect-information Monte Carlo: value each candidate in sampled deals.

``evaluate_worlds`` is the unit of work a worker process runs: for each given
deal of the hidden cards it values every candidate card either by playing the
deal out with the policy (early) or exactly with the solver (late).  Values are
the searching seat's team's final card points (0..114).
"""

from __future__ import annotations

from ..cards import MATTO, SUIT, mask_points
from ..rules import legal_mask
from .fast import TOTAL, final_points, finish, policy
from .solver import Solver
from .worlds import Known

World = tuple[list[int], int]  # hands, discard


def play_values(kn: Known, hands: list[int], discard: int, cands: list[int]) -> list[int]:
    """Each candidate's value in one deal, the rest played out by the policy."""
    team = kn.seat & 1
    dpts = mask_points(discard)
    out = []
    for c in cands:
        p0, p1, w0, w1 = finish(
            list(hands), kn.leader, list(kn.trick), kn.p0, kn.p1, kn.w0, kn.w1, policy, c
        )
        v = final_points(p0, p1, w0, w1, kn.dealer_team, dpts)
        out.append(TOTAL - v if team else v)
    return out


def exact_values(kn: Known, hands: list[int], discard: int, cands: list[int]) -> list[int]:
    """Each candidate's exact open-hand value in one deal."""
    team = kn.seat & 1
    acc0 = kn.p0 + (mask_points(discard) if kn.dealer_team == 0 else 0)
    cm = 0
    for c in cands:
        cm |= 1 << c
    vals = Solver().root_values(hands, kn.leader, kn.trick, acc0, kn.w0, kn.w1, cm)
    return [TOTAL - vals[c] if team else vals[c] for c in cands]


def evaluate_worlds(
    kn: Known, cands: list[int], worlds: list[World], exact: bool
) -> list[list[int]]:
    """Values (one list per world, one entry per candidate)."""
    f = exact_values if exact else play_values
    return [f(kn, h, d, cands) for h, d in worlds]


def likelihood_matches(
    kn: Known, history: tuple[tuple[int, tuple[int, ...]], ...], hands: list[int]
) -> int:
    """How many of the other seats' past plays this deal agree with the policy, had
    the hidden cards been ``hands`` (the inference model: plays are mostly the
    policy's).  Plays with a single legal card do not count."""
    played_hands = list(hands)
    # Rebuild each seat's hand at the start of the play: current hand plus its plays.
    tricks = [*history, (kn.leader, kn.trick)]
    for leader, cards in tricks:
        for i, c in enumerate(cards):
            played_hands[(leader + i) & 3] |= 1 << c
    matches = 0
    me = kn.seat
    for leader, cards in tricks:
        trick: list[int] = []
        for i, c in enumerate(cards):
            s = (leader + i) & 3
            h = played_hands[s]
            if s != me:
                led = -1
                for x in trick:
                    if x != MATTO:
                        led = SUIT[x]
                        break
                legal = legal_mask(h, led)
                if legal & (legal - 1) and policy(played_hands, s, leader, trick, legal) == c:
                    matches += 1
            played_hands[s] = h & ~(1 << c)
            trick.append(c)
    return matches


def discard_values(kn: Known, pairs: list[int], worlds: list[World]) -> list[list[int]]:
    """The dealer's value of each candidate discard in each deal of the other hands,
    the whole deal played out by the policy."""
    seat = kn.seat
    team = seat & 1
    hand = kn.hands_known[seat]
    out = []
    for hands, _d in worlds:
        row = []
        for pair in pairs:
            h = list(hands)
            h[seat] = hand & ~pair
            p0, p1, w0, w1 = finish(h, kn.leader, [], 0, 0, 0, 0)
            v = final_points(p0, p1, w0, w1, kn.dealer_team, mask_points(pair))
            row.append(TOTAL - v if team else v)
        out.append(row)
    return out
