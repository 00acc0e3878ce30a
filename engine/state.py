"""The event-sourced core: commands are decided into events, events are applied to
immutable states, and a game is the fold of ``apply`` over its log.

``decide(state, command)`` is the one place that validates (it raises
:class:`IllegalMove` naming the rule); ``apply(state, event)`` trusts its input.
Every rule comes from the state's :class:`~engine.ruleset.Ruleset`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, overload

from .cards import SUIT_NAMES, Card, mask_cards
from .errors import IllegalMove, Refusal
from .rng import Rng, mix64
from .ruleset import Ruleset

__all__ = ["IllegalMove", "Refusal"]

# Phases
DEAL, DISCARD, PLAY, OVER = 0, 1, 2, 3
PHASE_NAMES = ("deal", "discard", "play", "over")


# --- Commands (imperative) -------------------------------------------------------


@dataclass(frozen=True, slots=True, order=True)
class Discard:
    """The dealer lays cards aside (R6, S4); ``cards`` in ascending order."""

    seat: int
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"seat {self.seat} discards cards {' '.join(map(str, self.cards))}"


@dataclass(frozen=True, slots=True, order=True)
class Play:
    """A seat plays one card to the current trick (R7-R9, S5)."""

    seat: int
    card: Card

    def __str__(self) -> str:
        return f"seat {self.seat} plays card {self.card}"


Command = Discard | Play


def command_text(rules: Ruleset, command: Command) -> str:
    """``seat 2 plays SK`` in the codes of the game's pack."""
    codes = rules.pack.codes
    if isinstance(command, Play):
        code = codes[command.card] if 0 <= command.card < len(codes) else str(command.card)
        return f"seat {command.seat} plays {code}"
    return f"seat {command.seat} discards {' '.join(codes[c] for c in command.cards)}"


# --- Events (past-tense facts) ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class Dealt:
    """A new deal: the dealer, the hands (masks, by seat) and the stock that goes to
    the dealer (Scarto; 0 where there is none); ``cut`` is where the pack was cut
    (for the table's animation; not needed to replay)."""

    dealer: int
    hands: tuple[int, ...]
    cut: int = 0
    stock: int = 0


@dataclass(frozen=True, slots=True)
class Discarded:
    seat: int
    cards: int  # a mask
    trumps: int  # how many of them are trumps (public where the game announces it)


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TrickTaken:
    winner: int
    cards: tuple[Card, ...]  # in play order


@dataclass(frozen=True, slots=True)
class DealScored:
    points: tuple[int, ...]  # by side: teams (Piedicavallo), seats (Scarto)


Event = Dealt | Discarded | CardPlayed | TrickTaken | DealScored


# Commands and events of one card are immutable, so one instance per (seat, card)
# serves every state of a game.
_PLAYS: dict[str, tuple[tuple[Play, ...], ...]] = {}
_CARDS_PLAYED: dict[str, tuple[tuple[CardPlayed, ...], ...]] = {}


def plays_of(rules: Ruleset) -> tuple[tuple[Play, ...], ...]:
    t = _PLAYS.get(rules.name)
    if t is None:
        n = rules.pack.n_cards
        t = _PLAYS[rules.name] = tuple(
            tuple(Play(s, c) for c in range(n)) for s in range(rules.n_seats)
        )
    return t


def cards_played_of(rules: Ruleset) -> tuple[tuple[CardPlayed, ...], ...]:
    t = _CARDS_PLAYED.get(rules.name)
    if t is None:
        n = rules.pack.n_cards
        t = _CARDS_PLAYED[rules.name] = tuple(
            tuple(CardPlayed(s, c) for c in range(n)) for s in range(rules.n_seats)
        )
    return t


# --- State -----------------------------------------------------------------------


