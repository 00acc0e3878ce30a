"""A layout test that one language cannot fool: every scene of
both games and the screens round them (the table with the dealer at every
seat, the replay, the review and a live AI game watched), in English, French
and Italian, at 1280x720 and at the smallest window (640x360), drawn by the
real views; the boxes are read from the draw calls themselves
(``tests/support/layout_probe.py``): no text meets another text or a card's index
corner, nothing drawn later hides a text or an index, and no text, card, pile
or panel lies over a seat's name plate that is not its own.  The games seen
again are files named as the game names them.

``TAROCCHI_LAYOUT_SHOTS=folder`` also saves each scene as a PNG, to look at."""

from __future__ import annotations

import os
import time
from pathlib import Path

import arcade
import pytest

from engine.replay import read_replay
from engine.ruleset import ruleset
from engine.state import DISCARD, PLAY, first_dealer
from game.common import i18n, layout
from game.common.settings import Settings
from game.common.words import card_label
from game.table import session
from game.table.table_controller import InlineExecutor
from tests.support import layout_probe
from tests.test_gui_helpers import card_point, click, frames, play_human_turn

GOLDEN = Path(__file__).parent / "golden"
SIZES = ((1280, 720), (640, 360))
LANGS = ("en", "fr", "it")
SHOTS = os.environ.get("TAROCCHI_LAYOUT_SHOTS", "")


class Shooter:
    """Draws a view whole at each window size and keeps what the probe saw."""

    def __init__(self, window, lang: str) -> None:
        self.window = window
        self.lang = lang
        self.problems: list[str] = []
        self.scenes: list[str] = []

    def __call__(self, name: str, view) -> None:
        win = self.window
        real_size, real_fb = win.get_size, win.get_framebuffer_size
        mode = getattr(win, "_tarocchi_redraw_mode", None)
        win._tarocchi_redraw_mode = "full"
        self.scenes.append(name)
        try:
            for size in SIZES:
                win.get_size = win.get_framebuffer_size = (lambda s=size: s)
                view._fit()
                with layout_probe.record(size) as log:
                    view.on_draw()
                assert any(d.kind == "text" for d in log), (name, "nothing drawn")
                if os.environ.get("DUMP") == name:
                    for d in log:
                        print(d.kind, [round(v) for v in d.rect], d.what[:40])
                self.problems += [f"{self.lang} {size[0]}x{size[1]} {name}: {p}"
                                  for p in layout_probe.collisions(log)]
                if SHOTS:
                    Path(SHOTS).mkdir(parents=True, exist_ok=True)
                    img = arcade.get_image(0, 0, *size)
                    img.save(Path(SHOTS) / f"{name}-{self.lang}-{size[0]}.png")
        finally:
            win.get_size, win.get_framebuffer_size = real_size, real_fb
            win._tarocchi_redraw_mode = mode
            view._fit()
            win.forget = None


def _until(view, cond, limit: float = 60.0, dt: float = 1 / 60) -> None:
    end = time.monotonic() + limit
    while not cond():
        assert time.monotonic() < end, "the scene never came"
        view.on_update(dt)


def _table(window, variant: str, shoot: Shooter, seat: int = 0) -> None:
    """A practice match played from ``seat`` (drawn at the bottom), who deals first."""
    from game.table.table_view import TableView

    rules = ruleset(variant)
    seed = next(s for s in range(1, 500) if first_dealer(s, rules) == seat)  # the viewer deals: the discard
    players = ["random"] * rules.n_seats
    players[seat] = "human"
    game = session.new_game(partner="random", opponents="random", match=True, practice=True, seed=seed,
                            variant=variant, players=players)
    settings = Settings(speed=8.0, auto_advance=False, sound=False)
    view = TableView(window, game, session.ai_players(game), human_seats=session.human_seats(game),
                     face_up_seats={seat}, practice=True, settings=settings, sound=window.sound,
                     executor=InlineExecutor())
    window.show_view(view)
    g = variant[:5] + (f"-{rules.seat_names[seat].lower()}" if seat else "")
    _shoot_deal_and_discard(view, g, shoot)
    _shoot_tricks_and_plays(view, rules, g, shoot)
    _shoot_score_pages(view, g, shoot)
    view.close()


