"""How the engine's events move the cards: the deal (gather, shuffle, cut, packets),
a card played or laid aside, a trick shown then gathered, the stock taken.

:class:`Motion` choreographs the scene's cards for one event at a time: it
queues tweens on the sprites (``tween_to``, ``animate_to``) and timed calls
(``at``) on its scene (a :class:`Stage`), plays the sounds, and returns how long
the event takes, in seconds with the scene's speed applied.  Times in the code
are at speed 1.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Collection
from typing import Protocol

from arcade import easing

from engine.ruleset import Ruleset
from engine.state import CardPlayed, DealScored, Dealt, Discarded, Event, TrickTaken
from game.common import layout
from game.common.constants import (
    T_CUT,
    T_DISCARD,
    T_PACKET,
    T_PACKET_GAP,
    T_PLAY,
    T_SHUFFLE,
    T_SWEEP,
    T_TRICK_SHOW,
)
from game.common.layout import Key, Place, Seating
from game.common.position import Position
from game.common.sound import SoundBoard
from game.table.scene.labels import TableLabels
from game.table.scene.sprites import CardSprite, Ease


class Stage(Protocol):
    """The scene as its motion sees it (:class:`~game.table.scene.table_scene.TableScene`)."""

    rules: Ruleset
    speed: float
    clock: float
    sound: SoundBoard | None
    seating: Seating
    labels: TableLabels
    sprites: list[CardSprite]
    trick_marks: dict[int, str]

    def places(self, pos: Position, raised: Collection[int] = ..., highlight: int | None = ...) -> dict[Key, Place]: ...

    def tween_to(self, s: CardSprite, end: Place, start: float, duration: float, ease: Ease | None = ...) -> None: ...

    def animate_to(self, pos: Position, start: float = ..., duration: float = ...,
                   delays: dict[Key, float] | None = ..., hint_seat: int | None = ...,
                   raised: Collection[int] = ..., highlight: int | None = ...) -> float: ...

    def at(self, delay: float, fn: Callable[[], None]) -> None: ...

    def settle_at(self, after: Position, dur: float) -> float: ...

    def clear_trick_words(self) -> None: ...


class Motion:
    """The animations of the engine's events on one scene (its :class:`Stage`)."""

    def __init__(self, scene: Stage) -> None:
        self.scene = scene
        self.rules = scene.rules

    def animate(self, event: Event, before: Position, after: Position) -> float:
        """Start animating ``event``; returns its duration (seconds, speed applied)."""
        sc = self.scene
        if isinstance(event, Dealt) and self.rules.stock_cards:
            return self.take(after, self.deal(event, after.with_stock_out()))
        sc.clear_trick_words()
        if isinstance(event, Dealt):
            dur = self._deal(event, after)
        elif isinstance(event, Discarded):
            self.sound("play")
            dur = sc.animate_to(after, 0.0, T_DISCARD, hint_seat=event.seat)
        elif isinstance(event, CardPlayed):
            self.sound("matto" if event.card == self.rules.pack.matto else "play")
            dur = sc.animate_to(after, 0.0, T_PLAY, hint_seat=event.seat)
        elif isinstance(event, TrickTaken):
            dur = self._trick(event, before, after)
        elif isinstance(event, DealScored):
            dur = 0.2 / sc.speed
        else:
            dur = 0.0
        return sc.settle_at(after, dur)

    def deal(self, event: Dealt, out: Position) -> float:
        """The deal up to the stock laid face down in the middle (``out``:
        :meth:`Position.with_stock_out`); the whole deal where there is no stock."""
        self.scene.clear_trick_words()
        return self.scene.settle_at(out, self._deal(event, out))

    def take(self, after: Position, start: float = 0.0) -> float:
        """The dealer takes the stock into the hand (S4); ``start`` seconds from now
        (speed applied).  Returns when it is over, from now."""
        sp = self.scene.speed
        end = self.scene.animate_to(after, start * sp + 0.15, T_DISCARD, hint_seat=after.dealer)
        self.sound("deal", start + 0.15 / sp)
        return self.scene.settle_at(after, max(start, end))

    def sound(self, name: str, delay: float = 0.0) -> None:
        """Play a sound now, or ``delay`` seconds from now (none without a sound board)."""
        board = self.scene.sound
        if board is None:
            return
        if delay <= 0:
            board.play(name)
        else:
            self.scene.at(delay, lambda: board.play(name))

    def _trick(self, event: TrickTaken, before: Position, after: Position) -> float:
        """The card that takes the trick lifted and named, then the trick gathered."""
        sc = self.scene
        sp = sc.speed
        order = (event.winner - before.leader) % self.rules.n_seats
        winner_card = event.cards[order]
        s = next(x for x in sc.sprites if x.key == ("card", winner_card))
        lifted = layout.trick_place(sc.seating.spot(event.winner), order, highlight=True)
        sc.tween_to(s, lifted, sc.clock, 0.18 / sp, easing.ease_out)
        sc.trick_marks = {event.cards[0]: "lead", winner_card: "win"}
        sc.labels.say_winner(event.winner)

        def gather() -> None:
            sc.labels.say_winner(-1)
            sc.trick_marks = {}

        sc.at(T_TRICK_SHOW / sp, gather)
        self.sound("trick", T_TRICK_SHOW / sp)
        return sc.animate_to(after, T_TRICK_SHOW, T_SWEEP)

    # --- the deal ------------------------------------------------------------------------

    def _deal(self, event: Dealt, after: Position) -> float:
        """Gather, shuffle, cut by the dealer's left, packets anticlockwise (R5, S4)."""
        sc = self.scene
        sp = sc.speed
        dspot = sc.seating.spot(event.dealer)
        # 1. gather the pack in front of the dealer, face down
        order = sorted(sc.sprites, key=lambda s: (s.place.z, s.place.x))
        for i, s in enumerate(order):
            s.key = ("back", "deck", i)
            s.tweens.clear()
            p = layout.deck_place(dspot, i)
            if s.place != p:
                # the four cards of one place set off together: drawn as one (cull_covered)
                sc.tween_to(s, p, sc.clock + 0.01 * ((i // 4) % 8) / sp, 0.35 / sp)
        t = 0.45
        self._shuffle(order, dspot, t)
        t += T_SHUFFLE
        new_order = self._cut(order, event, t)
        t += T_CUT + 0.1
        n_packets = self._packets(new_order, event.dealer, after, t)
        end = t + n_packets * T_PACKET_GAP + T_PACKET + 0.1
        return end / sp

    def _shuffle(self, order: list[CardSprite], dspot: int, t: float) -> None:
        """2. shuffle: the top half slides out and is riffled back in, twice."""
        sc = self.scene
        sp = sc.speed
        self.sound("shuffle", t / sp)
        for rep in range(2):
            for i, s in enumerate(order):
                if i % 2 == rep:
                    base = layout.deck_place(dspot, i)
                    side = base._replace(x=base.x + (46 if rep == 0 else -46), y=base.y + 6)
                    sc.tween_to(s, side, sc.clock + (t + rep * T_SHUFFLE / 2) / sp, T_SHUFFLE / 4 / sp)
                    sc.tween_to(s, base, sc.clock + (t + rep * T_SHUFFLE / 2 + T_SHUFFLE / 4) / sp,
                                T_SHUFFLE / 4 / sp)

    def _cut(self, order: list[CardSprite], event: Dealt, t: float) -> list[CardSprite]:
        """3. the cut, toward the player who cuts (on the dealer's left); the pack's new order."""
        sc = self.scene
        sp = sc.speed
        n_cards = self.rules.pack.n_cards
        dspot = sc.seating.spot(event.dealer)
        cutter = self.rules.cutter(event.dealer)
        self.sound("cut", t / sp)
        cx, cy = layout.DECK_POS[sc.seating.spot(cutter)]
        dx0, dy0 = layout.DECK_POS[dspot]
        norm = math.hypot(cx - dx0, cy - dy0) or 1.0
        vx, vy = (cx - dx0) / norm * 60, (cy - dy0) / norm * 60
        n_top = n_cards - max(4, min(n_cards - 4, event.cut))
        top = order[n_cards - n_top:]
        rest = order[: n_cards - n_top]
        for i, s in enumerate(top):
            p = layout.deck_place(dspot, n_cards - n_top + i)
            sc.tween_to(s, p._replace(x=p.x + vx, y=p.y + vy), sc.clock + t / sp, T_CUT / 2 / sp)
        new_order = top + rest  # the cut-off top goes underneath
        for i, s in enumerate(new_order):
            sc.tween_to(s, layout.deck_place(dspot, i), sc.clock + (t + T_CUT / 2) / sp, T_CUT / 2 / sp)
        return new_order

    def _packets(self, new_order: list[CardSprite], dealer: int, after: Position, t: float) -> int:
        """4. packets anticlockwise from the dealer's right, as the ruleset deals
        them (its receivers: who gets each card of the cut pack; -1 the stock).
        The number of packets."""
        sc = self.scene
        sp = sc.speed
        targets = sc.places(after)
        owners: dict[int | None, list[Key]] = {}
        for k in targets:
            owners.setdefault(_receiver(k, after), []).append(k)
        for keys in owners.values():
            keys.sort(key=lambda k: targets[k].z)
        packets = [(seat, len(list(g))) for seat, g in itertools.groupby(self.rules.receivers[dealer])]
        taken: dict[int, int] = {}
        deck = list(reversed(new_order))  # top first
        pos = 0
        for p, (seat, size) in enumerate(packets):
            t_p = t + p * T_PACKET_GAP
            self.sound("deal", t_p / sp)
            for j in range(size):
                s = deck[pos]
                pos += 1
                i = taken.get(seat, 0)
                taken[seat] = i + 1
                k = owners[seat][i]
                s.key = k
                place = targets[k]
                sc.tween_to(s, place._replace(z=place.z + 200), sc.clock + (t_p + j * 0.012) / sp,
                            T_PACKET / sp, easing.ease_out)
                sc.tween_to(s, place, sc.clock + (t_p + T_PACKET) / sp, 0.01)
        return len(packets)


def _receiver(key: Key, pos: Position) -> int | None:
    """Who a dealt card goes to: a seat, or -1 for the stock."""
    if key[0] == "back":
        if key[1] == "stock":
            return -1
        return key[1] if isinstance(key[1], int) else None
    c = key[1]
    if pos.stock_out and pos.stock >> c & 1:
        return -1
    for seat, hand in enumerate(pos.hands):
        if hand is not None and hand >> c & 1:
            return seat
    return None


__all__ = ["Motion"]
