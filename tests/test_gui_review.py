"""The theatre in review mode (game/theatre/review_view.py, ``game.theatre.review_view.open_review``),
driven headless: it opens at once while the review runs in the AI process, steps
from one decision to the next framing your card and the AI's, draws the curve,
can be left while the review runs (the AI process drops it, nothing is left
behind), notes the accuracy in the record, and redraws in pieces exactly."""

from __future__ import annotations

import json
import os
import re
import time
from concurrent.futures import CancelledError
from pathlib import Path

import arcade
import pytest

from engine.ai import pool
from engine.players import make_player
from engine.replay import read_replay, write_replay
from engine.review import Grader
from engine.simulate import play_game
from engine.variants import SCARTO
from game.common import i18n, record
from game.common.words import cards_from_codes
from game.screens.message import MessageView
from game.table import ai_service
from game.theatre import review_chart, review_panel, review_style, review_view
from game.theatre.review_view import open_review
from tests.test_ai_service import _alive, _wait_gone
from tests.test_gui_helpers import damaged_vs_whole
from tests.test_gui_record import overlaps

#: a light review: a few rounds a decision
QUICK = Grader(rounds=4, discard_rounds=2)

GOLDEN = Path(__file__).parent / "golden"
SINGLE = GOLDEN / "single-seed-42.jsonl"
MATCH = GOLDEN / "match-seed-7.jsonl"
WAIT = 240.0  # a guard against a hang, not a measure of speed


@pytest.fixture()
def quick(monkeypatch):
    """A small search budget, an empty cache of reviews, English."""
    monkeypatch.setattr(review_view, "BUDGET", QUICK)
    review_view._cache.clear()
    i18n.set_language("en")
    yield
    review_view._cache.clear()
    i18n.set_language("en")


@pytest.fixture()
def thread_service():
    """Reviews on the AI service's link thread (the process is tested on its own below)."""
    s = ai_service.AIService(use_process=False)
    yield s
    s.close()


def finish(view) -> None:
    end = time.monotonic() + WAIT
    while view.running:
        assert time.monotonic() < end, "the review never came back"
        view.on_update(1 / 30)
        time.sleep(0.01)
    view.on_update(0.0)


def open_with(window, path, service, **kw):
    from engine.review import default_seat
    from game.theatre.review_model import pick_deal
    from game.theatre.review_view import ReviewView

    rp = read_replay(path)
    seat = kw.pop("seat", None)
    seat = default_seat(rp) if seat is None else seat
    view = ReviewView(window, rp, path, seat=seat, deal=pick_deal(rp, kw.pop("deal", None)),
                      service=service, **kw)
    window.show_view(view)
    return view


def pixels(window):
    return arcade.get_image(0, 0, *window.get_framebuffer_size()).convert("RGB")


def _check_panel(view, d) -> None:
    """The panel says the decision's label, both cards (named, never their codes) and
    their values."""
    assert view.panel.t_label.text == review_style.label_name(d.label)
    pack = view.rules.pack
    # the cards named, never their codes
    assert cards_from_codes(pack, d.played) in view.panel.t_played.text
    assert not any(re.search(rf"\b{re.escape(c)}\b", view.panel.t_played.text) for c in d.played.split())
    assert (cards_from_codes(pack, d.best) in view.panel.t_best.text) != (view.panel.t_best.text == "The AI chooses the same")
    assert (view.panel.t_best.text == "The AI chooses the same") == (set(d.best.split()) == set(d.played.split()))
    assert view.panel.t_played_v.text == f"{d.expected_played:.1f}"
    assert view.panel.t_best_v.text == f"{d.expected_best:.1f}"
    assert view.panel.t_stake.text == f"At stake: {d.loss:.1f} points"


