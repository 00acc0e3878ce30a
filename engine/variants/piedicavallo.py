"""Piedicavallo Tarocchi (RULES.md R1-R13): four players, partners opposite, the
62-card pack, the dealer's 17 cards and discard of two, 15 tricks, 114 points,
a single deal or a match of four."""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import Pack, mask_cards
from ..errors import Refusal
from ..rulebook import Rand, Ruleset

_BLACK = ("5", "6", "7", "8", "9", "10", "J", "N", "Q", "K")  # weakest first (R3)
_RED = ("6", "5", "4", "3", "2", "1", "J", "N", "Q", "K")
_COURT_POINTS = {"K": 5, "Q": 4, "N": 3, "J": 2}


def _points() -> dict[str, int]:
    pts = {f"T{n}": 1 for n in range(1, 22)}
    pts.update({"T1": 5, "T21": 5, "M": 5})  # R4
    for s, ranks in zip("SBCD", (_BLACK, _BLACK, _RED, _RED), strict=True):
        for r in ranks:
            pts[s + r] = _COURT_POINTS.get(r, 1)
    return pts


PACK = Pack(
    "piedicavallo",
    trumps=[f"T{n}" for n in range(1, 22)],
    suits={"S": _BLACK, "B": _BLACK, "C": _RED, "D": _RED},
    points=_points(),
)
assert PACK.n_cards == 62 and PACK.total_points == 114  # R1, R4

T1 = PACK.parse("T1")
T21 = PACK.parse("T21")
#: Cards that R6 never lets the dealer discard.
NEVER_DISCARD_MASK = PACK.king_mask | (1 << T1) | (1 << T21) | PACK.matto_mask


class Piedicavallo(Ruleset):
    name = "piedicavallo"
    title = "Piedicavallo Tarocchi"
    pack = PACK
    n_seats = 4
    seat_names = ("South", "East", "North", "West")
    side = (0, 1, 0, 1)  # R2: teams {0, 2} and {1, 3}
    n_sides = 2
    hand_cards = 15
    dealer_extra = 2
    stock_cards = 0
    packets = (5, 5, 5)  # R5 leaves the packet size to us
    discard_cards = 2
    announces_discard_trumps = True  # R6
    game_lengths = (1, 4)  # R13
    full_game = 4
    game_text = "a match is four deals"
    total = 114
    surrender = True  # R11: a sweep gives the winners all 114
    rule_pack, rule_seats, rule_deal, rule_discard = "R1", "R2", "R5", "R6"
    rule_play, rule_winner, rule_matto, rule_score, rule_game = "R7", "R8", "R9", "R10", "R13"

    never_discard_mask = NEVER_DISCARD_MASK

    # --- R6 --------------------------------------------------------------------------

    def discard_refusal(self, hand: int, cards: int) -> Refusal | None:
        bad = self._size_refusal(hand, cards)
        if bad:
            return bad
        p = self.pack
        if cards & NEVER_DISCARD_MASK:
            never = mask_cards(cards & NEVER_DISCARD_MASK)
            return Refusal(
                "R6", "never_discard",
                f"{self._codes(never)} may never be discarded: no King, trump 1, trump 21 or Matto (R6)",
                cards=tuple(never),
            )
        trumps = (cards & p.trump_mask).bit_count()
        if trumps == 0:
            return None
        if not (hand & ~cards & p.trump_mask):
            return None  # (b) no trump left after the discard
        nonking = (hand & p.nonking_suit_mask).bit_count()
        if nonking < 2 and trumps == 2 - nonking:
            return None  # (a) no choice, and only as many trumps as needed
        if nonking < 2:
            return Refusal(
                "R6", "discard_trumps_max",
                f"only {2 - nonking} trump(s) may be discarded with this hand (R6)", count=2 - nonking,
            )
        return Refusal(
            "R6", "discard_trump",
            "a trump may be discarded only with no other choice or to keep no trump (R6)",
        )

    def legal_discards(self, hand: int) -> Sequence[int]:
        """Built constructively (a test checks it against :meth:`discard_refusal`)."""
        p = self.pack
        suits = mask_cards(hand & p.nonking_suit_mask)
        spare_trumps = mask_cards(hand & p.trump_mask & ~NEVER_DISCARD_MASK)
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
                    1 << a | 1 << b
                    for i, a in enumerate(spare_trumps)
                    for b in spare_trumps[i + 1 :]
                )
        all_trumps = hand & p.trump_mask
        if all_trumps and not (all_trumps & NEVER_DISCARD_MASK) and all_trumps.bit_count() <= 2:
            # (b) discard every trump held
            if all_trumps.bit_count() == 2:
                pairs.add(all_trumps)
            else:
                pairs.update(all_trumps | 1 << s for s in suits)
        return sorted(pairs, key=mask_cards)

    def random_discard(self, hand: int, rand: Rand) -> int:
        """Uniform over the legal discards, cheaply in the common case (two or more
        non-King suit cards and no "keep no trump" option)."""
        p = self.pack
        suits = hand & p.nonking_suit_mask
        n = suits.bit_count()
        trumps = hand & p.trump_mask
        if n >= 2 and (trumps.bit_count() > 2 or trumps & NEVER_DISCARD_MASK or not trumps):
            cards = mask_cards(suits)
            i = int(rand() * n)
            j = int(rand() * (n - 1))
            if j >= i:
                j += 1
            return 1 << cards[i] | 1 << cards[j]
        options = self.legal_discards(hand)
        return options[int(rand() * len(options))]

    def hidden_discard(
        self, unseen: int, trumps: int, dealer_played: int, dealer_void: int
    ) -> tuple[list[tuple[int, int]], int]:
        """What a non-dealer knows of the discard: two cards, never a King, trump 1,
        trump 21 or the Matto, exactly ``trumps`` of them trumps (announced).  A
        trump in the discard also says what the dealer kept (R6): no trump (b),
        or no non-King suit card (a), very rare, chosen only when forced.
        Returns (allowed cards, how many) per part, and cards the dealer cannot hold."""
        p = self.pack
        ok = unseen & ~NEVER_DISCARD_MASK
        holders = []
        if trumps:
            holders.append((ok & p.trump_mask, trumps))
        if trumps < 2:
            holders.append((ok & p.nonking_suit_mask, 2 - trumps))
        void = 0
        if trumps > 0:
            void = p.nonking_suit_mask if dealer_played & p.trump_mask else p.trump_mask
        return holders, void

PIEDICAVALLO = Piedicavallo()
