"""Scarto (RULES.md S1-S6): three players each for themselves, the full 78-card
pack, 25 cards each and a 3-card stock for the dealer, who lays 3 aside;
trumps 20 > 21 > 19 ... 1; counting in threes; a game of three deals."""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import Pack, mask_cards
from ..errors import Refusal
from ..rulebook import Combinations, Rand, Ruleset

_LONG = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K")  # weakest first
_ROUND = ("10", "9", "8", "7", "6", "5", "4", "3", "2", "1", "J", "N", "Q", "K")
_COURT_POINTS = {"K": 5, "Q": 4, "N": 3, "J": 2}


def _points() -> dict[str, int]:
    pts = {f"T{n}": 1 for n in range(1, 22)}
    pts.update({"T1": 5, "T20": 5, "M": 4})  # S3: trump 21 is worth 1
    for s, ranks in zip("SBCD", (_LONG, _LONG, _ROUND, _ROUND), strict=True):
        for r in ranks:
            pts[s + r] = _COURT_POINTS.get(r, 1)
    return pts


PACK = Pack(
    "scarto",
    trumps=[f"T{n}" for n in range(1, 20)] + ["T21", "T20"],  # S2: 20 beats 21
    suits={"S": _LONG, "B": _LONG, "C": _ROUND, "D": _ROUND},
    points=_points(),
)
assert PACK.n_cards == 78 and PACK.total_points == 129  # S1, S3

T1 = PACK.parse("T1")
T20 = PACK.parse("T20")
#: S4: never a King, trump 20 or the Matto.
NEVER_DISCARD_MASK = PACK.king_mask | (1 << T20) | PACK.matto_mask


class Scarto(Ruleset):
    name = "scarto"
    title = "Scarto"
    pack = PACK
    n_seats = 3
    seat_names = ("South", "East", "West")  # S1
    side = (0, 1, 2)  # each for themselves
    n_sides = 3
    hand_cards = 25
    dealer_extra = 0
    stock_cards = 3
    packets = (5, 5, 5, 5, 5)  # S4
    discard_cards = 3
    announces_discard_trumps = False  # S4: nobody else sees the discard
    game_lengths = (1, 3)  # S6
    full_game = 3
    default_deals = 3  # S6: a game is three deals (a single deal says "deals": 1)
    game_text = "a game is three deals"
    # S6, counting in threes, as additive terms: a group of three is worth its
    # points - 2, the Matto's trick leaves a group of two worth points + 1 - 2,
    # and the dealer's three discarded cards are a group of their own.
    trick_adjust = -2
    matto_trick_adjust = 1
    discard_adjust = -2
    par = 26
    total = 78
    rule_pack = rule_seats = "S1"
    rule_deal = rule_discard = "S4"
    rule_play = rule_winner = rule_matto = "S5"
    rule_score = rule_game = "S6"

    never_discard_mask = NEVER_DISCARD_MASK

    def eligible(self, hand: int) -> int:
        """The cards of ``hand`` that may be laid aside (S4): no King, trump 20 or
        Matto; trump 1 only when the hand holds no other trump and no Matto."""
        p = self.pack
        ok = hand & ~NEVER_DISCARD_MASK
        if hand & (p.trump_mask | p.matto_mask) & ~(1 << T1):
            ok &= ~(1 << T1)
        return ok

    def discard_refusal(self, hand: int, cards: int) -> Refusal | None:
        bad = self._size_refusal(hand, cards)
        if bad:
            return bad
        if cards & NEVER_DISCARD_MASK:
            never = mask_cards(cards & NEVER_DISCARD_MASK)
            words = []
            if cards >> T20 & 1:
                words.append("trump 20 may not be discarded")
            if cards & self.pack.king_mask:
                words.append("a King may not be discarded")
            if cards & self.pack.matto_mask:
                words.append("the Matto may not be discarded")
            return Refusal("S4", "never_discard", f"{'; '.join(words)} (S4)", cards=tuple(never))
        if cards & ~self.eligible(hand):
            return Refusal(
                "S4", "trump1_with_trumps",
                "trump 1 may be discarded only by a dealer with no other trump and no Matto (S4)",
                cards=(T1,),
            )
        return None

    def legal_discards(self, hand: int) -> Sequence[int]:
        return Combinations(mask_cards(self.eligible(hand)), 3)

    def random_discard(self, hand: int, rand: Rand) -> int:
        cards = mask_cards(self.eligible(hand))
        n = len(cards)
        out = 0
        for i in range(3):  # a partial Fisher-Yates: three distinct cards
            j = i + int(rand() * (n - i))
            cards[i], cards[j] = cards[j], cards[i]
            out |= 1 << cards[i]
        return out

    def hidden_discard(
        self, unseen: int, trumps: int, dealer_played: int, dealer_void: int
    ) -> tuple[list[tuple[int, int]], int]:
        """What a non-dealer knows of the discard: three cards, no King, trump 20 or
        Matto; trump 1 only from a dealer without trumps and Matto, so only once
        the dealer has shown it holds no trump and has not played the Matto."""
        p = self.pack
        ok = unseen & ~NEVER_DISCARD_MASK
        if not dealer_void & p.trump_mask or dealer_played & (p.trump_mask | p.matto_mask):
            ok &= ~(1 << T1)
        return [(ok, 3)], 0


SCARTO = Scarto()
