"""The play table driven like a player: synthetic clicks on the real view,
headless (EGL), pixels read back from the frame."""

from __future__ import annotations

import time

import arcade
import pytest

from engine.replay import read_replay
from engine.state import PLAY, CardPlayed
from game.common import layout, paths
from game.table import session
from game.table.table_view import TableView
from tests.test_gui_helpers import card_point, click, frames, play_human_turn, settle


def play_error(hand: int, trick: tuple[int, ...], card: int) -> str | None:
    """The engine's reason for refusing ``card`` (None when it may be played)."""
    from engine.variants import PIEDICAVALLO

    refusal = PIEDICAVALLO.play_refusal(hand, trick, card)
    return refusal.text if refusal else None


def make_table(window, *, seed=7, practice=False, match=False, levels="random"):
    game = session.new_game(partner=levels, opponents=levels, match=match, practice=practice, seed=seed)
    window.settings.speed = 8.0
    window.settings.auto_advance = True
    view = TableView(window, game, session.ai_players(game), human_seats=session.human_seats(game),
                     practice=practice, settings=window.settings, sound=window.sound)
    window.show_view(view)
    return view


@pytest.mark.slow
def test_whole_deal_by_clicks(window, home):
    view = make_table(window, seed=11)
    clicks = 0
    while True:
        settle(view)
        if view.ctl.finished:
            break
        before = view.game.cursor
        play_human_turn(view)
        clicks += 1
        assert view.game.cursor > before, view.texts.status.text
        assert clicks < 40
    assert view.ctl.scene == "scoring" or view.score_panel is None
    assert clicks >= 15  # 15 cards, plus the discard when South deals
    st = view.game.state
    assert len(st.scores) == 1 and sum(st.scores[0]) == 114
    assert view.ctl.replay_path and view.ctl.replay_path.parent == paths.replays_dir()
    rp = read_replay(view.ctl.replay_path)
    assert rp.final.scores == st.scores
    assert not paths.autosave_path().exists()  # a finished game leaves no autosave


def _first_illegal(view):
    st = view.game.state
    for c in layout.sorted_hand(st.hands[0], st.rules.pack):
        if play_error(st.hands[0], st.trick, c):
            return c
    return None


def test_illegal_click_is_refused_with_its_rule(window, home):
    # find a decision of South where some card is illegal, clicking legal cards meanwhile
    view = make_table(window, seed=5)
    for _ in range(40):
        settle(view)
        assert not view.ctl.finished, "no illegal card came up"
        st = view.game.state
        if st.phase == PLAY:
            bad = _first_illegal(view)
            if bad is not None:
                break
        play_human_turn(view)
    cursor = view.game.cursor
    click(view, *card_point(view, bad))
    frames(view, 3)
    assert view.game.cursor == cursor  # nothing happened in the game
    # in words; the rule id only in the status line's tooltip
    assert "R7" not in view.texts.status.text
    assert view.words.refusal_rule(view.ctl.status.get("refusal")) == "Rule R7 (see Rules)"
    reason = play_error(st.hands[0], st.trick, bad)
    assert reason.split(" ")[-2] in view.texts.status.text or "trump" in view.texts.status.text
    # the illegal card is drawn dimmed, the legal ones raised
    sprites = {s.key: s for s in view.table.sprites}
    assert tuple(sprites[("card", bad)].color[:3]) != (255, 255, 255)
    legal = view.game.legal()[0].card
    assert sprites[("card", legal)].place.y > sprites[("card", bad)].place.y


def _table_snapshot(view):
    return sorted(((s.key, s.place) for s in view.table.sprites if not s.place.hidden), key=repr)


