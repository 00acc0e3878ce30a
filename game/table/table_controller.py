"""The play table's controller: scenes, AI requests, what a click means (no arcade).

The engine's events become *steps* the view animates; input becomes commands
sent to the engine; everything the table shows is asked of the engine.  The
view (:mod:`game.table.table_view`) only draws: it implements
:class:`Presenter` and reads the controller's observable fields each frame
(``status``, ``banner``, ``scene``, ``waiting``, ``sheet``, ``selected``...).
Tests drive whole deals through this class without a window.

Scenes (``scene``): ``deal`` (the Dealt animation), ``discard`` (the dealer lays
two cards aside, R6) or, in a game with a stock, ``exchange`` (the stock lies
face down in the middle, the dealer takes it and lays three aside, S4), ``play``
(tricks), ``scoring`` (the deal's points, then the result; the score sheet in
a game of several deals).

The controller holds a *session* (:mod:`game.table.table_session`), never a game: a
local one (the engine's ``Game`` on this machine, its autosave, practice undo)
or a remote one (a seat at a table held by a Tarocchi server).  Either way it
gets the events as the viewer's seat saw them and the viewer's view after each,
and sends commands; it never reads an engine ``State``.

The loop, :meth:`TableController.update`: take in what the session heard; when
the view's animations are done, take the next event the display has not shown
yet (``shown`` runs behind ``session.cursor``) and hand it to the view (positions
from the viewer's views, :meth:`game.common.position.Position.of`); when the display
has caught up, either wait for the human's input, or (a local session) hand the
AI seat's own view to its AI player in the AI process and pick the answer up on
a later frame (the engine checks it and submits it), or (a remote session) wait
for the server's next events.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from engine.cards import mask_cards
from engine.errors import Refusal
from engine.files import SaveFailed
from engine.game import Game
from engine.scoring import view_breakdown
from engine.state import (
    DISCARD,
    OVER,
    PLAY,
    CardPlayed,
    DealScored,
    Dealt,
    Discard,
    Discarded,
    Event,
    IllegalMove,
    Play,
    TrickTaken,
    trick_winners_of,
)
from engine.view import SeatView
from game.common import layout, paths
from game.common.constants import SPEEDS, T_AI_MIN, T_AI_READ, T_ANNOUNCE
from game.common.position import Position
from game.common.words import Msg, msg
from game.table import score_sheet
from game.table.table_session import LocalSession, Notice, TableSession

if TYPE_CHECKING:
    from engine.ai.reasons import Reason

#: how long the stock lies in the middle before the dealer takes it (speed 1)
T_STOCK_SHOW = 0.6


@dataclass(frozen=True)
class Step:
    """One thing for the view to animate: ``kind`` is ``event`` (an engine event
    as the viewer sees it), ``deal`` (a deal up to the stock left in the middle)
    or ``take`` (the dealer takes the stock)."""

    kind: str
    event: Event | None
    before: Position
    after: Position
    delay: float = 0.0  # seconds at speed 1 before it starts


class Presenter(Protocol):
    """What the controller asks of the view."""

    @property
    def busy(self) -> bool: ...  # animations still running

    def show(self, step: Step) -> None: ...

    def lay(self, pos: Position, raised: frozenset[int], dimmed: frozenset[int], ease: bool) -> None: ...

    def show_hints(self, hints: dict[int, float]) -> None: ...

    def play_sound(self, name: str) -> None: ...


class InlineExecutor:
    """Runs each call at once (tests, and where no AI process is wanted)."""

    in_process = True

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        fut: Future = Future()
        try:
            fut.set_result(fn(*args))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller with the future
            fut.set_exception(exc)
        return fut


def find_hint():
    """The AI's hint function (``engine.ai.hint``) if the AI package has one."""
    try:
        mod = importlib.import_module("engine.ai")
    except Exception:  # noqa: BLE001 - no AI yet: hints stay off
        return None
    return getattr(mod, "hint", None)


def discard_options(masks, chosen: int) -> int:
    """Every card that may join ``chosen`` in some legal discard (``masks``)."""
    out = 0
    for m in masks:
        if m & chosen == chosen:
            out |= m
    return out & ~chosen


