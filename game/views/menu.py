"""The menu, the new-game setup, and a plain message screen."""

from __future__ import annotations

import importlib
import importlib.util

import arcade

from .. import paths, session, textures
from ..constants import FONT, GOLD, HEIGHT, INK, RED, WIDTH
from ..i18n import N_, _
from ..ui import BaseView, Button
from .message import MessageView

LEVEL_ORDER = ("easy", "medium", "hard", "random")
N_("easy"), N_("medium"), N_("hard"), N_("random")


def levels() -> list[str]:
    from engine.players import level_names

    names = level_names()
    return [n for n in LEVEL_ORDER if n in names] + [n for n in names if n not in LEVEL_ORDER]


def column(labels_actions, top: float = 470, w: float = 360, h: float = 50, gap: float = 12):
    out = []
    for i, (label, action, kw) in enumerate(labels_actions):
        out.append(Button(label, (WIDTH / 2, top - i * (h + gap), w, h), action, **kw))
    return out


class MenuView(BaseView):
    background = (16, 58, 36)

    def __init__(self, window, notice: str = "") -> None:
        super().__init__(window)
        self.title = arcade.Text("Tarocchi", WIDTH / 2, HEIGHT - 110, GOLD, 54, anchor_x="center",
                                 anchor_y="center", font_name=FONT, bold=True)
        self.subtitle = arcade.Text(_("Piedmontese tarot: Piedicavallo for four, Scarto for three"),
                                    WIDTH / 2, HEIGHT - 165, INK, 16, anchor_x="center",
                                    anchor_y="center", font_name=FONT)
        self.notice = arcade.Text("", WIDTH / 2, 40, INK, 13, anchor_x="center", anchor_y="center",
                                  font_name=FONT)
        self.resume_info = session.resumable()
        items = []
        if self.resume_info and self.resume_info[0] is not None:
            items.append((_("Resume the interrupted game"), self.resume, {}))
            note = self.resume_info[1]
            self.notice.text = _("A game was interrupted; it was saved move by move.") + (
                f" ({note})" if note else "")
        elif self.resume_info and self.resume_info[0] is None:
            # never deleted nor rewritten: it stays until a new game files it aside
            self.notice.text = _("The autosave cannot be resumed: {error}").format(error=self.resume_info[1])
            self.notice.color = RED
        elif notice:
            self.notice.text = notice
        items += [
            (_("New game"), lambda: self.setup(False), {}),
            (_("Practice"), lambda: self.setup(True), {"tooltip": _("Undo, redo and hints")}),
            (_("Watch AI game"), self.watch, {}),
            (_("Replays"), self.replays, {}),
            (_("Your record"), self.record, {}),
            (_("Rules"), self.rules, {}),
            (_("Settings"), self.settings_view, {}),
            (_("Quit"), self.quit, {}),
        ]
        top = 470 if len(items) <= 7 else 500
        h, gap = (46, 10) if len(items) <= 8 else (42, 8)  # nine clear of the notice
        self.buttons = column(items, top=top, h=h, gap=gap)
        self.focus = 0

    def draw_scene(self) -> None:
        self.title.draw()
        self.subtitle.draw()
        if self.notice.text:
            self.notice.draw()

    def resume(self) -> None:
        resume_game(self.window)

    def setup(self, practice: bool) -> None:
        if self.resume_info and self.resume_info[0] is not None:
            self.window.show_view(ConfirmNewGameView(self.window, practice))  # ask first
            return
        self.window.show_view(NewGameView(self.window, practice))

    def watch(self) -> None:
        open_optional(self.window, "game.theatre", "WatchSetupView")

    def replays(self) -> None:
        open_optional(self.window, "game.replay_browser", "ReplayBrowserView")

    def record(self) -> None:
        open_optional(self.window, "game.views.record_view", "RecordView")

    def rules(self) -> None:
        from .rules import RulesView

        self.window.show_view(RulesView(self.window))

    def settings_view(self) -> None:
        from .settings import SettingsView

        self.window.show_view(SettingsView(self.window))

    def quit(self) -> None:
        self.window.close()

    def on_back(self) -> None:
        pass


def open_optional(window, module: str, cls: str) -> None:
    """Open a view from a module that may not exist yet; else say it is coming."""
    if importlib.util.find_spec(module) is None:
        window.show_view(MessageView(window, _("Coming soon.")))
        return
    view_cls = getattr(importlib.import_module(module), cls)
    window.show_view(view_cls(window))


def resume_game(window) -> None:
    """Open the interrupted game at the table, or say in one line why it cannot be."""
    try:
        game = session.resume()
    except Exception as exc:  # noqa: BLE001 - say what went wrong, keep the menu
        window.show_view(MessageView(window, _("Could not resume: {error}").format(error=exc)))
        return
    start_table(window, game, practice=bool(game.header.extra.get("practice")))


def start_table(window, game, practice: bool = False) -> None:
    """Show the table for ``game``; a missing asset gives a message, not a traceback."""
    from .table_view import TableView

    try:
        textures.get()
    except textures.MissingAssets as exc:
        game.close()
        window.show_view(MessageView(window, _("Cannot open the table: {error}").format(error=exc)))
        return
    settings = window.settings

    def back() -> None:
        window.show_view(MenuView(window))

    view = TableView(window, game, session.ai_players(game), human_seats=session.human_seats(game),
                     practice=practice, settings=settings, sound=getattr(window, "sound", None),
                     on_exit=back)
    window.show_view(view)


