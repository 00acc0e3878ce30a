"""Damage rectangles (game/common/damage.py): the table redrawn in pieces is, pixel for
pixel, the table drawn whole; and the bookkeeping behind it."""

from __future__ import annotations

import time

import arcade
import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.common import damage, layout
from game.common.position import seen_by
from game.common.settings import Settings
from game.common.sound import SoundBoard
from game.table import session
from game.table.scene.sprites import OFFSCREEN
from game.table.scene.table_scene import TableScene
from game.table.table_view import TableView
from tests.test_gui_helpers import card_point, click, damaged_vs_whole, settle
from tests.test_gui_table import make_table

# --- the tracker ------------------------------------------------------------------------

BOUNDS = (0.0, 0.0, 1280.0, 720.0)


def play_error(hand: int, trick: tuple[int, ...], card: int) -> str | None:
    """The engine's reason for refusing ``card`` (None when it may be played)."""
    from engine.variants import PIEDICAVALLO

    refusal = PIEDICAVALLO.play_refusal(hand, trick, card)
    return refusal.text if refusal else None


def _items(rects: dict):
    return [damage.rect_item(k, v, v) for k, v in rects.items()]


def test_first_frame_is_whole_then_only_what_changed():
    d = damage.Damage(BOUNDS)
    a, b = (100, 100, 200, 200), (600, 400, 650, 460)
    assert d.update(_items({"a": a, "b": b})) is None  # nothing kept yet: draw it all
    assert d.update(_items({"a": a, "b": b})) == []  # nothing changed
    moved = (110, 100, 210, 200)
    assert d.update(_items({"a": moved, "b": b})) == [(100, 100, 210, 200)]  # old and new place
    assert d.update(_items({"a": moved})) == [b]  # gone: its old place is redrawn
    assert d.update(_items({"a": moved, "b": b})) == [b]  # back again
    d.invalidate()
    assert d.update(_items({"a": moved, "b": b})) is None


def test_damage_is_clipped_to_the_screen_and_most_of_it_is_a_whole_redraw():
    d = damage.Damage(BOUNDS)
    d.update(_items({"a": (0, 0, 10, 10)}))
    assert d.update(_items({"a": (-50, -50, 20, 20)})) == [(0, 0, 20, 20)]
    assert d.update(_items({"a": (0, 0, 1200, 700)})) is None


def test_distant_changes_stay_apart_and_near_ones_merge():
    d = damage.Damage(BOUNDS)
    far = {"a": (10, 10, 60, 60), "b": (1200, 650, 1250, 700)}
    d.update(_items(far))
    out = d.update(_items({k: (r[0] + 5, r[1], r[2] + 5, r[3]) for k, r in far.items()}))
    assert out is not None and len(out) == 2  # one pass each beats one huge rectangle
    near = {"a": (100, 100, 150, 150), "b": (160, 100, 210, 150)}
    d.update(_items(near))
    out = d.update(_items({k: (r[0], r[1] + 3, r[2], r[3] + 3) for k, r in near.items()}))
    assert out == [(100, 100, 210, 153)]


rect_st = st.tuples(st.integers(0, 1200), st.integers(0, 650), st.integers(1, 300), st.integers(1, 300)).map(
    lambda t: (float(t[0]), float(t[1]), float(t[0] + t[2]), float(t[1] + t[3])))


@given(st.lists(rect_st, min_size=1, max_size=150), st.integers(1, 4))
def test_merged_rectangles_cover_every_damaged_one(rects, max_rects):
    out = damage.merge(rects, damage.PASS_COST, max_rects)
    assert 1 <= len(out) <= max_rects
    for r in rects:
        assert any(o[0] <= r[0] and o[1] <= r[1] and o[2] >= r[2] and o[3] >= r[3] for o in out), (r, out)


def test_scissor_box_rounds_outwards_inside_the_letterbox():
    # a 1600x700 window letterboxes the 1280x720 table at x 178, width 1244
    vp = layout.letterbox(1600, 700)
    box = damage.to_pixels((10.2, 20.7, 30.1, 40.0), vp, (1280, 720), (1600, 700))
    x, y, w, h = box
    s = vp[2] / 1280
    assert x <= vp[0] + 10.2 * s and x + w >= vp[0] + 30.1 * s
    assert y <= 20.7 * s and y + h >= 40.0 * s
    assert damage.to_pixels((-100, -100, 5000, 5000), vp, (1280, 720), (1600, 700)) == vp


