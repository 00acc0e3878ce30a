"""The Replays screen: every saved game of the data folder (``replays/``,
``autoplay/``, the autosave) and the files opened by path, one row each with
its date, game, players and result from the player's side (``game.theatre.replay_list``
has the model and the words; this view draws them and takes the input).

Keys: Up/Down (PageUp/PageDown, Home/End) choose a row, Enter watches it, R
reviews a finished one (the theatre's review mode, where it exists), Delete
asks before moving its file to the trash, O opens a file by its path, /
searches, G cycles the game shown, F finished or not, S the order, Tab moves
the focus over the buttons, Escape goes back (or closes the prompt or the
question).  A key that opens a text box does not type itself into it, and once
a prompt or a question is closed Enter watches the highlighted row again.

This module holds the view: the filters, the selection, the path prompt, the
search box and the keys.  The page of rows is ``replay_rows``'s, the delete
question ``replay_question``'s.
"""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

import arcade
from arcade.types import RGBOrA255

from game.common.constants import FONT, GOLD, HEIGHT, RED, WIDTH
from game.common.i18n import N_, _, ngettext
from game.common.navigation import Back, going_back, knows, show
from game.common.ui import BaseView, Button
from game.common.words import game_name
from game.theatre import replay_list as rl
from game.theatre.replay_question import DeleteQuestion
from game.theatre.replay_rows import DIM, LIST_LEFT, LIST_RIGHT, ROWS, RowList, fit_ellipsis

#: Files opened in this session (by path), listed beside the data folder's.
OPENED: list[Path] = []
#: the filters and order last used in this session
STATE: dict[str, str] = {}
_GAME_WORDS = {"all": N_("All games")}
_STATUS_WORDS: dict[rl.StatusFilter, str] = {"all": N_("Finished or not"), "finished": N_("Finished games"), "unfinished": N_("Unfinished games")}
_SORT_WORDS: dict[rl.Order, str] = {"newest": N_("Newest first"), "oldest": N_("Oldest first"), "game": N_("By game"),
               "result": N_("By result")}


T = TypeVar("T", bound=str)


def _cycle(values: tuple[T, ...], current: str) -> T:
    """The value after ``current`` in ``values`` (the first if ``current`` is none of them)."""
    i = next((k for k, v in enumerate(values) if v == current), -1)
    return values[(i + 1) % len(values)]


def _kept(values: tuple[T, ...], current: str | None) -> T:
    """``current`` as one of ``values`` (the first if it is none of them)."""
    return next((v for v in values if v == current), values[0])


