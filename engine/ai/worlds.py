"""Deals of the hidden cards consistent with what one seat knows.

The unseen cards go to the other seats, each getting exactly as many as it holds,
never a card of a suit it has shown void in (R7/S5 inference, ``SeatView.voids``).
For a seat that did not deal the discard is one more hidden hand, shaped by the
game's discard rule (``Ruleset.hidden_discard``: Piedicavallo's announced trump
count and R6, Scarto's S4).
"""

from __future__ import annotations

import random
from typing import NamedTuple

from ..cards import mask_cards
from ..ruleset import Ruleset
from ..state import PLAY
from ..view import SeatView
from . import native


class Known(NamedTuple):
    """What a seat knows, reduced to masks (built once per decision)."""

    seat: int
    leader: int
    trick: tuple[int, ...]
    hands_known: tuple[int, ...]  # own hand, 0 for others
    allowed: tuple[int, ...]  # cards each other seat may hold
    need: tuple[int, ...]  # cards each other seat holds
    unseen: int
    hidden_discard: bool
    discard_parts: tuple[tuple[int, int], ...]  # (allowed, count) of the hidden discard
    discard: int  # known discard (dealer) or 0
    dealer_side: int
    dealer: int
    dealer_played: int  # cards the dealer has played this deal
    voids: tuple[int, ...]  # per seat, the suits (as card masks) it has shown void in
    pts: tuple[int, ...]  # each side's points so far (Matto and trick terms included)
    won: tuple[int, ...]  # tricks taken by each side
    rules: Ruleset

    @property
    def side(self) -> int:
        return self.rules.side[self.seat]


def known_of(view: SeatView) -> Known:
    rules = view.rules
    n = rules.n_seats
    seat = view.seat
    unseen = view.unseen
    shown = view.voids()
    voids = list(shown)
    hidden = view.phase == PLAY and seat != view.dealer
    parts: list[tuple[int, int]] = []
    if hidden:
        d = view.dealer
        parts, dealer_void = rules.hidden_discard(
            unseen, view.discard_trumps, view.played[d], voids[d]
        )
        voids[d] |= dealer_void
    allowed = [0] * n
    need = [0] * n
    for s in range(n):
        if s != seat:
            allowed[s] = unseen & ~voids[s]
            need[s] = view.hand_sizes[s]
    hk = [0] * n
    hk[seat] = view.hand
    return Known(
        seat=seat,
        leader=view.leader,
        trick=tuple(view.trick),
        hands_known=tuple(hk),
        allowed=tuple(allowed),
        need=tuple(need),
        unseen=unseen,
        hidden_discard=hidden,
        discard_parts=tuple(parts),
        discard=view.discard,
        dealer_side=rules.side[view.dealer],
        dealer=view.dealer,
        dealer_played=view.played[view.dealer],
        voids=shown,
        pts=tuple(rules.side_points(p, w) for p, w in zip(view.piles, view.tricks_won, strict=True)),
        won=tuple(view.tricks_won),
        rules=rules,
    )


def _holders(kn: Known) -> list[tuple[int, int, int]]:
    """(allowed mask, cards to receive, target) per hidden holder; target is a
    seat, or ``n_seats`` for (a part of) the discard."""
    n = kn.rules.n_seats
    out = [(kn.allowed[s], kn.need[s], s) for s in range(n) if s != kn.seat]
    if kn.hidden_discard:
        out += [(allowed & kn.unseen, k, n) for allowed, k in kn.discard_parts]
    return out


def sample(kn: Known, rand: random.Random, strict: bool = False) -> tuple[list[int], int]:
    """One deal of the hidden cards: the hands and the discard (the known
    discard for the dealer).  ``strict`` also checks a hidden discard against
    the whole discard rule (:func:`_discard_fits`; the hard level's deals), where
    the medium level trusts ``Ruleset.hidden_discard`` (its pinned games depend on
    drawing exactly these deals)."""
    holders = _holders(kn)
    check = strict and kn.hidden_discard
    for attempt in range(40):
        got = _deal(kn, holders, rand) if attempt < 8 else _deal_checked(kn, holders, rand)
        if got is not None and (not check or _discard_fits(kn, got)):
            return got
    # Inference went wrong somewhere (it should not): keep only the hand sizes.
    n = kn.rules.n_seats
    relaxed = kn._replace(allowed=tuple(kn.unseen if s != kn.seat else 0 for s in range(n)))
    got = _deal_checked(relaxed, _holders(relaxed), rand)
    if got is None:
        raise ValueError("no deal of the hidden cards fits what this seat has seen")
    return got


def _discard_fits(kn: Known, got: tuple[list[int], int]) -> bool:
    """Whether the hidden discard of a deal obeys the discard rule, judged on the
    dealer's whole hand at the time (what it holds, has played, and laid aside):
    the parts of ``Ruleset.hidden_discard`` cannot say everything (Scarto's trump
    1 only from a dealer with no other trump and no Matto)."""
    hands, discard = got
    whole = hands[kn.dealer] | kn.dealer_played | discard
    return kn.rules.discard_refusal(whole, discard) is None


def _deal(
    kn: Known, holders: list[tuple[int, int, int]], rand: random.Random
) -> tuple[list[int], int] | None:
    """Capacity-weighted random holders, the most constrained cards first; None when
    a random choice painted itself into a corner."""
    allowed = [h[0] for h in holders]
    cap = [h[1] for h in holders]
    nh = len(holders)
    n = kn.rules.n_seats
    out = list(kn.hands_known) + [kn.discard]
    c_deal = native.deal_fn() if type(rand) is random.Random else None
    if c_deal is not None:  # what follows in C: the same calls of rand, the same deal
        got = c_deal(allowed, cap, kn.unseen, rand.getrandbits, rand.random)
        if got is None:
            return None
        for (_a, _k, holder), m in zip(holders, got, strict=True):
            out[holder] |= m
        return out[:n], out[n]
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
    return out[:n], out[n]


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
    n = kn.rules.n_seats
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
    return out[:n], out[n]