def test_headless_picture_is_kept_in_the_pbuffer(window):
    assert damage.redraw_mode(window) == "retained"


# --- the picture ------------------------------------------------------------------------


def _watch_table(window, seed: int, speed: float) -> TableView:
    game = session.new_game(partner="random", opponents="random", match=False, seed=seed, human=False,
                            players=["random"] * 4)
    view = TableView(window, game, session.ai_players(game), human_seats=frozenset(),
                     face_up_seats=frozenset({0}), settings=Settings(speed=speed, auto_advance=True, sound=False),
                     sound=SoundBoard(False), auto_continue=True)
    window.show_view(view)
    return view


def _play_out(window, view, compare_every: int = 2, first_only: bool = False) -> tuple[int, int, list]:
    """Play the deal out; every ``compare_every``-th frame is checked against a whole
    redraw.  Returns frames compared, how many of them were redrawn in pieces
    (not whole, not unchanged), and the frames that differed."""
    compared = partial = 0
    bad = []
    frame = 0
    while not (view.ctl.finished and view.score_panel is None and not view.table.busy):
        t_end = time.monotonic() + 60
        while view.ctl.ai.pending is not None and not view.ctl.ai.pending[0].done() and time.monotonic() < t_end:
            time.sleep(0.001)  # the AI answers in wall-clock time, from its own process
        view.on_update(1 / 60)
        frame += 1
        if frame % compare_every:
            view.on_draw()  # drawn with damage only: errors it leaves show on a later compared frame
            continue
        n, rects, box = damaged_vs_whole(window, view)
        compared += 1
        partial += bool(rects)
        if n:
            bad.append((frame, view.ctl.scene, n, rects, box))
            if first_only:
                break
        assert frame < 5000
    view.close()
    return compared, partial, bad


@pytest.mark.slow
def test_a_whole_deal_redrawn_in_pieces_equals_the_whole_picture(window, home):
    view = _watch_table(window, seed=3, speed=8.0)
    compared, partial, bad = _play_out(window, view)
    assert not bad, f"{len(bad)} of {compared} frames differ from a whole redraw, first: {bad[:3]}"
    assert compared > 250
    assert partial > 0.4 * compared  # the pieces, not whole redraws, were under test


@pytest.mark.slow
def test_a_forgotten_drawable_would_be_caught(window, home, monkeypatch):
    # the check above can fail: without the turn highlight among the items, the
    # highlight's old place keeps its gold when the turn moves on
    orig = TableScene.damage_items
    monkeypatch.setattr(TableScene, "damage_items", lambda self: [i for i in orig(self) if i[0] != "turn"])
    view = _watch_table(window, seed=3, speed=8.0)
    _compared, _partial, bad = _play_out(window, view, compare_every=3, first_only=True)
    assert bad


def _same(window, view, what: str, frames: int = 4) -> None:
    """``frames`` frames on, each redrawn in pieces equals the whole picture."""
    for _ in range(frames):
        view.on_update(1 / 60)
        n, rects, box = damaged_vs_whole(window, view)
        assert n == 0, f"after {what}: {n} pixels differ in {box} (redrawn: {rects})"


def _discard_by_clicks(window, view) -> None:
    a, b = view.game.legal()[0].cards
    click(view, *card_point(view, a))
    _same(window, view, "picking a card to discard", 12)
    click(view, *card_point(view, b))
    _same(window, view, "picking the second", 12)
    x, y = view.toolbar.btn_confirm.rect[:2]
    click(view, x, y)
    _same(window, view, "the discard", 30)


def _hover_and_cursor(window, view) -> None:
    for b in view.buttons:  # hover each button: highlight and tooltip come and go
        x, y = b.rect[:2]
        view.on_mouse_motion(x, y, 0, 0)
        _same(window, view, f"hovering {b.tooltip or b.label}", 2)
    view.on_mouse_motion(640, 400, 0, 0)
    _same(window, view, "leaving the buttons", 2)
    view.on_key_press(arcade.key.RIGHT, 0)
    _same(window, view, "the keyboard cursor")
    view.on_key_press(arcade.key.RIGHT, 0)
    _same(window, view, "moving the cursor")


