"""The play table: the engine's events become scenes, input becomes commands.

Scenes (``self.scene``): ``deal`` (the Dealt animation), ``discard`` (the
dealer lays two cards aside), ``play`` (tricks), ``scoring`` (the deal's
points counted up, then the result; the match sheet in a match).

The loop in :meth:`TableView.on_update`: advance the tweens; when they are
done, take the next event the display has not shown yet (``self.shown`` runs
behind ``game.cursor``) and animate it; when the display has caught up, either
wait for the human's input or hand the seat's view to its AI player on a
worker thread, and pick the answer up on a later frame.
"""

from __future__ import annotations

import importlib
import sys
import time

import arcade
from arcade import easing

from engine.cards import CODES, MATTO
from engine.replay import write_replay
from engine.rules import discard_error, play_error
from engine.state import (
    DISCARD,
    OVER,
    PLAY,
    CardPlayed,
    DealScored,
    Dealt,
    Discard,
    Discarded,
    IllegalMove,
    Play,
    TrickTaken,
)

from .. import ai_service, damage, layout, paths, textures
from ..constants import (
    FONT,
    GOLD,
    HEIGHT,
    INK,
    PANEL,
    PANEL_EDGE,
    RED,
    SPEEDS,
    T_AI_MIN,
    T_ANNOUNCE,
    T_COUNT,
    TEAM_COLOURS,
    WIDTH,
)
from ..i18n import N_, _
from ..messages import explain, local_card_name
from ..scoring import breakdown
from ..table import TableScene, set_colour
from ..ui import BaseView, Button, button_bounds

SEAT_KEYS = (N_("South"), N_("East"), N_("North"), N_("West"))


def find_hint():
    """The AI's hint function (``engine.ai.hint``) if the AI package has one."""
    try:
        mod = importlib.import_module("engine.ai")
    except Exception:  # noqa: BLE001 - no AI yet: the hint button stays disabled
        return None
    return getattr(mod, "hint", None)


