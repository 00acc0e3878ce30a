"""The natural-card tie-break of the searching levels (medium, hard, the hint).

A sampled search often scores several cards alike: giving a King to the
partner's sure trick or keeping it, taking a trick with trump 3 or trump 18.
Their values then differ by the noise of the sampled deals, and the card
played would fall on whichever the noise favours, or on the order of the
candidates: a choice any watcher sees is wrong.  Here the cards whose value is
within the search's measured noise of the best are *ties*, and among them the
seat plays the card the rules of thumb (:mod:`engine.ai.fast`) choose from its
own view, the easy level's card without its slips: points onto the partner's
sure trick, the cheapest sure winner, the cheapest card lost, never a 5-point
card thrown away while a cheaper one is legal.  A card the search prefers by
more than its noise keeps its place.

The noise is the standard error of the paired difference between the best
card's mean value and another's, over the same sampled deals (with their
weights): a candidate is a tie when it trails the best by at most ``z`` such
standard errors plus ``margin`` points.  Only the seat's view is used (the
rules of thumb get the cards each other seat *may* hold, never the deal).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from ..cards import mask_cards
from ..view import SeatView
from .fast import kernel
from .worlds import known_of

#: Defaults: ties are within this many standard errors of the paired difference ...
TIE_Z = 2.0
#: ... plus this many points (exact solves give equal values: no noise at all),
TIE_MARGIN = 0.05
#: or this many at the last card of a trick (see :func:`tie_width`).
LAST_MARGIN = 2.0
#: At the last card, the points by which the search must prefer overtaking the
#: partner's trick to the best card that does not (see :func:`spare_partner`).
OVERTAKE_MARGIN = 10.0


def natural_card(view: SeatView, cards: int) -> int:
    """The card of ``cards`` (a non-empty mask of legal cards) that the rules of
    thumb play from the seat's view; but as the last to play to a trick its
    partner wins, never a trump that beats the partner's card where a card other
    than the Matto that does not is among ``cards`` (the rules of thumb's feed
    would give trump 21 to the partner's sure trick: the points are the side's
    either way, the control is lost)."""
    rules = view.rules
    kn = known_of(view)
    hands = list(kn.allowed)
    hands[view.seat] = view.hand
    policy = kernel(rules).policy
    trick = view.trick
    card = policy(hands, view.seat, view.leader, trick, cards)
    n = rules.n_seats
    if len(trick) != n - 1 or rules.n_sides == n:
        return card
    over = 0
    rest = cards & ~rules.pack.matto_mask
    for c in mask_cards(rest & rules.pack.trump_mask):
        if overtakes(view, c):
            over |= 1 << c
    if over >> card & 1 and rest & ~over:
        card = policy(hands, view.seat, view.leader, trick, cards & ~over)
    return card


def overtakes(view: SeatView, card: int) -> bool:
    """Whether ``card``, played by the seat as the last card of the trick on the
    table, is a trump that takes from the seat's partner a trick the partner
    would take (partners only; the engine's
    :meth:`~engine.ruleset.Ruleset.trick_winner_index` decides who takes it)."""
    rules = view.rules
    n = rules.n_seats
    trick = view.trick
    if len(trick) != n - 1 or rules.n_sides == n or card == rules.pack.matto:
        return False
    if not rules.pack.trump_mask >> card & 1:
        return False
    w = (view.leader + rules.trick_winner_index(trick)) % n
    if rules.side[w] != rules.side[view.seat]:
        return False
    return rules.trick_winner_index([*trick, card]) == n - 1


def tie_width(
    view: SeatView, early_z: float, margin: float, z: float, last_margin: float
) -> tuple[float, float]:
    """(standard errors, points) within which cards are ties: ``z`` and
    ``last_margin`` at the last card of a trick (everything that decides the
    trick is on the table, and the open-handed playouts overvalue keeping a high
    card that a human partner would give), ``early_z`` and ``margin`` before it."""
    if len(view.trick) == view.rules.n_seats - 1:
        return z, last_margin
    return early_z, margin


def tied_indices(
    weights: Sequence[float],
    rows: Sequence[Mapping[int, int] | Sequence[float]],
    idx: Sequence[int],
    z: float = TIE_Z,
    margin: float = TIE_MARGIN,
) -> list[int]:
    """Of the candidates ``idx`` (indices into each row), those within ``z``
    standard errors of the paired difference plus ``margin`` of the best by
    weighted mean, the best first.  ``rows`` are values per sampled deal,
    ``weights`` the deals' weights."""
    if len(idx) < 2 or not rows:
        return list(idx[:1])
    tot = sum(weights)
    if tot <= 0:
        return list(idx[:1])
    means = {i: sum(w * r[i] for w, r in zip(weights, rows, strict=True)) / tot for i in idx}
    best = max(idx, key=lambda i: (means[i], -i))
    out = [best]
    for i in idx:
        if i == best:
            continue
        gap = means[best] - means[i]
        var = 0.0
        for w, r in zip(weights, rows, strict=True):
            d = r[best] - r[i] - gap
            var += w * w * d * d
        if gap <= z * math.sqrt(var) / tot + margin:
            out.append(i)
    return out


