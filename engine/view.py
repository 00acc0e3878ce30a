"""What one seat may know (boardgame.io's playerView, OpenSpiel's information state).

A :class:`SeatView` holds the seat's own hand, the cards everyone has played and
the tricks they made, the public trump count of the discard, and (for the dealer
only) the discarded cards.  AI players and the table receive views, never a
:class:`~engine.state.State`.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import NamedTuple

from .cards import MATTO, TRUMP_MASK, Card, mask_points
from .rules import TEAM, led_suit, legal_discards, legal_mask
from .state import DISCARD, PLAY, Command, Discard, Play, State


class SeatView(NamedTuple):
    seat: int
    seed: int  # this seat's private seed for its decisions; see :func:`seat_seed`
    n_deals: int
    phase: int
    deal_no: int
    dealer: int
    hand: int
    discard: int  # the discarded cards, known to the dealer only (0 for others)
    discard_trumps: int  # public: how many trumps the dealer laid aside (-1 before)
    turn: int
    leader: int
    trick: tuple[Card, ...]
    trick_no: int
    hand_sizes: tuple[int, int, int, int]
    played: tuple[int, int, int, int]
    piles: tuple[int, int]
    tricks_won: tuple[int, int]
    scores: tuple[tuple[int, int], ...]
    history: tuple[tuple[int, tuple[Card, ...]], ...]  # (leader, cards) of past tricks

    @property
    def team(self) -> int:
        return TEAM[self.seat]

    @property
    def unseen(self) -> int:
        """Cards this seat has not seen: in other hands or (for non-dealers) the discard."""
        from .cards import ALL_MASK

        known = self.hand | self.discard
        for p in self.played:
            known |= p
        return ALL_MASK & ~known

    def legal(self) -> list[Command]:
        """The seat's legal commands, by the same rule functions the engine uses."""
        if self.turn != self.seat:
            return []
        if self.phase == PLAY:
            mask = legal_mask(self.hand, led_suit(self.trick))
            out: list[Command] = []
            while mask:
                low = mask & -mask
                out.append(Play(self.seat, low.bit_length() - 1))
                mask ^= low
            return out
        if self.phase == DISCARD:
            res: list[Command] = []
            for pair in legal_discards(self.hand):
                low = pair & -pair
                res.append(
                    Discard(self.seat, (low.bit_length() - 1, (pair ^ low).bit_length() - 1))
                )
            return res
        return []

    def voids(self) -> tuple[int, int, int, int]:
        """Per seat, a mask of cards it cannot hold, inferred from its plays (R7):
        not following means void in the led suit; also not trumping means no trumps."""
        from .cards import SUIT, SUIT_MASK

        out = [0, 0, 0, 0]
        tricks = [*self.history, (self.leader, self.trick)]
        for leader, cards in tricks:
            led = -1
            for i, c in enumerate(cards):
                seat = (leader + i) & 3
                if c == MATTO:
                    continue
                if led == -1:
                    led = SUIT[c]
                    continue
                if SUIT[c] != led:
                    out[seat] |= SUIT_MASK[led]
                    if SUIT[c] != 4:
                        out[seat] |= TRUMP_MASK
        return out[0], out[1], out[2], out[3]

    @property
    def points_so_far(self) -> tuple[int, int]:
        return mask_points(self.piles[0]), mask_points(self.piles[1])


@lru_cache(maxsize=64)
def seat_seed(game_seed: int, seat: int) -> int:
    """A seed for the seat's own decisions, derived one way from the game seed.

    The game seed itself determines every deal, so it must never be in a view;
    BLAKE2b cannot be run backwards to recover it."""
    digest = hashlib.blake2b(f"{game_seed}:{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") >> 1


def seat_view(state: State, seat: int) -> SeatView:
    """The view of ``state`` from ``seat``."""
    hs = state.hands
    return SeatView(
        seat=seat,
        seed=seat_seed(state.seed, seat),
        n_deals=state.n_deals,
        phase=state.phase,
        deal_no=state.deal_no,
        dealer=state.dealer,
        hand=hs[seat],
        discard=state.discard if seat == state.dealer else 0,
        discard_trumps=state.discard_trumps,
        turn=state.turn,
        leader=state.leader,
        trick=state.trick,
        trick_no=state.trick_no,
        hand_sizes=(hs[0].bit_count(), hs[1].bit_count(), hs[2].bit_count(), hs[3].bit_count()),
        played=state.played,
        piles=state.piles,
        tricks_won=state.tricks_won,
        scores=state.scores,
        history=state.tricks,
    )