class TableView(BaseView):
    background = (18, 70, 42)

    def __init__(
        self,
        window,
        game,
        players: dict,
        *,
        human_seats=frozenset({0}),
        face_up_seats=frozenset({0}),
        practice: bool = False,
        settings=None,
        sound=None,
        auto_continue: bool = False,
        on_scene=None,
        on_exit=None,
    ) -> None:
        super().__init__(window)
        from ..fonts import warm

        warm()
        self.game = game
        self.players = players  # seat -> Player for the AI seats
        self.human_seats = frozenset(human_seats)
        self.face_up = frozenset(face_up_seats)
        self.practice = practice
        self.settings = settings
        self.sound = sound
        self.auto_continue = auto_continue  # autoplay: no clicks needed anywhere
        self.on_scene = on_scene  # callback(scene_name) when a scene starts
        self.on_exit = on_exit  # callback() to leave the table (back to the menu)
        self.speed = settings.speed if settings else 1.0
        self.auto_advance = settings.auto_advance if settings else True
        names = [self._seat_name(s) for s in range(4)]
        subs = [_(p) if p != "human" else "" for p in game.header.players]
        self.table = TableScene(names, sound, subs)
        self.table.speed = self.speed
        # AI decisions and hints run in the AI process (game.ai_service): a search on
        # a thread here would hold the GIL and make frames stutter while it thinks.
        self.executor = ai_service.service()
        self.executor.start()
        self.pending = None  # (future, cursor, generation, started_at)
        self.hint_future = None
        self.hints: dict[int, float] = {}
        self.generation = 0
        self.shown = 0  # events already shown (index into game.states)
        self.scene = ""
        self.waiting = ""  # "", "trick" (click to continue), "scoring"
        self.selected: list[int] = []  # discard picks
        self.key_cursor = -1  # keyboard card cursor in South's hand
        self.prompt_for = -1  # game.cursor of the decision the prompt was built for
        self.legal_cards: frozenset[int] = frozenset()
        self.status = arcade.Text("", *layout.STATUS_POS, INK, 15, anchor_x="center",
                                  anchor_y="center", font_name=FONT, bold=True)
        self.status_colour = INK
        self.banner = arcade.Text("", layout.CENTRE[0], layout.CENTRE[1] + 40, GOLD, 22,
                                  anchor_x="center", anchor_y="center", font_name=FONT, bold=True)
        self.banner_until = 0.0
        self.hint_texts: list[arcade.Text] = []
        self._extra: list[Button] = []  # confirm / continue, when they show (prepare_frame)
        self.score_panel: ScorePanel | None = None
        self.finished = False
        self.replay_path = None
        self.hint_fn = find_hint()
        self._build_buttons()
        self.table.snap(game.states[0], self.face_up)
        self.shown = 0
        self.frames = 0

    # --- setup ------------------------------------------------------------------

    def _seat_name(self, seat: int) -> str:
        if seat in self.human_seats:
            return _("You") if seat == 0 else _(SEAT_KEYS[seat])
        return _("Partner") if seat == 2 and 0 in self.human_seats else _(SEAT_KEYS[seat])

    def _build_buttons(self) -> None:
        tex = self.table.tex.table
        rects = layout.button_rects(6)
        self.btn_menu = Button("", rects[0], self.leave, icon=tex["menu"], tooltip=_("Menu (Esc)"))
        self.btn_undo = Button("", rects[1], self.undo, icon=tex["undo"],
                               tooltip=_("Undo (Ctrl+Z)"), enabled=self.practice)
        self.btn_redo = Button("", rects[2], self.redo, icon=tex["redo"],
                               tooltip=_("Redo (Ctrl+Y)"), enabled=self.practice)
        hint_ok = self.practice and self.hint_fn is not None
        tip = _("Hint (H): expected points of each card") if hint_ok else (
            _("Hints are for practice games") if self.hint_fn else _("Hints need the AI (coming soon)"))
        self.btn_hint = Button("", rects[3], self.ask_hint, icon=tex["hint"], tooltip=tip,
                               enabled=hint_ok)
        self.btn_speed = Button("", rects[4], self.cycle_speed, icon=tex["speed"],
                                tooltip=self._speed_tip())
        snd_on = bool(self.sound and self.sound.enabled)
        self.btn_sound = Button("", rects[5], self.toggle_sound,
                                icon=tex["sound_on" if snd_on else "sound_off"],
                                tooltip=_("Sound on/off (M)"))
        cx, cy, _w, h = rects[5]
        self.btn_last = Button(_("Last trick"), (cx + 110, cy, 130, h), self.show_last_trick,
                               tooltip=_("See the last trick again (L)"), font_size=13)
        self.btn_confirm = Button(_("Discard these two"), (WIDTH / 2, 282, 230, 40), self.confirm_discard,
                                  font_size=14)
        self.btn_continue = Button(_("Continue"), (WIDTH / 2, 282, 180, 40), self.continue_,
                                   font_size=14)
        self.buttons = [self.btn_menu, self.btn_undo, self.btn_redo, self.btn_hint,
                        self.btn_speed, self.btn_sound, self.btn_last]

    def _speed_tip(self) -> str:
        return _("Animation speed: x{speed} (S)").format(speed=f"{self.speed:g}")

    # --- the loop ---------------------------------------------------------------

    def on_update(self, delta_time: float) -> None:
        dt = min(delta_time, 0.1)
        self.frames += 1
        self.table.update(dt)
        if self.score_panel:
            self.score_panel.update(dt)
            if self.auto_continue and self.score_panel.done_for > 1.2 / self.speed:
                self.continue_()
        if self.banner.text and self.table.clock > self.banner_until:
            self.banner.text = ""
        self._poll_hint()
        if self.table.busy or self.waiting:
            return
        if self.shown < self.game.cursor:
            self._show_next()
            return
        if self.shown > self.game.cursor:  # undo moved the game back: lay it out again
            self.resync()
            return
        self._act()

    def _show_next(self) -> None:
        i = self.shown
        event = self.game.events[i]
        before, after = self.game.states[i], self.game.states[i + 1]
        if isinstance(event, TrickTaken) and not self.auto_advance and not self.auto_continue \
                and self.human_seats and self.waiting != "trick-go":
            self.waiting = "trick"
            name = self.table.names[event.winner]
            self.table.winner_text.text = _("{name} takes the trick").format(name=name)
            self._set_status(_("Click or press Space to continue"))
            return
        self.waiting = ""
        self.shown = i + 1
        if isinstance(event, Dealt):
            self._enter("deal")
            cutter = self.table.names[(event.dealer + 3) & 3]
            if event.dealer in self.human_seats and event.dealer == 0:
                self._set_status(_("You deal; {cutter} cuts").format(cutter=cutter))
            else:
                self._set_status(_("{name} deals; {cutter} cuts").format(
                    name=self.table.names[event.dealer], cutter=cutter))
        elif isinstance(event, Discarded):
            n = event.trumps
            who = self.table.names[event.seat]
            self._announce(_("Trumps in {name}'s discard: {n}").format(name=who, n=n))
        elif isinstance(event, DealScored):
            self.table.animate(event, before, after, self.face_up)
            self._open_scoring(before, event)
            return
        self.table.animate(event, before, after, self.face_up)
        if isinstance(event, CardPlayed) and event.card == MATTO:
            self._announce(_("The Matto goes to its own team's pile"), 1.2)
        if after.phase == PLAY and self.scene != "play" and not isinstance(event, Dealt):
            self._enter("play")

    def _enter(self, scene: str) -> None:
        if scene != self.scene:
            self.scene = scene
            if self.on_scene:
                self.on_scene(scene)

    def _announce(self, text: str, seconds: float = T_ANNOUNCE) -> None:
        self.banner.text = text
        self.banner_until = self.table.clock + seconds / self.speed

    def _set_status(self, text: str, colour=INK) -> None:
        self.status.text = text
        set_colour(self.status, colour)

    def _act(self) -> None:
        state = self.game.state
        if state.phase == OVER or not self.game.legal():
            if not self.finished:
                self._finish()
            return
        if state.phase == DISCARD:
            self._enter("discard")
        elif state.phase == PLAY:
            self._enter("play")
        seat = state.turn
        if seat in self.human_seats:
            if self.prompt_for != self.game.cursor:
                self._prompt()
            return
        self._run_ai(seat)

    # --- AI on a worker ------------------------------------------------------------

    def _run_ai(self, seat: int) -> None:
        if self.pending is None:
            if self.prompt_for != -1:
                self._clear_prompt()
            player = self.players[seat]
            view = self.game.view(seat)  # never the State
            legal = self.game.legal()
            if not self.executor.in_process:
                # the search shares this process's GIL: switch threads often so a
                # frame never waits the default 5 ms to get it back
                sys.setswitchinterval(min(sys.getswitchinterval(), 0.0005))
            fut = self.executor.submit(player.choose, view, legal, self.game.cursor)
            self.pending = (fut, self.game.cursor, self.generation, self.table.clock)
            self._set_status(_("{name} is thinking…").format(name=self.table.names[seat]))
            return
        fut, cursor, gen, started = self.pending
        if gen != self.generation or cursor != self.game.cursor:
            self.pending = None
            return
        if not fut.done() or self.table.clock - started < T_AI_MIN / self.speed:
            return
        self.pending = None
        cmd = fut.result()
        if cmd not in self.game.legal():
            raise IllegalMove(f"AI at seat {seat} chose {cmd}, not a legal command")
        self._set_status("")
        self.game.submit(cmd)

    # --- the human's decisions ------------------------------------------------------

    def _prompt(self) -> None:
        """Light up what South may do now: legal cards raised, the others dimmed."""
        state = self.game.state
        self.prompt_for = self.game.cursor
        self.selected = []
        self.hints = {}
        self.hint_texts = []
        legal = self.game.legal()
        if state.phase == PLAY:
            self.legal_cards = frozenset(c.card for c in legal)
            self._set_status(_("Your turn: play a card"), GOLD)
        else:
            self.legal_cards = frozenset(c for cmd in legal for c in cmd.cards)
            self._set_status(_("You deal: choose two cards to discard"), GOLD)
        hand = set(layout.sorted_hand(state.hands[0]))
        self.table.set_dimmed(hand - self.legal_cards)
        raised = self.legal_cards if state.phase == PLAY else ()
        self.table.relayout(state, self.face_up, raised=raised)
        self.key_cursor = -1

    def _clear_prompt(self) -> None:
        self.prompt_for = -1
        self.legal_cards = frozenset()
        self.table.set_dimmed(())
        self.hint_texts = []

    def _can_act(self) -> bool:
        return (not self.table.busy and not self.waiting and self.shown == self.game.cursor
                and self.game.state.turn in self.human_seats and self.prompt_for == self.game.cursor)

    def click_card(self, card: int) -> bool:
        """South chooses ``card``; an illegal choice only says which rule forbids it."""
        if not self._can_act():
            return False
        state = self.game.state
        seat = state.turn
        if state.phase == PLAY:
            err = play_error(state.hands[seat], state.trick, card)
            if err:
                self._refuse(_("{card}: {reason}").format(card=local_card_name(card), reason=explain(err)))
                return False
            self._submit(Play(seat, card))
            return True
        if state.phase == DISCARD:
            return self._pick_discard(card)
        return False

    def _refuse(self, text: str) -> None:
        self._set_status(text[:1].upper() + text[1:], RED)
        if self.sound:
            self.sound.play("click")

    def _pick_discard(self, card: int) -> bool:
        state = self.game.state
        hand = state.hands[state.turn]
        if card in self.selected:
            self.selected.remove(card)
        else:
            if len(self.selected) == 2:
                self.selected.pop(0)
            reason = self._discard_reason(hand, card)
            if reason:
                text = explain(reason)
                name = local_card_name(card)
                if name.lower() not in text.lower():
                    text = _("{card}: {reason}").format(card=name, reason=text)
                self._refuse(text)
                return False
            self.selected.append(card)
        self._show_selection()
        return True

    def _discard_reason(self, hand: int, card: int) -> str | None:
        """Why ``card`` cannot go with the current pick (engine's R6 reason), or None."""
        others = [c for c in self.selected if c != card]
        if others:
            return discard_error(hand, 1 << card | 1 << others[0])
        if card in self.legal_cards:
            return None
        partner = next((c for c in self.legal_cards if c != card), None)
        if partner is None:
            partner = next(c for c in layout.sorted_hand(hand) if c != card)
        return discard_error(hand, 1 << card | 1 << partner) or "R6"

    def _show_selection(self) -> None:
        state = self.game.state
        hand = state.hands[state.turn]
        if len(self.selected) == 1:
            ok = {c for c in layout.sorted_hand(hand) if c == self.selected[0]
                  or discard_error(hand, 1 << c | 1 << self.selected[0]) is None}
        else:
            ok = set(self.legal_cards) | set(self.selected)
        self.table.set_dimmed(set(layout.sorted_hand(hand)) - ok)
        self.table.relayout(state, self.face_up, raised=self.selected)
        if len(self.selected) == 2:
            a, b = self.selected
            self._set_status(_("Discard {a} and {b}? Press Enter or the button").format(
                a=local_card_name(a), b=local_card_name(b)), GOLD)
        else:
            self._set_status(_("You deal: choose two cards to discard"), GOLD)

    def confirm_discard(self) -> None:
        if len(self.selected) != 2 or not self._can_act():
            return
        a, b = sorted(self.selected)
        self._submit(Discard(self.game.state.turn, (a, b)))

    def _submit(self, cmd) -> None:
        try:
            self.game.submit(cmd)
        except IllegalMove as exc:  # the engine has the last word
            self._refuse(str(exc))
            return
        self._clear_prompt()
        self.selected = []
        self._set_status("")

    # --- practice: undo, redo, hint -------------------------------------------------

    def undo(self) -> None:
        if self.practice and not self.finished and self.game.undo(0):
            self.resync()

    def redo(self) -> None:
        if self.practice and not self.finished and self.game.redo(0):
            self.resync()

    def resync(self) -> None:
        """Cancel every animation and pending AI answer; lay the table as the state says."""
        self.generation += 1
        self._cancel_ai()
        self.waiting = ""
        self.score_panel = None
        self.banner.text = ""
        self.shown = self.game.cursor
        self.prompt_for = -1
        self.selected = []
        st = self.game.state
        self.scene = {DISCARD: "discard", PLAY: "play"}.get(st.phase, self.scene)
        self.table.snap(st, self.face_up)
        self._set_status("")

    def ask_hint(self) -> None:
        if not (self.practice and self.hint_fn and self._can_act()) or self.hint_future:
            return
        view = self.game.view(self.game.state.turn)
        self.hint_future = (self.executor.submit(self.hint_fn, view, 400, self.game.cursor),
                            self.game.cursor, self.generation)
        self._set_status(_("Thinking about your cards…"), GOLD)

    def _poll_hint(self) -> None:
        if not self.hint_future:
            return
        fut, cursor, gen = self.hint_future
        if gen != self.generation or cursor != self.game.cursor:
            self.hint_future = None
            return
        if not fut.done():
            return
        self.hint_future = None
        hints: dict[int, float] = {}
        for cmd, value in fut.result():
            if isinstance(cmd, Play):
                hints[cmd.card] = value
            elif isinstance(cmd, Discard):
                for c in cmd.cards:
                    hints[c] = max(hints.get(c, -1e9), value)
        self.hints = hints
        self.hint_texts = []
        best = max(hints.values()) if hints else 0
        for s in self.table.sprites:
            if s.key[0] == "card" and s.key[1] in hints:
                v = hints[s.key[1]]
                p = s.tweens[-1].end if s.tweens else s.place
                colour = GOLD if v >= best - 1e-9 else INK
                self.hint_texts.append(arcade.Text(f"{v:.1f}", p.x, p.y + 104, colour, 13,
                                                   anchor_x="center", anchor_y="center",
                                                   font_name=FONT, bold=True))
        self._set_status(_("Expected points for our team after each card; best in gold"), GOLD)

    # --- pace, sound, last trick ---------------------------------------------------

    def cycle_speed(self) -> None:
        i = SPEEDS.index(self.speed) if self.speed in SPEEDS else 1
        self.speed = SPEEDS[(i + 1) % len(SPEEDS)]
        self.table.speed = self.speed
        self.btn_speed.tooltip = self._speed_tip()
        self._announce(_("Animation speed: x{speed}").format(speed=f"{self.speed:g}"), 1.0)
        if self.settings:
            self.settings.speed = self.speed
            self.settings.save()

    def toggle_sound(self) -> None:
        if not self.sound:
            return
        self.sound.enabled = not self.sound.enabled
        tex = self.table.tex.table["sound_on" if self.sound.enabled else "sound_off"]
        for s in self.btn_sound._icon_list or []:
            s.texture = tex
        if self.settings:
            self.settings.sound = self.sound.enabled
            self.settings.save()

    def show_last_trick(self) -> None:
        st = self.game.states[self.shown]
        if self.table.last_trick_overlay:
            self.table.last_trick_overlay = None
        elif st.tricks:
            self.table.last_trick_overlay = st.tricks[-1]

    def continue_(self) -> None:
        if self.waiting == "trick":
            self.waiting = "trick-go"
            self.table.winner_text.text = ""
            self._set_status("")
            self._show_next()
        elif self.waiting == "scoring":
            if self.score_panel and not self.score_panel.done:
                self.score_panel.finish()
                return
            self.waiting = ""
            self.score_panel = None
            if self.finished and not self.auto_continue and self.on_exit:
                self.on_exit()

    def leave(self) -> None:
        self.close()
        if self.on_exit:
            self.on_exit()

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
            self.game.close()  # the autosave stays: the menu offers to resume

    # --- scoring ----------------------------------------------------------------------

    def _open_scoring(self, before, event: DealScored) -> None:
        self._enter("scoring")
        self.waiting = "scoring"
        parts = breakdown(before)
        st = self.game.states[self.shown]
        self.score_panel = ScorePanel(parts, event.points, st, self.speed)
        won = event.points[0] > event.points[1]
        if self.sound:
            self.sound.play("deal_won" if won else "deal_lost")
        if st.phase == OVER or len(st.scores) >= st.n_deals:
            self._finish()

    def _finish(self) -> None:
        """The game is over: keep it as a replay; the autosave is no longer needed."""
        if self.finished:
            return
        self.finished = True
        g = self.game
        stamp = time.strftime("%Y%m%d-%H%M%S")
        kind = "practice" if self.practice else ("match" if g.header.deals == 4 else "deal")
        path = paths.replays_dir() / f"{stamp}-{kind}-{g.header.seed}.jsonl"
        n = 1
        while path.exists():
            n += 1
            path = paths.replays_dir() / f"{stamp}-{kind}-{g.header.seed}-{n}.jsonl"
        write_replay(path, g.header, g.log)
        importlib.import_module("game.record").note_later(path)  # your record, off the frame loop
        self.replay_path = path
        g.close()
        try:
            paths.autosave_path().unlink()
        except OSError:
            pass
        st = g.state
        if st.n_deals == 4 and self.sound:
            t = st.totals
            if t[0] > t[1]:
                self.sound.play("match_won")

    # --- drawing -------------------------------------------------------------------

    def prepare_frame(self) -> None:
        vp = self.camera.viewport
        self.table.pixelated = (round(vp.width), round(vp.height)) == (WIDTH, HEIGHT) and \
            self.window.get_framebuffer_size()[0] == self.window.get_size()[0]
        self.table.prepare()
        st = self.game.state
        extra = []
        if self.prompt_for == self.game.cursor and st.phase == DISCARD and len(self.selected) == 2:
            extra.append(self.btn_confirm)
        if self.waiting == "trick" or (self.waiting == "scoring" and self.score_panel):
            label = _("Continue") if not self.finished or self.waiting == "trick" \
                else _("Back to the menu")
            if self.btn_continue.label != label:
                self.btn_continue.label = label
            if self.waiting == "scoring":
                self.btn_continue.rect = (WIDTH / 2, 128, 220, 42)
            else:
                self.btn_continue.rect = (WIDTH / 2, 282, 180, 40)
            self.btn_continue.text.x, self.btn_continue.text.y = self.btn_continue.rect[:2]
            extra.append(self.btn_continue)
        self._extra = extra

    def _status_box(self) -> tuple[float, float, float, float]:
        w = self.status.content_width + 30
        x, y = layout.STATUS_POS
        return x - w / 2, y - 17, w, 34

    def _banner_box(self) -> tuple[float, float, float, float]:
        w = self.banner.content_width + 50
        return self.banner.x - w / 2, self.banner.y - 26, w, 52

    def damage_items(self) -> list:
        items = self.table.damage_items()
        for i, t in enumerate(self.hint_texts):
            items.append(damage.text_item(t, ("hint", i)))
        cursor = self._key_cursor_box()
        items.append(damage.rect_item("key-cursor", cursor, cursor and (
            cursor[0] - 3, cursor[1] - 3, cursor[0] + cursor[2] + 3, cursor[1] + cursor[3] + 3)))
        for name, text, box, edge in (("status", self.status, self._status_box, 0),
                                      ("banner", self.banner, self._banner_box, 2)):
            if text.text:
                x, y, w, h = box()
                items.append(damage.rect_item(name, damage.text_key(text), (x - edge - 1, y - edge - 1,
                                                                            x + w + edge + 1, y + h + edge + 1)))
            else:
                items.append(damage.rect_item(name, None, None))
        panel = self.score_panel
        if panel is not None:
            items.append(damage.rect_item("panel", (id(panel), panel.done), panel.bounds()))
            for i, t in enumerate(panel.texts):
                items.append(damage.text_item(t, ("panel-text", i)))
        else:
            items.append(damage.rect_item("panel", None, None))
        for i, b in enumerate(self._extra):
            items.append(damage.rect_item(("extra", i), (b.label, b.rect, b.hover, b.enabled),
                                          button_bounds(b.rect)))
        items.extend(self.chrome_items())
        return items

    def draw_scene(self) -> None:
        reach = self.reaches
        self.table.draw(prepare=False, shows=self.shows)  # prepared once in prepare_frame
        if reach("key-cursor"):
            self._draw_key_cursor()
        for i, t in enumerate(self.hint_texts):
            if reach(("hint", i)):
                t.draw()
        if self.status.text and reach("status"):
            arcade.draw_lbwh_rectangle_filled(*self._status_box(), (0, 0, 0, 200))
            self.status.draw()
        if self.banner.text and reach("banner"):
            box = self._banner_box()
            arcade.draw_lbwh_rectangle_filled(*box, PANEL)
            arcade.draw_lbwh_rectangle_outline(*box, PANEL_EDGE, 2)
            self.banner.draw()
        if self.score_panel and reach("panel"):
            self.score_panel.draw()
        for b in self._extra:
            b.draw(False)

    def _key_cursor_box(self) -> tuple[float, float, float, float] | None:
        """The keyboard cursor's outline (left, bottom, width, height), if it shows."""
        if self.key_cursor < 0 or self.prompt_for != self.game.cursor:
            return None
        cards = layout.sorted_hand(self.game.state.hands[0])
        if not 0 <= self.key_cursor < len(cards):
            return None
        c = cards[self.key_cursor]
        for s in self.table.sprites:
            if s.key == ("card", c):
                w, h = layout.card_size(s.place.scale)
                # the place, not the sprite: a resting card may be drawn as a strip
                return s.place.x - w / 2 - 3, s.place.y - h / 2 - 3, w + 6, h + 6
        return None

    def _draw_key_cursor(self) -> None:
        box = self._key_cursor_box()
        if box is not None:
            arcade.draw_lbwh_rectangle_outline(*box, GOLD, 3)

    # --- input -------------------------------------------------------------------

    def on_click(self, x: float, y: float, button: int) -> None:
        for b in self._extra:
            if b.contains(x, y):
                b.press()
                return
        if self.table.last_trick_overlay:
            self.table.last_trick_overlay = None
            return
        if self.waiting:
            self.continue_()
            return
        card = self.table.card_at(x, y, 0)
        if card is not None and 0 in self.human_seats:
            self.click_card(card)

    def on_key_press(self, symbol: int, modifiers: int):
        k = arcade.key
        ctrl = modifiers & (k.MOD_CTRL | k.MOD_COMMAND)
        if ctrl and symbol == k.Z:
            self.undo()
            return True
        if ctrl and symbol == k.Y:
            self.redo()
            return True
        if symbol == k.H:
            self.ask_hint()
            return True
        if symbol == k.L:
            self.show_last_trick()
            return True
        if symbol == k.S:
            self.cycle_speed()
            return True
        if symbol == k.M:
            self.toggle_sound()
            return True
        if symbol in (k.LEFT, k.RIGHT) and self._can_act():
            n = self.game.state.hands[0].bit_count()
            step = 1 if symbol == k.RIGHT else -1
            self.key_cursor = (self.key_cursor + step) % n if self.key_cursor >= 0 else (0 if step > 0 else n - 1)
            return True
        if symbol in (k.ENTER, k.RETURN, k.SPACE, k.NUM_ENTER):
            if self.waiting:
                self.continue_()
                return True
            if self.key_cursor >= 0 and self._can_act():
                cards = layout.sorted_hand(self.game.state.hands[0])
                if self.key_cursor < len(cards):
                    self.click_card(cards[self.key_cursor])
                    return True
            if len(self.selected) == 2:
                self.confirm_discard()
                return True
        return super().on_key_press(symbol, modifiers)

    def on_back(self) -> None:
        if self.table.last_trick_overlay:
            self.table.last_trick_overlay = None
            return
        self.leave()