class ReplayBrowserView(BaseView):
    def _back_here(self) -> Back:
        """The way back to this list from a replay or a review, said on its "<"."""
        return going_back(lambda: self.window.show_view(ReplayBrowserView(self.window)),
                          _("Back to the replays (Esc)"))

    def __init__(self, window: arcade.Window | None) -> None:
        super().__init__(window)
        self.game_filter = STATE.get("game", "all")
        self.status_filter = _kept(rl.STATUS_FILTERS, STATE.get("status"))
        self.order = _kept(rl.SORTS, STATE.get("order"))
        self.search = STATE.get("search", "")
        self.all_rows: list[rl.Row] = rl.load(OPENED)
        self.entries: list[rl.Row] = []
        self.selected = 0
        self.first = 0
        self.typing = False  # the path prompt is open
        self.searching = False  # the search box takes the keys
        self.path_text = ""
        self.confirm: rl.Row | None = None  # the row the delete question is about
        self.message = ""
        self.message_colour = GOLD
        self._swallow = ""  # the text of the key that opened a text box (pyglet sends it next)
        self.heading = arcade.Text(_("Replays"), 40, HEIGHT - 40, GOLD, 30, anchor_y="center",
                                   font_name=FONT, bold=True)
        self.count = arcade.Text("", LIST_RIGHT, HEIGHT - 88, DIM, 12, anchor_x="right", anchor_y="center",
                                 font_name=FONT)
        self.hint = arcade.Text(
            _("↑/↓ choose · Enter watch · R review · Del delete · O open a file · / search · G game · "
              "F finished · S sort · Esc back"),
            WIDTH / 2, 16, DIM, 11, anchor_x="center", anchor_y="center", font_name=FONT)
        self.prompt = arcade.Text("", WIDTH / 2, 108, GOLD, 14, anchor_x="center", anchor_y="center",
                                  font_name=FONT)
        self.row_list = RowList()
        self.question = DeleteQuestion(self.do_delete, self.cancel_delete)
        self._build_buttons()
        last = STATE.get("selected")
        self.refilter(keep=Path(last) if last else None)

    # --- buttons ------------------------------------------------------------------

    def _build_buttons(self) -> None:
        y = HEIGHT - 88
        self.b_game = Button("", (LIST_LEFT + 115, y, 230, 36), self.cycle_game, font_size=13,
                             tooltip=_("G: which game"))
        self.b_status = Button("", (LIST_LEFT + 355, y, 230, 36), self.cycle_status, font_size=13,
                               tooltip=_("F: finished or not"))
        self.b_sort = Button("", (LIST_LEFT + 595, y, 230, 36), self.cycle_sort, font_size=13,
                             tooltip=_("S: the order"))
        self.b_search = Button("", (LIST_LEFT + 845, y, 250, 36), self.start_search, font_size=13,
                               tooltip=_("/: find a player, a level, a date, a file"))
        self.b_open = Button(_("Open file…"), (WIDTH - 340, HEIGHT - 40, 240, 40), self.start_typing,
                             font_size=14, tooltip=_("O: open a replay file by its path"))
        self.b_back = Button(_("Back"), (WIDTH - 120, HEIGHT - 40, 160, 40), self.on_back, font_size=14)
        self.b_watch = Button(_("Watch"), (WIDTH / 2 - 220, 48, 200, 40), self.open_selected, font_size=14,
                              tooltip=_("Enter"))
        self.b_review = Button(_("Review"), (WIDTH / 2, 48, 200, 40), self.review_selected, font_size=14,
                               tooltip=_("R: your play graded, move by move"))
        self.b_delete = Button(_("Delete…"), (WIDTH / 2 + 220, 48, 200, 40), self.ask_delete, font_size=14,
                               tooltip=_("Delete: move the file to the trash"))
        self._set_buttons()

    def _set_buttons(self) -> None:
        if self.confirm is not None:
            self.buttons = self.question.buttons
            return
        self.b_game.label = _("Game: {name}").format(name=self._game_word())
        self.b_status.label = _(_STATUS_WORDS[self.status_filter])
        self.b_sort.label = _(_SORT_WORDS[self.order])
        shown = self.search + ("_" if self.searching else "")
        self.b_search.label = _("Search: {text}").format(text=shown) if shown else _("Search…")
        have = 0 <= self.selected < len(self.entries)
        self.b_watch.enabled = have  # a broken file shows the reader's message
        self.b_delete.enabled = have and not self.entries[self.selected].autosave
        self.b_review.enabled = have and self.entries[self.selected].finished and knows(self.window, "review")
        self.buttons = [self.b_game, self.b_status, self.b_sort, self.b_search, self.b_open, self.b_back,
                        self.b_watch, self.b_review, self.b_delete]

    def _game_word(self) -> str:
        if self.game_filter == "all":
            return _(_GAME_WORDS["all"])
        from engine.ruleset import ruleset

        return game_name(ruleset(self.game_filter))

    # --- the list -------------------------------------------------------------------

    def refilter(self, keep: Path | None = None) -> None:
        """Apply the filters and order; keep ``keep`` (or the selected row) selected."""
        STATE.update(game=self.game_filter, status=self.status_filter, order=self.order, search=self.search)
        if keep is None and 0 <= self.selected < len(self.entries):
            keep = self.entries[self.selected].path
        self.entries = rl.select(self.all_rows, self.game_filter, self.status_filter, self.search, self.order)
        paths_ = [e.path for e in self.entries]
        if keep in paths_:
            self.selected = paths_.index(keep)
        self.selected = max(0, min(self.selected, len(self.entries) - 1))
        self._remember()
        self.count.text = ngettext("{n} of {total} replay", "{n} of {total} replays", len(self.all_rows)).format(
            n=len(self.entries), total=len(self.all_rows))
        if not self.all_rows:
            self.row_list.empty.text = _("No saved games yet: finished games and watched AI games appear here.")
        else:
            self.row_list.empty.text = _("No replay matches these filters.") if not self.entries else ""
        self._layout_rows()

    def reload(self, keep: Path | None = None) -> None:
        self.all_rows = rl.load(OPENED)
        self.refilter(keep)

    def _layout_rows(self) -> None:
        self.row_list.layout(self.entries, self.selected)
        self._set_buttons()

    def _show_detail(self) -> None:
        self.row_list.show_detail(self.entries, self.selected)

    def move(self, step: int) -> None:
        if self.entries:
            self.selected = max(0, min(len(self.entries) - 1, self.selected + step))
            self.focus = -1  # the list has the keyboard again
            self._remember()
            self._layout_rows()

    def _remember(self) -> None:
        """The row selected, kept for the browser shown again (back from the viewer)."""
        if 0 <= self.selected < len(self.entries):
            STATE["selected"] = str(self.entries[self.selected].path)

    def open_selected(self) -> None:
        if 0 <= self.selected < len(self.entries):
            e = self.entries[self.selected]
            show(self.window, "replay", path=e.path, back=self._back_here())

    def review_selected(self) -> None:
        """The theatre's review of the highlighted finished game (your seat's play graded)."""
        if knows(self.window, "review") and 0 <= self.selected < len(self.entries) \
                and self.entries[self.selected].finished:
            show(self.window, "review", path=self.entries[self.selected].path, back=self._back_here())

    def cycle_game(self) -> None:
        self.game_filter = _cycle(rl.GAME_FILTERS, self.game_filter)
        self.refilter()

    def cycle_status(self) -> None:
        self.status_filter = _cycle(rl.STATUS_FILTERS, self.status_filter)
        self.refilter()

    def cycle_sort(self) -> None:
        self.order = _cycle(rl.SORTS, self.order)
        self.refilter()

    # --- deleting ---------------------------------------------------------------------

    def ask_delete(self) -> None:
        if not 0 <= self.selected < len(self.entries):
            return
        e = self.entries[self.selected]
        if e.autosave:
            self.say(_("This is the interrupted game: resume it from the menu, or start a new game."), RED)
            return
        self.confirm = e
        self.row_list.hover = -1
        self._show_detail()
        self.question.ask(e)
        self.focus = 0
        self._set_buttons()

    def do_delete(self) -> None:
        e = self.confirm
        self.cancel_delete()
        if e is None:
            return
        try:
            dest = rl.trash(e.path)
        except rl.TrashError as exc:
            self.say(str(exc), RED)
            return
        if e.path in OPENED:
            OPENED.remove(e.path)
        index = self.selected
        self.reload()
        self.selected = max(0, min(index, len(self.entries) - 1))
        self._layout_rows()
        self.say(_("Moved to the trash: {path}").format(path=dest))

    def cancel_delete(self) -> None:
        self.confirm = None
        self.focus = -1
        self._set_buttons()

    def say(self, text: str, colour: RGBOrA255 = GOLD) -> None:
        self.prompt.text = text
        self.prompt.color = colour
        fit_ellipsis(self.prompt, WIDTH - 80)

    # --- the path prompt and the search box ----------------------------------------------

    def start_typing(self) -> None:
        self.searching = False
        self.typing = True
        self.path_text = ""
        self.focus = -1
        self._show_prompt()

    def _show_prompt(self) -> None:
        self.say(_("Path of a replay file: {path}_").format(path=self.path_text))

    def start_search(self) -> None:
        self.typing = False
        self.prompt.text = ""
        self.searching = True
        self.focus = -1
        self._set_buttons()

    def on_text(self, text: str) -> None:
        swallow, self._swallow = self._swallow, ""
        if swallow and text.casefold() == swallow:
            return  # the key that opened the box, not a letter of it
        if not text.isprintable():
            return
        if self.typing:
            self.path_text += text
            self._show_prompt()
        elif self.searching:
            self.search += text
            self.refilter()

    def _open_typed(self) -> None:
        self.typing = False
        self.focus = -1
        path = Path(self.path_text.strip()).expanduser()
        self.prompt.text = ""
        if not path.is_file():
            self.say(_("No such file: {path}").format(path=path), RED)
            return
        if path not in OPENED:
            OPENED.append(path)
        self.reload(keep=path)
        if path not in [e.path for e in self.entries]:  # hidden by the filters: show everything
            self.game_filter, self.status_filter, self.search = "all", "all", ""
            self.refilter(keep=path)

    def _text_key(self, symbol: int) -> bool:
        """Keys while the path prompt or the search box is open."""
        k = arcade.key
        enter = symbol in (k.ENTER, k.RETURN, k.NUM_ENTER)
        if self.typing:
            if enter:
                self._open_typed()
            elif symbol == k.BACKSPACE:
                self.path_text = self.path_text[:-1]
                self._show_prompt()
            elif symbol == k.ESCAPE:
                self.typing = False
                self.focus = -1
                self.prompt.text = ""
            return True
        # the search box: Enter keeps the text, Escape clears it; the list still moves
        if enter or symbol == k.ESCAPE:
            self.searching = False
            self.focus = -1
            if symbol == k.ESCAPE:
                self.search = ""
            self.refilter()
            return True
        if symbol == k.BACKSPACE:
            self.search = self.search[:-1]
            self.refilter()
            return True
        if symbol in (k.UP, k.DOWN):
            self.move(-1 if symbol == k.UP else 1)
        return True

    # --- drawing and input -----------------------------------------------------------

    def draw_scene(self) -> None:
        self.heading.draw()
        self.count.draw()
        self.row_list.draw(len(self.entries), self.selected)
        self.hint.draw()
        if self.prompt.text:
            self.prompt.draw()
        if self.confirm is not None:
            self.question.draw()

    def row_at(self, x: float, y: float) -> int:
        """The index (in ``entries``) of the row under a logical point, or -1."""
        return self.row_list.row_at(x, y, len(self.entries))

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        super().on_mouse_press(x, y, button, modifiers)
        if self.confirm is None and not self.typing:
            self.focus = -1  # a click leaves no keyboard focus: Enter watches the row

    def on_click(self, x: float, y: float, button: int) -> None:
        if self.confirm is not None:
            return
        k = self.row_at(x, y)
        if k < 0:
            return
        if self.selected == k:
            self.open_selected()
        else:
            self.selected = k
            self._remember()
            self._layout_rows()

    def on_logical_motion(self, x: float, y: float) -> None:
        k = self.row_at(x, y) if self.confirm is None else -1
        if k != self.row_list.hover:
            self.row_list.hover = k
            self._show_detail()

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> None:
        if self.confirm is None:
            self.move(-1 if scroll_y > 0 else 1)

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        k = arcade.key
        self._swallow = ""  # a new key: the last one's text is not coming
        if self.confirm is not None:
            if symbol in (k.ENTER, k.RETURN, k.NUM_ENTER, k.SPACE) and 0 <= self.focus < len(self.buttons):
                self.buttons[self.focus].press()
            elif symbol == k.Y:
                self.do_delete()
            elif symbol in (k.ESCAPE, k.N):
                self.cancel_delete()
            elif symbol in (k.TAB, k.LEFT, k.RIGHT):
                self.move_focus(1)
            return True
        if self.typing or self.searching:
            return self._text_key(symbol)
        moves = {k.UP: -1, k.DOWN: 1, k.PAGEUP: -ROWS, k.PAGEDOWN: ROWS, k.HOME: -10**9, k.END: 10**9}
        if symbol in moves:
            self.move(moves[symbol])
        elif symbol in (k.ENTER, k.RETURN, k.NUM_ENTER):
            if 0 <= self.focus < len(self.buttons):  # a button the keyboard moved to with Tab
                self.buttons[self.focus].press()
            else:
                self.open_selected()
        elif symbol == k.DELETE:
            self.ask_delete()
        elif symbol == k.R:
            self.review_selected()
        elif symbol == k.O:
            self.start_typing()
            self._swallow = "o"
        elif symbol == k.SLASH:
            self.start_search()
            self._swallow = "/"
        elif symbol == k.G:
            self.cycle_game()
        elif symbol == k.F:
            self.cycle_status()
        elif symbol == k.S:
            self.cycle_sort()
        elif symbol == k.TAB:
            self.move_focus(-1 if modifiers & k.MOD_SHIFT else 1)
        elif symbol == k.ESCAPE:
            self.on_back()
        else:
            return super().on_key_press(symbol, modifiers)
        return True

    def on_back(self) -> None:
        show(self.window, "menu")

    # --- for tests -------------------------------------------------------------------------

    def texts(self) -> list[arcade.Text]:
        """Every text readable on the screen now (with the delete question open,
        the question's: the list lies dimmed under it)."""
        if self.confirm is not None:
            return self.question.texts()
        out = [self.heading, self.count, self.hint]
        out += [self.prompt] if self.prompt.text else []
        return out + self.row_list.texts(len(self.entries))


__all__ = ["ReplayBrowserView", "OPENED", "STATE"]