class State(NamedTuple):
    """One position of a game (a single deal or a game of ``n_deals`` deals).

    Immutable; every field but ``rules`` is an int or a tuple of ints, so states
    compare and hash by value.  Hands and piles are card masks; ``hands``,
    ``played`` are by seat, ``piles``, ``tricks_won`` and each deal's score by
    side: :func:`new_game` sizes them for the game's seats and sides.
    """

    seed: int
    n_deals: int
    rules: Ruleset
    phase: int = DEAL
    deal_no: int = 0  # deals started so far
    dealer: int = -1
    hands: tuple[int, ...] = ()
    discard: int = 0
    discard_trumps: int = -1  # trumps in the discard, -1 before the discard
    turn: int = -1  # seat to act, -1 when no seat acts (dealing, over)
    leader: int = -1
    trick: tuple[Card, ...] = ()  # cards of the current trick, in play order
    trick_no: int = 0  # tricks completed in this deal
    piles: tuple[int, ...] = ()  # captured cards, plus each side's own Matto
    tricks_won: tuple[int, ...] = ()
    played: tuple[int, ...] = ()  # cards each seat has played
    scores: tuple[tuple[int, ...], ...] = ()  # points of each finished deal
    tricks: tuple[tuple[int, tuple[Card, ...]], ...] = ()  # (leader, cards) this deal
    stock: int = 0  # the stock the dealer took this deal (Scarto)

    @property
    def totals(self) -> tuple[int, ...]:
        """Each side's total over the finished deals (the ruleset's deal scores)."""
        return self.rules.totals(self.scores)

    @property
    def points_so_far(self) -> tuple[int, ...]:
        """Card points in each side's pile in the current deal (discard not counted)."""
        mp = self.rules.pack.mask_points
        return tuple(mp(p) for p in self.piles)

    @property
    def trick_seats(self) -> tuple[int, ...]:
        n = self.rules.n_seats
        return tuple((self.leader + i) % n for i in range(len(self.trick)))


_HANDS = State._fields.index("hands")
_PLAYED = State._fields.index("played")
_PILES = State._fields.index("piles")
_TRICK = State._fields.index("trick")
_TURN = State._fields.index("turn")


def new_game(seed: int, n_deals: int, rules: Ruleset) -> State:
    """The empty table before the first deal."""
    if n_deals not in rules.game_lengths:
        lengths = " or ".join(map(str, rules.game_lengths))
        raise ValueError(f"a game of {rules.title} is {lengths} deals ({rules.rule_game})")
    n = rules.n_seats
    return State(
        seed=seed,
        n_deals=n_deals,
        hands=(0,) * n,
        piles=(0,) * rules.n_sides,
        tricks_won=(0,) * rules.n_sides,
        played=(0,) * n,
        rules=rules,
    )


def first_dealer(seed: int, rules: Ruleset) -> int:
    """The first dealer is drawn at random, from the game's seed (R13, S6)."""
    return rules.first_dealer(Rng(mix64(seed, 0xDEA1)))


def deal_order(state: State) -> int:
    """The dealer of the next deal: drawn for the first, then the next seat."""
    if state.deal_no == 0:
        return first_dealer(state.seed, state.rules)
    return state.rules.next[state.dealer]


def next_deal(state: State) -> Dealt:
    """The chance event of the next deal, drawn from the game seed."""
    if state.phase != DEAL:
        raise IllegalMove("no deal is due now", state.rules.rule_deal)
    dealer = deal_order(state)
    hands, stock, cut = state.rules.deal(Rng(mix64(state.seed, state.deal_no)), dealer)
    return Dealt(dealer, hands, cut, stock)


# --- Legal commands --------------------------------------------------------------


