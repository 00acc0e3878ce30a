"""The table's flows without a window: a resumed game put on the table
at once, exactly as it stood; undo and redo that say when there is nothing to
undo or redo; the end of a deal (next deal, play again, the review of its
tricks, piles and discard); where the match stands; the practice set-up's
dealer and deal number; refusals in words with the rule apart."""

from __future__ import annotations

import pytest

from engine.cards import mask_cards
from engine.players import make_player
from engine.state import DISCARD, PLAY, CardPlayed, DealScored, Dealt, first_dealer
from game.common import i18n
from game.common.position import seen_by
from game.common.words import Words
from game.table import session
from game.table.table_controller import InlineExecutor, TableController, resume_point
from tests.test_table_controller import Recorder, act, make, play_deal, run_until_prompt, seed_where


def reopen(game, *, practice: bool = False, on_again=None):
    """The game left as a kill leaves it, resumed from the autosave at a new table."""
    game.close()
    resumed = session.resume()
    out = Recorder()
    ais = {s: make_player("random") for s in range(1, resumed.rules.n_seats)}
    ctl = TableController(resumed, ais, out, practice=practice, executor=InlineExecutor(),
                          on_again=on_again, resumed=True)
    ctl.speed = 1000.0
    return ctl, out


def assert_laid_at_once(ctl: TableController, out: Recorder) -> None:
    """The table starts where the game stands: one lay-out, nothing animated."""
    assert ctl.shown == ctl.game.cursor
    assert out.steps == []  # no event of the game so far is shown again
    assert len(out.laid) == 1
    pos, raised, dimmed, ease = out.laid[0]
    assert pos == seen_by(ctl.game.state, {0}) and not ease
    assert ctl.banner is None and ctl.status is None  # no stale banner ("You cuts")
    assert ctl.end.sheet is None and ctl.waiting == ""


# --- resume ---------------------------------------------------------------------------


def test_a_match_resumed_in_deal_2_is_on_the_table_at_once(home) -> None:
    ctl, out, scenes = make("piedicavallo", 8, match=True)
    play_deal(ctl)
    ctl.continue_()  # deal 1's sheet, then deal 2
    for _ in range(3):
        run_until_prompt(ctl)
        act(ctl)
    run_until_prompt(ctl)
    state, cursor = ctl.game.state, ctl.game.cursor
    assert state.deal_no == 2 and len(state.scores) == 1 and state.phase == PLAY
    ctl2, out2 = reopen(ctl.game)
    assert ctl2.game.cursor == cursor and ctl2.game.state == state
    assert_laid_at_once(ctl2, out2)
    assert ctl2.scene == "play"
    run_until_prompt(ctl2)
    assert ctl2.can_act() and ctl2.end.sheet is None  # not deal 1's score sheet
    # anything shown now is new: a card played after the resume, never deal 1 again
    assert all(not isinstance(s.event, Dealt | DealScored) for s in out2.steps)
    # where the match stands: deal 2 of 4, deal 1's points
    words = Words(ctl2.rules, 0)
    totals = ctl2.rules.totals(state.scores)
    text = words.say(ctl2.end.standing)
    assert text == f"Deal 2 of 4 · Match: Us {totals[0]}, Them {totals[1]}"


def test_a_game_left_on_a_score_sheet_shows_that_sheet_again_then_deals(home) -> None:
    ctl, out, scenes = make("piedicavallo", 8, match=True)
    play_deal(ctl)
    assert ctl.waiting == "scoring"  # killed here: deal 2 is already dealt in the log
    assert isinstance(ctl.game.events[-1], Dealt)
    ctl2, out2 = reopen(ctl.game)
    assert resume_point(ctl2.game) == (ctl2.game.cursor - 1, ctl2.game.cursor - 2)
    assert ctl2.waiting == "scoring" and ctl2.end.sheet is not None and ctl2.end.sheet.deal == 1
    assert out2.steps == [] and ctl2.banner is None
    ctl2.continue_()
    ctl2.update(1 / 60)
    assert [s.kind for s in out2.steps] == ["event"] and isinstance(out2.steps[0].event, Dealt)


def test_a_scarto_game_resumed_mid_trick(home) -> None:
    ctl, out, scenes = make("scarto", seed_where("scarto", 1), match=True)
    for _ in range(5):
        run_until_prompt(ctl)
        act(ctl)
    # to a position with cards in the middle of the table
    for _ in range(200):
        ctl.update(1 / 60)
        if ctl.game.state.trick and ctl.shown == ctl.game.cursor:
            break
    state = ctl.game.state
    assert state.trick, "no trick under way"
    ctl2, out2 = reopen(ctl.game)
    assert_laid_at_once(ctl2, out2)
    pos = out2.laid[0][0]
    assert pos.trick == state.trick and pos.leader == state.leader and pos.turn == state.turn
    run_until_prompt(ctl2)
    assert ctl2.game.state.trick_no >= state.trick_no


