"""The engine's events shown one at a time, as steps for the view (no arcade).

The session knows events up to its ``cursor``; the display shows them one after
the other, behind it (``shown``), each once the view's animations of the one
before are over.  An event becomes a :class:`Step` for the view to animate and,
with it, what the table says (the deal's cutter, the discard's trumps, the
Matto) and the scene it enters.  A deal with a stock is two steps: the deal up
to the stock left in the middle, then the dealer taking it.  Where the tricks do
not go on by themselves, a trick taken waits for a click before it is gathered.
"""

from __future__ import annotations

from engine.state import PLAY, CardPlayed, DealScored, Dealt, Discarded, TrickTaken
from game.common.position import Position
from game.common.words import Msg, msg
from game.table.table_api import Scene, Step, Table, Waiting

#: how long the stock lies in the middle before the dealer takes it (speed 1)
T_STOCK_SHOW = 0.6

class StepFeed:
    """The events shown so far (``shown``), the steps queued after the one shown,
    the scene on the table and what it waits for (``waiting``; ``trick_winner``
    while a trick waits for its click)."""

    def __init__(self, ctl: Table) -> None:
        self.ctl = ctl
        self.rules = ctl.rules
        self.shown = 0  # events already shown (index into the session's events)
        self.queued: list[tuple[Step, Scene, Msg | None]] = []  # steps after the one shown
        self.scene: Scene = ""
        self.waiting: Waiting = ""
        self.trick_winner = -1

    @property
    def discard_scene(self) -> Scene:
        return "exchange" if self.rules.stock_cards else "discard"

    def enter(self, scene: Scene) -> None:
        """The table is in ``scene`` (its view is told once, as it enters)."""
        if scene and scene != self.scene:
            self.scene = scene
            on_scene = self.ctl.on_scene
            if on_scene:
                on_scene(scene)

    def clear(self) -> None:
        """Nothing queued, nothing waited for: the table is laid out afresh."""
        self.queued.clear()
        self.waiting = ""

    def advance(self) -> bool:
        """Hand the view what comes next: the step queued after the one shown, else
        the next event not shown yet; False when the display has caught up."""
        ctl = self.ctl
        if self.queued:
            step, scene, status = self.queued.pop(0)
            self.enter(scene)
            if status is not None:
                ctl.say(status)
            ctl.out.show(step)
            return True
        if self.shown < ctl.session.cursor:
            self.show_next()
            return True
        return False

    def show_next(self) -> None:
        """Hand the next event to the view (a trick taken waits for a click where
        the tricks do not go on by themselves)."""
        ctl = self.ctl
        i = self.shown
        event = ctl.session.event(i)  # as the viewer's seat saw it
        if isinstance(event, TrickTaken) and not ctl.auto_advance and not ctl.auto_continue \
                and ctl.human_seats and self.waiting != "trick-go":
            self.waiting = "trick"
            self.trick_winner = event.winner
            ctl.say(msg("click_to_continue"))
            return
        self.waiting = ""
        self.trick_winner = -1
        self.shown = i + 1
        before, after = ctl.position(i), ctl.position(i + 1)
        if isinstance(event, Dealt):
            self.enter("deal")
            ctl.say(msg("deal", dealer=event.dealer, cutter=self.rules.cutter(event.dealer)))
            if self.rules.stock_cards:
                self._deal_with_stock(event, before, after)
                return
        elif isinstance(event, Discarded):
            trumps = event.trumps if self.rules.announces_discard_trumps else -1
            ctl.announce(msg("discarded", seat=event.seat, n=self.rules.discard_cards, trumps=trumps))
        ctl.out.show(Step("event", event, before, after))
        if isinstance(event, DealScored):
            ctl.open_scoring(i, event)
            return
        if isinstance(event, CardPlayed) and ctl.banner is not None and ctl.banner.key == "discarded":
            ctl.banner = None  # the discard was announced until the play began
        if isinstance(event, CardPlayed) and event.card == self.rules.pack.matto:
            ctl.announce(msg("matto"), 1.2)
        if after.phase == PLAY and self.scene != "play" and not isinstance(event, Dealt):
            self.enter("play")

    def _deal_with_stock(self, event: Dealt, before: Position, after: Position) -> None:
        """The deal up to the stock left in the middle, then (queued) the dealer takes it."""
        out = after.with_stock_out()
        self.ctl.out.show(Step("deal", event, before, out))
        self.queued.append((Step("take", None, out, after, T_STOCK_SHOW), self.discard_scene,
                            msg("stock", seat=event.dealer, n=self.rules.stock_cards)))


__all__ = ["T_STOCK_SHOW", "StepFeed"]