class DiscardList(Sequence[Discard]):
    """The legal discards of a seat as commands, over the ruleset's sorted masks
    (built item by item: Scarto's dealer has a few thousand choices)."""

    __slots__ = ("seat", "masks")

    def __init__(self, seat: int, masks: Sequence[int]) -> None:
        self.seat = seat
        self.masks = masks

    def __len__(self) -> int:
        return len(self.masks)

    @overload
    def __getitem__(self, i: int) -> Discard: ...
    @overload
    def __getitem__(self, i: slice) -> list[Discard]: ...
    def __getitem__(self, i: int | slice) -> Discard | list[Discard]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        return Discard(self.seat, tuple(mask_cards(self.masks[i])))

    def __iter__(self) -> Iterator[Discard]:
        seat = self.seat
        for m in self.masks:
            yield Discard(seat, tuple(mask_cards(m)))

    def __contains__(self, cmd: object) -> bool:
        if not isinstance(cmd, Discard) or cmd.seat != self.seat:
            return False
        m = 0
        for c in cmd.cards:
            if not isinstance(c, int) or c < 0 or m >> c & 1:
                return False
            m |= 1 << c
        return m in self.masks

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return len(other) == len(self) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.seat, len(self)))

    def __repr__(self) -> str:
        return f"DiscardList(seat {self.seat}, {len(self)} discards)"


def plays_list(rules: Ruleset, seat: int, mask: int) -> list[Command]:
    plays = plays_of(rules)[seat]
    out: list[Command] = []
    while mask:
        low = mask & -mask
        out.append(plays[low.bit_length() - 1])
        mask ^= low
    return out


def legal_commands(state: State) -> Sequence[Command]:
    """Every legal command, sorted; empty when no seat acts."""
    if state.phase == PLAY:
        if state.turn < 0:
            return []
        rules = state.rules
        mask = rules.legal_mask(state.hands[state.turn], rules.led_suit(state.trick))
        return plays_list(rules, state.turn, mask)
    if state.phase == DISCARD:
        seat = state.dealer
        return DiscardList(seat, state.rules.legal_discards(state.hands[seat]))
    return []


# --- decide ----------------------------------------------------------------------


def decide(state: State, command: Command) -> list[Event]:
    """Validate ``command`` against ``state`` and return the events it causes (a
    new list every call)."""
    if isinstance(command, Play):
        return _decide_play(state, command.seat, command.card)
    if isinstance(command, Discard):
        return _decide_discard(state, command.seat, command.cards)
    raise IllegalMove(f"unknown command {command!r}")


def _decide_discard(state: State, seat: int, cards: tuple[Card, ...]) -> list[Event]:
    rules = state.rules
    rule = rules.rule_discard
    if state.phase != DISCARD:
        raise IllegalMove(f"seat {seat} discarded but no discard is due now", rule,
                          Refusal(rule, "no_discard_due", "no discard is due now"))
    if seat != state.dealer:
        raise IllegalMove(f"seat {seat} discarded but seat {state.dealer} deals", rule,
                          Refusal(rule, "not_dealer", f"seat {state.dealer} deals",
                                  seat=state.dealer))
    n = rules.pack.n_cards
    k = rules.discard_cards
    codes = " ".join(rules.pack.codes[c] if 0 <= c < n else str(c) for c in cards)
    mask = 0
    for c in cards:
        if 0 <= c < n:
            mask |= 1 << c
    refusal: Refusal | None
    if len(cards) != k or mask.bit_count() != k:
        refusal = Refusal(rule, "discard_size", f"the discard is {k} cards ({rule})", count=k)
    else:
        refusal = rules.discard_refusal(state.hands[seat], mask)
    if refusal:
        raise IllegalMove(f"seat {seat} discarded {codes} but {refusal.text}", rule, refusal)
    return [Discarded(seat, mask, (mask & rules.pack.trump_mask).bit_count())]


