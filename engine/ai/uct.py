"""A tree search for games where each plays for themselves: multi-player UCT
over sampled deals (information-set Monte Carlo tree search).

The flat search of :mod:`engine.ai.anytime` values each card the seat may play
by playing the deal out with the rules of thumb for every seat: it improves on
the rules of thumb by one card, its own.  Here the cards after it are searched
too: one tree of the plays from the decision, shared by every sampled deal of
the hidden cards, grown an iteration at a time.  An iteration draws one of the
round's deals (by its inference weight), walks down the tree choosing at each
play the card with the best upper confidence bound *for the seat that plays
it* (each seat maximises its own points, as in max^n: no seat is assumed to
play against the searching one), among the cards legal in that deal (a card's
bound counts the iterations in which it was legal, not all of them), adds one
play, and plays the rest out with the rules of thumb.  Every play on the way
is credited with its player's final points.

A round is one such tree; rounds are folded by adding the root's counts
(root parallelisation), so a round depends only on its seed and deals.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections.abc import Sequence
from typing import Any, Protocol

from ..cards import NO_SUIT
from .fast import _led_suit, _Playout, _playout_tables, kernel
from .worlds import Known

#: The counted work of one play made in the tree.  The tree is Python around
#: the C playouts: measured on a Scarto deal (24 and 12 cards in hand, 3,000
#: iterations over 16 deals) an iteration took 116 and 91 us, of which the
#: playout 17 and 9 us, over 3.7 and 5.0 plays in the tree: 27 and 16 us a
#: play, where a playout's card (``CARD_WORK``, 1.5) took 0.24 us.  So a play
#: in the tree counts as about 130 units, and a screen at fixed counted work
#: gives the tree the CPU it would have against a deadline (the default of
#: ``HardConfig.uct_play_work``; the first screens counted 6).
TREE_WORK = 130.0


class Metered(Protocol):
    used: float

    def over(self) -> bool: ...


#: A node: [visits, points of the seat that made the play into it, times legal, children]
Node = list[Any]


class _Walk:
    """One iteration's position: the deal as it stands, played forward
    with the playouts' own bookkeeping (:func:`engine.ai.fast._finish`)."""

    __slots__ = ("hands", "leader", "trick", "pts", "won", "led", "seat")

    def __init__(self, kn: Known, hands: list[int], t: _Playout) -> None:
        self.hands = hands
        self.leader = kn.leader
        self.trick = list(kn.trick)
        self.pts = list(kn.pts)
        self.won = list(kn.won)
        self.led = _led_suit(self.trick, t.matto, t.suit)
        self.seat = (self.leader + len(self.trick)) % t.n_seats


class Tree:
    """The tree of one round and the tables its iterations read."""

    def __init__(self, kn: Known, cands: Sequence[int], c: float) -> None:
        k = kernel(kn.rules)
        self.kn = kn
        self.c = c
        #: the playouts' tables (the policy, trick winner, points and terms)
        self.t = _playout_tables(kn.rules, k.policy, k.trick_winner)
        self.finish = k.finish
        self.final = k.final_points
        self.root_mask = 0
        for x in cands:
            self.root_mask |= 1 << x
        self.root: dict[int, Node] = {}

    def select(self, children: dict[int, Node], w: _Walk) -> tuple[Node, int, bool]:
        """The child to follow among the cards legal here (the candidates at the
        root): the rules of thumb's card among those never tried, else the
        best upper bound for the seat to play; whether it is new."""
        legal = self.root_mask if children is self.root else self.t.legal_mask(
            w.hands[w.seat], w.led
        )
        c = self.c
        pick = -1
        best = -math.inf
        untried = 0
        m = legal
        while m:
            low = m & -m
            m ^= low
            x = low.bit_length() - 1
            node = children.get(x)
            if node is None:
                untried |= low
                continue
            node[2] += 1  # legal in this deal: counts for its bound
            if not untried:
                v = node[1] / node[0] + c * math.sqrt(math.log(node[2]) / node[0])
                if v > best:
                    best = v
                    pick = x
        if untried:
            pick = self.t.policy(w.hands, w.seat, w.leader, w.trick, untried)
            node = children[pick] = [0, 0.0, 1, {}]
            return node, pick, True
        return children[pick], pick, False

    def play(self, w: _Walk, card: int) -> None:
        """``card`` played by the seat to play; the trick taken when complete."""
        t = self.t
        seat = w.seat
        side = t.side
        w.hands[seat] &= ~(1 << card)
        w.trick.append(card)
        if card == t.matto:
            w.pts[side[seat]] += t.matto_pts
        elif w.led == NO_SUIT:
            w.led = t.suit[card]
        w.seat = t.nxt[seat]
        if len(w.trick) == t.n_seats:
            tp = t.trick_adj
            for x in w.trick:
                tp += t.matto_adj if x == t.matto else t.points[x]
            win = (w.leader + t.trick_winner(w.trick)) % t.n_seats
            w.pts[side[win]] += tp
            w.won[side[win]] += 1
            w.leader = w.seat = win
            w.trick = []
            w.led = NO_SUIT

    def iterate(self, hands: list[int], discard_pts: int) -> int:
        """One iteration in the deal ``hands``: down the tree, one play added,
        the rest played out; every play on the way credited with its player's
        final points.  Returns the plays made in the tree."""
        w = _Walk(self.kn, hands, self.t)
        children = self.root
        path: list[tuple[Node, int]] = []
        while w.hands[w.seat]:
            node, pick, new = self.select(children, w)
            path.append((node, w.seat))
            self.play(w, pick)
            if new:
                break
            children = node[3]
        pts, won = self.finish(w.hands, w.leader, w.trick, w.pts, w.won)
        vec = self.final(pts, won, self.kn.dealer_side, discard_pts)
        side = self.t.side
        for node, s in path:
            node[0] += 1
            node[1] += vec[side[s]]
        return len(path)


def uct_counts(
    kn: Known,
    worlds: Sequence[tuple[list[int], int]],
    weights: Sequence[float],
    cands: Sequence[int],
    iters: int,
    c: float,
    rand: random.Random,
    meter: Metered,
    card_work: float,
    play_work: float = TREE_WORK,
) -> tuple[list[int], list[float]] | None:
    """``iters`` iterations of the tree from the decision in ``kn``, over
    ``worlds`` (hands, discard) drawn with ``weights``; the root's plays limited
    to ``cands``.  Returns each candidate's visits and summed final points (the
    searching seat's), or None once ``meter`` is spent.  Each iteration adds
    ``play_work`` a play in the tree and ``card_work`` a card played out to
    the meter's count."""
    tree = Tree(kn, cands, c)
    mp = kn.rules.pack.mask_points
    dpts = [mp(d) for _h, d in worlds]
    cum = list(itertools.accumulate(weights))
    left = sum(kn.need) + kn.hands_known[kn.seat].bit_count()
    for it in range(iters):
        if not it & 15 and meter.over():
            return None
        wi = min(bisect.bisect_left(cum, rand.random() * cum[-1]), len(cum) - 1)
        steps = tree.iterate(list(worlds[wi][0]), dpts[wi])
        meter.used += play_work * steps + card_work * max(0, left - steps)
    nodes = [tree.root.get(x) for x in cands]
    return [n[0] if n else 0 for n in nodes], [n[1] if n else 0.0 for n in nodes]
