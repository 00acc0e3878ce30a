"""Menus, settings, catalogs, layout geometry, hints and the autoplay command."""

from __future__ import annotations

import json
import re
from pathlib import Path

import arcade
import pytest

from engine.cli import main as engine_main
from engine.replay import read_replay
from engine.state import DISCARD, PLAY
from game.common import i18n, layout, paths
from game.common.position import seen_by
from game.common.settings import Settings
from game.common.words import card_label
from game.i18n_tools import source_msgids, source_plurals
from game.table import session
from tests.test_gui_helpers import card_point, click, frames, settle

# --- pure geometry ------------------------------------------------------------------


def test_letterbox_keeps_16_9_and_maps_clicks_back():
    assert layout.letterbox(1280, 720) == (0, 0, 1280, 720)
    left, bottom, w, h = layout.letterbox(1000, 1000)
    assert (left, w) == (0, 1000) and abs(h - 562) <= 1 and bottom == (1000 - h) // 2
    x, y = layout.to_logical(500, 500, 1000, 1000)
    assert abs(x - 640) < 1 and abs(y - 360) < 1
    left, bottom, w, h = layout.letterbox(2560, 1080)
    assert h == 1080 and w == 1920 and left == 320


def test_table_places_never_read_hidden_hands():
    g = session.new_game(partner="random", opponents="random", match=False, seed=4, human=False,
                         players=["random"] * 4)
    g.close()
    st = g.state
    places = layout.table_places(seen_by(st, {0}))
    assert len(places) == 62
    shown = {k[1] for k in places if k[0] == "card"}
    assert shown == set(layout.sorted_hand(st.hands[0], st.rules.pack))  # only South's cards are known
    everyone = layout.table_places(seen_by(st, {0, 1, 2, 3}))
    assert len([k for k in everyone if k[0] == "card"]) == 62 - (2 if st.phase == PLAY else 0)


def test_south_hand_is_sorted_trumps_together_suits_by_rank():
    from engine.variants import PIEDICAVALLO

    MATTO, SUIT = PIEDICAVALLO.pack.matto, PIEDICAVALLO.pack.suit

    g = session.new_game(partner="random", opponents="random", match=False, seed=8)
    g.close()
    hand = layout.sorted_hand(g.state.hands[0], g.rules.pack)
    suits = [(-1 if c == MATTO else SUIT[c]) for c in hand]
    # each suit in one run
    runs = [s for i, s in enumerate(suits) if i == 0 or suits[i - 1] != s]
    assert len(runs) == len(set(runs))
    for a, b in zip(hand, hand[1:], strict=False):
        if SUIT[a] == SUIT[b] and a != MATTO:
            assert a > b  # strongest first


# --- catalogs ------------------------------------------------------------------------


@pytest.mark.slow
def test_every_text_has_french_and_italian_translations():
    ids = source_msgids()
    plurals = source_plurals()
    assert len(ids) > 100 and len(plurals) > 10
    for lang in ("en", "fr", "it"):
        text = i18n.po_path(lang).read_text(encoding="utf-8")
        cat = i18n.parse_po(text)
        forms = i18n.parse_po_plurals(text)
        missing = [m for m in ids if m not in cat]
        assert not missing, (lang, missing[:5])
        for m in ids:
            assert set(re.findall(r"{\w*}", m)) == set(re.findall(r"{\w*}", cat[m])), (lang, m)
        # a counted text has its plural and every form of the language, each with the
        # placeholders of the English plural (a form may leave {n} out: "Discard this card")
        assert f"Plural-Forms: {i18n.PLURAL_FORMS[lang]}" in text
        for m, plural in plurals.items():
            assert m in forms, (lang, m)
            assert forms[m][0] == plural, (lang, m)
            assert len(forms[m]) == 3, (lang, m)
            want = set(re.findall(r"{\w*}", plural))
            for f in forms[m][1:]:
                assert set(re.findall(r"{\w*}", f)) <= want, (lang, m, f)
            assert set(re.findall(r"{\w*}", forms[m][2])) == want, (lang, m)


