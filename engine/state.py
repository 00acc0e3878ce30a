"""The event-sourced core: commands are decided into events, events are applied to
immutable states, and a game is the fold of ``apply`` over its log.

``decide(state, command)`` is the one place that validates (it raises
:class:`IllegalMove` naming the rule); ``apply(state, event)`` trusts its input.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .cards import CODES, MATTO, MATTO_MASK, SUIT_NAMES, TRUMP_MASK, Card, mask_points
from .rng import Rng, mix64
from .rules import (
    N_TRICKS,
    TEAM,
    deal_hands,
    discard_error,
    led_suit,
    legal_discards,
    legal_mask,
    play_error,
    score_deal,
    trick_winner_index,
)

# Phases
DEAL, DISCARD, PLAY, OVER = 0, 1, 2, 3
PHASE_NAMES = ("deal", "discard", "play", "over")


# --- Commands (imperative) -------------------------------------------------------


@dataclass(frozen=True, slots=True, order=True)
class Discard:
    """The dealer lays two cards aside (R6); ``cards`` in ascending order."""

    seat: int
    cards: tuple[Card, Card]

    def __str__(self) -> str:
        return f"seat {self.seat} discards {CODES[self.cards[0]]} {CODES[self.cards[1]]}"


@dataclass(frozen=True, slots=True, order=True)
class Play:
    """A seat plays one card to the current trick (R7-R9)."""

    seat: int
    card: Card

    def __str__(self) -> str:
        return f"seat {self.seat} plays {CODES[self.card]}"


Command = Discard | Play

#: Commands are immutable, so one instance per (seat, card) serves every state.
PLAYS: tuple[tuple[Play, ...], ...] = tuple(tuple(Play(s, c) for c in range(62)) for s in range(4))


# --- Events (past-tense facts) ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class Dealt:
    """A new deal: the dealer and the four hands (masks, by seat); ``cut`` is where
    the pack was cut (for the table's animation; not needed to replay)."""

    dealer: int
    hands: tuple[int, int, int, int]
    cut: int = 0


@dataclass(frozen=True, slots=True)
class Discarded:
    seat: int
    cards: int  # a 2-card mask
    trumps: int  # announced: how many of them are trumps (public)


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TrickTaken:
    winner: int
    cards: tuple[Card, Card, Card, Card]  # in play order


@dataclass(frozen=True, slots=True)
class DealScored:
    points: tuple[int, int]


Event = Dealt | Discarded | CardPlayed | TrickTaken | DealScored

CARDS_PLAYED: tuple[tuple[CardPlayed, ...], ...] = tuple(
    tuple(CardPlayed(s, c) for c in range(62)) for s in range(4)
)


class IllegalMove(ValueError):
    """A command (or a replayed event) that breaks a rule; ``str`` cites the rule."""

    def __init__(self, message: str, rule: str = "") -> None:
        if rule and f"({rule})" not in message:
            message = f"{message} ({rule})"
        super().__init__(message)
        self.rule = rule


# --- State -----------------------------------------------------------------------


class State(NamedTuple):
    """One position of a game (a single deal or a match of ``n_deals`` deals).

    Immutable; every field is an int or a tuple of ints, so states compare and hash
    by value.  Hands and piles are card masks.
    """

    seed: int
    n_deals: int
    phase: int = DEAL
    deal_no: int = 0  # deals started so far
    dealer: int = -1
    hands: tuple[int, int, int, int] = (0, 0, 0, 0)
    discard: int = 0
    discard_trumps: int = -1  # announced count, -1 before the discard
    turn: int = -1  # seat to act, -1 when no seat acts (dealing, over)
    leader: int = -1
    trick: tuple[Card, ...] = ()  # cards of the current trick, in play order
    trick_no: int = 0  # tricks completed in this deal
    piles: tuple[int, int] = (0, 0)  # captured cards, plus each team's own Matto
    tricks_won: tuple[int, int] = (0, 0)
    played: tuple[int, int, int, int] = (0, 0, 0, 0)  # cards each seat has played
    scores: tuple[tuple[int, int], ...] = ()  # points of each finished deal
    tricks: tuple[tuple[int, tuple[Card, ...]], ...] = ()  # (leader, cards) this deal

    @property
    def totals(self) -> tuple[int, int]:
        return (sum(s[0] for s in self.scores), sum(s[1] for s in self.scores))

    @property
    def points_so_far(self) -> tuple[int, int]:
        """Card points in each team's pile in the current deal (discard not counted)."""
        return mask_points(self.piles[0]), mask_points(self.piles[1])

    @property
    def trick_seats(self) -> tuple[int, ...]:
        return tuple((self.leader + i) & 3 for i in range(len(self.trick)))


_HANDS = State._fields.index("hands")
_PLAYED = State._fields.index("played")
_PILES = State._fields.index("piles")
_TRICK = State._fields.index("trick")
_TURN = State._fields.index("turn")


def new_game(seed: int, n_deals: int = 1) -> State:
    """The empty table before the first deal."""
    if n_deals not in (1, 4):
        raise ValueError("a game is a single deal or a match of four deals (R13)")
    return State(seed=seed, n_deals=n_deals)


def first_dealer(seed: int) -> int:
    """R13: the first dealer is drawn at random (from the game's seed)."""
    return Rng(mix64(seed, 0xDEA1)).below(4)


def next_deal(state: State) -> Dealt:
    """The chance event of the next deal, drawn from the game seed (R5, R13)."""
    if state.phase != DEAL:
        raise IllegalMove("no deal is due now", "R5")
    dealer = first_dealer(state.seed) if state.deal_no == 0 else (state.dealer + 1) & 3
    hands, cut = deal_hands(Rng(mix64(state.seed, state.deal_no)), dealer)
    return Dealt(dealer, hands, cut)


# --- Legal commands --------------------------------------------------------------


def legal_commands(state: State) -> list[Command]:
    """Every legal command, sorted; empty when no seat acts."""
    if state.phase == PLAY:
        plays = PLAYS[state.turn]
        mask = legal_mask(state.hands[state.turn], led_suit(state.trick))
        out: list[Command] = []
        while mask:
            low = mask & -mask
            out.append(plays[low.bit_length() - 1])
            mask ^= low
        return out
    if state.phase == DISCARD:
        seat = state.dealer
        out = []
        for pair in legal_discards(state.hands[seat]):
            low = pair & -pair
            out.append(Discard(seat, (low.bit_length() - 1, (pair ^ low).bit_length() - 1)))
        return out
    return []


# --- decide ----------------------------------------------------------------------


def decide(state: State, command: Command) -> list[Event]:
    """Validate ``command`` against ``state`` and return the events it causes."""
    if isinstance(command, Play):
        return _decide_play(state, command.seat, command.card)
    if isinstance(command, Discard):
        return _decide_discard(state, command.seat, command.cards)
    raise IllegalMove(f"unknown command {command!r}")


def _decide_discard(state: State, seat: int, cards: tuple[Card, ...]) -> list[Event]:
    if state.phase != DISCARD:
        raise IllegalMove(f"seat {seat} discarded but no discard is due now", "R6")
    if seat != state.dealer:
        raise IllegalMove(f"seat {seat} discarded but seat {state.dealer} deals", "R6")
    pair = 0
    for c in cards:
        pair |= 1 << c
    err = (
        discard_error(state.hands[seat], pair) if len(cards) == 2 else "the discard is 2 cards (R6)"
    )
    if err:
        codes = " ".join(CODES[c] for c in cards)
        raise IllegalMove(f"seat {seat} discarded {codes} but {err}", "R6")
    return [Discarded(seat, pair, (pair & TRUMP_MASK).bit_count())]


def _decide_play(state: State, seat: int, card: Card) -> list[Event]:
    if state.phase != PLAY:
        raise IllegalMove(f"seat {seat} played but no card is due now", "R7")
    if seat != state.turn:
        raise IllegalMove(f"seat {seat} played out of turn: seat {state.turn} is to play", "R7")
    err = play_error(state.hands[seat], state.trick, card)
    if err:
        code = CODES[card] if 0 <= card < len(CODES) else str(card)
        rule = "R9" if card == MATTO else "R7"
        raise IllegalMove(f"seat {seat} played {code} but {err.removeprefix(code + ' ')}", rule)
    events: list[Event] = [CARDS_PLAYED[seat][card]]
    if len(state.trick) == 3:
        cards = (*state.trick, card)
        winner = (state.leader + trick_winner_index(cards)) & 3
        events.append(TrickTaken(winner, cards))
        if state.trick_no + 1 == N_TRICKS:
            after = apply(apply(state, events[0]), events[1])
            events.append(DealScored(_score(after)))
    return events


def _score(state: State) -> tuple[int, int]:
    return score_deal(state.piles, state.tricks_won, state.dealer, state.discard)


def expected_trick(state: State) -> TrickTaken | None:
    """The trick event due after the fourth card (None if not due)."""
    if state.phase != PLAY or len(state.trick) != 4:
        return None
    t = state.trick
    return TrickTaken((state.leader + trick_winner_index(t)) & 3, (t[0], t[1], t[2], t[3]))


def must_follow_name(state: State) -> str:
    return SUIT_NAMES[led_suit(state.trick)]


# --- apply -----------------------------------------------------------------------


def apply(state: State, event: Event) -> State:
    """The state after ``event``; trusts its input (``decide`` validated it)."""
    if type(event) is CardPlayed:
        seat, card = event.seat, event.card
        bit = 1 << card
        hands = list(state.hands)
        hands[seat] ^= bit
        played = list(state.played)
        played[seat] |= bit
        piles = state.piles
        if card == MATTO:  # R9: the Matto goes to its own team's pile at once
            piles = (
                (piles[0] | MATTO_MASK, piles[1])
                if seat & 1 == 0
                else (piles[0], piles[1] | MATTO_MASK)
            )
        trick = (*state.trick, card)
        fields = list(state)  # the hottest path: set fields by index, no _replace
        fields[_HANDS] = (hands[0], hands[1], hands[2], hands[3])
        fields[_PLAYED] = (played[0], played[1], played[2], played[3])
        fields[_PILES] = piles
        fields[_TRICK] = trick
        fields[_TURN] = (seat + 1) & 3 if len(trick) < 4 else -1
        return tuple.__new__(State, fields)
    if type(event) is TrickTaken:
        t = TEAM[event.winner]
        taken = 0
        for c in event.cards:
            if c != MATTO:
                taken |= 1 << c
        piles = (
            (state.piles[0] | taken, state.piles[1])
            if t == 0
            else (state.piles[0], state.piles[1] | taken)
        )
        won = (
            (state.tricks_won[0] + 1, state.tricks_won[1])
            if t == 0
            else (state.tricks_won[0], state.tricks_won[1] + 1)
        )
        return state._replace(
            trick=(),
            trick_no=state.trick_no + 1,
            leader=event.winner,
            turn=event.winner if state.trick_no + 1 < N_TRICKS else -1,
            piles=piles,
            tricks_won=won,
            tricks=(*state.tricks, (state.leader, event.cards)),
        )
    if type(event) is Discarded:
        h = list(state.hands)
        h[event.seat] &= ~event.cards
        return state._replace(
            hands=(h[0], h[1], h[2], h[3]),
            discard=event.cards,
            discard_trumps=event.trumps,
            phase=PLAY,
            turn=state.leader,
        )
    if type(event) is DealScored:
        scores = (*state.scores, event.points)
        return state._replace(
            scores=scores,
            phase=OVER if len(scores) >= state.n_deals else DEAL,
            turn=-1,
        )
    if type(event) is Dealt:
        return state._replace(
            phase=DISCARD,
            deal_no=state.deal_no + 1,
            dealer=event.dealer,
            hands=event.hands,
            discard=0,
            discard_trumps=-1,
            turn=event.dealer,
            leader=(event.dealer + 1) & 3,  # R7: the dealer's right leads
            trick=(),
            trick_no=0,
            piles=(0, 0),
            tricks_won=(0, 0),
            played=(0, 0, 0, 0),
            tricks=(),
        )
    raise TypeError(f"not an event: {event!r}")


def replay(state: State, events: list[Event]) -> State:
    """The fold of ``apply`` over ``events``."""
    for e in events:
        state = apply(state, e)
    return state


def is_decision(state: State, seat: int) -> bool:
    """Whether ``seat`` is to choose a card or a discard in ``state``."""
    return state.turn == seat and state.phase in (DISCARD, PLAY)