def test_a_scarto_game_resumed_in_the_exchange(home) -> None:
    ctl, out, scenes = make("scarto", seed_where("scarto", 0), practice=True)
    run_until_prompt(ctl)
    assert ctl.game.state.phase == DISCARD and ctl.view().hand.bit_count() == 28
    ctl2, out2 = reopen(ctl.game, practice=True)
    assert_laid_at_once(ctl2, out2)
    assert ctl2.scene == "exchange"
    pos = out2.laid[0][0]
    assert pos.hand_sizes[0] == 28 and not pos.stock_out and pos.stock  # the stock already taken
    run_until_prompt(ctl2)
    assert ctl2.can_act() and ctl2.status.key == "your_discard"
    act(ctl2)
    assert ctl2.game.state.phase == PLAY


def test_a_new_game_is_still_dealt_with_its_animation(home) -> None:
    ctl, out, scenes = make("piedicavallo", 3)
    assert resume_point(ctl.game, resumed=False) == (0, None)
    ctl.update(1 / 60)
    assert out.steps and isinstance(out.steps[0].event, Dealt)


# --- undo and redo ----------------------------------------------------------------------


def test_undo_and_redo_are_available_only_when_there_is_something(home) -> None:
    ctl, out, scenes = make("piedicavallo", seed_where("piedicavallo", 1), practice=True)
    run_until_prompt(ctl)
    assert not ctl.rewind.can_undo and not ctl.rewind.can_redo  # South's first decision
    assert not ctl.rewind.redo()
    assert ctl.banner is not None and ctl.banner.key == "nothing_to_redo"
    assert Words(ctl.rules, 0).say(ctl.banner) == "Nothing to redo"
    assert ctl.can_act()  # the prompt stays
    assert not ctl.rewind.undo() and ctl.banner.key == "nothing_to_undo"
    act(ctl)
    run_until_prompt(ctl)
    assert ctl.rewind.can_undo and not ctl.rewind.can_redo
    assert ctl.rewind.undo()
    assert ctl.rewind.can_redo and not ctl.rewind.can_undo
    assert ctl.rewind.redo() and not ctl.rewind.can_redo


def test_undo_and_redo_are_never_offered_outside_practice(home) -> None:
    ctl, out, scenes = make("piedicavallo", 4)
    run_until_prompt(ctl)
    act(ctl)
    run_until_prompt(ctl)
    assert not ctl.rewind.can_undo and not ctl.rewind.undo() and ctl.banner is None


# --- the end of a deal ------------------------------------------------------------------------


def test_the_end_of_a_single_deal_offers_play_again_the_review_and_the_menu(home) -> None:
    again = []
    ctl, out, scenes = make("piedicavallo", seed_where("piedicavallo", 0))
    ctl.on_again = lambda: again.append(True)
    play_deal(ctl)
    assert ctl.finished and ctl.end_choices == ("again", "tricks", "piles", "menu")
    sheet = ctl.end.sheet
    # the review: every trick, who led, who took it, every card, from the engine
    before = ctl.game.states[ctl.game.cursor - 1]
    from engine.state import trick_winners

    assert [(t.leader, t.cards, t.winner) for t in sheet.tricks] == [
        (lead, cards, w) for (lead, cards), w in zip(before.tricks, trick_winners(before), strict=True)]
    for t in sheet.tricks:
        assert t.seats[0] == t.leader and t.winning_card in t.cards
    # South dealt: its own discard shows; the pile is the cards its team took
    assert sheet.discard is not None and len(sheet.discard) == 2
    assert set(sheet.discard) == set(mask_cards(before.discard))
    pile = set(sheet.pile(0))
    assert pile == set(mask_cards(before.piles[0])) - set(sheet.discard)
    ctl.choose("tricks")
    assert ctl.end.page == "tricks" and ctl.end_choices == ("again", "score", "piles", "menu")
    ctl.choose("again")
    assert again == [True]


def test_another_seats_discard_stays_hidden_in_the_review(home) -> None:
    ctl, out, scenes = make("scarto", seed_where("scarto", 1))
    play_deal(ctl)
    assert ctl.end.sheet.discard is None  # East's: nobody else sees it (S4)
    assert all(g.cards == () for g in ctl.end.sheet.groups[1] if g.kind == "discard")


def test_the_end_of_a_deal_in_a_match_offers_the_next_deal(home) -> None:
    ctl, out, scenes = make("scarto", 5, match=True)
    play_deal(ctl)
    assert not ctl.finished and ctl.end_choices[0] == "next" and "again" not in ctl.end_choices
    ctl.choose("next")
    assert ctl.waiting == "" and ctl.end.sheet is None
    run_until_prompt(ctl)
    assert ctl.game.state.deal_no == 2
    words = Words(ctl.rules, 0)
    assert words.say(ctl.end.standing).startswith("Deal 2 of 3 · Game: You ")


