"""Cards as small ints, sets of cards as int bitmasks, for any tarot pack.

A :class:`Pack` numbers its cards so that one layout serves every game:

* ``0 .. n_trumps-1``  the trumps, in trick-strength order (the weakest is 0);
* ``n_trumps``         the Matto;
* then each suit (Swords, Batons, Cups, Coins) as a block, weakest card first.

So "the strongest card of a suit in a mask" is the highest set bit of
``mask & suit_mask[suit]``, and one table (:attr:`Pack.strength`) ranks every
card for the trick (trumps above every suit card).  The ascending int order is
the order of the legal-move list.  Each game's pack is built in its own module
(:mod:`engine.variants`); a 62-card pack and the full 78-card pack both fit in
one Python int.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator, Mapping, Sequence

Card = int

SWORDS, BATONS, CUPS, COINS, TRUMP_SUIT = 0, 1, 2, 3, 4
NO_SUIT = -1
SUIT_LETTERS = "SBCD"
SUIT_NAMES = ("Swords", "Batons", "Cups", "Coins", "Trumps")
#: Added to a trump's int for its trick strength, above every suit card.
TRUMP_BONUS = 128
_RANK_WORDS = {"K": "King", "Q": "Queen", "N": "Knight", "J": "Jack", "1": "Ace"}


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


class Pack:
    """The cards of one game: codes, suits, trick strength and points, as tuples
    indexed by card int, and the masks the rules are written with.

    ``trumps`` lists the trump codes weakest first; ``suits`` maps each suit
    letter to its ranks weakest first; ``points`` gives every card's value.
    """

    def __init__(
        self,
        name: str,
        trumps: Sequence[str],
        suits: Mapping[str, Sequence[str]],
        points: Mapping[str, int],
    ) -> None:
        if tuple(suits) != tuple(SUIT_LETTERS):
            raise ValueError("a pack has the four suits S, B, C, D in that order")
        self.name = name
        self._lay_out(trumps, suits, points)
        self._masks()
        self._trick_tables()

    def _lay_out(
        self, trumps: Sequence[str], suits: Mapping[str, Sequence[str]], points: Mapping[str, int]
    ) -> None:
        """Number the cards: the trumps weakest first, the Matto, then each suit
        weakest first; each card's code, suit, rank and points."""
        self.n_trumps = len(trumps)
        self.matto: Card = self.n_trumps
        codes = [*trumps, "M"]
        suit = [TRUMP_SUIT] * self.n_trumps + [NO_SUIT]
        rank = list(range(self.n_trumps)) + [0]
        self.suit_size = tuple(len(r) for r in suits.values())
        self.suit_start: tuple[int, ...] = ()
        starts = []
        for s, (letter, ranks) in enumerate(suits.items()):
            starts.append(len(codes))
            codes += [letter + r for r in ranks]
            suit += [s] * len(ranks)
            rank += list(range(len(ranks)))
        self.suit_start = tuple(starts)
        self.codes: tuple[str, ...] = tuple(codes)
        self.n_cards = len(codes)
        self.suit: tuple[int, ...] = tuple(suit)
        self.rank: tuple[int, ...] = tuple(rank)
        self.points: tuple[int, ...] = tuple(points[c] for c in codes)
        if set(points) != set(codes):
            raise ValueError(f"points given for {sorted(set(points) ^ set(codes))}")
        self.by_code: dict[str, Card] = {c: i for i, c in enumerate(codes)}

    def _masks(self) -> None:
        """The bitmasks of the whole pack, the trumps, the Matto, each suit, the Kings
        and the Queens."""
        suit = self.suit
        self.all_mask = (1 << self.n_cards) - 1
        self.trump_mask = (1 << self.n_trumps) - 1
        self.matto_mask = 1 << self.matto
        self.suit_mask: tuple[int, ...] = tuple(
            sum(1 << c for c in range(self.n_cards) if suit[c] == s) for s in range(5)
        )
        self.king_mask = sum(1 << self.by_code[s + "K"] for s in SUIT_LETTERS)
        self.queen_mask = sum(1 << self.by_code[s + "Q"] for s in SUIT_LETTERS)
        #: Suit cards other than Kings.
        self.nonking_suit_mask = (
            self.suit_mask[0] | self.suit_mask[1] | self.suit_mask[2] | self.suit_mask[3]
        ) & ~self.king_mask

    def _trick_tables(self) -> None:
        """Per card its trick strength and the cards that beat it; the points of
        every byte of a mask."""
        suit = self.suit
        #: Trick strength: within a suit a higher int wins; any trump beats any suit
        #: card (the led-suit test is the caller's: an off-suit card never wins).
        self.strength: tuple[int, ...] = tuple(
            c + TRUMP_BONUS if suit[c] == TRUMP_SUIT else (-1 if c == self.matto else c)
            for c in range(self.n_cards)
        )
        #: Per card: the cards of its own suit (trumps for a trump) that beat it.
        self.higher: tuple[int, ...] = tuple(
            0 if c == self.matto else self.suit_mask[suit[c]] & ~((1 << (c + 1)) - 1)
            for c in range(self.n_cards)
        )
        self.total_points = sum(self.points)
        nbytes = (self.n_cards + 7) // 8
        self._byte_points: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                sum(self.points[8 * b + i] for i in range(8) if v >> i & 1 and 8 * b + i < self.n_cards)
                for v in range(256)
            )
            for b in range(nbytes)
        )

    # --- points ------------------------------------------------------------------

    def mask_points(self, mask: int) -> int:
        """Card points of every card in ``mask`` (an 8-bit lookup per byte)."""
        t = self._byte_points
        s = 0
        i = 0
        while mask:
            s += t[i][mask & 255]
            mask >>= 8
            i += 1
        return s

    # --- text --------------------------------------------------------------------

    def parse(self, text: str) -> Card:
        """``"SK"`` -> the King of Swords; raises :class:`CardError` for unknown codes."""
        try:
            return self.by_code[text]
        except (KeyError, TypeError):
            raise CardError(f"unknown card code {text!r}") from None

    def code(self, card: Card) -> str:
        return self.codes[card]

    def mask_codes(self, mask: int) -> list[str]:
        return [self.codes[c] for c in mask_cards(mask)]

    def rank_code(self, card: Card) -> str:
        """The rank part of a suit card's code (``"K"``, ``"10"``), the number of a
        trump (``"21"``), ``""`` for the Matto."""
        code = self.codes[card]
        return "" if card == self.matto else code[1:]

    def card_name(self, card: Card) -> str:
        """A long English name, for messages."""
        if self.suit[card] == TRUMP_SUIT:
            return f"trump {self.codes[card][1:]}"
        if card == self.matto:
            return "the Matto"
        rank = self.rank_code(card)
        return f"{_RANK_WORDS.get(rank, rank)} of {SUIT_NAMES[self.suit[card]]}"

    def cards(self, mask: int = -1) -> CardSet:
        """The friendly set of ``mask`` (the whole pack by default)."""
        return CardSet(self.all_mask if mask == -1 else mask, self)

    def parse_set(self, text: str) -> CardSet:
        return CardSet.parse(text, self.name)

    def __repr__(self) -> str:
        return f"<Pack {self.name}: {self.n_cards} cards>"


