"""The keyboard at the table: a cursor over the viewer's hand, and Enter (no arcade).

Left and Right walk the cursor over the hand as it is laid out (it wraps round);
Enter or Space then confirms a whole discard, or plays (or picks for the
discard) the card under the cursor; while the table waits for a click it goes
on instead, and after a failed save it tries again.
"""

from __future__ import annotations

from collections.abc import Sequence

from game.table.discard_pick import DiscardPick
from game.table.table_api import Table


class KeyCursor:
    """Where the cursor stands: an index into the hand as laid out, -1 before the
    first arrow is pressed (then nothing is outlined)."""

    def __init__(self, ctl: Table, discard: DiscardPick) -> None:
        self.ctl = ctl
        self.discard = discard
        self.index = -1

    def reset(self) -> None:
        self.index = -1

    def step(self, step: int) -> bool:
        """Left (-1) or Right (+1) over the hand, when the viewer may act (the first
        arrow lands on the first card, or the last going left)."""
        n = len(self.ctl.hand_order()) if self.ctl.can_act() else 0
        if not n:
            return False
        if self.index < 0:
            self.index = 0 if step > 0 else n - 1
        else:
            self.index = (self.index + step) % n
        return True

    def card(self, order: Sequence[int]) -> int | None:
        """The card under the cursor in ``order`` (the hand as laid out), if any."""
        return order[self.index] if 0 <= self.index < len(order) else None

    def press(self) -> bool:
        """Enter or Space (see the module); False where it means nothing now."""
        ctl = self.ctl
        if ctl.retry_save():
            return True
        if ctl.waiting:  # a trick goes on; the end of a deal waits for its choice (never this key)
            if ctl.waiting == "trick":
                ctl.continue_()
            return True
        ready = self.discard.ready
        if ready and ctl.can_act():
            self.discard.confirm()
            return True
        card = self.card(ctl.hand_order()) if ctl.can_act() else None
        if card is not None:
            ctl.click_card(card)
            return True
        if ready:
            self.discard.confirm()
            return True
        return False


__all__ = ["KeyCursor"]
