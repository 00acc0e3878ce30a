"""The Replays browser, driven headless as a player would: keys and text go
through the window's event queue (pyglet sends a key's ``on_key_press`` and then
its ``on_text``), clicks through ``on_mouse_press``."""

from __future__ import annotations

import shutil
from pathlib import Path

import arcade
import pytest

from engine.replay import read_replay
from game.common import i18n, paths

GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture()
def english():
    i18n.set_language("en")
    yield
    i18n.set_language("en")


@pytest.fixture(autouse=True)
def fresh_browser():
    """No filters, selection or opened files carried over from another test."""
    from game.theatre import replay_browser

    replay_browser.STATE.clear()
    replay_browser.OPENED.clear()
    yield
    replay_browser.STATE.clear()
    replay_browser.OPENED.clear()


def press(window, symbol: int, text: str | None = None, modifiers: int = 0) -> None:
    """A key as pyglet delivers it: the press, then the text it types (if any)."""
    window.dispatch_event("on_key_press", symbol, modifiers)
    if text is not None:
        window.dispatch_event("on_text", text)
    window.dispatch_event("on_key_release", symbol, modifiers)
    window.dispatch_events()


def two_replays() -> None:
    folder = paths.replays_dir()
    shutil.copy(GOLDEN / "single-seed-42.jsonl", folder / "a.jsonl")
    shutil.copy(GOLDEN / "match-seed-7.jsonl", folder / "b.jsonl")


def open_button(view):
    return next(b for b in view.buttons if b.label.startswith("Open file"))


def test_the_o_key_opens_the_path_prompt_without_typing_an_o(window, home, english):
    from game.theatre.replay_browser import ReplayBrowserView

    two_replays()
    view = ReplayBrowserView(window)
    window.show_view(view)
    view.on_draw()
    press(window, arcade.key.O, "o")
    assert view.typing
    assert view.path_text == ""  # the key that opened the prompt typed nothing into it
    press(window, arcade.key.SLASH, "/")
    press(window, arcade.key.O, "o")  # once open, an o is a letter of the path
    assert view.path_text == "/o"
    press(window, arcade.key.ESCAPE)
    assert not view.typing


@pytest.mark.slow
def test_enter_watches_the_highlighted_row_after_open_file(window, home, english):
    from game.theatre.replay_browser import ReplayBrowserView
    from game.theatre.theatre import ViewerView

    two_replays()
    view = ReplayBrowserView(window)
    window.show_view(view)
    view.on_draw()
    x, y = open_button(view).rect[:2]
    view.on_mouse_press(x, y, arcade.MOUSE_BUTTON_LEFT, 0)  # "Open file..." with the mouse
    assert view.typing
    for ch in "nowhere":
        press(window, arcade.key.A, ch)
    press(window, arcade.key.ENTER)  # no such file: the prompt closes and says so
    assert not view.typing
    press(window, arcade.key.DOWN)
    chosen = view.entries[view.selected].path
    press(window, arcade.key.ENTER)
    viewer = window.current_view
    assert isinstance(viewer, ViewerView), "Enter re-opened the prompt instead of watching the row"
    assert viewer.timeline.n == len(read_replay(chosen).events)  # the highlighted row's game
    # and after Escape from the prompt, too
    viewer.on_back()
    browser = window.current_view
    x, y = open_button(browser).rect[:2]
    browser.on_mouse_press(x, y, arcade.MOUSE_BUTTON_LEFT, 0)
    press(window, arcade.key.ESCAPE)
    assert not browser.typing and window.current_view is browser
    press(window, arcade.key.ENTER)
    assert isinstance(window.current_view, ViewerView)


# --- the rows: what a player wants to know, from the engine ----------------------------------


@pytest.fixture()
def dozen(home, english):
    from tests.support.replay_files import make_replays

    return make_replays(home)


def row_of(rows, path):
    return next(r for r in rows if r.path == path)


