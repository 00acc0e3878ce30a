"""The table renderer: the card sprites of a game's pack, laid out and moved.

:class:`TableScene` is shared by the play table and the replay theatre.  It
knows nothing about input or players; it lays cards where a
:class:`~game.common.position.Position` says (``snap``) or animates an engine event as
the shown seats see it (``animate``).  A position holds only the hands of the
seats it was seen by (the play table's viewer; the theatre's open hands), so
the scene cannot show a card those seats have not seen.

The scene's rooms, each a module of this package: the sprites and their tweens
(``sprites``); the event animations, the deal's gathering, shuffle, cut and
packets among them (``motion``); the seats' plates and every label (``labels``);
the hands at rest drawn as fan images and strips (``hand_images``); the shadows
and glows (``shadows``); the last trick shown again (``last_trick``).

Public API
----------
``TableScene(rules, names=None, sound=None, subtitles=None, words=None, open_hands=False, bottom=0)``
    ``rules`` is the game's :class:`~engine.ruleset.Ruleset` (its pack, seats,
    sides); ``names`` label the seats (default: ``words.names()``); ``sound`` is
    a :class:`game.common.sound.SoundBoard` (or None for silence); ``bottom``
    the seat drawn at the bottom (:class:`game.common.layout.Seating`).  Needs a
    current arcade window (textures).
``snap(pos, raised=(), highlight=None)``
    Cancel every tween and lay all cards exactly where ``pos`` says.
``animate(event, before, after) -> float``
    Start the animation of one event (``before`` -> ``after`` positions);
    returns its duration in seconds (already divided by ``speed``).  The labels
    (counts, points, turn) follow ``after`` when the animation ends.  A deal
    with a stock is :meth:`animate_deal` then :meth:`animate_take`.
``relayout(pos, raised=(), duration=0.12)``
    Ease the cards to ``pos``'s places (e.g. to raise the viewer's legal cards).
``update(dt)``, ``draw()``, ``busy`` (tweens running), ``clock``.
``card_at(x, y, seat) -> card | None``
    The topmost face-up card of ``seat``'s hand under a logical point.
``set_dimmed(cards)``, ``set_names(names)``, ``speed`` (animation speed factor),
``last_trick_overlay`` (set to ``(leader, cards)`` to show a past trick).
``backdrop_marks()``
    The table's fixed marks (the ring round the trick with the arrows of the
    direction of play, the pile mats, the seats' name plates) as
    :mod:`game.common.paint` marks: the view paints them into its backdrop, once.

The look: every card casts a soft shadow on the felt (a shadow sprite under all
the cards, lifted further while the card flies; the hidden hands' fan images
carry theirs; the strips of the bottom hand at rest cast none, as their shadows
would lie under their neighbours and below the screen).  The card that led the
trick glows faintly; once every seat has played, the card that takes it glows
gold, and is lifted while the trick is shown before it is gathered.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from arcade import easing

from engine.ruleset import Ruleset
from engine.state import Dealt, Event
from game.common import damage, layout, textures
from game.common.constants import DIM, T_PLAY
from game.common.layout import Key, Place
from game.common.position import Position
from game.common.sound import SoundBoard
from game.common.words import Words
from game.table.scene.hand_images import HandImages
from game.table.scene.labels import TableLabels
from game.table.scene.last_trick import LastTrick, Trick
from game.table.scene.motion import Motion
from game.table.scene.shadows import Shadows, soft_textures
from game.table.scene.sprites import (
    OFFSCREEN,
    CardLook,
    CardSprite,
    Colour,
    Ease,
    Tween,
    lerp,
    lerp_angle,
    set_visible,
)


class TableScene:
    def __init__(self, rules: Ruleset, names: Sequence[str] | None = None, sound: SoundBoard | None = None,
                 subtitles: Sequence[str] | None = None, words: Words | None = None,
                 open_hands: bool = False, bottom: int = 0) -> None:
        """``open_hands``: other seats' hands may be shown face up (the theatre),
        so the top seat's plate stands clear of an open hand of 17."""
        self.rules = rules
        self.open_hands = open_hands
        self.words = words or Words(rules, None)
        self.n_seats = rules.n_seats
        self.seating = layout.Seating(rules, bottom)
        self.tex = textures.get()
        self.soft = soft_textures(self.tex.atlas)
        self.faces = self.tex.faces_for(rules)
        self.look = CardLook(self.tex, self.faces)
        self.sound = sound
        self.speed = 1.0
        self.pixelated = True  # nearest sampling: exact when the window shows 1:1
        self.clock = 0.0
        self.busy_until = 0.0
        self.sprites: list[CardSprite] = [CardSprite(self.tex.back) for _ in range(rules.pack.n_cards)]
        self.sprite_list = textures.sprite_list()
        for i, s in enumerate(self.sprites):
            s.key = ("back", "deck", i)
            self.sprite_list.append(s)
        self._resort = False
        self._dimmed: frozenset[int] = frozenset()
        self._timers: list[tuple[float, Callable[[], None]]] = []  # (time, call) fired by update
        self.last_trick_overlay: Trick | None = None
        self.trick_marks: dict[int, str] = {}  # card -> "lead" or "win" (its glow)
        self.shadows = Shadows(self.sprites, self.soft)
        self.hands = HandImages(self.look, self.sprites, self.seating.spots, rules.hand_cards,
                                rules.dealer_cards())
        self.labels = TableLabels(rules, self.words, self.seating, open_hands, self.tex)
        self.labels.set_names(names if names is not None else self.words.names(), subtitles)
        self.motion = Motion(self)
        self.last_trick = LastTrick(rules, self.faces, self.soft)
        #: a sheet lies over the table (the end of a deal): the name plates and every
        #: label are put away, so none shows half covered at the sheet's edges
        self.cleared = False
        self._info_pos: Position | None = None

    # --- the labels -------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return self.labels.names

    def set_names(self, names: Sequence[str], subtitles: Sequence[str] | None = None,
                  urgent: frozenset[int] = frozenset()) -> None:
        """Seat names (``names[seat]``) and a second line each (e.g. the AI level);
        ``urgent``: seats whose second line is kept over their card count."""
        self.labels.set_names(names, subtitles, urgent)
        if self._info_pos is not None:  # the second lines at once, with the cards held
            self.labels.show(self._info_pos)

    def backdrop_marks(self) -> tuple[Any, ...]:
        """The table's marks that never move, for the view's backdrop (see the module);
        without the name plates while the table is :attr:`cleared`."""
        return self.labels.backdrop_marks(self.cleared)

    def side_colour(self, side: int) -> Colour:
        return self.labels.side_colour(side)

    def _set_info(self, pos: Position) -> None:
        """Labels from ``pos``: card counts, each side's points and tricks, dealer, turn;
        the glows of the trick on the table."""
        self._info_pos = pos
        self.labels.show(pos)
        self._mark_trick(pos)

    def _mark_trick(self, pos: Position) -> None:
        """The glows of the trick on the table: the card that led it, and once every
        seat has played, the card that takes it (the ruleset's: the engine's rule)."""
        marks = {}
        if pos.trick:
            marks[pos.trick[0]] = "lead"
            if len(pos.trick) == self.n_seats:
                marks[pos.trick[self.rules.trick_winner_index(pos.trick)]] = "win"
        self.trick_marks = marks

    def clear_trick_words(self) -> None:
        """No past trick shown, no trick's winner named (a new event begins)."""
        self.last_trick_overlay = None
        self.labels.say_winner(-1)

    # --- laying out --------------------------------------------------------------------

    def places(self, pos: Position, raised: Collection[int] = (), highlight: int | None = None) -> dict[Key, Place]:
        """Where every card lies in ``pos``, seen from this table's bottom seat."""
        return layout.table_places(pos, frozenset(raised), highlight, self.seating.bottom)

    def _apply_place(self, s: CardSprite, p: Place) -> None:
        s.place = p
        s.angle = p.angle
        set_visible(s, not p.hidden)
        self.look.set_face(s, p.face_up, p.scale)
        if s.z != p.z:
            s.z = p.z
            self._resort = True

    def _match(self, targets: dict[Key, Place], hint_seat: int | None = None) -> dict[Key, CardSprite]:
        """Give every target key a sprite: same key first, then the likeliest free one."""
        by_key = {s.key: s for s in self.sprites}
        out: dict[Key, CardSprite] = {}
        free = [s for s in self.sprites if s.key not in targets]
        for k in targets:
            got = by_key.get(k)
            if got is not None:
                out[k] = got
        for k in [k for k in targets if k not in out]:
            owner = hint_seat if k[0] == "card" else k[1]
            best = None
            for s in free:
                if s.key[0] == "back" and s.key[1] == owner and (best is None or s.key[2] > best.key[2]):
                    best = s
            if best is None:
                best = free[-1]
            free.remove(best)
            out[k] = best
        for k, s in out.items():
            s.key = k
        return out

    def snap(self, pos: Position, raised: Collection[int] = (), highlight: int | None = None) -> None:
        """Lay every card where ``pos`` says, cancelling all animation."""
        self._timers.clear()
        self.busy_until = self.clock
        self.clear_trick_words()
        targets = self.places(pos, raised, highlight)
        for k, s in self._match(targets).items():
            s.tweens.clear()
            self._apply_place(s, targets[k])
        self._apply_dim()
        self._set_info(pos)
        self._resort = True

    def tween_to(self, s: CardSprite, end: Place, start: float, duration: float, ease: Ease | None = None) -> None:
        """Queue a move of ``s`` to ``end`` from clock time ``start``."""
        s.tweens.append(Tween(start, max(duration, 1e-4), end, ease or easing.ease_in_out))

    def animate_to(self, pos: Position, start: float = 0.0, duration: float = T_PLAY,
                   delays: dict[Key, float] | None = None, hint_seat: int | None = None,
                   raised: Collection[int] = (), highlight: int | None = None) -> float:
        """Ease every card to ``pos``'s places; times in seconds at speed 1, from now."""
        sp = self.speed
        targets = self.places(pos, raised, highlight)
        end = 0.0
        for k, s in self._match(targets, hint_seat).items():
            p = targets[k]
            last = s.tweens[-1].end if s.tweens else s.place
            if last == p:
                continue
            d = (delays or {}).get(k, 0.0)
            self.tween_to(s, p, self.clock + (start + d) / sp, duration / sp)
            end = max(end, (start + d + duration) / sp)
        self.busy_until = max(self.busy_until, self.clock + end)
        return end

    def relayout(self, pos: Position, raised: Collection[int] = (), duration: float = 0.12) -> None:
        self.animate_to(pos, 0.0, duration, raised=raised)

    def at(self, delay: float, fn: Callable[[], None]) -> None:
        """Call ``fn`` ``delay`` seconds of the scene's clock from now."""
        self._timers.append((self.clock + delay, fn))

    def settle_at(self, after: Position, dur: float) -> float:
        """The scene is busy for ``dur`` seconds; then the labels show ``after``."""
        self.busy_until = max(self.busy_until, self.clock + dur)
        self.at(dur, lambda: self._set_info(after))
        return dur

    # --- events (the motion's) ------------------------------------------------------

    def animate(self, event: Event, before: Position, after: Position) -> float:
        """Start animating ``event``; returns its duration (seconds, speed applied)."""
        return self.motion.animate(event, before, after)

    def animate_deal(self, event: Dealt, out: Position) -> float:
        return self.motion.deal(event, out)

    def animate_take(self, after: Position, start: float = 0.0) -> float:
        return self.motion.take(after, start)

    # --- per frame -------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        return self.clock < self.busy_until or any(s.tweens for s in self.sprites)

    def update(self, dt: float) -> None:
        self.clock += dt
        now = self.clock
        if self._timers:
            due = [fn for (t, fn) in self._timers if t <= now]
            if due:
                self._timers = [(t, fn) for (t, fn) in self._timers if t > now]
                for fn in due:
                    fn()
        for s in self.sprites:
            if s.tweens:
                self._step_tweens(s, now)
        if self._resort:
            self._resort = False
            self.sprite_list.sort(key=lambda s: s.z)

    def _step_tweens(self, s: CardSprite, now: float) -> None:
        """Move ``s`` along its tweens to time ``now`` (those over are dropped)."""
        tw = s.tweens
        while tw:
            w = tw[0]
            if now < w.start:
                break
            if w.frm is None:
                w.frm = s.place
                set_visible(s, True)
                if w.end.z != s.z:
                    s.z = w.end.z
                    self._resort = True
            p = (now - w.start) / w.duration
            if p >= 1.0:
                tw.popleft()
                self._apply_place(s, w.end)
                continue
            e = w.ease(p)
            a, b = w.frm, w.end
            s.position = (lerp(a.x, b.x, e), lerp(a.y, b.y, e))
            s.angle = lerp_angle(a.angle, b.angle, e)
            scale = lerp(a.scale, b.scale, e)
            self.look.set_face(s, b.face_up if p >= 0.5 else a.face_up, scale)
            s.place = Place(s.center_x, s.center_y, s.angle, scale, s.face_up, s.z)
            break

    def set_dimmed(self, cards: Collection[int]) -> None:
        self._dimmed = frozenset(cards)
        self._apply_dim()

    def _apply_dim(self) -> None:
        for s in self.sprites:
            dim = s.key[0] == "card" and s.key[1] in self._dimmed
            want = DIM if dim else (255, 255, 255)
            if tuple(s.color[:3]) != want:
                s.color = (*want, 255)

    def card_at(self, x: float, y: float, seat: int) -> int | None:
        """The topmost card of ``seat``'s (face-up) hand under a logical point."""
        best = None
        pos = self._info_pos
        for s in self.sprites:
            if s.key[0] != "card" or not s.face_up or s.tweens:
                continue
            if s.place.z < 100 or s.place.z >= 300:
                continue
            if pos is None or not pos.hand(seat) >> s.key[1] & 1:
                continue
            if layout.point_in_place(x, y, s.place) and (best is None or s.z > best.z):
                best = s
        return best.key[1] if best else None

    def face_at(self, x: float, y: float) -> CardSprite | None:
        """The topmost card lying face up (at rest) under a logical point: a card the
        viewer may see, in a hand, the trick or the stock; None elsewhere."""
        if self.last_trick_overlay:
            return None
        best = None
        for s in self.sprites:
            if s.key[0] != "card" or not s.face_up or s.tweens or not s.visible and not s.covered:
                continue
            if layout.point_in_place(x, y, s.place) and (best is None or s.place.z > best.place.z):
                best = s
        return best

    def prepare(self) -> None:
        """Settle what this frame draws: the draw order, resting hands as fans and
        strips, covered cards.  (``snap`` sets new places without sorting: a frame
        drawn before the next ``update`` must still draw them in order.)"""
        if self._resort:
            self._resort = False
            self.sprite_list.sort(key=lambda s: s.z)
        self.hands.lay_fans()
        self.hands.lay_strips()
        self._cull_covered()
        self.shadows.lay(self.clock, self._info_pos, self.trick_marks, self.hands.strip_ids)

    def _cull_covered(self) -> None:
        """Keep off screen each card lying exactly under a card drawn after it.

        Cards of one silhouette at the same place, angle and size cover each other
        but for the few partly clear pixels of their rounded corners (the pack
        stacks four to a place): of the 62 cards of the pack while it is
        gathered, shuffled and cut, 16 are drawn, not 62, and its corners are
        those of one card, not of four laid on each other.
        """
        seen = set()
        for s in reversed(self.sprite_list):  # the last drawn first
            if not s.visible:
                continue
            p = s.place
            where = (p.x, p.y, p.angle, p.scale)
            if where in seen:
                if s.position != OFFSCREEN:
                    s.position = OFFSCREEN
                s.covered = True
                continue
            if s._color[3] == 255:  # an opaque card hides what lies exactly under it
                seen.add(where)
            if s.covered:
                s.covered = False
                if s.position == OFFSCREEN:
                    s.position = (p.x, p.y)

    def damage_items(self) -> list[Any]:
        """Everything :meth:`draw` draws, as ``game.common.damage`` items (after :meth:`prepare`)."""
        items: list[Any] = []
        lb = self.labels
        for sl in (self.shadows.sprites, self.hands.fans, self.hands.bands, self.sprite_list, lb.markers):
            items.extend(damage.sprite_items(sl))
        for t in lb.texts:
            items.append(damage.text_item(t))
        items.append(damage.rect_item("winner", damage.text_key(lb.winner_text), lb.winner_rect()))
        turn_rect = lb.turn_rect()
        items.append(damage.rect_item("turn", lb.turn if turn_rect else -1, turn_rect))
        ov = self.last_trick_overlay
        items.append(damage.rect_item("last-trick", ov, self.last_trick.bounds() if ov else None))
        if self.cleared:  # put away under a sheet: nothing of the table is drawn
            return [damage.rect_item(item[0], None, None) for item in items]
        return items

    def draw(self, prepare: bool = True, shows: Callable[[object], bool] | None = None) -> None:
        """Draw the table; ``prepare=False`` when :meth:`prepare` already ran this frame.

        ``shows(ident)``, when given, says whether the item of :meth:`damage_items`
        called ``ident`` reaches the rectangle being redrawn: draw calls that
        reach nothing of it are skipped.  The felt, the ring and the plates are the
        view's backdrop (:meth:`backdrop_marks`), already under everything.
        """
        if prepare:
            self.prepare()

        def reach(*idents: object) -> bool:
            return shows is None or any(shows(i) for i in idents)

        if self.cleared:  # a sheet lies over the table: nothing of it shows at the sheet's edges
            return
        lb = self.labels
        if reach(*map(id, self.shadows.sprites)):
            self.shadows.sprites.draw()  # scaled and blurred: linear
        if reach("turn"):
            lb.draw_turn()
        for sl in (self.hands.fans, self.hands.bands, self.sprite_list):
            if reach(*map(id, sl)):
                sl.draw(pixelated=self.pixelated)  # cards at 1:1: nearest sampling
        if reach(*map(id, lb.markers)):
            lb.markers.draw()  # the dealer marker is scaled down: linear
        if reach(*map(id, lb.texts)):
            lb.batch.draw()
        if reach("winner"):
            lb.draw_winner()
        if self.last_trick_overlay and reach("last-trick"):
            self.last_trick.draw(self.last_trick_overlay, self.names, self.pixelated)


__all__ = ["TableScene"]
