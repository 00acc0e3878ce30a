"""The table's flows on the real view, headless: a resumed game on the
table at once; undo and redo that look disabled when there is nothing to undo
or redo and say so; the end of a deal with its buttons and its review; where
the match stands; the rule of a refusal in a tooltip; a click on the visible
strip of every overlapped card of South's hand selects that card."""

from __future__ import annotations

from pathlib import Path

import arcade
import pytest

from engine.ruleset import ruleset
from engine.state import DISCARD, PLAY, first_dealer
from game.common import layout, paths
from game.table import session
from game.table.review_panel import ReviewPanel
from game.table.table_view import TableView
from tests.test_gui_helpers import (
    card_point,
    click,
    damaged_vs_whole,
    frames,
    play_human_turn,
    settle,
)


def seed_where(variant: str, dealer: int) -> int:
    rules = ruleset(variant)
    return next(s for s in range(1, 500) if first_dealer(s, rules) == dealer)


def table(window, variant: str, seed: int, *, practice=False, match=False, on_again=None, game=None,
          resumed=False) -> TableView:
    if game is None:
        game = session.new_game(partner="random", opponents="random", match=match, practice=practice,
                                seed=seed, variant=variant)
    window.settings.speed = 8.0
    window.settings.auto_advance = True
    view = TableView(window, game, session.ai_players(game), human_seats=session.human_seats(game),
                     practice=practice, settings=window.settings, sound=window.sound, on_again=on_again,
                     resumed=resumed)
    window.show_view(view)
    return view


def until_turn_or_sheet(view, limit: int = 20000) -> None:
    import time

    for _ in range(limit):
        if view.ctl.can_act() or view.ctl.waiting == "scoring":
            return
        view.on_update(1 / 60)
        pending = view.ctl.ai.pending
        if pending is not None and not pending[0].done():
            time.sleep(0.001)
    raise AssertionError("no turn and no sheet")


def snapshot(view):
    return sorted(((s.key, s.place) for s in view.table.sprites if not s.place.hidden), key=repr)


def same_picture(window, view, what: str, n: int = 3) -> None:
    for _ in range(n):
        view.on_update(1 / 60)
        px, rects, box = damaged_vs_whole(window, view)
        assert px == 0, f"{what}: {px} pixels differ in {box} (redrawn {rects})"


# --- resume ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_resume_from_the_menu_puts_the_game_on_the_table_at_once(window, home) -> None:
    from game.screens.menu import MenuView

    view = table(window, "piedicavallo", 8, match=True)
    while view.game.state.deal_no < 2 or view.game.state.trick_no < 2:
        until_turn_or_sheet(view)
        if view.ctl.waiting == "scoring":
            view.choose("next")
            continue
        play_human_turn(view)
    settle(view)
    frames(view, 30)
    before = snapshot(view)
    state = view.game.state
    labels = [t.text for t in view.table.labels.pile_labels]
    # a kill: the view is never updated again; the menu offers to resume
    menu = MenuView(window)
    window.show_view(menu)
    menu.on_draw()
    click(menu, *menu.buttons[0].rect[:2])
    resumed = window.current_view
    assert isinstance(resumed, TableView) and resumed.game.state == state
    resumed.on_update(1 / 60)
    resumed.on_draw()
    # the first frame: the position as it stood, deal 2 and not deal 1's sheet; nothing
    # moves but the legal cards rising (0.12 s), where a replay took 15-20 s a deal
    assert resumed.score_panel is None and resumed.ctl.shown == resumed.game.cursor
    n = 1
    while resumed.table.busy:
        resumed.on_update(1 / 60)
        n += 1
        assert n <= 12, "still animating after 0.2 s"
    resumed.on_draw()
    assert snapshot(resumed) == before
    assert [t.text for t in resumed.table.labels.pile_labels] == labels
    assert resumed.texts.banner.text == ""
    assert resumed.texts.standing.text.startswith("Deal 2 of 4 · Match: Us ")
    lit = [i for i, t in enumerate(resumed.table.labels.name_texts) if tuple(t.color[:3]) != tuple(resumed.table.labels.name_texts[
        (state.turn + 1) % 4].color[:3])]
    assert lit == [state.turn]  # one seat's turn lit, not two
    assert resumed.ctl.can_act()
    same_picture(window, resumed, "the resumed table")
    resumed.close()


