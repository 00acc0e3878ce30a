"""A game as one frozen object: the :class:`Ruleset`.

After python-chess's variant boards and OpenSpiel's ``GameType``: the ruleset
owns the pack, the seats and the sides, the deal schedule, the exchange (the
dealer's discard) and its rule, the trick's strength, the scoring, the length of
a game and its result.  Events, states, views, replay files, the command line
and the AI are written against it; each game is a module of
:mod:`engine.variants` that makes one instance; that package lists them all.

This module is below the games; :mod:`engine.ruleset`, above them, finds a
game by name and re-exports what is here, so callers import from there.

The trick-taking core is shared: follow suit, else trump, else anything; the
Matto may always be played, never wins and goes to its own player's side
(RULES.md R7-R9 and S5).  Scores are additive: a side scores the card points of
its pile, plus ``trick_adjust`` for every trick it took (``matto_trick_adjust``
more for the Matto's trick), plus the discard (with ``discard_adjust``) for the
dealer's side.  Piedicavallo uses no adjustments; Scarto's count in threes is
exactly -2 a trick, +1 for the Matto's trick of two cards and -2 for the
dealer's three discarded cards (S6).
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple, overload

from .cards import NO_SUIT, SUIT_NAMES, TRUMP_SUIT, Card, Pack, mask_cards
from .errors import Refusal
from .rng import Rng

Rand = Callable[[], float]


class Outcome(NamedTuple):
    """Who won and who lost (sides); both empty for a draw."""

    winners: tuple[int, ...]
    losers: tuple[int, ...]

    @property
    def draw(self) -> bool:
        return not self.losers


class Combinations(Sequence[int]):
    """The ``k``-card subsets of ``cards`` as masks, in ascending order of their
    card lists (lexicographic), without building them: a legal list of a few
    thousand discards costs nothing until a caller looks at an item."""

    __slots__ = ("cards", "k", "_n", "_len")

    def __init__(self, cards: Sequence[Card], k: int) -> None:
        self.cards = tuple(cards)
        self.k = k
        self._n = len(self.cards)
        self._len = math.comb(self._n, k) if 0 <= k <= self._n else 0

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, i: int) -> int: ...
    @overload
    def __getitem__(self, i: slice) -> list[int]: ...
    def __getitem__(self, i: int | slice) -> int | list[int]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._len))]
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError(i)
        mask = 0
        start = 0
        k = self.k
        n = self._n
        cards = self.cards
        while k:
            for j in range(start, n):
                block = math.comb(n - j - 1, k - 1)
                if i < block:
                    mask |= 1 << cards[j]
                    start = j + 1
                    k -= 1
                    break
                i -= block
        return mask

    def __iter__(self) -> Iterator[int]:
        cards = self.cards
        n = self._n
        k = self.k
        if k > n:
            return
        idx = list(range(k))
        while True:
            m = 0
            for j in idx:
                m |= 1 << cards[j]
            yield m
            for p in range(k - 1, -1, -1):
                if idx[p] != p + n - k:
                    break
            else:
                return
            idx[p] += 1
            for q in range(p + 1, k):
                idx[q] = idx[q - 1] + 1

    def __contains__(self, mask: object) -> bool:
        if not isinstance(mask, int) or mask.bit_count() != self.k:
            return False
        allowed = 0
        for c in self.cards:
            allowed |= 1 << c
        return not mask & ~allowed

    def index(self, mask: object, start: int = 0, stop: int | None = None) -> int:
        if mask not in self:
            raise ValueError("not in the list")
        assert isinstance(mask, int)
        chosen = mask_cards(mask)
        i = 0
        prev = -1
        k = self.k
        n = self._n
        pos = {c: j for j, c in enumerate(self.cards)}
        for t, c in enumerate(chosen):
            j = pos[c]
            for skipped in range(prev + 1, j):
                i += math.comb(n - skipped - 1, k - t - 1)
            prev = j
        return i


class Ruleset:
    """One game.  Subclasses (one module each in :mod:`engine.variants`) set the
    class attributes below and the discard rule; everything else is shared."""

    #: the replay header's ``variant``
    name: str = ""
    title: str = ""
    pack: Pack
    n_seats: int = 4
    seat_names: tuple[str, ...] = ()
    #: side of each seat (a team, or the seat itself when each plays alone)
    side: tuple[int, ...] = ()
    n_sides: int = 2
    #: cards every seat is dealt; the dealer gets ``dealer_extra`` more, and the
    #: ``stock_cards`` left over go to the dealer as the stock
    hand_cards: int = 15
    dealer_extra: int = 0
    stock_cards: int = 0
    #: packet sizes dealt round the table, starting on the dealer's right
    packets: tuple[int, ...] = ()
    discard_cards: int = 2
    #: whether the number of trumps in the discard is public
    announces_discard_trumps: bool = False
    #: the possible lengths of a game, in deals; ``full_game`` is the long one
    game_lengths: tuple[int, ...] = (1,)
    full_game: int = 1
    #: the length of a game whose file does not say (0: a single deal unless the file
    #: holds more than one)
    default_deals: int = 0
    #: what the full game is, for messages ("a match is four deals")
    game_text: str = ""
    #: score adjustments (see the module docstring) and the par subtracted from
    #: each side's count to give its score for the deal
    trick_adjust: int = 0
    matto_trick_adjust: int = 0
    discard_adjust: int = 0
    par: int = 0
    #: R11: a side of two that took no trick surrenders its points to the other
    surrender: bool = False
    #: what the sides' points of one deal add up to
    total: int = 0
    #: rule ids cited by refusals
    rule_pack = rule_seats = rule_deal = rule_discard = rule_play = ""
    rule_winner = rule_matto = rule_score = rule_game = ""

    def __init__(self) -> None:
        p = self.pack
        n = self.n_seats
        self.n_tricks = self.hand_cards
        self.next: tuple[int, ...] = tuple((s + 1) % n for s in range(n))
        self.partner: tuple[int, ...] = tuple(
            next((o for o in range(n) if o != s and self.side[o] == self.side[s]), -1)
            for s in range(n)
        )
        self.receivers: tuple[tuple[int, ...], ...] = tuple(self._receivers(d) for d in range(n))
        assert sum(self.packets) * n + self.dealer_extra + self.stock_cards == p.n_cards
        self.legal_mask: Callable[[int, int], int] = _make_legal_mask(p)
        self._frozen = True

    def __setattr__(self, key: str, value: object) -> None:
        if getattr(self, "_frozen", False):
            raise AttributeError(f"a ruleset is frozen: cannot set {key}")
        object.__setattr__(self, key, value)

    def __repr__(self) -> str:
        return f"<Ruleset {self.name}>"

    def __reduce__(self) -> tuple[Callable[[str], Ruleset], tuple[str]]:
        return _found_by_name, (self.name,)  # one instance per process, also after pickling

    # --- seats -------------------------------------------------------------------

    def next_seat(self, seat: int) -> int:
        """Play and deal pass anticlockwise, to the player on the right."""
        return self.next[seat]

    def seat_range_text(self) -> str:
        return f"0-{self.n_seats - 1}"

    # --- the deal ------------------------------------------------------------------

    def _receivers(self, dealer: int) -> tuple[int, ...]:
        """Who receives each card of the cut pack, in dealing order (-1: the stock)."""
        n = self.n_seats
        out: list[int] = []
        for size in self.packets:
            for k in range(1, n + 1):
                out += [(dealer + k) % n] * size
        out += [dealer] * self.dealer_extra
        out += [-1] * self.stock_cards
        return tuple(out)

    def cutter(self, dealer: int) -> int:
        """The seat that cuts: the one on the dealer's left (R5)."""
        return (dealer - 1) % self.n_seats

    def dealt_cards(self, seat: int, dealer: int) -> int:
        """How many cards ``seat`` is dealt (the stock not included)."""
        return self.hand_cards + (self.dealer_extra if seat == dealer else 0)

    def dealer_cards(self) -> int:
        """Cards in the dealer's hand when it discards (stock included)."""
        return self.hand_cards + self.dealer_extra + self.stock_cards

    def deal(self, rng: Rng, dealer: int) -> tuple[tuple[int, ...], int, int]:
        """Shuffle, cut by the dealer's left, deal anticlockwise from the dealer's
        right in packets.  Returns the hand masks by seat, the stock, the cut."""
        n_cards = self.pack.n_cards
        pack = rng.permutation(n_cards)
        cut = 4 + rng.below(n_cards - 8)  # the cutter leaves at least four cards each side
        pack = pack[cut:] + pack[:cut]
        hands = [0] * self.n_seats
        stock = 0
        for c, seat in zip(pack, self.receivers[dealer], strict=True):
            if seat < 0:
                stock |= 1 << c
            else:
                hands[seat] |= 1 << c
        return tuple(hands), stock, cut

    def deal_error(self, dealer: int, hands: tuple[int, ...], stock: int = 0) -> str | None:
        """Why these hands (and stock) are not a deal of this pack by ``dealer``."""
        n = self.n_seats
        if not 0 <= dealer < n:
            return f"dealer {dealer} is not a seat {self.seat_range_text()} ({self.rule_seats})"
        if len(hands) != n:
            return f"{len(hands)} hands dealt, not {n} ({self.rule_deal})"
        seen = 0
        codes = self.pack.codes
        for seat, h in enumerate(hands):
            want = self.hand_cards + (self.dealer_extra if seat == dealer else 0)
            if h.bit_count() != want:
                return f"seat {seat} was dealt {h.bit_count()} cards, not {want} ({self.rule_deal})"
            if seen & h:
                dup = " ".join(codes[c] for c in mask_cards(seen & h))
                return f"card {dup} dealt twice ({self.rule_pack})"
            seen |= h
        if stock.bit_count() != self.stock_cards:
            return f"the stock is {stock.bit_count()} cards, not {self.stock_cards} ({self.rule_deal})"
        if seen & stock:
            dup = " ".join(codes[c] for c in mask_cards(seen & stock))
            return f"card {dup} dealt twice ({self.rule_pack})"
        return None

    # --- the discard (each game's own rule) ----------------------------------------

    def discard_refusal(self, hand: int, cards: int) -> Refusal | None:
        """Why the dealer holding ``hand`` may not lay ``cards`` aside, or None."""
        raise NotImplementedError

    def legal_discards(self, hand: int) -> Sequence[int]:
        """Every legal discard as a mask, in ascending order of its card list."""
        raise NotImplementedError

    def random_discard(self, hand: int, rand: Rand) -> int:
        options = self.legal_discards(hand)
        return options[int(rand() * len(options))]

    def hidden_discard(
        self, unseen: int, trumps: int, dealer_played: int, dealer_void: int
    ) -> tuple[list[tuple[int, int]], int]:
        """What a seat that did not deal can infer of the discard, for the AI's
        sampled deals: a list of (cards it may hold, how many of them), and cards
        the dealer cannot hold because of it.  ``trumps`` is the announced count
        (-1 where nothing is announced)."""
        raise NotImplementedError

    def _size_refusal(self, hand: int, cards: int) -> Refusal | None:
        k = self.discard_cards
        if cards.bit_count() != k:
            return Refusal(
                self.rule_discard, "discard_size",
                f"the discard is {cards.bit_count()} cards, not {k} ({self.rule_discard})",
                count=k,
            )
        if cards & ~hand:
            missing = mask_cards(cards & ~hand)
            return Refusal(
                self.rule_discard, "discard_not_held",
                f"{self._codes(missing)} is not in the dealer's hand ({self.rule_discard})",
                cards=tuple(missing),
            )
        return None

    def _codes(self, cards: Sequence[int]) -> str:
        return " ".join(self.pack.codes[c] for c in cards)

    # --- play -----------------------------------------------------------------------

    def led_suit(self, trick: Sequence[Card]) -> int:
        """The suit to follow: that of the first card that is not the Matto."""
        matto = self.pack.matto
        for c in trick:
            if c != matto:
                return self.pack.suit[c]
        return NO_SUIT

    def trick_key(self, card: Card, led: int) -> int:
        """How strongly ``card`` bids for the trick when ``led`` is the suit to
        follow: -1 for a card that cannot win (off suit, or the Matto)."""
        s = self.pack.suit[card]
        return self.pack.strength[card] if s == led or s == TRUMP_SUIT else -1

    def trick_winner_index(self, trick: Sequence[Card]) -> int:
        """Index in play order of the card that takes the trick."""
        best = -1
        best_i = 0
        led = self.led_suit(trick)
        suit = self.pack.suit
        strength = self.pack.strength
        for i, c in enumerate(trick):
            s = suit[c]
            key = strength[c] if s == led or s == TRUMP_SUIT else -1
            if key > best:
                best, best_i = key, i
        return best_i

    def play_refusal(self, hand: int, trick: Sequence[Card], card: Card) -> Refusal | None:
        """Why ``card`` may not be played from ``hand`` to ``trick``, or None."""
        p = self.pack
        if not 0 <= card < p.n_cards or not hand >> card & 1:
            name = p.codes[card] if 0 <= card < p.n_cards else str(card)
            return Refusal(self.rule_play, "not_in_hand", f"{name} is not in the hand",
                           cards=(card,) if 0 <= card < p.n_cards else ())
        led = self.led_suit(trick)
        if self.legal_mask(hand, led) >> card & 1:
            return None
        if hand & p.suit_mask[led]:
            return Refusal(self.rule_play, "must_follow",
                           f"must follow {SUIT_NAMES[led]} ({self.rule_play})", suit=led)
        return Refusal(self.rule_play, "must_trump",
                       f"is void in {SUIT_NAMES[led]} and must play a trump ({self.rule_play})",
                       suit=led)

    # --- scoring ---------------------------------------------------------------------

    def side_points(self, pile: int, won: int) -> int:
        """A side's points from its pile and its tricks (the discard not included)."""
        p = self.pack
        pts = p.mask_points(pile)
        if self.trick_adjust or self.matto_trick_adjust:
            matto_trick = self.n_seats * won - (pile & ~p.matto_mask).bit_count()
            pts += self.trick_adjust * won + self.matto_trick_adjust * matto_trick
        return pts

    def score(
        self, piles: Sequence[int], won: Sequence[int], dealer: int, discard: int
    ) -> tuple[int, ...]:
        """Each side's points for the deal: its pile (captures plus its own Matto),
        and the discard for the dealer's side."""
        pts = [self.side_points(piles[s], won[s]) for s in range(self.n_sides)]
        pts[self.side[dealer]] += self.pack.mask_points(discard) + self.discard_adjust
        if self.surrender:
            for t in (0, 1):
                if won[t] == 0:
                    pts[1 - t] += pts[t]
                    pts[t] = 0
        return tuple(pts)

    def deal_scores(self, points: Sequence[int]) -> tuple[int, ...]:
        """Each side's score for the deal (its points less the par)."""
        return tuple(p - self.par for p in points)

    def totals(self, scores: Sequence[Sequence[int]]) -> tuple[int, ...]:
        """Each side's total over the finished deals."""
        out = [0] * self.n_sides
        for pts in scores:
            for s, v in enumerate(self.deal_scores(pts)):
                out[s] += v
        return tuple(out)

    @staticmethod
    def outcome(values: Sequence[int]) -> Outcome:
        """The lowest loses (all who share it); all equal is a draw."""
        low = min(values)
        if all(v == low for v in values):
            return Outcome((), ())
        losers = tuple(s for s, v in enumerate(values) if v == low)
        winners = tuple(s for s, v in enumerate(values) if v != low)
        return Outcome(winners, losers)

    def deal_outcome(self, points: Sequence[int]) -> Outcome:
        return self.outcome(points)

    def game_outcome(self, scores: Sequence[Sequence[int]]) -> Outcome:
        return self.outcome(self.totals(scores))

    def first_dealer(self, rng: Rng) -> int:
        return rng.below(self.n_seats)

    # --- the raw playout loop -------------------------------------------------------

    def random_playout(
        self, hands: list[int], leader: int, rand: Rand
    ) -> tuple[list[int], list[int]]:
        """Play every remaining card at random from a trick boundary; ``hands`` is
        consumed.  Returns each side's pile (captures plus own Matto) and tricks."""
        p = self.pack
        n = self.n_seats
        side = self.side
        nxt = self.next
        legal_mask = self.legal_mask
        suit_of = p.suit
        strength = p.strength
        matto = p.matto
        piles = [0] * self.n_sides
        won = [0] * self.n_sides
        while hands[leader]:
            led = NO_SUIT
            seat = leader
            best = -1
            winner = leader
            taken = 0
            for _k in range(n):
                hand = hands[seat]
                legal = legal_mask(hand, led)
                r = int(rand() * legal.bit_count())
                while r:
                    legal &= legal - 1
                    r -= 1
                low = legal & -legal
                hands[seat] = hand ^ low
                card = low.bit_length() - 1
                if card == matto:
                    piles[side[seat]] |= low
                else:
                    s = suit_of[card]
                    if led == NO_SUIT:
                        led = s
                    key = strength[card] if s == led or s == TRUMP_SUIT else -1
                    if key > best:
                        best, winner = key, seat
                    taken |= low
                seat = nxt[seat]
            t = side[winner]
            piles[t] |= taken
            won[t] += 1
            leader = winner
        return piles, won

    def random_deal_fast(self, rng: Rng, rand: Rand) -> tuple[int, ...]:
        """One random legal deal through the raw core: deal (our generator),
        discard, every trick, score; moves drawn with ``rand``."""
        dealer = rng.below(self.n_seats)
        hands_t, stock, _ = self.deal(rng, dealer)
        hands = list(hands_t)
        hands[dealer] |= stock
        discard = self.random_discard(hands[dealer], rand)
        hands[dealer] &= ~discard
        piles, won = self.random_playout(hands, self.next[dealer], rand)
        return self.score(piles, won, dealer, discard)


def _make_legal_mask(p: Pack) -> Callable[[int, int], int]:
    suit_mask = p.suit_mask
    trumps = p.trump_mask
    matto = p.matto_mask

    def legal_mask(hand: int, led: int) -> int:
        """Cards of ``hand`` that may be played when ``led`` is the suit to follow:
        the suit, else a trump, else anything; the Matto always."""
        if led < 0:
            return hand
        m = hand & suit_mask[led]
        if m:
            return m | (hand & matto)
        m = hand & trumps
        if m:
            return m | (hand & matto)
        return hand

    return legal_mask


def _found_by_name(name: str) -> Ruleset:
    """A ruleset found again after pickling, by its name: one instance a process.
    The list of the games (:mod:`engine.variants`) is above this module, which
    never imports it at load time: it is imported by name when a pickled ruleset
    is first read."""
    games = importlib.import_module("engine.variants")
    rules: Ruleset = games.ruleset(name)
    return rules
