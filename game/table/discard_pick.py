"""The dealer's discard being chosen at the table, card by card (no arcade).

The dealer lays cards aside (two in Piedicavallo, R6; three in Scarto, S4) by
clicking them one at a time.  :class:`DiscardPick` holds the cards picked so far
and asks the ruleset which cards may still join them (some legal discard holds
them all) and, for a card that may not, why not: the ruleset's own refusal.
The cards picked are raised, those that cannot join them dimmed; once a whole
discard is picked the table asks to confirm it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.cards import mask_cards
from engine.errors import Refusal
from engine.state import DISCARD, Discard
from engine.view import SeatView
from game.common.words import msg
from game.table.table_api import Table


def discard_options(masks: Iterable[int], chosen: int) -> int:
    """Every card that may join ``chosen`` in some legal discard (``masks``)."""
    out = 0
    for m in masks:
        if m & chosen == chosen:
            out |= m
    return out & ~chosen


def extends(masks: Iterable[int], chosen: int) -> bool:
    """Whether some legal discard holds every card of ``chosen``."""
    return any(m & chosen == chosen for m in masks)


class DiscardPick:
    """The cards the dealer has picked for the discard, in the order picked."""

    def __init__(self, ctl: Table) -> None:
        self.ctl = ctl
        self.rules = ctl.rules
        self.selected: list[int] = []

    def clear(self) -> None:
        self.selected = []

    @property
    def complete(self) -> bool:
        """A whole discard is picked."""
        return len(self.selected) == self.rules.discard_cards

    def _mask(self, without: int = -1) -> int:
        chosen = 0
        for c in self.selected:
            if c != without:
                chosen |= 1 << c
        return chosen

    def toggle(self, hand: int, card: int, order: Sequence[int]) -> Refusal | None:
        """Put back a card picked, or pick ``card`` (the first one picked goes back
        when a whole discard was picked already); a card that cannot go with the
        others is not picked and the ruleset's refusal says why.  ``hand``: the
        dealer's cards; ``order``: as they are laid out."""
        if card in self.selected:
            self.selected.remove(card)
            return None
        if self.complete:
            self.selected.pop(0)
        refusal = self.refusal(hand, card, order)
        if refusal is None:
            self.selected.append(card)
        return refusal

    def refusal(self, hand: int, card: int, order: Sequence[int]) -> Refusal | None:
        """Why ``card`` cannot go with the cards already picked (the ruleset's own
        reason, R6 or S4), or None."""
        rules = self.rules
        chosen = self._mask(without=card)
        need = chosen | 1 << card
        masks = rules.legal_discards(hand)
        if extends(masks, need):
            return None
        # a discard of the right size holding them, for the ruleset to say why not
        full = need
        for c in [*mask_cards(discard_options(masks, chosen)), *order]:
            if full.bit_count() >= rules.discard_cards:
                break
            full |= 1 << c
        refusal = rules.discard_refusal(hand, full)
        return refusal or Refusal(rules.rule_discard, "discard_together", "not with the cards already chosen",
                                  cards=(card,))

    def allowed(self, hand: int) -> frozenset[int]:
        """The cards picked and those that may still join them."""
        masks = self.rules.legal_discards(hand)
        return frozenset(mask_cards(discard_options(masks, self._mask()))) | frozenset(self.selected)

    def in_order(self, order: Sequence[int]) -> tuple[int, ...]:
        """The cards picked, in the order of the hand as it is laid out."""
        return tuple(sorted(self.selected, key=order.index))

    # --- at the table -------------------------------------------------------------------

    def pick(self, view: SeatView, card: int) -> bool:
        """The dealer clicked ``card``: picked or put back (:meth:`toggle`), or
        refused with the rule's reason."""
        ctl = self.ctl
        refusal = self.toggle(view.hand, card, ctl.hand_order())
        if refusal:
            ctl.refuse(refusal, card)
            return False
        self.show(view)
        return True

    def show(self, view: SeatView) -> None:
        """The cards picked raised, those that cannot join them dimmed, and the prompt:
        the cards to lay aside, or the discard to confirm."""
        ctl = self.ctl
        order = ctl.hand_order()
        ctl.out.lay(ctl.position(), frozenset(self.selected), frozenset(order) - self.allowed(view.hand), True)
        if self.complete:
            ctl.say(msg("confirm_discard", cards=self.in_order(order)), "prompt")
        else:
            ctl.say(msg("your_discard", n=self.rules.discard_cards), "prompt")

    @property
    def ready(self) -> bool:
        """The dealer has picked a whole discard: the confirm button shows."""
        ctl = self.ctl
        return ctl.prompt_for == ctl.session.cursor and ctl.view().phase == DISCARD and self.complete

    def confirm(self) -> None:
        """Lay the discard picked aside (the engine has the last word)."""
        if self.ready and self.ctl.can_act():
            self.ctl.submit(Discard(self.ctl.view().turn, tuple(sorted(self.selected))))


__all__ = ["DiscardPick", "discard_options", "extends"]