def test_a_scarto_exchange_resumed_is_the_exchange_at_once(window, home) -> None:
    view = table(window, "scarto", seed_where("scarto", 0), practice=True)
    settle(view)
    assert view.game.state.phase == DISCARD
    frames(view, 30)
    before = snapshot(view)
    view.game.close()
    game = session.resume()
    resumed = table(window, "scarto", 0, practice=True, game=game, resumed=True)
    frames(resumed, 12)
    resumed.on_draw()
    assert not resumed.table.busy and resumed.ctl.scene == "exchange"
    assert snapshot(resumed) == before and resumed.ctl.can_act()
    assert "stock" in resumed.texts.status.text
    resumed.close()


# --- undo and redo -----------------------------------------------------------------------------


@pytest.mark.slow
def test_undo_and_redo_look_disabled_when_there_is_nothing_and_say_so(window, home) -> None:
    view = table(window, "piedicavallo", seed_where("piedicavallo", 1), practice=True)
    settle(view)
    view.on_draw()
    assert not view.toolbar.btn_undo.enabled and not view.toolbar.btn_redo.enabled
    click(view, *view.toolbar.btn_redo.rect[:2])  # a click on the disabled button still says why
    view.on_update(1 / 60)
    view.on_draw()
    assert view.texts.banner.text == "Nothing to redo"
    same_picture(window, view, "the banner")
    view.on_key_press(arcade.key.Z, arcade.key.MOD_CTRL)
    view.on_draw()
    assert view.texts.banner.text.startswith("Nothing to undo")
    play_human_turn(view)
    settle(view)
    view.on_draw()
    assert view.toolbar.btn_undo.enabled and not view.toolbar.btn_redo.enabled
    click(view, *view.toolbar.btn_undo.rect[:2])
    settle(view)
    view.on_draw()
    assert view.toolbar.btn_redo.enabled and not view.toolbar.btn_undo.enabled
    same_picture(window, view, "undo")
    view.close()


# --- the end of a deal ------------------------------------------------------------------------


@pytest.mark.slow
def test_the_end_of_a_deal_its_buttons_and_its_review(window, home, monkeypatch) -> None:
    from game.theatre import review_view

    reviews = []  # the theatre's review mode, recorded: its own tests are in test_gui_review.py
    monkeypatch.setattr(review_view, "open_review", lambda *a, **k: reviews.append((a, k)))
    again = []
    view = table(window, "piedicavallo", seed_where("piedicavallo", 0), on_again=lambda: again.append(1))
    while not view.ctl.finished:
        settle(view)
        if not view.ctl.finished:
            play_human_turn(view)
    frames(view, 300)
    view.on_draw()
    labels = [b.label for b in view.toolbar.extra]
    assert labels == ["Play again (N)", "The tricks", "Our pile", "Review this deal", "Back to the menu"]
    # the row lies inside the score panel, the buttons apart
    left, bottom, right, top = view.score_panel.bounds()
    for a, b in zip(view.toolbar.extra, view.toolbar.extra[1:], strict=False):
        assert a.rect[0] + a.rect[2] / 2 < b.rect[0] - b.rect[2] / 2
    assert all(left < b.rect[0] - b.rect[2] / 2 and b.rect[0] + b.rect[2] / 2 < right for b in view.toolbar.extra)
    same_picture(window, view, "the score")
    # a click elsewhere at the end of the game leaves nothing
    click(view, 640, 30)
    frames(view, 2)
    assert view.score_panel is not None and view.ctl.waiting == "scoring"
    click(view, *view.toolbar.extra[1].rect[:2])  # the tricks
    view.on_update(1 / 60)
    view.on_draw()
    panel = view.review_panel
    assert isinstance(panel, ReviewPanel) and panel.page == "tricks"
    texts = [t.text for t in panel.texts]
    assert len(texts) == 16 and texts[0].startswith("1 · ") and texts[14].startswith("15 · ")
    assert len(panel.sprites) == 60  # every card of the 15 tricks
    assert [b.label for b in view.toolbar.extra] == ["Play again (N)", "The score", "Our pile", "Review this deal",
                                              "Back to the menu"]
    same_picture(window, view, "the tricks")
    for b in view.toolbar.extra:  # hovering each button of the row
        view.on_mouse_motion(*b.rect[:2], 0, 0)
        same_picture(window, view, f"hovering {b.label}", 1)
    view.choose("piles")
    view.on_update(1 / 60)
    view.on_draw()
    assert view.review_panel.page == "piles"
    texts = " ".join(t.text for t in view.review_panel.texts)
    assert "Our pile:" in texts and "Your discard: " in texts  # South dealt
    same_picture(window, view, "the piles")
    view.choose("review")  # the deal's file, your seat, and back to this table
    assert len(reviews) == 1
    (win, path), kw = reviews[0]
    assert win is window and Path(path).is_file() and kw["seat"] == view.ctl.you
    kw["back"]()
    assert window.current_view is view
    view.on_key_press(arcade.key.ENTER, 0)  # the key that goes on after a trick: never a choice here
    assert again == []
    view.on_key_press(arcade.key.N, 0)  # the key the default button names
    assert again == [1]


