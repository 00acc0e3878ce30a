"""Exact open-hand solver: alpha-beta over the remaining tricks with a
transposition table at trick boundaries.

The score is made two-sided: the searching seat's side maximises its own final
points and every other seat minimises them.  With partners (Piedicavallo) that
is exact, the game being zero-sum between two teams; where each plays alone
(Scarto) it is the "paranoid" assumption that the others play against the
searcher, the usual choice of open-hand solvers for three-handed games.
Boundary entries are stored relative to the points so far, so one table serves
every line that reaches the same hands with the same leader; while a side still
has no trick (R11 may apply) the key also holds the flags and the points.
Equivalent cards (same holder, adjacent rank with nothing alive between them,
same points) are searched once.  At a trick boundary the side's final points
lie between its points so far and those plus everything left (no trick is worth
less than nothing to its winner), which cuts off lines at once; leads that no
other hand can beat in their suit are searched first.  Trick strength, legal cards and the scoring
terms are the ruleset's (via :func:`engine.ai.fast.kernel`).
"""

from __future__ import annotations

import math
import time

from ..cards import NO_SUIT, TRUMP_SUIT
from ..ruleset import Ruleset
from .fast import c_tables, kernel
from .native import OutOfTime as OutOfTime  # raised here, and where callers look for it

TT = dict[tuple[int, ...], tuple[int, int]]
_INF = 10_000
#: The clock is read once every this many nodes (a power of two, less one).
_CHECK = 511


def Solver(  # noqa: N802 - stands for the class it returns, by the path in use
    rules: Ruleset, me: int, deadline: float = math.inf, node_limit: float = math.inf
) -> PySolver:
    """A solver for side ``me`` (see :class:`PySolver`): the C one where the C
    kernels are in use (:mod:`engine.ai.native`; the same values, nodes and
    :class:`OutOfTime`), else :class:`PySolver`."""
    tables = c_tables(rules)
    if tables is not None:
        return tables.solver(me, deadline, node_limit)  # type: ignore[no-any-return]
    return PySolver(rules, me, deadline, node_limit)


