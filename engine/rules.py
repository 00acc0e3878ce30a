"""The rules as small pure functions over int masks: the fast core.

Everything here works on plain ints (cards and card masks) so that AI playouts and
the event-sourced path share one implementation of every rule.  One function per
question: which cards may be played, who took the trick, which discards are legal,
how a deal scores.  The ``*_error`` functions say *why* a move is illegal, citing
the rule of RULES.md.
"""

from __future__ import annotations

from collections.abc import Callable

from .cards import (
    CODES,
    MATTO,
    MATTO_MASK,
    N_CARDS,
    NEVER_DISCARD_MASK,
    NO_SUIT,
    NONKING_SUIT_MASK,
    SUIT,
    SUIT_MASK,
    SUIT_NAMES,
    TRUMP_MASK,
    TRUMP_SUIT,
    Card,
    mask_cards,
    mask_points,
)
from .rng import Rng

DEALER_CARDS = 17
HAND_CARDS = 15
N_TRICKS = 15
TEAM = (0, 1, 0, 1)


def next_seat(seat: int) -> int:
    """R2: play and deal pass anticlockwise, to the player on the right."""
    return (seat + 1) & 3


# --- R5: the deal ----------------------------------------------------------------

#: Packet sizes dealt to each player in turn, starting on the dealer's right; the
#: dealer's two extra cards come last (R5 leaves the packet size to us).
PACKETS = (5, 5, 5)


def _receivers(dealer: int) -> tuple[int, ...]:
    """Seat receiving each card of the cut pack, in dealing order."""
    out: list[int] = []
    for size in PACKETS:
        for k in range(1, 5):
            out += [(dealer + k) & 3] * size
    return tuple(out + [dealer] * (DEALER_CARDS - sum(PACKETS)))


_RECEIVERS = tuple(_receivers(d) for d in range(4))


def deal_hands(rng: Rng, dealer: int) -> tuple[tuple[int, int, int, int], int]:
    """Shuffle, cut by the dealer's left (seat dealer-1), deal anticlockwise from
    the dealer's right in packets of five; the dealer takes the last two cards.

    Returns the four hand masks and the cut position.
    """
    pack = rng.permutation(N_CARDS)
    cut = 4 + rng.below(N_CARDS - 8)  # the cutter leaves at least four cards each side
    pack = pack[cut:] + pack[:cut]
    hands = [0, 0, 0, 0]
    for c, seat in zip(pack, _RECEIVERS[dealer], strict=True):
        hands[seat] |= 1 << c
    return (hands[0], hands[1], hands[2], hands[3]), cut


def deal_error(dealer: int, hands: tuple[int, ...]) -> str | None:
    """Why these hands are not a deal of the 62-card pack by ``dealer`` (R1, R5)."""
    if not 0 <= dealer <= 3:
        return f"dealer {dealer} is not a seat 0-3 (R2)"
    if len(hands) != 4:
        return f"{len(hands)} hands dealt, not 4 (R5)"
    seen = 0
    for seat, h in enumerate(hands):
        want = DEALER_CARDS if seat == dealer else HAND_CARDS
        if h.bit_count() != want:
            return f"seat {seat} was dealt {h.bit_count()} cards, not {want} (R5)"
        if seen & h:
            dup = " ".join(CODES[c] for c in mask_cards(seen & h))
            return f"card {dup} dealt twice (R1)"
        seen |= h
    return None


# --- R6: the discard -------------------------------------------------------------


def discard_error(hand: int, pair: int) -> str | None:
    """Why the dealer holding ``hand`` may not discard ``pair`` (R6), or None."""
    if pair.bit_count() != 2:
        return f"the discard is {pair.bit_count()} cards, not 2 (R6)"
    if pair & ~hand:
        missing = " ".join(CODES[c] for c in mask_cards(pair & ~hand))
        return f"{missing} is not in the dealer's hand (R6)"
    if pair & NEVER_DISCARD_MASK:
        bad = " ".join(CODES[c] for c in mask_cards(pair & NEVER_DISCARD_MASK))
        return f"{bad} may never be discarded: no King, trump 1, trump 21 or Matto (R6)"
    trumps = (pair & TRUMP_MASK).bit_count()
    if trumps == 0:
        return None
    if not (hand & ~pair & TRUMP_MASK):
        return None  # (b) no trump left after the discard
    nonking = (hand & NONKING_SUIT_MASK).bit_count()
    if nonking < 2 and trumps == 2 - nonking:
        return None  # (a) no choice, and only as many trumps as needed
    if nonking < 2:
        return f"only {2 - nonking} trump(s) may be discarded with this hand (R6)"
    return "a trump may be discarded only with no other choice or to keep no trump (R6)"


def legal_discards(hand: int) -> list[int]:
    """Every legal discard (R6) as a 2-card mask, in ascending order of the pair.

    Built constructively (a test checks it against :func:`discard_error`).
    """
    suits = mask_cards(hand & NONKING_SUIT_MASK)
    spare_trumps = mask_cards(hand & TRUMP_MASK & ~NEVER_DISCARD_MASK)
    pairs: set[int] = set()
    for i, a in enumerate(suits):
        for b in suits[i + 1 :]:
            pairs.add(1 << a | 1 << b)
    n = len(suits)
    if n < 2:  # (a) no choice: fill up with exactly 2 - n trumps
        if n == 1:
            pairs.update(1 << suits[0] | 1 << t for t in spare_trumps)
        else:
            pairs.update(
                1 << a | 1 << b for i, a in enumerate(spare_trumps) for b in spare_trumps[i + 1 :]
            )
    all_trumps = hand & TRUMP_MASK
    if all_trumps and not (all_trumps & NEVER_DISCARD_MASK) and all_trumps.bit_count() <= 2:
        # (b) discard every trump held
        if all_trumps.bit_count() == 2:
            pairs.add(all_trumps)
        else:
            pairs.update(all_trumps | 1 << s for s in suits)
    return sorted(pairs, key=lambda m: mask_cards(m))


