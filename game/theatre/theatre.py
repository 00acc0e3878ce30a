"""The replay theatre: watch AI games live and saved games again.

* :class:`ViewerView` shows a replay (or a live AI game) of either game on the
  shared :class:`game.table.scene.TableScene`: play/pause (Space), one card
  (Right/Left), one trick (Shift+Right/Left), a seek bar with marks at each
  deal, discard and trick, speeds 0.25x-8x (+/-), hands face up or down (H; 1-4
  per seat), the tricks of the deal so far and the score.  Every jump snaps the
  table to the engine's state at that position (no animation debris); only
  playback animates.  The theatre is the one place that may show every hand: it
  asks the engine for the view of each seat it shows
  (:func:`game.common.position.seen_by`).
* :class:`WatchSetupView` picks the game and the levels and starts a live AI
  game (:class:`game.table.live_game.LiveGame`), saved as a replay while it is played.
* ``tarocchi replay FILE [--at N --screenshot OUT.png]``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import arcade
from arcade import shape_list as sh
from arcade.types import RGBA255

from engine.players import level_names
from engine.replay import Replay, ReplayError, read_replay
from engine.ruleset import Ruleset, ruleset, variant_names
from game.common import damage, fonts, paths
from game.common.constants import FONT, GOLD, HEIGHT, INK, RED, SPEEDS, WIDTH
from game.common.i18n import _
from game.common.layout import button_rects
from game.common.navigation import Back, back_tip, show
from game.common.position import seen_by, seen_event
from game.common.ui import BaseView, Button, fit_font
from game.common.words import Words, game_name
from game.table.live_game import LiveGame
from game.table.scene.table_scene import TableScene
from game.theatre.theatre_model import MarkKind, Timeline
from game.theatre.trick_list import TrickList

if TYPE_CHECKING:
    from PIL import Image

SEAT_KEYS = (arcade.key.KEY_1, arcade.key.KEY_2, arcade.key.KEY_3, arcade.key.KEY_4)
BAR = (140, 16, 1000, 12)  # seek bar: left, centre y, width, height (logical)
STRIP = 56  # the table is drawn slightly smaller, above a strip for the bar and status
TABLE_ZOOM = 0.92
MARK_COLOURS: dict[MarkKind, RGBA255] = {"deal": (*GOLD, 255), "discard": (120, 190, 255, 255),
                                         "trick": (230, 230, 230, 255), "score": (*RED, 255)}
PAUSE_AFTER = 0.25  # seconds between events at speed 1 (after the event's animation)


def seat_names(rules: Ruleset, players: list[str]) -> list[str]:
    where = [_(n) for n in rules.seat_names]
    return [f"{where[i]} ({players[i] if i < len(players) else '?'})" for i in range(rules.n_seats)]


class ViewerView(BaseView):
    """Shows a timeline on the table; see the module docstring for the keys."""

    def __init__(self, window: arcade.Window | None, replay: Replay | None = None, *,
                 live: LiveGame | None = None, title: str = "", face_up: bool = True,
                 speed: float = 1.0, back: Back | None = None) -> None:
        super().__init__(window)
        self.live = live
        if live is not None:
            self.timeline = Timeline(live.game.events, live.game.states)
            players = live.game.header.players
            self.rules = live.game.rules
        else:
            assert replay is not None
            self.timeline = Timeline.from_replay(replay)
            players = replay.header.players
            self.rules = replay.rules
        self.title = title
        self.back = back
        sound = getattr(self.window, "sound", None) if self.window else None
        names = seat_names(self.rules, players)
        self.words = Words(self.rules, None, names)
        self.table = TableScene(self.rules, names, sound, words=self.words, open_hands=True)
        self.speed_i = min(range(len(SPEEDS)), key=lambda i: abs(SPEEDS[i] - speed))
        self.table.speed = SPEEDS[self.speed_i]
        self.all_seats = set(range(self.rules.n_seats))
        self.face_up = set(self.all_seats) if face_up else {0}
        self.pos = 0
        self.playing = live is not None
        self.wait = 0.0
        self.dragging = False
        self._texts_key: tuple[object, ...] = ()
        self._build_texts()
        # The table is drawn a little smaller and higher, leaving the bottom strip free.
        self.table_camera = arcade.Camera2D(
            projection=self.camera.projection,
            position=(WIDTH / 2, HEIGHT / 2 / TABLE_ZOOM - STRIP / TABLE_ZOOM),
            zoom=TABLE_ZOOM,
        )
        self._bar_shapes: sh.ShapeElementList[sh.Shape] | None = None
        self._bar_key: tuple[int, int] = (-1, -1)
        self._build_buttons()
        # Render the glyphs of every size used here now, not during the first seeks.
        for size, bold in ((10, False), (10, True), (12, False), (12, True), (14, True)):
            arcade.Text(fonts.CHARSET + "→", 0, 0, INK, size, font_name=FONT, bold=bold)
        fonts.warm()
        self._warm_up()
        self.seek(0)

    def _build_texts(self) -> None:
        """The bar's info and status, and the tricks list (:class:`TrickList`)."""
        self.info = arcade.Text("", BAR[0], BAR[1] + 20, GOLD, 12, anchor_y="center",
                                font_name=FONT, bold=True)
        self.status = arcade.Text("", BAR[0] + BAR[2], BAR[1] + 20, INK, 12, anchor_x="right",
                                  anchor_y="center", font_name=FONT)
        self.tricks = TrickList(self.rules, self.table)

    def _warm_up(self) -> None:
        """Draw a few typical positions once, unseen, before the viewer is shown:
        shaders, glyphs and shape lists are built on first use (tens of ms each on
        llvmpipe), and a seek must never wait for them."""
        tl = self.timeline
        kinds: dict[str, int] = {}
        for m in tl.marks:
            kinds.setdefault(m.kind, m.position)
        for p in sorted({0, tl.n, *kinds.values(), *(q + 3 for q in kinds.values())}):
            self.seek(p)
            self.on_draw()
        self.forget_picture()  # drawn unseen: the window's picture is not this view's yet

    # --- controls ---------------------------------------------------------------

    def _build_buttons(self) -> None:
        """The transport along the top left, drawn as icons (art/table) as the table's
        toolbar is, each named by its tooltip with its key."""
        specs = [
            ("back", back_tip(self.back), self.on_back),
            ("prev_trick", _("Previous trick (Shift+Left)"), lambda: self.seek(self.timeline.prev_trick(self.pos))),
            ("prev_card", _("Previous card (Left)"), lambda: self.seek(self.timeline.prev_card(self.pos))),
            ("play", _("Play / pause (Space)"), self.toggle_play),
            ("next_card", _("Next card (Right)"), lambda: self.seek(self.timeline.next_card(self.pos))),
            ("next_trick", _("Next trick (Shift+Right)"), lambda: self.seek(self.timeline.next_trick(self.pos))),
            ("slower", _("Slower (-)"), lambda: self.change_speed(-1)),
            ("faster", _("Faster (+)"), lambda: self.change_speed(1)),
            ("hands", _("Hands face up or down (H; 1-{n} one seat)").format(n=self.rules.n_seats),
             self.toggle_hands),
        ]
        icons = self.table.tex.table
        rects = button_rects(len(specs), size=38, gap=5)  # clear of North's open hand
        self.buttons = [Button("", rect, action, icon=icons[name], tooltip=tip)
                        for (name, tip, action), rect in zip(specs, rects, strict=True)]
        self.play_button = self.buttons[3]

    def _show_playing(self) -> None:
        """The play button shows pause while the game plays."""
        tex = self.table.tex.table["pause" if self.playing else "play"]
        for s in self.play_button._icon_list or []:
            if s.texture is not tex:
                s.texture = tex

    def toggle_play(self) -> None:
        if not self.playing and self.pos >= self.timeline.n and (self.live is None or self.live.done):
            self.seek(0)
        self.playing = not self.playing
        self.wait = 0.0

    def change_speed(self, step: int) -> None:
        self.speed_i = max(0, min(len(SPEEDS) - 1, self.speed_i + step))
        self.table.speed = SPEEDS[self.speed_i]

    def toggle_hands(self) -> None:
        self.face_up = {0} if self.face_up == self.all_seats else set(self.all_seats)
        self.seek(self.pos)

    def toggle_seat(self, seat: int) -> None:
        self.face_up ^= {seat}
        self.seek(self.pos)

    # --- the position -------------------------------------------------------------

    def seek(self, p: int) -> None:
        """Lay the table exactly as the engine's state after the first ``p`` events."""
        self.pos = self.timeline.clamp(p)
        self.wait = 0.0
        self.table.snap(seen_by(self.timeline.state(self.pos), self.face_up), raised=self.raised_cards())
        self._texts_key = ()

    def raised_cards(self) -> frozenset[int]:
        """Cards of the bottom hand lifted at the current position (review mode)."""
        return frozenset()

    def _advance(self) -> None:
        """Playback: animate the next event from the current position."""
        p = self.pos
        tl = self.timeline
        if p >= tl.n:
            return
        before, after = seen_by(tl.states[p], self.face_up), seen_by(tl.states[p + 1], self.face_up)
        event = seen_event(tl.events[p], self.face_up, self.rules)
        duration = self.table.animate(event, before, after)
        self.pos = p + 1
        self.wait = duration + PAUSE_AFTER / SPEEDS[self.speed_i]
        self._texts_key = ()

    def on_update(self, delta_time: float) -> None:
        if self.live is not None:
            self.timeline.refresh()
            self.live.shown = self.pos
        if self.playing:
            self.wait -= delta_time
            if self.wait <= 0 and not self.table.busy:
                if self.pos < self.timeline.n:
                    self._advance()
                elif self.live is None or self.live.done:
                    self.playing = False
        self.table.update(delta_time)

    # --- drawing ------------------------------------------------------------------

    def _refresh_texts(self) -> None:
        st = self.timeline.state(self.pos)
        key = (self.pos, self.timeline.n, self.playing, self.speed_i)
        if key == self._texts_key:
            return
        self._texts_key = key
        self._show_playing()
        kind = f"{game_name(self.rules)}, {self.words.game_kind(st.n_deals)}"
        deal = _("deal {n} of {total}").format(n=max(st.deal_no, 1), total=st.n_deals)
        self.info.text = f"{self.title}  ·  {kind}, {deal}" if self.title else f"{kind}, {deal}"
        live = ""
        if self.live is not None and not self.live.done:
            live = "  ·  " + _("AI playing…")
        if self.live is not None and self.live.error:
            live = "  ·  " + self.live.error
        self.status.text = (_("event {p} of {n}").format(p=self.pos, n=self.timeline.n)
                            + f"  ·  {SPEEDS[self.speed_i]:g}x" + live)
        self._fit_info()
        self.tricks.show(st)

    def _fit_info(self) -> None:
        """The game's line left of the status over the seek bar, smaller (and its
        title cut short) where both would meet."""
        room = BAR[2] - self.status.content_width - 24
        fit_font(self.info, room, 12, 9)
        while (wide := self.info.content_width) > room and "  ·  " in self.info.text:
            title, rest = self.info.text.split("  ·  ", 1)
            cut = 2 + int((wide - room) * len(self.info.text) / wide)  # about the characters too many
            keep = title.rstrip("…")[:-cut]
            self.info.text = f"{keep}…  ·  {rest}" if keep else rest

    def _draw_bar(self) -> None:
        left, cy, w, h = BAR
        key = (self.timeline.n, len(self.timeline.marks))
        if key != self._bar_key or self._bar_shapes is None:
            shapes: sh.ShapeElementList[sh.Shape] = sh.ShapeElementList()
            shapes.append(sh.create_rectangle_filled(left + w / 2, cy, w, h, (0, 0, 0, 150)))
            n = max(self.timeline.n, 1)
            for m in self.timeline.marks:
                x = left + w * m.position / n
                tall = {"deal": h + 10, "discard": h + 4, "score": h + 8}.get(m.kind, h - 6)
                shapes.append(sh.create_line(x, cy - tall / 2, x, cy + tall / 2, MARK_COLOURS[m.kind],
                                             2 if m.kind != "trick" else 1))
            self._bar_shapes = shapes
            self._bar_key = key
        shapes = self._bar_shapes
        shapes.draw()
        self.draw_bar_extra()
        n = max(self.timeline.n, 1)
        x = left + w * self.pos / n
        arcade.draw_lrbt_rectangle_filled(left, x, cy - 2, cy + 2, GOLD)
        arcade.draw_circle_filled(x, cy, 8, GOLD)

    def bar_extra_key(self) -> tuple[object, ...]:
        """What :meth:`draw_bar_extra` draws on the seek bar (its damage key)."""
        return ()

    def draw_bar_extra(self) -> None:
        """Marks over the seek bar, under its knob (review mode: the decisions)."""

    def _fit(self) -> None:
        super()._fit()
        if hasattr(self, "table_camera"):
            self.table_camera.viewport = self.camera.viewport

    # The table is seen through table_camera: a table point p is at
    # (p - position) * zoom + the screen's centre on the logical screen.
    def _to_screen(self, r: damage.Rect) -> damage.Rect:
        (px, py), z = self.table_camera.position, self.table_camera.zoom
        return ((r[0] - px) * z + WIDTH / 2, (r[1] - py) * z + HEIGHT / 2,
                (r[2] - px) * z + WIDTH / 2, (r[3] - py) * z + HEIGHT / 2)

    def prepare_frame(self) -> None:
        self.table_camera.viewport = self.camera.viewport
        self.table.prepare()
        self._refresh_texts()

    def damage_items(self) -> list[damage.Item]:
        items = damage.mapped(self.table.damage_items(), self._to_screen)
        items.extend(self.side_items())
        for t in (self.info, self.status):
            items.append(damage.text_item(t))
        left, cy, w, h = BAR
        bar = (self.timeline.n, len(self.timeline.marks), self.pos, self.bar_extra_key())
        items.append(damage.rect_item("bar", bar, (left - 12, cy - h - 12, left + w + 12, cy + h + 12)))
        items.extend(self.chrome_items())
        return items

    def side_items(self) -> list[damage.Item]:
        """The damage items of what :meth:`draw_side` draws (the tricks list here)."""
        return self.tricks.damage_items()

    def draw_side(self) -> None:
        """What is drawn over the table beside the trick: the tricks of the deal."""
        self.tricks.draw()

    def picture_key(self) -> tuple[Hashable, ...]:
        return tuple(self.table_camera.position), self.table_camera.zoom

    def backdrop_key(self) -> Hashable:
        return ("theatre", self.table.backdrop_marks(), tuple(self.table_camera.position),
                self.table_camera.zoom)

    def paint_backdrop(self, size: tuple[int, int]) -> Image.Image:
        from game.common import paint

        def to_screen(x: float, y: float) -> tuple[float, float]:
            r = self._to_screen((x, y, x, y))
            return r[0], r[1]

        return paint.backdrop(size, self.table.backdrop_marks(), to_screen, self.table_camera.zoom)

    def draw_scene(self) -> None:
        self.table_camera.scissor = self.camera.scissor  # a camera sets its own scissor box
        try:
            with self.table_camera.activate():
                self.table.draw(prepare=False, shows=self.shows)
        finally:
            self.table_camera.scissor = None
        self.draw_side()
        self.info.draw()
        self._draw_bar()
        self.status.draw()

    # --- input --------------------------------------------------------------------

    def _bar_position(self, x: float, y: float) -> int | None:
        left, cy, w, h = BAR
        if left - 10 <= x <= left + w + 10 and abs(y - cy) <= h + 8:
            return self.timeline.at_fraction((x - left) / w)
        return None

    def on_click(self, x: float, y: float, button: int) -> None:
        p = self._bar_position(x, y)
        if p is not None:
            self.dragging = True
            self.playing = False
            self.seek(p)

    def on_mouse_drag(self, x: float, y: float, dx: float, dy: float, buttons: int, modifiers: int) -> None:
        if self.dragging:
            lx, ly = self.logical(x, y)
            left, _cy, w, _h = BAR
            self.seek(self.timeline.at_fraction(max(0.0, min(1.0, (lx - left) / w))))

    def on_mouse_release(self, x: float, y: float, button: int, modifiers: int) -> None:
        self.dragging = False

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        k = arcade.key
        shift = modifiers & k.MOD_SHIFT
        tl = self.timeline
        if symbol == k.SPACE:
            self.toggle_play()
        elif symbol == k.RIGHT:
            self.playing = False
            self.seek(tl.next_trick(self.pos) if shift else tl.next_card(self.pos))
        elif symbol == k.LEFT:
            self.playing = False
            self.seek(tl.prev_trick(self.pos) if shift else tl.prev_card(self.pos))
        elif symbol == k.HOME:
            self.seek(0)
        elif symbol == k.END:
            self.seek(tl.n)
        elif symbol in (k.PLUS, k.EQUAL, k.NUM_ADD):
            self.change_speed(1)
        elif symbol in (k.MINUS, k.NUM_SUBTRACT):
            self.change_speed(-1)
        elif symbol == k.H:
            self.toggle_hands()
        elif symbol in SEAT_KEYS[: self.rules.n_seats]:
            self.toggle_seat(SEAT_KEYS.index(symbol))
        else:
            return super().on_key_press(symbol, modifiers)
        return True

    def on_back(self) -> None:
        if self.live is not None:
            self.live.stop()
        if self.back is not None:
            self.back()
            return
        show(self.window, "menu")


