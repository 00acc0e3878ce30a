"""Learn to play: each game's course, a button per lesson (a tick once done),
and the lesson at the real table (:mod:`game.table.lessons`)."""

from __future__ import annotations

from functools import partial

import arcade

from game.common import paths, textures
from game.common.constants import FONT, GOLD, HEIGHT, INK, WIDTH
from game.common.i18n import _
from game.common.navigation import show
from game.common.ui import BaseView, Button
from game.common.words import GAME_NAMES
from game.table import lessons
from game.table.table_api import Presenter

COL_X = (WIDTH / 2 - 300, WIDTH / 2 + 300)
TOP = HEIGHT - 200
ROW = 58


class LessonsView(BaseView):
    background = (16, 58, 36)

    def __init__(self, window: arcade.Window) -> None:
        super().__init__(window)
        self.title = arcade.Text(_("Learn to play"), WIDTH / 2, HEIGHT - 70, GOLD, 36, anchor_x="center",
                                 anchor_y="center", font_name=FONT, bold=True)
        self.help = arcade.Text(_("Short lessons at the table: you make the moves, the lesson lights the "
                                  "card and says why."), WIDTH / 2, HEIGHT - 115, INK, 15,
                                anchor_x="center", anchor_y="center", font_name=FONT)
        try:
            progress = lessons.load_progress()
        except paths.DataFolderError:
            progress = {"done": [], "at": {}}
        self.heads: list[arcade.Text] = []
        buttons: list[Button] = []
        for col, game in enumerate(lessons.COURSES):
            self.heads.append(arcade.Text(_(GAME_NAMES[game]), COL_X[col], TOP + 50, GOLD, 20,
                                          anchor_x="center", anchor_y="center", font_name=FONT, bold=True))
            for i, lid in enumerate(lessons.COURSES[game]):
                lesson = lessons.BY_ID[lid]
                mark = "✓ " if lid in progress["done"] else ""
                at = progress["at"].get(lid, 0)
                label = f"{mark}{i + 1}. {_(lesson.title)}"
                tip = _("Resume at move {n}").format(n=at + 1) if at and not lesson.free else ""
                buttons.append(Button(label, (COL_X[col], TOP - i * ROW, 520, 48), partial(self.start, lid, at),
                                      font_size=15, tooltip=tip))
        buttons.append(Button(_("Back"), (WIDTH / 2, 60, 220, 46), self.on_back))
        self.buttons = buttons
        self.focus = 0

    def start(self, lesson_id: str, at: int = 0) -> None:
        start_lesson(self.window, lesson_id, at)

    def draw_scene(self) -> None:
        self.title.draw()
        self.help.draw()
        for t in self.heads:
            t.draw()

    def on_back(self) -> None:
        show(self.window, "menu")


def _resume_at(lesson_id: str) -> int:
    """The move a lesson was left at (0: from the start)."""
    try:
        return int(lessons.load_progress()["at"].get(lesson_id, 0))
    except paths.DataFolderError:
        return 0


def start_lesson(window: arcade.Window, lesson_id: str, at: int = 0) -> None:
    """A lesson at the table; Esc or the menu button leads back to the lessons.
    A guided lesson resumes at the move it was left at; a free deal starts over."""
    try:
        textures.get()
    except textures.MissingAssets as exc:
        show(window, "message", text=_("Cannot open the table: {error}").format(error=exc))
        return
    lesson = lessons.BY_ID[lesson_id]
    session = lessons.lesson_session(lesson, 0 if lesson.free else at)

    def back() -> None:
        window.show_view(LessonsView(window))

    def remember(lid: str, steps: int, done: bool) -> None:
        try:
            lessons.save_progress(lid, steps, done)
        except (OSError, paths.DataFolderError):
            pass  # progress is a comfort: the lesson goes on

    def controller(view: Presenter) -> lessons.LessonController:
        return lessons.LessonController(lesson, view, settings=window.settings, on_exit=back,
                                        on_progress=remember, session=session,
                                        on_next=lambda lid: start_lesson(window, lid, _resume_at(lid)))

    show(window, "table", game=session, players=lessons.ai_players(lesson), settings=window.settings,
         sound=getattr(window, "sound", None), on_exit=back, controller=controller)


__all__ = ["LessonsView", "start_lesson"]
