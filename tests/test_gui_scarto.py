"""Scarto at the real table, headless (EGL): the three-seat table driven by
clicks, the exchange, refusals in words, the long hands clickable and drawn
exactly, the scoring and the score sheet, the menu's choice of game, the
theatre, and the full pack's faces."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

import pytest

from engine.cards import mask_cards
from engine.players import RandomPlayer
from engine.replay import read_replay, write_replay
from engine.ruleset import ruleset
from engine.simulate import play_game
from engine.state import DISCARD, PLAY, first_dealer
from game.common import layout, paths, textures
from game.common.position import seen_by
from game.common.settings import Settings
from game.common.sound import SoundBoard
from game.table import session
from game.table.table_view import TableView
from tests.test_gui_helpers import (
    click,
    damaged_vs_whole,
    frames,
    play_human_turn,
    settle,
)
from tests.test_gui_table import _strips_vs_whole

SCARTO = ruleset("scarto")


def seed_where(dealer: int) -> int:
    return next(s for s in range(1, 500) if first_dealer(s, SCARTO) == dealer)


def scarto_table(window, seed: int, *, practice: bool = False, match: bool = False) -> TableView:
    game = session.new_game(partner="random", opponents="random", match=match, practice=practice, seed=seed,
                            variant="scarto")
    window.settings.speed = 8.0
    window.settings.auto_advance = True
    view = TableView(window, game, session.ai_players(game), human_seats=session.human_seats(game),
                     practice=practice, settings=window.settings, sound=window.sound)
    window.show_view(view)
    return view


def strip_point(view, card: int) -> tuple[float, float]:
    """The middle of the part of ``card`` its right neighbour leaves uncovered."""
    places = sorted((s.place for s in view.table.sprites if s.key[0] == "card" and 100 <= s.place.z < 300
                     and s.place.y < 300), key=lambda p: p.x)
    s = next(x for x in view.table.sprites if x.key == ("card", card))
    w = layout.card_size(s.place.scale)[0]
    i = places.index(s.place)
    strip = places[i + 1].x - s.place.x if i + 1 < len(places) else w
    return s.place.x - w / 2 + strip / 2, s.place.y


@pytest.mark.slow
def test_a_scarto_deal_by_clicks_with_the_exchange(window, home) -> None:
    view = scarto_table(window, seed_where(0))
    settle(view)
    assert view.ctl.scene == "exchange"
    view.on_draw()
    ctl = view.ctl
    hand = ctl.hand_order()
    assert len(hand) == 28  # the dealer sees 25 cards and the stock
    labels = [t.text for t in view.table.labels.name_texts]
    assert labels == ["You", "East", "West"]
    # every card of the 28 takes a click on its visible strip
    for c in hand:
        assert view.table.card_at(*strip_point(view, c), 0) == c
    # a King may not be laid aside: nothing happens but a refusal in words (S4 in its tooltip)
    king = next(c for c in hand if SCARTO.pack.codes[c].endswith("K"))
    cursor = view.game.cursor
    click(view, *strip_point(view, king))
    frames(view, 3)
    assert view.game.cursor == cursor and "King" in view.texts.status.text
    assert view.ctl.status.get("refusal").rule == "S4" and "S4" not in view.texts.status.text
    # three cards by clicks, then the button
    cards = view.game.legal()[0].cards
    for c in cards:
        click(view, *strip_point(view, c))
        frames(view, 10)
    view.on_draw()
    assert view.toolbar.btn_confirm in view.toolbar.extra and "3" in view.toolbar.btn_confirm.label
    click(view, *view.toolbar.btn_confirm.rect[:2])
    settle(view)
    st = view.game.state
    assert st.phase == PLAY and st.discard == sum(1 << c for c in cards)
    # the discard lies face down under the dealer's own pile, known to the dealer
    for c in cards:
        s = next(x for x in view.table.sprites if x.key == ("card", c))
        assert not s.face_up and s.place.scale < 0.2
    clicks = 0
    while not view.ctl.finished:
        play_human_turn(view)
        clicks += 1
        settle(view)
        assert clicks <= 25
    assert clicks == 25
    frames(view, 240)
    assert view.score_panel is not None and view.score_panel.done
    texts = " ".join(t.text for t in view.score_panel.texts)
    assert "Count" in texts and "the count less 26" in texts and "Counted in threes: 2 off every three cards" in texts
    rp = read_replay(view.ctl.replay_path)
    assert rp.header.variant == "scarto" and sum(rp.final.scores[0]) == 78


def test_when_another_seat_deals_the_stock_lies_face_down_in_the_middle(window, home) -> None:
    view = scarto_table(window, seed_where(1))
    for _ in range(1500):
        view.on_update(1 / 60)
        if view.ctl.scene == "exchange":
            break
    # the deal is over: the three cards of the stock lie face down in the middle...
    stock = [s for s in view.table.sprites if s.place in [layout.stock_place(i) for i in range(3)]]
    assert len(stock) == 3 and not any(s.face_up for s in stock)
    view.on_draw()
    assert "East takes the stock" in view.texts.status.text
    # ...and East takes them into the hand, still face down
    east_x = layout.WIDTH - layout.SIDE_X
    assert all(s.tweens and s.tweens[-1].end.x == east_x and not s.tweens[-1].end.face_up for s in stock)
    settle(view)
    # nobody else ever sees the stock or the discard: no face of it on the table
    st = view.game.state
    shown = {s.key[1] for s in view.table.sprites if s.key[0] == "card"}
    assert not shown & set(mask_cards(st.discard | st.hands[1] | st.hands[2]))
    view.close()


@pytest.mark.slow
def test_long_hands_drawn_as_strips_are_the_same_picture(window, home) -> None:
    view = scarto_table(window, seed_where(0))
    settle(view)  # 28 cards, choosing the discard
    changed, used = _strips_vs_whole(view)
    assert used >= 20 and changed == 0, (used, changed)
    play_human_turn(view)
    settle(view)  # 25 cards, playing
    changed, used = _strips_vs_whole(view)
    assert used >= 15 and changed == 0, (used, changed)
    view.close()


@pytest.mark.slow
def test_a_scarto_deal_redrawn_in_pieces_equals_the_whole_picture(window, home) -> None:
    game = session.new_game(partner="random", opponents="random", match=False, seed=seed_where(2), human=False,
                            players=["random"] * 3, variant="scarto")
    view = TableView(window, game, session.ai_players(game), human_seats=frozenset(),
                     face_up_seats=frozenset({0}), settings=Settings(speed=8.0, auto_advance=True, sound=False),
                     sound=SoundBoard(False), auto_continue=True)
    window.show_view(view)
    compared = partial = frame = 0
    bad = []
    while not (view.ctl.finished and view.score_panel is None and not view.table.busy):
        t_end = time.monotonic() + 60
        while view.ctl.ai.pending is not None and not view.ctl.ai.pending[0].done() and time.monotonic() < t_end:
            time.sleep(0.001)
        view.on_update(1 / 60)
        frame += 1
        if frame % 3:
            view.on_draw()
            continue
        n, rects, box = damaged_vs_whole(window, view)
        compared += 1
        partial += bool(rects)
        if n:
            bad.append((frame, view.ctl.scene, n, rects, box))
        assert frame < 8000
    view.close()
    assert not bad, f"{len(bad)} of {compared} frames differ from a whole redraw, first: {bad[:3]}"
    assert compared > 150 and partial > 0.4 * compared


def test_the_game_is_chosen_in_the_menu_and_remembered(window, home) -> None:
    from game.screens.menu import NewGameView

    window.settings = Settings(partner="random", opponents="random")
    v = NewGameView(window, practice=True)
    window.show_view(v)
    v.on_draw()
    assert v.b_partner in v.buttons
    click(v, *v.b_game.rect[:2])
    assert window.settings.variant == "scarto" and Settings.load().variant == "scarto"
    assert v.b_partner not in v.buttons and "Scarto" in v.b_game.label  # no partner at three
    click(v, *v.b_kind.rect[:2])
    assert "3 deals" in v.b_kind.label
    v.on_draw()
    click(v, *v.b_start.rect[:2])
    table = window.current_view
    assert isinstance(table, TableView) and table.game.rules is SCARTO
    assert table.game.header.deals == 3 and table.game.header.players == ["human", "random", "random"]
    frames(table, 5)
    table.close()
    window.settings = Settings()


def _scarto_replay(tmp_path: Path, seed: int = 3):
    g = play_game(seed, [RandomPlayer()] * 3, 1, rules=SCARTO)
    path = tmp_path / "scarto.jsonl"
    write_replay(path, g.header, g.log)
    return read_replay(path)


@pytest.mark.slow
def test_the_theatre_seeks_a_scarto_replay(window, tmp_path: Path) -> None:
    from game.theatre.theatre import ViewerView

    rp = _scarto_replay(tmp_path)
    view = ViewerView(window, rp, face_up=True)
    window.show_view(view)
    order = list(range(len(rp.events) + 1))
    random.Random(3).shuffle(order)
    for p in order[:120]:
        view.seek(p)
        st = rp.states[p]
        want = layout.table_places(seen_by(st, {0, 1, 2}))
        got = {s.key: s.place for s in view.table.sprites}
        assert got == want, p
        assert not any(s.tweens for s in view.table.sprites)
    view.toggle_hands()  # face down: only South's hand, the others as backs
    view.seek(len(rp.events) // 2)
    st = rp.states[len(rp.events) // 2]
    for seat in (1, 2):
        assert len([s for s in view.table.sprites if s.key[:2] == ("back", seat)]) == st.hands[seat].bit_count()
    view.toggle_play()
    for _ in range(200):
        view.on_update(1 / 60)
    view.on_draw()
    assert view.pos > len(rp.events) // 2
    assert "Scarto" in view.info.text


def test_a_live_scarto_ai_game_is_watched_and_saved(window, tmp_path: Path) -> None:
    from game.table.live_game import LiveGame
    from game.theatre.theatre import ViewerView

    path = tmp_path / "watch.jsonl"
    live = LiveGame(["random"] * 3, 1, 17, path, rules=SCARTO)
    view = ViewerView(window, live=live, speed=8.0)
    window.show_view(view)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        view.on_update(1 / 30)
        time.sleep(0.001)
        if live.done and view.pos == view.timeline.n and not view.playing:
            break
    assert live.done and not live.error and view.pos == len(live.game.events)
    rp = read_replay(path)
    assert rp.header.variant == "scarto" and sum(rp.final.scores[0]) == 78


def test_the_replay_browser_lists_a_scarto_game(window, home, tmp_path: Path) -> None:
    import shutil

    from game.theatre.replay_browser import ReplayBrowserView

    rp = _scarto_replay(tmp_path, seed=9)
    shutil.copy(tmp_path / "scarto.jsonl", paths.replays_dir() / "scarto.jsonl")
    view = ReplayBrowserView(window)
    window.show_view(view)
    from game.theatre.replay_list import signed

    i = [e.path.name for e in view.entries].index("scarto.jsonl")
    title, _players, _result, detail = view.row_list.lines[i - view.row_list.first]
    assert "Scarto, single deal" in title.text
    for seat, name in enumerate(("South", "East", "West")):  # a game of three AI players: each seat's score
        assert f"{name} {signed(rp.final.totals[seat])}" in detail.text
    view.on_draw()


def test_faces_for_the_full_pack(window, tmp_path: Path, monkeypatch) -> None:
    tex = textures.get()
    faces = tex.faces_for(SCARTO)
    assert len(faces) == 78 and len(tex.faces_for(ruleset("piedicavallo"))) == 62
    assert all(set(d) == {96, 84, 68} for d in faces)
    # a card drawn for a game of its own is preferred; else the shared picture
    art = tmp_path / "art"
    (art / "cards" / "scarto").mkdir(parents=True)
    (art / "cards" / "T20.png").write_bytes(b"")
    (art / "cards" / "scarto" / "T20.png").write_bytes(b"")
    monkeypatch.setenv("TAROCCHI_ART_DIR", str(art))
    assert textures.face_file("scarto", "T20") == art / "cards" / "scarto" / "T20.png"
    assert textures.face_file("piedicavallo", "T20") == art / "cards" / "T20.png"
    assert textures.face_file("scarto", "S1") is None  # not drawn yet: a placeholder
    img = textures.placeholder_face("S1")
    assert img.size == (320, 592) and img.getpixel((160, 50))[3] == 255


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["fr", "it"])
def test_the_exchange_is_worded_in_each_language(window, home, lang: str) -> None:
    from game.common import i18n

    i18n.set_language(lang)
    try:
        view = scarto_table(window, seed_where(0))
        settle(view)
        view.on_draw()
        assert view.game.state.phase == DISCARD
        want = {"fr": "talon", "it": "monte"}[lang]
        assert want in view.texts.status.text
        assert view.table.labels.name_texts[0].text == {"fr": "Vous", "it": "Tu"}[lang]
        view.close()
    finally:
        i18n.set_language("en")


def test_hint_figures_over_a_28_card_hand_do_not_overlap(window, home) -> None:
    view = scarto_table(window, seed_where(0), practice=True)
    settle(view)
    view.ask_hint()
    t_end = time.monotonic() + 60  # worked out in the AI process
    while not view.marks.hint_texts and time.monotonic() < t_end:
        frames(view, 1, draw_every=0)
        time.sleep(0.01)
    texts = view.marks.hint_texts
    assert len(texts) == len(view.ctl.hints.values) >= 20
    # neighbours stand apart, or one above the other by more than a digit is tall;
    # every other figure (one row of the two) stands apart
    texts = sorted(texts, key=lambda t: t.x)
    for a, b in zip(texts, texts[1:], strict=False):
        assert a.right <= b.left or abs(a.y - b.y) >= 1.4 * a.font_size, (a.text, a.x, a.y, b.text, b.x, b.y)
    for a, b in zip(texts, texts[2:], strict=False):
        assert a.right <= b.left, (a.text, a.x, b.text, b.x)
    # each mark stands over the strip of its own card: ★ the best, ≈ almost as good, else
    # the whole points it loses against the best (its tooltip says it in words)
    values = view.ctl.hints.values
    best = max(values.values())
    for t in texts:
        card = view.table.card_at(t.x, layout.SOUTH_Y, 0)
        assert card is not None
        loss = best - values[card]
        want = "★" if loss < 0.05 else "≈" if loss < 1 else f"−{max(1, round(loss))}"
        assert t.text == want, (t.text, loss)
    assert "★" in [t.text for t in texts]
    view.close()


@pytest.mark.slow
def test_a_scarto_game_resumes_after_a_kill(window, home) -> None:
    from game.screens.menu import MenuView

    view = scarto_table(window, seed_where(0), practice=True, match=True)
    for _ in range(4):  # the exchange, then three cards
        settle(view)
        play_human_turn(view)
    settle(view)
    n_events, state = view.game.cursor, view.game.state
    # killed: nothing closed, the view simply never updated again
    menu = MenuView(window)
    window.show_view(menu)
    assert menu.buttons[0].label == f"Resume Scarto: deal 1 of 3, trick {state.trick_no + 1}"
    click(menu, *menu.buttons[0].rect[:2])
    resumed = window.current_view
    assert isinstance(resumed, TableView) and resumed.game.rules is SCARTO
    assert resumed.game.cursor == n_events and resumed.game.state == state
    assert resumed.ctl.practice and resumed.game.header.deals == 3
    settle(resumed)
    assert resumed.ctl.can_act() and len(resumed.ctl.hand_order()) == 22
    resumed.close()


@pytest.mark.slow
def test_autoplay_plays_scarto_with_the_exchange_and_the_scoring(window, home, tmp_path, capsys) -> None:
    from engine.cli import main as engine_main
    from game.autoplay import run_autoplay
    from game.cli import main as tarocchi

    shots = tmp_path / "shots"
    out = run_autoplay(deals=1, seed=5, players=["random"] * 3, speed=8.0, screenshots=str(shots),
                       window=window, variant="scarto")
    assert sorted(p.name for p in shots.iterdir()) == ["deal.png", "exchange.png", "play.png", "scoring.png", "trick.png"]
    assert len(out["points"]) == 1 and sum(out["points"][0]) == 78
    assert engine_main(["check", out["replay"]]) == 0
    assert "ok" in capsys.readouterr().out
    # --deals is 1 or the game's length, --players one level a seat
    assert tarocchi(["autoplay", "--variant", "scarto", "--deals", "4"]) == 2
    assert "1 or 3 deals" in capsys.readouterr().err
    assert tarocchi(["autoplay", "--variant", "scarto", "--players", "random,random,random,random"]) == 2
    assert "needs 3 levels" in capsys.readouterr().err


@pytest.mark.slow
def test_the_theatre_redraws_a_scarto_replay_in_pieces_exactly(window, tmp_path: Path) -> None:
    from game.theatre.theatre import ViewerView

    rp = _scarto_replay(tmp_path, seed=4)
    view = ViewerView(window, rp, face_up=True, speed=4.0)
    window.show_view(view)
    view.toggle_play()
    compared = pieces = 0
    for i in range(500):
        view.on_update(1 / 60)
        if i == 250:
            view.toggle_hands()
        if i % 3:
            view.on_draw()
            continue
        n, rects, box = damaged_vs_whole(window, view)
        assert n == 0, f"frame {i}: {n} pixels differ in {box} (redrawn: {rects})"
        compared += 1
        pieces += bool(rects)
    assert pieces > 0.3 * compared, (pieces, compared)


@pytest.mark.slow
@pytest.mark.parametrize("dealer", [0, 1])
def test_the_pile_page_shows_the_count_in_threes_group_by_group(window, home, dealer: int) -> None:
    """At the end of a Scarto deal, "Your pile" lays out the viewer's groups as the
    engine counted them: each group's cards, its card points and what it adds; the
    count and the deal score are the sheet's; another seat's discard stays hidden."""
    import arcade

    from game.table.review_panel import ReviewPanel

    view = scarto_table(window, seed_where(dealer))
    while not view.ctl.finished:
        settle(view)
        if not view.ctl.finished:
            play_human_turn(view)
    frames(view, 300)
    view.choose("piles")
    view.on_update(1 / 60)
    view.on_draw()
    panel = view.review_panel
    assert isinstance(panel, ReviewPanel) and panel.page == "piles"
    sheet = panel.sheet
    groups = sheet.groups[sheet.viewer_side]
    view.choose("tricks")  # and the tricks page, then back to the piles
    view.on_update(1 / 60)
    view.on_draw()
    if os.environ.get("TAROCCHI_SHOTS"):
        arcade.get_image().save(Path(os.environ["TAROCCHI_SHOTS"]) / f"scarto-tricks-{dealer}.png")
    view.choose("piles")
    view.on_update(1 / 60)
    view.on_draw()
    panel = view.review_panel
    texts = [t.text for t in panel.texts]
    figures = [t for t in texts if "=" in t]
    assert len(figures) == len(groups)
    for g, fig in zip(groups, figures, strict=True):
        assert fig.startswith(str(g.points)) and fig.endswith(f"= {g.value}")
        if g.kind == "matto_trick":
            assert fig == f"{g.points} + 1 − 2 = {g.value}"
        elif g.kind in ("trick", "discard"):
            assert fig == f"{g.points} − 2 = {g.value}"
    count = next(r.values[sheet.viewer_side] for r in sheet.rows if r.strong)
    assert sum(g.value for g in groups) == count  # the groups add up to the engine's count
    assert any(t.startswith(f"Count: {count}") for t in texts)
    # every card shown is one of the viewer's groups (backs for nothing: South's own
    # discard when South dealt, none of another seat's)
    shown = len(panel.sprites)
    assert shown == sum(len(g.cards) for g in groups)
    if dealer != 0:
        assert all(g.kind != "discard" for g in groups)
        assert any("stays face down" in t for t in texts)
    else:
        assert any(g.kind == "discard" and len(g.cards) == 3 for g in groups)
    # nothing written over another text
    boxes = [(t.left, t.bottom, t.right, t.top) for t in panel.texts if t.text]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    if os.environ.get("TAROCCHI_SHOTS"):
        arcade.get_image().save(Path(os.environ["TAROCCHI_SHOTS"]) / f"scarto-piles-{dealer}.png")
    view.close()
