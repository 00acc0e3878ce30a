"""The play table's view: it draws what :class:`~game.table.table_controller.TableController`
decides, and turns clicks and keys into the controller's calls.

The view implements the controller's :class:`~game.table.table_controller.Presenter`
(animate a step on the :class:`~game.table.scene.TableScene`, lay the cards out, show
hint numbers, play a sound) and reads the controller's fields each frame: the
status line and the banner (messages as data, worded here by
:class:`~game.common.words.Words`), the confirm and continue buttons, the score
sheet (:class:`ScorePanel`).  No rule, score or result is worked out here.
"""

from __future__ import annotations

import arcade
from arcade import easing

from engine.game import Game
from engine.scoring import DISCARD, MATTO, MATTO_TRICK, TRICK
from game.common import damage, layout, navigation, paths, textures
from game.common.constants import (
    FONT,
    GOLD,
    HEIGHT,
    INK,
    PANEL_EDGE,
    RED,
    T_COUNT,
    WIDTH,
)
from game.common.i18n import N_, _, ngettext
from game.common.ui import TIP_H, BaseView, Button, Pill, button_bounds, fit_font, panel_picture
from game.common.words import Msg, Words, card_label, card_list, msg
from game.table import session
from game.table.scene import SUBTITLE_INK, TableScene, set_colour
from game.table.score_sheet import ScoreSheet
from game.table.table_controller import Step, TableController, find_hint
from game.table.table_session import LocalSession

#: the coach's panel of a lesson: left, top, width of its text (right of the trick)
COACH_BOX = (868, 548, 262)

