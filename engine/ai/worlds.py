"""Deals of the hidden cards consistent with what one seat knows.

The unseen cards go to the other seats, each getting exactly as many as it holds,
never a card of a suit it has shown void in (R7 inference, ``SeatView.voids``).
For a non-dealer the two discarded cards are a fifth hidden hand: no King, trump
1, trump 21 or Matto, and exactly the announced number of trumps; a trump in the
discard also tells what the dealer kept (R6: no trump left, or no non-King suit
card left).
"""

from __future__ import annotations

import random
from typing import NamedTuple

from ..cards import (
    NEVER_DISCARD_MASK,
    NONKING_SUIT_MASK,
    TRUMP_MASK,
    mask_cards,
    mask_points,
)
from ..rules import TEAM
from ..state import PLAY
from ..view import SeatView


class Known(NamedTuple):
    """What a seat knows, reduced to masks (built once per decision)."""

    seat: int
    leader: int
    trick: tuple[int, ...]
    hands_known: tuple[int, int, int, int]  # own hand, 0 for others
    allowed: tuple[int, int, int, int]  # cards each other seat may hold
    need: tuple[int, int, int, int]  # cards each other seat holds
    unseen: int
    hidden_discard: bool
    discard_trumps: int
    discard: int  # known discard (dealer) or 0
    dealer_team: int
    p0: int  # pile points so far (Matto included when played)
    p1: int
    w0: int
    w1: int


def known_of(view: SeatView) -> Known:
    seat = view.seat
    unseen = view.unseen
    voids = list(view.voids())
    hidden = view.phase == PLAY and seat != view.dealer
    if hidden and view.discard_trumps > 0:
        # R6: a trump was discarded, so the dealer kept no trump (b), or no
        # non-King suit card (a).  (a) is very rare; pick it only when forced.
        d = view.dealer
        if view.played[d] & TRUMP_MASK:
            voids[d] |= NONKING_SUIT_MASK
        else:
            voids[d] |= TRUMP_MASK
    allowed = [0, 0, 0, 0]
    need = [0, 0, 0, 0]
    for s in range(4):
        if s != seat:
            allowed[s] = unseen & ~voids[s]
            need[s] = view.hand_sizes[s]
    hk = [0, 0, 0, 0]
    hk[seat] = view.hand
    return Known(
        seat=seat,
        leader=view.leader,
        trick=tuple(view.trick),
        hands_known=(hk[0], hk[1], hk[2], hk[3]),
        allowed=(allowed[0], allowed[1], allowed[2], allowed[3]),
        need=(need[0], need[1], need[2], need[3]),
        unseen=unseen,
        hidden_discard=hidden,
        discard_trumps=max(view.discard_trumps, 0),
        discard=view.discard,
        dealer_team=TEAM[view.dealer],
        p0=mask_points(view.piles[0]),
        p1=mask_points(view.piles[1]),
        w0=view.tricks_won[0],
        w1=view.tricks_won[1],
    )


def _holders(kn: Known) -> list[tuple[int, int, int]]:
    """(allowed mask, cards to receive, target) per hidden holder; target 0-3 is a
    seat, 4 the discard (split into its trumps and its suit cards)."""
    out = [(kn.allowed[s], kn.need[s], s) for s in range(4) if s != kn.seat]
    if kn.hidden_discard:
        k = kn.discard_trumps
        ok = kn.unseen & ~NEVER_DISCARD_MASK
        if k:
            out.append((ok & TRUMP_MASK, k, 4))
        if k < 2:
            out.append((ok & NONKING_SUIT_MASK, 2 - k, 4))
    return out


def sample(kn: Known, rand: random.Random) -> tuple[list[int], int]:
    """One deal of the hidden cards: the four hands and the discard (the known
    discard for the dealer)."""
    holders = _holders(kn)
    for attempt in range(40):
        got = _deal(kn, holders, rand) if attempt < 8 else _deal_checked(kn, holders, rand)
        if got is not None:
            return got
    # Inference went wrong somewhere (it should not): keep only the hand sizes.
    u = [kn.unseen if s != kn.seat else 0 for s in range(4)]
    relaxed = kn._replace(allowed=(u[0], u[1], u[2], u[3]))
    got = _deal_checked(relaxed, _holders(relaxed), rand)
    if got is None:
        raise ValueError("no deal of the hidden cards fits what this seat has seen")
    return got


def _deal(
    kn: Known, holders: list[tuple[int, int, int]], rand: random.Random
) -> tuple[list[int], int] | None:
    """Capacity-weighted random holders, the most constrained cards first; None when
    a random choice painted itself into a corner."""
    allowed = [h[0] for h in holders]
    cap = [h[1] for h in holders]
    nh = len(holders)
    out = list(kn.hands_known) + [kn.discard]
    cards = mask_cards(kn.unseen)
    rand.shuffle(cards)
    cards.sort(key=lambda c: sum(a >> c & 1 for a in allowed))
    rnd = rand.random
    for c in cards:
        total = 0
        for i in range(nh):
            if allowed[i] >> c & 1:
                total += cap[i]
        if total == 0:
            return None
        r = rnd() * total
        pick = -1
        for i in range(nh):
            if allowed[i] >> c & 1 and cap[i]:
                pick = i
                r -= cap[i]
                if r < 0:
                    break
        out[holders[pick][2]] |= 1 << c
        cap[pick] -= 1
    return out[:4], out[4]


def _feasible(counts: list[int], cap: list[int]) -> bool:
    """Hall's condition: the cards whose holders all lie in S fit in S's room, for
    every set S of holders (``counts`` by holder-set bitmask, ``cap`` by holder)."""
    nt = len(counts)
    for sset in range(1, 1 << len(cap)):
        room = 0
        for i, c in enumerate(cap):
            if sset >> i & 1:
                room += c
        inside = 0
        for t in range(1, nt):
            if counts[t] and not t & ~sset:
                inside += counts[t]
        if inside > room:
            return False
    return True


def _deal_checked(
    kn: Known, holders: list[tuple[int, int, int]], rand: random.Random
) -> tuple[list[int], int] | None:
    """Distribute the unseen cards keeping the rest always distributable (slower,
    sure to succeed when any deal exists)."""
    cap = [h[1] for h in holders]
    nh = len(holders)
    cards = mask_cards(kn.unseen)
    if sum(cap) != len(cards):
        return None
    rand.shuffle(cards)
    types = []
    counts = [0] * (1 << nh)
    for c in cards:
        t = 0
        for i in range(nh):
            if holders[i][0] >> c & 1:
                t |= 1 << i
        types.append(t)
        counts[t] += 1
    if counts[0] or not _feasible(counts, cap):
        return None
    out = list(kn.hands_known) + [kn.discard]
    for c, t in zip(cards, types, strict=True):
        counts[t] -= 1
        opts = [i for i in range(nh) if t >> i & 1 and cap[i]]
        opts.sort(key=lambda i: -cap[i] * rand.random())
        for i in opts:
            cap[i] -= 1
            if _feasible(counts, cap):
                out[holders[i][2]] |= 1 << c
                break
            cap[i] += 1
        else:
            return None
    return out[:4], out[4]