def _side_dealer(window, variant: str, dealer: int, shoot: Shooter) -> None:
    """A practice deal seen from South while another seat deals: its long hand
    before the discard, the discard announced, the first card of the play."""
    from game.table.table_view import TableView

    rules = ruleset(variant)
    seed = next(s for s in range(1, 500) if first_dealer(s, rules) == dealer)
    players = ["human"] + ["random"] * (rules.n_seats - 1)
    game = session.new_game(partner="random", opponents="random", match=False, practice=True, seed=seed,
                            variant=variant, players=players)
    settings = Settings(speed=8.0, auto_advance=False, sound=False)
    view = TableView(window, game, session.ai_players(game), human_seats={0}, face_up_seats={0},
                     practice=True, settings=settings, sound=window.sound, executor=InlineExecutor())
    window.show_view(view)
    g = f"{variant[:5]}-dealer-{rules.seat_names[dealer].lower()}"
    ctl = view.ctl

    def still(n_shown: int) -> bool:
        return ctl.shown == n_shown and not view.table.busy and not ctl.feed.queued

    _until(view, lambda: still(1))
    assert ctl.position(1).hand_sizes[dealer] == rules.dealer_cards()
    shoot(f"{g}-dealt", view)  # the dealer's long hand, before its discard
    _until(view, lambda: still(2))
    shoot(f"{g}-discarded", view)  # its discard announced
    played = None
    while played is None:
        if ctl.can_act():
            play_human_turn(view)
        view.on_update(1 / 60)
        played = next((i + 1 for i in range(2, ctl.shown) if type(view.game.events[i]).__name__ == "CardPlayed"),
                      None)
    _until(view, lambda: not view.table.busy)
    shoot(f"{g}-first-card", view)  # the play begun
    if ctl.banner is not None and ctl.banner.key == "discarded" and view.texts.banner.text:
        shoot.problems.append(f"{shoot.lang} {g}-first-card: the discard still announced once play has begun")
    view.close()


def _shoot_deal_and_discard(view, g: str, shoot: Shooter) -> None:
    frames(view, 40, draw_every=0)
    shoot(f"{g}-deal", view)
    _until(view, lambda: view.ctl.can_act())
    assert view.game.state.phase == DISCARD
    hand = view.ctl.hand_order()
    first = next(c for c in hand if c in view.ctl.legal_cards)
    click(view, *card_point(view, first))
    _until(view, lambda: not view.table.busy)
    view.ask_hint()  # the hint figures over the hand, one card of the discard raised
    _until(view, lambda: view.ctl.hints.future is None and not view.table.busy)
    assert view.marks.hint_texts and view.ctl.discard.selected == [first]
    shoot(f"{g}-discard", view)
    view.ctl.discard.selected = []
    play_human_turn(view)
    _until(view, lambda: view.ctl.can_act() or view.ctl.waiting)


def _shoot_trick(view, rules, g: str, shoot: Shooter) -> None:
    """A finished trick won by another seat: every card stays in view, with the piles' titles."""
    pos = view.ctl.position(view.ctl.shown)
    assert len(pos.trick) == rules.n_seats  # every card of the trick stays in view
    assert [t.text for t in view.table.labels.pile_titles] == [
        view.words.pile_title(side, pos.tricks_won[side]) for side in range(rules.n_sides)]
    shoot(f"{g}-trick", view)


def _shoot_play(view, rules, g: str, shoot: Shooter) -> None:
    """Your turn in a trick begun: a card's tooltip, then the last trick shown."""
    hovered = view.ctl.hand_order()[2]
    x, y = card_point(view, hovered)
    view.on_mouse_motion(x, y, 0, 0)
    frames(view, 3, draw_every=0)
    # the card under the mouse is named, with its points ("Knight of Coins (C), 3 points")
    assert view._place_tooltip()[0] == card_label(view.ctl.rules.pack, hovered)
    shoot(f"{g}-play", view)
    x, y = layout.hand_places(layout.TOP if rules.n_seats == 4 else layout.RIGHT, 5, False)[2][:2]
    view.on_mouse_motion(x, y, 0, 0)
    assert view._place_tooltip() is None  # a card lying face down is never named
    view.on_mouse_motion(5, 5, 0, 0)
    view.show_last_trick()
    shoot(f"{g}-last-trick", view)
    view.show_last_trick()


def _shoot_tricks_and_plays(view, rules, g: str, shoot: Shooter) -> None:
    """Play the deal out to the scoring, shooting the first trick another seat
    wins and your first card played into a trick begun."""
    seen_trick = seen_play = False
    while not view.ctl.waiting == "scoring":
        if view.ctl.waiting == "trick":
            if not seen_trick and view.ctl.feed.trick_winner != view.ctl.viewer:
                _shoot_trick(view, rules, g, shoot)
                seen_trick = True
            view.continue_()
        elif view.ctl.can_act():
            if not seen_play and view.game.state.trick:
                _shoot_play(view, rules, g, shoot)
                seen_play = True
            assert view.game.state.phase == PLAY
            play_human_turn(view)
        view.on_update(1 / 60)
    assert seen_trick and seen_play