TONES = {"info": INK, "prompt": GOLD, "error": RED}


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
        on_again=None,
        executor=None,
        resumed: bool = False,
        controller=None,
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
        you = viewer if viewer in human_seats else None
        self.words = Words(rules, you)
        subs = [name or (_(p) if p != "human" else "") for p, name in zip(game.players, game.names,
                                                                       strict=True)]
        self.table = TableScene(rules, self.words.names(), sound, subs, words=self.words)
        self.table.speed = settings.speed if settings else 1.0
        self._build_texts()
        # ``controller``: a factory (view -> controller) for a table run otherwise (a lesson)
        self.ctl = controller(self) if controller is not None else TableController(
            game, players, self, human_seats=human_seats, viewer=viewer, practice=practice,
            settings=settings, executor=executor, auto_continue=auto_continue, on_scene=on_scene,
            on_exit=on_exit, on_again=on_again, on_review=self._review_fn(), hint_fn=find_hint(),
            resumed=resumed,
        )
        self._place_standing()
        self._end_buttons: dict[str, Button] = {}
        self._mouse = (-1.0, -1.0)
        self.review_panel: ReviewPanel | None = None
        self._build_buttons()
        self.frames = 0

    def _build_texts(self) -> None:
        """The status line, the banner, where the game stands, the hints' texts and
        the coach's panel (before the controller: it says its first words to them)."""
        self.hint_texts: list[arcade.Text] = []
        self.hint_badges = arcade.SpriteList()  # the dark pill under each hint figure
        self.status = arcade.Text("", *layout.STATUS_POS, INK, 15, anchor_x="center",
                                  anchor_y="center", font_name=FONT, bold=True)
        self.banner = arcade.Text("", *layout.TOP_SLOT, GOLD, 17, anchor_x="center",
                                  anchor_y="center", font_name=FONT, bold=True)
        self.standing = arcade.Text("", 0, 0, GOLD, 13, anchor_x="left", anchor_y="center",
                                    font_name=FONT, bold=True)
        self._said: dict[str, Msg | None] = {"status": None, "banner": None, "standing": None}
        self._status_pill = Pill(layout.STATUS_H, "status")
        self._banner_pill = Pill(layout.SLOT_H + 4, "panel")
        self._extra: list[Button] = []  # confirm / continue, when they show (prepare_frame)
        self.score_panel: ScorePanel | None = None
        self._winner_shown = -1
        # the coach's panel of a lesson (game.table.lessons), beside the trick
        self.coach = arcade.Text("", *COACH_BOX[:2], INK, 12, anchor_x="left", anchor_y="top",
                                 font_name=FONT, multiline=True, width=COACH_BOX[2])
        self._coach_said: Msg | None = None

    def _place_standing(self) -> None:
        """Where the game stands: by the running pile lines."""
        score_pos = self.table.geo.score_pos
        self.standing.x = score_pos[0][0]
        top = max(y for _x, y in score_pos)
        # over the two lines of a four-seat table (under them it met West's hand);
        # under the three lines of a three-seat one, where the top is theirs
        self.standing.y = top + 24 if top + 24 < HEIGHT - 70 else min(y for _x, y in score_pos) - 26

    # --- what tests and tools read ---------------------------------------------------

    @property
    def game(self):
        """The engine game of a local table (tests, tools); None online."""
        return self.ctl.game

    @property
    def session(self):
        return self.ctl.session

    @property
    def finished(self) -> bool:
        return self.ctl.finished

    @property
    def shown(self) -> int:
        return self.ctl.shown

    @property
    def scene(self) -> str:
        return self.ctl.scene

    @property
    def pending(self):
        return self.ctl.pending

    @property
    def replay_path(self):
        return self.ctl.replay_path

    @property
    def hints(self) -> dict[int, float]:
        return self.ctl.hints

    @property
    def hint_future(self):
        return self.ctl.hint_future

    @property
    def key_cursor(self) -> int:
        return self.ctl.key_cursor

    @key_cursor.setter
    def key_cursor(self, v: int) -> None:
        self.ctl.key_cursor = v

    @property
    def practice(self) -> bool:
        return self.ctl.practice

    def _can_act(self) -> bool:
        return self.ctl.can_act()

    # --- the controller's presenter ---------------------------------------------------

    @property
    def busy(self) -> bool:
        return self.table.busy

    def show(self, step: Step) -> None:
        t = self.table
        t.speed = self.ctl.speed
        if step.kind == "deal":
            t.animate_deal(step.event, step.after)
        elif step.kind == "take":
            t.animate_take(step.after, step.delay / t.speed)
        else:
            t.animate(step.event, step.before, step.after)

    def lay(self, pos, raised, dimmed, ease: bool) -> None:
        self.table.set_dimmed(dimmed)
        if ease:
            self.table.relayout(pos, raised=raised)
        else:
            self.table.snap(pos, raised=raised)

    def show_hints(self, hints: dict[int, float]) -> None:
        self.hint_texts = []
        self.hint_badges = arcade.SpriteList()
        if not hints:
            return
        best = max(hints.values())
        # over the part of each card its right neighbour leaves in view, just above
        # its top edge; where the cards lie close (a 25-card hand) the figures are
        # smaller and every other one a row higher (layout.hint_place)
        hand = sorted(((s.tweens[-1].end if s.tweens else s.place) for s in self.table.sprites
                       if s.key[0] == "card" and s.key[1] in self.ctl.hand_order()), key=lambda p: p.x)
        card_of = {(s.tweens[-1].end if s.tweens else s.place): s.key[1] for s in self.table.sprites
                   if s.key[0] == "card"}
        for i, p in enumerate(hand):
            c = card_of[p]
            if c not in hints:
                continue
            w, h = layout.card_size(p.scale)
            step = hand[i + 1].x - p.x if i + 1 < len(hand) else w
            # a raised card reaching over this card's strip: the figure stands over it
            # too; in a close hand (a raised card spans several strips) every figure
            # stands over the highest card, on its two rows
            mid, half = p.x - w / 2 + min(step, w) / 2, 22
            top = max(q.y + layout.card_size(q.scale)[1] / 2 for q in hand
                      if min(step, w) < 44 or abs(q.x - mid) < layout.card_size(q.scale)[0] / 2 + half)
            x, y, close = layout.hint_place(p.x - w / 2, top, min(step, w), i)
            v = hints[c]
            colour = GOLD if v >= best - 1e-9 else INK
            t = arcade.Text(f"{v:.1f}", x, y, colour, 11 if close else 13, anchor_x="center",
                            anchor_y="center", font_name=FONT, bold=True)
            self.hint_texts.append(t)
            bw = min(34 if close else 40, round(min(step, w)) - 4)  # within its own strip
            bh = layout.HINT_ROW - 1
            self.hint_badges.append(arcade.Sprite(panel_picture(bw, bh, "status", radius=bh / 2), 1.0, x, y))

    def play_sound(self, name: str) -> None:
        if self.sound:
            self.sound.play(name)

    # --- setup ------------------------------------------------------------------

    def _build_buttons(self) -> None:
        tex = self.table.tex.table
        ctl = self.ctl
        rects = layout.button_rects(6)
        self.btn_menu = Button("", rects[0], self.leave, icon=tex["menu"], tooltip=_("Menu (Esc)"))
        self.btn_undo = Button("", rects[1], self.undo, icon=tex["undo"],
                               tooltip=_("Undo (Ctrl+Z)"), enabled=ctl.practice)
        self.btn_redo = Button("", rects[2], self.redo, icon=tex["redo"],
                               tooltip=_("Redo (Ctrl+Y)"), enabled=ctl.practice)
        hint_ok = ctl.hints_available
        tip = _("Hint (H): expected points of each card") if hint_ok else (
            _("Hints are for practice games") if ctl.hint_fn else _("Hints need the AI (coming soon)"))
        self.btn_hint = Button("", rects[3], self.ask_hint, icon=tex["hint"], tooltip=tip,
                               enabled=hint_ok)
        self.btn_speed = Button("", rects[4], self.cycle_speed, icon=tex["speed"],
                                tooltip=self._speed_tip())
        snd_on = bool(self.sound and self.sound.enabled)
        self.btn_sound = Button("", rects[5], self.toggle_sound,
                                icon=tex["sound_on" if snd_on else "sound_off"],
                                tooltip=_("Sound on/off (M)"))
        cx, cy, w, h = rects[5]
        self.btn_last = Button(_("Last trick"), (cx + w / 2 + 12 + 73, cy, 146, h), self.show_last_trick,
                               tooltip=_("See the last trick again (L)"), font_size=13)
        self.btn_confirm = Button(self.words.say(msg("confirm_label", n=ctl.rules.discard_cards)),
                                  (WIDTH / 2, layout.STATUS_POS[1] + 46, 230, 38), self.confirm_discard,
                                  font_size=14)
        self.btn_continue = Button(_("Continue"), (WIDTH / 2, 282, 180, 40), self.continue_,
                                   font_size=14)
        self.buttons = [self.btn_menu, self.btn_undo, self.btn_redo, self.btn_hint,
                        self.btn_speed, self.btn_sound, self.btn_last]

    def _review_fn(self):
        """The review of a deal (the router's "review" screen), if there is one:
        the "Review this deal" button opens it and comes back to this table."""
        if not navigation.knows(self.window, "review"):
            return None

        def review(path) -> None:
            navigation.show(self.window, "review", path=path, seat=self.ctl.you,
                            back=navigation.going_back(lambda: self.window.show_view(self),
                                                       _("Back to the table (Esc)")))

        return review

    def _sync_toolbar(self) -> None:
        """Undo and redo look enabled only when there is something to undo or redo."""
        ctl = self.ctl
        for b, ok in ((self.btn_undo, ctl.can_undo), (self.btn_redo, ctl.can_redo)):
            if b.enabled != ok:
                b.enabled = ok

    def _speed_tip(self) -> str:
        return _("Animation speed: x{speed} (S)").format(speed=f"{self.ctl.speed:g}")

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
        sheet = self.ctl.sheet
        if sheet is None:
            self.score_panel = None
            self.review_panel = None
        elif self.score_panel is None or self.score_panel.sheet is not sheet:
            self.score_panel = ScorePanel(sheet, self.words, self.ctl.speed,
                                          min_width=self._row_width(self.ctl.end_choices) + 40)
            self.review_panel = None
        page = self.ctl.page
        if sheet is not None and page != "score":
            if self.review_panel is None or self.review_panel.page != page:
                self.review_panel = ReviewPanel(sheet, self.words, page, self.table)
        elif self.review_panel is not None:
            self.review_panel = None

    # --- actions (buttons and keys) ---------------------------------------------------

    def click_card(self, card: int) -> bool:
        return self.ctl.click_card(card)

    def confirm_discard(self) -> None:
        self.ctl.confirm_discard()

    def undo(self) -> None:
        self.ctl.undo()  # nothing to undo: it says so

    def redo(self) -> None:
        self.ctl.redo()  # nothing to redo: it says so

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        lx, ly = self.logical(x, y)
        for b in (self.btn_undo, self.btn_redo):  # disabled, a click still says why
            if not b.enabled and self.ctl.practice and b.contains(lx, ly):
                b.action()
                return
        super().on_mouse_press(x, y, button, modifiers)

    def on_logical_motion(self, x: float, y: float) -> None:
        self._mouse = (x, y)  # a card under it is named (its tooltip)
        for b in self._extra:
            b.hover = b.contains(x, y)

    def resync(self) -> None:
        self.ctl.resync()

    def ask_hint(self) -> None:
        self.ctl.ask_hint()

    def cycle_speed(self) -> None:
        self.ctl.cycle_speed()
        self.table.speed = self.ctl.speed
        self.btn_speed.tooltip = self._speed_tip()

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
        if self.table.last_trick_overlay:
            self.table.last_trick_overlay = None
        else:
            self.table.last_trick_overlay = self.ctl.last_trick()

    def continue_(self) -> None:
        """A click or Space: the trick shown goes on; the score counted up at once,
        then the next deal (at the end of the game only a button leaves)."""
        ctl = self.ctl
        if ctl.waiting == "scoring" and self.score_panel and not self.score_panel.done:
            self.score_panel.finish()
            return
        if ctl.waiting == "scoring" and ctl.finished and not self.auto_continue:
            return
        ctl.continue_()
        self._sync_panel()

    def choose(self, choice: str) -> None:
        """A button at the end of a deal (``TableController.end_choices``)."""
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

    def _set_status(self, text: str, colour=INK) -> None:
        """Show a line of text in the status box (tests and tools)."""
        self.ctl.status = msg("engine", text=text)
        self.ctl.tone = "info"

    # --- drawing -------------------------------------------------------------------

    def _sync_texts(self) -> None:
        ctl = self.ctl
        for name, text, m in (("status", self.status, ctl.status), ("banner", self.banner, ctl.banner),
                              ("standing", self.standing, ctl.standing)):
            if self._said[name] != m:
                self._said[name] = m
                text.text = self.words.say(m)
                if text is self.status:  # a long reason or refusal: smaller, never over a hand
                    fit_font(text, layout.STATUS_MAX_W, 15)
        set_colour(self.status, TONES.get(ctl.tone, INK))
        coach = getattr(ctl, "coach", None)
        if coach != self._coach_said:
            self._coach_said = coach
            self.coach.text = self.words.say(coach) if coach is not None else ""
        winner = ctl.trick_winner if ctl.waiting == "trick" else -1
        if winner != self._winner_shown:
            self.table.winner_text.text = self.words.say(msg("trick", seat=winner)) if winner >= 0 else ""
            self._winner_shown = winner

    def backdrop_key(self):
        cleared = self.table.cleared
        key = getattr(self, "_backdrop_key", None)
        if key is None or key[2] != cleared:
            key = self._backdrop_key = ("table", self.table.backdrop_marks(), cleared)
        return key

    def paint_backdrop(self, size):
        from game.common import paint

        return paint.backdrop(size, self.table.backdrop_marks())

    def prepare_frame(self) -> None:
        vp = self.camera.viewport
        self.table.pixelated = (round(vp.width), round(vp.height)) == (WIDTH, HEIGHT) and \
            self.window.get_framebuffer_size()[0] == self.window.get_size()[0]
        self._sync_texts()
        # the end of a deal's sheet over the table: the plates and labels put away
        self.table.cleared = self.review_panel is not None or self.score_panel is not None
        self.table.prepare()
        ctl = self.ctl
        self._sync_toolbar()
        extra = []
        if ctl.confirm_ready:
            extra.append(self.btn_confirm)
        if ctl.waiting == "trick":
            if self.btn_continue.label != _("Continue"):
                self.btn_continue.label = _("Continue")
            rect = self._continue_rect()
            if self.btn_continue.rect != rect:
                self.btn_continue.rect = rect
                self.btn_continue.text.x, self.btn_continue.text.y = rect[:2]
            extra.append(self.btn_continue)
        elif ctl.waiting == "scoring" and self.score_panel:
            extra.extend(self._end_row())
        elif not ctl.waiting and ctl.end_choices:  # a lesson done: the next one
            extra.extend(self._end_row())
        self._extra = extra

    END_LABELS = {"next": N_("Next deal"), "again": N_("Play again"), "score": N_("The score"),
                  "tricks": N_("The tricks"), "piles": N_("Your pile"), "review": N_("Review this deal"),
                  "menu": N_("Back to the menu"), "next_lesson": N_("Next lesson")}

    def _end_button(self, c: str) -> Button:
        b = self._end_buttons.get(c)
        if b is None:
            label = _(self.END_LABELS[c])
            if c == "piles" and self.ctl.rules.n_sides < self.ctl.rules.n_seats:
                label = _("Our pile")
            w = max(150, arcade.Text(label, 0, 0, INK, 14, font_name=FONT, bold=True).content_width + 36)
            b = Button(label, (0, 0, w, 40), lambda c=c: self.choose(c), font_size=14)
            self._end_buttons[c] = b
        return b

    END_GAP = 14

    def _row_width(self, choices) -> float:
        return sum(self._end_button(c).rect[2] for c in choices) + self.END_GAP * max(0, len(choices) - 1)

    def _end_row(self) -> list[Button]:
        """The end of a deal's buttons in a row under the panel shown, the default
        first; a lesson's (no panel) in a column under the coach's panel."""
        choices = self.ctl.end_choices
        panel = self.review_panel or self.score_panel
        buttons = [self._end_button(c) for c in choices]
        if panel is None:
            left, bottom, right, _top = self._coach_bounds()
            rects = [((left + right) / 2, bottom - 32 - i * (40 + self.END_GAP), b.rect[2], 40)
                     for i, b in enumerate(buttons)]
        else:
            x = WIDTH / 2 - self._row_width(choices) / 2
            rects = []
            for b in buttons:
                rects.append((x + b.rect[2] / 2, panel.button_y, b.rect[2], 40))
                x += b.rect[2] + self.END_GAP
        for b, rect in zip(buttons, rects, strict=True):
            if b.rect != rect:
                b.rect = rect
                b.text.x, b.text.y = rect[:2]
        return buttons

    def _place_tooltip(self) -> tuple[str, float, float] | None:
        """A button's tooltip; over a refusal in the status line, the rule it applies."""
        tip = super()._place_tooltip()
        if tip is not None:
            return tip
        ctl = self.ctl
        r = ctl.status.get("refusal") if ctl.status is not None and ctl.status.key == "refused" else None
        if r is None or not self.status.text:
            return self._card_tooltip()
        text = self.words.refusal_rule(r)
        x, y, w, h = self._status_box()
        mx, my = self._mouse
        if not text or not (x <= mx <= x + w and y <= my <= y + h):
            return None
        tx, ty = layout.STATUS_POS[0], y - 16
        if (self.tooltip.text, self.tooltip.x, self.tooltip.y) != (text, tx, ty):
            self.tooltip.text = text
            self.tooltip.x, self.tooltip.y = tx, ty
        return text, tx, ty

    def _card_tooltip(self) -> tuple[str, float, float] | None:
        """A card under the mouse is named, with its points: "Knight of Coins (C), 3
        points" (just over the card; over South's hand, between it and the status)."""
        if self.ctl.sheet is not None:
            return None
        s = self.table.face_at(*self._mouse)
        if s is None:
            return None
        text = card_label(self.ctl.rules.pack, s.key[1])
        if self.tooltip.text != text:
            self.tooltip.text = text
        w, h = layout.card_size(s.place.scale)
        half = self._tooltip_width() / 2
        tx = max(4 + half, min(WIDTH - 4 - half, s.place.x))
        in_hand = 100 <= s.place.z < 300
        top = max(p.y + layout.card_size(p.scale)[1] / 2 for p in (x.place for x in self.table.sprites
                  if x.key[0] == "card" and 100 <= x.place.z < 200 and x.place.y < HEIGHT / 3)) \
            if in_hand and s.place.y < HEIGHT / 3 else s.place.y + h / 2
        ty = min(HEIGHT - 4 - TIP_H / 2, top + 6 + TIP_H / 2)
        if (self.tooltip.x, self.tooltip.y) != (tx, ty):
            self.tooltip.x, self.tooltip.y = tx, ty
        return text, tx, ty

    def _status_box(self) -> tuple[float, float, float, float]:
        w = round(self.status.content_width + 32)
        x, y = layout.STATUS_POS
        h = layout.STATUS_H
        return x - w / 2, y - h / 2, w, h

    def _continue_rect(self) -> tuple[float, float, float, float]:
        """Continue, after a trick: beside the status line that says so, clear of the trick."""
        x, y = layout.STATUS_POS
        w = 150
        half = (self.status.content_width + 32) / 2 if self.status.text else 0
        return x + half + 12 + w / 2, y, w, layout.STATUS_H + 4

    def _banner_box(self) -> tuple[float, float, float, float]:
        """The announcement's pill: between the trick and North's hand, a row higher
        while the trick's winner is named there."""
        w = round(self.banner.content_width + 40)
        h = layout.SLOT_H + 4
        x, y = layout.TOP_SLOT
        if self.table.winner_text.text:
            y += layout.SLOT_H + 4
        if self.banner.y != y:
            self.banner.y = y
        return x - w / 2, y - h / 2, w, h

    def damage_items(self) -> list:
        items = self.table.damage_items()
        for i, t in enumerate(self.hint_texts):
            items.append(damage.text_item(t, ("hint", i)))
        items.extend(damage.sprite_items(self.hint_badges))
        cursor = self._key_cursor_box()
        items.append(damage.rect_item("key-cursor", cursor, cursor and (
            cursor[0] - 3, cursor[1] - 3, cursor[0] + cursor[2] + 3, cursor[1] + cursor[3] + 3)))
        for name, text, box, edge in (("status", self.status, self._status_box, 0),
                                      ("banner", self.banner, self._banner_box, 0)):
            if text.text:
                x, y, w, h = box()
                items.append(damage.rect_item(name, damage.text_key(text), (x - edge - 1, y - edge - 1,
                                                                            x + w + edge + 1, y + h + edge + 1)))
            else:
                items.append(damage.rect_item(name, None, None))
        items.append(damage.text_item(self.standing, "standing"))
        items.append(damage.rect_item("coach", damage.text_key(self.coach) if self.coach.text else None,
                                      self._coach_bounds() if self.coach.text else None))
        panel = self.review_panel or self.score_panel
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
        if self.hint_texts and reach(*map(id, self.hint_badges)):
            self.hint_badges.draw()
        for i, t in enumerate(self.hint_texts):
            if reach(("hint", i)):
                t.draw()
        if self.status.text and reach("status"):
            self._status_pill.draw(self._status_box())
            self.status.draw()
        if self.banner.text and reach("banner"):
            self._banner_pill.draw(self._banner_box())
            self.banner.draw()
        if self.standing.text and reach("standing"):
            self.standing.draw()
        if self.coach.text and reach("coach"):
            left, bottom, right, top = self._coach_bounds()
            arcade.draw_lrbt_rectangle_filled(left, right, bottom, top, (10, 30, 20, 215))
            self.coach.draw()
        panel = self.review_panel or self.score_panel
        if panel and reach("panel"):
            panel.draw()
        for b in self._extra:
            b.draw(False)

    def _coach_bounds(self) -> tuple[float, float, float, float]:
        """The coach's panel: left, bottom, right, top (its text and a margin)."""
        x, top = COACH_BOX[:2]
        h = self.coach.content_height
        return x - 12, top - h - 12, x + COACH_BOX[2] + 12, top + 10

    def _key_cursor_box(self) -> tuple[float, float, float, float] | None:
        """The keyboard cursor's outline (left, bottom, width, height), if it shows."""
        ctl = self.ctl
        if ctl.key_cursor < 0 or ctl.prompt_for != ctl.session.cursor:
            return None
        cards = ctl.hand_order()
        if not 0 <= ctl.key_cursor < len(cards):
            return None
        c = cards[ctl.key_cursor]
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
        if self.ctl.waiting:
            self.continue_()
            return
        card = self.table.card_at(x, y, self.ctl.viewer)
        if card is not None and self.ctl.viewer in self.ctl.human_seats:
            self.ctl.click_card(card)

    def on_key_press(self, symbol: int, modifiers: int):
        k = arcade.key
        ctrl = modifiers & (k.MOD_CTRL | k.MOD_COMMAND)
        if ctrl and symbol == k.Z:
            self.undo()
            return True
        if ctrl and symbol == k.Y:
            self.redo()
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
                self.ctl.key_step(1 if symbol == k.RIGHT else -1)
            return True
        if symbol in (k.ENTER, k.RETURN, k.SPACE, k.NUM_ENTER):
            if self.ctl.waiting == "scoring" and self.score_panel and not self.score_panel.done:
                self.score_panel.finish()
                return True
            if self.ctl.waiting == "scoring" and self.ctl.end_choices and not self.auto_continue:
                first = self.ctl.end_choices[0]
                if first in ("next", "again"):
                    self.choose(first)
                return True
            if self.ctl.waiting:
                self.continue_()
                return True
            if self.ctl.key_press():
                return True
        return super().on_key_press(symbol, modifiers)

    def on_back(self) -> None:
        if self.table.last_trick_overlay:
            self.table.last_trick_overlay = None
            return
        self.leave()