class ScorePanel:
    """The scoring scene: each team's points by part, counted up, then the result."""

    ROWS = ("Tricks", "Matto", "Discard", "Sweep", "Total")

    def __init__(self, parts, points, state, speed: float) -> None:
        self.parts = parts
        self.points = points
        self.state = state
        self.t = 0.0
        self.duration = T_COUNT / speed
        self.done_for = 0.0
        self.texts: list[arcade.Text] = []
        self.values: list[tuple[arcade.Text, int]] = []
        x0, y0 = WIDTH / 2, HEIGHT / 2 + 40
        n_sheet = len(state.scores) if state.n_deals == 4 else 0
        self.h = 360 + (28 * (n_sheet + 2) if n_sheet else 0)
        self.top = min(HEIGHT - 20, y0 + self.h / 2)
        top = self.top
        self._text(_("Deal {n} of {total}").format(n=len(state.scores), total=state.n_deals)
                   if state.n_deals == 4 else _("The deal is over"), x0, top - 34, GOLD, 22)
        cols = (x0 - 50, x0 + 80, x0 + 250)
        self._text(_("Us (South-North)"), cols[1], top - 76, TEAM_COLOURS[0], 13)
        self._text(_("Them (East-West)"), cols[2], top - 76, TEAM_COLOURS[1], 13)
        labels = (_("Tricks won"), _("Card points in tricks"), _("Matto"), _("Discard"), _("Sweep (R11)"))
        rows = [
            (labels[0], parts[0].tricks_won, parts[1].tricks_won, False),
            (labels[1], parts[0].tricks, parts[1].tricks, True),
            (labels[2], parts[0].matto, parts[1].matto, True),
            (labels[3], parts[0].discard, parts[1].discard, True),
            (labels[4], parts[0].sweep, parts[1].sweep, True),
        ]
        y = top - 110
        for label, a, b, counted in rows:
            self._text(label, cols[0], y, INK, 14, anchor="right")
            for col, v in ((cols[1], a), (cols[2], b)):
                t = self._text(str(v), col, y, INK, 15)
                if counted:
                    self.values.append((t, v))
            y -= 30
        self._text(_("Points"), cols[0], y - 6, GOLD, 16, anchor="right")
        self.total_texts = [self._text("0", cols[1], y - 6, GOLD, 20),
                            self._text("0", cols[2], y - 6, GOLD, 20)]
        y -= 48
        if points[0] == points[1]:
            result = _("A draw: 57 all (R12)")
        elif points[0] > points[1]:
            result = _("We win the deal, {a} to {b}!").format(a=points[0], b=points[1])
        else:
            result = _("They win the deal, {b} to {a}").format(a=points[0], b=points[1])
        self.result = arcade.Text(result, x0, y, GOLD, 20, anchor_x="center", anchor_y="center",
                                  font_name=FONT, bold=True)
        y -= 40
        if n_sheet:
            self._text(_("Score sheet"), cols[0], y, INK, 14, anchor="right")
            for i, (a, b) in enumerate(state.scores):
                y -= 26
                self._text(_("Deal {n}").format(n=i + 1), cols[0], y, INK, 13, anchor="right")
                self._text(str(a), cols[1], y, INK, 13)
                self._text(str(b), cols[2], y, INK, 13)
            y -= 28
            ta, tb = state.totals
            self._text(_("Match"), cols[0], y, GOLD, 14, anchor="right")
            self._text(str(ta), cols[1], y, GOLD, 15)
            self._text(str(tb), cols[2], y, GOLD, 15)
            if len(state.scores) == state.n_deals:
                y -= 34
                verdict = _("We win the match!") if ta > tb else (
                    _("They win the match") if tb > ta else _("The match is drawn"))
                self._text(verdict, x0, y, GOLD, 18)
        for t, _v in self.values:
            t.text = "0"

    def _text(self, s, x, y, colour, size, anchor="center"):
        t = arcade.Text(s, x, y, colour, size, anchor_x=anchor, anchor_y="center", font_name=FONT,
                        bold=size >= 15)
        self.texts.append(t)
        return t

    @property
    def done(self) -> bool:
        return self.t >= self.duration

    def finish(self) -> None:
        self.t = self.duration
        self.update(0)

    def update(self, dt: float) -> None:
        self.t += dt
        if self.done:
            self.done_for += dt
        f = min(1.0, self.t / self.duration) if self.duration else 1.0
        e = easing.ease_out(f)
        for t, v in self.values:
            t.text = str(round(v * e))
        for i, t in enumerate(self.total_texts):
            t.text = str(round(self.points[i] * e))

    W = 700

    def bounds(self) -> tuple[float, float, float, float]:
        x0 = WIDTH / 2 - self.W / 2
        return x0 - 3, self.top - self.h - 3, x0 + self.W + 3, self.top + 3

    def draw(self) -> None:
        w = self.W
        x0 = WIDTH / 2 - w / 2
        arcade.draw_lbwh_rectangle_filled(x0, self.top - self.h, w, self.h, (8, 24, 16, 238))
        arcade.draw_lbwh_rectangle_outline(x0, self.top - self.h, w, self.h, PANEL_EDGE, 3)
        for t in self.texts:
            t.draw()
        if self.done:
            self.result.draw()


def table_ready() -> str | None:
    """None if the art is there, else a message naming the missing files."""
    missing = textures.missing_files()
    if not missing:
        return None
    return _("Missing art: {files}").format(files=", ".join(str(p) for p in missing[:5]))


__all__ = ["TableView", "ScorePanel", "CODES"]
