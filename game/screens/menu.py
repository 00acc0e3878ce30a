"""The menu, the new-game setup, and a plain message screen."""

from __future__ import annotations

from collections.abc import Callable

import arcade

from engine.replay import Replay
from engine.ruleset import Ruleset
from game.common import paths
from game.common.constants import FONT, GOLD, HEIGHT, INK, RED, WIDTH
from game.common.i18n import _
from game.common.navigation import Screen, knows, show
from game.common.settings import Settings, levels
from game.common.ui import BaseView, Button, typed_line_key
from game.common.words import Words, game_name
from game.table import session

#: a line of a menu: its label, its action, its tooltip ("" for none)
Line = tuple[str, Callable[[], object], str]


def column(lines: list[Line], top: float = 470, w: float = 360, h: float = 50, gap: float = 12) -> list[Button]:
    return [Button(label, (WIDTH / 2, top - i * (h + gap), w, h), action, tooltip=tip)
            for i, (label, action, tip) in enumerate(lines)]


def resume_label(replay: Replay) -> str:
    """The resume entry says what it resumes: the game, the deal, the trick."""
    st = replay.final
    name = game_name(replay.rules)
    trick = min(st.trick_no + 1, replay.rules.n_tricks)
    if st.n_deals > 1:
        return _("Resume {game}: deal {deal} of {n}, trick {trick}").format(
            game=name, deal=max(st.deal_no, 1), n=st.n_deals, trick=trick)
    return _("Resume {game}: trick {trick}").format(game=name, trick=trick)


class MenuView(BaseView):
    background = (16, 58, 36)

    def __init__(self, window: arcade.Window, notice: str = "") -> None:
        super().__init__(window)
        self.title = arcade.Text("Tarocchi", WIDTH / 2, HEIGHT - 100, GOLD, 54, anchor_x="center",
                                 anchor_y="center", font_name=FONT, bold=True)
        self.subtitle = arcade.Text(_("Piedmontese tarot: Piedicavallo for four, Scarto for three"),
                                    WIDTH / 2, HEIGHT - 165, INK, 16, anchor_x="center",
                                    anchor_y="center", font_name=FONT)
        self.notice = arcade.Text("", WIDTH / 2, 40, INK, 13, anchor_x="center", anchor_y="center",
                                  font_name=FONT)
        # (the interrupted game or None, why not) or None: nothing to resume
        self.resume_info: tuple[Replay | None, str] | None = session.resumable()
        items: list[Line] = []
        if self.resume_info and self.resume_info[0] is not None:
            items.append((resume_label(self.resume_info[0]), self.resume, ""))
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
            (_("New game"), lambda: self.setup(False), ""),
            (_("Practice"), lambda: self.setup(True), _("Undo, redo and hints")),
            (_("Play online"), self.online, _("Host a table or join one by its code")),
            (_("Learn to play"), self.learn, _("Short lessons at the table, for each game")),
            (_("Watch AI game"), self.watch, ""),
            (_("Replays"), self.replays, ""),
            (_("Your record"), self.record, ""),
            (_("Rules"), self.rules, ""),
            (_("Settings"), self.settings_view, ""),
            (_("Quit"), self.quit, ""),
        ]
        top = 470 if len(items) <= 7 else 500
        # as many as there are, the last clear of the notice line (y 40)
        step = min(56.0, (top - 88) / (len(items) - 1))
        h = min(46.0, step - 6)
        self.buttons = column(items, top=top, h=h, gap=step - h)
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

    def online(self) -> None:
        open_optional(self.window, "online")

    def learn(self) -> None:
        show(self.window, "lessons")

    def watch(self) -> None:
        open_optional(self.window, "watch")

    def replays(self) -> None:
        open_optional(self.window, "replays")

    def record(self) -> None:
        open_optional(self.window, "record")

    def rules(self) -> None:
        show(self.window, "rules")

    def settings_view(self) -> None:
        show(self.window, "settings")

    def quit(self) -> None:
        self.window.close()

    def on_back(self) -> None:
        pass