ROW_H = 27  # a row of the score panel


class ScorePanel:
    """The scoring scene: each side's points by part (the engine's breakdown),
    counted up, then the result; the score sheet of a game of several deals."""

    def __init__(self, sheet: ScoreSheet, words: Words, speed: float, min_width: float = 0) -> None:
        self.sheet = sheet
        self.words = words
        self.t = 0.0
        self.duration = T_COUNT / speed
        self.done_for = 0.0
        self.texts: list[arcade.Text] = []
        self.values: list[tuple[arcade.Text, int, bool]] = []
        sides = sheet.rules.n_sides
        multi = sheet.n_deals > 1
        self.W = max(700 if sides == 2 else 780, min(WIDTH - 40, min_width))
        n_sheet = (len(sheet.history) + (1 if sheet.over else 0)) if multi else 0
        strong = sum(1 for r in sheet.rows if r.strong)
        self.h = (96 + ROW_H * len(sheet.rows) + 6 * strong + 44 + (22 * n_sheet + 56 if multi else 0)
                  + (8 if sheet.over else 0) + 56)
        self.top = min(HEIGHT - 96, HEIGHT / 2 + 36 + self.h / 2)
        top = self.top
        title = _("Deal {n} of {total}").format(n=sheet.deal, total=sheet.n_deals) if multi \
            else _("The deal is over")
        self._text(title, WIDTH / 2, top - 28, GOLD, 22)
        if sheet.number is not None:  # to deal the same cards again in practice
            self._text(_("Deal number {n}").format(n=sheet.number), WIDTH / 2 + self.W / 2 - 16, top - 18,
                       (200, 200, 190), 11, anchor="right")
        y, label_x, cols = self._deal_rows(top)
        y -= 12
        self.result = arcade.Text(words.outcome(sheet.outcome, sheet.points, False), WIDTH / 2, y, GOLD, 18,
                                  anchor_x="center", anchor_y="center", font_name=FONT, bold=True)
        y -= 34
        if multi:
            self._sheet_rows(y, label_x, cols)
        self.button_y = self.top - self.h + 30
        for t, _v, _s in self.values:
            t.text = "0"

    def _deal_rows(self, top: float) -> tuple[float, float, list[float]]:
        """The sides' titles and the deal's rows, the counted values at 0 (they count
        up).  The y under the last row, the labels' right edge, the columns' x."""
        sheet, sides = self.sheet, self.sheet.rules.n_sides
        labels = [_(row.label).format(**dict(row.args)) for row in sheet.rows]
        label_w = max(arcade.Text(t, 0, 0, INK, 15 if r.strong else 13, font_name=FONT,
                                  bold=r.strong).content_width for t, r in zip(labels, sheet.rows, strict=True))
        left = WIDTH / 2 - self.W / 2
        label_x = left + 28 + label_w
        col_w = (left + self.W - 16 - label_x) / sides
        cols = [label_x + col_w * (i + 0.5) for i in range(sides)]
        for s in range(sides):
            self._text(self.words.side_title(s), cols[s], top - 62, self._side_colour(s), 13)
        y = top - 92
        for row, label in zip(sheet.rows, labels, strict=True):
            colour = GOLD if row.strong else INK
            self._text(label, label_x - 12, y, colour, 15 if row.strong else 13, anchor="right")
            for s in range(sides):
                v = row.values[s]
                t = self._text(self._fmt(0 if row.counted else v, row.signed), cols[s], y, colour,
                               18 if row.strong else 14)
                if row.counted:
                    self.values.append((t, v, row.signed))
            y -= ROW_H + (6 if row.strong else 0)
        return y, label_x, cols

    def _sheet_rows(self, y: float, label_x: float, cols: list[float]) -> None:
        """The score sheet of a game of several deals: each deal, the totals, the result."""
        sheet, rules = self.sheet, self.sheet.rules
        self._text(_("Score sheet"), label_x - 12, y, INK, 14, anchor="right")
        for i, scores in enumerate(sheet.history):
            y -= 22
            self._text(_("Deal {n}").format(n=i + 1), label_x - 12, y, INK, 13, anchor="right")
            for s in range(rules.n_sides):
                self._text(self._fmt(scores[s], bool(rules.par)), cols[s], y, INK, 13)
        y -= 26
        self._text(_("Total"), label_x - 12, y, GOLD, 14, anchor="right")
        for s in range(rules.n_sides):
            self._text(self._fmt(sheet.totals[s], bool(rules.par)), cols[s], y, GOLD, 15)
        if sheet.game_outcome is not None:
            y -= 32
            self._text(self.words.outcome(sheet.game_outcome, sheet.totals, True), WIDTH / 2, y, GOLD, 17)

    def _side_colour(self, side: int):
        from game.common.constants import TEAM_COLOURS

        rules = self.sheet.rules
        return TEAM_COLOURS[side] if rules.n_sides < rules.n_seats else INK

    @staticmethod
    def _fmt(v: int, signed: bool) -> str:
        """A figure, with a true minus sign; ``signed``: a plus on gains too."""
        text = f"{v:+d}" if signed and v else str(v)
        return text.replace("-", "−")

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
        for t, v, signed in self.values:
            text = self._fmt(round(v * e), signed)
            if t.text != text:
                t.text = text

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


