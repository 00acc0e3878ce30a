"""Learn to play: each game's course driven start to end through the
lesson controller (no window), every prepared move accepted by the engine, the
rules each move met read from what happened and equal to what the lesson says,
every rule of RULES.md's play and discard sections met in each course; a wrong
move explained and not taken; progress written atomically and resumed."""

from __future__ import annotations

import json

import pytest

from engine.cards import mask_cards
from engine.state import DISCARD, PLAY, Discard, Play
from game.common import i18n
from game.common.words import Words
from game.table import lessons
from game.table.lessons import BY_ID, COURSES, LESSONS, LessonController
from game.table.table_controller import InlineExecutor

#: RULES.md's discard and play rules: Piedicavallo's R6 (the discard) and R7-R9
#: (Play), Scarto's S4 (deal and discard) and S5 (play)
REQUIRED = {"piedicavallo": {"R6", "R7", "R8", "R9"}, "scarto": {"S4", "S5"}}
#: which lesson meets which rule ids (the course's table)
MEETS = {
    "p1-follow": ["R7", "R8"],
    "p2-trump": ["R7", "R8"],
    "p3-matto": ["R7", "R8", "R9"],
    "p4-discard": ["R6", "R7"],
    "p5-coach": ["R7", "R8", "R9", "R10", "R12"],
    "s1-play": ["S5"],
    "s2-stock": ["S4", "S5"],
    "s3-matto": ["S5"],
    "s4-coach": ["S4", "S5", "S6"],
}


class Recorder:
    busy = False

    def __init__(self) -> None:
        self.laid: list[tuple[object, frozenset, frozenset, bool]] = []

    def show(self, step) -> None:
        pass

    def lay(self, pos, raised, dimmed, ease) -> None:
        self.laid.append((pos, raised, dimmed, ease))

    def show_hints(self, hints) -> None:
        pass

    def play_sound(self, name: str) -> None:
        pass


def make(lesson_id: str, **kw) -> tuple[LessonController, Recorder]:
    out = Recorder()
    ctl = LessonController(BY_ID[lesson_id], out, executor=InlineExecutor(), auto_continue=True, **kw)
    ctl.speed = 1000.0
    return ctl, out


def run(ctl: LessonController, out: Recorder, words: dict[str, list[str]] | None = None) -> None:
    """The lesson by its own prepared moves, as a player following it would."""
    for _ in range(30000):
        ctl.update(1 / 60)
        if ctl.can_act():
            view = ctl.view()
            cards = ctl._cards(ctl.expected)
            # the move is lit: the card raised (a discard: the cards left undimmed), the rest dimmed
            _pos, raised, dimmed, _ease = out.laid[-1]
            hand = set(ctl.hand_order())
            # a guided move: everything else dimmed; a free deal: only what no rule allows
            assert dimmed == hand - (ctl.legal_cards if ctl.lesson.free else cards)
            assert ctl.lesson.free or cards <= ctl.legal_cards
            assert raised == (set() if view.phase == DISCARD else cards)
            if words is not None:
                for lang in ("en", "fr", "it"):
                    i18n.set_language(lang)
                    w = Words(ctl.rules, 0)
                    words[lang] += [w.say(ctl.status), w.say(ctl.coach)]
                    assert "No Trumps" not in words[lang][-2]  # trumps led to a hand without any
                i18n.set_language("en")
            before = ctl.session.cursor
            assert ctl.auto_move()
            assert ctl.session.cursor > before, ctl.status  # the engine took it
            assert ctl.tone != "error"
        if ctl.done and (not ctl.lesson.free or ctl.finished):
            ctl.update(1 / 60)
            return
    raise AssertionError(f"{ctl.lesson.id}: not finished at move {ctl.step_no}")


@pytest.mark.slow
@pytest.mark.parametrize("game", ["piedicavallo", "scarto"])
def test_each_course_plays_start_to_end_and_meets_every_play_and_discard_rule(game: str, home) -> None:
    met: dict[str, list[str]] = {}
    for lid in COURSES[game]:
        ctl, out = make(lid)
        words: dict[str, list[str]] = {"en": [], "fr": [], "it": []}
        run(ctl, out, words)
        lesson = ctl.lesson
        assert ctl.step_no == ctl.n_steps
        if lesson.free:
            assert ctl.finished and ctl.view().phase != PLAY  # the deal was played out and scored
        else:
            # the rules each prepared move met, as it happened, are the lesson's own list
            assert [rs for _i, rs in ctl.met] == [s.rules for s in lesson.steps], lid
        met[lid] = ctl.rules_met()
        # every text of the lesson is worded in each language
        for lang, texts in words.items():
            assert texts and all(t and "{" not in t for t in texts), (lid, lang)
        assert words["en"] != words["fr"] != words["it"]
        if lesson.free:  # the deal's score sheet ends it, the coach's panel put away
            assert ctl.end.sheet is not None and ctl.coach is None
        else:
            assert "Lesson complete" in Words(ctl.rules, 0).say(ctl.coach)
    assert met == {k: v for k, v in MEETS.items() if BY_ID[k].game == game}
    assert REQUIRED[game] <= {r for rs in met.values() for r in rs}