def test_each_row_says_date_game_players_and_result_not_the_file(dozen):
    from game.theatre import replay_list as rl

    rows = rl.load()
    assert len(rows) == len(dozen)
    for name, path in dozen.items():
        r = row_of(rows, path)
        shown = [rl.game_text(r), rl.players_text(r), *rl.result_lines(r)]
        assert not any(path.name in t or path.stem in t for t in shown), (name, shown)
        assert path.name in rl.file_text(r)  # only as a detail
    r = row_of(rows, dozen["p-single"])
    assert rl.when_text(r).startswith("1 Mar 2025, ")  # the day as people say it
    assert rl.title_text(r).startswith("Game with the AI, 1 Mar 2025, ")
    assert rl.title_text(row_of(rows, dozen["p-practice"])).startswith("Practice game, 4 Mar 2025, ")
    assert rl.title_text(row_of(rows, dozen["p-watched"])).startswith("Watched AI game, 5 Mar 2025, ")
    assert rl.game_text(r) == "Piedicavallo, single deal"
    assert rl.players_text(r) == "You (South)  ·  East: hard  ·  Partner: medium  ·  West: hard"
    assert rl.game_text(row_of(rows, dozen["p-match"])) == "Piedicavallo, match of 4 deals"
    assert rl.game_text(row_of(rows, dozen["s-game"])) == "Scarto, game of 3 deals"
    assert rl.game_text(row_of(rows, dozen["s-single"])) == "Scarto, single deal"
    assert rl.game_text(row_of(rows, dozen["p-practice"])).endswith("practice")
    assert rl.game_text(row_of(rows, dozen["p-watched"])).endswith("watched AI game")
    assert rl.players_text(row_of(rows, dozen["p-watched"])).startswith("South: hard  ·  East: medium")
    auto = row_of(rows, dozen["autoplay"])
    assert auto.where == "autoplay" and rl.game_text(auto).endswith("autoplay")
    assert row_of(rows, dozen["autosave"]).autosave
    broken = row_of(rows, dozen["broken"])
    assert not broken.ok and "line 2" in broken.error and rl.result_lines(broken)[0] == "Cannot be read"


def test_results_are_the_engines_from_the_players_side(dozen):
    from game.theatre import replay_list as rl

    rows = rl.load()
    for name in ("p-single", "p-match", "p-practice", "s-single", "s-game"):
        rp = read_replay(dozen[name])
        outcome = rp.rules.game_outcome(rp.final.scores)
        totals = rp.final.totals
        head, detail = rl.result_lines(row_of(rows, dozen[name]))
        word = "Drawn" if outcome.draw else ("Won" if 0 in outcome.winners else "Lost")
        if rp.rules.n_sides == 2:  # our side's points first
            assert head == f"{word} {totals[0]}–{totals[1]}", name
            assert sum(rp.final.scores[0]) == 114
        else:  # your score, then the others'
            assert head == f"{word} {rl.signed(totals[0])}", name
            assert detail == f"East {rl.signed(totals[1])}  ·  West {rl.signed(totals[2])}"
            assert sum(totals) == 0
    # a watched game is told by name: the winning team and its points first
    rp = read_replay(dozen["p-watched"])
    t = rp.final.totals
    win = 0 if t[0] > t[1] else 1
    team = ("South-North", "East-West")[win]
    assert rl.result_lines(row_of(rows, dozen["p-watched"]))[0] == f"{team} won {t[win]}–{t[1 - win]}"


def test_unfinished_games_say_how_far_they_got(dozen):
    from game.theatre import replay_list as rl

    rows = rl.load()
    half = row_of(rows, dozen["p-match-half"])
    rp = read_replay(dozen["p-match-half"])
    t = rp.final.totals
    assert half.status == rl.UNFINISHED and len(rp.final.scores) == 1
    assert rl.result_lines(half) == ("Unfinished", f"deal 2 of 4, 7 tricks of 15 played  ·  {t[0]}–{t[1]} so far")
    head, detail = rl.result_lines(row_of(rows, dozen["s-discard"]))
    assert head == "Unfinished" and detail.startswith("deal 2 of 3, the discard  ·  ")
    assert rl.result_lines(row_of(rows, dozen["autosave"])) == ("Unfinished", "0 tricks of 15 played")