# --- R7-R9: play -----------------------------------------------------------------


def led_suit(trick: tuple[Card, ...] | list[Card]) -> int:
    """The suit to follow: that of the first card that is not the Matto (R9)."""
    for c in trick:
        if c != MATTO:
            return SUIT[c]
    return NO_SUIT


def legal_mask(hand: int, led: int) -> int:
    """Cards of ``hand`` that may be played when ``led`` is the suit to follow (R7, R9)."""
    if led == NO_SUIT:
        return hand
    m = hand & SUIT_MASK[led]
    if m:
        return m | (hand & MATTO_MASK)
    m = hand & TRUMP_MASK
    if m:
        return m | (hand & MATTO_MASK)
    return hand


def play_error(hand: int, trick: tuple[Card, ...], card: Card) -> str | None:
    """Why ``card`` may not be played from ``hand`` to ``trick`` (R7, R9), or None."""
    if not 0 <= card < N_CARDS or not hand >> card & 1:
        name = CODES[card] if 0 <= card < N_CARDS else str(card)
        return f"{name} is not in the hand"
    led = led_suit(trick)
    if legal_mask(hand, led) >> card & 1:
        return None
    if hand & SUIT_MASK[led]:
        return f"must follow {SUIT_NAMES[led]} (R7)"
    return f"is void in {SUIT_NAMES[led]} and must play a trump (R7)"


def trick_winner_index(trick: tuple[Card, ...] | list[Card]) -> int:
    """Index in play order of the card that takes the trick (R8, R9)."""
    best = -1
    best_i = 0
    led = led_suit(trick)
    for i, c in enumerate(trick):
        if c == MATTO:
            continue
        s = SUIT[c]
        # Trumps (0..20) outrank every suit card; within the led suit the higher int wins.
        key = c + 100 if s == TRUMP_SUIT else (c if s == led else -1)
        if key > best:
            best, best_i = key, i
    return best_i


# --- R10-R12: scoring ------------------------------------------------------------


def score_deal(
    piles: tuple[int, int], tricks_won: tuple[int, int], dealer: int, discard: int
) -> tuple[int, int]:
    """Card points of each team (R10), after R11's surrender by a team with no trick.

    ``piles`` hold each team's captured cards plus its own Matto if it played it.
    """
    pts = [mask_points(piles[0]), mask_points(piles[1])]
    pts[TEAM[dealer]] += mask_points(discard)
    for t in (0, 1):
        if tricks_won[t] == 0:  # R11: Matto and discard go to the other team
            pts[1 - t] += pts[t]
            pts[t] = 0
    return pts[0], pts[1]


def result(points: tuple[int, int]) -> int:
    """R12: 0 or 1 for the winning team, -1 for the 57-57 draw."""
    if points[0] == points[1]:
        return -1
    return 0 if points[0] > points[1] else 1


# --- The raw playout loop ---------------------------------------------------------


def random_discard(hand: int, rand: Callable[[], float]) -> int:
    """A legal discard drawn uniformly from :func:`legal_discards`, cheaply in the
    common case (two or more non-King suit cards and no "keep no trump" option)."""
    suits = hand & NONKING_SUIT_MASK
    n = suits.bit_count()
    trumps = hand & TRUMP_MASK
    if n >= 2 and (trumps.bit_count() > 2 or trumps & NEVER_DISCARD_MASK or not trumps):
        cards = mask_cards(suits)
        i = int(rand() * n)
        j = int(rand() * (n - 1))
        if j >= i:
            j += 1
        return 1 << cards[i] | 1 << cards[j]
    options = legal_discards(hand)
    return options[int(rand() * len(options))]


def random_playout(
    hands: list[int], leader: int, rand: Callable[[], float]
) -> tuple[tuple[int, int], tuple[int, int]]:
    """Play every remaining card at random from trick boundaries; ``hands`` is
    consumed.  Returns the team piles (captures plus own Matto) and tricks won."""
    piles = [0, 0]
    won = [0, 0]
    suit_mask = SUIT_MASK
    suit_of = SUIT
    while hands[leader]:
        led = NO_SUIT
        seat = leader
        best = -1
        winner = leader
        taken = 0
        for _k in range(4):
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
            r = int(rand() * legal.bit_count())
            while r:
                legal &= legal - 1
                r -= 1
            low = legal & -legal
            hands[seat] = hand ^ low
            card = low.bit_length() - 1
            if card == MATTO:
                piles[TEAM[seat]] |= low
            else:
                s = suit_of[card]
                if led == NO_SUIT:
                    led = s
                key = card + 100 if s == TRUMP_SUIT else (card if s == led else -1)
                if key > best:
                    best, winner = key, seat
                taken |= low
            seat = (seat + 1) & 3
        t = TEAM[winner]
        piles[t] |= taken
        won[t] += 1
        leader = winner
    return (piles[0], piles[1]), (won[0], won[1])


def random_deal_fast(rng: Rng, rand: Callable[[], float]) -> tuple[int, int]:
    """One random legal deal through the raw core: deal (our generator), discard,
    15 tricks, score; moves drawn with ``rand`` (a C-speed ``random.random``).

    This is the loop AI playouts are built from; ``tarocchi bench engine`` times it.
    """
    dealer = rng.below(4)
    hands_t, _ = deal_hands(rng, dealer)
    hands = list(hands_t)
    discard = random_discard(hands[dealer], rand)
    hands[dealer] &= ~discard
    piles, won = random_playout(hands, (dealer + 1) & 3, rand)
    return score_deal(piles, won, dealer, discard)
