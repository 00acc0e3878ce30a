"""Your record at the table and on its screen: a finished deal the AI played
alone, at the table or in autoplay, is counted apart (``ai_only``), never in
``tarocchi stats --json``'s ``deals``, a rebuild
gives the same totals, and the "Your record" screen (reached from the menu)
draws its totals and charts in English, French and Italian."""

from __future__ import annotations

import json

import arcade
import pytest

from game.cli import main
from game.common import i18n, record
from game.common.constants import WIDTH
from game.table import session
from tests.test_gui_helpers import settle
from tests.test_record import golden, scarto


def stats_json(capsys, *args: str) -> dict:
    assert main(["stats", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


@pytest.fixture()
def english():
    i18n.set_language("en")
    yield
    i18n.set_language("en")


@pytest.mark.slow
def test_a_deal_the_ai_played_alone_at_the_table_is_counted_apart(window, home, capsys):
    from game.common.settings import Settings
    from game.common.sound import SoundBoard
    from game.table.table_view import TableView

    assert stats_json(capsys)["deals"] == 0
    game = session.new_game(partner="random", opponents="random", match=False, seed=3, human=False,
                            players=["random"] * 4)
    view = TableView(window, game, session.ai_players(game), human_seats=frozenset(),
                     settings=Settings(speed=8.0, auto_advance=True, sound=False),
                     sound=SoundBoard(False), auto_continue=True)
    window.show_view(view)
    settle(view, limit=20000, draw_every=30)
    assert view.ctl.finished and view.ctl.replay_path.parent == home / "replays"
    record.wait_for_notes()  # the table notes it off the frame loop
    view.close()
    s = stats_json(capsys)
    # the AI played every seat: recorded apart, never as the player's
    assert (s["deals"], s["games"]) == (0, 0) and s["by_level"] == {}
    assert s["ai_only"] == {"deals": 1, "games": 1}
    assert stats_json(capsys, "--rebuild") == s


@pytest.mark.slow
def test_autoplay_is_not_your_record_and_rebuild_agrees(window, home, capsys):
    from game.autoplay import run_autoplay

    golden("match-seed-7.jsonl", home / "replays" / "earlier.jsonl")  # kept from before
    before = stats_json(capsys)
    assert before["deals"] == 4
    run_autoplay(deals=1, seed=5, players=["random"] * 4, speed=8.0, window=window)
    after = stats_json(capsys)  # autoplay notes its replay itself before it returns
    # the AI alone: not the player's deals, counted apart
    assert {k: v for k, v in after.items() if k != "ai_only"} == \
        {k: v for k, v in before.items() if k != "ai_only"}
    assert after["ai_only"] == {"deals": 1, "games": 1}
    record.wait_for_notes()
    assert stats_json(capsys) == after  # the table's own note of the same file added nothing
    run_autoplay(deals=1, seed=5, players=["random"] * 4, speed=8.0, window=window)
    again = stats_json(capsys)
    assert again["deals"] == before["deals"]
    assert again["ai_only"]["deals"] == 2  # the same seed again is another game (another file)
    record.wait_for_notes()
    assert stats_json(capsys, "--rebuild") == again


def text_boxes(view):
    """(left, bottom, right, top, text) of every text on the screen."""
    out = []
    for t in view.texts:
        w, h = t.content_width, t.content_height
        left = {"left": t.x, "center": t.x - w / 2, "right": t.x - w}[t.anchor_x]
        bottom = {"bottom": t.y, "center": t.y - h / 2, "top": t.y - h, "baseline": t.y - h * 0.25}[t.anchor_y]
        out.append((left, bottom, left + w, bottom + h, t.text))
    return out


def overlaps(a, b, slack: float = 1.0) -> bool:
    return a[0] < b[2] - slack and b[0] < a[2] - slack and a[1] < b[3] - slack and b[1] < a[3] - slack


def fill_record(home) -> None:
    levels = ["easy", "hard", "medium", "random"]
    for i in range(10):
        opp = levels[i % 4]
        f = golden("match-seed-7.jsonl", home / "replays" / f"m{i}.jsonl",
                   players=["human", opp, "medium", opp], created=f"2026-0{1 + i % 9}-1{i % 10}T10:00:00Z")
        record.note_replay(f)
        record.set_accuracy(f, 1 + i % 4, 50.0 + 4 * i)
    record.note_replay(scarto(home / "replays" / "s.jsonl", [[30, 20, 28], [20, 30, 28], [22, 26, 30]],
                              created="2025-12-01T10:00:00Z"))


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_record_screen_draws_totals_and_charts(window, home, english, lang):
    from game.screens.record_view import ACCURACY, POINTS, RESULT_COLOURS, RecordView

    fill_record(home)
    i18n.set_language(lang)
    view = RecordView(window)
    window.show_view(view)
    view.on_update(1 / 60)
    view.on_draw()
    assert view.variant == "piedicavallo" and view.summary["deals"] == 40
    assert view.summary["reviewed"] == 10
    img = arcade.get_image().convert("RGB")
    # pictures, not tables: the result colours fill the bars and the charts
    colours = set(img.getdata())
    for c in RESULT_COLOURS.values():
        assert c[:3] in colours
    left, bottom, w, h = POINTS
    assert (236, 196, 92) in set(img.crop((left, 720 - bottom - h, left + w, 720 - bottom)).getdata())
    left, bottom, w, h = ACCURACY
    acc = img.crop((left + 60, 720 - bottom - h + 50, left + w - 90, 720 - bottom - 40))
    assert (120, 190, 255) in set(acc.getdata())  # the accuracy curve
    # every text on screen, none overlapping another (translations included)
    boxes = text_boxes(view)
    for b in boxes:
        assert 0 <= b[0] and b[2] <= WIDTH and 0 <= b[1] and b[3] <= 720, b
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not overlaps(a, b), (lang, a, b)
    if lang != "en":
        assert not any(t.text in ("Your record", "Deals", "Games") for t in view.texts)
    # two games recorded: G shows the other
    view.on_key_press(arcade.key.G, 0)
    other = window.current_view
    assert isinstance(other, RecordView) and other.variant == "scarto"
    other.on_draw()
    assert other.summary["deals"] == 3 and other.summary["games"] == 1
    boxes = text_boxes(other)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not overlaps(a, b), (lang, a, b)


def test_menu_opens_the_record_and_escape_comes_back(window, home, english):
    from game.screens.menu import MenuView
    from game.screens.record_view import RecordView

    session.new_game(partner="random", opponents="random", match=False, seed=4).close()  # unfinished
    menu = MenuView(window)
    window.show_view(menu)
    menu.on_draw()
    labels = [b.label for b in menu.buttons]
    assert labels[0] == "Resume Piedicavallo: trick 1" and "Your record" in labels
    # the nine buttons stay clear of each other and of the notice under them
    rects = [b.rect for b in menu.buttons]
    for (_x1, y1, _w1, h1), (_x2, y2, _w2, h2) in zip(rects, rects[1:], strict=False):
        assert y1 - h1 / 2 > y2 + h2 / 2
    assert menu.notice.text and rects[-1][1] - rects[-1][3] / 2 > menu.notice.y + menu.notice.content_height / 2
    for _ in range(labels.index("Your record")):
        menu.on_key_press(arcade.key.DOWN, 0)
    menu.on_key_press(arcade.key.ENTER, 0)
    view = window.current_view
    assert isinstance(view, RecordView)
    view.on_draw()
    assert "No finished deal yet." in [t.text for t in view.texts]  # an empty record says so
    view.on_key_press(arcade.key.ESCAPE, 0)
    assert isinstance(window.current_view, MenuView)
    window.current_view.on_key_press(arcade.key.ESCAPE, 0)  # the menu stays
    assert isinstance(window.current_view, MenuView)


def test_a_broken_record_is_said_and_rebuilt_from_the_screen(window, home, english):
    from game.screens.record_view import RecordView

    golden("match-seed-7.jsonl", home / "replays" / "m.jsonl")
    home.mkdir(parents=True, exist_ok=True)
    (home / "record.sqlite3").write_bytes(b"not a database " * 200)
    view = RecordView(window)
    window.show_view(view)
    view.on_draw()
    assert view.error and "Your record could not be read." in [t.text for t in view.texts]
    rebuild = next(b for b in view.buttons if b.label == "Rebuild the record")
    rebuild.press()
    fresh = window.current_view
    fresh.on_draw()
    assert not fresh.error and fresh.summary["deals"] == 4