def _shoot_score_pages(view, g: str, shoot: Shooter) -> None:
    frames(view, 10, draw_every=0)
    shoot(f"{g}-scoring", view)
    view.score_panel.finish()
    frames(view, 2, draw_every=0)
    shoot(f"{g}-score-sheet", view)
    for page in ("tricks", "piles"):
        view.choose(page)
        frames(view, 2, draw_every=0)
        shoot(f"{g}-{page}", view)
    view.choose("score")


def _scarto_file(dest: Path, deals: int = 1) -> Path:
    """A Scarto game of ``deals`` (South deals first: a discard of three)."""
    from engine.players import make_player
    from engine.replay import write_replay
    from engine.simulate import play_game

    rules = ruleset("scarto")
    seed = next(s for s in range(1, 500) if first_dealer(s, rules) == 0)
    g = play_game(seed, [make_player(x) for x in ("easy", "random", "random")], deals, rules=rules)
    write_replay(dest, g.header, g.events)
    return dest


def _games_seen_again(folder: Path) -> list[tuple[Path, Path, str]]:
    """The files of the replay and the review, named as the game names them (a
    long name, the date and the kind of game and its seed): (the replay, the
    review, the game's short name)."""
    import shutil

    folder.mkdir(parents=True, exist_ok=True)
    big = 4611686018427387904  # an online table's seed: 63 random bits
    match = shutil.copy(GOLDEN / "match-seed-7.jsonl", folder / f"20251207-120812-online-match-{big}.jsonl")
    single = shutil.copy(GOLDEN / "single-seed-42.jsonl", folder / f"20251207-121544-online-deal-{big}.jsonl")
    scarto = _scarto_file(folder / f"20251207-130102-online-scarto-match-{big}.jsonl", deals=3)
    scarto_deal = _scarto_file(folder / f"20251207-131518-online-scarto-deal-{big}.jsonl")
    return [(Path(match), Path(single), "piedi"), (scarto, scarto_deal, "scart")]


def _theatre(window, shoot: Shooter, path: Path, g: str) -> None:
    """The replay: its first position, each deal just dealt (the dealer at every
    seat, its long hand open), a trick under way and the end."""
    from game.theatre.theatre import open_replay

    open_replay(window, path)
    view = window.current_view
    tl = view.timeline
    view.seek(0)
    view.on_update(1 / 60)
    shoot(f"{g}-theatre-start", view)
    for n, mark in enumerate(m for m in tl.marks if m.kind == "deal"):
        view.seek(mark.position)
        frames(view, 3, draw_every=0)
        shoot(f"{g}-theatre-deal-{n + 1}", view)
    mid = tl.next_card(tl.next_trick(tl.next_trick(tl.next_trick(0))))
    view.seek(mid)
    frames(view, 30, draw_every=0)
    shoot(f"{g}-theatre", view)
    view.seek(tl.n)
    frames(view, 30, draw_every=0)
    shoot(f"{g}-theatre-end", view)


def _watch(window, shoot: Shooter, variant: str, folder: Path) -> None:
    """A live AI game watched: its first trick under way, then the deal scored."""
    from game.table.live_game import LiveGame
    from game.theatre.theatre import WatchSetupView

    setup = WatchSetupView(window)
    setup.variant = variant
    setup._fit_levels()
    setup.levels = ["random"] * ruleset(variant).n_seats
    made: list[LiveGame] = []
    real = LiveGame.__init__

    def remember(self, *a, **k) -> None:
        real(self, *a, **k)
        made.append(self)

    LiveGame.__init__ = remember
    try:
        setup.start()
    finally:
        LiveGame.__init__ = real
    view, live = window.current_view, made[0]
    try:
        g = f"{variant[:5]}-watch"
        end = time.monotonic() + 120
        while not any(type(e).__name__ == "TrickTaken" for e in live.game.events[:view.pos]):
            assert time.monotonic() < end, "the AI game never reached its first trick"
            view.on_update(1 / 30)
            time.sleep(0.002)
        frames(view, 10, draw_every=0)
        view.playing = False
        shoot(f"{g}-trick", view)
        while not live.done or view.pos < view.timeline.n:
            assert time.monotonic() < end, "the AI game never ended"
            view.playing = True
            view.on_update(1 / 30)
            time.sleep(0.002)
        frames(view, 30, draw_every=0)
        shoot(f"{g}-end", view)
    finally:
        live.stop()