def test_ngettext_follows_each_languages_plural_rule():
    try:
        got = {}
        for lang in ("en", "fr", "it"):
            i18n.set_language(lang)
            got[lang] = [i18n.ngettext("{n} trick", "{n} tricks", n).format(n=n) for n in (0, 1, 2)]
        assert got == {"en": ["0 tricks", "1 trick", "2 tricks"], "fr": ["0 pli", "1 pli", "2 plis"],
                       "it": ["0 prese", "1 presa", "2 prese"]}
    finally:
        i18n.set_language("en")


def test_po_parser_follows_gettext_conventions():
    text = '# c\nmsgid ""\nmsgstr "Language: fr\\n"\n\nmsgid "a"\nmsgstr ""\n"b\\"c"\n\n#, fuzzy\nmsgid "x"\nmsgstr "y"\n\nmsgid "e"\nmsgstr ""\n'
    assert i18n.parse_po(text) == {"a": 'b"c'}
    plural = ('msgid "{n} pli"\nmsgid_plural "{n} plis"\nmsgstr[0] "{n} presa"\nmsgstr[1] ""\n"{n} prese"\n\n'
              '#, fuzzy\nmsgid "f"\nmsgid_plural "fs"\nmsgstr[0] "x"\nmsgstr[1] "y"\n\n'
              'msgid "h"\nmsgid_plural "hs"\nmsgstr[0] ""\nmsgstr[1] ""\n')
    assert i18n.parse_po_plurals(plural) == {"{n} pli": ["{n} plis", "{n} presa", "{n} prese"]}


# --- menus and settings ----------------------------------------------------------------


def test_menu_keyboard_and_language_switch(window, home):
    from game.screens.menu import MenuView
    from game.screens.settings import SettingsView

    window.settings = Settings.load()
    i18n.set_language("en")
    menu = MenuView(window)
    window.show_view(menu)
    menu.on_draw()
    assert [b.label for b in menu.buttons][:2] == ["New game", "Practice"]
    # keyboard: down to Settings, Enter
    idx = [b.label for b in menu.buttons].index("Settings")
    for _ in range(idx):
        menu.on_key_press(arcade.key.DOWN, 0)
    menu.on_key_press(arcade.key.ENTER, 0)
    view = window.current_view
    assert isinstance(view, SettingsView)
    view.on_draw()
    view.focus = 0
    view.on_key_press(arcade.key.RIGHT, 0)  # English -> French
    assert window.settings.language == "fr"
    assert Settings.load().language == "fr"  # kept between runs
    view.on_key_press(arcade.key.ESCAPE, 0)
    menu = window.current_view
    menu.on_draw()
    assert menu.buttons[0].label == "Nouvelle partie"
    i18n.set_language("en")
    window.settings.language = "en"
    window.settings.save()


def test_settings_survive_a_bad_file(home):
    paths.settings_path().write_text("{not json", encoding="utf-8")
    assert Settings.load() == Settings()
    paths.settings_path().write_text(json.dumps({"speed": 2, "sound": "loud", "language": "xx"}))
    s = Settings.load()
    assert s.speed == 2.0 and s.sound is True and s.language == "en"


@pytest.mark.slow
def test_new_game_setup_by_mouse(window, home):
    from game.screens.menu import NewGameView
    from game.table.table_view import TableView

    window.settings = Settings(partner="random", opponents="random")
    v = NewGameView(window, practice=True)
    window.show_view(v)
    v.on_draw()
    x, y = v.b_kind.rect[:2]
    click(v, x, y)
    assert window.settings.match is True
    x, y = v.b_start.rect[:2]
    click(v, x, y)
    table = window.current_view
    assert isinstance(table, TableView) and table.ctl.practice
    assert table.game.header.deals == 4 and table.game.header.extra["practice"] is True
    frames(table, 5)
    table.close()
    window.settings.match = False