def _decide_play(state: State, seat: int, card: Card) -> list[Event]:
    rules = state.rules
    if state.phase != PLAY or state.turn < 0:
        raise IllegalMove(f"seat {seat} played but no card is due now", rules.rule_play,
                          Refusal(rules.rule_play, "no_play_due", "no card is due now"))
    if seat != state.turn:
        raise IllegalMove(
            f"seat {seat} played out of turn: seat {state.turn} is to play", rules.rule_play,
            Refusal(rules.rule_play, "out_of_turn", f"seat {state.turn} is to play",
                    seat=state.turn),
        )
    refusal = rules.play_refusal(state.hands[seat], state.trick, card)
    if refusal:
        codes = rules.pack.codes
        code = codes[card] if 0 <= card < len(codes) else str(card)
        rule = rules.rule_matto if card == rules.pack.matto else rules.rule_play
        raise IllegalMove(
            f"seat {seat} played {code} but {refusal.text.removeprefix(code + ' ')}", rule, refusal
        )
    events: list[Event] = [cards_played_of(rules)[seat][card]]
    if len(state.trick) == rules.n_seats - 1:
        cards = (*state.trick, card)
        winner = (state.leader + rules.trick_winner_index(cards)) % rules.n_seats
        events.append(TrickTaken(winner, cards))
        if state.trick_no + 1 == rules.n_tricks:
            after = apply(apply(state, events[0]), events[1])
            events.append(DealScored(deal_points(after)))
    return events


def deal_points(state: State) -> tuple[int, ...]:
    """Each side's points for the deal just played (the ruleset's scoring)."""
    return state.rules.score(state.piles, state.tricks_won, state.dealer, state.discard)


def expected_trick(state: State) -> TrickTaken | None:
    """The trick event due after the last card of a trick (None if not due)."""
    rules = state.rules
    if state.phase != PLAY or len(state.trick) != rules.n_seats:
        return None
    t = state.trick
    return TrickTaken((state.leader + rules.trick_winner_index(t)) % rules.n_seats, t)


def must_follow_name(state: State) -> str:
    return SUIT_NAMES[state.rules.led_suit(state.trick)]


# --- apply -----------------------------------------------------------------------


def _with(t: tuple[int, ...], i: int, v: int) -> tuple[int, ...]:
    return (*t[:i], v, *t[i + 1 :])


def _after_dealt(state: State, event: Dealt) -> State:
    """A new deal: the hands dealt (the stock to the dealer), the discard phase."""
    rules = state.rules
    dealt = event.hands
    if event.stock:  # the dealer takes the stock
        dealt = _with(dealt, event.dealer, dealt[event.dealer] | event.stock)
    return state._replace(
        phase=DISCARD,
        deal_no=state.deal_no + 1,
        dealer=event.dealer,
        hands=dealt,
        stock=event.stock,
        discard=0,
        discard_trumps=-1,
        turn=event.dealer,
        leader=rules.next[event.dealer],  # the dealer's right leads
        trick=(),
        trick_no=0,
        piles=(0,) * rules.n_sides,
        tricks_won=(0,) * rules.n_sides,
        played=(0,) * rules.n_seats,
        tricks=(),
    )