REVIEWS: dict = {}  # path -> the review, worked out once for the three languages


def _review(window, shoot: Shooter, path: Path, g: str) -> None:
    from engine.review import Grader, default_seat
    from game.table import ai_service
    from game.theatre import review_view
    from game.theatre.review_model import pick_deal

    rp = read_replay(path)
    service = ai_service.AIService(use_process=False)
    old = review_view.BUDGET
    review_view.BUDGET = Grader(rounds=4, discard_rounds=2)
    try:
        view = review_view.ReviewView(window, rp, path, seat=default_seat(rp), deal=pick_deal(rp, None),
                                      service=service)
        window.show_view(view)
        end = time.monotonic() + 240
        while view.running:
            assert time.monotonic() < end, "the review never came back"
            view.on_update(1 / 30)
            time.sleep(0.01)
        view.on_update(0.0)
        n = len(view.model)
        for k, name in ((0, "review-first"), (n // 2, "review-middle"), (n - 1, "review-last")):
            view.goto_step(k)
            view.on_update(0.0)
            shoot(f"{g}-{name}", view)
        view.on_back = lambda: None
    finally:
        review_view.BUDGET = old
        service.close()


def _menus(window, shoot: Shooter, home: Path) -> None:
    from game.common import paths
    from game.screens.menu import ConfirmNewGameView, MenuView, NewGameView
    from game.screens.online import OnlineView
    from game.screens.record_view import RecordView
    from game.screens.rules import RulesView
    from game.screens.settings import SettingsView
    from game.theatre.replay_browser import ReplayBrowserView
    from game.theatre.theatre import WatchSetupView

    # a game left in the middle of a trick, to resume
    game = session.new_game(partner="random", opponents="random", match=True, practice=False, seed=3)
    while game.state.trick_no < 4 or game.state.phase != PLAY:
        game.submit(game.legal()[0])
    game.close()
    paths.replays_dir().mkdir(parents=True, exist_ok=True)
    import shutil

    shutil.copy(GOLDEN / "match-seed-7.jsonl", paths.replays_dir() / "match-seed-7.jsonl")
    views = [("menu", lambda: MenuView(window)), ("new-game", lambda: NewGameView(window, practice=True)),
             ("confirm-new", lambda: ConfirmNewGameView(window, practice=False)),
             ("settings", lambda: SettingsView(window)), ("watch-setup", lambda: WatchSetupView(window)),
             ("replays", lambda: ReplayBrowserView(window)), ("record", lambda: RecordView(window)),
             ("online", lambda: OnlineView(window))]
    views += [(f"rules-{gm[:5]}-{i}", lambda gm=gm, i=i: RulesView(window, gm, i))
              for gm in ("piedicavallo", "scarto") for i in range(0, 9, 2)]
    for name, make in views:
        view = make()
        window.show_view(view)
        view.on_update(1 / 60)
        shoot(name, view)


#: a table seen from another seat than South, by language: (game, seat at the bottom)
OTHER_SEAT = {"en": ("piedicavallo", 1), "fr": ("scarto", 2), "it": ("piedicavallo", 3)}


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_no_text_meets_a_text_or_an_index_in_any_scene(window, home, lang, tmp_path) -> None:
    i18n.set_language(lang)
    window.settings = Settings(language=lang)
    shoot = Shooter(window, lang)
    try:
        for variant in ("piedicavallo", "scarto"):
            _table(window, variant, shoot)
        variant, seat = OTHER_SEAT[lang]
        _table(window, variant, shoot, seat)  # a guest's table: its own seat at the bottom
        for variant in ("piedicavallo", "scarto"):
            for dealer in range(1, ruleset(variant).n_seats):
                _side_dealer(window, variant, dealer, shoot)
        for replay, single, g in _games_seen_again(tmp_path / "games"):
            _theatre(window, shoot, replay, g)
            _review(window, shoot, single, g)
        for variant in ("piedicavallo", "scarto"):
            _watch(window, shoot, variant, tmp_path)
        _menus(window, shoot, home)
    finally:
        i18n.set_language("en")
        window.settings = Settings()
    assert len(shoot.scenes) >= 80
    assert not shoot.problems, f"{len(shoot.problems)} collisions:\n" + "\n".join(shoot.problems)