def _check_framed(window, view, d, k: int) -> None:
    """Both cards are lifted and framed; where they differ, the frames are drawn."""
    played, best = view.framed_cards()
    assert {view.rules.pack.codes[c] for c in played} == set(d.played.split())
    assert {view.rules.pack.codes[c] for c in best} == set(d.best.split())
    assert view.raised_cards() == played | best
    assert len(view.marks.shown) == len(played | best)
    if d.best != d.played:
        img = pixels(window)
        for frame, colour, _tag in view.marks.shown:
            (x1, y1), (x2, y2) = frame[1], frame[2]  # the left side of the card
            x, y = round((x1 + x2) / 2), round(720 - (y1 + y2) / 2)
            got = {img.getpixel((x + dx, y + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
            assert colour[:3] in got, (k, colour, got)


def _check_moves_between_decisions(view, m) -> None:
    """From the last decision: the keys and buttons step between decisions, the usual
    playback goes on between them, a click on the chart goes to the nearest one, H
    shows every hand then yours alone."""
    view.on_key_press(arcade.key.PAGEUP, 0)
    assert view.pos == m.positions[-2]
    view.on_key_press(arcade.key.P, 0)
    assert view.pos == m.positions[-3]
    view.on_key_press(arcade.key.PAGEDOWN, 0)
    assert view.pos == m.positions[-2]
    # the buttons
    view.prev_button.press()
    assert view.pos == m.positions[-3]
    view.next_button.press()
    assert view.pos == m.positions[-2]
    # the usual playback goes on between decisions; the panel shows the last one passed
    view.on_key_press(arcade.key.RIGHT, 0)
    assert view.pos == m.positions[-2] + 1 and view.framed_cards() == (frozenset(), frozenset())
    view.on_draw()
    assert view.panel.t_count.text == f"{len(m) - 1}/{len(m)}"
    # a click on the chart goes to the nearest decision
    pts = m.curve()
    x, _y = view.chart.xy(pts[2].trick, pts[2].played)
    view.on_click(x, review_chart.CHART_BOX[1] + 60, 1)
    assert view.pos == m.positions[2]
    # H: every hand, then yours alone
    view.on_key_press(arcade.key.H, 0)
    assert view.face_up == set(range(4))
    view.on_key_press(arcade.key.H, 0)
    assert view.face_up == {0}


@pytest.mark.slow
def test_open_review_opens_at_once_and_steps_through_the_decisions(window, quick, monkeypatch):
    started = []
    real = ai_service.submit_long
    monkeypatch.setattr(ai_service, "submit_long", lambda *a, **k: (started.append(a), real(*a, **k))[1])
    back = []
    view = open_review(window, SINGLE, back=lambda: back.append(1))
    assert window.current_view is view and started and view.running
    m = view.model
    assert view.pos == m.positions[0] and view.face_up == {0}  # your hand, at your first decision
    view.on_draw()
    assert view.panel.t_label.text == "Reviewing…" and "decisions" in view.panel.t_mean.text
    finish(view)
    assert m.ready and not view.running and not view.error
    view.on_draw()
    # every step: the panel says the label, both cards and values; both cards are lifted and framed
    seen_labels = set()
    for k, p in enumerate(m.positions):
        assert view.pos == p
        d = m.steps[k]
        view.on_draw()
        _check_panel(view, d)
        _check_framed(window, view, d, k)
        seen_labels.add(d.label)
        view.on_key_press(arcade.key.N, 0)
    assert view.pos == m.positions[-1]
    assert len(seen_labels) >= 2
    _check_moves_between_decisions(view, m)
    view.on_key_press(arcade.key.ESCAPE, 0)
    assert back == [1]


@pytest.mark.slow
def test_the_curve_and_the_summary_are_drawn(window, quick, thread_service):
    view = open_with(window, SINGLE, thread_service)
    finish(view)
    view.goto_step(3)
    view.on_update(0.0)
    view.forget_picture()
    view.on_draw()
    img = pixels(window)
    m = view.model
    left, bottom, w, h = review_chart.CHART_BOX
    chart = set(img.crop((left, 720 - bottom - h, left + w, 720 - bottom)).getdata())
    for p in m.curve():  # each point in its label's colour
        assert review_style.LABEL_COLOURS[p.label][:3] in chart
    assert review_style.AI_COLOUR[:3] in chart or all(p.best - p.played <= 0.05 for p in m.curve())
    assert (236, 196, 92) in chart  # the result, and the current decision's ring
    assert view.panel.t_summary.text == f"Accuracy {m.accuracy:.0f}%"
    assert [t.text for t, _c in view.panel.t_rows] == ["Best", "Good", "Inaccuracy", "Mistake", "Blunder"]
    assert sum(int(c.text) for _t, c in view.panel.t_rows) == len(m)
    # the seek bar marks each decision in its label's colour
    from game.theatre.theatre import BAR

    bl, cy, bw, bh = BAR
    bar = set(img.crop((bl, 720 - cy - bh // 2, bl + bw, 720 - cy + bh // 2)).getdata())
    assert {review_style.LABEL_COLOURS[d.label][:3] for d in m.steps} <= bar


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_the_panel_fits_in_each_language(window, quick, thread_service, tmp_path, lang):
    f = scarto_file(tmp_path / "s.jsonl", dealer=0)
    view = open_with(window, f, thread_service)
    finish(view)
    i18n.set_language(lang)
    view = open_with(window, f, thread_service)  # the cached review, texts in this language
    assert not view.running and view.model.ready
    left, bottom, w, h = review_panel.PANEL_BOX
    for k in (0, 1, len(view.model) - 1):
        view.goto_step(k)
        view.on_update(0.0)
        view.on_draw()
        boxes = []
        for t in view.panel.texts:
            if not t.text:
                continue
            tw, th = t.content_width, t.content_height
            tl = {"left": t.x, "center": t.x - tw / 2, "right": t.x - tw}[t.anchor_x]
            boxes.append((tl, t.y - th / 2, tl + tw, t.y + th / 2, t.text))
        for b in boxes:
            assert left <= b[0] and b[2] <= left + w, (lang, b)
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                assert not overlaps(a, b, 2.0), (lang, a, b)
        for b in (view.prev_button, view.next_button):
            assert b.text.content_width <= b.rect[2] - 6, (lang, b.label)
    if lang != "en":
        assert view.panel.t_where.text != "Your discard" and view.panel.t_rows[0][0].text != "Best"


def scarto_file(dest: Path, dealer: int) -> Path:
    for seed in range(1, 60):
        g = play_game(seed, [make_player(x) for x in ("easy", "random", "random")], rules=SCARTO)
        if g.events[0].dealer == dealer:  # type: ignore[union-attr]
            write_replay(dest, g.header, g.events)
            return dest
    raise AssertionError("no seed dealt by that seat")


@pytest.mark.slow
def test_scarto_review_starts_at_the_dealers_discard_of_three(window, quick, thread_service, tmp_path):
    view = open_with(window, scarto_file(tmp_path / "s.jsonl", dealer=0), thread_service)
    finish(view)
    m = view.model
    assert m.kinds[0] == "discard" and view.pos == m.positions[0]
    view.on_draw()
    assert view.panel.t_where.text == "Your discard"
    played, best = view.framed_cards()
    assert len(played) == 3 and len(best) == 3
    assert len(view.marks.shown) == len(played | best)
    # the tags of neighbouring cards do not lie on each other
    tags = [(t.x - t.content_width / 2, t.y - 8, t.x + t.content_width / 2, t.y + 8) for _f, _c, t in view.marks.shown]
    for i, a in enumerate(tags):
        for b in tags[i + 1:]:
            assert not overlaps(a, b, 0.5), (a, b)
    assert m.x_range() == (0, 25)
    view.on_key_press(arcade.key.N, 0)
    view.on_draw()
    assert view.panel.t_where.text.startswith("Trick ")


@pytest.mark.slow
def test_a_match_is_reviewed_one_deal_at_a_time(window, quick, thread_service):
    view = open_with(window, MATCH, thread_service, deal=2)
    m = view.model
    start, end = m.start, m.end
    assert all(start <= p <= end for p in m.positions)
    finish(view)
    assert all(d.deal == 2 for d in m.steps)
    view.seek(len(view.timeline.events))  # another deal: the panel says whose review this is
    view.on_update(0.0)
    view.on_draw()
    assert view.panel.t_where.text == "Review of deal 2" and view.panel.t_label.text == "Outside this deal"
    # D: the next deal's review in its place (this one's stops), Shift+D back (reviewed: at once)
    assert view.deal_button is not None and view.deal_button.label == "Deal 2/4"
    view.on_key_press(arcade.key.D, 0)
    third = window.current_view
    assert third is not view and third.deal == 3 and third.running and third.back is view.back
    third.on_key_press(arcade.key.D, arcade.key.MOD_SHIFT)
    again = window.current_view
    assert again.deal == 2 and not again.running and again.model.ready and not third.running
    assert [d.index for d in again.model.steps] == [d.index for d in m.steps]
    again.deal_button.press()  # the button: the next deal
    assert window.current_view.deal == 3
    window.current_view.on_back()


@pytest.mark.slow
def test_the_review_runs_in_the_ai_process_and_can_be_left_at_any_time(window, quick, monkeypatch, tmp_path):
    monkeypatch.setattr(review_view, "BUDGET", None)  # the hard level's search: seconds of work
    svc = ai_service.AIService(use_process=True)
    try:
        helper = svc.submit(os.getpid).result(timeout=60)
        workers = svc.submit(pool.worker_pids).result(timeout=60)
        assert helper != os.getpid()
        back = []
        view = open_with(window, scarto_file(tmp_path / "s.jsonl", dealer=1), svc, back=lambda: back.append(1))
        call = view.call
        assert call is not None and view.running
        # frames go on while the helper works: the progress shown climbs
        seen = set()
        end = time.monotonic() + WAIT
        while len(seen) < 2:
            assert time.monotonic() < end and view.running
            view.on_update(0.12)
            view.on_draw()
            if view.progress:
                seen.add(view.progress[0])
            time.sleep(0.02)
        assert view.panel.t_mean.text.startswith(f"{view.progress[0]} of ")
        # leave in the middle: back at once, the call stopped, its answer never taken
        view.on_key_press(arcade.key.ESCAPE, 0)
        assert back == [1] and not view.running
        with pytest.raises((ai_service.Stopped, CancelledError)):
            call.result(timeout=WAIT)
        assert call.done() and not os.path.exists(call.folder)
        assert not view.model.ready
        view.on_update(1.0)
        assert not view.model.ready  # nothing taken after leaving
        assert svc.submit(os.getpid).result(timeout=60) == helper  # the helper is free, and the same
    finally:
        svc.close()
    assert _wait_gone([helper, *workers]) == []


@pytest.mark.slow
def test_a_hidden_review_view_stops_its_review(window, quick, tmp_path):
    svc = ai_service.AIService(use_process=True)
    try:
        view = open_with(window, scarto_file(tmp_path / "s.jsonl", dealer=2), svc)
        call = view.call
        window.show_view(MessageView(window, "elsewhere"))  # replaced by another screen
        assert not view.running
        with pytest.raises((ai_service.Stopped, CancelledError)):  # or cancelled before it began
            call.result(timeout=WAIT)
        assert svc.submit(int, "3").result(timeout=60) == 3
        helper = svc._proc.pid
        assert _alive(helper)
    finally:
        svc.close()
    assert _wait_gone([helper]) == []


@pytest.mark.slow
def test_a_finished_review_notes_its_accuracy_in_the_record(window, home, quick, thread_service):
    from game.screens.record_view import ACCURACY, RecordView
    from tests.test_record import golden

    files = []
    for i in range(2):
        f = golden("single-seed-42.jsonl", home / "replays" / f"d{i}.jsonl",
                   players=["human", "medium", "medium", "medium"], created=f"2026-03-0{i + 1}T10:00:00Z")
        record.note_replay(f)
        files.append(f)
    sc = scarto_file(home / "replays" / "s.jsonl", dealer=0)
    record.note_replay(sc)
    got = {}
    for f in [*files, sc]:
        review_view._cache.clear()
        view = open_with(window, f, thread_service)
        finish(view)
        assert view.accuracy_saved is not None
        view.accuracy_saved.join(60)
        got[str(f.resolve())] = round(view.model.accuracy, 2)
    con = record.connect()
    try:
        # the Scarto file is an AI-only game: kept in the record, counted apart
        rows = {r.file: r.accuracy for r in
                [*record.deal_rows(con), *record.deal_rows(con, ai_only=True)]}
    finally:
        con.close()
    assert rows == got
    # the record screen's accuracy chart fills in
    view = RecordView(window, "piedicavallo")
    window.show_view(view)
    view.on_update(1 / 60)
    view.on_draw()
    assert view.summary["reviewed"] == 2
    assert not any(t.text.startswith("No deal reviewed yet") for t in view.texts)
    img = pixels(window)
    left, bottom, w, h = ACCURACY
    assert (120, 190, 255) in set(img.crop((left + 60, 720 - bottom - h + 50, left + w - 90,
                                            720 - bottom - 40)).getdata())


@pytest.mark.slow
def test_a_review_of_the_autosave_or_of_another_seat_is_not_noted(window, home, quick, thread_service):
    from game.common import paths
    from tests.test_record import golden

    auto = golden("single-seed-42.jsonl", paths.autosave_path(), players=["human", "easy", "easy", "easy"],
                  created="2026-03-01T10:00:00Z")
    view = open_with(window, auto, thread_service)
    finish(view)
    assert view.model.ready and view.accuracy_saved is None
    f = golden("single-seed-42.jsonl", home / "replays" / "x.jsonl", players=["human", "easy", "easy", "easy"],
               created="2026-03-02T10:00:00Z")
    record.note_replay(f)
    view = open_with(window, f, thread_service, seat=1)
    finish(view)
    view.accuracy_saved.join(60)
    con = record.connect()
    try:
        assert [r.accuracy for r in record.deal_rows(con)] == [None]
    finally:
        con.close()


def test_a_file_that_cannot_be_reviewed_says_why(window, quick, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    back = []
    assert open_review(window, bad, back=lambda: back.append(1)) is None
    view = window.current_view
    assert isinstance(view, MessageView) and view.title.text == "This deal cannot be reviewed"
    view.on_key_press(arcade.key.ESCAPE, 0)
    assert back == [1]
    assert open_review(window, SINGLE, seat=7) is None
    assert "seat 7" in window.current_view.text.text
    assert open_review(window, MATCH, deal=9) is None
    empty = tmp_path / "empty.jsonl"
    empty.write_text(SINGLE.read_text().splitlines()[0] + "\n")
    assert open_review(window, empty) is None
    assert json.loads(empty.read_text())["seed"] == 42  # untouched


@pytest.mark.slow
def test_review_mode_redrawn_in_pieces_equals_the_whole_picture(window, home, quick, thread_service):
    view = open_with(window, SINGLE, thread_service)
    compared = pieces = 0

    def check(i):
        nonlocal compared, pieces
        n, rects, box = damaged_vs_whole(window, view)
        assert n == 0, f"frame {i}: {n} pixels differ in {box} (redrawn: {rects})"
        compared += 1
        pieces += bool(rects)

    for i in range(6):  # while the review runs: the progress
        view.on_update(0.2)
        check(i)
    finish(view)
    check("in")
    actions = [lambda: view.on_key_press(arcade.key.N, 0), lambda: view.on_key_press(arcade.key.N, 0),
               lambda: view.on_key_press(arcade.key.P, 0),
               lambda: view.on_mouse_motion(*_window_xy(window, view.next_button.rect), 0, 0),
               lambda: view.on_mouse_motion(5, 5, 0, 0),
               lambda: view.on_key_press(arcade.key.H, 0), lambda: view.on_key_press(arcade.key.N, 0),
               lambda: view.on_key_press(arcade.key.H, 0),
               lambda: view.on_click(review_chart.CHART_BOX[0] + 200, review_chart.CHART_BOX[1] + 50, 1),
               lambda: view.on_key_press(arcade.key.RIGHT, 0), view.toggle_play]
    for j, act in enumerate(actions):
        act()
        view.on_update(1 / 60)
        check(f"action {j}")
    for i in range(240):  # playback through decisions
        view.on_update(1 / 30)
        if i % 3 == 0:
            check(f"play {i}")
        else:
            view.on_draw()
    assert pieces > 0.3 * compared, (pieces, compared)


def _window_xy(window, rect):
    return rect[0], rect[1]  # the test window is 1280x720: logical = window pixels