def open_replay(window: arcade.Window, path: Path, back: Back | None = None) -> None:
    """Show the viewer on ``path``, or the engine's message if the file is bad."""
    try:
        rp = read_replay(path)
    except ReplayError as exc:
        show(window, "message", text=f"{path.name}\n{exc}", title=_("This replay cannot be shown"), back=back)
        return
    from game.theatre.replay_list import game_title

    window.show_view(ViewerView(window, rp, title=game_title(path), back=back))


# --- Watch AI game ---------------------------------------------------------------


class WatchSetupView(BaseView):
    """Choose the game, each seat's level, a single deal or the whole game, speed
    and hands; then watch."""

    def __init__(self, window: arcade.Window | None) -> None:
        super().__init__(window)
        settings = getattr(self.window, "settings", None)
        levels = [lv for lv in level_names()]
        default = "medium" if "medium" in levels else levels[-1]
        self.levels_all = levels
        self.default_level = default
        variant = getattr(settings, "variant", "piedicavallo") if settings else "piedicavallo"
        self.variant = variant if variant in variant_names() else "piedicavallo"
        self.levels: list[str] = []
        self._fit_levels()
        self.match = False
        self.face_up = True
        self.speed_i = SPEEDS.index(1.0)
        self.heading = arcade.Text(_("Watch an AI game"), WIDTH / 2, HEIGHT - 70, GOLD, 30,
                                   anchor_x="center", anchor_y="center", font_name=FONT, bold=True)
        self._rebuild()

    @property
    def rules(self) -> Ruleset:
        return ruleset(self.variant)

    def _fit_levels(self) -> None:
        n = self.rules.n_seats
        self.levels = (self.levels + [self.default_level] * n)[:n]

    def _rebuild(self) -> None:
        rules = self.rules
        words = Words(rules, None)
        rows: list[tuple[str, Callable[[], None]]] = [
            (_("Game: {name}").format(name=game_name(rules)), self._cycle_game)]
        for seat in range(rules.n_seats):
            rows.append((f"{_(rules.seat_names[seat])}: {_(self.levels[seat])}", partial(self._cycle, seat)))
        kind = words.game_kind(rules.full_game if self.match else 1)
        rows.append((kind[:1].upper() + kind[1:], self._toggle_match))
        rows.append((_("Hands face up") if self.face_up else _("Hands face down"), self._toggle_face))
        rows.append((_("Speed {x}x").format(x=f"{SPEEDS[self.speed_i]:g}"), self._cycle_speed))
        rows.append((_("Start"), self.start))
        rows.append((_("Back"), self.on_back))
        focus = self.focus
        self.buttons = [Button(label, (WIDTH / 2, HEIGHT - 140 - 50 * i, 440, 42), action)
                        for i, (label, action) in enumerate(rows)]
        self.focus = focus if 0 <= focus < len(self.buttons) else len(rows) - 2

    def _cycle_game(self) -> None:
        names = variant_names()
        self.variant = names[(names.index(self.variant) + 1) % len(names)]
        self._fit_levels()
        settings = getattr(self.window, "settings", None)
        if settings is not None and hasattr(settings, "variant"):
            settings.variant = self.variant
            settings.save()
        self._rebuild()

    def _cycle(self, seat: int) -> None:
        i = self.levels_all.index(self.levels[seat])
        self.levels[seat] = self.levels_all[(i + 1) % len(self.levels_all)]
        self._rebuild()

    def _toggle_match(self) -> None:
        self.match = not self.match
        self._rebuild()

    def _toggle_face(self) -> None:
        self.face_up = not self.face_up
        self._rebuild()

    def _cycle_speed(self) -> None:
        self.speed_i = (self.speed_i + 1) % len(SPEEDS)
        self._rebuild()

    def draw_scene(self) -> None:
        self.heading.draw()

    def start(self) -> None:
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        seed = time.time_ns() & ((1 << 62) - 1)
        rules = self.rules
        try:
            path = paths.replays_dir() / f"watch-{stamp}.jsonl"
            live = LiveGame(list(self.levels), rules.full_game if self.match else 1, seed, path, rules=rules)
        except paths.DataFolderError as exc:
            show(self.window, "message", text=_("Cannot start a game: {error}").format(error=exc))
            return
        except OSError as exc:  # a full disk, a folder gone: one line naming the file
            from engine.files import SaveFailed

            error = SaveFailed(path, exc)
            show(self.window, "message", text=_("Cannot start a game: {error}").format(error=error))
            return
        self.window.show_view(ViewerView(self.window, live=live, title=_("AI game"),
                                         face_up=self.face_up, speed=SPEEDS[self.speed_i]))

    def on_back(self) -> None:
        show(self.window, "menu")


def render_position(window: arcade.Window, rp: Replay, at: int, title: str, face_up: bool) -> Image.Image:
    """The viewer's table after the first ``at`` events, as a PIL image."""
    view = ViewerView(window, rp, title=title, face_up=face_up)
    view.seek(at)
    window.show_view(view)
    view.on_update(0.0)
    window.clear()
    view.forget_picture()  # cleared: this frame is drawn whole
    view.on_draw()
    return arcade.get_image(0, 0, *window.get_framebuffer_size())