@pytest.mark.slow
def test_the_end_of_a_deal_waits_for_a_choice_never_for_the_continue_key(window, home) -> None:
    """Space, Enter or a click (what goes on after a trick) count the score up at once
    and go no further; N held down repeating from before is no choice either; a fresh
    press of N, the key the default button names, deals the next deal."""
    view = table(window, "piedicavallo", seed_where("piedicavallo", 0), match=True)
    view.on_key_press(arcade.key.N, 0)  # pressed during play (it means nothing there), and held
    while view.ctl.waiting != "scoring":
        if view.ctl.can_act():
            play_human_turn(view)
        view.on_update(1 / 60)
    assert not view.score_panel.done and view.ctl.end_choices[0] == "next"
    assert view.toolbar.end_button("next").label == "Next deal (N)"
    view.on_key_press(arcade.key.N, 0)  # N repeating as it is held: the count shown whole, no more
    assert view.score_panel.done and view.ctl.waiting == "scoring"
    for _i in range(5):
        view.on_key_press(arcade.key.N, 0)  # still held: key repeat
        view.on_key_press(arcade.key.SPACE, 0)
        view.on_key_press(arcade.key.ENTER, 0)
        click(view, 640, 60)
        frames(view, 3)
        assert view.ctl.waiting == "scoring" and view.score_panel is not None
    assert view.ctl.end.sheet.deal == 1
    view.on_key_release(arcade.key.N, 0)
    view.on_key_press(arcade.key.N, 0)  # let go and pressed again: the next deal
    frames(view, 3)
    assert view.ctl.waiting != "scoring" and view.score_panel is None
    assert view.ctl.position(view.ctl.shown).deal_no == 2
    view.close()


def test_the_match_line_is_drawn_and_follows_the_deals(window, home) -> None:
    view = table(window, "scarto", 5, match=True)
    settle(view)
    view.on_draw()
    assert view.texts.standing.text == "Deal 1 of 3"
    # the line stands clear of the pile lines above it
    assert all(view.texts.standing.top < t.bottom for t in view.table.labels.pile_labels if t.text)
    same_picture(window, view, "the match line")
    view.close()


def test_the_rule_of_a_refusal_is_a_tooltip_over_the_status(window, home) -> None:
    view = table(window, "scarto", seed_where("scarto", 0))
    settle(view)
    king = next(c for c in view.ctl.hand_order() if view.ctl.rules.pack.codes[c].endswith("K"))
    click(view, *card_point(view, king))
    view.on_draw()
    assert "King" in view.texts.status.text and "S4" not in view.texts.status.text
    x, y, w, h = view.texts.status_box()
    view.on_mouse_motion(x + w / 2, y + h / 2, 0, 0)
    view.on_draw()
    assert view.tooltip.text == "Rule S4 (see Rules)"
    same_picture(window, view, "the rule's tooltip")
    view.on_mouse_motion(640, 600, 0, 0)
    assert view._place_tooltip() is None
    view.close()


# --- the visible strip of each overlapped card --------------------------------------------------


def visible_points(view, card: int, step: float = 3.0):
    """Points of ``card`` in South's hand that no card drawn over it covers."""
    sprites = [s for s in view.table.sprites if s.key[0] == "card" and 100 <= s.place.z < 300
               and s.place.y < 300 and not s.place.hidden]
    me = next(s for s in sprites if s.key == ("card", card))
    over = [s.place for s in sprites if s.place.z > me.place.z]
    w, h = layout.card_size(me.place.scale)
    p = me.place
    out = []
    x = p.x - w / 2 + 1
    while x < p.x + w / 2:
        y = p.y - h / 2 + 1
        while y < p.y + h / 2:
            if layout.point_in_place(x, y, p) and not any(layout.point_in_place(x, y, q) for q in over):
                out.append((x, y))
            y += step
        x += step
    return out