class PySolver:
    """One search context for one searching side (its table may be reused across
    roots of one deal): the pure-Python solver, the reference of the C one."""

    __slots__ = (
        "tt", "nodes", "me", "n", "side", "surrender", "total", "legal_mask", "suit", "points",
        "higher", "strength", "matto", "matto_pts", "trick_adj", "matto_adj", "keep",
        "deadline", "node_limit", "mask_points", "matto_mask",
    )

    def __init__(
        self, rules: Ruleset, me: int, deadline: float = math.inf, node_limit: float = math.inf
    ) -> None:
        """``me``: the side whose final points are maximised.  ``deadline``: a
        ``time.monotonic()`` instant after which the search raises
        :class:`~engine.ai.native.OutOfTime` (the clock is read every few hundred nodes); so does
        passing ``node_limit`` nodes (checked as often)."""
        p = rules.pack
        self.tt: TT = {}
        self.nodes = 0
        self.deadline = deadline
        self.node_limit = node_limit
        self.mask_points = p.mask_points
        self.matto_mask = p.matto_mask
        self.me = me
        self.n = rules.n_seats
        self.side = rules.side
        self.surrender = rules.surrender
        self.total = rules.total
        self.legal_mask = rules.legal_mask
        self.suit = p.suit
        self.points = p.points
        self.higher = p.higher
        self.strength = p.strength
        self.matto = p.matto
        self.matto_pts = p.points[p.matto]
        self.trick_adj = rules.trick_adjust
        self.matto_adj = rules.matto_trick_adjust
        self.keep = kernel(rules).keep

    def root_values(
        self,
        hands: list[int],
        leader: int,
        trick: tuple[int, ...],
        acc: int,
        mine_won: int,
        others_won: int,
        cands: int,
    ) -> dict[int, int]:
        """The side ``me``'s exact final points after each card of mask ``cands``
        (legal for the seat to play), playing on open-handed.  ``acc`` is its
        points so far (the discard included when it deals), ``mine_won`` and
        ``others_won`` the tricks taken so far by it and by the others."""
        hands = list(hands)
        n = len(trick)
        seat = (leader + n) % self.n
        suit = self.suit
        points = self.points
        higher = self.higher
        led, bk, ws, tp = self._trick_so_far(leader, trick)
        tmask = 0
        for c in trick:
            tmask |= 1 << c
        out: dict[int, int] = {}
        f0 = mine_won > 0
        f1 = others_won > 0
        alive = tmask
        for h in hands:
            alive |= h
        prev = -1
        prev_v = 0
        m = cands
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            if (
                prev >= 0
                and suit[prev] == suit[c]
                and points[prev] == points[c]
                and not (higher[prev] & ~higher[c] & ~low & alive)
            ):
                out[c] = prev_v
                prev = c
                continue
            hands[seat] ^= low
            v = self._child(hands, leader, n, led, bk, ws, tp, c, acc, f0, f1, -1, self.total + 1)
            hands[seat] ^= low
            out[c] = v
            prev, prev_v = c, v
        return out

    def _trick_so_far(self, leader: int, trick: tuple[int, ...]) -> tuple[int, int, int, int]:
        """The trick in play: the suit led, the strength to beat, the seat
        winning it and its worth to its winner so far."""
        suit = self.suit
        points = self.points
        matto = self.matto
        led = NO_SUIT
        bk = -1
        ws = leader
        tp = self.trick_adj
        for i, c in enumerate(trick):
            if c == matto:
                tp += self.matto_adj
                continue
            tp += points[c]
            s = suit[c]
            if led == NO_SUIT:
                led = s
            key = self.strength[c] if s == led or s == TRUMP_SUIT else -1
            if key > bk:
                bk, ws = key, (leader + i) % self.n
        return led, bk, ws, tp

    def lead_value(
        self, hands: list[int], leader: int, acc: int, mine_won: int, others_won: int
    ) -> int:
        """The side ``me``'s exact final points from a trick boundary, ``leader``
        to lead (the arguments as for :meth:`root_values`)."""
        return self._boundary(
            list(hands), leader, acc, mine_won > 0, others_won > 0, -1, self.total + 1
        )

    def _child(
        self,
        hands: list[int],
        leader: int,
        n: int,
        led: int,
        bk: int,
        ws: int,
        tp: int,
        c: int,
        acc: int,
        f0: bool,
        f1: bool,
        alpha: int,
        beta: int,
    ) -> int:
        """Value after the seat ``leader + n`` has played ``c`` (already removed
        from its hand).  ``tp`` is the trick's worth to its winner so far."""
        seat = (leader + n) % self.n
        if c == self.matto:
            if self.side[seat] == self.me:
                acc += self.matto_pts
            tp += self.matto_adj
        else:
            s = self.suit[c]
            if led == NO_SUIT:
                led = s
            key = self.strength[c] if s == led or s == TRUMP_SUIT else -1
            if key > bk:
                bk, ws = key, seat
            tp += self.points[c]
        if n == self.n - 1:
            if self.side[ws] != self.me:
                return self._boundary(hands, ws, acc, f0, True, alpha, beta)
            return self._boundary(hands, ws, acc + tp, True, f1, alpha, beta)
        return self._play(hands, leader, n + 1, led, bk, ws, tp, acc, f0, f1, alpha, beta)

    def _boundary(
        self,
        hands: list[int],
        leader: int,
        acc: int,
        f0: bool,
        f1: bool,
        alpha: int,
        beta: int,
    ) -> int:
        h = hands[leader]
        if not h & (h - 1):
            return self._end(hands, leader, acc, f0, f1)
        if f0 and f1 or not self.surrender:
            # Every trick is worth at least nothing to its winner (Scarto's count
            # in threes included), so the side ends between acc and acc plus all
            # that is left: cut off at once when the window lies outside.
            if acc >= beta:
                return acc
            left = 0
            for h in hands:
                left |= h
            top = acc + self.mask_points(left & ~self.matto_mask)
            top += self.trick_adj * hands[leader].bit_count()
            if left & self.matto_mask:
                top += self.matto_pts + self.matto_adj
            if top <= alpha:
                return top
            key: tuple[int, ...] = (*hands, leader)
        else:
            key = (*hands, leader, f0 + 2 * f1, acc)
        tt = self.tt
        ent = tt.get(key)
        if ent is not None:
            lo = ent[0] + acc
            hi = ent[1] + acc
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        a0 = alpha
        b0 = beta
        v = self._play(hands, leader, 0, NO_SUIT, -1, leader, self.trick_adj, acc, f0, f1, alpha, beta)
        lo = ent[0] if ent is not None else -_INF
        hi = ent[1] if ent is not None else _INF
        if v <= a0:
            hi = min(hi, v - acc)
        elif v >= b0:
            lo = max(lo, v - acc)
        else:
            lo = hi = v - acc
        tt[key] = (lo, hi)
        return v

    def _end(self, hands: list[int], leader: int, acc: int, f0: bool, f1: bool) -> int:
        """The side's final points from a boundary with one card a hand (the last
        trick plays itself) or none, R11's surrender applied where the ruleset has it."""
        if hands[leader]:
            acc, f0, f1 = self._last(hands, leader, acc, f0, f1)
        if self.surrender:
            if not f0:
                return 0
            if not f1:
                return self.total
        return acc

    def _last(
        self, hands: list[int], leader: int, acc: int, f0: bool, f1: bool
    ) -> tuple[int, bool, bool]:
        """The last trick, each hand down to one card: the side's points and
        the two sides' trick flags after it (as ``_child`` would count them)."""
        side = self.side
        me = self.me
        matto = self.matto
        led = NO_SUIT
        bk = -1
        ws = leader
        tp = self.trick_adj
        seat = leader
        for _ in range(self.n):
            c = hands[seat].bit_length() - 1
            if c == matto:
                if side[seat] == me:
                    acc += self.matto_pts
                tp += self.matto_adj
            else:
                s = self.suit[c]
                if led == NO_SUIT:
                    led = s
                key = self.strength[c] if s == led or s == TRUMP_SUIT else -1
                if key > bk:
                    bk, ws = key, seat
                tp += self.points[c]
            seat = (seat + 1) % self.n
        if side[ws] == me:
            return acc + tp, True, f1
        return acc, f0, True

    def _play(  # noqa: PLR0915 - the search's hot kernel: splitting cost 9-10% (below)
        self,
        hands: list[int],
        leader: int,
        n: int,
        led: int,
        bk: int,
        ws: int,
        tp: int,
        acc: int,
        f0: bool,
        f1: bool,
        alpha: int,
        beta: int,
    ) -> int:
        """The side's final points with the seat ``leader + n`` to play (the search
        itself: its moves in classes, ordered, then alpha-beta over them)."""
        # A hot kernel, kept long on purpose (listed in pyproject.toml and
        # tests/test_function_length.py): every node of the search passes here.
        # With the move ordering in a method of its own (same nodes, same values)
        # the solver took 9-10% longer: ``python -m engine.ai.kernel_bench 2 3``, CPU
        # s, two runs each, whole vs split: Piedicavallo 0.693/0.623 vs 0.721/0.713,
        # Scarto 0.275/0.255 vs 0.290/0.291.
        self.nodes += 1
        if not self.nodes & _CHECK and (
            self.nodes > self.node_limit or time.monotonic() > self.deadline
        ):
            raise OutOfTime
        seat = (leader + n) % self.n
        hand = hands[seat]
        legal = self.legal_mask(hand, led)
        suit = self.suit
        points = self.points
        higher = self.higher
        strength = self.strength
        keep = self.keep
        side = self.side
        alive = 0
        for h in hands:
            alive |= h
        if bk >= 0:  # the card to beat splits classes too
            alive |= 1 << (bk - 128 if bk >= 128 else bk)
        # Representatives of equivalence classes, with an ordering key.
        mine_winning = n > 0 and side[ws] == side[seat]
        moves: list[tuple[int, int]] = []
        prev = -1
        m = legal
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            if (
                prev >= 0
                and suit[prev] == suit[c]
                and points[prev] == points[c]
                and not (higher[prev] & ~higher[c] & ~low & alive)
            ):
                prev = c
                continue
            prev = c
            if c == self.matto:
                order = 50
            elif n == 0:
                # Lead a card that no other hand can beat in its suit first, else
                # the cheapest.
                if not higher[c] & alive & ~hand:
                    order = -200 - points[c]
                else:
                    order = keep[c] + 4 * points[c]
            else:
                s = suit[c]
                key = strength[c] if s == TRUMP_SUIT or s == led or led == NO_SUIT else -1
                if mine_winning:
                    order = -8 * points[c] + keep[c]
                elif key > bk:
                    order = -100 + keep[c] - 4 * points[c]
                else:
                    order = 8 * points[c] + keep[c]
            moves.append((order, c))
        moves.sort()
        maximizing = side[seat] == self.me
        best = -_INF if maximizing else _INF
        for _o, c in moves:
            hands[seat] = hand ^ (1 << c)
            v = self._child(hands, leader, n, led, bk, ws, tp, c, acc, f0, f1, alpha, beta)
            if maximizing:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            else:
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        hands[seat] = hand
        return best