class ReviewPanel:
    """The review of a deal, at its end: ``page`` "tricks" (each trick in the order
    played: who led, who took it, every card, the winning one raised on a gold
    edge) or "piles" (the viewer's side's pile, and the discard where the viewer
    dealt; another seat's discard stays face down: nobody else sees it)."""

    LEFT, RIGHT = 20, WIDTH - 20

    def __init__(self, sheet: ScoreSheet, words: Words, page: str, table: TableScene) -> None:
        self.sheet = sheet
        self.words = words
        self.page = page
        self.table = table
        self.texts: list[arcade.Text] = []
        self.sprites = arcade.SpriteList()
        self.halos: list[tuple[float, float, float, float]] = []  # behind the winning cards
        # under the toolbar, and under the three pile lines of a three-seat table
        self.top = HEIGHT - (72 if sheet.rules.n_seats == 4 else 92)
        self.h = self.top - 14
        self.button_y = self.top - self.h + 30
        self.done = True
        multi = sheet.n_deals > 1
        deal = _("Deal {n} of {total}").format(n=sheet.deal, total=sheet.n_deals) if multi else ""
        if page == "tricks":
            title = _("The tricks of the deal, in the order played")
            self._tricks()
        else:
            title = _("Your pile and your discard") if sheet.rules.n_sides == sheet.rules.n_seats \
                else _("Our pile and the discard")
            self._piles()
        self._text(" · ".join(t for t in (deal, title) if t), WIDTH / 2, self.top - 24, GOLD, 17, bold=True)

    # --- building -----------------------------------------------------------------

    def _text(self, s: str, x: float, y: float, colour, size: int, anchor: str = "center",
              bold: bool = False) -> arcade.Text:
        t = arcade.Text(s, x, y, colour, size, anchor_x=anchor, anchor_y="center", font_name=FONT,
                        bold=bold)
        self.texts.append(t)
        return t

    def _card(self, card: int | None, x: float, y: float, width: float) -> tuple[float, float]:
        """A card face (None: a back) centred at x, y; returns its size."""
        if card is None:
            tex = self.table.tex.back_for(width)
        else:
            tex = textures.Textures.nearest(self.table.faces[card], width)
        sp = arcade.Sprite(tex, width / tex.width, x, y)
        self.sprites.append(sp)
        return sp.width, sp.height

    def _row(self, cards, x: float, y: float, width: float, step: float,
             raised: int | None = None) -> float:
        """Cards left to right from ``x`` (their left edge), each ``step`` along;
        returns the right edge."""
        h = width * 592 / 320
        for i, c in enumerate(cards):
            cx = x + width / 2 + i * step
            lift = 8 if raised is not None and c == raised else 0
            if lift:
                self.halos.append((cx - width / 2 - 3, y - h / 2 + lift - 3, width + 6, h + 6))
            self._card(c, cx, y + lift, width)
        return x + width + step * max(0, len(cards) - 1)

    def _tricks(self) -> None:
        sheet = self.sheet
        rules = sheet.rules
        tricks = sheet.tricks
        cols = 5 if rules.n_seats == 4 else 7
        rows = max(1, -(-len(tricks) // cols))
        top = self.top - 56  # the first row's labels
        bottom = self.button_y + 30
        cell_h = (top - bottom) / rows
        cell_w = (self.RIGHT - self.LEFT) / cols
        says = [f"{t.number} · " + self.words.say(msg("led_took", leader=t.leader, winner=t.winner))
                for t in tricks]
        size = 11  # one size for every label, the longest fitting its cell, else in two lines
        probe = arcade.Text("", 0, 0, INK, size, font_name=FONT)
        widest = max(says, key=len, default="")
        while size > 9:
            probe.text, probe.font_size = widest, size
            if probe.content_width <= cell_w - 8:
                break
            size -= 1
        probe.text, probe.font_size = widest, size
        wrap = probe.content_width > cell_w - 8
        below = 20 + (size + 5 if wrap else 0)  # from the label's middle to the cards' top
        width = min(68.0, (cell_h - 40 - (below - 20)) * 320 / 592)  # the cards fill the cell
        h = width * 592 / 320
        step = min(30.0, (cell_w - 18 - width) / max(1, rules.n_seats - 1))
        for k, (t, say) in enumerate(zip(tricks, says, strict=True)):
            r, c = divmod(k, cols)
            x0 = self.LEFT + c * cell_w
            y_label = top - r * cell_h
            if wrap:  # two lines centred in the cell, the first where one line would be
                label = arcade.Text(say, x0 + cell_w / 2, y_label + size / 2 + 3, INK, size, anchor_x="center",
                                    anchor_y="top", font_name=FONT, multiline=True, width=int(cell_w - 8),
                                    align="center")
                label.y = y_label + label.content_height / 2 - (size + 5) / 2 + 1
                self.texts.append(label)
            else:
                self._text(say, x0 + cell_w / 2, y_label, INK, size)
            row_w = width + step * (len(t.cards) - 1)
            self._row(t.cards, x0 + (cell_w - row_w) / 2, y_label - below - h / 2, width, step,
                      raised=t.winning_card)

    def _piles(self) -> None:
        sheet = self.sheet
        if sheet.rules.trick_adjust and sheet.groups:
            self._groups()
            return
        rules = sheet.rules
        words = self.words
        side = sheet.viewer_side
        pile = layout.sorted_hand(sum(1 << c for c in sheet.pile(side)), rules.pack)
        y = self.top - 70
        width = 68
        h = width * 592 / 320
        avail = self.RIGHT - self.LEFT - 40 - width
        tricks_text = ngettext("{n} trick", "{n} tricks", sum(1 for t in sheet.tricks
                                                           if rules.side[t.winner] == side)).format(
            n=sum(1 for t in sheet.tricks if rules.side[t.winner] == side))
        cards_text = words.cards_held(len(pile))
        heading = _("Your pile: {cards}, {tricks}") if rules.n_sides == rules.n_seats \
            else _("Our pile: {cards}, {tricks}")
        self._text(heading.format(cards=cards_text, tricks=tricks_text), self.LEFT + 20, y, INK, 14,
                   anchor="left", bold=True)
        rows_of = [pile]
        if pile and avail / max(1, len(pile) - 1) < 14:  # a long Scarto pile: two rows
            half = -(-len(pile) // 2)
            rows_of = [pile[:half], pile[half:]]
        y -= 20 + h / 2  # the centre of the first row
        for i, cards in enumerate(rows_of):
            if i:
                y -= h + 14
            step = min(34.0, avail / max(1, len(cards) - 1))
            self._row(cards, self.LEFT + 20, y, width, step)
        y -= h / 2 + 30  # the discard's heading
        discard = sheet.discard
        n = rules.discard_cards
        if discard is not None:
            self._text(_("Your discard: {cards}").format(cards=card_list(rules.pack, discard)),
                       self.LEFT + 20, y, INK, 14, anchor="left", bold=True)
            self._row(discard, self.LEFT + 20, y - 20 - h / 2, width, width + 8)
        elif sheet.dealer >= 0:
            self._text(_("{dealer} dealt: the discard stays face down, nobody else sees it").format(
                dealer=words.name(sheet.dealer)), self.LEFT + 20, y, INK, 14, anchor="left", bold=True)
            self._row([None] * n, self.LEFT + 20, y - 20 - h / 2, width, width + 8)

    def _groups(self) -> None:
        """Counting in threes (Scarto, S6): the viewer's pile as the engine counted it,
        group by group (each trick taken, the Matto's trick of two, the Matto alone,
        the dealer's discard where the viewer dealt), each with its card points and
        what it adds to the count; then the count and the deal score (the sheet's)."""
        sheet = self.sheet
        rules = sheet.rules
        side = sheet.viewer_side
        groups = sheet.groups[side]
        y = self.top - 62
        n = sum(1 for g in groups if g.kind in (TRICK, MATTO_TRICK))
        self._text(ngettext("Your pile, counted in threes: {n} trick taken",
                            "Your pile, counted in threes: {n} tricks taken", n).format(n=n),
                   self.LEFT + 20, y, INK, 14, anchor="left", bold=True)
        self._text(_("Each trick is a group: its card points − {n}. The Matto's trick leaves a group "
                     "of two (+{a} − {n}); the Matto counts alone; the dealer's discard is a group.")
                   .format(n=-rules.trick_adjust, a=rules.matto_trick_adjust),
                   self.LEFT + 20, y - 24, SUBTITLE_INK, 12, anchor="left")
        width, step = 44.0, 18.0
        h = width * 592 / 320
        cell_w, cell_h = 98.0, h + 42
        cols = int((self.RIGHT - self.LEFT - 40) // cell_w)
        top = y - 50  # the top of the first row of cards
        captions = {TRICK: _("trick"), MATTO_TRICK: _("group of two"), MATTO: _("the Matto"),
                    DISCARD: _("discard")}
        for k, g in enumerate(groups):
            r, c = divmod(k, cols)
            x0 = self.LEFT + 20 + c * cell_w
            cy = top - r * cell_h - h / 2
            cards = g.cards or (None,) * rules.discard_cards
            self._row(cards, x0, cy, width, step)
            fig = f"{g.points} = {g.value}"  # the Matto alone: its points
            if g.kind == MATTO_TRICK:
                fig = f"{g.points} + {rules.matto_trick_adjust} − {-rules.trick_adjust} = {g.value}"
            elif g.value != g.points:
                fig = f"{g.points} − {g.points - g.value} = {g.value}"
            self._text(fig, x0 + (width + step * (len(cards) - 1)) / 2, cy - h / 2 - 10, GOLD, 11,
                       bold=True)
            self._text(captions.get(g.kind, ""), x0 + (width + step * (len(cards) - 1)) / 2,
                       cy - h / 2 - 28, SUBTITLE_INK, 9)
        count = next((r.values[side] for r in sheet.rows if r.strong), None)
        score = sheet.rows[-1].values[side] if rules.par else None
        rows = max(1, -(-len(groups) // cols))
        y_end = top - rows * cell_h - 14
        if count is not None:
            line = _("Count: {count}").format(count=count)
            if score is not None:
                line += " · " + _("deal score: {score:+d}").format(score=score)
            self._text(line, self.LEFT + 20, y_end, GOLD, 14, anchor="left", bold=True)
        if sheet.discard is None and sheet.dealer >= 0 and rules.side[sheet.dealer] != side:
            self._text(_("{dealer} dealt: the discard stays face down, nobody else sees it").format(
                dealer=self.words.name(sheet.dealer)), self.LEFT + 20, y_end - 26, INK, 12,
                anchor="left")

    # --- the panel's surface ------------------------------------------------------

    def bounds(self) -> tuple[float, float, float, float]:
        return 7, self.top - self.h - 3, WIDTH - 7, self.top + 3

    def update(self, dt: float) -> None:
        pass

    def finish(self) -> None:
        pass

    @property
    def done_for(self) -> float:
        return 0.0

    def draw(self) -> None:
        arcade.draw_lbwh_rectangle_filled(10, self.top - self.h, WIDTH - 20, self.h, (8, 24, 16, 255))
        arcade.draw_lbwh_rectangle_outline(10, self.top - self.h, WIDTH - 20, self.h, PANEL_EDGE, 3)
        for box in self.halos:
            arcade.draw_lbwh_rectangle_filled(*box, GOLD)
        self.sprites.draw()
        for t in self.texts:
            t.draw()


def table_ready() -> str | None:
    """None if the art is there, else a message naming the missing files."""
    missing = textures.missing_files()
    if not missing:
        return None
    return _("Missing art: {files}").format(files=", ".join(str(p) for p in missing[:5]))




def start_table(window, game, practice: bool = False, resumed: bool = False):
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


__all__ = ["TableView", "ScorePanel", "find_hint", "start_table"]