def open_optional(window: arcade.Window, screen: Screen) -> None:
    """Open a screen the router may not have yet; else say it is coming."""
    if not knows(window, screen):
        show(window, "message", text=_("Coming soon."))
        return
    show(window, screen)


def resume_game(window: arcade.Window) -> None:
    """Open the interrupted game at the table, or say in one line why it cannot be."""
    try:
        game = session.resume()
    except session.ResumeBusy as exc:  # another Tarocchi window has it: its one line, alone
        show(window, "message", text=str(exc))
        return
    except Exception as exc:  # noqa: BLE001 - say what went wrong, keep the menu
        show(window, "message", text=_("Could not resume: {error}").format(error=exc))
        return
    show(window, "game", game=game, practice=bool(game.header.extra.get("practice")), resumed=True)


class NewGameView(BaseView):
    background = (16, 58, 36)

    def __init__(self, window: arcade.Window, practice: bool) -> None:
        super().__init__(window)
        self.practice = practice
        self.settings: Settings = window.settings
        self.levels = levels()
        title = _("Practice game") if practice else _("New game")
        self.title = arcade.Text(title, WIDTH / 2, HEIGHT - 110, GOLD, 36, anchor_x="center",
                                 anchor_y="center", font_name=FONT, bold=True)
        self.help = arcade.Text(_("Click a line or press Enter to change it"), WIDTH / 2, HEIGHT - 160,
                                INK, 14, anchor_x="center", anchor_y="center", font_name=FONT)
        self.b_game = Button("", (WIDTH / 2, 500, 720, 48), self.cycle_game)
        self.b_kind = Button("", (WIDTH / 2, 440, 720, 48), self.toggle_kind)
        self.b_partner = Button("", (WIDTH / 2, 380, 720, 48), lambda: self.cycle("partner"))
        self.b_opp = Button("", (WIDTH / 2, 320, 720, 48), lambda: self.cycle("opponents"))
        # practice: who deals (to practise the discard or the exchange) and a seed (the same cards again)
        self.b_dealer = Button("", (WIDTH / 2, 260, 720, 48), self.cycle_dealer)
        self.b_deal = Button("", (WIDTH / 2, 200, 720, 48), self.toggle_typing)
        self.deal_number: int | None = None  # a deal to play again (the game's seed)
        self.typing = False
        self.typed = ""
        self.b_start = Button(_("Deal the cards"), (WIDTH / 2, 230, 300, 54), self.start)
        self.b_back = Button(_("Back"), (WIDTH / 2, 160, 200, 44), self.on_back)
        self._labels()

    @property
    def rules(self) -> Ruleset:
        from engine.ruleset import ruleset, variant_names

        v = getattr(self.settings, "variant", "piedicavallo")
        return ruleset(v if v in variant_names() else "piedicavallo")

    def _labels(self) -> None:
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
        if self.practice:
            self._practice_labels(words)
            rows += [self.b_dealer, self.b_deal]
        top, step = (508, 56) if len(rows) > 4 else (500, 60)
        for i, b in enumerate(rows):  # one under the other, no gap where a partner would be
            b.rect = (WIDTH / 2, top - step * i, *b.rect[2:])
            b.text.x, b.text.y = b.rect[:2]
        low = top - step * (len(rows) - 1)
        for b, y in ((self.b_start, min(230, low - 72)), (self.b_back, min(160, low - 136))):
            b.rect = (WIDTH / 2, y, *b.rect[2:])
            b.text.x, b.text.y = b.rect[:2]
        buttons = [*rows, self.b_start, self.b_back]
        if self.buttons != buttons:
            focused = self.buttons[self.focus] if 0 <= self.focus < len(self.buttons) else self.b_start
            self.buttons = buttons
            self.focus = buttons.index(focused) if focused in buttons else buttons.index(self.b_start)

    def _practice_labels(self, words: Words) -> None:
        from engine.state import first_dealer

        rules = self.rules
        if self.deal_number is not None:
            dealer = words.name(first_dealer(self.deal_number, rules))
            self.b_dealer.label = _("Dealer: {name} (given by the seed)").format(name=dealer)
            self.b_dealer.enabled = False
        else:
            d = self.dealer
            self.b_dealer.label = _("Dealer: {name}").format(
                name=_("drawn at random") if d is None else words.name(d))
            self.b_dealer.enabled = True
        if self.typing:
            self.b_deal.label = _("Seed: {digits}_ (Enter to confirm)").format(digits=self.typed)
        elif self.deal_number is not None:
            self.b_deal.label = _("Seed {n}: these cards again").format(n=self.deal_number)
        else:
            self.b_deal.label = _("Deal: a new one (click to type a seed)")

    @property
    def dealer(self) -> int | None:
        """The practice dealer chosen (remembered in the settings), None: drawn."""
        d = getattr(self.settings, "practice_dealer", -1)
        return d if 0 <= d < self.rules.n_seats else None

    def cycle_dealer(self) -> None:
        """Drawn at random, then each seat in turn, starting with you."""
        n = self.rules.n_seats
        d = self.dealer
        self.settings.practice_dealer = 0 if d is None else (d + 1 if d + 1 < n else -1)
        self._labels()
        self.settings.save()

    def toggle_typing(self) -> None:
        """Type a seed in (digits, Enter), or back to a new deal."""
        if self.typing:
            self._confirm_typed()
            return
        self.typing = True
        self.typed = ""
        self._labels()

    def _confirm_typed(self) -> None:
        self.typing = False
        digits = self.typed.strip()
        self.deal_number = int(digits) if digits and int(digits) > 0 else None
        self._labels()

    def on_text(self, text: str) -> None:
        if self.typing:
            digits = "".join(ch for ch in text if ch.isdigit())
            if digits and len(self.typed) < 18:
                self.typed = (self.typed + digits)[:18]
                self._labels()

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        if self.typing:
            action, self.typed = typed_line_key(symbol, self.typed)
            if action == "enter":
                self._confirm_typed()
            elif action == "cancel":
                self.typing, self.deal_number = False, None
                self._labels()
            elif action == "edit":
                self._labels()
            return True
        return super().on_key_press(symbol, modifiers)

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
        if self.typing:
            self._confirm_typed()
        practice = self.practice
        try:  # the interrupted game, if any, is filed under Replays first
            game = session.new_game(partner=s.partner, opponents=s.opponents, match=s.match,
                                    practice=practice, variant=self.rules.name,
                                    seed=self.deal_number if practice else None,
                                    dealer=self.dealer if practice else None,
                                    chosen_deal=practice and self.deal_number is not None)
        except paths.AutosaveBusy as exc:  # another Tarocchi window has a game: its one line
            show(self.window, "message", text=str(exc))
            return
        except (OSError, paths.DataFolderError) as exc:
            show(self.window, "message", text=_("Cannot start a game: {error}").format(error=exc))
            return
        show(self.window, "game", game=game, practice=self.practice)

    def draw_scene(self) -> None:
        self.title.draw()
        self.help.draw()

    def on_back(self) -> None:
        self.window.show_view(MenuView(self.window))


class ConfirmNewGameView(BaseView):
    """A game is interrupted: resume it, or file it under Replays and start another."""

    background = (16, 58, 36)

    def __init__(self, window: arcade.Window, practice: bool) -> None:
        super().__init__(window)
        self.practice = practice
        self.text = arcade.Text(
            _("A game was interrupted. Starting a new one files it under Replays, unfinished."),
            WIDTH / 2, HEIGHT / 2 + 90, INK, 18, anchor_x="center", anchor_y="center", font_name=FONT,
            multiline=True, width=1000, align="center")
        self.buttons = column([
            (_("Resume it"), lambda: resume_game(self.window), ""),
            (_("File it and start a new game"), self.new_game, ""),
            (_("Back"), self.on_back, ""),
        ], top=HEIGHT / 2 - 10, w=420, h=48)
        self.focus = 0

    def new_game(self) -> None:
        self.window.show_view(NewGameView(self.window, self.practice))

    def draw_scene(self) -> None:
        self.text.draw()

    def on_back(self) -> None:
        self.window.show_view(MenuView(self.window))