def check_every_strip(view) -> int:
    hand = view.ctl.hand_order()
    checked = 0
    for c in hand:
        pts = visible_points(view, c)
        assert pts, f"no part of card {c} shows"
        for x, y in pts:
            assert view.table.card_at(x, y, 0) == c, (c, x, y)
        checked += len(pts)
    return checked


@pytest.mark.slow
@pytest.mark.parametrize("variant, cards", [("piedicavallo", 17), ("scarto", 28)])
def test_a_click_on_the_visible_strip_of_each_card_selects_it(window, home, variant, cards) -> None:
    view = table(window, variant, seed_where(variant, 0), practice=True)
    settle(view)
    frames(view, 20)
    assert view.game.state.phase == DISCARD and len(view.ctl.hand_order()) == cards
    assert check_every_strip(view) > 100 * cards
    # and through the window: a click at the middle of each card's visible part picks it
    ctl = view.ctl
    for c in ctl.hand_order():
        pts = visible_points(view, c)
        x, y = pts[len(pts) // 2]
        click(view, x, y)
        frames(view, 10, draw_every=0)  # the pick rises (0.12 s)
        refused = ctl.status.get("card") if ctl.status and ctl.status.key == "refused" else None
        assert c in ctl.discard.selected or refused == c, c  # picked, or this very card refused
        if c in ctl.discard.selected:
            pts = visible_points(view, c)  # raised now: its own visible part again
            click(view, *pts[len(pts) // 2])  # and again: put back
            frames(view, 10, draw_every=0)
            assert c not in ctl.discard.selected
    view.close()


@pytest.mark.slow
def test_the_visible_strips_of_a_25_card_hand_with_the_legal_cards_raised(window, home) -> None:
    view = table(window, "scarto", seed_where("scarto", 1))
    while True:
        settle(view)
        if view.game.state.phase == PLAY and len(view.ctl.legal_cards) < len(view.ctl.hand_order()):
            break
        play_human_turn(view)
    frames(view, 20)
    hand = view.ctl.hand_order()
    assert len(hand) >= 20
    places = {s.key[1]: s.place for s in view.table.sprites if s.key[0] == "card" and s.key[1] in hand}
    assert len({p.y for p in places.values()}) > 1  # some raised, some not
    check_every_strip(view)
    view.close()


@pytest.mark.slow
def test_a_finished_game_leaves_no_autosave_and_play_again_opens_a_new_table(window, home) -> None:
    from game.table.table_view import start_table

    game = session.new_game(partner="random", opponents="random", match=False,
                            seed=seed_where("piedicavallo", 3), variant="piedicavallo")
    window.settings.speed = 8.0
    start_table(window, game)
    view = window.current_view
    while not view.ctl.finished:
        settle(view)
        if not view.ctl.finished:
            play_human_turn(view)
    frames(view, 300)
    view.on_draw()
    assert not paths.autosave_path().exists()
    click(view, *view.toolbar.extra[0].rect[:2])  # Play again
    nxt = window.current_view
    assert isinstance(nxt, TableView) and nxt is not view and nxt.game.header.seed != game.header.seed
    assert nxt.game.rules.name == "piedicavallo" and nxt.game.states[0].n_deals == 1
    nxt.close()


@pytest.mark.slow
def test_review_this_deal_opens_the_theatres_review_and_comes_back(window, home, monkeypatch) -> None:
    """The button opens the router's "review" screen (``review_view.open_review``)."""
    from game.screens.message import MessageView
    from game.theatre import review_view

    calls = []

    def open_review(win, path, seat=None, back=None, *, deal=None):
        calls.append((win, path, seat, back))

    monkeypatch.setattr(review_view, "open_review", open_review)
    view = table(window, "scarto", seed_where("scarto", 2))
    while not view.ctl.finished:
        settle(view)
        if not view.ctl.finished:
            play_human_turn(view)
    frames(view, 300)
    view.on_draw()
    labels = [b.label for b in view.toolbar.extra]
    assert labels == ["The tricks", "Your pile", "Review this deal", "Back to the menu"]  # no on_again here
    click(view, *view.toolbar.extra[2].rect[:2])
    (win, path, seat, back), = calls
    assert win is window and path == view.ctl.replay_path and path.exists() and seat == 0
    window.show_view(MessageView(window, "elsewhere"))
    back()
    assert window.current_view is view
    view.on_update(1 / 60)
    view.on_draw()
    assert view.score_panel is not None


def test_no_review_button_without_the_theatres_entry_point(window, home, monkeypatch) -> None:
    from game import router

    monkeypatch.delitem(router.SCREENS, "review")  # a router without the review screen
    view = table(window, "piedicavallo", seed_where("piedicavallo", 1))
    assert view.ctl.on_review is None
    view.close()


# --- the practice set-up ---------------------------------------------------------------------


def test_practice_set_up_chooses_the_dealer_and_remembers_it(window, home) -> None:
    from game.common.settings import Settings
    from game.screens.menu import NewGameView

    window.settings = Settings.load()
    window.settings.variant = "scarto"
    setup = NewGameView(window, practice=True)
    window.show_view(setup)
    setup.on_draw()
    labels = [b.label for b in setup.buttons]
    assert "Dealer: drawn at random" in labels and any(lb.startswith("Deal: a new one") for lb in labels)
    click(setup, *setup.b_dealer.rect[:2])
    assert setup.b_dealer.label == "Dealer: You" and Settings.load().practice_dealer == 0
    for _ in range(3):  # East, West, then drawn again
        setup.cycle_dealer()
    assert setup.b_dealer.label == "Dealer: drawn at random" and Settings.load().practice_dealer == -1
    setup.cycle_dealer()  # you deal: to practise the exchange
    click(setup, *setup.b_start.rect[:2])
    view = window.current_view
    assert isinstance(view, TableView) and first_dealer(view.game.header.seed, view.game.rules) == 0
    settle(view)
    assert view.ctl.scene == "exchange" and view.ctl.can_act()
    view.close()
    # the new-game set-up has no such lines
    plain = NewGameView(window, practice=False)
    assert plain.b_dealer not in plain.buttons and plain.b_deal not in plain.buttons
    window.settings.practice_dealer = -1
    window.settings.variant = "piedicavallo"
    window.settings.save()


def test_practice_set_up_replays_a_deal_by_its_number(window, home) -> None:
    from game.common.settings import Settings
    from game.screens.menu import NewGameView

    window.settings = Settings.load()
    setup = NewGameView(window, practice=True)
    window.show_view(setup)
    click(setup, *setup.b_deal.rect[:2])
    assert setup.typing
    setup.on_text("4x2")  # digits only
    setup.on_key_press(arcade.key.BACKSPACE, 0)
    setup.on_text("42")
    setup.on_key_press(arcade.key.ENTER, 0)
    assert setup.deal_number == 442 and not setup.typing
    assert setup.b_deal.label == "Seed 442: these cards again" and not setup.b_dealer.enabled
    click(setup, *setup.b_start.rect[:2])
    view = window.current_view
    assert isinstance(view, TableView) and view.game.header.seed == 442 and view.ctl.practice
    assert view.game.header.extra.get("chosen_deal") is True
    view.close()
    # Esc while typing goes back to a new deal, and the menu stays
    setup = NewGameView(window, practice=True)
    window.show_view(setup)
    setup.toggle_typing()
    setup.on_text("7")
    setup.on_key_press(arcade.key.ESCAPE, 0)
    assert window.current_view is setup and setup.deal_number is None and not setup.typing


def test_arrows_and_enter_never_press_a_toolbar_button(window, home) -> None:
    """An arrow pressed while another seat plays used to move the toolbar's focus, and
    Enter on the player's turn then pressed that button (the menu: the game left)."""
    view = table(window, "piedicavallo", seed_where("piedicavallo", 2))
    view.on_key_press(arcade.key.RIGHT, 0)  # not South's turn yet
    view.on_key_press(arcade.key.DOWN, 0)
    assert view.focus == -1
    settle(view)
    cursor = view.game.cursor
    view.on_key_press(arcade.key.ENTER, 0)  # no card under the cursor: nothing happens
    assert window.current_view is view and view.game.cursor == cursor
    view.on_key_press(arcade.key.RIGHT, 0)
    assert view.ctl.keys.index == 0
    view.on_key_press(arcade.key.TAB, 0)  # Tab still reaches the toolbar
    assert view.focus == 0
    view.close()