def test_filters_by_game_state_and_text_and_sorts(dozen):
    from game.theatre import replay_list as rl

    rows = rl.load()
    assert [r.path for r in rows] == sorted((r.path for r in rows), key=lambda p: row_of(rows, p).when,
                                            reverse=True)
    scarto = rl.select(rows, game="scarto")
    assert {r.path for r in scarto} == {dozen[n] for n in ("s-single", "s-game", "s-discard", "s-watched")}
    unfinished = rl.select(rows, status="unfinished")
    assert {r.path for r in unfinished} == {dozen[n] for n in ("p-match-half", "s-discard", "autosave")}
    finished = rl.select(rows, status="finished")
    assert all(r.finished for r in finished) and len(finished) == len(rows) - 4  # less the broken one
    hard = rl.select(rows, text="HARD")
    assert hard and all("hard" in rl.players_text(r) for r in hard)
    assert rl.select(rows, text="p-match-half") == [row_of(rows, dozen["p-match-half"])]  # the file name too
    assert rl.select(rows, order="oldest") == rows[::-1]
    by_result = rl.select(rows, order="result")
    statuses = [r.status for r in by_result]
    assert statuses == sorted(statuses, key=rl.STATUS_ORDER.index)


def test_trash_moves_the_file_and_never_deletes_it(dozen, home):
    from game.theatre import replay_list as rl

    src = dozen["p-single"]
    data = src.read_bytes()
    dest = rl.trash(src)
    assert dest == home / "trash" / src.name and dest.read_bytes() == data and not src.exists()
    # the same name again: a free name beside it
    src.write_bytes(data)
    again = rl.trash(src)
    assert again == home / "trash" / "p-single-1.jsonl" and again.read_bytes() == data
    assert dest.read_bytes() == data
    with pytest.raises(rl.TrashError, match="interrupted game"):
        rl.trash(dozen["autosave"])
    assert dozen["autosave"].exists()
    assert src not in [r.path for r in rl.load()] and dest not in [r.path for r in rl.load()]


# --- the screen -----------------------------------------------------------------------------


def overlaps(a, b, slack: float = 1.0) -> bool:
    return a[0] < b[2] - slack and b[0] < a[2] - slack and a[1] < b[3] - slack and b[1] < a[3] - slack


def check_layout(view, label: str) -> None:
    from game.common.constants import HEIGHT, WIDTH

    boxes = [(t.left, t.bottom, t.right, t.top, t.text) for t in view.texts()]
    from game.theatre.replay_question import DIALOG

    for b in boxes:
        assert 0 <= b[0] and b[2] <= WIDTH and 0 <= b[1] and b[3] <= HEIGHT, (label, b)
        if view.confirm is not None:  # the question's texts stay in its box
            assert DIALOG[0] < b[0] and b[2] < DIALOG[2] and DIALOG[1] < b[1] and b[3] < DIALOG[3], (label, b)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not overlaps(a, b), (label, a, b)
    for b in view.buttons:
        assert b.text.content_width <= b.rect[2] - 8, (label, b.label)
        for t in boxes:
            cx, cy, w, h = b.rect
            assert not overlaps(t, (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)), (label, b.label, t)


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_the_browser_lays_out_a_dozen_replays_in_each_language(window, dozen, lang):
    from game.theatre.replay_browser import ReplayBrowserView

    i18n.set_language(lang)
    view = ReplayBrowserView(window)
    window.show_view(view)
    view.on_draw()
    assert len(view.entries) == len(dozen)
    check_layout(view, lang)
    view.on_key_press(arcade.key.END, 0)  # the rows further down
    view.on_draw()
    check_layout(view, lang + " end")
    view.on_key_press(arcade.key.HOME, 0)
    view.on_key_press(arcade.key.DOWN, 0)
    view.on_key_press(arcade.key.DOWN, 0)  # past the broken file and the interrupted game
    view.on_key_press(arcade.key.DELETE, 0)
    assert view.confirm is not None
    view.on_draw()
    check_layout(view, lang + " question")
    if lang != "en":
        texts = {t.text for t in view.texts()}
        assert not texts & {"Replays", "Move this replay to the trash?", "Unfinished"}


