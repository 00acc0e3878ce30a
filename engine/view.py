"""What one seat may know (boardgame.io's playerView, OpenSpiel's information state).

A :class:`SeatView` holds the seat's own hand, the cards everyone has played and
the tricks they made, the public facts of the discard (Piedicavallo announces
how many trumps it holds), and, for the dealer only, the stock it took and the
discarded cards.  AI players and the table receive views, never a
:class:`~engine.state.State`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from .cards import TRUMP_SUIT, Card
from .ruleset import Ruleset
from .state import (
    DEAL,
    DISCARD,
    OVER,
    PLAY,
    CardPlayed,
    Command,
    DealScored,
    Dealt,
    Discarded,
    DiscardList,
    Event,
    State,
    TrickTaken,
    new_game,
    plays_list,
    trick_taken_fields,
)


class SeatView(NamedTuple):
    seat: int
    seed: int  # this seat's private seed for its decisions; see :func:`seat_seed`
    n_deals: int
    phase: int
    deal_no: int
    dealer: int
    hand: int
    discard: int  # the discarded cards, known to the dealer only (0 for others)
    discard_trumps: int  # trumps in the discard: public if announced, else dealer only (-1)
    turn: int
    leader: int
    trick: tuple[Card, ...]
    trick_no: int
    hand_sizes: tuple[int, ...]
    played: tuple[int, ...]
    piles: tuple[int, ...]
    tricks_won: tuple[int, ...]
    scores: tuple[tuple[int, ...], ...]
    history: tuple[tuple[int, tuple[Card, ...]], ...]  # (leader, cards) of past tricks
    rules: Ruleset
    stock: int = 0  # the stock the dealer took, known to the dealer only

    @property
    def team(self) -> int:
        """The seat's side (its team, or itself where each plays alone)."""
        return self.rules.side[self.seat]

    @property
    def unseen(self) -> int:
        """Cards this seat has not seen: in other hands or (for non-dealers) the discard."""
        known = self.hand | self.discard
        for p in self.played:
            known |= p
        return self.rules.pack.all_mask & ~known

    def legal(self) -> Sequence[Command]:
        """The seat's legal commands, by the same rule functions the engine uses."""
        if self.turn != self.seat:
            return []
        rules = self.rules
        if self.phase == PLAY:
            return plays_list(rules, self.seat, rules.legal_mask(self.hand, rules.led_suit(self.trick)))
        if self.phase == DISCARD:
            return DiscardList(self.seat, rules.legal_discards(self.hand))
        return []

    def legal_mask(self) -> int:
        """The cards the seat may play now (0 when it is not to play)."""
        if self.turn != self.seat or self.phase != PLAY:
            return 0
        return self.rules.legal_mask(self.hand, self.rules.led_suit(self.trick))

    def voids(self) -> tuple[int, ...]:
        """Per seat, a mask of cards it cannot hold, inferred from its plays (R7, S5):
        not following means void in the led suit; also not trumping means no trumps."""
        rules = self.rules
        p = rules.pack
        n = rules.n_seats
        out = [0] * n
        tricks = [*self.history, (self.leader, self.trick)]
        for leader, cards in tricks:
            led = -1
            for i, c in enumerate(cards):
                seat = (leader + i) % n
                if c == p.matto:
                    continue
                if led == -1:
                    led = p.suit[c]
                    continue
                if p.suit[c] != led:
                    out[seat] |= p.suit_mask[led]
                    if p.suit[c] != TRUMP_SUIT:
                        out[seat] |= p.trump_mask
        return tuple(out)

    @property
    def points_so_far(self) -> tuple[int, ...]:
        mp = self.rules.pack.mask_points
        return tuple(mp(p) for p in self.piles)


@lru_cache(maxsize=64)
def seat_seed(game_seed: int, seat: int) -> int:
    """A seed for the seat's own decisions, derived one way from the game seed.

    The game seed itself determines every deal, so it must never be in a view;
    BLAKE2b cannot be run backwards to recover it."""
    digest = hashlib.blake2b(f"{game_seed}:{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") >> 1


#: the "seat" of a spectator: no hand, no private seed, only what is public
SPECTATOR = -1


def seat_view(state: State, seat: int) -> SeatView:
    """The view of ``state`` from ``seat`` (:data:`SPECTATOR`: the public view)."""
    hs = state.hands
    rules = state.rules
    if seat == SPECTATOR:
        return _public_view(state)
    dealer = seat == state.dealer
    return SeatView(
        seat=seat,
        seed=seat_seed(state.seed, seat),
        n_deals=state.n_deals,
        phase=state.phase,
        deal_no=state.deal_no,
        dealer=state.dealer,
        hand=hs[seat],
        discard=state.discard if dealer else 0,
        discard_trumps=state.discard_trumps if dealer or rules.announces_discard_trumps else -1,
        turn=state.turn,
        leader=state.leader,
        trick=state.trick,
        trick_no=state.trick_no,
        hand_sizes=tuple(h.bit_count() for h in hs),
        played=state.played,
        piles=state.piles,
        tricks_won=state.tricks_won,
        scores=state.scores,
        history=state.tricks,
        rules=rules,
        stock=state.stock if dealer else 0,
    )


