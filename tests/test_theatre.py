"""The replay theatre, driven headless: seeking lays the table exactly as the
engine's state; playback, keys, bad files, a live AI game, and screenshots."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden"


def _region(place, layout, const) -> tuple:
    """Where a card lies, told by geometry alone (not by the layout's own keys)."""
    x, y = place.x, place.y
    if place.scale == const.PILE_SCALE:
        team = min((0, 1), key=lambda t: math.dist((x, y), layout.PILE_POS[t]))
        assert math.dist((x, y), layout.PILE_POS[team]) < 60
        return ("pile", team)
    if place.scale == const.DECK_SCALE:
        return ("deck",)
    if math.dist((x, y), layout.CENTRE) < 170 and place.scale != const.SMALL_SCALE:
        return ("trick",)
    left, _bottom, right, _top = layout.OPEN_SIDE_BOX  # West's open hand; East's is its mirror
    if left <= x <= right:
        return ("hand", 3)
    if layout.WIDTH - right <= x <= layout.WIDTH - left:
        return ("hand", 1)
    if y >= layout.NORTH_Y - 10:
        return ("hand", 2)
    assert y < 260, place
    return ("hand", 0)


def _expected(state) -> dict[int, tuple]:
    from engine.cards import mask_cards

    if state.deal_no == 0:
        return {c: ("deck",) for c in range(62)}
    out: dict[int, tuple] = {}
    for seat in range(4):
        for c in mask_cards(state.hands[seat]):
            out[c] = ("hand", seat)
    for t in (0, 1):
        for c in mask_cards(state.piles[t]):
            out[c] = ("pile", t)
    if state.discard_trumps >= 0:
        for c in mask_cards(state.discard):
            out[c] = ("pile", state.dealer & 1)
    for c in state.trick:
        out[c] = ("trick",)
    return out


def _laid(view, layout, const) -> dict[int, tuple]:
    out = {}
    for s in view.table.sprites:
        assert not s.tweens, "animation debris after a seek"
        if s.visible:
            assert (s.center_x, s.center_y) == (s.place.x, s.place.y)
        kind, ident = s.key[0], s.key[1]
        assert kind == "card" or ident == "deck", f"a face-down card {s.key} with every hand face up"
        if kind == "card":
            out[ident] = region = _region(s.place, layout, const)
            assert s.face_up == (region[0] in ("hand", "trick")), (s.key, region)
    return out


@pytest.mark.slow
def test_seek_every_event_of_a_match_in_random_order(window) -> None:
    from engine.replay import read_replay
    from game.common import constants as const
    from game.common import layout
    from game.theatre.theatre import ViewerView

    rp = read_replay(GOLDEN / "match-seed-7.jsonl")
    view = ViewerView(window, rp, face_up=True)
    window.show_view(view)
    order = list(range(len(rp.events) + 1))
    random.Random(7).shuffle(order)
    slowest = 0.0
    for p in order:
        t0 = time.perf_counter()
        view.seek(p)
        slowest = max(slowest, time.perf_counter() - t0)
        st = rp.states[p]
        laid = _laid(view, layout, const)
        if st.deal_no == 0:
            assert all(s.key[1] == "deck" for s in view.table.sprites)
            continue
        assert laid == _expected(st), f"position {p}"
    view.on_draw()
    print(f"slowest seek: {slowest * 1000:.1f} ms")


@pytest.mark.slow
def test_face_down_hands_show_only_counts(window) -> None:
    from engine.replay import read_replay
    from game.theatre.theatre import ViewerView

    rp = read_replay(GOLDEN / "single-seed-42.jsonl")
    view = ViewerView(window, rp, face_up=False)
    for p in (2, 30, 60):
        view.seek(p)
        st = rp.states[p]
        for seat in (1, 2, 3):
            backs = [s for s in view.table.sprites if s.key[:2] == ("back", seat)]
            assert len(backs) == st.hands[seat].bit_count()
            assert not any(s.face_up for s in backs)
        south = {s.key[1] for s in view.table.sprites if s.key[0] == "card" and s.place.y < 260
                 and s.place.scale > 0.2}
        assert south >= set(__import__("engine.cards").cards.mask_cards(st.hands[0]))


@pytest.mark.slow
def test_keys_step_and_playback(window) -> None:
    import arcade

    from engine.replay import read_replay
    from engine.state import TrickTaken
    from game.theatre.theatre import ViewerView

    rp = read_replay(GOLDEN / "single-seed-42.jsonl")
    view = ViewerView(window, rp)
    window.show_view(view)
    view.on_key_press(arcade.key.RIGHT, 0)
    assert view.pos == 1
    view.on_key_press(arcade.key.RIGHT, arcade.key.MOD_SHIFT)
    assert view.pos > 2 and isinstance(rp.events[view.pos - 1], TrickTaken)
    view.on_key_press(arcade.key.LEFT, arcade.key.MOD_SHIFT)
    assert view.pos == 1
    view.on_key_press(arcade.key.END, 0)
    assert view.pos == len(rp.events)
    view.on_key_press(arcade.key.HOME, 0)
    view.on_key_press(arcade.key.PLUS, 0)
    view.on_key_press(arcade.key.PLUS, 0)
    view.on_key_press(arcade.key.PLUS, 0)
    view.on_key_press(arcade.key.PLUS, 0)
    assert view.table.speed == 8.0
    view.on_key_press(arcade.key.SPACE, 0)
    assert view.playing
    for _ in range(240):  # four seconds of frames at 8x
        view.on_update(1 / 60)
    assert view.pos > 10
    view.on_key_press(arcade.key.SPACE, 0)
    p = view.pos
    for _ in range(30):
        view.on_update(1 / 60)
    assert view.pos == p  # paused
    # The table is laid exactly as the state once the animations are over.
    for _ in range(120):
        view.on_update(1 / 60)
    laid = {s.key: (s.center_x, s.center_y) for s in view.table.sprites}
    view.seek(view.pos)
    assert {s.key: (s.center_x, s.center_y) for s in view.table.sprites} == laid
    view.on_draw()


def test_seek_bar_click(window) -> None:
    from engine.replay import read_replay
    from game.theatre.theatre import BAR, ViewerView

    rp = read_replay(GOLDEN / "match-seed-7.jsonl")
    view = ViewerView(window, rp)
    view.on_click(BAR[0] + BAR[2] / 2, BAR[1], 1)
    assert abs(view.pos - len(rp.events) / 2) <= 1


def test_bad_file_shows_the_engines_message(window, tmp_path: Path) -> None:
    from game.screens.message import MessageView
    from game.theatre.theatre import open_replay

    lines = (GOLDEN / "single-seed-42.jsonl").read_text().splitlines()
    ev = json.loads(lines[5])
    ev["seat"] = (ev["seat"] + 1) % 4
    lines[5] = json.dumps(ev)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    open_replay(window, bad)
    shown = window.current_view
    assert isinstance(shown, MessageView)
    assert "line 6" in shown.text.text and "out of turn" in shown.text.text
    shown.on_draw()


@pytest.mark.slow
def test_watch_live_ai_game_is_saved(window, tmp_path: Path) -> None:
    from engine.replay import read_replay
    from engine.variants import PIEDICAVALLO
    from game.theatre.theatre import LiveGame, ViewerView

    path = tmp_path / "watch.jsonl"
    live = LiveGame(["random"] * 4, 1, 99, path, rules=PIEDICAVALLO)
    view = ViewerView(window, live=live, speed=8.0)
    window.show_view(view)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        view.on_update(1 / 30)
        time.sleep(0.001)  # real time for the AI's worker thread
        if live.done and view.pos == view.timeline.n and not view.playing:
            break
    assert live.done and view.pos == len(live.game.events)
    rp = read_replay(path)
    assert rp.final.scores and sum(rp.final.scores[0]) == 114
    assert rp.header.extra.get("watch") is True


@pytest.mark.slow
@pytest.mark.parametrize("name", ["single-seed-42.jsonl"])
def test_screenshot_at_every_position(window, name: str) -> None:
    """Every N from 0 to the end renders (in-process, on the test window)."""
    from engine.replay import read_replay
    from game.theatre.theatre import render_position

    rp = read_replay(GOLDEN / name)
    sizes = set()
    for n in range(len(rp.events) + 1):
        img = render_position(window, rp, n, name, True)
        sizes.add(img.size)
        # The seek bar's knob (gold) sits at the fraction n / len.
        assert img.getbbox() is not None
    assert sizes == {window.get_framebuffer_size()}


@pytest.mark.slow
def test_replay_command_screenshot_and_errors(tmp_path: Path) -> None:
    from PIL import Image

    out = tmp_path / "shot.png"
    f = str(GOLDEN / "match-seed-7.jsonl")
    r = subprocess.run([sys.executable, "-m", "game.cli", "replay", f, "--at", "100", "--screenshot", str(out)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    img = Image.open(out).convert("RGB")
    assert img.size == (1280, 720)
    # South's hand shows faces: the cream of card faces fills part of the bottom centre.
    cream = sum(1 for x in range(400, 880, 4) for y in range(560, 700, 4)
                if min(img.getpixel((x, y))) > 200)
    assert cream > 300
    r = subprocess.run([sys.executable, "-m", "game.cli", "replay", f, "--at", "9999", "--screenshot", str(out)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "outside" in r.stderr and "Traceback" not in r.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "tarocchi-replay", "version": 2, "variant": "piedicavallo"}\n')
    r = subprocess.run([sys.executable, "-m", "game.cli", "replay", str(bad), "--screenshot", str(out)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "version 2" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.slow
def test_replay_browser_lists_and_opens(window, home: Path) -> None:
    import os
    import shutil

    import arcade

    from game.common import paths
    from game.screens.message import MessageView
    from game.theatre.replay_browser import ReplayBrowserView
    from game.theatre.theatre import ViewerView

    folder = paths.replays_dir()
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(GOLDEN / "single-seed-42.jsonl", folder / "old.jsonl")
    shutil.copy(GOLDEN / "match-seed-7.jsonl", folder / "new.jsonl")
    (folder / "broken.jsonl").write_text('{"format": "tarocchi-replay", "version": 1}\n')
    os.utime(folder / "old.jsonl", (1_000_000, 1_000_000))
    os.utime(folder / "broken.jsonl", (500_000, 500_000))
    view = ReplayBrowserView(window)
    window.show_view(view)
    names = [e.path.name for e in view.entries]
    assert names == ["new.jsonl", "old.jsonl", "broken.jsonl"]
    assert "match" in view.row_list.lines[0][0].text and "single deal" in view.row_list.lines[1][0].text
    assert "variant" in view.row_list.lines[2][1].text  # the error, listed
    view.on_draw()
    view.on_key_press(arcade.key.DOWN, 0)
    view.on_key_press(arcade.key.ENTER, 0)
    assert isinstance(window.current_view, ViewerView)
    window.current_view.on_back()  # back to the browser
    browser = window.current_view
    assert isinstance(browser, ReplayBrowserView)
    browser.move(2)
    browser.open_selected()
    assert isinstance(window.current_view, MessageView)
    assert "variant" in window.current_view.text.text


def _scarto_replay(tmp_path: Path, dealer: int):
    """A one-deal Scarto replay whose dealer is ``dealer`` (a side seat holds 28 cards)."""
    from engine.players import RandomPlayer
    from engine.replay import read_replay, write_replay
    from engine.simulate import play_game
    from engine.state import first_dealer
    from engine.variants import SCARTO

    seed = next(s for s in range(1, 500) if first_dealer(s, SCARTO) == dealer)
    g = play_game(seed, [RandomPlayer()] * 3, 1, rules=SCARTO)
    path = tmp_path / f"scarto-{dealer}.jsonl"
    write_replay(path, g.header, list(g.log))
    return read_replay(path)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["piedicavallo", "scarto-east", "scarto-west"])
def test_open_side_hands_stay_clear_of_the_theatres_panels(window, tmp_path: Path, game: str) -> None:
    """Seen through the theatre's camera, every open card of East's and West's hands
    lies on the screen above the seek bar's strip, off the tricks panel and the review's
    panel, and shows its index: at every position of the first tricks (the longest hands:
    Piedicavallo's dealer holds 17, Scarto's 28 while laying three aside)."""
    from engine.cards import mask_cards
    from engine.replay import read_replay
    from game.common import layout
    from game.theatre.review_panel import PANEL_BOX
    from game.theatre.theatre import STRIP, ViewerView
    from game.theatre.trick_list import TRICKS_PANEL

    rp = (read_replay(GOLDEN / "match-seed-7.jsonl") if game == "piedicavallo"
          else _scarto_replay(tmp_path, {"scarto-east": 1, "scarto-west": 2}[game]))
    n_seats = rp.rules.n_seats
    view = ViewerView(window, rp, face_up=True)
    window.show_view(view)

    def box(lbwh):
        left, bottom, w, h = lbwh
        return left, bottom, left + w, bottom + h

    panels = [box(TRICKS_PANEL), box(PANEL_BOX)]
    sides = [seat for seat in range(n_seats) if layout.spot(n_seats, seat) in (layout.LEFT, layout.RIGHT)]
    longest = 0
    for p in range(1, 3 * n_seats + 4):
        view.seek(p)
        hands = rp.states[p].hands
        cards = {c for seat in sides for c in mask_cards(hands[seat])}
        side = [s for s in view.table.sprites if s.key[0] == "card" and s.key[1] in cards]
        assert len(side) == len(cards) and all(s.face_up and s.visible for s in side)
        longest = max([longest] + [hands[seat].bit_count() for seat in sides])
        for s in side:
            w, h = layout.card_size(s.place.scale)
            left, bottom, right, top = view._to_screen((s.place.x - w / 2, s.place.y - h / 2,
                                                        s.place.x + w / 2, s.place.y + h / 2))
            assert 0 <= left and right <= layout.WIDTH and STRIP <= bottom and top <= layout.HEIGHT
            for pl, pb, pr, pt in panels:
                assert right < pl or left > pr or top < pb or bottom > pt, (p, s.key, (pl, pb, pr, pt))
    assert longest == (17 if n_seats == 4 else 28)


@pytest.mark.slow
@pytest.mark.parametrize(("lang", "want"), [("en", "No tricks yet"), ("fr", "Aucun pli pour l'instant"),
                                            ("it", "Nessuna presa per ora")])
def test_the_tricks_list_says_no_tricks_yet_until_the_first_trick(window, lang: str, want: str) -> None:
    """An empty list looks broken: until a trick of the deal is taken the panel says so
    (in the player's language), from the first trick on it lists the tricks instead,
    and at the next deal it says so again."""
    from engine.replay import read_replay
    from engine.state import Dealt, TrickTaken
    from game.common import i18n
    from game.theatre.theatre import ViewerView, render_position
    from game.theatre.trick_list import TILE_X, TRICK_ROW, TRICKS_PANEL

    rp = read_replay(GOLDEN / "match-seed-7.jsonl")
    kinds = [type(e) for e in rp.events]
    first = kinds.index(TrickTaken) + 1  # the position just after the first trick
    second_deal = [i for i, k in enumerate(kinds) if k is Dealt][1] + 1
    left, bottom, _w, ph = TRICKS_PANEL

    def light_pixels(img, line: int) -> int:  # text pixels on a line of the list (image: top-left origin)
        y = round(720 - (bottom + ph - 40 - TRICK_ROW * line))
        # the line's words (its cards are drawn after them, from TILE_X)
        return sum(1 for x in range(left + 8, left + TILE_X - 6) for yy in range(y - 6, y + 6)
                   if min(img.getpixel((x, yy))[:3]) > 150)

    i18n.set_language(lang)
    try:
        view = ViewerView(window, rp, face_up=True)
        window.show_view(view)
        for p in (0, 1, 2, first - 1, second_deal):
            view.seek(p)
            view.on_draw()
            assert view.tricks.no_tricks.text == want, p
            assert not any(t.text for t in view.tricks.trick_lines), p
        view.seek(first)
        view.on_draw()
        assert view.tricks.no_tricks.text == "" and view.tricks.trick_lines[0].text.startswith(" 1. ")
        # the trick's cards are drawn (by their corners), never written as codes
        assert sum(sp.visible for sp in view.tricks.tile_sprites[0]) == rp.rules.n_seats
        assert not any(code in view.tricks.trick_lines[0].text + view.tricks.trick_wins[0].text
                       for code in rp.rules.pack.codes if len(code) > 1)
        # on the screen: the placeholder's line is drawn, in the panel, where the first trick goes
        start, after = render_position(window, rp, 2, "", True), render_position(window, rp, first, "", True)
        assert light_pixels(start, 0) > 20 and light_pixels(start, 1) == 0
        assert light_pixels(after, 0) > 20 and light_pixels(after, 1) == 0
    finally:
        i18n.set_language("en")
