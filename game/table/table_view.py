"""The play table's view: it draws what :class:`~game.table.table_controller.TableController`
decides, and turns clicks and keys into the controller's calls.

The view implements the controller's :class:`~game.table.table_api.Presenter`
(animate a step on the :class:`~game.table.scene.table_scene.TableScene`, lay the
cards out, show hint figures, play a sound) and reads the controller's fields
each frame.  No rule, score or result is worked out here.  What it draws, each
in a module of its own: the card scene (``scene``), the lines of text over the
felt (``table_texts``), the hint figures and the keyboard cursor over the hand
(``hand_marks``), the buttons (``table_buttons``), the tooltips over the felt
(``table_tips``), and at the end of a deal the score panel (``score_panel``) or
another page of it (``review_panel``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

import arcade

from engine.game import Game
from engine.players import Player
from engine.state import Dealt
from game.common import damage, navigation, paths, textures
from game.common.constants import HEIGHT, WIDTH
from game.common.i18n import _
from game.common.position import Position
from game.common.settings import Settings
from game.common.sound import SoundBoard
from game.common.ui import BaseView, button_bounds
from game.common.words import Words, msg
from game.table import session
from game.table.deal_end import Choice
from game.table.hand_marks import HandMarks
from game.table.hints import find_hint
from game.table.review_panel import ReviewPanel
from game.table.scene.table_scene import TableScene
from game.table.score_panel import ScorePanel
from game.table.table_api import Executor, Scene, Step
from game.table.table_buttons import TableButtons
from game.table.table_controller import TableController
from game.table.table_session import LocalSession, TableSession
from game.table.table_texts import TableTexts
from game.table.table_tips import TableTips


class TableView(BaseView):
    background = (18, 70, 42)

    def __init__(
        self,
        window: arcade.Window,
        game: Game | TableSession,
        players: dict[int, Player],
        *,
        human_seats: Collection[int] = frozenset({0}),
        face_up_seats: Collection[int] = frozenset({0}),
        practice: bool = False,
        settings: Settings | None = None,
        sound: SoundBoard | None = None,
        auto_continue: bool = False,
        on_scene: Callable[[Scene], None] | None = None,
        on_exit: Callable[[], None] | None = None,
        on_again: Callable[[], None] | None = None,
        executor: Executor | None = None,
        resumed: bool = False,
        controller: Callable[[TableView], TableController] | None = None,
    ) -> None:
        super().__init__(window)
        from game.common.fonts import warm

        warm()
        viewer = min(face_up_seats) if face_up_seats else 0
        self.sound = sound
        self.settings = settings
        self.auto_continue = auto_continue
        if isinstance(game, Game):  # a game on this machine; else a session (online)
            game = LocalSession(game, viewer=viewer, human_seats=frozenset(human_seats),
                                practice=practice)
        viewer, human_seats = game.viewer, game.human_seats
        rules = game.rules
        self.words = Words(rules, viewer if viewer in human_seats else None)
        subs = [name or (_(p) if p != "human" else "") for p, name in zip(game.players, game.names,
                                                                       strict=True)]
        #: the plates' names and second lines as the game began, the people's names, and the
        #: seats shown played by the AI for their person ("AI for Anna" on the plate)
        self._plates = (self.words.names(), subs, game.names)
        self._ai_for_shown: frozenset[int] = frozenset()
        self.table = TableScene(rules, self.words.names(), sound, subs, words=self.words, bottom=viewer)
        self.table.speed = settings.speed if settings else 1.0
        self.texts = TableTexts(self.words, self.table.seating, self.table.labels)
        self.marks = HandMarks(self.table)
        self.score_panel: ScorePanel | None = None
        self.review_panel: ReviewPanel | None = None
        # ``controller``: a factory (view -> controller) for a table run otherwise (a lesson)
        self.ctl = controller(self) if controller is not None else TableController(
            game, players, self, human_seats=human_seats, viewer=viewer, practice=practice,
            settings=settings, executor=executor, auto_continue=auto_continue, on_scene=on_scene,
            on_exit=on_exit, on_again=on_again, on_review=self._review_fn(), hint_fn=find_hint(),
            resumed=resumed,
        )
        self.toolbar = TableButtons(self.ctl, self.words, self.table.tex, bool(sound and sound.enabled), self)
        self.buttons = self.toolbar.toolbar
        self.tips = TableTips(self.ctl, self.words, self.table, self.texts, self.tooltip, self._tooltip_width)
        self._mouse = (-1.0, -1.0)
        self._keys_down: dict[int, float] = {}  # the keys held, since when (the controller's clock)
        self.frames = 0

    @property
    def game(self) -> Game | None:
        """The engine game of a local table (tests, tools); None online."""
        return self.ctl.game

    @property
    def session(self) -> TableSession:
        return self.ctl.session

    # --- the controller's presenter ---------------------------------------------------

    @property
    def busy(self) -> bool:
        return self.table.busy

    def show(self, step: Step) -> None:
        t = self.table
        t.speed = self.ctl.speed
        if step.kind == "deal":
            assert isinstance(step.event, Dealt)
            t.animate_deal(step.event, step.after)
        elif step.kind == "take":
            t.animate_take(step.after, step.delay / t.speed)
        else:
            assert step.event is not None
            t.animate(step.event, step.before, step.after)

    def lay(self, pos: Position, raised: frozenset[int], dimmed: frozenset[int], ease: bool) -> None:
        self.table.set_dimmed(dimmed)
        if ease:
            self.table.relayout(pos, raised=raised)
        else:
            self.table.snap(pos, raised=raised)

    def show_hints(self, hints: dict[int, float]) -> None:
        self.marks.show_hints(hints, self.ctl.hand_order() if hints else ())

    def play_sound(self, name: str) -> None:
        if self.sound:
            self.sound.play(name)

    def _review_fn(self) -> Callable[[Path], None] | None:
        """The review of a deal (the router's "review" screen), if there is one:
        the "Review this deal" button opens it and comes back to this table."""
        if not navigation.knows(self.window, "review"):
            return None

        def review(path: Path) -> None:
            navigation.show(self.window, "review", path=path, seat=self.ctl.you,
                            back=navigation.going_back(lambda: self.window.show_view(self),
                                                       _("Back to the table (Esc)")))

        return review

    # --- the loop ---------------------------------------------------------------

    def on_update(self, delta_time: float) -> None:
        dt = min(delta_time, 0.1)
        self.frames += 1
        self.table.update(dt)
        panel = self.score_panel
        if panel:
            panel.update(dt)
            if self.auto_continue and panel.done_for > 1.2 / self.ctl.speed:
                self.continue_()
        self.ctl.update(dt)
        self._sync_panel()

    def _sync_panel(self) -> None:
        sheet = self.ctl.end.sheet
        if sheet is None:
            self.score_panel = None
            self.review_panel = None
        elif self.score_panel is None or self.score_panel.sheet is not sheet:
            self.score_panel = ScorePanel(sheet, self.words, self.ctl.speed,
                                          min_width=self.toolbar.row_width(self.ctl.end_choices) + 40)
            self.review_panel = None
        page = self.ctl.end.page
        if sheet is not None and page != "score":
            if self.review_panel is None or self.review_panel.page != page:
                self.review_panel = ReviewPanel(sheet, self.words, page, self.table)
        elif self.review_panel is not None:
            self.review_panel = None

    # --- actions (buttons and keys) ---------------------------------------------------

    def confirm_discard(self) -> None:
        self.ctl.discard.confirm()

    def undo(self) -> None:
        self.ctl.rewind.undo()  # nothing to undo: it says so

    def redo(self) -> None:
        self.ctl.rewind.redo()  # nothing to redo: it says so

    def ask_hint(self) -> None:
        self.ctl.hints.ask()

    def cycle_speed(self) -> None:
        self.ctl.cycle_speed()
        self.table.speed = self.ctl.speed
        self.toolbar.speed_changed()

    def toggle_sound(self) -> None:
        if not self.sound:
            return
        self.sound.enabled = not self.sound.enabled
        self.toolbar.sound_switched(self.sound.enabled)
        if self.settings:
            self.settings.sound = self.sound.enabled
            self.settings.save()

    def show_last_trick(self) -> None:
        if self.table.last_trick_overlay:
            self.table.last_trick_overlay = None
        else:
            self.table.last_trick_overlay = self.ctl.last_trick()

    def continue_(self) -> None:
        """A click or Space: the trick shown goes on.  At the end of a deal the score
        is counted up at once, and then stays until a deliberate choice (a button, or
        the key the default one names: :meth:`next_key`); only autoplay goes on by itself."""
        ctl = self.ctl
        if ctl.waiting == "scoring":
            if self.score_panel and not self.score_panel.done:
                self.score_panel.finish()
                return
            if not self.auto_continue:
                return
        ctl.continue_()
        self._sync_panel()

    def next_key(self, repeat: bool) -> bool:
        """N at the end of a deal: the score counted up at once, else its default choice
        (the next deal, or another game).  A key repeating as it is held is never a choice."""
        ctl = self.ctl
        if ctl.waiting != "scoring" or self.auto_continue:
            return False
        if self.score_panel and not self.score_panel.done:
            self.score_panel.finish()
            return True
        first = ctl.end_choices[0] if ctl.end_choices else None
        if not repeat and first in ("next", "again"):
            self.choose(first)
        return True

    def choose(self, choice: Choice) -> None:
        """A button at the end of a deal (:attr:`~game.table.deal_end.DealEnd.choices`)."""
        if self.score_panel and not self.score_panel.done:
            self.score_panel.finish()
        self.ctl.choose(choice)
        self._sync_panel()

    def leave(self) -> None:
        on_exit = self.ctl.on_exit
        self.close()
        if on_exit:
            on_exit()

    def close(self) -> None:
        self.ctl.close()

    def _set_status(self, text: str) -> None:
        """Show a line of text in the status box (tests and tools)."""
        self.ctl.say(msg("engine", text=text))

    # --- drawing -------------------------------------------------------------------

    def backdrop_key(self) -> Any:
        cleared = self.table.cleared
        key = getattr(self, "_backdrop_key", None)
        if key is None or key[2] != cleared:
            key = self._backdrop_key = ("table", self.table.backdrop_marks(), cleared)
        return key

    def paint_backdrop(self, size: tuple[int, int]) -> Any:
        from game.common import paint

        return paint.backdrop(size, self.table.backdrop_marks())

    def prepare_frame(self) -> None:
        vp = self.camera.viewport
        self.table.pixelated = (round(vp.width), round(vp.height)) == (WIDTH, HEIGHT) and \
            self.window.get_framebuffer_size()[0] == self.window.get_size()[0]
        ctl = self.ctl
        self._sync_plates()
        self.texts.sync(ctl.status, ctl.tone, ctl.banner, ctl.end.standing, getattr(ctl, "coach", None),
                        ctl.feed.trick_winner if ctl.waiting == "trick" else -1)
        # the end of a deal's sheet over the table: the plates and labels put away
        self.table.cleared = self.review_panel is not None or self.score_panel is not None
        self.table.prepare()
        self.toolbar.sync_toolbar()
        panel = self.review_panel or self.score_panel
        self.toolbar.place_extra(self.texts, panel.button_y if self.score_panel and panel else None)

    def _sync_plates(self) -> None:
        """A seat the AI plays for a friend who is away says so on its plate ("AI for
        Anna"), until the friend is back."""
        ai_for = self.ctl.notices.ai_for
        if ai_for == self._ai_for_shown:
            return
        self._ai_for_shown = ai_for
        names, subs, people = self._plates
        self.table.set_names(names, [
            _("AI for {name}").format(name=people[s] or names[s]) if s in ai_for else sub
            for s, sub in enumerate(subs)], urgent=ai_for)

    def _cursor_card(self) -> int | None:
        """The card under the keyboard cursor while the viewer is asked to choose."""
        ctl = self.ctl
        if ctl.keys.index < 0 or ctl.prompt_for != ctl.session.cursor:
            return None
        return ctl.keys.card(ctl.hand_order())

    def damage_items(self) -> list[Any]:
        items = self.table.damage_items()
        items.extend(self.marks.damage_items(self._cursor_card()))
        items.extend(self.texts.damage_items())
        panel = self.review_panel or self.score_panel
        if panel is not None:
            items.append(damage.rect_item("panel", (id(panel), panel.done), panel.bounds()))
            for i, t in enumerate(panel.texts):
                items.append(damage.text_item(t, ("panel-text", i)))
        else:
            items.append(damage.rect_item("panel", None, None))
        for i, b in enumerate(self.toolbar.extra):
            items.append(damage.rect_item(("extra", i), (b.label, b.rect, b.hover, b.enabled),
                                          button_bounds(b.rect)))
        items.extend(self.chrome_items())
        return items

    def draw_scene(self) -> None:
        self.table.draw(prepare=False, shows=self.shows)  # prepared once in prepare_frame
        self.marks.draw(self.reaches, self._cursor_card())
        self.texts.draw(self.reaches)
        panel = self.review_panel or self.score_panel
        if panel and self.reaches("panel"):
            panel.draw()
        for b in self.toolbar.extra:
            b.draw(False)

    # --- tooltips ---------------------------------------------------------------------

    def _place_tooltip(self) -> tuple[str, float, float] | None:
        """A button's tooltip, else the table's (:class:`~game.table.table_tips.TableTips`)."""
        tip = super()._place_tooltip()
        return tip if tip is not None else self.tips.place(*self._mouse)

    # --- input -------------------------------------------------------------------

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        lx, ly = self.logical(x, y)
        for b in (self.toolbar.btn_undo, self.toolbar.btn_redo):  # disabled, a click still says why
            if not b.enabled and self.ctl.practice and b.contains(lx, ly) and b.action is not None:
                b.action()
                return
        super().on_mouse_press(x, y, button, modifiers)

    def on_logical_motion(self, x: float, y: float) -> None:
        self._mouse = (x, y)  # a card under it is named (its tooltip)
        for b in self.toolbar.extra:
            b.hover = b.contains(x, y)

    def on_click(self, x: float, y: float, button: int) -> None:
        for b in self.toolbar.extra:
            if b.contains(x, y):
                b.press()
                return
        if self.table.last_trick_overlay:
            self.table.last_trick_overlay = None
            return
        if self.ctl.waiting:
            self.continue_()
            return
        card = self.table.card_at(x, y, self.ctl.viewer)
        if card is not None and self.ctl.viewer in self.ctl.human_seats:
            self.ctl.click_card(card)

    def _pressed(self, symbol: int) -> bool:
        """Note a key going down; whether it is a repeat of one held (pressed again
        without being let go, within a second: a lost release does not stick)."""
        now = self.ctl.clock
        last = self._keys_down.get(symbol)
        self._keys_down[symbol] = now
        return last is not None and now - last < 1.0

    def on_key_release(self, symbol: int, modifiers: int) -> bool | None:
        self._keys_down.pop(symbol, None)
        return None

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        k = arcade.key
        repeat = self._pressed(symbol)
        if symbol == k.N and self.next_key(repeat):
            return True
        ctrl = modifiers & (k.MOD_CTRL | k.MOD_COMMAND)
        if ctrl and symbol in (k.Z, k.Y):
            (self.undo if symbol == k.Z else self.redo)()
            return True
        actions = {k.H: self.ask_hint, k.L: self.show_last_trick, k.S: self.cycle_speed,
                   k.M: self.toggle_sound}
        if symbol in actions:
            actions[symbol]()
            return True
        if symbol in (k.LEFT, k.RIGHT, k.UP, k.DOWN):
            # the arrows walk the hand, never the toolbar (Tab does): an arrow pressed
            # while another seat plays must not leave a button focused for Enter
            if symbol in (k.LEFT, k.RIGHT):
                self.ctl.keys.step(1 if symbol == k.RIGHT else -1)
            return True
        if symbol in (k.ENTER, k.RETURN, k.SPACE, k.NUM_ENTER) and self._enter():
            return True
        return super().on_key_press(symbol, modifiers)

    def _enter(self) -> bool:
        """Enter or Space, the keys that go on after a trick: the score counted up at
        once (never more: the end of a deal waits for a choice), the table goes on,
        or the keyboard's card (:class:`KeyCursor`)."""
        ctl = self.ctl
        if ctl.waiting == "scoring":
            self.continue_()
            return True
        if ctl.waiting:
            self.continue_()
            return True
        return ctl.key_press()

    def on_back(self) -> None:
        if self.table.last_trick_overlay:
            self.table.last_trick_overlay = None
            return
        self.leave()


def table_ready() -> str | None:
    """None if the art is there, else a message naming the missing files."""
    missing = textures.missing_files()
    if not missing:
        return None
    return _("Missing art: {files}").format(files=", ".join(str(p) for p in missing[:5]))


def start_table(window: Any, game: Game, practice: bool = False, resumed: bool = False) -> TableView | None:
    """Show the table for ``game`` (the router's "game" screen); a missing asset gives
    a message, not a traceback.  ``resumed``: the game is put on the table as it
    stands, nothing played again.  The view shown, or None."""
    try:
        textures.get()
    except textures.MissingAssets as exc:
        game.close()
        navigation.show(window, "message", text=_("Cannot open the table: {error}").format(error=exc))
        return None

    def back() -> None:
        navigation.show(window, "menu")

    def again() -> None:
        """The game is over: another set up the same way (the table's "Play again")."""
        try:
            nxt = session.play_again(game)
        except paths.AutosaveBusy as exc:  # another Tarocchi window has a game: its one line
            navigation.show(window, "message", text=str(exc))
            return
        except (OSError, paths.DataFolderError) as exc:
            navigation.show(window, "message", text=_("Cannot start a game: {error}").format(error=exc))
            return
        start_table(window, nxt, practice=practice)

    view = TableView(window, game, session.ai_players(game), human_seats=session.human_seats(game),
                     practice=practice, settings=window.settings, sound=getattr(window, "sound", None),
                     on_exit=back, on_again=again, resumed=resumed)
    window.show_view(view)
    return view


__all__ = ["TableView", "start_table", "table_ready"]