def seat_event(event: Event, seat: int, rules: Ruleset) -> Event:
    """``event`` as ``seat`` sees it: a deal shows only its own hand (and the stock
    to the dealer, who takes it), a discard its cards only to the dealer, and its
    trump count only where the game announces it.  Other events are public."""
    if type(event) is Dealt:
        hands = tuple(h if s == seat else 0 for s, h in enumerate(event.hands))
        return Dealt(event.dealer, hands, event.cut, event.stock if seat == event.dealer else 0)
    if type(event) is Discarded and seat != event.seat:
        return Discarded(event.seat, 0, event.trumps if rules.announces_discard_trumps else -1)
    return event


def _public_view(state: State) -> SeatView:
    """What anyone watching may know: no hand, no discard, no stock, no seed."""
    v = seat_view(state, state.dealer if state.dealer >= 0 else 0)
    return v._replace(
        seat=SPECTATOR,
        seed=0,
        hand=0,
        discard=0,
        stock=0,
        discard_trumps=state.discard_trumps if state.rules.announces_discard_trumps else -1,
    )


def initial_view(seed: int, n_deals: int, rules: Ruleset, seat: int) -> SeatView:
    """A seat's view of the empty table before the first deal (``seed`` is the
    game's seed; only its one-way :func:`seat_seed` goes in the view)."""
    v = seat_view(new_game(seed, n_deals, rules), seat)
    return v._replace(seed=0) if seat == SPECTATOR else v


def _put(t: tuple[int, ...], i: int, v: int) -> tuple[int, ...]:
    return (*t[:i], v, *t[i + 1 :])


def _after_card(view: SeatView, event: CardPlayed) -> SeatView:
    """A card played: out of its hand, onto the trick (the Matto onto its side's pile)."""
    rules = view.rules
    seat = view.seat
    s, card = event.seat, event.card
    bit = 1 << card
    piles = view.piles
    if card == rules.pack.matto:
        side = rules.side[s]
        piles = _put(piles, side, piles[side] | bit)
    trick = (*view.trick, card)
    return view._replace(
        hand=view.hand & ~bit if s == seat else view.hand,
        hand_sizes=_put(view.hand_sizes, s, view.hand_sizes[s] - 1),
        played=_put(view.played, s, view.played[s] | bit),
        piles=piles,
        trick=trick,
        turn=rules.next[s] if len(trick) < rules.n_seats else -1,
    )


def _after_discard(view: SeatView, event: Discarded) -> SeatView:
    """The dealer's discard: only the dealer sees its cards."""
    rules = view.rules
    seat = view.seat
    own = event.seat == seat
    return view._replace(
        hand=view.hand & ~event.cards if own else view.hand,
        hand_sizes=_put(view.hand_sizes, event.seat,
                        view.hand_sizes[event.seat] - rules.discard_cards),
        discard=event.cards if own else 0,
        discard_trumps=event.trumps,
        phase=PLAY,
        turn=view.leader,
    )


def _after_dealt(view: SeatView, event: Dealt) -> SeatView:
    """A new deal: the seat's own hand (and the stock, to the dealer)."""
    rules = view.rules
    seat = view.seat
    d = event.dealer
    sizes = tuple(rules.dealt_cards(s, d) + (rules.stock_cards if s == d else 0)
                  for s in range(rules.n_seats))
    mine = event.hands[seat] if 0 <= seat < rules.n_seats else 0
    return view._replace(
        phase=DISCARD,
        deal_no=view.deal_no + 1,
        dealer=d,
        hand=mine | (event.stock if seat == d else 0),
        hand_sizes=sizes,
        stock=event.stock if seat == d else 0,
        discard=0,
        discard_trumps=-1,
        turn=d,
        leader=rules.next[d],
        trick=(),
        trick_no=0,
        piles=(0,) * rules.n_sides,
        tricks_won=(0,) * rules.n_sides,
        played=(0,) * rules.n_seats,
        history=(),
    )


def advance(view: SeatView, event: Event) -> SeatView:
    """The view after ``event`` as its seat saw it (:func:`seat_event`).

    The fold of the seat's events from :func:`initial_view` equals
    :func:`seat_view` of the state after the same events (a test checks it at
    every step of random games): a client that receives only its seat's events
    rebuilds exactly what that seat may know, and nothing else.  Trusts its
    input, like :func:`engine.state.apply`."""
    rules = view.rules
    if type(event) is CardPlayed:
        return _after_card(view, event)
    if type(event) is TrickTaken:
        return view._replace(
            **trick_taken_fields(rules, event, view.trick_no, view.piles, view.tricks_won),
            history=(*view.history, (view.leader, event.cards)),
        )
    if type(event) is Discarded:
        return _after_discard(view, event)
    if type(event) is DealScored:
        scores = (*view.scores, event.points)
        return view._replace(
            scores=scores, phase=OVER if len(scores) >= view.n_deals else DEAL, turn=-1
        )
    if type(event) is Dealt:
        return _after_dealt(view, event)
    raise TypeError(f"not an event: {event!r}")