def test_hint_shows_expected_points_for_each_legal_card(window, home):
    from game.table.hints import find_hint
    from game.table.table_view import TableView

    if find_hint() is None:
        return  # no AI package yet: the button is disabled (tested below)
    game = session.new_game(partner="random", opponents="random", match=False, practice=True, seed=2)
    window.settings.speed = 8.0
    view = TableView(window, game, session.ai_players(game), human_seats=frozenset({0}), practice=True,
                     settings=window.settings, sound=window.sound)
    window.show_view(view)
    settle(view)
    assert view.toolbar.btn_hint.enabled
    view.on_key_press(arcade.key.H, 0)
    assert view.ctl.hints.future is not None
    import time

    t_end = time.monotonic() + 60
    while not view.ctl.hints.values and time.monotonic() < t_end:
        frames(view, 1, draw_every=0)
        time.sleep(0.01)
    view.on_draw()
    legal = view.game.legal()
    if view.game.state.phase == DISCARD:
        cards = {c for cmd in legal for c in cmd.cards}
    else:
        cards = {cmd.card for cmd in legal}
    assert set(view.ctl.hints.values) == cards
    assert len(view.marks.hint_texts) == len(cards)
    # a card's tooltip says what it is worth in words: the best, almost as good, or its loss
    values = view.ctl.hints.values
    best = max(values.values())
    for card in cards:
        x, y = card_point(view, card)
        view.on_mouse_motion(x, y, 0, 0)
        tip = view._place_tooltip()[0]
        loss = best - values[card]
        want = "the best" if loss < 0.05 else "almost as good" if loss < 1 else "loses about"
        assert tip.startswith(card_label(view.ctl.rules.pack, card)) and tip.split(" · ")[-1].startswith(want), tip
    view.close()


def test_hint_button_disabled_outside_practice(window, home):
    from game.table.table_view import TableView

    game = session.new_game(partner="random", opponents="random", match=False, seed=2)
    view = TableView(window, game, session.ai_players(game), settings=window.settings, sound=window.sound)
    assert not view.toolbar.btn_hint.enabled and view.toolbar.btn_hint.tooltip
    assert not view.toolbar.btn_undo.enabled
    view.close()


# --- autoplay ------------------------------------------------------------------------------


@pytest.mark.slow
def test_autoplay_renders_every_scene_and_writes_a_valid_replay(window, home, tmp_path, capsys):
    from game.autoplay import run_autoplay

    # an interrupted game in the autosave and a filed replay: autoplay touches neither
    interrupted = session.new_game(partner="random", opponents="random", match=False, seed=9)
    interrupted.close()
    autosave = paths.autosave_path().read_bytes()
    (paths.replays_dir() / "kept.jsonl").write_bytes(autosave)
    shots = tmp_path / "shots"
    out = run_autoplay(deals=1, seed=5, players=["random"] * 4, speed=6.0, screenshots=str(shots),
                       window=window)
    assert out["frames"] > 100 and out["frame_ms_p95"] > 0
    assert paths.autosave_path().read_bytes() == autosave  # byte-identical
    assert [p.name for p in paths.replays_dir().iterdir()] == ["kept.jsonl"]
    log = Path(out["replay"])
    assert log.parent == paths.home() / "autoplay" and read_replay(log).final.scores
    names = sorted(p.name for p in shots.iterdir())
    assert names == ["deal.png", "discard.png", "play.png", "scoring.png", "trick.png"]
    assert engine_main(["check", out["replay"]]) == 0
    assert "ok" in capsys.readouterr().out
    # the scoring screenshot shows the panel: a dark box in the middle of the felt
    from PIL import Image

    img = Image.open(shots / "scoring.png").convert("RGB")
    r, g, b = img.getpixel((640, 330))
    assert g < 60


@pytest.mark.slow
def test_first_frame_exit_draws_the_menu(tmp_path):
    """``tarocchi play --first-frame-exit`` times a frame with the menu on it."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    shot = tmp_path / "first.png"
    script = (
        "import arcade, sys\n"
        "from game import app\n"
        "close = arcade.Window.close\n"
        "def keep(self):\n"
        f"    arcade.get_image().save({str(shot)!r})\n"
        "    close(self)\n"
        "arcade.Window.close = keep\n"
        "sys.exit(app.run(first_frame_exit=True))\n"
    )
    env = {k: v for k, v in __import__("os").environ.items() if k != "DISPLAY"}
    env.update(ARCADE_HEADLESS="1", PYTHONPATH=str(root), TAROCCHI_HOME=str(tmp_path / "home"))
    r = subprocess.run([sys.executable, "-c", script], cwd=root, env=env, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "first frame after" in r.stdout
    from PIL import Image

    img = Image.open(shot).convert("RGB")
    assert len(set(img.getdata())) > 50  # the title, the buttons: not a blank clear