class NewGameView(BaseView):
    background = (16, 58, 36)

    def __init__(self, window, practice: bool) -> None:
        super().__init__(window)
        self.practice = practice
        self.settings = window.settings
        self.levels = levels()
        title = _("Practice game") if practice else _("New game")
        self.title = arcade.Text(title, WIDTH / 2, HEIGHT - 110, GOLD, 36, anchor_x="center",
                                 anchor_y="center", font_name=FONT, bold=True)
        self.help = arcade.Text(_("Click a line or press Enter to change it"), WIDTH / 2, HEIGHT - 160,
                                INK, 14, anchor_x="center", anchor_y="center", font_name=FONT)
        self.b_game = Button("", (WIDTH / 2, 500, 660, 48), self.cycle_game)
        self.b_kind = Button("", (WIDTH / 2, 440, 660, 48), self.toggle_kind)
        self.b_partner = Button("", (WIDTH / 2, 380, 660, 48), lambda: self.cycle("partner"))
        self.b_opp = Button("", (WIDTH / 2, 320, 660, 48), lambda: self.cycle("opponents"))
        self.b_start = Button(_("Deal the cards"), (WIDTH / 2, 230, 300, 54), self.start)
        self.b_back = Button(_("Back"), (WIDTH / 2, 160, 200, 44), self.on_back)
        self._labels()

    @property
    def rules(self):
        from engine.ruleset import ruleset, variant_names

        v = getattr(self.settings, "variant", "piedicavallo")
        return ruleset(v if v in variant_names() else "piedicavallo")

    def _labels(self) -> None:
        from ..words import Words

        s = self.settings
        rules = self.rules
        words = Words(rules, 0)
        self.b_game.label = _("Game: {name}").format(name=words.game_title())
        kind = words.game_kind(rules.full_game if s.match else 1)
        self.b_kind.label = _("Length: {kind}").format(kind=kind)
        self.b_partner.label = _("Partner (North): {level}").format(level=_(s.partner))
        self.b_opp.label = _("Opponents (East, West): {level}").format(level=_(s.opponents))
        partners = rules.partner[0] >= 0
        rows = [self.b_game, self.b_kind, *([self.b_partner] if partners else []), self.b_opp]
        for i, b in enumerate(rows):  # one under the other, no gap where a partner would be
            b.rect = (WIDTH / 2, 500 - 60 * i, *b.rect[2:])
            b.text.x, b.text.y = b.rect[:2]
        buttons = [*rows, self.b_start, self.b_back]
        if self.buttons != buttons:
            focused = self.buttons[self.focus] if 0 <= self.focus < len(self.buttons) else self.b_start
            self.buttons = buttons
            self.focus = buttons.index(focused) if focused in buttons else buttons.index(self.b_start)

    def cycle_game(self) -> None:
        """Piedicavallo or Scarto; the settings remember the choice."""
        from engine.ruleset import variant_names

        names = variant_names()
        cur = self.rules.name
        self.settings.variant = names[(names.index(cur) + 1) % len(names)]
        self._labels()
        self.settings.save()

    def toggle_kind(self) -> None:
        self.settings.match = not self.settings.match
        self._labels()
        self.settings.save()

    def cycle(self, which: str, step: int = 1) -> None:
        cur = getattr(self.settings, which)
        i = self.levels.index(cur) if cur in self.levels else 0
        setattr(self.settings, which, self.levels[(i + step) % len(self.levels)])
        self._labels()
        self.settings.save()

    def start(self) -> None:
        s = self.settings
        for which in ("partner", "opponents"):
            if getattr(s, which) not in self.levels:
                setattr(s, which, self.levels[0])
        try:  # the interrupted game, if any, is filed under Replays first
            game = session.new_game(partner=s.partner, opponents=s.opponents, match=s.match,
                                    practice=self.practice, variant=self.rules.name)
        except (OSError, paths.DataFolderError) as exc:
            self.window.show_view(MessageView(self.window, _("Cannot start a game: {error}").format(error=exc)))
            return
        start_table(self.window, game, practice=self.practice)

    def draw_scene(self) -> None:
        self.title.draw()
        self.help.draw()

    def on_back(self) -> None:
        self.window.show_view(MenuView(self.window))


class ConfirmNewGameView(BaseView):
    """A game is interrupted: resume it, or file it under Replays and start another."""

    background = (16, 58, 36)

    def __init__(self, window, practice: bool) -> None:
        super().__init__(window)
        self.practice = practice
        self.text = arcade.Text(
            _("A game was interrupted. Starting a new one files it under Replays, unfinished."),
            WIDTH / 2, HEIGHT / 2 + 90, INK, 18, anchor_x="center", anchor_y="center", font_name=FONT,
            multiline=True, width=1000, align="center")
        self.buttons = column([
            (_("Resume it"), lambda: resume_game(self.window), {}),
            (_("File it and start a new game"), self.new_game, {}),
            (_("Back"), self.on_back, {}),
        ], top=HEIGHT / 2 - 10, w=420, h=48)
        self.focus = 0

    def new_game(self) -> None:
        self.window.show_view(NewGameView(self.window, self.practice))

    def draw_scene(self) -> None:
        self.text.draw()

    def on_back(self) -> None:
        self.window.show_view(MenuView(self.window))

