"""The Rules screen: its content checked against the rule book (RULES.md, written
out here by hand, not read from the engine), worded in every language, and the
screen drawn headless: every section of both games in English, French and
Italian with no text leaving its box or lying over another text or a card,
the real card pictures on screen, and the keys and the mouse."""

from __future__ import annotations

import arcade
import pytest

from engine.ruleset import ruleset
from game.common import i18n
from game.common.constants import HEIGHT, WIDTH
from game.screens import rules_content as rc

GAMES = ("piedicavallo", "scarto")
LANGS = ("en", "fr", "it")


@pytest.fixture()
def english():
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def section(game: str, key: str) -> rc.Section:
    return next(s for s in rc.sections(ruleset(game)) if s.key == key)


def groups(sec: rc.Section) -> list[rc.Group]:
    return [g for b in sec.blocks if isinstance(b, rc.Cards) for g in b.groups]


def codes(g: rc.Group) -> list[str]:
    return [f.code for f in g.cards]


# --- the content, from the rule book ---------------------------------------------------


def test_both_games_have_the_same_sections_in_order():
    for game in GAMES:
        keys = [s.key for s in rc.sections(ruleset(game))]
        assert keys == ["pack", "faces", "ranks", "points", "deal", "discard", "play", "scoring", "game",
                        "glossary", "tips"]


def test_rank_rows_are_the_rule_books_orders():
    # R3: trumps 21 down to 1; Swords/Batons K Q N J 10..5; Cups/Coins K Q N J 1..6
    ranks = groups(section("piedicavallo", "ranks"))
    assert codes(ranks[0]) == [f"T{n}" for n in range(21, 0, -1)]
    assert codes(ranks[1]) == ["SK", "SQ", "SN", "SJ", "S10", "S9", "S8", "S7", "S6", "S5"]
    assert codes(ranks[2]) == ["CK", "CQ", "CN", "CJ", "C1", "C2", "C3", "C4", "C5", "C6"]
    # S2: trump 20 above 21; Swords K Q N J 10..1; Cups K Q N J 1..10
    ranks = groups(section("scarto", "ranks"))
    assert codes(ranks[0]) == ["T20"] and ranks[0].cards[0].mark == rc.GOLD
    assert codes(ranks[1]) == ["T21"] + [f"T{n}" for n in range(19, 0, -1)]
    assert codes(ranks[2]) == ["SK", "SQ", "SN", "SJ"] + [f"S{n}" for n in range(10, 0, -1)]
    assert codes(ranks[3]) == ["CK", "CQ", "CN", "CJ"] + [f"C{n}" for n in range(1, 11)]


def test_point_groups_hold_exactly_the_cards_of_each_value():
    kings = {"SK", "BK", "CK", "DK"}
    queens, knights, jacks = ({s + r for s in "SBCD"} for r in "QNJ")
    want = {"piedicavallo": {5: kings | {"T1", "T21", "M"}, 4: queens, 3: knights, 2: jacks},  # R4
            "scarto": {5: kings | {"T1", "T20"}, 4: queens | {"M"}, 3: knights, 2: jacks}}  # S3
    for game in GAMES:
        gs = groups(section(game, "points"))
        got = {int(g.caption.n): set(codes(g)) for g in gs if g.caption.plural}
        assert got == want[game]
        ones = gs[-1]
        assert codes(ones) and all(ruleset(game).pack.points[ruleset(game).pack.parse(c)] == 1 for c in codes(ones))
    assert "T21" in codes(groups(section("scarto", "points"))[-1])  # S3: trump 21 is worth 1


def test_the_cards_never_laid_aside_are_crossed():
    want = {"piedicavallo": {"SK", "BK", "CK", "DK", "T1", "T21", "M"},  # R6
            "scarto": {"SK", "BK", "CK", "DK", "T20", "M"}}  # S4
    for game in GAMES:
        never = groups(section(game, "discard"))[0]
        assert set(codes(never)) == want[game] and len(never.cards) == len(want[game])
        assert all(f.mark == rc.CROSSED for f in never.cards)
        rest = [f for g in groups(section(game, "discard"))[1:] for f in g.cards]
        assert not {f.code for f in rest} & want[game]
        assert all(f.mark != rc.CROSSED for f in rest)
    # S4: trump 1 only without other trumps and Matto: shown apart, dimmed
    t1 = groups(section("scarto", "discard"))[1]
    assert codes(t1) == ["T1"] and t1.cards[0].mark == rc.DIMMED