def pack_named(name: str) -> Pack:
    """The pack of the game ``name``, from the list of the games
    (:mod:`engine.variants`, whose modules build the packs).  That list is above
    this module, which never imports it at load time: it is imported by name
    when a pack is first asked for."""
    games = importlib.import_module("engine.variants")
    pack: Pack = games.ruleset(name).pack
    return pack


class CardSet:
    """An immutable set of cards of one pack, over an int bitmask (after
    python-chess's SquareSet)."""

    __slots__ = ("mask", "pack")

    def __init__(self, cards: Iterable[Card] | int, pack: Pack) -> None:
        m = cards if isinstance(cards, int) else cards_mask(cards)
        if m < 0 or m > pack.all_mask:
            raise ValueError(f"not a card mask of the {pack.name} pack: {m:#x}")
        self.mask: int = m
        self.pack = pack

    @classmethod
    def parse(cls, text: str, variant: str) -> CardSet:
        """``CardSet.parse("SK T21 M", "piedicavallo")``: the cards of a game's
        pack; the inverse of ``repr``."""
        pack = pack_named(variant)
        return cls((pack.parse(t) for t in text.split()), pack)

    def _new(self, mask: int) -> CardSet:
        return CardSet(mask, self.pack)

    def __iter__(self) -> Iterator[Card]:
        return iter(mask_cards(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < self.pack.n_cards and bool(self.mask >> card & 1)

    def __or__(self, other: CardSet) -> CardSet:
        return self._new(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return self._new(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return self._new(self.mask & ~other.mask)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask and other.pack is self.pack

    def __hash__(self) -> int:
        return hash((self.mask, self.pack.name))

    def __bool__(self) -> bool:
        return self.mask != 0

    @property
    def points(self) -> int:
        return self.pack.mask_points(self.mask)

    def codes(self) -> list[str]:
        return self.pack.mask_codes(self.mask)

    def __str__(self) -> str:
        return " ".join(self.codes())

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r}, {self.pack.name!r})"