@pytest.mark.slow
def test_undo_in_practice_restores_hand_and_table(window, home):
    view = make_table(window, seed=3, practice=True)
    snapshots = []
    for _ in range(4):
        settle(view)
        frames(view, 30)
        snapshots.append((view.game.cursor, view.game.state, _table_snapshot(view)))
        play_human_turn(view)
    settle(view)
    frames(view, 30)
    # back three decisions with Ctrl+Z, then forward one with the redo button
    for _ in range(3):
        view.on_key_press(arcade.key.Z, arcade.key.MOD_CTRL)
    settle(view)
    frames(view, 30)
    cursor, state, table = snapshots[1]
    assert view.game.cursor == cursor
    assert view.game.state == state
    assert _table_snapshot(view) == table
    view.on_draw()
    x, y = view.toolbar.btn_redo.rect[:2]
    click(view, x, y)
    settle(view)
    frames(view, 30)
    cursor, state, table = snapshots[2]
    assert view.game.state == state
    assert _table_snapshot(view) == table
    # the replay is marked as practice
    view.close()
    rp = read_replay(paths.autosave_path(), tolerate_torn=True)
    assert rp.header.extra.get("practice") is True


@pytest.mark.slow
def test_resume_after_a_kill(window, home):
    view = make_table(window, seed=21)
    for _ in range(3):
        settle(view)
        play_human_turn(view)
    settle(view)
    n_events = view.game.cursor
    state = view.game.state
    # a kill: nothing is closed (the view is simply never updated again); and the
    # last line was torn mid-write
    with open(paths.autosave_path(), "a", encoding="utf-8") as f:
        f.write('{"type": "pla')
    from game.screens.menu import MenuView

    menu = MenuView(window)
    window.show_view(menu)
    # the entry says what it resumes: the game and the trick the kill left
    assert menu.buttons[0].label == f"Resume Piedicavallo: trick {state.trick_no + 1}"
    menu.on_draw()
    assert "interrupted" in menu.notice.text
    x, y = menu.buttons[0].rect[:2]
    click(menu, x, y)
    resumed = window.current_view
    assert isinstance(resumed, TableView)
    assert resumed.game.cursor == n_events
    assert resumed.game.state == state
    settle(resumed)
    assert resumed.ctl.can_act()
    resumed.close()


def test_screenshot_shows_south_faces_and_north_backs(window, home):
    view = make_table(window, seed=9)
    settle(view)
    frames(view, 20)
    view.table.set_dimmed(())  # undim the illegal cards: we look at faces, not at rules
    view.on_draw()
    img = arcade.get_image().convert("RGB")
    cards = [s for s in view.table.sprites if s.key[0] == "card" and 100 <= s.place.z < 300]
    assert len(cards) >= 15

    def bright_share(box):
        x0, y0, x1, y1 = (int(v) for v in box)
        crop = img.crop((x0, 720 - y1, x1, 720 - y0)).resize((60, 30))
        px = list(crop.getdata())
        return sum(1 for r, g, b in px if r > 200 and g > 190 and b > 150) / len(px)

    def mean(px, py, r=5):
        vals = [img.getpixel((int(px + dx), int(720 - py + dy))) for dx in range(-r, r) for dy in range(-r, r)]
        return [sum(v[i] for v in vals) / len(vals) for i in range(3)]

    xs = [c.center_x for c in cards]
    # South's hand: cream card faces; North's hand: dark backs
    assert bright_share((min(xs) - 40, 40, max(xs) + 40, 180)) > 0.25
    assert bright_share((500, 620, 780, 700)) < 0.08
    # the felt is green (left of the trick's ring, where nothing else lies)
    felt = mean(330, 300)
    assert felt[1] > felt[0] and felt[1] > felt[2]


@pytest.mark.parametrize("missing", [True])
def test_missing_art_is_named_not_a_traceback(window, home, monkeypatch, missing):
    from game.common import textures
    from game.screens.message import MessageView
    from game.table import table_view

    def boom():
        raise textures.MissingAssets([paths.card_path("SK")])

    monkeypatch.setattr(textures, "get", boom)
    game = session.new_game(partner="random", opponents="random", match=False, seed=1)
    table_view.start_table(window, game)
    v = window.current_view
    assert isinstance(v, MessageView)
    assert "SK.png" in v.text.text
    v.on_draw()