def test_the_example_tricks_are_won_by_the_right_card():
    for game, winner in (("piedicavallo", "T4"), ("scarto", "T20")):  # R8 (a trump over the King); S2
        trick = groups(section(game, "play"))[0]
        gold = [f.code for f in trick.cards if f.mark == rc.GOLD]
        assert gold == [winner]
    assert "M" in codes(groups(section("piedicavallo", "play"))[0])  # the Matto never wins (R9)


def test_scartos_groups_are_counted_as_the_rule_book_says(english):
    # S6: a group of three is its points - 2; the Matto's trick of two +1 - 2; the Matto alone 4
    notes = [rc.words(g.note) for g in groups(section("scarto", "scoring"))]
    assert notes == ["5 + 5 + 1 − 2 = 9", "1 + 1 + 1 − 2 = 1", "4 + 3 + 2 − 2 = 7", "(5 + 1) + 1 − 2 = 5", "4"]
    assert rc.words(groups(section("piedicavallo", "scoring"))[0].note) == "5 + 1 + 1 + 4 = 11"


def test_the_example_games_are_scored_by_the_engine(english):
    match = next(b for b in section("piedicavallo", "game").blocks if isinstance(b, rc.Scores))
    assert match.total[1] == (231, 225) and rc.words(match.result) == "We win the match, 231 to 225!"
    game = next(b for b in section("scarto", "game").blocks if isinstance(b, rc.Scores))
    assert all(sum(v) == 0 for _label, v in game.rows)  # S6: each deal's scores add up to zero
    assert game.total[1] == (-6, -2, 8)
    assert rc.words(game.result) == "You have the lowest total: you lose the game"


def test_the_legend_names_the_faces_and_the_codes(english):
    faces = section("piedicavallo", "faces")
    tops = [rc.words(f.top) for g in groups(faces) for f in g.cards]
    assert {"R = Re", "D = Donna", "C = Cavallo", "F = Fante", "X = 10", "IX = 9"} <= set(tops)
    assert {"SK", "B10", "CN", "D1", "T21", "M"} <= set(tops)
    names = {rc.words(f.top): rc.words(f.bottom) for f in groups(faces)[-1].cards}
    assert names == {"SK": "King of Swords", "B10": "10 of Batons", "CN": "Knight of Cups", "D1": "Ace of Coins",
                     "T21": "Trump 21", "M": "The Matto"}


def test_the_deal_says_who_cuts_and_who_leads(english):
    for game, n in (("piedicavallo", 4), ("scarto", 3)):
        seats = next(b for b in section(game, "deal").blocks if isinstance(b, rc.Seats))
        roles = [rc.words(r) if r else "" for r in seats.roles]
        # R5/S4: you deal; the player on your left (West) cuts, the one on your right (East) leads
        west = ruleset(game).seat_names.index("West")
        assert roles[0] == "deals" and roles[west] == "cuts" and roles[1] == "leads first"
        counts = [rc.words(c) for c in seats.counts]
        assert counts == (["17 cards"] + ["15 cards"] * 3 if n == 4 else ["25 cards"] * 3)


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["fr", "it"])
def test_every_text_is_translated(lang):
    same_in_french = {"Points", "Total", "1 point", "2 points", "3 points", "4 points", "5 points"}
    try:
        for game in GAMES:
            for sec in rc.sections(ruleset(game)):
                for s in rc.all_says(sec):
                    i18n.set_language("en")
                    en = rc.words(s)
                    i18n.set_language(lang)
                    text = rc.words(s)
                    assert text, (game, sec.key, s)
                    verbatim = s.msgid == "{t}"
                    if not verbatim and not (lang == "fr" and en in same_in_french):
                        assert text != en, (lang, game, sec.key, en)
    finally:
        i18n.set_language("en")


# --- the screen --------------------------------------------------------------------------


def overlaps(a, b, slack: float = 1.0) -> bool:
    return a[0] < b[2] - slack and b[0] < a[2] - slack and a[1] < b[3] - slack and b[1] < a[3] - slack