def extends(masks, chosen: int) -> bool:
    """Whether some legal discard holds every card of ``chosen``."""
    return any(m & chosen == chosen for m in masks)


def resume_point(game: Game | TableSession, resumed: bool = True) -> tuple[int, int | None]:
    """Where a table opened on ``game`` (or a session) starts: ``(shown, sheet)``.

    A new game (``resumed`` False) is shown from the start, its deal animated.  A
    game resumed (after a kill, or left for the menu) is put on the table at
    once, exactly as it stands: nothing already played is animated again.
    ``sheet`` is the index of the last ``DealScored`` when nothing but the next
    deal came after it (the game was left on that deal's score sheet): the
    sheet shows again, then the next deal is dealt; otherwise None."""
    n = game.cursor
    event = game.event if not isinstance(game, Game) else game.events.__getitem__
    first = 0 if isinstance(game, Game) else game.first  # a late join knows no earlier event
    if not resumed and first == 0 or n == 0:
        return 0, None
    if n - 2 < first:
        return n, None
    last = n - 1
    if isinstance(event(last), Dealt) and last >= 1 and isinstance(event(last - 1), DealScored):
        return last, last - 1
    if isinstance(event(last), DealScored):
        return n, last
    return n, None


class TableController:
    """One game at the table; ``viewer`` is the seat shown at the bottom (South).

    ``game``: a :class:`~game.table.table_session.TableSession`, or an engine ``Game``
    (wrapped in a :class:`~game.table.table_session.LocalSession` for ``viewer``,
    ``human_seats`` and ``practice``)."""

    def __init__(
        self,
        game: Game | TableSession,
        players: dict,
        out: Presenter,
        *,
        human_seats=frozenset({0}),
        viewer: int = 0,
        practice: bool = False,
        settings=None,
        executor=None,
        auto_continue: bool = False,
        on_scene: Callable[[str], None] | None = None,
        on_exit: Callable[[], None] | None = None,
        on_again: Callable[[], None] | None = None,
        on_review: Callable[[Path], None] | None = None,
        hint_fn=None,
        resumed: bool = False,
    ) -> None:
        if isinstance(game, Game):
            game = LocalSession(game, viewer=viewer, human_seats=frozenset(human_seats),
                                practice=practice)
        self.session: TableSession = game
        self.rules = game.rules
        self.players = players  # seat -> Player for the AI seats (a local session)
        self.out = out
        self.human_seats = game.human_seats
        self.viewer = game.viewer
        self.practice = game.can_rewind
        self.settings = settings
        self.auto_continue = auto_continue  # autoplay: no clicks needed anywhere
        self.on_scene = on_scene
        self.on_exit = on_exit
        self.on_again = on_again  # the game is over: another set up the same way
        self.on_review = on_review  # the theatre's review of the deal just scored, from its file
        self.speed = settings.speed if settings else 1.0
        self.auto_advance = settings.auto_advance if settings else True
        if executor is None:
            from game.table import ai_service

            executor = ai_service.service()
            executor.start()
        self.executor = executor
        self.hint_fn = hint_fn if hint_fn is not None else find_hint()
        self._init_state()
        self._start(resumed)

    def _init_state(self) -> None:
        """Where the table stands before the first step: nothing shown, asked or pending."""
        self.clock = 0.0
        self.pending = None  # (future, cursor, generation, started_at)
        self.hint_future = None
        self.hints: dict[int, float] = {}
        self.hint_reason: Reason | None = None  # why the hint's best move
        self.refused_instead: tuple[int, ...] = ()  # the cards a refusal says to play instead
        self.generation = 0
        self.shown = 0  # events already shown (index into the session's events)
        self._queued: list[tuple[Step, str, Msg | None]] = []  # steps after the one shown
        self.scene = ""
        self.waiting = ""  # "", "trick" (click to continue), "scoring"
        self.trick_winner = -1  # while waiting for a click after a trick
        self.selected: list[int] = []  # discard picks
        self.key_cursor = -1  # keyboard card cursor in the viewer's hand
        self.prompt_for = -1  # session.cursor of the decision the prompt was built for
        self.legal_cards: frozenset[int] = frozenset()
        self.status: Msg | None = None
        self.tone = "info"  # "info", "prompt" (gold), "error" (red)
        self.banner: Msg | None = None
        self.banner_until = 0.0
        self.sheet: score_sheet.ScoreSheet | None = None
        self.page = "score"  # of the end of a deal: "score", "tricks" (the review), "piles"
        self.finished = False
        self.replay_path: Path | None = None
        self.away: set[int] = set()  # online: seats whose person lost the connection
        #: a move could not be saved (disk full...): the table stops, the position
        #: kept, until the player tries again (Enter) or leaves (saved up to there)
        self.save_error: str | None = None
        #: online: this seat was opened in another window (with its token), or the
        #: server is gone: this table stops where it is, saying so, and does not reconnect
        self.elsewhere = False

    @property
    def game(self) -> Game | None:
        """The engine game of a local session (for the code that started it, and
        tests); None online.  The controller itself never reads it."""
        return getattr(self.session, "game", None)

    def _start(self, resumed: bool) -> None:
        """Lay the table out where the game stands (:func:`resume_point`)."""
        shown, sheet_at = resume_point(self.session, resumed)
        self.shown = shown
        v = self.session.view_at(shown)
        if shown:
            self._enter({DISCARD: self.discard_scene, PLAY: "play"}.get(v.phase, "deal"))
        self.out.lay(self.position(shown), frozenset(), frozenset(), False)
        if sheet_at is not None:
            event = self.session.event(sheet_at)
            assert isinstance(event, DealScored)
            self._open_scoring(sheet_at, event, sound=False)

    # --- what the viewer sees ------------------------------------------------------

    @property
    def you(self) -> int | None:
        """The seat that is "you" in messages (None when nobody human sits here)."""
        return self.viewer if self.viewer in self.human_seats else None

    def position(self, i: int | None = None) -> Position:
        """The position after the first ``i`` events (default: the game's), as the
        viewer's seat sees it."""
        return Position.of([self.session.view_at(self.session.cursor if i is None else i)])

    def view(self) -> SeatView:
        return self.session.view_at(self.session.cursor)

    def hand_order(self) -> list[int]:
        """The viewer's hand as it is laid out, left to right."""
        return layout.sorted_hand(self.view().hand, self.rules.pack)

    @property
    def discard_scene(self) -> str:
        return "exchange" if self.rules.stock_cards else "discard"

    # --- the loop ----------------------------------------------------------------

    def update(self, dt: float) -> None:
        self.clock += dt
        if self.banner is not None and self.clock > self.banner_until:
            self.banner = None
        self._poll_hint()
        for notice in self.session.poll():
            self._hear(notice)
        if self.finished and self.replay_path is None and self.session.online:
            self.replay_path = self._archive()  # once the server said the game is over
        if self.out.busy or self.waiting or self.save_error or self.elsewhere:
            return
        if self._queued:
            step, scene, status = self._queued.pop(0)
            self._enter(scene)
            if status is not None:
                self._set_status(status)
            self.out.show(step)
            return
        if self.shown < self.session.cursor:
            self._show_next()
            return
        if self.shown > self.session.cursor:  # undo moved the game back: lay it out again
            self.resync()
            return
        self._act()

    def _hear(self, notice: Notice) -> None:
        """What a remote session heard besides events: a refusal of the last
        command (the prompt comes back), a seat gone or back, the connection."""
        if notice.kind == "resync":  # a snapshot: the table laid out at once
            self.resync()
        elif notice.kind in ("refused", "error"):
            v = self.view()
            if v.turn in self.human_seats and v.phase in (DISCARD, PLAY):
                self._prompt()  # the cards light up again, under the reason
            if notice.refusal is not None:
                self._refuse(notice.refusal)
            else:
                self._set_status(msg("engine", text=notice.text), "error")
        elif notice.kind == "presence" and notice.seat >= 0 and notice.seat not in self.human_seats:
            if notice.connected:
                self.away.discard(notice.seat)
                self._announce(msg("seat_back", seat=notice.seat), 1.6)
            else:
                self.away.add(notice.seat)
                self._announce(msg("reconnecting", seat=notice.seat), 2.0)
        elif notice.kind == "connection":
            if notice.connected:
                self._announce(msg("connection_back"), 1.4)
                if self.status is not None and self.status.key == "connection_lost":
                    self._set_status(None)
                self.prompt_for = -1  # ask again where the game now stands
            elif notice.text == "opened_elsewhere":  # another window took the seat: no reconnect
                self.elsewhere = True
                self._clear_prompt()
                self._set_status(msg("opened_elsewhere"), "error")
            elif notice.text in ("unreachable", "other_program"):  # the client gave up: the server is gone
                self.elsewhere = True
                self._clear_prompt()
                self._set_status(msg("server_gone", why=notice.text), "error")
            else:
                self._set_status(msg("connection_lost"), "error")
        elif notice.kind in ("takeover", "timeout") and notice.seat >= 0:
            self.away.discard(notice.seat)
            self._announce(msg(notice.kind, seat=notice.seat), 2.0)

    def _show_next(self) -> None:
        i = self.shown
        event = self.session.event(i)  # as the viewer's seat saw it
        if isinstance(event, TrickTaken) and not self.auto_advance and not self.auto_continue \
                and self.human_seats and self.waiting != "trick-go":
            self.waiting = "trick"
            self.trick_winner = event.winner
            self._set_status(msg("click_to_continue"))
            return
        self.waiting = ""
        self.trick_winner = -1
        self.shown = i + 1
        before, after = self.position(i), self.position(i + 1)
        seen = event
        if isinstance(event, Dealt):
            self._enter("deal")
            self._set_status(msg("deal", dealer=event.dealer, cutter=self.rules.cutter(event.dealer)))
            if self.rules.stock_cards:
                out = after.with_stock_out()
                self.out.show(Step("deal", seen, before, out))
                self._queued.append((Step("take", None, out, after, T_STOCK_SHOW), self.discard_scene,
                                     msg("stock", seat=event.dealer, n=self.rules.stock_cards)))
                return
        elif isinstance(event, Discarded):
            trumps = seen.trumps if self.rules.announces_discard_trumps else -1
            self._announce(msg("discarded", seat=event.seat, n=self.rules.discard_cards, trumps=trumps))
        elif isinstance(event, DealScored):
            self.out.show(Step("event", seen, before, after))
            self._open_scoring(i, event)
            return
        self.out.show(Step("event", seen, before, after))
        if isinstance(event, CardPlayed) and event.card == self.rules.pack.matto:
            self._announce(msg("matto"), 1.2)
        if after.phase == PLAY and self.scene != "play" and not isinstance(event, Dealt):
            self._enter("play")

    def _enter(self, scene: str) -> None:
        if scene and scene != self.scene:
            self.scene = scene
            if self.on_scene:
                self.on_scene(scene)

    def _announce(self, m: Msg, seconds: float = T_ANNOUNCE) -> None:
        self.banner = m
        self.banner_until = self.clock + seconds / self.speed

    def _set_status(self, m: Msg | None, tone: str = "info") -> None:
        self.status = m
        self.tone = tone

    def _act(self) -> None:
        v = self.view()
        if v.phase == OVER:
            if not self.finished:
                self._finish()
            return
        if v.phase not in (DISCARD, PLAY) or v.turn < 0:
            return  # between a deal's score and the next deal, from a server
        self._enter(self.discard_scene if v.phase == DISCARD else "play")
        seat = v.turn
        if seat in self.human_seats:
            if self.prompt_for != self.session.cursor:
                self._prompt()
            return
        if isinstance(self.session, LocalSession):
            self._run_ai(self.session, seat)
        else:  # a person or an AI at the server's table
            want = msg("reconnecting" if seat in self.away else "thinking", seat=seat)
            if self.status != want and not (self.status and self.status.key == "connection_lost"):
                self._set_status(want)

    # --- AI in the AI process --------------------------------------------------------

    def _run_ai(self, session: LocalSession, seat: int) -> None:
        if self.pending is None:
            if self.prompt_for != -1:
                self._clear_prompt()
            player = self.players[seat]
            view = session.ai_view(seat)  # the seat's own view, never the State
            legal = view.legal()
            if not getattr(self.executor, "in_process", True):
                # the search shares this process's GIL: switch threads often so a
                # frame never waits the default 5 ms to get it back
                sys.setswitchinterval(min(sys.getswitchinterval(), 0.0005))
            fut = self.executor.submit(player.choose, view, legal, session.cursor)
            self.pending = (fut, session.cursor, self.generation, self.clock)
            self._set_status(msg("thinking", seat=seat))
            return
        fut, cursor, gen, started = self.pending
        if gen != self.generation or cursor != session.cursor:
            self.pending = None
            return
        if not fut.done() or self.clock - started < self.ai_pause:
            return
        self.pending = None
        player = self.players[seat]
        self._set_status(None)
        try:
            session.ai_answer(seat, player.name, fut.result())  # checked, then submitted
        except SaveFailed as exc:
            self._save_failed(exc)

    # --- the human's decisions -----------------------------------------------------------

    def _prompt(self) -> None:
        """Light up what the viewer may do now: legal cards raised, the others dimmed."""
        view = self.view()
        self.prompt_for = self.session.cursor
        self.selected = []
        self.hints = {}
        self.hint_reason = None
        self.out.show_hints({})
        hand = frozenset(self.hand_order())
        if view.phase == PLAY:
            self.legal_cards = frozenset(mask_cards(view.legal_mask()))
            self._set_status(msg("your_turn"), "prompt")
            raised = self.legal_cards
        else:
            masks = self.rules.legal_discards(view.hand)
            self.legal_cards = frozenset(mask_cards(discard_options(masks, 0)))
            self._set_status(msg("your_discard", n=self.rules.discard_cards), "prompt")
            raised = frozenset()
        self.out.lay(self.position(), raised, hand - self.legal_cards, True)
        self.key_cursor = -1

    def _clear_prompt(self) -> None:
        self.prompt_for = -1
        self.legal_cards = frozenset()
        self.hints = {}
        self.hint_reason = None
        self.out.show_hints({})

    def can_act(self) -> bool:
        cursor = self.session.cursor
        return (not self.out.busy and not self.waiting and not self._queued and not self.save_error
                and not self.elsewhere and self.shown == cursor and self.view().turn in self.human_seats
                and self.prompt_for == cursor)

    def click_card(self, card: int) -> bool:
        """The viewer chooses ``card``; an illegal choice only says which rule forbids it."""
        self.retry_save()  # after a failed save, a click tries again
        if not self.can_act():
            return False
        view = self.view()
        if view.phase == PLAY:
            refusal = self.rules.play_refusal(view.hand, view.trick, card)
            if refusal:
                self._refuse(refusal, card)
                return False
            self._submit(Play(view.seat, card))
            return True
        if view.phase == DISCARD:
            return self._pick_discard(view, card)
        return False

    def _refuse(self, refusal: Refusal, card: int = -1) -> None:
        """Say why not, and for a card that breaks R7/S5 what may be played
        instead: the engine's legal cards, named and lit up."""
        instead: tuple[int, ...] = ()
        view = self.view()
        if view.phase == PLAY and refusal.reason in ("must_follow", "must_trump") \
                and view.turn == view.seat:
            legal = frozenset(mask_cards(view.legal_mask()))
            instead = tuple(c for c in self.hand_order() if c in legal)
            self.legal_cards = legal
            hand = frozenset(self.hand_order())
            self.out.lay(self.position(), legal, hand - legal, True)
        self.refused_instead = instead
        self._set_status(msg("refused", refusal=refusal, card=card, instead=instead), "error")
        self.out.play_sound("click")

    def _pick_discard(self, view: SeatView, card: int) -> bool:
        k = self.rules.discard_cards
        if card in self.selected:
            self.selected.remove(card)
        else:
            if len(self.selected) == k:
                self.selected.pop(0)
            refusal = self.discard_refusal(view, card)
            if refusal:
                self._refuse(refusal, card)
                return False
            self.selected.append(card)
        self._show_selection(view)
        return True

    def discard_refusal(self, view: SeatView, card: int) -> Refusal | None:
        """Why ``card`` cannot go with the cards already picked (the ruleset's own
        reason, R6 or S4), or None."""
        rules = self.rules
        chosen = 0
        for c in self.selected:
            if c != card:
                chosen |= 1 << c
        need = chosen | 1 << card
        masks = rules.legal_discards(view.hand)
        if extends(masks, need):
            return None
        # a discard of the right size holding them, for the ruleset to say why not
        full = need
        fillers = [*mask_cards(discard_options(masks, chosen)), *self.hand_order()]
        for c in fillers:
            if full.bit_count() >= rules.discard_cards:
                break
            full |= 1 << c
        refusal = rules.discard_refusal(view.hand, full)
        return refusal or Refusal(rules.rule_discard, "discard_together", "not with the cards already chosen",
                                  cards=(card,))

    def _show_selection(self, view: SeatView) -> None:
        chosen = 0
        for c in self.selected:
            chosen |= 1 << c
        masks = self.rules.legal_discards(view.hand)
        ok = frozenset(mask_cards(discard_options(masks, chosen))) | frozenset(self.selected)
        hand = frozenset(self.hand_order())
        self.out.lay(self.position(), frozenset(self.selected), hand - ok, True)
        if len(self.selected) == self.rules.discard_cards:
            order = self.hand_order()
            self._set_status(msg("confirm_discard", cards=tuple(sorted(self.selected, key=order.index))),
                             "prompt")
        else:
            self._set_status(msg("your_discard", n=self.rules.discard_cards), "prompt")

    @property
    def confirm_ready(self) -> bool:
        """The dealer has picked a whole discard: the confirm button shows."""
        return (self.prompt_for == self.session.cursor and self.view().phase == DISCARD
                and len(self.selected) == self.rules.discard_cards)

    def confirm_discard(self) -> None:
        if not self.confirm_ready or not self.can_act():
            return
        self._submit(Discard(self.view().turn, tuple(sorted(self.selected))))

    def _submit(self, cmd) -> None:
        try:
            self.session.submit(cmd)
        except SaveFailed as exc:
            self._save_failed(exc)
            return
        except IllegalMove as exc:  # the engine has the last word
            if exc.refusal is not None:
                self._refuse(exc.refusal)
            else:
                self._set_status(msg("engine", text=str(exc)), "error")
            return
        self._clear_prompt()
        self.selected = []
        self._set_status(None)

    def _save_failed(self, exc: SaveFailed) -> None:
        """The move was not saved, so it was not made: say what failed and where."""
        self.save_error = str(exc)
        self._set_status(msg("save_failed", text=str(exc)), "error")
        self.out.play_sound("click")

    def retry_save(self) -> bool:
        """Try again after a failed save: the move is asked for (or the AI's made) anew."""
        if not self.save_error:
            return False
        self.save_error = None
        self.prompt_for = -1
        self._set_status(None)
        return True

    def key_step(self, step: int) -> bool:
        """Left/Right over the viewer's hand (a keyboard cursor)."""
        if not self.can_act():
            return False
        n = len(self.hand_order())
        if not n:
            return False
        if self.key_cursor < 0:
            self.key_cursor = 0 if step > 0 else n - 1
        else:
            self.key_cursor = (self.key_cursor + step) % n
        return True

    def key_press(self) -> bool:
        """Enter or Space: the whole discard once it is chosen, else the card under
        the keyboard cursor."""
        if self.retry_save():
            return True
        if self.waiting:
            self.continue_()
            return True
        if self.confirm_ready and self.can_act():
            self.confirm_discard()
            return True
        if self.key_cursor >= 0 and self.can_act():
            cards = self.hand_order()
            if self.key_cursor < len(cards):
                self.click_card(cards[self.key_cursor])
                return True
        if self.confirm_ready:
            self.confirm_discard()
            return True
        return False

    # --- practice: undo, redo, hint ---------------------------------------------------

    @property
    def can_undo(self) -> bool:
        """Practice: there is a decision of the viewer's to go back to."""
        return (self.practice and not self.finished and isinstance(self.session, LocalSession)
                and self.session.undo_target() is not None)

    @property
    def can_redo(self) -> bool:
        """Practice: something undone can be played again."""
        return (self.practice and not self.finished and isinstance(self.session, LocalSession)
                and self.session.redo_target() is not None)

    def undo(self) -> bool:
        """Back to the viewer's previous decision; says so when there is none."""
        if not self.practice:
            return False
        if self.can_undo and isinstance(self.session, LocalSession) and self.session.undo():
            self.resync()
            return True
        self._say_nothing("nothing_to_undo")
        return False

    def redo(self) -> bool:
        """Forward again over what was undone; says so when nothing was."""
        if not self.practice:
            return False
        if self.can_redo and isinstance(self.session, LocalSession) and self.session.redo():
            self.resync()
            return True
        self._say_nothing("nothing_to_redo")
        return False

    def _say_nothing(self, key: str) -> None:
        """Nothing to undo or redo: said in the banner, the prompt left as it was."""
        self._announce(msg(key), 1.4)
        self.out.play_sound("click")

    def resync(self) -> None:
        """Cancel every animation and pending AI answer; lay the table as the game says."""
        self.generation += 1
        self._cancel_ai()
        self._queued.clear()
        self.waiting = ""
        self.sheet = None
        self.banner = None
        self.shown = self.session.cursor
        self.prompt_for = -1
        self.selected = []
        self.hints = {}
        self.hint_reason = None
        self.out.show_hints({})
        v = self.view()
        self.scene = {DISCARD: self.discard_scene, PLAY: "play"}.get(v.phase, self.scene)
        self.out.lay(self.position(), frozenset(), frozenset(), False)
        self._set_status(None)

    @property
    def hints_available(self) -> bool:
        return self.practice and self.hint_fn is not None

    def ask_hint(self) -> None:
        if not (self.hints_available and self.can_act()) or self.hint_future:
            return
        view = self.view()
        cursor = self.session.cursor
        self.hint_future = (self.executor.submit(self.hint_fn, view, 400, cursor), cursor,
                            self.generation)
        self._set_status(msg("thinking_hint"), "prompt")

    def _poll_hint(self) -> None:
        if not self.hint_future:
            return
        fut, cursor, gen = self.hint_future
        if gen != self.generation or cursor != self.session.cursor:
            self.hint_future = None
            return
        if not fut.done():
            return
        self.hint_future = None
        hints: dict[int, float] = {}
        ranked = fut.result()
        from engine.ai.reasons import reason  # with the hint, the AI package is loaded

        # one reason for the best move, drawn from the viewer's own view only
        self.hint_reason = reason(self.view(), ranked[0][0]) if ranked else None
        for cmd, value in ranked:
            if isinstance(cmd, Play):
                hints[cmd.card] = value
            elif isinstance(cmd, Discard):
                for c in cmd.cards:
                    hints[c] = max(hints.get(c, -1e9), value)
        self.hints = hints
        self.out.show_hints(hints)
        self._set_status(msg("hints", reason=self.hint_reason), "prompt")

    # --- pace ------------------------------------------------------------------------

    @property
    def ai_pause(self) -> float:
        """The least time an AI seat takes over a card (seconds, speed applied): a
        reading pace where each trick waits for a click (a new player's table, so
        every card of every trick can be seen), the quick pace where the tricks go
        on by themselves or nobody watches (autoplay)."""
        quick = self.auto_advance or self.auto_continue or not self.human_seats
        return (T_AI_MIN if quick else T_AI_READ) / self.speed

    def cycle_speed(self) -> None:
        i = SPEEDS.index(self.speed) if self.speed in SPEEDS else SPEEDS.index(1.0)
        self.speed = SPEEDS[(i + 1) % len(SPEEDS)]
        self._announce(msg("speed", speed=self.speed), 1.0)
        if self.settings:
            self.settings.speed = self.speed
            self.settings.save()

    def last_trick(self) -> tuple[int, tuple[int, ...]] | None:
        """The last trick taken in the position on the table: (leader, cards)."""
        hist = self.position(self.shown).history
        return hist[-1] if hist else None

    def continue_(self) -> None:
        """After a trick the player asked to see, or after the scoring."""
        if self.waiting == "trick":
            self.waiting = "trick-go"
            self._set_status(None)
            self._show_next()
        elif self.waiting == "scoring":
            self.waiting = ""
            self.sheet = None
            self.page = "score"
            if self.finished and not self.auto_continue and self.on_exit:
                self.on_exit()

    # --- the end of a deal ----------------------------------------------------------

    @property
    def end_choices(self) -> tuple[str, ...]:
        """What the end of a deal offers, the first the default (Enter): the next
        deal, or once the game is over another game; the pages of the deal's
        review (its score, its tricks, your pile and discard); the menu.  An
        online table whose seat was opened elsewhere, or whose server is gone:
        the menu."""
        if self.elsewhere:
            return ("menu",)
        if self.waiting != "scoring" or self.sheet is None:
            return ()
        if not self.finished:
            first: tuple[str, ...] = ("next",)
        else:
            first = ("again",) if self.on_again is not None else ()
        pages = tuple(p for p in ("score", "tricks", "piles") if p != self.page)
        review = ("review",) if self.on_review is not None and self.review_path is not None else ()
        return (*first, *pages, *review, "menu")

    @property
    def review_path(self) -> Path | None:
        """The file the deal just scored is in: the replay once the game is filed,
        the autosave while a match goes on."""
        return self.replay_path if self.finished else self.session.autosave_path

    def choose(self, choice: str) -> None:
        """One of :attr:`end_choices`."""
        if choice not in self.end_choices:
            return
        if choice in ("score", "tricks", "piles"):
            self.page = choice
        elif choice == "next":
            self.continue_()
        elif choice == "again":
            self.close()
            assert self.on_again is not None
            self.on_again()
        elif choice == "review":
            path = self.review_path
            assert self.on_review is not None and path is not None
            self.on_review(path)
        elif choice == "menu":
            self.close()
            if self.on_exit:
                self.on_exit()

    @property
    def standing(self) -> Msg | None:
        """Where the game stands, for the table (a game of several deals): the deal
        on the table and the totals of the deals finished before it."""
        pos = self.position(self.shown)
        if pos.n_deals <= 1 or pos.deal_no < 1 or self.sheet is not None:  # the sheet says it all
            return None
        scored = len(pos.scores)
        totals = tuple(self.rules.totals(pos.scores)) if scored else ()
        deal = min(pos.deal_no, pos.n_deals)
        return msg("standing", deal=deal, n_deals=pos.n_deals, totals=totals, scored=scored)

    def _cancel_ai(self) -> None:
        """Drop the AI calls of this table: queued ones are cancelled, one already
        running is ignored when it ends (the generation has moved on)."""
        for item in (self.pending, self.hint_future):
            if item:
                item[0].cancel()
        self.pending = None
        self.hint_future = None

    def close(self) -> None:
        self.generation += 1
        self._cancel_ai()  # the AI service is the application's and outlives this table
        if not self.finished:
            self.session.close()  # a local autosave stays: the menu offers to resume

    # --- scoring ----------------------------------------------------------------------

    def _open_scoring(self, i: int, event: DealScored, sound: bool = True) -> None:
        """The deal's sheet: the engine's breakdown of the position after the last
        trick (every card then public but the discard, which the sheet keeps
        face down for all but its dealer)."""
        self._enter("scoring")
        self.waiting = "scoring"
        before = self.session.view_at(i)  # the viewer's view after the last trick
        after = self.session.view_at(i + 1)
        rules = self.rules
        self.sheet = score_sheet.build(rules, view_breakdown(before), event.points, after.scores,
                                       after.n_deals, before.dealer, self.you, tricks=before.history,
                                       winners=trick_winners_of(rules, before.history),
                                       number=self._deal_number())
        side = self.sheet.viewer_side
        if sound:
            self.out.play_sound("deal_won" if side in self.sheet.outcome.winners else "deal_lost")
        if len(after.scores) >= after.n_deals:
            self._finish()

    def _deal_number(self) -> int | None:
        """The game's deal number where one can type it back (a local game)."""
        return self.session.deal_number

    def _finish(self) -> None:
        """The game is over: keep it as a replay; the autosave is no longer needed."""
        if self.finished:
            return
        self.finished = True
        self.replay_path = self._archive()
        sheet = self.sheet
        if sheet is not None and sheet.game_outcome is not None \
                and sheet.viewer_side in sheet.game_outcome.winners:
            self.out.play_sound("match_won")

    def _archive(self) -> Path | None:
        """The archive step: the finished game filed as a replay (a local game's
        autosave is archived and cleared in one step; an online game's log is
        written from the server's events)."""
        try:
            return self.session.archive()
        except (OSError, paths.DataFolderError) as exc:  # filed at the next start
            print(f"tarocchi: the finished game stays in the autosave for now: {exc}", file=sys.stderr)
            return None


__all__ = ["TableController", "Presenter", "Step", "InlineExecutor", "find_hint",
           "discard_options", "extends", "resume_point"]