def test_ai_cards_fly_to_the_centre(window, home):
    view = make_table(window, seed=13)
    # run until some AI card is on its way to the trick
    e = None
    t_end = time.monotonic() + 120
    for _ in range(3000):
        frames(view, 1, draw_every=0)
        while view.ctl.ai.pending is not None and not view.ctl.ai.pending[0].done() and time.monotonic() < t_end:
            time.sleep(0.001)  # the AI answers in wall-clock time, from its own process
        last = view.game.events[view.ctl.shown - 1] if view.ctl.shown else None
        if isinstance(last, CardPlayed) and last.seat != 0:
            e = last
            break
        if view.ctl.can_act():
            play_human_turn(view)
    assert e is not None
    s = next(x for x in view.table.sprites if x.key == ("card", e.card))
    assert s.tweens, "the AI card moves"
    end = s.tweens[-1].end
    assert end.z >= 300 and end.face_up  # lands face up in the trick
    order = len(view.game.states[view.ctl.shown].trick) - 1
    assert end == layout.trick_place(e.seat, order)


def _frame_pixels(view):
    view.on_draw()
    return arcade.get_image().convert("RGB")


def _strips_vs_whole(view):
    """The frame drawn with strips, then with whole cards: (pixels that differ, strips used)."""
    from PIL import ImageChops

    table = view.table
    hands = table.hands
    hands.forget_strips()
    with_strips = _frame_pixels(view)
    used = sum(1 for s in table.sprites if id(s.texture) in hands.strip_ids)
    real = table.tex.strips
    try:
        table.tex.strips = {}
        hands.forget_strips()
        whole = _frame_pixels(view)
        assert not any(id(s.texture) in hands.strip_ids for s in table.sprites)
    finally:
        table.tex.strips = real
        hands.forget_strips()
    diff = ImageChops.difference(with_strips, whole).convert("L")
    return sum(1 for v in diff.getdata() if v), used


@pytest.mark.slow
def test_resting_hand_strips_draw_the_same_picture(window, home):
    """South's resting hand is drawn as strips and bands (fewer pixels to fill);
    the frame must be the same as with whole cards: raised and dimmed cards, the
    keyboard cursor, a 17-card dealer's hand."""
    view = make_table(window, seed=11)
    settle(view)  # South to play: legal cards raised, the others dimmed
    changed, used = _strips_vs_whole(view)
    assert used >= 5, "the resting hand should be drawn as strips"
    assert changed == 0, f"{changed} pixels differ between strips and whole cards"
    view.ctl.keys.index = 3  # the keyboard cursor's outline goes round the card's place
    changed, used = _strips_vs_whole(view)
    assert changed == 0 and used >= 5
    view.ctl.keys.index = -1
    _frame_pixels(view)
    assert any(id(s.texture) in view.table.hands.strip_ids for s in view.table.sprites)
    # South deals: 17 cards in hand while discarding
    for seed in range(1, 60):
        view = make_table(window, seed=seed)
        settle(view)
        if view.game.state.hands[0].bit_count() == 17:
            break
    else:
        raise AssertionError("no seed with South dealing")
    changed, used = _strips_vs_whole(view)
    assert used >= 14 and changed == 0, (used, changed)


@pytest.mark.parametrize("lang,want", [("en", "AI for Bruno"), ("fr", "IA pour Bruno"), ("it", "IA per Bruno")])
def test_a_seat_the_ai_plays_for_its_friend_says_so_on_its_plate(window, home, lang, want):
    """The session says the AI now plays a friend's seat (the server's takeover): the
    plate keeps the seat's name and its second line says for whom, in place of the
    friend's name, even where the cards held no longer fit beside it; back to the
    name once the friend is back."""
    from game.common import i18n
    from game.table.table_session import Notice

    i18n.set_language(lang)
    try:
        view = make_table(window, seed=11)
        view._plates = (view._plates[0], ["", "Bruno", "medium", "medium"], ("", "Bruno", "", ""))
        frames(view, 30)
        seat_name = view.table.labels.name_texts[1].text
        view.ctl.notices.hear(Notice("stand_ins", data={"seats": [1]}))
        view.on_draw()
        assert view.table.labels.name_texts[1].text == seat_name
        assert view.table.labels.counts[1].text.startswith(want)
        view.ctl.notices.hear(Notice("stand_ins", data={"seats": []}))
        view.on_draw()
        assert view.table.labels.counts[1].text.startswith("Bruno")
        view.close()
    finally:
        i18n.set_language("en")
