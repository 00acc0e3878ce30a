"""Learn to play on screen: the menu's entry, the lessons screen, a
lesson at the real table with its coach panel clear of everything else, its
progress remembered, and ``tarocchi autoplay --lesson`` (headless)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.state import DISCARD
from game.common import i18n
from game.common.constants import HEIGHT, WIDTH
from game.common.i18n import _
from game.table import lessons

ROOT = Path(__file__).resolve().parent.parent


def overlaps(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_the_menu_has_learn_to_play_and_every_button_fits(window, home):
    from game.screens.lessons_view import LessonsView
    from game.screens.menu import MenuView

    for lang in ("en", "fr", "it"):
        i18n.set_language(lang)
        view = MenuView(window)
        window.show_view(view)
        view.on_draw()
        labels = [b.label for b in view.buttons]
        assert _("Learn to play") in labels
        boxes = [(x - w / 2, y - h / 2, x + w / 2, y + h / 2) for x, y, w, h in (b.rect for b in view.buttons)]
        sub = view.subtitle
        assert all(top < sub.y - 12 and bottom > 60 for _l, bottom, _r, top in boxes), (lang, boxes)
        assert not any(overlaps(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
        assert all(b.text.content_width <= b.rect[2] - 8 for b in view.buttons)
        view.buttons[labels.index(_("Learn to play"))].action()
        assert isinstance(window.current_view, LessonsView)
        lv = window.current_view
        lv.on_draw()
        assert all(b.text.content_width <= b.rect[2] - 8 for b in lv.buttons), lang
    i18n.set_language("en")


def test_a_lesson_at_the_table_shows_the_coach_and_is_remembered(window, home):
    from game.screens.lessons_view import LessonsView, start_lesson

    i18n.set_language("en")
    start_lesson(window, "p4-discard")
    view = window.current_view
    ctl = view.ctl
    assert isinstance(ctl, lessons.LessonController)
    t_end = time.monotonic() + 120
    while time.monotonic() < t_end:
        view.on_update(1 / 60)
        if ctl.ai.pending is not None and not ctl.ai.pending[0].done():
            time.sleep(0.002)  # the AI seat answers from the AI process
        if ctl.waiting == "trick":  # a new player's table: each trick stays until a click
            ctl.continue_()
        if ctl.can_act() and not view.table.busy:
            view.on_draw()
            # the coach's panel: on screen, clear of the status line and of the hand
            left, bottom, right, top = view.texts.coach_bounds()
            assert 0 <= left and right <= WIDTH and top <= HEIGHT
            x, y, w, h = view.texts.status_box()
            assert bottom > y + h, (bottom, y + h)
            assert "Lesson 4 of 5" in view.texts.coach.text
            # the lesson's idea at its first move, then why each move
            assert ("R6" in view.texts.coach.text) == (ctl.step_no == 0), view.texts.coach.text
            ctl.auto_move()
        if ctl.done:
            break
    for _i in range(30):
        view.on_update(1 / 60)
    view.on_draw()
    assert "Lesson complete" in view.texts.coach.text
    assert "p4-discard" in lessons.load_progress()["done"]
    view.on_back()  # Esc: back to the lessons, the lesson ticked
    assert isinstance(window.current_view, LessonsView)
    assert any(b.label.startswith("✓ 4.") for b in window.current_view.buttons)


@pytest.mark.slow
def test_autoplay_plays_a_lesson_and_lists_them(window, home, tmp_path):
    from game.autoplay import run_lesson

    out = run_lesson("s3-matto", language="it", screenshots=str(tmp_path), window=window, speed=8.0)
    assert out["lesson"] == "s3-matto" and out["steps"] == 2 and out["rules_met"] == ["S5"]
    names = sorted(Path(p).name for p in out["screenshots"])
    assert names == ["s3-matto-01.png", "s3-matto-02.png", "s3-matto-end.png"]
    assert all(Path(p).stat().st_size > 10000 for p in out["screenshots"])
    r = subprocess.run([sys.executable, "-c", "import sys; from game.cli import main; sys.exit(main())",
                        "autoplay", "--lesson", "list"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.split() == lessons.lesson_ids()
    json.dumps(out)  # the --json line


@pytest.mark.slow
def test_a_newcomer_follows_the_first_course_by_the_lit_cards_alone(window, home):
    """The guided lessons of Piedicavallo played by mouse clicks on the card the
    table shows lit (the only bright card of the hand), never asking the
    controller what to play; a discard by its bright cards, then the button."""
    from game.screens.lessons_view import start_lesson
    from tests.test_gui_helpers import card_point, click

    i18n.set_language("en")
    for lid in lessons.COURSES["piedicavallo"][:4]:
        start_lesson(window, lid)
        view = window.current_view
        ctl = view.ctl
        t_end = time.monotonic() + 120
        while not ctl.done and time.monotonic() < t_end:
            view.on_update(1 / 60)
            if ctl.ai.pending is not None and not ctl.ai.pending[0].done():
                time.sleep(0.002)
            if ctl.waiting == "trick" and not view.table.busy:
                click(view, 640, 560)  # the trick was seen: a click on the felt goes on
                continue
            if not (ctl.can_act() and not view.table.busy):
                continue
            view.on_draw()
            bright = [c for c in ctl.hand_order() if c not in view.table._dimmed]
            if ctl.view().phase == DISCARD:
                for c in bright:
                    if c not in ctl.discard.selected:
                        click(view, *card_point(view, c))
                        for _i in range(20):
                            view.on_update(1 / 60)
                view.on_draw()
                click(view, *view.toolbar.btn_confirm.rect[:2])
            else:
                assert len(bright) == 1, bright  # one card lit
                click(view, *card_point(view, bright[0]))
            assert ctl.tone != "error", view.words.say(ctl.status)
        assert ctl.done, (lid, ctl.step_no)
        view.leave()
    assert set(lessons.COURSES["piedicavallo"][:4]) <= set(lessons.load_progress()["done"])


@pytest.mark.slow
def test_every_coach_panel_fits_and_its_heading_breaks_between_phrases(window, home):
    """Every lesson in every language, at each of the player's moves: the coach's
    panel clear of the status line, and its heading two lines (where the lesson
    stands, its title) each short enough not to wrap."""
    import arcade

    from game.common.constants import FONT
    from game.screens.lessons_view import start_lesson
    from game.table.table_texts import COACH_BOX

    for lang in ("en", "fr", "it"):
        i18n.set_language(lang)
        try:
            for lid in lessons.lesson_ids():
                start_lesson(window, lid)
                view = window.current_view
                ctl = view.ctl
                t_end = time.monotonic() + 120
                moves = 0
                while not (ctl.done and (not ctl.lesson.free or moves >= 4)) and time.monotonic() < t_end:
                    view.on_update(1 / 60)
                    if ctl.ai.pending is not None and not ctl.ai.pending[0].done():
                        time.sleep(0.002)
                    if ctl.waiting == "trick":
                        ctl.continue_()
                    if not (ctl.can_act() and not view.table.busy):
                        continue
                    view.on_draw()
                    _left, bottom, _right, _top = view.texts.coach_bounds()
                    x, y, w, h = view.texts.status_box()
                    assert bottom > y + h, (lang, lid, ctl.step_no, view.texts.coach.text)
                    for line in view.texts.coach.text.split("\n")[:2]:
                        width = arcade.Text(line, 0, 0, font_size=12, font_name=FONT).content_width
                        assert width <= COACH_BOX[2], (lang, lid, line, width)
                    ctl.auto_move()
                    moves += 1
                    if ctl.lesson.free and moves >= 4:  # a coached deal: its first moves
                        break
                assert moves, (lang, lid)
                view.leave()
        finally:
            i18n.set_language("en")


def test_the_next_lesson_button_opens_the_next_lesson(window, home):
    from game.screens.lessons_view import start_lesson

    i18n.set_language("en")
    start_lesson(window, "s3-matto")
    view = window.current_view
    ctl = view.ctl
    for _i in range(20000):  # the lesson by its own moves, until it says it is over
        if ctl.done and ctl.status is not None and ctl.status.key == "lesson_done":
            break
        view.on_update(1 / 60)
        if ctl.waiting == "trick":
            ctl.continue_()
        if ctl.can_act() and not view.table.busy:
            ctl.auto_move()
    view.on_draw()
    buttons = [b for b in view.toolbar.extra if b.label == _("Next lesson")]
    assert len(buttons) == 1
    buttons[0].action()
    nxt = window.current_view
    assert nxt is not view and nxt.ctl.lesson.id == "s4-coach"
    nxt.leave()
