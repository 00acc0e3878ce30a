"""How a deal's points are made up, for the scoring scene and the deal review.

The ruleset's :meth:`~engine.ruleset.Ruleset.score` is the authority on the
totals; :func:`breakdown` splits them into the parts a player wants to see, from
the same additive terms and the same public fields (a finished deal's tricks,
piles, dealer and discard, which a full state and a seat's view both hold), and
checks that the parts add up to the ruleset's figures.  Piedicavallo: the card points of the tricks, the side's own Matto,
the dealer's discard and R11's sweep.  Scarto: the pile counted in threes, each
trick a group worth its points less 2, the Matto's trick a group of two worth
its points plus 1 less 2, the Matto alone at 4, the dealer's discard a group of
its own, and the deal score (count less 26).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card
from .ruleset import Ruleset
from .state import State, trick_winners_of
from .view import SeatView

#: kinds of :class:`Group`
TRICK, MATTO_TRICK, DISCARD, MATTO = "trick", "matto_trick", "discard", "matto"


@dataclass(frozen=True, slots=True)
class Group:
    """Cards counted together: a trick taken, the dealer's discard, or the Matto."""

    kind: str
    cards: tuple[Card, ...]
    points: int  # the card points of ``cards``
    value: int  # what the group adds to the side's count (points plus the adjustment)
    trick: int = -1  # index of the trick in the deal, for TRICK and MATTO_TRICK


@dataclass(frozen=True, slots=True)
class SideScore:
    side: int
    seats: tuple[int, ...]
    tricks_won: int
    tricks: int  # card points of the cards taken in tricks (the Matto not counted)
    matto: int  # the side's own Matto
    discard: int  # card points of the dealer's discard (the dealer's side only)
    adjust: int  # the ruleset's terms: -2 a group, +1 for the group of two (Scarto)
    sweep: int  # R11: what a side with no trick surrenders (negative) or receives
    total: int  # = the ruleset's score for the side
    deal_score: int  # total less the par (Scarto: count - 26; Piedicavallo: = total)
    groups: tuple[Group, ...]


def _groups(rules: Ruleset, tricks: Sequence[tuple[int, tuple[Card, ...]]], piles: Sequence[int],
            dealer: int, discard: int) -> list[list[Group]]:
    """Each side's groups of cards in a finished deal: its tricks (with their
    ruleset adjustment), its Matto, the dealer's side's discard."""
    p = rules.pack
    mp = p.mask_points
    winners = trick_winners_of(rules, tricks)
    groups: list[list[Group]] = [[] for _ in range(rules.n_sides)]
    for i, ((_leader, cards), w) in enumerate(zip(tricks, winners, strict=True)):
        taken = tuple(c for c in cards if c != p.matto)
        pts = sum(p.points[c] for c in taken)
        has_matto = len(taken) < len(cards)
        adj = rules.trick_adjust + (rules.matto_trick_adjust if has_matto else 0)
        kind = MATTO_TRICK if has_matto else TRICK
        groups[rules.side[w]].append(Group(kind, taken, pts, pts + adj, i))
    for s in range(rules.n_sides):
        if piles[s] & p.matto_mask:
            groups[s].append(Group(MATTO, (p.matto,), p.points[p.matto], p.points[p.matto]))
    dside = rules.side[dealer]
    if discard:
        cards = tuple(sorted(c for c in range(p.n_cards) if discard >> c & 1))
        d = mp(discard)
        groups[dside].append(Group(DISCARD, cards, d, d + rules.discard_adjust))
    return groups


def breakdown(rules: Ruleset, tricks: Sequence[tuple[int, tuple[Card, ...]]],
              piles: Sequence[int], tricks_won: Sequence[int], dealer: int,
              discard: int) -> tuple[SideScore, ...]:
    """The parts of each side's points in a deal whose 15 (25) tricks are taken,
    from what is public once it is over: the tricks ((leader, cards) in play
    order), each side's pile and tricks, the dealer and the discard (which the
    scoring scene turns face up)."""
    groups = _groups(rules, tricks, piles, dealer, discard)
    parts = []
    for s in range(rules.n_sides):
        g = groups[s]
        taken = sum(x.points for x in g if x.kind in (TRICK, MATTO_TRICK))
        matto = sum(x.points for x in g if x.kind == MATTO)
        dpoints = sum(x.points for x in g if x.kind == DISCARD)
        adjust = sum(x.value - x.points for x in g)
        parts.append([taken, matto, dpoints, adjust])
    sweep = [0] * rules.n_sides
    if rules.surrender:
        for t in (0, 1):
            if tricks_won[t] == 0:
                moved = sum(parts[t])
                sweep[t] -= moved
                sweep[1 - t] += moved
    engine_points = rules.score(piles, tricks_won, dealer, discard)
    out = []
    for s, (taken, matto, dpoints, adjust) in enumerate(parts):
        total = taken + matto + dpoints + adjust + sweep[s]
        out.append(
            SideScore(
                side=s,
                seats=tuple(x for x in range(rules.n_seats) if rules.side[x] == s),
                tricks_won=tricks_won[s],
                tricks=taken,
                matto=matto,
                discard=dpoints,
                adjust=adjust,
                sweep=sweep[s],
                total=total,
                deal_score=total - rules.par,
                groups=tuple(groups[s]),
            )
        )
    got = tuple(x.total for x in out)
    if got != engine_points:  # pragma: no cover - the two are one model
        raise AssertionError(f"breakdown {got} disagrees with the ruleset's score {engine_points}")
    return tuple(out)


def state_breakdown(state: State) -> tuple[SideScore, ...]:
    """:func:`breakdown` of the deal just played in ``state``."""
    return breakdown(state.rules, state.tricks, state.piles, state.tricks_won, state.dealer,
                     state.discard)


def view_breakdown(view: SeatView) -> tuple[SideScore, ...]:
    """:func:`breakdown` from one seat's view at the end of a deal (every trick
    taken): a client that holds only its seat's view builds the same sheet.  The
    discard is then known to every seat by elimination (the only cards in no
    pile and no hand), so nothing hidden is needed."""
    rules = view.rules
    if view.trick_no != rules.n_tricks:
        raise ValueError("a deal's breakdown is known once its last trick is taken")
    return breakdown(rules, view.history, view.piles, view.tricks_won, view.dealer,
                     view.discard | view.unseen)