def natural_first(
    view: SeatView, vals: list[tuple[int, float]], ties: Sequence[int]
) -> list[tuple[int, float]]:
    """``vals`` (cards with values, best first) with the natural card of
    ``ties`` (cards) moved to the front (with two ties or more), then the hard
    rule of :func:`spare_fives` and the margin of :func:`spare_partner` applied."""
    if len(ties) >= 2:
        mask = 0
        for c in ties:
            mask |= 1 << c
        pick = natural_card(view, mask)
        vals = sorted(vals, key=lambda t: t[0] != pick)
    return spare_partner(view, spare_fives(view, vals))


def thrown_five(view: SeatView, card: int) -> bool:
    """Whether ``card``, played by the seat as the last card of the trick on
    the table, is a 5-point card (R4: a King, trump 1 or trump 21; S3: a King,
    trump 1 or trump 20) left in a trick an opponent takes (the engine's
    :meth:`~engine.ruleset.Ruleset.trick_winner_index` decides who takes it).
    The Matto is never one: it is not captured (R9, S5)."""
    rules = view.rules
    p = rules.pack
    n = rules.n_seats
    trick = view.trick
    if len(trick) != n - 1 or card == p.matto or p.points[card] != 5:
        return False
    w = (view.leader + rules.trick_winner_index([*trick, card])) % n
    return rules.side[w] != rules.side[view.seat]


def spare_fives(view: SeatView, vals: list[tuple[int, float]]) -> list[tuple[int, float]]:
    """A hard rule at the last card of a trick, whatever the search says: never
    throw a 5-point card into a trick an opponent takes (:func:`thrown_five`)
    while a legal card other than the Matto worth fewer points is among
    ``vals`` (every legal card with its value, best first).  The search's best
    card that is not such a throw then comes first; otherwise ``vals`` is
    unchanged.

    The search can truly prefer the throw: with trump 1 and trump 16 left on
    the opponents' trump 17 (medium, Piedicavallo seed 199) trump 1 is lost in a
    later trick either way, and keeping trump 16 was worth 7.25 points more in
    its exact solves.  Any watcher sees a 5-point card given away, though, and
    a player should never see one: the rule costs about 7 points once in 200
    deals (medium's self-play count; 0.04 points a deal)."""
    if not vals or not thrown_five(view, vals[0][0]):
        return vals
    p = view.rules.pack
    if not any(c != p.matto and p.points[c] < 5 for c, _v in vals):
        return vals
    return sorted(vals, key=lambda t: thrown_five(view, t[0]))


def spare_partner(
    view: SeatView, vals: list[tuple[int, float]], margin: float = OVERTAKE_MARGIN
) -> list[tuple[int, float]]:
    """At the last card of a trick the partner takes, the search's best card
    overtakes the partner (:func:`overtakes`) only when it beats every legal
    card other than the Matto that does not by more than ``margin`` points:
    otherwise the best of those comes first.  ``vals``: every legal card with
    its value, best first; returned unchanged when nothing is to be spared.

    Everything that decides the trick is on the table there, and a player sees
    a trump spent on a trick the side already has.  The search can still prefer
    it, for the lead it wins: in a 200-deal match against medium (hard at 1 s,
    seed 41) it did twice in 84 chances, by 4.1 and 9.1 points, each more than
    the tie-break's noise and 2-point margin; easy's rate is 1 in 57."""
    if not vals or not overtakes(view, vals[0][0]):
        return vals
    matto = view.rules.pack.matto
    best = vals[0][1]
    for i, (c, v) in enumerate(vals):
        if c != matto and not overtakes(view, c):
            if best - v <= margin:
                return [vals[i], *vals[:i], *vals[i + 1:]]
            return vals
    return vals
