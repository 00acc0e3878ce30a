"""Exact open-hand solver: alpha-beta over the remaining tricks with a
transposition table at trick boundaries.

The score is a two-sided zero-sum quantity (team 0's final card points; team 1 has
the rest of the 114), so plain alpha-beta is valid with four seats in two teams.
Boundary entries are stored relative to team 0's points so far, so one table
serves every line that reaches the same hands with the same leader; while a team
still has no trick (R11 may apply) the key also holds the flags and the points.
Equivalent cards (same holder, adjacent rank with nothing alive between them, same
points) are searched once.
"""

from __future__ import annotations

from ..cards import MATTO, MATTO_MASK, POINTS, SUIT, SUIT_MASK, TRUMP_MASK
from .fast import HIGHER, KEEP, TOTAL

TRUMP_SUIT = 4
NO_SUIT = -1

TT = dict[tuple[int, ...], tuple[int, int]]


class Solver:
    """One search context (its table may be reused across roots of one deal)."""

    __slots__ = ("tt", "nodes")

    def __init__(self) -> None:
        self.tt: TT = {}
        self.nodes = 0

    def root_values(
        self,
        hands: list[int],
        leader: int,
        trick: tuple[int, ...],
        acc0: int,
        w0: int,
        w1: int,
        cands: int,
    ) -> dict[int, int]:
        """Team 0's exact final points after each card of mask ``cands`` (legal for the
        seat to play), playing on open-handed.  ``acc0`` is team 0's points so far,
        the discard included when team 0 deals; ``w0``/``w1`` tricks won so far."""
        hands = list(hands)
        n = len(trick)
        seat = (leader + n) & 3
        led = NO_SUIT
        bk = -1
        ws = leader
        tp = 0
        for i, c in enumerate(trick):
            if c == MATTO:
                continue
            tp += POINTS[c]
            s = SUIT[c]
            if led == NO_SUIT:
                led = s
            key = c + 100 if s == TRUMP_SUIT else (c if s == led else -1)
            if key > bk:
                bk, ws = key, (leader + i) & 3
        tmask = 0
        for c in trick:
            tmask |= 1 << c
        out: dict[int, int] = {}
        f0 = w0 > 0
        f1 = w1 > 0
        alive = hands[0] | hands[1] | hands[2] | hands[3] | tmask
        prev = -1
        prev_v = 0
        m = cands
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            if (
                prev >= 0
                and SUIT[prev] == SUIT[c]
                and POINTS[prev] == POINTS[c]
                and not (HIGHER[prev] & ~HIGHER[c] & ~low & alive)
            ):
                out[c] = prev_v
                prev = c
                continue
            hands[seat] ^= low
            v = self._child(hands, leader, n, led, bk, ws, tp, c, acc0, f0, f1, -1, TOTAL + 1)
            hands[seat] ^= low
            out[c] = v
            prev, prev_v = c, v
        return out

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
        acc0: int,
        f0: bool,
        f1: bool,
        alpha: int,
        beta: int,
    ) -> int:
        """Value after the seat ``(leader + n) & 3`` has played ``c`` (already removed
        from its hand)."""
        seat = (leader + n) & 3
        if c == MATTO:
            if not seat & 1:
                acc0 += 5
        else:
            s = SUIT[c]
            if led == NO_SUIT:
                led = s
            key = c + 100 if s == TRUMP_SUIT else (c if s == led else -1)
            if key > bk:
                bk, ws = key, seat
            tp += POINTS[c]
        if n == 3:
            if ws & 1:
                return self._boundary(hands, ws, acc0, f0, True, alpha, beta)
            return self._boundary(hands, ws, acc0 + tp, True, f1, alpha, beta)
        return self._play(hands, leader, n + 1, led, bk, ws, tp, acc0, f0, f1, alpha, beta)

    def _boundary(
        self,
        hands: list[int],
        leader: int,
        acc0: int,
        f0: bool,
        f1: bool,
        alpha: int,
        beta: int,
    ) -> int:
        if not hands[leader]:
            if not f0:
                return 0
            if not f1:
                return TOTAL
            return acc0
        if f0 and f1:
            key: tuple[int, ...] = (hands[0], hands[1], hands[2], hands[3], leader)
        else:
            key = (hands[0], hands[1], hands[2], hands[3], leader, f0 + 2 * f1, acc0)
        tt = self.tt
        ent = tt.get(key)
        if ent is not None:
            lo = ent[0] + acc0
            hi = ent[1] + acc0
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
        v = self._play(hands, leader, 0, NO_SUIT, -1, leader, 0, acc0, f0, f1, alpha, beta)
        lo = ent[0] if ent is not None else -1000
        hi = ent[1] if ent is not None else 1000
        if v <= a0:
            hi = min(hi, v - acc0)
        elif v >= b0:
            lo = max(lo, v - acc0)
        else:
            lo = hi = v - acc0
        tt[key] = (lo, hi)
        return v

    def _play(
        self,
        hands: list[int],
        leader: int,
        n: int,
        led: int,
        bk: int,
        ws: int,
        tp: int,
        acc0: int,
        f0: bool,
        f1: bool,
        alpha: int,
        beta: int,
    ) -> int:
        self.nodes += 1
        seat = (leader + n) & 3
        hand = hands[seat]
        if led == NO_SUIT:
            legal = hand
        else:
            legal = hand & SUIT_MASK[led]
            if legal:
                legal |= hand & MATTO_MASK
            else:
                legal = hand & TRUMP_MASK
                legal = legal | (hand & MATTO_MASK) if legal else hand
        alive = hands[0] | hands[1] | hands[2] | hands[3]
        if bk >= 0:  # the card to beat splits classes too
            alive |= 1 << (bk - 100 if bk >= 100 else bk)
        # Representatives of equivalence classes, with an ordering key.
        mine_winning = n > 0 and (ws & 1) == (seat & 1)
        moves: list[tuple[int, int]] = []
        prev = -1
        m = legal
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            if (
                prev >= 0
                and SUIT[prev] == SUIT[c]
                and POINTS[prev] == POINTS[c]
                and not (HIGHER[prev] & ~HIGHER[c] & ~low & alive)
            ):
                prev = c
                continue
            prev = c
            if c == MATTO:
                order = 50
            else:
                s = SUIT[c]
                key = c + 100 if s == TRUMP_SUIT else (c if s == led or led == NO_SUIT else -1)
                if mine_winning:
                    order = -8 * POINTS[c] + KEEP[c]
                elif key > bk:
                    order = -100 + KEEP[c] - 4 * POINTS[c]
                else:
                    order = 8 * POINTS[c] + KEEP[c]
            moves.append((order, c))
        moves.sort()
        maximizing = not seat & 1
        best = -1 if maximizing else TOTAL + 1
        for _o, c in moves:
            bit = 1 << c
            hands[seat] = hand ^ bit
            v = self._child(hands, leader, n, led, bk, ws, tp, c, acc0, f0, f1, alpha, beta)
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