def test_lessons_are_listed_in_course_order() -> None:
    assert lessons.lesson_ids() == list(MEETS)
    assert [x.id for x in LESSONS if x.game == "piedicavallo"] == list(COURSES["piedicavallo"])


def at_first_move(lesson_id: str) -> LessonController:
    """The lesson, its first move prompted."""
    ctl, _out = make(lesson_id)
    for _ in range(3000):
        ctl.update(1 / 60)
        if ctl.can_act():
            break
    return ctl


def test_a_wrong_move_is_explained_and_not_taken(home) -> None:
    ctl = at_first_move("p1-follow")
    view = ctl.view()
    want = ctl.expected.card
    legal = [c.card for c in view.legal() if c.card != want]
    illegal = [c for c in ctl.hand_order() if not view.legal_mask() >> c & 1]
    assert legal and illegal
    cursor = ctl.session.cursor
    assert not ctl.click_card(legal[0])
    assert ctl.session.cursor == cursor and ctl.tone == "error" and ctl.status.key == "lesson_wrong"
    text = Words(ctl.rules, 0).say(ctl.status)
    assert "this lesson plays" in text
    # an illegal card: refused by the engine's rule, with what may be played instead
    assert not ctl.click_card(illegal[0])
    assert ctl.status.key == "refused" and set(ctl.status.get("instead")) == {c.card for c in view.legal()}
    assert ctl.click_card(want) and ctl.session.cursor > cursor


def test_progress_is_remembered_and_a_lesson_resumes_where_it_was_left(home) -> None:
    saved = []

    def remember(lid: str, steps: int, done: bool) -> None:
        saved.append((lid, steps, done))
        lessons.save_progress(lid, steps, done)

    ctl, out = make("p2-trump", on_progress=remember)
    for _ in range(30000):
        ctl.update(1 / 60)
        if ctl.can_act():
            if ctl.step_no == 3:
                break
            ctl.auto_move()
    assert lessons.load_progress() == {"done": [], "at": {"p2-trump": 3}}
    state = ctl.game.state
    again, out2 = make("p2-trump", start_at=3)
    assert again.game.state == state and again.step_no == 3
    assert [rs for _i, rs in again.met] == [s.rules for s in BY_ID["p2-trump"].steps[:3]]
    run(again, out2)
    lessons.save_progress("p2-trump", again.step_no, True)
    data = json.loads(lessons.progress_path().read_text())
    assert data == {"done": ["p2-trump"], "at": {}}
    assert lessons.next_lesson("piedicavallo").id == "p1-follow"
    lessons.save_progress("p1-follow", 5, True)
    assert lessons.next_lesson("piedicavallo").id == "p3-matto"
    # a damaged file is not fatal: no progress
    lessons.progress_path().write_text("{not json")
    assert lessons.load_progress() == {"done": [], "at": {}}


def test_in_the_free_deal_the_player_may_choose_another_card(home) -> None:
    ctl, out = make("p5-coach")
    chosen = 0
    for _ in range(30000):
        ctl.update(1 / 60)
        if ctl.can_act():
            view = ctl.view()
            others = [c.card for c in view.legal() if c != ctl.expected] if view.phase == PLAY else []
            before = ctl.session.cursor
            if others and chosen < 3:
                assert ctl.click_card(others[-1]) and ctl.session.cursor > before  # taken
                chosen += 1
            else:
                assert ctl.auto_move() and ctl.session.cursor > before
        if ctl.finished:
            break
    assert chosen == 3 and ctl.finished and "R10" in ctl.rules_met()


# --- every reason is about the move shown ------------------------------------------------------

#: the reasons a move of each kind may be given: each a claim about the card (or
#: the discard) the move makes, never about another card of the hand
KIND_REASONS = {
    "lead": {"forced", "master", "master_trumps_out", "top_trump", "draw_trumps", "lead_low"},
    "follow": {"forced", "partner_sure", "take_sure", "only_of_suit", "cheap_win", "second_low",
               "cannot_win"},
    "trump": {"forced", "partner_sure", "take_sure", "void_trump", "only_of_suit", "cheap_win",
              "second_low", "cannot_win"},
    "any": {"forced", "partner_sure", "second_low", "cannot_win"},
    "matto": {"matto_save", "forced"},
    "discard": {"discard_void", "discard_points", "discard_low"},
}


def _moves(lesson_id: str) -> list[tuple[object, object, object]]:
    """(view, move lit, its reason) at each of the player's turns, the lesson
    played by its own moves."""
    ctl, out = make(lesson_id)
    got = []
    for _ in range(30000):
        ctl.update(1 / 60)
        if ctl.can_act():
            got.append((ctl.view(), ctl.expected, ctl.why))
            assert ctl.auto_move()
        if ctl.done and (not ctl.lesson.free or ctl.finished):
            return got
    raise AssertionError(f"{lesson_id}: not finished")


