"""What the table shows: a position as some seats see it (pure Python, no arcade).

The play table is fed the viewer's :class:`~engine.view.SeatView` (and the
events as that seat sees them, :func:`engine.view.seat_event`); the theatre,
which may show every hand, asks for the view of each seat it shows.  A
:class:`Position` merges those views: the hands of the seats shown, the size
of every other hand, the public tables (tricks, piles, scores), and the
discard and the stock only where a shown seat dealt.  Nothing here reads an
engine ``State``, so the table cannot show a card its seats have not seen.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import NamedTuple

from engine.ruleset import Ruleset
from engine.state import DISCARD, Dealt, Discarded, Event, State
from engine.view import SeatView, seat_event, seat_view


class Position(NamedTuple):
    rules: Ruleset
    deal_no: int
    n_deals: int
    phase: int
    dealer: int
    turn: int
    leader: int
    trick: tuple[int, ...]
    #: by seat: the cards of a hand that is shown, None for a hidden one
    hands: tuple[int | None, ...]
    hand_sizes: tuple[int, ...]
    #: by side: the tricks taken (and the side's own Matto once played)
    piles: tuple[int, ...]
    tricks_won: tuple[int, ...]
    points: tuple[int, ...]  # card points in each side's pile (the engine's count so far)
    scores: tuple[tuple[int, ...], ...]
    history: tuple[tuple[int, tuple[int, ...]], ...]
    #: the dealer's discard: laid aside yet, its cards where a shown seat dealt
    discarded: bool
    discard: int | None
    discard_trumps: int  # announced (Piedicavallo) or the dealer's own; -1 unknown
    #: the stock the dealer took (Scarto), known where a shown seat deals (else 0),
    #: until the discard; ``stock_out``: it still lies face down in the middle
    stock: int = 0
    stock_out: bool = False

    @property
    def n_seats(self) -> int:
        return self.rules.n_seats

    @property
    def trick_seats(self) -> tuple[int, ...]:
        n = self.rules.n_seats
        return tuple((self.leader + i) % n for i in range(len(self.trick)))

    def shown(self, seat: int) -> bool:
        return self.hands[seat] is not None

    def hand(self, seat: int) -> int:
        """The cards of a shown hand (0 for a hidden one)."""
        h = self.hands[seat]
        return 0 if h is None else h

    @classmethod
    def of(cls, views: Sequence[SeatView]) -> Position:
        """The position seen by ``views`` (one per seat shown, of one engine state)."""
        if not views:
            raise ValueError("a position needs the view of at least one seat")
        v = views[0]
        hands: list[int | None] = [None] * v.rules.n_seats
        for w in views:
            hands[w.seat] = w.hand
        dealer_view = next((w for w in views if w.seat == v.dealer), None)
        discarded = v.deal_no > 0 and v.phase != DISCARD
        trumps = v.discard_trumps
        if dealer_view is not None:
            trumps = dealer_view.discard_trumps
        stock = dealer_view.stock if dealer_view is not None and v.phase == DISCARD else 0
        return cls(
            rules=v.rules,
            deal_no=v.deal_no,
            n_deals=v.n_deals,
            phase=v.phase,
            dealer=v.dealer,
            turn=v.turn,
            leader=v.leader,
            trick=v.trick,
            hands=tuple(hands),
            hand_sizes=v.hand_sizes,
            piles=v.piles,
            tricks_won=v.tricks_won,
            points=v.points_so_far,
            scores=v.scores,
            history=v.history,
            discarded=discarded,
            discard=(dealer_view.discard if dealer_view is not None and discarded else None),
            discard_trumps=trumps if discarded else -1,
            stock=stock,
        )

    @property
    def stock_count(self) -> int:
        """Cards lying in the middle as the stock (0 once the dealer took it)."""
        return self.rules.stock_cards if self.stock_out else 0

    def with_stock_out(self) -> Position:
        """The moment after the deal when the stock still lies in the middle: the
        dealer's hand without it (S4).  The same position where there is no stock."""
        k = self.rules.stock_cards
        if not k or self.phase != DISCARD or self.dealer < 0:
            return self
        d = self.dealer
        sizes = list(self.hand_sizes)
        sizes[d] -= k
        hands = list(self.hands)
        held = hands[d]
        if held is not None:
            hands[d] = held & ~self.stock
        return self._replace(hand_sizes=tuple(sizes), hands=tuple(hands), stock_out=True, turn=-1)


def seen_by(state: State, seats: Collection[int]) -> Position:
    """The position of an engine state as ``seats`` see it, through the engine's
    own filter (:func:`engine.view.seat_view`): the play table asks for its
    viewer's seat, the theatre for every seat whose hand it shows."""
    return Position.of([seat_view(state, s) for s in sorted(seats)])


def seen_event(event: Event, seats: Collection[int], rules: Ruleset) -> Event:
    """``event`` as ``seats`` together see it (the engine's
    :func:`~engine.view.seat_event`, for several seats at once): a deal shows
    their hands (and the stock if one of them deals), a discard its cards if one
    of them laid it aside."""
    shown = frozenset(seats)
    if len(shown) >= rules.n_seats:
        return event
    if isinstance(event, Dealt):
        hands = tuple(h if s in shown else 0 for s, h in enumerate(event.hands))
        return Dealt(event.dealer, hands, event.cut, event.stock if event.dealer in shown else 0)
    if isinstance(event, Discarded) and event.seat in shown:
        return event
    # any seat shown sees what every seat shown sees of the other events
    viewer = min(shown) if shown else (getattr(event, "seat", 0) + 1) % rules.n_seats
    return seat_event(event, viewer, rules)


__all__ = ["Position", "seen_by", "seen_event"]