def apply(state: State, event: Event) -> State:
    """The state after ``event``; trusts its input (``decide`` validated it)."""
    rules = state.rules
    if type(event) is CardPlayed:
        seat, card = event.seat, event.card
        bit = 1 << card
        hands = list(state.hands)
        hands[seat] ^= bit
        played = list(state.played)
        played[seat] |= bit
        piles = state.piles
        if card == rules.pack.matto:  # the Matto goes to its own side's pile at once
            side = rules.side[seat]
            piles = _with(piles, side, piles[side] | bit)
        trick = (*state.trick, card)
        fields = list(state)  # the hottest path: set fields by index, no _replace
        fields[_HANDS] = tuple(hands)
        fields[_PLAYED] = tuple(played)
        fields[_PILES] = piles
        fields[_TRICK] = trick
        fields[_TURN] = rules.next[seat] if len(trick) < rules.n_seats else -1
        return tuple.__new__(State, fields)
    if type(event) is TrickTaken:
        return state._replace(
            **trick_taken_fields(rules, event, state.trick_no, state.piles, state.tricks_won),
            tricks=(*state.tricks, (state.leader, event.cards)),
        )
    if type(event) is Discarded:
        return state._replace(
            hands=_with(state.hands, event.seat, state.hands[event.seat] & ~event.cards),
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
        return _after_dealt(state, event)
    raise TypeError(f"not an event: {event!r}")


def trick_taken_fields(rules: Ruleset, event: TrickTaken, trick_no: int, piles: tuple[int, ...],
                       tricks_won: tuple[int, ...]) -> dict[str, Any]:
    """What a trick taken changes, in a state and in a seat's view alike: the trick
    cleared, its cards (but the Matto, already in its own side's pile) to the
    winner's side, and the winner to lead."""
    side = rules.side[event.winner]
    matto = rules.pack.matto
    taken = 0
    for c in event.cards:
        if c != matto:
            taken |= 1 << c
    return {
        "trick": (),
        "trick_no": trick_no + 1,
        "leader": event.winner,
        "turn": event.winner if trick_no + 1 < rules.n_tricks else -1,
        "piles": _with(piles, side, piles[side] | taken),
        "tricks_won": _with(tricks_won, side, tricks_won[side] + 1),
    }


def replay(state: State, events: list[Event]) -> State:
    """The fold of ``apply`` over ``events``."""
    for e in events:
        state = apply(state, e)
    return state


def is_decision(state: State, seat: int) -> bool:
    """Whether ``seat`` is to choose a card or a discard in ``state``."""
    return state.turn == seat and state.phase in (DISCARD, PLAY)


def due_event(state: State) -> Event | None:
    """The event due without a decision, if any: a trick's or a deal's derived
    result, or the next deal of a game."""
    rules = state.rules
    if state.phase == PLAY and len(state.trick) == rules.n_seats:
        return expected_trick(state)
    if state.phase == PLAY and state.trick_no == rules.n_tricks:
        return DealScored(deal_points(state))
    if state.phase == DEAL and state.deal_no < state.n_deals:
        return next_deal(state)
    return None


#: What a command causes (:func:`judge`): its events with those then due without
#: a decision, the state after each of them (``states[i]`` after ``events[i]``),
#: and the position they lead to (the one judged when nothing happens).  One is
#: made for every command, so it is a plain tuple, the cheapest to make, that the
#: caller unpacks (``events, states, after = judge(...)``); the lists are the
#: caller's.
Ruling = tuple[list[Event], list[State], State]


def judge(state: State, command: Command | None) -> Ruling:
    """What ``command`` causes in ``state``: the events :func:`decide` turns it
    into (raising :class:`IllegalMove` that names the rule, and changing
    nothing), then every event due after them without a decision (a trick
    taken, a deal scored, the next deal), each applied in turn.  ``None`` asks
    only for what is due: a game's first deal, or a log cut between a card and
    its trick.  The one place that says what happens next: the local game and
    the server's tables both record what it returns."""
    events = decide(state, command) if command is not None else []  # a new list
    states: list[State] = []
    for e in events:
        state = apply(state, e)
        states.append(state)
    while (due := due_event(state)) is not None:
        state = apply(state, due)
        events.append(due)
        states.append(state)
    return events, states, state


def trick_winners(state: State) -> tuple[int, ...]:
    """The seat that took each trick of the current deal so far."""
    return trick_winners_of(state.rules, state.tricks)


def trick_winners_of(rules: Ruleset, tricks: Sequence[tuple[int, tuple[Card, ...]]]) -> tuple[int, ...]:
    """The seat that took each of ``tricks`` ((leader, cards) in play order): what
    every seat sees, so a seat's view (its ``history``) answers it too."""
    return tuple((leader + rules.trick_winner_index(cards)) % rules.n_seats for leader, cards in tricks)


def hand_sizes(state: State) -> tuple[int, ...]:
    return tuple(h.bit_count() for h in state.hands)


__all__ += [
    "DEAL", "DISCARD", "PLAY", "OVER", "PHASE_NAMES", "Discard", "Play", "Command", "Dealt",
    "Discarded", "CardPlayed", "TrickTaken", "DealScored", "Event", "State", "new_game",
    "first_dealer", "next_deal", "legal_commands", "decide", "apply", "replay", "is_decision",
    "expected_trick", "deal_points", "due_event", "trick_winners", "trick_winners_of", "command_text",
    "trick_taken_fields", "judge", "Ruling",
]