def test_delete_asks_then_moves_the_file_to_the_trash(window, dozen, home):
    from game.theatre.replay_browser import ReplayBrowserView

    view = ReplayBrowserView(window)
    window.show_view(view)
    k = arcade.key
    view.selected = [e.path for e in view.entries].index(dozen["s-game"])
    view._layout_rows()
    press(window, k.DELETE)
    assert view.confirm is not None and view.confirm.path == dozen["s-game"]
    assert str(home / "trash") in view.question.detail.text and "not erased" in view.question.detail.text
    press(window, k.ESCAPE)  # kept
    assert view.confirm is None and dozen["s-game"].exists() and len(view.entries) == len(dozen)
    press(window, k.DELETE)
    press(window, k.ENTER)  # moved
    assert view.confirm is None and not dozen["s-game"].exists()
    assert (home / "trash" / "s-game.jsonl").exists()
    assert len(view.entries) == len(dozen) - 1 and dozen["s-game"] not in [e.path for e in view.entries]
    assert "trash" in view.prompt.text
    # the interrupted game is not deleted here
    view.selected = [e.path for e in view.entries].index(dozen["autosave"])
    view._layout_rows()
    assert not view.b_delete.enabled
    press(window, k.DELETE)
    assert view.confirm is None and dozen["autosave"].exists() and "interrupted" in view.prompt.text
    # with the mouse: the Delete button, then "Move to the trash"
    view.selected = [e.path for e in view.entries].index(dozen["p-single"])
    view._layout_rows()
    view.on_mouse_press(*view.b_delete.rect[:2], arcade.MOUSE_BUTTON_LEFT, 0)
    assert view.confirm is not None
    view.on_mouse_press(*view.question.b_yes.rect[:2], arcade.MOUSE_BUTTON_LEFT, 0)
    assert not dozen["p-single"].exists() and (home / "trash" / "p-single.jsonl").exists()


@pytest.mark.slow
def test_filter_keys_and_the_search_box(window, dozen):
    from game.theatre.replay_browser import ReplayBrowserView

    view = ReplayBrowserView(window)
    window.show_view(view)
    k = arcade.key
    press(window, k.G, "g")  # Piedicavallo
    assert {e.variant for e in view.entries} == {"piedicavallo"} and view.b_game.label == "Game: Piedicavallo"
    press(window, k.G, "g")  # Scarto
    assert {e.variant for e in view.entries} == {"scarto"}
    press(window, k.F, "f")  # finished only
    assert view.entries and all(e.finished for e in view.entries)
    press(window, k.G, "g")
    press(window, k.F, "f")  # unfinished only
    assert {e.path for e in view.entries} == {dozen[n] for n in ("p-match-half", "s-discard", "autosave")}
    press(window, k.F, "f")
    press(window, k.S, "s")
    assert view.order == "oldest" and view.entries[0].path == dozen["p-single"]
    press(window, k.SLASH, "/")
    assert view.searching and view.search == ""  # the slash that opened the box is not searched for
    for ch in "easy":
        press(window, k.A, ch)
    assert view.search == "easy" and view.entries
    assert all("easy" in rl_players(e) for e in view.entries)
    press(window, k.ENTER)  # the search stays, the keys go back to the list
    assert not view.searching and view.search == "easy"
    press(window, k.SLASH, "/")
    press(window, k.ESCAPE)  # Escape clears it
    assert view.search == "" and len(view.entries) == len(dozen)
    view.on_draw()


def rl_players(row) -> str:
    from game.theatre import replay_list as rl

    return rl.players_text(row)


@pytest.mark.slow
def test_the_mouse_selects_then_watches_a_row(window, dozen):
    from game.theatre.replay_browser import ReplayBrowserView
    from game.theatre.replay_rows import ROW_H, TOP
    from game.theatre.theatre import ViewerView

    view = ReplayBrowserView(window)
    window.show_view(view)
    second = view.entries[1].path
    view.on_mouse_press(640, TOP - ROW_H, arcade.MOUSE_BUTTON_LEFT, 0)
    assert view.selected == 1 and isinstance(window.current_view, ReplayBrowserView)
    view.on_mouse_motion(640, TOP - 3 * ROW_H, 0, 0)
    assert view.entries[3].path.name in view.row_list.detail.text  # the file of the row under the mouse
    view.on_mouse_press(640, TOP - ROW_H, arcade.MOUSE_BUTTON_LEFT, 0)
    assert isinstance(window.current_view, ViewerView)
    assert window.current_view.timeline.n == len(read_replay(second).events)
    window.current_view.on_back()  # back from the viewer: the same row is highlighted
    back = window.current_view
    assert isinstance(back, ReplayBrowserView) and back.entries[back.selected].path == second