def _hints(window, view) -> bool:
    """Ask for the hints; whether they came."""
    view.ask_hint()
    t_end = time.monotonic() + 60  # the hint is worked out in the AI process
    while not view.marks.hint_texts and time.monotonic() < t_end:
        view.on_update(1 / 60)
        view.on_draw()
        time.sleep(0.01)
    shown = bool(view.marks.hint_texts)
    _same(window, view, "the hints")
    return shown


def _illegal_click(window, view) -> int:
    """Click a card that may not be played, if there is one; 1 if the status turned
    to a warning."""
    st = view.game.state
    illegal = [c for c in layout.sorted_hand(st.hands[0], st.rules.pack)
               if play_error(st.hands[0], st.trick, c)]
    if not illegal:
        return 0
    click(view, *card_point(view, illegal[0]))
    warned = view.texts.status.color[:3] != (245, 240, 225)
    _same(window, view, "an illegal click")
    return int(warned)


def _last_trick_and_undo(window, view) -> tuple[bool, bool]:
    """Show and close the last trick, then undo; whether each happened."""
    view.show_last_trick()
    shown = bool(view.table.last_trick_overlay)
    _same(window, view, "the last trick shown")
    view.on_back()
    _same(window, view, "the last trick closed")
    cursor = view.game.cursor
    view.undo()
    undone = view.game.cursor < cursor
    _same(window, view, "undo", 40)
    settle(view, draw_every=1)
    _same(window, view, "after undo")
    return shown, undone


@pytest.mark.slow
def test_practice_table_pieces_equal_the_whole_picture_through_every_control(window, home):
    """Hover and tooltips, keyboard cursor, hints, the last trick, an illegal click, undo."""
    from engine.state import PLAY

    view = make_table(window, seed=4, practice=True)  # South deals: the discard by clicks too

    played = 0
    seen = {"hints": 0, "illegal": 0, "last trick": 0, "undo": 0, "discard": 0}
    for _turn in range(4):
        settle(view, draw_every=1)
        _same(window, view, "settling")
        if view.game.state.phase != PLAY:
            _discard_by_clicks(window, view)
            seen["discard"] += 1
            continue
        _hover_and_cursor(window, view)
        seen["hints"] += _hints(window, view)
        seen["illegal"] += _illegal_click(window, view)
        if played:
            shown, undone = _last_trick_and_undo(window, view)
            seen["last trick"] += shown
            seen["undo"] += undone
        legal = view.game.legal()
        click(view, *card_point(view, legal[0].card))
        _same(window, view, "playing a card", 40)
        played += 1
    view.close()
    assert all(seen.values()), seen


# --- covered cards --------------------------------------------------------------------


@pytest.mark.slow
def test_the_gathered_pack_draws_one_card_in_four_and_uncovers_as_it_is_dealt(window):
    game = session.new_game(partner="random", opponents="random", match=False, seed=4, human=False,
                            players=["random"] * 4)
    scene = TableScene(game.rules, ("S", "E", "N", "W"))
    pack = game.states[0]
    assert pack.deal_no == 0  # before the deal: the whole pack is in front of the dealer
    scene.snap(seen_by(pack, {0}))
    scene.prepare()
    drawn = [s for s in scene.sprites if s.visible and s.position != OFFSCREEN]
    assert len(drawn) == 16  # 62 cards, four to a place
    assert len({(s.place.x, s.place.y) for s in drawn}) == 16
    top = max(scene.sprites, key=lambda s: s.z)
    under = [s for s in scene.sprites if s is not top and s.place[:2] == top.place[:2]]
    assert under and all(s.covered for s in under)
    # the top card leaves: the next one down is drawn again, at its own place
    scene.tween_to(top, top.place._replace(x=top.place.x + 300), scene.clock, 0.2)
    scene.update(0.3)
    scene.prepare()
    nxt = max(under, key=lambda s: s.z)
    assert not nxt.covered and nxt.position == (nxt.place.x, nxt.place.y)
    assert all(s.covered for s in under if s is not nxt)