def _about_the_move(view, cmd, why) -> bool:
    """Whether ``why`` is a reason of the move's own kind and names no other card."""
    if why is None or why.key not in KIND_REASONS[lessons.kind_of(view, cmd)]:
        return False
    cards = set(cmd.cards) if isinstance(cmd, Discard) else {cmd.card}
    named = why.get("cards") or ((why.get("card"),) if why.get("card") is not None else ())
    if why.key == "cannot_win":  # it names the card winning the trick, which is not the player's
        return not set(named) & cards
    if why.key == "only_of_suit":
        return view.rules.pack.suit[cmd.card] == why.get("suit") and set(named) == cards
    return set(named) <= cards


@pytest.mark.parametrize("lesson_id", [x.id for x in LESSONS])
def test_every_step_s_reason_is_about_the_card_it_plays(lesson_id: str, home) -> None:
    lesson = BY_ID[lesson_id]
    moves = _moves(lesson_id)
    assert len(moves) == (len(lesson.steps) if not lesson.free else len(moves)) > 0
    for i, (view, cmd, why) in enumerate(moves):
        if not lesson.free:  # the lesson's own move, of the kind it says
            assert cmd == lessons.command_of(view.rules, 0, lesson.steps[i])
            assert lessons.kind_of(view, cmd) == lesson.steps[i].kind
        assert _about_the_move(view, cmd, why), (lesson_id, i, view.rules.pack.codes[getattr(cmd, "card", 0)],
                                                 why)


def test_the_coach_keeps_the_matto_while_the_partner_is_still_to_play(home) -> None:
    # the coached deal's first trick: East leads the King of Coins, South cannot win it
    # and holds the Matto, North plays after: a teacher keeps the Matto (its reason
    # "the Matto saves your points" would hold, for a point or two)
    view, cmd, _why = _moves("p5-coach")[0]
    p = view.rules.pack
    assert len(view.trick) == 1 and view.hand >> p.matto & 1
    assert view.rules.side[(view.seat + 2) % 4] == view.rules.side[view.seat]  # North, still to play
    assert lessons.reason(view, Play(0, p.matto)).key == "matto_save"
    assert cmd != Play(0, p.matto) and not lessons.matto_now(view)


@pytest.mark.parametrize("lesson_id", ["p5-coach", "s4-coach"])
def test_the_coach_plays_the_matto_only_by_its_rule_of_thumb(lesson_id: str, home) -> None:
    """On a trick the other side is sure to take, no partner still to play, every
    other card it may play worth more than 1 point (or nothing else to play)."""
    for view, cmd, _why in _moves(lesson_id):
        p = view.rules.pack
        if cmd != Play(0, p.matto):
            continue
        others = [c for c in mask_cards(view.legal_mask()) if c != p.matto]
        if not others:
            continue
        rules = view.rules
        n = rules.n_seats
        later = [(view.seat + k) % n for k in range(1, n - len(view.trick))]
        assert view.trick and not any(rules.side[s] == rules.side[view.seat] for s in later)
        assert min(p.points[c] for c in others) > 1


def test_a_finished_lesson_offers_the_next_one(home) -> None:
    opened = []
    ctl, out = make("p1-follow", on_next=opened.append)
    run(ctl, out)
    for _ in range(3000):  # the last trick played out, then the lesson says it is over
        if ctl.status is not None and ctl.status.key == "lesson_done":
            break
        ctl.update(1 / 60)
    assert ctl.done and ctl.end_choices == ("next_lesson", "menu")
    assert "Enter: the next lesson" in Words(ctl.rules, 0).say(ctl.status)
    assert ctl.key_press() and opened == ["p2-trump"]
    last, out = make("s4-coach", on_next=opened.append)  # the last lesson: no next one
    run(last, out)
    assert "next_lesson" not in last.end_choices
    assert lessons.lesson_after("p5-coach") == "s1-play"


def test_the_coach_s_heading_breaks_between_phrases_and_sentences_start_with_a_capital(home) -> None:
    ctl = at_first_move("p1-follow")
    view = ctl.view()
    wrong = next(c.card for c in view.legal() if c != ctl.expected)
    assert not ctl.click_card(wrong)
    for lang in ("en", "fr", "it"):
        i18n.set_language(lang)
        try:
            w = Words(ctl.rules, 0)
            head = w.say(ctl.coach).split("\n")
            assert head[:2] == [i18n._("Lesson {k} of {n} · move {i} of {steps}").format(k=1, n=5, i=1, steps=5),
                                i18n._("Following suit")]
            refusal = w.say(ctl.status)
            assert refusal[0].isupper(), refusal  # a card name first ("trump 6 may be played...")
        finally:
            i18n.set_language("en")
