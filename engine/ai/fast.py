"""The AI's fast layer: a side-aware card policy and open-hand playouts on int masks.

The policy sees every seat's "hand": its own exact hand and, for the others,
either their exact hands (open-hand playouts inside a sampled deal) or the cards
they may still hold (the easy player, which plays from its view).  It encodes
the rules of thumb of trick play: second, third and last hand; never overtake a
partner's sure trick; feed points onto it; take a trick with the cheapest sure
winner; lose the cheapest card, or the Matto when the cheapest card is valuable;
lead sure winners, else a low card where a partner can help.  Where each plays
alone (Scarto) every other seat is an opponent.

Everything is built once per ruleset by :func:`kernel`, one small builder a
function, as closures over the ruleset's own tables (its legal-mask function,
its trick-strength table, its scoring terms); the playouts unpack the same
tables into locals once a playout: no objects and no attribute lookups in the
hot loops.  The policy stays one long closure, a measured kernel (see
:func:`_policy_fn`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple

from ..cards import NO_SUIT, TRUMP_SUIT
from ..ruleset import Ruleset
from . import native

Policy = Callable[[Sequence[int], int, int, Sequence[int], int], int]


def keep_values(rules: Ruleset) -> tuple[int, ...]:
    """How much a card is worth keeping, beyond its points: high trumps control
    play (the strongest most of all), the lowest trump and the Matto not at all."""
    p = rules.pack
    top = p.n_trumps - 1
    out = []
    for c in range(p.n_cards):
        if p.suit[c] == TRUMP_SUIT:
            out.append(0 if c == 0 else (40 if c == top else 2 + c))
        elif c == p.matto:
            out.append(0)
        else:
            out.append(p.rank[c] * 10 // (3 * p.suit_size[p.suit[c]]))
    return tuple(out)


@dataclass(frozen=True)
class Kernel:
    """The hot functions of one ruleset (see :func:`kernel`)."""

    rules: Ruleset
    keep: tuple[int, ...]
    policy: Policy
    finish: Callable[..., tuple[list[int], list[int]]]
    final_points: Callable[[list[int], list[int], int, int], list[int]]
    trick_winner: Callable[[Sequence[int]], int]
    finish_view: Callable[..., tuple[list[int], list[int]]]
    #: the policy with a partner's-ruff lead: ``policy_variant(ruff_lead, ruff_points)``
    policy_variant: Callable[[int, int], Policy]


def kernel(rules: Ruleset) -> Kernel:
    """The hot functions of ``rules``: the C kernels where they are built and
    not turned off (:mod:`engine.ai.native`), else the pure-Python ones below."""
    return _kernel(rules, native.active())


@cache
def _kernel(rules: Ruleset, use_c: bool) -> Kernel:
    """The hot functions of ``rules``, built once: closures over its tables (the
    policy and the open-hand playouts in C when ``use_c``)."""
    keep = keep_values(rules)
    trick_winner = _trick_winner_fn(rules)
    tables = _c_tables(rules) if use_c else None

    def make_policy(ruff_lead: int = 0, ruff_points: int = 0) -> Policy:
        if tables is not None:
            return tables.policy(ruff_lead, ruff_points)  # type: ignore[no-any-return]
        return _policy_fn(rules, keep, ruff_lead, ruff_points)

    policy = make_policy()
    variants: dict[tuple[int, int], Policy] = {}

    def policy_variant(ruff_lead: int, ruff_points: int) -> Policy:
        """The rules of thumb with the partner's-ruff lead (see :func:`_lead_fn`),
        built once per setting; ``policy`` itself when ``ruff_lead`` is 0."""
        if not ruff_lead:
            return policy
        key = (ruff_lead, ruff_points)
        got = variants.get(key)
        if got is None:
            got = variants[key] = make_policy(ruff_lead, ruff_points)
        return got

    assert rules.n_sides == len(set(rules.side))
    assert not rules.surrender or rules.n_sides == 2
    return Kernel(
        rules,
        keep,
        policy,
        _finish_fn(rules, policy, trick_winner, tables),
        _final_points_fn(rules),
        trick_winner,
        _finish_view_fn(rules, policy, trick_winner),
        policy_variant,
    )


def c_tables(rules: Ruleset) -> Any:
    """The C kernels' tables of ``rules`` (its ``policy``, ``finish``, ``solver``,
    ``policy_plays`` and ``legal_mask``; see :mod:`engine.ai.native`), or None on
    the pure-Python path."""
    return _c_tables(rules) if native.active() else None


@cache
def _c_tables(rules: Ruleset) -> Any:
    p = rules.pack
    later_opps, partner_later = seat_tables(rules)
    return native.make_tables(
        n_seats=rules.n_seats, side=rules.side, partner=rules.partner, suit=p.suit,
        points=p.points, strength=p.strength, rank=p.rank, keep=keep_values(rules),
        higher=p.higher, suit_mask=p.suit_mask, trump_mask=p.trump_mask, matto=p.matto,
        trick_adj=rules.trick_adjust, matto_adj=rules.matto_trick_adjust,
        surrender=int(rules.surrender), total=rules.total, later_opps=later_opps,
        partner_later=partner_later,
    )


def _trick_winner_fn(rules: Ruleset) -> Callable[[Sequence[int]], int]:
    """The index of the card that takes a trick (see below)."""
    p = rules.pack
    SUIT = p.suit
    MATTO = p.matto
    STRENGTH = p.strength

    def trick_winner(trick: Sequence[int]) -> int:
        """Index of the card that takes ``trick`` (the ruleset's strength table)."""
        led = NO_SUIT
        bk = -1
        wi = 0
        for i, x in enumerate(trick):
            if x == MATTO:
                continue
            s = SUIT[x]
            if led == NO_SUIT:
                led = s
            key = STRENGTH[x] if s == led or s == TRUMP_SUIT else -1
            if key > bk:
                bk, wi = key, i
        return wi

    return trick_winner


def seat_tables(
    rules: Ruleset,
) -> tuple[tuple[tuple[tuple[int, ...], ...], ...], tuple[tuple[bool, ...], ...]]:
    """Per seat and cards already in the trick: the opponents still to play after
    it, and whether its partner is (built once: the policy runs millions of times)."""
    n_seats = rules.n_seats
    side = rules.side
    later_opps = tuple(
        tuple(
            tuple(t for t in (((seat + k) % n_seats) for k in range(1, n_seats - n))
                  if side[t] != side[seat])
            for n in range(n_seats)
        )
        for seat in range(n_seats)
    )
    partner_later_t = tuple(
        tuple(
            any(side[(seat + k) % n_seats] == side[seat] for k in range(1, n_seats - n))
            for n in range(n_seats)
        )
        for seat in range(n_seats)
    )
    return later_opps, partner_later_t


def _can_beat_fn(rules: Ruleset) -> Callable[[int, int, int], int]:
    """Whether a hand can beat a card (see below)."""
    p = rules.pack
    HIGHER = p.higher
    SUIT_MASK = p.suit_mask
    TRUMP_MASK = p.trump_mask
    NT = p.n_trumps

    def can_beat(best: int, led: int, h: int) -> int:
        """Whether a seat holding (or possibly holding) ``h`` can beat card ``best``
        when ``led`` is the suit to follow."""
        if led == TRUMP_SUIT:
            return h & HIGHER[best]
        follow = h & SUIT_MASK[led]
        if follow:
            return 0 if best < NT else follow & HIGHER[best]
        if best < NT:
            return h & HIGHER[best]
        return h & TRUMP_MASK

    return can_beat


def _policy_fn(  # noqa: PLR0915, C901 - a hot kernel kept whole: splitting cost 4% (below)
    rules: Ruleset, keep: tuple[int, ...], ruff_lead: int, ruff_points: int
) -> Policy:
    """The rules of thumb; with ``ruff_lead`` above 0, a lead that the partner
    (void in its suit) can surely take with a trump is valued ``ruff_lead``
    plus ``ruff_points`` a point of the card led, less its rank (the
    partner's ruff collects the trick; feed it the points)."""
    # A hot kernel, kept long on purpose (listed in pyproject.toml and
    # tests/test_function_length.py): the policy plays every card of every playout.
    # Split into lead, follow and take-or-lose closures (same choices, same
    # checksums) it cost 4%: ``python -m engine.ai.kernel_bench 2 3``, CPU s, two
    # runs each, whole vs split: Piedicavallo playouts 0.109/0.107 vs 0.115/0.110,
    # lookahead 0.150/0.146 vs 0.155/0.155, Scarto playouts 0.178/0.163 vs
    # 0.182/0.173.  (``tarocchi bench ai --level hard --budget-rounds 40`` moved
    # by 30% between runs on the shared machine: too noisy to see either way.)
    p = rules.pack
    n_seats = rules.n_seats
    side = rules.side
    partner_of = rules.partner
    POINTS = p.points
    SUIT = p.suit
    SUIT_MASK = p.suit_mask
    TRUMP_MASK = p.trump_mask
    MATTO = p.matto
    MATTO_MASK = p.matto_mask
    HIGHER = p.higher
    RANK = p.rank
    STRENGTH = p.strength
    NT = p.n_trumps
    KEEP = keep
    later_opps, partner_later_t = seat_tables(rules)
    can_beat = _can_beat_fn(rules)

    def policy(  # noqa: PLR0915, C901 - the hot kernel itself (see above)
        hands: Sequence[int], seat: int, leader: int, trick: Sequence[int], legal: int
    ) -> int:
        """The card the rules of thumb play from ``legal`` (a non-empty mask).

        Whether an opponent still to play can beat a card is worked out once
        per suit from the union of their cards (see ``can_beat``): those of the
        suit from the seats that hold it, the trumps of those void in it."""
        if not legal & (legal - 1):
            return legal.bit_length() - 1
        n = len(trick)
        my_side = side[seat]
        opp_seats = later_opps[seat][n]
        partner_later = partner_later_t[seat][n]
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
        i = 0
        for c in trick:
            if c != MATTO:
                tp += POINTS[c]
                s = SUIT[c]
                if led == NO_SUIT:
                    led = s
                key = STRENGTH[c] if s == led or s == TRUMP_SUIT else -1
                if key > best_key:
                    best_key, best, winner = key, c, (leader + i) % n_seats
            i += 1

        if led == NO_SUIT:  # leading (or after a led Matto)
            partner = hands[partner_of[seat]] if partner_later else 0
            opp_trumps = 0
            for t in opp_seats:
                opp_trumps |= hands[t] & TRUMP_MASK
            my_trumps = (hands[seat] & TRUMP_MASK).bit_count()
            best_c = -1
            best_v = -(10**9)
            cur = -2  # the suit the masks below are for (cards come suit by suit)
            follow = 0
            ruffed = 0
            pruff = 0
            m = nonm
            while m:
                low = m & -m
                m ^= low
                c = low.bit_length() - 1
                s = SUIT[c]
                if s != cur:
                    cur = s
                    pruff = 0
                    if s == TRUMP_SUIT:
                        follow = opp_trumps
                        ruffed = 0
                    else:
                        follow = 0
                        ruffed = 0
                        sm = SUIT_MASK[s]
                        for t in opp_seats:
                            h = hands[t]
                            f = h & sm
                            if f:
                                follow |= f
                            else:
                                ruffed |= h & TRUMP_MASK
                        if ruff_lead and partner and not partner & sm:
                            # The partner ruffs, higher than any opponent can.
                            pruff = partner & TRUMP_MASK
                            if pruff and ruffed & HIGHER[pruff.bit_length() - 1]:
                                pruff = 0
                if not ruffed and not follow & HIGHER[c]:  # sure to win the trick
                    if s == TRUMP_SUIT:
                        v = 60 + 3 * my_trumps - KEEP[c] // 4 if opp_trumps else 5 - KEEP[c]
                    else:
                        v = 80 + 4 * POINTS[c]
                elif pruff:
                    v = ruff_lead + ruff_points * POINTS[c] - RANK[c]
                else:
                    v = -6 * POINTS[c] - RANK[c]
                    if s == TRUMP_SUIT:
                        v -= 8 + KEEP[c]
                    elif partner and not (ruff_lead and ruffed) and can_beat(c, s, partner):
                        v += 10  # (with the ruff lead: not if an opponent ruffs)
                if v > best_v:
                    best_v, best_c = v, c
            return best_c

        # What the opponents still to play hold that could beat a card: their
        # cards of the led suit (trumps, if trumps were led), and the trumps of
        # those void in it.
        follow = 0
        ruffed = 0
        if led == TRUMP_SUIT:
            for t in opp_seats:
                follow |= hands[t] & TRUMP_MASK
        else:
            sm = SUIT_MASK[led]
            for t in opp_seats:
                h = hands[t]
                f = h & sm
                if f:
                    follow |= f
                else:
                    ruffed |= h & TRUMP_MASK
        if best < NT:  # a trump: only a higher trump beats it
            safe = not (follow if led == TRUMP_SUIT else ruffed) & HIGHER[best]
        else:
            safe = not ruffed and not follow & HIGHER[best]
        partner_winning = side[winner] == my_side
        if partner_winning and safe:
            # Feed: the most points for the least strength given up.
            best_c = -1
            best_v = -(10**9)
            m = nonm
            while m:
                low = m & -m
                m ^= low
                c = low.bit_length() - 1
                v = 8 * POINTS[c] - KEEP[c]
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
            s = SUIT[c]
            key = STRENGTH[c] if s == led or s == TRUMP_SUIT else -1
            if key <= best_key:
                continue
            if c < NT:
                if (follow if led == TRUMP_SUIT else ruffed) & HIGHER[c]:
                    continue
            elif ruffed or follow & HIGHER[c]:
                continue
            v = 4 * POINTS[c] - KEEP[c]
            if v > best_v:
                best_v, best_c = v, c
        if best_c >= 0:
            # Overtaking an unsure partner is worth it when there is something to save.
            if not partner_winning or tp + POINTS[best_c] >= 4 or KEEP[best_c] <= 6:
                return best_c

        # Lose (or let the partner win) as cheaply as possible.
        best_c = -1
        best_v = 10**9
        m = nonm
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            v = 8 * POINTS[c] + KEEP[c]
            if v < best_v:
                best_v, best_c = v, c
        if has_matto and POINTS[best_c] >= 3 and not (partner_winning and partner_later):
            return MATTO
        return best_c

    return policy


class _Playout(NamedTuple):
    """What a playout reads of its ruleset, unpacked into locals at its start."""

    n_seats: int
    side: Sequence[int]
    nxt: Sequence[int]
    points: Sequence[int]
    suit: Sequence[int]
    suit_mask: Sequence[int]
    trump_mask: int
    matto: int
    legal_mask: Callable[[int, int], int]
    trick_adj: int
    matto_adj: int
    matto_pts: int
    trick_winner: Callable[[Sequence[int]], int]
    policy: Policy


def _playout_tables(
    rules: Ruleset, policy: Policy, trick_winner: Callable[[Sequence[int]], int]
) -> _Playout:
    p = rules.pack
    return _Playout(
        rules.n_seats, rules.side, rules.next, p.points, p.suit, p.suit_mask, p.trump_mask,
        p.matto, rules.legal_mask, rules.trick_adjust, rules.matto_trick_adjust,
        p.points[p.matto], trick_winner, policy,
    )


def _led_suit(trick: Sequence[int], matto: int, suit: Sequence[int]) -> int:
    """The suit led in ``trick`` (NO_SUIT if none yet, or only the Matto)."""
    for c in trick:
        if c != matto:
            return suit[c]
    return NO_SUIT


def _finish_fn(
    rules: Ruleset, policy: Policy, trick_winner: Callable[[Sequence[int]], int],
    tables: Any = None,
) -> Callable[..., tuple[list[int], list[int]]]:
    """Open-hand playouts: :func:`_finish` on the tables of ``rules``; with the C
    ``tables``, in C for the C policies, in Python for any other (the lookahead
    policy is a Python function that calls the C one)."""
    t = _playout_tables(rules, policy, trick_winner)
    c_finish = tables.finish if tables is not None else None
    c_policy = native.policy_type() if tables is not None else None

    def finish(
        hands: list[int],
        leader: int,
        trick: list[int],
        pts: list[int],
        won: list[int],
        pol: Policy = policy,
        first: int = -1,
        stop: int = 0,
        at: list[int] | None = None,
    ) -> tuple[list[int], list[int]]:
        if c_finish is not None and type(pol) is c_policy:
            return c_finish(hands, leader, trick, pts, won, pol, first, stop, at)  # type: ignore[no-any-return]
        return _finish(t, hands, leader, trick, pts, won, pol, first, stop, at)

    return finish


def _finish(
    t: _Playout, hands: list[int], leader: int, trick: list[int], pts: list[int], won: list[int],
    pol: Policy, first: int, stop: int, at: list[int] | None,
) -> tuple[list[int], list[int]]:
    """Play the deal out with ``pol`` for every seat, open-handed, the seat to
    play playing ``first`` if given; ``hands``, ``trick``, ``pts`` and ``won``
    are consumed.  Returns each side's points so far (its Matto counted when
    played; the ruleset's trick terms included) and its tricks.  With
    ``stop``, the play ends at the first trick boundary (after ``first``)
    where the leader holds ``stop`` cards or fewer, the leader appended to
    ``at`` (``hands`` then holds the cards left)."""
    n_seats, side, nxt, POINTS, SUIT, _sm, _tm, MATTO, legal_mask, trick_adj, matto_adj, \
        matto_pts, trick_winner, _pol = t
    n = len(trick)
    led = _led_suit(trick, MATTO, SUIT)
    seat = (leader + n) % n_seats
    while True:
        if n == 0:
            if not hands[seat]:
                return pts, won
            if stop and first < 0 and hands[seat].bit_count() <= stop:
                assert at is not None
                at.append(seat)
                return pts, won
        while n < n_seats:
            hand = hands[seat]
            if first >= 0:
                c = first
                first = -1
            else:
                c = pol(hands, seat, leader, trick, legal_mask(hand, led))
            hands[seat] = hand & ~(1 << c)
            trick.append(c)
            if c == MATTO:
                pts[side[seat]] += matto_pts
            elif led == NO_SUIT:
                led = SUIT[c]
            n += 1
            seat = nxt[seat]
        tp = trick_adj
        for x in trick:
            tp += matto_adj if x == MATTO else POINTS[x]
        w = (leader + trick_winner(trick)) % n_seats
        pts[side[w]] += tp
        won[side[w]] += 1
        leader = seat = w
        trick = []
        n = 0
        led = NO_SUIT


def _finish_view_fn(
    rules: Ruleset, policy: Policy, trick_winner: Callable[[Sequence[int]], int]
) -> Callable[..., tuple[list[int], list[int]]]:
    """Playouts from the seats' views: :func:`_finish_view` on the tables of ``rules``."""
    t = _playout_tables(rules, policy, trick_winner)

    def finish_view(
        hands: list[int],
        leader: int,
        trick: list[int],
        pts: list[int],
        won: list[int],
        voids: Sequence[int],
        first: int = -1,
    ) -> tuple[list[int], list[int]]:
        return _finish_view(t, hands, leader, trick, pts, won, voids, first)

    return finish_view


def _finish_view(
    t: _Playout, hands: list[int], leader: int, trick: list[int], pts: list[int], won: list[int],
    voids: Sequence[int], first: int,
) -> tuple[list[int], list[int]]:
    """As :func:`_finish`, but each seat plays the rules of thumb from what it
    could know, not from every hand: its own cards, and for each other seat
    the cards still out less the suits that seat has shown void in (``voids``
    at the start, then as the playout shows them)."""
    n_seats, side, nxt, POINTS, SUIT, SUIT_MASK, TRUMP_MASK, MATTO, legal_mask, trick_adj, \
        matto_adj, matto_pts, trick_winner, policy = t
    voids = list(voids)
    ph = [0] * n_seats
    n = len(trick)
    led = _led_suit(trick, MATTO, SUIT)
    out = 0
    for h in hands:
        out |= h
    seat = (leader + n) % n_seats
    while True:
        if n == 0 and not hands[seat]:
            return pts, won
        while n < n_seats:
            hand = hands[seat]
            if first >= 0:
                c = first
                first = -1
            else:
                legal = legal_mask(hand, led)
                if legal & (legal - 1):
                    rest = out & ~hand
                    for o in range(n_seats):
                        ph[o] = rest & ~voids[o]
                    ph[seat] = hand
                    c = policy(ph, seat, leader, trick, legal)
                else:
                    c = legal.bit_length() - 1
            low = 1 << c
            hands[seat] = hand & ~low
            out &= ~low
            trick.append(c)
            if c == MATTO:
                pts[side[seat]] += matto_pts
            else:
                s = SUIT[c]
                if led == NO_SUIT:
                    led = s
                elif s != led:
                    voids[seat] |= SUIT_MASK[led] if s == TRUMP_SUIT else SUIT_MASK[led] | TRUMP_MASK
            n += 1
            seat = nxt[seat]
        tp = trick_adj
        for x in trick:
            tp += matto_adj if x == MATTO else POINTS[x]
        w = (leader + trick_winner(trick)) % n_seats
        pts[side[w]] += tp
        won[side[w]] += 1
        leader = seat = w
        trick = []
        n = 0
        led = NO_SUIT


def _final_points_fn(rules: Ruleset) -> Callable[[list[int], list[int], int, int], list[int]]:
    """Each side's points for the deal from its playout points (see below)."""
    discard_adj = rules.discard_adjust
    surrender = rules.surrender

    def final_points(pts: list[int], won: list[int], dealer_side: int, discard_pts: int) -> list[int]:
        """Each side's points for the deal: the discard to the dealer's side, then
        R11's surrender where the ruleset has it.  ``pts`` is consumed."""
        pts[dealer_side] += discard_pts + discard_adj
        if surrender:
            if won[0] == 0:
                pts[1] += pts[0]
                pts[0] = 0
            elif won[1] == 0:
                pts[0] += pts[1]
                pts[1] = 0
        return pts

    return final_points


def lookahead_policy(rules: Ruleset, weight: float) -> tuple[Policy, list[int]]:
    """:func:`_lookahead_policy` over the kernels in use (C or Python)."""
    return _lookahead_policy(rules, weight, native.active())


@cache
def _lookahead_policy(rules: Ruleset, weight: float, _use_c: bool) -> tuple[Policy, list[int]]:
    """The rules of thumb, but a lead chosen by playing the trick out: each
    candidate lead (one of a run of equal cards) is answered by the rules of
    thumb of the seats after it, and scored for the leader's side as the trick's
    points, won or lost, less ``weight`` times the keeping value (see
    :func:`keep_values`) of the cards its side spent, plus as much for the
    opponents'.  Second, third and last hand play as :attr:`Kernel.policy`.

    Returns the policy and a one-element counter of the extra cards it played
    (for a caller that meters its work; it only grows)."""
    k = kernel(rules)
    p = rules.pack
    pol = k.policy
    POINTS = p.points
    SUIT = p.suit
    HIGHER = p.higher
    n_seats = rules.n_seats
    trial = _lead_trial_fn(rules, weight)
    spent = [0]

    def policy(hands: Sequence[int], seat: int, leader: int, trick: Sequence[int], legal: int) -> int:
        if trick or not legal & (legal - 1):
            return pol(hands, seat, leader, trick, legal)
        alive = 0
        for h in hands:
            alive |= h
        best_c = -1
        best_v = -1e18
        prev = -1
        played = 0
        m = legal
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            if (
                prev >= 0
                and SUIT[prev] == SUIT[c]
                and POINTS[prev] == POINTS[c]
                and not HIGHER[prev] & ~HIGHER[c] & ~low & alive
            ):
                prev = c  # no card in play between them: the same lead
                continue
            prev = c
            v = trial(hands, seat, c)
            played += n_seats - 1
            if v > best_v:
                best_v, best_c = v, c
        spent[0] += played
        return best_c

    return policy, spent


def _lead_trial_fn(rules: Ruleset, weight: float) -> Callable[[Sequence[int], int, int], float]:
    """The score of a trial lead for :func:`lookahead_policy`: the trick played out
    by the rules of thumb, its points won or lost, less ``weight`` times the
    keeping value the leader's side spent, plus as much for the opponents'."""
    k = kernel(rules)
    pol = k.policy
    trick_winner = k.trick_winner
    POINTS = rules.pack.points
    SUIT = rules.pack.suit
    MATTO = rules.pack.matto
    KEEP = k.keep
    side = rules.side
    n_seats = rules.n_seats
    legal_mask = rules.legal_mask
    trick_adj = rules.trick_adjust
    matto_adj = rules.matto_trick_adjust

    def trial(hands: Sequence[int], seat: int, c: int) -> float:
        me = side[seat]
        hs = list(hands)
        hs[seat] &= ~(1 << c)
        t = [c]
        led = NO_SUIT if c == MATTO else SUIT[c]
        s = (seat + 1) % n_seats
        for _ in range(n_seats - 1):
            x = pol(hs, s, seat, t, legal_mask(hs[s], led))
            hs[s] &= ~(1 << x)
            t.append(x)
            if led == NO_SUIT and x != MATTO:
                led = SUIT[x]
            s = (s + 1) % n_seats
        tp = trick_adj
        for x in t:
            tp += matto_adj if x == MATTO else POINTS[x]
        v = float(tp if side[(seat + trick_winner(t)) % n_seats] == me else -tp)
        i = seat
        for x in t:
            v += -weight * KEEP[x] if side[i] == me else weight * KEEP[x]
            i = (i + 1) % n_seats
        return v

    return trial