@pytest.mark.slow
def test_a_frame_drawn_between_undo_and_the_next_update_keeps_the_order(window, home):
    # snap (undo, redo, resume) sets new places; the order they are drawn in must
    # follow at once, not at the next update, or that frame's overlaps stay wrong
    from tests.test_gui_helpers import play_human_turn

    view = make_table(window, seed=12, practice=True)
    for _ in range(3):
        settle(view, draw_every=1)
        play_human_turn(view)
    settle(view, draw_every=1)
    view.on_draw()
    view.table.snap(seen_by(view.game.states[max(1, view.game.cursor - 6)], {0}))
    view.on_draw()  # drawn before any update
    view.table.update(0)
    n, rects, box = damaged_vs_whole(window, view)
    assert n == 0, f"{n} pixels differ in {box} (redrawn: {rects})"
    view.close()


def test_a_rectangle_ending_just_short_of_a_drawable_redraws_what_its_scissor_box_reaches(window, home,
                                                                                          monkeypatch):
    view = _watch_table(window, seed=3, speed=8.0)
    view._set_status("A status line")
    view.on_draw()
    view._damage.invalidate()
    view.on_draw()
    whole = window.ctx.screen.read(components=3)
    x, y, _w, h = view.texts.status_box()
    width = window.ctx.screen.size[0]
    vp = layout.letterbox(*window.get_size())
    for gap in (0.3, 0.5, 0.9, 1.4):
        # only a probe left of the status box is redrawn; its scissor box, rounded
        # outwards, takes in the box's edge, which must be drawn again, not cleared
        probe = (x - 40, y + 4, x - gap, y + h - 4)
        monkeypatch.setattr(view._damage, "update", lambda items, probe=probe: [probe])
        view.on_draw()
        monkeypatch.undo()
        part = window.ctx.screen.read(components=3)
        bx, by, bw, bh = damage.to_pixels(probe, vp, (1280, 720), window.ctx.screen.size)
        assert bx + bw > x, "the probe's box should reach the status box"
        for row in range(by, by + bh):
            a, b = (buf[(row * width + bx) * 3:(row * width + bx + bw) * 3] for buf in (part, whole))
            assert a == b, f"gap {gap}: row {row} of the probe's box differs from the whole picture"
    view.close()


@pytest.mark.slow
def test_the_theatre_redrawn_in_pieces_equals_the_whole_picture(window, home):
    """The viewer sees the table through a zoomed camera: its damage is mapped."""
    from engine.replay import read_replay
    from game.theatre.theatre import ViewerView
    from tests.test_theatre import GOLDEN

    rp = read_replay(GOLDEN / "single-seed-42.jsonl")
    view = ViewerView(window, rp, face_up=True, speed=4.0)
    window.show_view(view)
    view.toggle_play()
    compared = pieces = 0
    for i in range(700):
        view.on_update(1 / 60)
        if i == 300:
            view.seek(view.timeline.prev_trick(view.pos))  # a jump back, then playing on
        if i == 450:
            view.toggle_hands()
        if i % 2:
            view.on_draw()
            continue
        n, rects, box = damaged_vs_whole(window, view)
        assert n == 0, f"frame {i}: {n} pixels differ in {box} (redrawn: {rects})"
        compared += 1
        pieces += bool(rects)
    assert pieces > 0.3 * compared, (pieces, compared)


@pytest.mark.slow
@pytest.mark.parametrize("at", [None, 100])
def test_a_replay_screenshot_is_the_whole_picture(window, at):
    """``tarocchi replay --screenshot`` clears the window and draws once: whole."""
    from engine.replay import read_replay
    from game.theatre.theatre import render_position
    from tests.test_theatre import GOLDEN

    rp = read_replay(GOLDEN / "single-seed-42.jsonl")
    n = len(rp.events) if at is None else at
    got = render_position(window, rp, n, "t", True).convert("RGB")
    window._tarocchi_redraw_mode = "full"
    try:
        want = render_position(window, rp, n, "t", True).convert("RGB")
    finally:
        del window._tarocchi_redraw_mode
    assert got.tobytes() == want.tobytes()
