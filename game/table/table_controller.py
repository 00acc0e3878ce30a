"""The play table's controller: the flow of a game at the table (no arcade).

The engine's events become *steps* the view animates; input becomes commands
sent to the engine; everything the table shows is asked of the engine.  The
view (:mod:`game.table.table_view`) only draws: it implements
:class:`~game.table.table_api.Presenter` and reads the controller's observable fields
each frame (``status``, ``banner``, ``scene``, ``waiting``, ``end.sheet``...).
Tests drive whole deals through this class without a window.

The controller holds a *session* (:mod:`game.table.table_session`), never a game: a
local one (the engine's ``Game`` on this machine, its autosave, practice undo)
or a remote one (a seat at a table held by a Tarocchi server).  Either way it
gets the events as the viewer's seat saw them and the viewer's view after each,
and sends commands; it never reads an engine ``State``.

The loop, :meth:`TableController.update`: take in what the session heard; when
the view's animations are done, show the next event the display has not shown
yet (:class:`~game.table.steps.StepFeed`); when the display has caught up,
either prompt the human, or (the session's AI seats) hand the AI seat's own view
to its player in the AI process and pick the answer up on a later frame
(:mod:`game.table.ai_turns`), or (a server's table) wait for its next events.

The rooms beside the flow, each a module and an attribute of the controller:
the events shown as steps (``feed``: :mod:`game.table.steps`), the discard being
picked (``discard``: :mod:`game.table.discard_pick`), the keyboard cursor
(``keys``: :mod:`game.table.key_cursor`), practice undo and redo (``rewind``:
:mod:`game.table.rewind`), the hints (``hints``: :mod:`game.table.hints`), the
end of a deal (``end``: :mod:`game.table.deal_end`), what an online seat hears
(``notices``: :mod:`game.table.notices`), the AI seats (``ai``:
:mod:`game.table.ai_turns`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.cards import mask_cards
from engine.errors import Refusal
from engine.files import SaveFailed
from engine.game import Game
from engine.state import DISCARD, OVER, PLAY, Command, DealScored, Dealt, Event, IllegalMove, Play
from engine.view import SeatView
from game.common import layout
from game.common.constants import SPEEDS, T_ANNOUNCE
from game.common.position import Position
from game.common.words import Msg, msg
from game.table.ai_turns import AiTurns
from game.table.deal_end import Choice, DealEnd, file_game
from game.table.discard_pick import DiscardPick, discard_options
from game.table.hints import HintFn, Hints, find_hint
from game.table.key_cursor import KeyCursor
from game.table.notices import Notices
from game.table.rewind import Rewind
from game.table.steps import StepFeed
from game.table.table_api import Executor, Presenter, Scene, Tone, Waiting
from game.table.table_session import LocalSession, TableSession

if TYPE_CHECKING:
    from game.common.settings import Settings

class InlineExecutor:
    """Runs each call at once (tests, and where no AI process is wanted)."""

    in_process = True

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        fut: Future[Any] = Future()
        try:
            fut.set_result(fn(*args))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller with the future
            fut.set_exception(exc)
        return fut


def resume_point(game: Game | TableSession, resumed: bool = True) -> tuple[int, int | None]:
    """Where a table opened on ``game`` (or a session) starts: ``(shown, sheet)``.

    A new game (``resumed`` False) is shown from the start, its deal animated.  A
    game resumed (after a kill, or left for the menu) is put on the table at
    once, exactly as it stands: nothing already played is animated again.
    ``sheet`` is the index of the last ``DealScored`` when nothing but the next
    deal came after it (the game was left on that deal's score sheet): the
    sheet shows again, then the next deal is dealt; otherwise None."""
    n = game.cursor
    event: Callable[[int], Event] = game.events.__getitem__ if isinstance(game, Game) else game.event
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
    """One game at the table; ``viewer`` is the seat shown at the bottom.

    ``game``: a :class:`~game.table.table_session.TableSession`, or an engine ``Game``
    (wrapped in a :class:`~game.table.table_session.LocalSession` for ``viewer``,
    ``human_seats`` and ``practice``)."""

    def __init__(
        self,
        game: Game | TableSession,
        players: dict[int, Any],
        out: Presenter,
        *,
        human_seats: Collection[int] = frozenset({0}),
        viewer: int = 0,
        practice: bool = False,
        settings: Settings | None = None,
        executor: Executor | None = None,
        auto_continue: bool = False,
        on_scene: Callable[[Scene], None] | None = None,
        on_exit: Callable[[], None] | None = None,
        on_again: Callable[[], None] | None = None,
        on_review: Callable[[Path], None] | None = None,
        hint_fn: HintFn | None = None,
        resumed: bool = False,
    ) -> None:
        if isinstance(game, Game):
            game = LocalSession(game, viewer=viewer, human_seats=frozenset(human_seats),
                                practice=practice)
        self.session: TableSession = game
        self.rules = game.rules
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
        self.executor = executor if executor is not None else _ai_service()
        self.ai = AiTurns(self, players)  # seat -> Player for the AI seats the table asks
        self.hints = Hints(self, hint_fn if hint_fn is not None else find_hint())
        self._init_state()
        self._start(resumed)

    def _init_state(self) -> None:
        """Where the table stands before the first step: nothing shown, asked or pending."""
        self.feed = StepFeed(self)
        self.discard = DiscardPick(self)
        self.keys = KeyCursor(self, self.discard)
        self.rewind = Rewind(self)
        self.end = DealEnd(self)
        self.notices = Notices(self)
        self.clock = 0.0
        self.generation = 0  # moves on when the table is laid out afresh: older answers are dropped
        self.prompt_for = -1  # session.cursor of the decision the prompt was built for
        #: session.cursor at which the viewer's command went to a server that has not
        #: answered yet: nothing lights up again there until its event or its refusal
        self.sent_for = -1
        self.legal_cards: frozenset[int] = frozenset()
        self.refused_instead: tuple[int, ...] = ()  # the cards a refusal says to play instead
        self.status: Msg | None = None
        self.tone: Tone = "info"
        self.banner: Msg | None = None
        self.banner_until = 0.0
        self.finished = False
        self.replay_path: Path | None = None
        #: a move could not be saved (disk full...): the table stops, the position
        #: kept, until the player tries again (Enter) or leaves (saved up to there)
        self.save_error: str | None = None
        #: online: this seat was opened in another window (with its token): this
        #: table stops where it is, saying so, and does not reconnect
        self.elsewhere = False

    @property
    def game(self) -> Game | None:
        """The engine game of a local session (for the code that started it, and
        tests); None online.  The controller itself never reads it."""
        got: Game | None = getattr(self.session, "game", None)
        return got

    def _start(self, resumed: bool) -> None:
        """Lay the table out where the game stands (:func:`resume_point`)."""
        shown, sheet_at = resume_point(self.session, resumed)
        self.feed.shown = shown
        if shown:
            self.feed.enter(self._scene_of(self.session.view_at(shown).phase, "deal"))
        self.out.lay(self.position(shown), frozenset(), frozenset(), False)
        if sheet_at is not None:
            event = self.session.event(sheet_at)
            assert isinstance(event, DealScored)
            self.open_scoring(sheet_at, event, sound=False)

    # --- what the viewer sees ------------------------------------------------------

    @property
    def you(self) -> int | None:
        """The seat that is "you" in messages (None when nobody human sits here)."""
        return self.viewer if self.viewer in self.human_seats else None

    @property
    def stopped(self) -> bool:
        """An online table stopped for good: its seat opened in another window, or
        its server gone (:class:`~game.table.notices.Notices`)."""
        return self.notices.elsewhere

    @property
    def shown(self) -> int:
        """The events the display has shown (:class:`~game.table.steps.StepFeed`)."""
        return self.feed.shown

    @property
    def scene(self) -> Scene:
        return self.feed.scene

    @property
    def waiting(self) -> Waiting:
        """What the table waits for before it goes on ("" for nothing)."""
        return self.feed.waiting

    def position(self, i: int | None = None) -> Position:
        """The position after the first ``i`` events (default: the game's), as the
        viewer's seat sees it."""
        return Position.of([self.session.view_at(self.session.cursor if i is None else i)])

    def view(self) -> SeatView:
        return self.session.view_at(self.session.cursor)

    def hand_order(self) -> list[int]:
        """The viewer's hand as it is laid out, left to right."""
        return layout.sorted_hand(self.view().hand, self.rules.pack)

    def _scene_of(self, phase: int, otherwise: Scene) -> Scene:
        """The scene of a game in ``phase`` (the discard's or play), else ``otherwise``."""
        return self.feed.discard_scene if phase == DISCARD else "play" if phase == PLAY else otherwise

    def say(self, m: Msg | None, tone: Tone = "info") -> None:
        """The status line's message (None: none) and its tone."""
        self.status = m
        self.tone = tone

    def announce(self, m: Msg, seconds: float = T_ANNOUNCE) -> None:
        """A banner for ``seconds`` (at speed 1) over the trick."""
        self.banner = m
        self.banner_until = self.clock + seconds / self.speed

    # --- the loop ----------------------------------------------------------------

    def update(self, dt: float) -> None:
        self.clock += dt
        if self.banner is not None and self.clock > self.banner_until:
            self.banner = None
        self.hints.poll()
        for notice in self.session.poll():
            self.notices.hear(notice)
        if self.finished and self.replay_path is None and self.session.online:
            self.replay_path = file_game(self.session)  # once the server said the game is over
        if self.out.busy or self.waiting or self.save_error or self.notices.elsewhere or self.feed.advance():
            return
        if self.feed.shown > self.session.cursor:  # undo moved the game back: lay it out again
            self.resync()
            return
        self._act()

    def _act(self) -> None:
        """The display has caught up: prompt the human, ask the AI, or wait."""
        v = self.view()
        if v.phase == OVER:
            if not self.finished:
                self._finish()
            return
        if v.phase not in (DISCARD, PLAY) or v.turn < 0:
            return  # between a deal's score and the next deal, from a server
        self.feed.enter(self._scene_of(v.phase, "play"))
        seat = v.turn
        if seat in self.human_seats:
            if self.prompt_for != self.session.cursor and self.sent_for != self.session.cursor:
                self._prompt()
            return
        seats = self.session.ai_seats
        if seats is not None:
            self.ai.play(seats, seat)
        else:  # a person or an AI at the server's table
            self.notices.waiting_for(seat)

    # --- the human's decisions -----------------------------------------------------------

    def _prompt(self) -> None:
        """Light up what the viewer may do now: legal cards raised, the others dimmed."""
        view = self.view()
        self.prompt_for = self.session.cursor
        self.discard.clear()
        self.hints.clear()
        hand = frozenset(self.hand_order())
        if view.phase == PLAY:
            self.legal_cards = frozenset(mask_cards(view.legal_mask()))
            self.say(msg("your_turn"), "prompt")
            raised = self.legal_cards
        else:
            masks = self.rules.legal_discards(view.hand)
            self.legal_cards = frozenset(mask_cards(discard_options(masks, 0)))
            self.say(msg("your_discard", n=self.rules.discard_cards), "prompt")
            raised = frozenset()
        self.out.lay(self.position(), raised, hand - self.legal_cards, True)
        self.keys.reset()

    def clear_prompt(self) -> None:
        """Nothing lit up for the viewer to do (another seat plays, or it was done)."""
        self.prompt_for = -1
        self.legal_cards = frozenset()
        self.hints.clear()

    def can_act(self) -> bool:
        cursor = self.session.cursor
        return (not self.out.busy and not self.waiting and not self.feed.queued and not self.save_error
                and not self.notices.elsewhere and self.shown == cursor and self.view().turn in self.human_seats
                and self.prompt_for == cursor and self.sent_for != cursor)

    def click_card(self, card: int) -> bool:
        """The viewer chooses ``card``; an illegal choice only says which rule forbids it."""
        self.retry_save()  # after a failed save, a click tries again
        if not self.can_act():
            return False
        view = self.view()
        if view.phase == PLAY:
            refusal = self.rules.play_refusal(view.hand, view.trick, card)
            if refusal:
                self.refuse(refusal, card)
                return False
            self.submit(Play(view.seat, card))
            return True
        if view.phase == DISCARD:
            return self.discard.pick(view, card)
        return False

    def refuse(self, refusal: Refusal, card: int = -1) -> None:
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
        self.say(msg("refused", refusal=refusal, card=card, instead=instead), "error")
        self.out.play_sound("click")

    def refused(self, refusal: Refusal | None, text: str) -> None:
        """The server refused the viewer's last command: the prompt comes back,
        under the reason (the rule's, or the server's ``text``)."""
        v = self.view()
        self.sent_for = -1
        if v.turn in self.human_seats and v.phase in (DISCARD, PLAY):
            self._prompt()  # the cards light up again, under the reason
        self._say_refusal(refusal, text)

    def _say_refusal(self, refusal: Refusal | None, text: str) -> None:
        if refusal is not None:
            self.refuse(refusal)
        else:
            self.say(msg("engine", text=text), "error")

    def submit(self, cmd: Command) -> None:
        """Send the viewer's command (a local game: the engine decides at once; a
        server answers later, and until then the hand stays dark)."""
        before = self.session.cursor
        try:
            self.session.submit(cmd)
        except SaveFailed as exc:
            self.save_failed(exc)
            return
        except IllegalMove as exc:  # the engine has the last word
            self._say_refusal(exc.refusal, str(exc))
            return
        self.clear_prompt()
        self.sent_for = before if self.session.cursor == before else -1
        self.discard.clear()
        self.say(None)

    def save_failed(self, exc: SaveFailed) -> None:
        """The move was not saved, so it was not made: say what failed and where."""
        self.save_error = str(exc)
        self.say(msg("save_failed", text=str(exc)), "error")
        self.out.play_sound("click")

    def retry_save(self) -> bool:
        """Try again after a failed save: the move is asked for (or the AI's made) anew."""
        if not self.save_error:
            return False
        self.save_error = None
        self.prompt_for = -1
        self.say(None)
        return True

    # --- the table laid out again, the pace, going on ----------------------------------

    def resync(self) -> None:
        """Cancel every animation and pending AI answer; lay the table as the game says."""
        self.generation += 1
        self._cancel_ai()
        self.feed.clear()
        self.end.sheet = None
        self.banner = None
        self.feed.shown = self.session.cursor
        self.prompt_for = self.sent_for = -1
        self.discard.clear()
        self.hints.clear()
        self.feed.scene = self._scene_of(self.view().phase, self.feed.scene)
        self.out.lay(self.position(), frozenset(), frozenset(), False)
        self.say(None)

    def cycle_speed(self) -> None:
        i = SPEEDS.index(self.speed) if self.speed in SPEEDS else SPEEDS.index(1.0)
        self.speed = SPEEDS[(i + 1) % len(SPEEDS)]
        self.announce(msg("speed", speed=self.speed), 1.0)
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
            self.feed.waiting = "trick-go"
            self.say(None)
            self.feed.show_next()
        elif self.waiting == "scoring":
            self.feed.waiting = ""
            self.end.close()
            if self.finished and not self.auto_continue and self.on_exit:
                self.on_exit()

    def _cancel_ai(self) -> None:
        """Drop the AI calls of this table: queued ones are cancelled, one already
        running is ignored when it ends (the generation has moved on)."""
        self.ai.cancel()
        self.hints.cancel()

    def close(self) -> None:
        self.generation += 1
        self._cancel_ai()  # the AI service is the application's and outlives this table
        if not self.finished:
            self.session.close()  # a local autosave stays: the menu offers to resume

    # --- what the view asks at the end of a deal, and of Enter (a lesson extends them) -----

    @property
    def end_choices(self) -> tuple[Choice, ...]:
        """What the end of a deal offers (:attr:`DealEnd.choices`), the first the default."""
        return self.end.choices

    def choose(self, choice: Choice) -> None:
        """One of :attr:`end_choices` (:meth:`DealEnd.choose`)."""
        self.end.choose(choice)

    def key_press(self) -> bool:
        """Enter or Space (:meth:`KeyCursor.press`); False where it means nothing now."""
        return self.keys.press()

    # --- the end of a deal, of the game --------------------------------------------------

    def open_scoring(self, i: int, event: DealScored, sound: bool = True) -> None:
        """The deal's sheet (:meth:`DealEnd.open`), its sound, and the end of the game
        where it was the last deal."""
        self.feed.enter("scoring")
        self.feed.waiting = "scoring"
        self.end.open(i, event)
        if sound:
            self.out.play_sound("deal_won" if self.end.viewer_won(False) else "deal_lost")
        if self.end.game_over_at(i):
            self._finish()

    def _finish(self) -> None:
        """The game is over: keep it as a replay; the autosave is no longer needed."""
        if self.finished:
            return
        self.finished = True
        self.replay_path = file_game(self.session)
        if self.end.viewer_won(True):
            self.out.play_sound("match_won")


def _ai_service() -> Executor:
    """The application's AI process, started if it was not."""
    from game.table import ai_service

    service = ai_service.service()
    service.start()
    return service


__all__ = ["InlineExecutor", "TableController", "resume_point"]