def cream(img, box) -> int:
    """Light card-face pixels inside a logical box (left, bottom, right, top)."""
    left, bottom, right, top = (round(v) for v in box[:4])
    crop = img.crop((left + 4, HEIGHT - top + 4, right - 4, HEIGHT - bottom - 4))
    return sum(1 for p in crop.getdata() if min(p[:3]) > 200)


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_every_section_fits_its_box_in_each_language(window, home, english, lang):
    from game.screens.rules import CONTENT, RulesView

    i18n.set_language(lang)
    for game in GAMES:
        for i in range(len(rc.sections(ruleset(game)))):
            view = RulesView(window, game=game, section=i)
            window.show_view(view)
            view.on_draw()
            texts = view.text_boxes()
            cards = view.card_boxes()
            assert cards or view.sections[i].key in ("game", "deal")
            for b in texts:
                assert 0 <= b[0] and b[2] <= WIDTH and 0 <= b[1] and b[3] <= HEIGHT, (lang, game, i, b)
            content = texts[4 if view.rule_ids.text else 3:]
            for b in content + cards:
                assert CONTENT[0] - 1 <= b[0] and b[2] <= CONTENT[2] + 1, (lang, game, i, b)
                # nothing lies below the content area that scrolling cannot reach
                assert b[1] >= CONTENT[1] - view.max_scroll - 1, (lang, game, i, b)
            assert view.max_scroll == 0, (lang, game, i, view.max_scroll)  # each section fits at 1280x720
            for j, a in enumerate(texts):
                for b in texts[j + 1:] + cards:
                    assert not overlaps(a, b), (lang, game, i, a, b)
            for b in view.buttons:
                assert b.text.content_width <= b.rect[2] - 8, (lang, b.label)


def test_the_real_card_pictures_are_drawn(window, home, english):
    from game.screens.rules import RulesView

    view = RulesView(window, game="piedicavallo", section=5)  # the discard
    window.show_view(view)
    view.on_draw()
    img = arcade.get_image().convert("RGB")
    boxes = {b[4]: b for b in view.card_boxes()}
    assert view.sprites is not None and len(view.sprites) == len(boxes)
    assert cream(img, boxes["SQ"]) > 500  # a face, drawn
    left, bottom, right, top = (round(v) for v in boxes["SK"][:4])
    crossed = img.crop((left, HEIGHT - top, right, HEIGHT - bottom))
    assert sum(1 for p in crossed.getdata() if p[0] > 180 and p[1] < 90 and p[2] < 90) > 100  # the red cross


@pytest.mark.slow
def test_keys_and_mouse_step_through_the_sections_and_games(window, home, english):
    from game.screens import rules
    from game.screens.menu import MenuView
    from game.screens.rules import RulesView

    k = arcade.key
    rules.LAST.clear()
    window.settings.variant = "scarto"
    try:
        view = RulesView(window)
        window.show_view(view)
        assert view.game == "scarto" and view.index == 0  # the game last chosen in the settings
        view.on_key_press(k.RIGHT, 0)
        view.on_key_press(k.RIGHT, 0)
        assert view.sections[view.index].key == "ranks"
        view.on_key_press(k.LEFT, 0)
        assert view.index == 1
        view.on_key_press(k.KEY_7, 0)
        assert view.sections[view.index].key == "play"
        view.on_key_press(k.G, 0)
        assert view.game == "piedicavallo" and view.index == 6  # same section, other game
        assert view.heading.text == "Playing a trick"
        # the mouse: a tab, then Previous
        x, y = view.tab_buttons[2].rect[:2]
        view.on_mouse_press(x, y, arcade.MOUSE_BUTTON_LEFT, 0)
        assert view.index == 2
        x, y = view.b_prev.rect[:2]
        view.on_mouse_press(x, y, arcade.MOUSE_BUTTON_LEFT, 0)
        assert view.index == 1
        # Tab moves the keyboard focus over the buttons, Enter presses the focused one
        view.focus = view.buttons.index(view.b_next)
        view.on_key_press(k.ENTER, 0)
        assert view.index == 2
        view.on_draw()
        # scrolling stays within the content (none needed at 1280x720: a taller one is simulated)
        view.on_key_press(k.PAGEDOWN, 0)
        assert view.scroll == 0
        view.max_scroll = 300.0
        view.on_key_press(k.DOWN, 0)
        assert view.scroll == 40
        view.on_key_press(k.END, 0)
        assert view.scroll == 300
        view.on_mouse_scroll(0, 0, 0, 1)
        assert view.scroll == 260
        view.on_key_press(k.HOME, 0)
        assert view.scroll == 0
        view.on_key_press(k.ESCAPE, 0)
        assert isinstance(window.current_view, MenuView)
        again = RulesView(window)  # reopened: where the player was
        assert (again.game, again.index) == ("piedicavallo", 2)
    finally:
        window.settings.variant = "piedicavallo"
        rules.LAST.clear()


def test_the_menu_opens_the_rules(window, home, english):
    from game.screens.menu import MenuView
    from game.screens.rules import RulesView

    menu = MenuView(window)
    window.show_view(menu)
    next(b for b in menu.buttons if b.label == "Rules").press()
    assert isinstance(window.current_view, RulesView)