def test_a_fifo_or_a_huge_file_is_listed_with_the_readers_error(home, english):
    import os

    from game.theatre import replay_list as rl

    folder = paths.replays_dir()
    os.mkfifo(folder / "pipe.jsonl")  # reading it naively would wait for a writer forever
    (folder / "huge.jsonl").write_bytes(b"x" * (3 << 20))
    rows = {r.path.name: r for r in rl.load()}
    assert set(rows) == {"pipe.jsonl", "huge.jsonl"}
    assert all(not r.ok and r.error for r in rows.values())
    assert rl.result_lines(rows["pipe.jsonl"])[0] == "Cannot be read"


@pytest.mark.slow
def test_r_reviews_the_highlighted_finished_game(window, dozen, monkeypatch):
    from game import router
    from game.theatre import review_view
    from game.theatre.replay_browser import ReplayBrowserView

    calls = []
    review_screen = router.SCREENS["review"]
    monkeypatch.delitem(router.SCREENS, "review")  # a router without the review screen
    view = ReplayBrowserView(window)
    window.show_view(view)
    view.selected = [e.path for e in view.entries].index(dozen["p-match"])
    view._layout_rows()
    assert not view.b_review.enabled  # no review mode in the theatre yet: nothing to call
    press(window, arcade.key.R, "r")
    assert window.current_view is view

    def open_review(window_, path, seat=None, back=None, *, deal=None):
        calls.append((window_, path, seat, back))

    monkeypatch.setitem(router.SCREENS, "review", review_screen)
    monkeypatch.setattr(review_view, "open_review", open_review)
    view._layout_rows()
    assert view.b_review.enabled
    press(window, arcade.key.R, "r")
    assert [(w, p, s) for w, p, s, _b in calls] == [(window, dozen["p-match"], None)]  # the file's human seat
    calls[0][3]()  # leaving the review comes back to the browser
    assert isinstance(window.current_view, ReplayBrowserView)
    back = window.current_view
    back.selected = [e.path for e in back.entries].index(dozen["p-match-half"])
    back._layout_rows()
    assert not back.b_review.enabled
    press(window, arcade.key.R, "r")  # an unfinished game is not reviewed
    assert len(calls) == 1


def test_an_online_game_is_named_for_the_people_at_it_and_seen_from_your_own_seat(home, english) -> None:
    """An online game's file keeps your seat and the people's names: its row, the
    replay's heading and the review's say "Online game with Anna", and "you" are the
    seat you took (East here), not the first friend's."""
    from datetime import UTC, datetime

    from engine.players import RandomPlayer
    from engine.simulate import play_game
    from engine.variants import PIEDICAVALLO
    from game.theatre import replay_list as rl
    from tests.support.replay_files import _write

    g = play_game(21, [RandomPlayer()] * 4, 1, rules=PIEDICAVALLO)
    path = _write(home / "replays" / "20251207-120812-online-deal-21.jsonl", g,
                  ["human", "human", "medium", "medium"], created="2025-12-07T12:08:00Z",
                  online=True, seat=1, names=["Anna", "Bruno", "", ""])
    r = rl.describe(path)
    assert r.online and r.viewer == 1 and rl.people(r) == ["Anna"]
    when = rl.date_text(datetime(2025, 12, 7, 12, 8, tzinfo=UTC))
    assert rl.title_text(r) == f"Online game with Anna, {when}"
    assert rl.game_title(path) == rl.title_text(r) and path.name not in rl.game_title(path)
    assert rl.game_text(r) == "Piedicavallo, single deal  ·  online with Anna"
    assert rl.players_text(r).startswith("You (East)  ·  ")
    assert "South: Anna" in rl.players_text(r)  # the seat's own name, then who sat there
    same_year = rl.date_text(datetime(2025, 12, 7, 12, 8, tzinfo=UTC), now=datetime(2025, 12, 9, tzinfo=UTC))
    assert same_year.startswith("7 Dec, ") and "2025" not in same_year
