"""The AI's fast layer: a partner-aware card policy and open-hand playouts on int masks.

The policy sees four "hands": its own exact hand and, for the other seats, either
their exact hands (open-hand playouts inside a sampled deal) or the cards they may
still hold (the easy player, which plays from its view).  It encodes the rules of
thumb of partnership play: second, third and fourth hand; never overtake a
partner's sure trick; feed points onto it; take a trick with the cheapest sure
winner; lose the cheapest card, or the Matto when the cheapest card is valuable;
lead sure winners, else a low card where the partner can help.

No objects in the hot loops: cards are ints, sets are masks, tables are tuples.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..cards import MATTO, MATTO_MASK, N_CARDS, POINTS, SUIT, SUIT_MASK, TRUMP_MASK

TRUMP_SUIT = 4
NO_SUIT = -1
TOTAL = 114


def _higher(c: int) -> int:
    """Cards of the same suit (trumps for a trump) that beat ``c``."""
    if c == MATTO:
        return 0
    s = SUIT[c]
    return SUIT_MASK[s] & ~((1 << (c + 1)) - 1)


#: Per card: the mask of cards of its own suit that beat it.
HIGHER: tuple[int, ...] = tuple(_higher(c) for c in range(N_CARDS))
#: Per card: its rank inside its suit, 0 (lowest) to 9, trumps 0 to 20.
RANK: tuple[int, ...] = tuple(
    c if c < 21 else (0 if c == MATTO else (c - 22) % 10) for c in range(N_CARDS)
)
#: How much a card is worth keeping, beyond its points: high trumps control play.
KEEP: tuple[int, ...] = tuple(
    (0 if c == 0 else (40 if c == 20 else 2 + c)) if c < 21 else (0 if c == MATTO else RANK[c] // 3)
    for c in range(N_CARDS)
)

Policy = Callable[[Sequence[int], int, int, Sequence[int], int], int]


def _can_beat(best: int, led: int, h: int) -> int:
    """Whether a seat holding (or possibly holding) ``h`` can beat card ``best``
    when ``led`` is the suit to follow."""
    if led == TRUMP_SUIT:
        return h & HIGHER[best]
    follow = h & SUIT_MASK[led]
    if follow:
        return 0 if best < 21 else follow & HIGHER[best]
    if best < 21:
        return h & HIGHER[best]
    return h & TRUMP_MASK


def policy(hands: Sequence[int], seat: int, leader: int, trick: Sequence[int], legal: int) -> int:
    """The card the rules of thumb play from ``legal`` (a non-empty mask)."""
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    points = POINTS
    suit_of = SUIT
    n = len(trick)
    team = seat & 1
    opps = []
    partner_later = False
    for k in range(1, 4 - n):
        s = (seat + k) & 3
        if s & 1 != team:
            opps.append(hands[s])
        else:
            partner_later = True
    nonm = legal & ~MATTO_MASK
    has_matto = legal & MATTO_MASK
    if not nonm:
        return MATTO

    # Current state of the trick.
    led = NO_SUIT
    best = -1
    best_key = -1
    winner = -1
    tp = 0
    for i, c in enumerate(trick):
        if c == MATTO:
            continue
        tp += points[c]
        s = suit_of[c]
        if led == NO_SUIT:
            led = s
        key = c + 100 if s == TRUMP_SUIT else (c if s == led else -1)
        if key > best_key:
            best_key, best, winner = key, c, (leader + i) & 3

    if led == NO_SUIT:  # leading (or after a led Matto)
        partner = hands[seat ^ 2] if partner_later else 0
        opp_trumps = 0
        for h in opps:
            opp_trumps |= h & TRUMP_MASK
        my_trumps = (hands[seat] & TRUMP_MASK).bit_count()
        best_c = -1
        best_v = -(10**9)
        m = nonm
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            s = suit_of[c]
            sure = True
            for h in opps:
                if _can_beat(c, s, h):
                    sure = False
                    break
            if sure:
                if s == TRUMP_SUIT:
                    v = 60 + 3 * my_trumps - KEEP[c] // 4 if opp_trumps else 5 - KEEP[c]
                else:
                    v = 80 + 4 * points[c]
            else:
                v = -6 * points[c] - RANK[c]
                if s == TRUMP_SUIT:
                    v -= 8 + KEEP[c]
                elif partner and _can_beat(c, s, partner):
                    v += 10
            if v > best_v:
                best_v, best_c = v, c
        return best_c

    partner_winning = winner & 1 == team
    safe = True
    for h in opps:
        if _can_beat(best, led, h):
            safe = False
            break
    if partner_winning and safe:
        # Feed: the most points for the least strength given up.
        best_c = -1
        best_v = -(10**9)
        m = nonm
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            v = 8 * points[c] - KEEP[c]
            if v > best_v:
                best_v, best_c = v, c
        return best_c

    # Can we take it surely?
    best_c = -1
    best_v = -(10**9)
    m = nonm
    while m:
        low = m & -m
        m ^= low
        c = low.bit_length() - 1
        s = suit_of[c]
        key = c + 100 if s == TRUMP_SUIT else (c if s == led else -1)
        if key <= best_key:
            continue
        sure = True
        for h in opps:
            if _can_beat(c, led, h):
                sure = False
                break
        if not sure:
            continue
        v = 4 * points[c] - KEEP[c]
        if v > best_v:
            best_v, best_c = v, c
    if best_c >= 0:
        # Overtaking an unsure partner is worth it when there is something to save.
        if not partner_winning or tp + points[best_c] >= 4 or KEEP[best_c] <= 6:
            return best_c

    # Lose (or let the partner win) as cheaply as possible.
    best_c = -1
    best_v = 10**9
    m = nonm
    while m:
        low = m & -m
        m ^= low
        c = low.bit_length() - 1
        v = 8 * points[c] + KEEP[c]
        if v < best_v:
            best_v, best_c = v, c
    if has_matto and points[best_c] >= 3 and not (partner_winning and partner_later):
        return MATTO
    return best_c


def finish(
    hands: list[int],
    leader: int,
    trick: list[int],
    p0: int,
    p1: int,
    w0: int,
    w1: int,
    pol: Policy = policy,
    first: int = -1,
) -> tuple[int, int, int, int]:
    """Play the deal out with ``pol`` for every seat, open-handed, the seat to play
    playing ``first`` if given; ``hands`` and ``trick`` are consumed.  Returns the team piles' points (the Matto counted for
    its team when played) and tricks won."""
    suit_mask = SUIT_MASK
    points = POINTS
    suit_of = SUIT
    while True:
        n = len(trick)
        seat = (leader + n) & 3
        if n == 0 and not hands[seat]:
            return p0, p1, w0, w1
        led = NO_SUIT
        for c in trick:
            if c != MATTO:
                led = suit_of[c]
                break
        hand = hands[seat]
        if led == NO_SUIT:
            legal = hand
        else:
            legal = hand & suit_mask[led]
            if legal:
                legal |= hand & MATTO_MASK
            else:
                legal = hand & TRUMP_MASK
                legal = legal | (hand & MATTO_MASK) if legal else hand
        if first >= 0:
            c = first
            first = -1
        else:
            c = pol(hands, seat, leader, trick, legal)
        hands[seat] = hand & ~(1 << c)
        trick.append(c)
        if c == MATTO:
            if seat & 1:
                p1 += 5
            else:
                p0 += 5
        if n == 3:
            led = NO_SUIT
            bk = -1
            wi = 0
            tp = 0
            for i, x in enumerate(trick):
                if x == MATTO:
                    continue
                tp += points[x]
                s = suit_of[x]
                if led == NO_SUIT:
                    led = s
                key = x + 100 if s == TRUMP_SUIT else (x if s == led else -1)
                if key > bk:
                    bk, wi = key, i
            w = (leader + wi) & 3
            if w & 1:
                p1 += tp
                w1 += 1
            else:
                p0 += tp
                w0 += 1
            leader = w
            trick = []


def final_points(p0: int, p1: int, w0: int, w1: int, dealer_team: int, discard_pts: int) -> int:
    """Team 0's points for the deal (R10, R11), the discard going to the dealer's team."""
    if dealer_team:
        p1 += discard_pts
    else:
        p0 += discard_pts
    if w0 == 0:
        return 0
    if w1 == 0:
        return TOTAL
    return p0