def test_play_again_keeps_the_set_up(home) -> None:
    rules_seat = 2
    game = session.new_game(partner="easy", opponents="hard", match=False, practice=True,
                            variant="piedicavallo", dealer=rules_seat)
    assert first_dealer(game.header.seed, game.rules) == rules_seat
    assert game.header.extra["chosen_dealer"] == rules_seat
    nxt = session.play_again(game)
    assert nxt.header.players == game.header.players and nxt.header.extra.get("practice")
    assert first_dealer(nxt.header.seed, nxt.rules) == rules_seat
    nxt.close()
    chosen = session.new_game(partner="easy", opponents="easy", match=False, practice=True,
                              variant="scarto", seed=4242, chosen_deal=True)
    again = session.play_again(chosen)
    assert again.header.seed == 4242 and again.rules.name == "scarto"  # the same deal again
    assert again.events[0] == chosen.events[0]
    again.close()


@pytest.mark.parametrize("variant", ["piedicavallo", "scarto"])
def test_a_practice_dealer_is_drawn_for_each_seat(variant: str, home) -> None:
    from engine.ruleset import ruleset

    rules = ruleset(variant)
    for seat in range(rules.n_seats):
        seed = session.deal_number_for(rules, seat)
        assert 0 < seed < session.DEAL_NUMBERS and first_dealer(seed, rules) == seat


# --- the running figures --------------------------------------------------------------


def test_the_running_figure_says_what_it_counts() -> None:
    from engine.ruleset import ruleset

    p = Words(ruleset("piedicavallo"), 0)
    s = Words(ruleset("scarto"), 0)
    try:
        got = {}
        for lang in ("en", "fr", "it"):
            i18n.set_language(lang)
            got[lang] = (p.pile_line(0, 43, 5), s.pile_line(1, 20, 1))
        # plain words: points and tricks, each plural-aware
        assert got["en"] == ("Us: 43 points, 5 tricks", "East: 20 points, 1 trick")
        assert got["fr"] == ("Nous : 43 points, 5 plis", "Est : 20 points, 1 pli")
        assert got["it"] == ("Noi: 43 punti, 5 prese", "Est: 20 punti, 1 presa")
    finally:
        i18n.set_language("en")


def test_a_single_deal_has_no_match_line(home) -> None:
    ctl, out, scenes = make("piedicavallo", 3)
    run_until_prompt(ctl)
    assert ctl.end.standing is None


def test_the_match_line_before_any_deal_is_scored(home) -> None:
    ctl, out, scenes = make("piedicavallo", 3, match=True)
    run_until_prompt(ctl)
    assert Words(ctl.rules, 0).say(ctl.end.standing) == "Deal 1 of 4"


# --- refusals (in words, the rule in a tooltip) -------------------------------------


@pytest.mark.slow
def test_every_refusal_reason_has_words() -> None:
    from engine.errors import Refusal
    from engine.ruleset import ruleset
    from game.common.words import _REFUSALS

    documented = ("not_in_hand", "out_of_turn", "no_play_due", "must_follow", "must_trump",
                  "discard_size", "discard_not_held", "never_discard", "discard_trump",
                  "discard_trumps_max", "trump1_with_trumps", "not_dealer", "no_discard_due",
                  "discard_together")
    assert set(documented) <= set(_REFUSALS)
    for variant in ("piedicavallo", "scarto"):
        w = Words(ruleset(variant), 0)
        for reason in documented:
            r = Refusal("R7" if variant == "piedicavallo" else "S4", reason, "ENGLISH TEXT", cards=(3,),
                        suit=1, count=2, seat=1)
            for lang in ("en", "fr", "it"):
                i18n.set_language(lang)
                text = w.refusal(r)
                assert text and "ENGLISH TEXT" not in text and "(R7)" not in text and "(S4)" not in text
            i18n.set_language("en")
        assert w.refusal_rule(Refusal("R7", "must_follow", "", suit=1)) == "Rule R7 (see Rules)"


def test_what_is_shown_after_a_resume_starts_where_the_game_stood(home) -> None:
    ctl, out, scenes = make("piedicavallo", seed_where("piedicavallo", 2))
    for _ in range(2):
        run_until_prompt(ctl)
        act(ctl)
    run_until_prompt(ctl)
    cursor = ctl.game.cursor
    ctl2, out2 = reopen(ctl.game)
    run_until_prompt(ctl2)
    act(ctl2)
    for _ in range(400):
        ctl2.update(1 / 60)
    played = [s for s in out2.steps if isinstance(s.event, CardPlayed)]
    assert played and out2.steps[0].before == seen_by(ctl2.game.states[cursor], {0})
    assert played[0].event == ctl2.game.events[cursor]  # South's card, the first after the resume


def test_the_deal_number_shows_once_the_game_is_over(home) -> None:
    ctl, out, scenes = make("scarto", 5, match=True)
    play_deal(ctl)
    assert ctl.end.sheet.number is None  # a match goes on: its number would show the deals to come
    for _ in range(2):
        ctl.continue_()
        play_deal(ctl)
    assert ctl.finished and ctl.end.sheet.number == 5
