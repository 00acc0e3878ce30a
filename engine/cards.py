"""Cards as small ints, sets of cards as int bitmasks (RULES.md R1, R3, R4).

Card numbering (one bit each in a 62-bit mask):

* 0..20   trumps T1..T21 (bit order = rank order, T21 highest)
* 21      the Matto
* 22..31  Swords  5, 6, 7, 8, 9, 10, J, N, Q, K
* 32..41  Batons  5, 6, 7, 8, 9, 10, J, N, Q, K
* 42..51  Cups    6, 5, 4, 3, 2, 1, J, N, Q, K
* 52..61  Coins   6, 5, 4, 3, 2, 1, J, N, Q, K

Within a suit a higher bit is a stronger card, so "the highest card of a suit in a
mask" is just the highest set bit of ``mask & SUIT_MASK[suit]``.  The ascending
int order is also the order of the legal-move list.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

Card = int

N_CARDS = 62
N_TRUMPS = 21
MATTO: Card = 21

# Suits: 0 Swords, 1 Batons, 2 Cups, 3 Coins; TRUMP_SUIT = 4 for trumps; the Matto has
# no suit (NO_SUIT).
SWORDS, BATONS, CUPS, COINS, TRUMP_SUIT = 0, 1, 2, 3, 4
NO_SUIT = -1
SUIT_LETTERS = "SBCD"
SUIT_NAMES = ("Swords", "Batons", "Cups", "Coins", "Trumps")

_BLACK_RANKS = ("5", "6", "7", "8", "9", "10", "J", "N", "Q", "K")
_RED_RANKS = ("6", "5", "4", "3", "2", "1", "J", "N", "Q", "K")
RANKS_BY_SUIT = (_BLACK_RANKS, _BLACK_RANKS, _RED_RANKS, _RED_RANKS)

ALL_MASK = (1 << N_CARDS) - 1
TRUMP_MASK = (1 << N_TRUMPS) - 1
MATTO_MASK = 1 << MATTO
SUIT_MASK = tuple(((1 << 10) - 1) << (22 + 10 * s) for s in range(4)) + (TRUMP_MASK,)
KING_MASK = sum(1 << (22 + 10 * s + 9) for s in range(4))
T1: Card = 0
T21: Card = 20
#: Cards that R6 never lets the dealer discard.
NEVER_DISCARD_MASK = KING_MASK | (1 << T1) | (1 << T21) | MATTO_MASK
#: Suit cards other than Kings (R6's "non-King suit cards").
NONKING_SUIT_MASK = (SUIT_MASK[0] | SUIT_MASK[1] | SUIT_MASK[2] | SUIT_MASK[3]) & ~KING_MASK


def _suit_of(card: Card) -> int:
    if card < N_TRUMPS:
        return TRUMP_SUIT
    if card == MATTO:
        return NO_SUIT
    return (card - 22) // 10


def _points_of(card: Card) -> int:
    if card in (T1, T21, MATTO):
        return 5
    if card < N_TRUMPS:
        return 1
    return {9: 5, 8: 4, 7: 3, 6: 2}.get((card - 22) % 10, 1)


def _code_of(card: Card) -> str:
    if card < N_TRUMPS:
        return f"T{card + 1}"
    if card == MATTO:
        return "M"
    suit, idx = divmod(card - 22, 10)
    return SUIT_LETTERS[suit] + RANKS_BY_SUIT[suit][idx]


#: Per-card tables, indexed by card int.
SUIT: tuple[int, ...] = tuple(_suit_of(c) for c in range(N_CARDS))
POINTS: tuple[int, ...] = tuple(_points_of(c) for c in range(N_CARDS))
CODES: tuple[str, ...] = tuple(_code_of(c) for c in range(N_CARDS))
_BY_CODE: dict[str, Card] = {code: c for c, code in enumerate(CODES)}

TOTAL_POINTS = sum(POINTS)
assert TOTAL_POINTS == 114

# Points of any mask by summing an 8-bit lookup per byte (hot in scoring and search).
_BYTE_POINTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum(POINTS[8 * b + i] for i in range(8) if v >> i & 1 and 8 * b + i < N_CARDS)
        for v in range(256)
    )
    for b in range(8)
)


def mask_points(mask: int) -> int:
    """Card points (R4) of every card in ``mask``."""
    t = _BYTE_POINTS
    return (
        t[0][mask & 255]
        + t[1][mask >> 8 & 255]
        + t[2][mask >> 16 & 255]
        + t[3][mask >> 24 & 255]
        + t[4][mask >> 32 & 255]
        + t[5][mask >> 40 & 255]
        + t[6][mask >> 48 & 255]
        + t[7][mask >> 56 & 255]
    )


def mask_cards(mask: int) -> list[Card]:
    """The cards of ``mask`` in ascending order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def cards_mask(cards: Iterable[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


class CardError(ValueError):
    """A text that is not a card code of the replay format."""


def parse_card(text: str) -> Card:
    """``"SK"`` -> the King of Swords; raises :class:`CardError` for unknown codes."""
    try:
        return _BY_CODE[text]
    except (KeyError, TypeError):
        raise CardError(f"unknown card code {text!r}") from None


def card_str(card: Card) -> str:
    return CODES[card]


def card_name(card: Card) -> str:
    """A long English name, for messages."""
    if card < N_TRUMPS:
        return f"trump {card + 1}"
    if card == MATTO:
        return "the Matto"
    suit, idx = divmod(card - 22, 10)
    rank = RANKS_BY_SUIT[suit][idx]
    words = {"K": "King", "Q": "Queen", "N": "Knight", "J": "Jack", "1": "Ace"}
    return f"{words.get(rank, rank)} of {SUIT_NAMES[suit]}"


class CardSet:
    """An immutable set of cards over an int bitmask (after python-chess's SquareSet)."""

    __slots__ = ("mask",)

    def __init__(self, cards: Iterable[Card] | int = 0) -> None:
        m = cards if isinstance(cards, int) else cards_mask(cards)
        if m < 0 or m > ALL_MASK:
            raise ValueError(f"not a card mask: {m:#x}")
        self.mask: int = m

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """``CardSet.parse("SK T21 M")``; the inverse of ``str``."""
        return cls(parse_card(t) for t in text.split())

    def __iter__(self) -> Iterator[Card]:
        return iter(mask_cards(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < N_CARDS and bool(self.mask >> card & 1)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __bool__(self) -> bool:
        return self.mask != 0

    @property
    def points(self) -> int:
        return mask_points(self.mask)

    def codes(self) -> list[str]:
        return [CODES[c] for c in mask_cards(self.mask)]

    def __str__(self) -> str:
        return " ".join(self.codes())

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"


FULL_PACK = CardSet(ALL_MASK)
