"""Visible blunders at the last card of a trick.

The kinds are defined from the rules in :mod:`tests.support.blunder_rates` (its
docstring gives each precise definition):

* ``keep_gift``: the partner's card wins the trick, the seat (last to play)
  could give a King, a Queen or trump 1, and plays a card worth fewer points
  than the cheapest of those;
* ``overtake_partner``: the partner's card wins, the seat could play a card
  other than the Matto that does not beat it, and plays a trump that does;
* ``five_to_opponents``: an opponent's card wins, the seat throws a 5-point card
  (R4: King, trump 1, trump 21; S3: King, trump 1, trump 20; never the Matto,
  which is not captured) that leaves the trick with the opponent while a legal
  card other than the Matto worth fewer points existed;
* ``high_winner``: an opponent's card wins and the seat takes the trick with a
  trump while a lower legal trump worth no more points would have taken it.

Here: the definitions on hand-made tricks, then a few seeded self-play deals of
each level and both games (the full counts in docs/AI.md come from
``python -m tests.support.blunder_rates``).
"""

from __future__ import annotations

import pytest

from engine.ai.natural import (
    OVERTAKE_MARGIN,
    natural_first,
    overtakes,
    spare_fives,
    spare_partner,
    thrown_five,
    tied_indices,
)
from engine.cards import mask_cards
from engine.game import Game
from engine.players import make_player
from engine.replay import write_replay
from engine.ruleset import ruleset
from engine.simulate import play_out
from engine.state import Discard, Play
from tests.support.blunder_rates import (
    ALONE_KINDS,
    PARTNER_KINDS,
    classify,
    count,
    count_replays,
    kinds_of,
    make,
)

PIED = ruleset("piedicavallo")
SCARTO = ruleset("scarto")


def _c(rules, *codes):
    return [rules.pack.parse(x) for x in codes]


# --- the definitions ----------------------------------------------------------------


def test_kinds_per_game():
    assert kinds_of(PIED) == PARTNER_KINDS
    assert kinds_of(SCARTO) == ALONE_KINDS


def test_keep_gift_counts_a_kept_king_on_the_partners_trick():
    # Seat 1 leads, so seat 0 plays last; its partner, seat 2, wins with the Queen.
    trick = _c(PIED, "S5", "SQ", "S6")
    legal = _c(PIED, "S7", "SK")
    k7, kk = legal
    assert classify(PIED, 1, trick, legal, k7) == {"keep_gift": True}
    assert classify(PIED, 1, trick, legal, kk) == {"keep_gift": False}


def test_keep_gift_is_not_counted_for_a_queen_given_instead_of_a_king():
    trick = _c(PIED, "S5", "SN", "S6")
    legal = _c(PIED, "SQ", "SK", "S7")
    assert classify(PIED, 1, trick, legal, legal[0]) == {"keep_gift": False}
    assert classify(PIED, 1, trick, legal, legal[2]) == {"keep_gift": True}


def test_overtaking_the_partners_trump_with_a_higher_one():
    # Trumps led by seat 1; partner (seat 2) plays trump 20; seat 0 holds 21, 1 and 3.
    trick = _c(PIED, "T5", "T20", "T6")
    legal = _c(PIED, "T1", "T3", "T21")
    t1, t3, t21 = legal
    assert classify(PIED, 1, trick, legal, t21) == {"keep_gift": False, "overtake_partner": True}
    assert classify(PIED, 1, trick, legal, t3) == {"keep_gift": True, "overtake_partner": False}
    assert classify(PIED, 1, trick, legal, t1) == {"keep_gift": False, "overtake_partner": False}


def test_a_forced_ruff_of_the_partners_card_is_no_chance_to_overtake():
    # Void in the suit led: every legal card but the Matto is a trump and beats it.
    trick = _c(PIED, "C6", "CK", "C5")
    legal = _c(PIED, "T4", "T9", "M")
    got = classify(PIED, 1, trick, legal, legal[1])
    assert "overtake_partner" not in got


def test_five_point_card_thrown_into_the_opponents_trick():
    # Seat 2 leads, so seat 1 plays last (its partner is seat 3); seat 0, an
    # opponent, wins with trump 15.
    trick = _c(PIED, "T10", "T12", "T15")
    legal = _c(PIED, "T1", "T4", "T21", "M")
    t1, t4, t21, m = legal
    # trump 21 takes the trick: never "thrown"; the Matto is never captured
    # (only one trump, 21, takes it: no chance of a lower winner)
    assert classify(PIED, 2, trick, legal, t1) == {"five_to_opponents": True}
    assert classify(PIED, 2, trick, legal, t4) == {"five_to_opponents": False}
    assert classify(PIED, 2, trick, legal, m) == {"five_to_opponents": False}
    assert classify(PIED, 2, trick, legal, t21) == {"five_to_opponents": False}


def test_no_five_point_chance_without_a_cheaper_card():
    # Seat 0 leads, seat 3 plays last; seat 2, an opponent, wins with the King.
    trick = _c(PIED, "S5", "S6", "SK")
    legal = _c(PIED, "BK", "M")  # void in Swords and in trumps
    assert classify(PIED, 0, trick, legal, legal[0]) == {}


def test_high_winner_in_scarto():
    # Scarto: seat 1 leads, seat 2 plays, seat 0 is last; trump 20 is the highest.
    trick = _c(SCARTO, "CQ", "C10")
    legal = _c(SCARTO, "T1", "T3", "T20", "T21")
    t1, t3, t20, t21 = legal
    # (every trump takes it: no 5-point card can be thrown to the opponent)
    assert classify(SCARTO, 1, trick, legal, t20) == {"high_winner": True}
    assert classify(SCARTO, 1, trick, legal, t21) == {"high_winner": True}
    assert classify(SCARTO, 1, trick, legal, t3) == {"high_winner": False}
    # trump 1 is worth more than trump 3: taking with trump 3 keeps the cheaper
    # winner's rule (not counted), and trump 1 is the lowest winner
    assert classify(SCARTO, 1, trick, legal, t1) == {"high_winner": False}


def test_five_point_card_in_scarto():
    trick = _c(SCARTO, "T5", "T20")
    legal = _c(SCARTO, "T1", "T2", "T21")
    assert classify(SCARTO, 1, trick, legal, legal[0]) == {"five_to_opponents": True}
    assert classify(SCARTO, 1, trick, legal, legal[1]) == {"five_to_opponents": False}


# --- the tie-break's noise ----------------------------------------------------------------


def test_ties_are_within_the_noise():
    w = [1.0] * 4
    # 0 and 1 equal in every deal; 2 a point worse in every deal (no noise): not a tie;
    # 3 better on average by 0.5 but noisy (paired differences +-3): a tie.
    rows = [[10, 10, 9, 13], [10, 10, 9, 7], [10, 10, 9, 13], [10, 10, 9, 9]]
    got = tied_indices(w, rows, [0, 1, 2, 3], z=1.0, margin=0.05)
    assert got[0] == 3
    assert set(got) == {0, 1, 3}
    # with a 1.6-point margin, 2 (1.5 points behind 3, 0.5 behind 0 and 1) ties too
    assert set(tied_indices(w, rows, [0, 1, 2, 3], z=0.0, margin=1.6)) == {0, 1, 2, 3}
    assert tied_indices(w, rows, [0, 1, 2, 3], z=0.0, margin=0.0) == [3]


#: Medium's self-play of Piedicavallo deal seed 199, up to the position where it
#: threw trump 1 (before the rule): the dealer's discard, then every card played.
DEAL_199 = (58, 60)
PLAYS_199 = (
    24, 30, 31, 28, 47, 21, 4, 42, 22, 17, 26, 1, 44, 43, 46, 9, 25, 6, 29, 2, 39, 38, 32,
    41, 27, 7, 23, 5, 48, 45, 20, 10, 13, 18, 19, 3, 34, 11, 35, 33, 57, 53, 61, 56, 36, 37,
    14, 40, 59, 8, 52, 51, 16, 54, 50,
)


def _replayed(seed: int, discard: tuple[int, ...], plays: tuple[int, ...]) -> Game:
    """A Piedicavallo deal of ``seed`` after the dealer's ``discard`` and ``plays``."""
    game = Game(seed, 1, ["medium"] * 4, rules=PIED)
    game.submit(Discard(game.state.turn, discard))
    for card in plays:
        game.submit(Play(game.state.turn, card))
    return game


def _deal_199():
    """The game at seat 3's last card of the trick trump 17 (seat 0, an
    opponent), Diamonds 4, Queen of Cups, holding trump 1 and trump 16 only."""
    return _replayed(199, DEAL_199, PLAYS_199)


def test_the_position_of_deal_199():
    game = _deal_199()
    st = game.state
    t1, t16 = _c(PIED, "T1", "T16")
    assert st.turn == 3 and st.leader == 0
    assert list(st.trick) == _c(PIED, "T17", "D4", "CQ")
    assert sorted(c.card for c in game.legal()) == sorted([t1, t16])
    # the rules' definition: trump 1 is a 5-point card thrown to the opponents
    assert classify(PIED, 0, st.trick, [t1, t16], t1) == {"five_to_opponents": True}


def test_spare_fives_overrules_the_search():
    game = _deal_199()
    view = game.view(3)
    t1, t16 = _c(PIED, "T1", "T16")
    assert thrown_five(view, t1) and not thrown_five(view, t16)
    # the search preferred trump 1 by 7.25 points (trump 1 is lost either way)
    vals = [(t1, 30.0), (t16, 22.75)]
    assert [c for c, _v in spare_fives(view, vals)] == [t16, t1]
    assert [c for c, _v in natural_first(view, vals, [t1])] == [t16, t1]
    assert spare_fives(view, [(t16, 3.0), (t1, 1.0)]) == [(t16, 3.0), (t1, 1.0)]


def test_spare_fives_keeps_a_five_that_takes_the_trick_or_has_no_cheaper_card():
    game = _deal_199()
    view = game.view(3)
    # the same hand on a trick its partner (seat 1, trump 17 on Diamonds led by seat 0) takes:
    # no opponent's trick, nothing to spare
    t1, t16, t21, bk = _c(PIED, "T1", "T16", "T21", "BK")
    own = view._replace(trick=tuple(_c(PIED, "D4", "T17", "CQ")))
    assert not thrown_five(own, t1)
    assert spare_fives(own, [(t1, 9.0), (t16, 1.0)]) == [(t1, 9.0), (t16, 1.0)]
    # trump 21 takes the opponents' trick: kept
    assert not thrown_five(view, t21)
    assert spare_fives(view, [(t21, 9.0), (t16, 1.0)]) == [(t21, 9.0), (t16, 1.0)]
    # two 5-point cards and the Matto: no cheaper card other than the Matto
    vals = [(t1, 9.0), (bk, 8.0), (PIED.pack.matto, 1.0)]
    assert spare_fives(view, vals) == vals


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_the_searching_levels_keep_trump_1_in_deal_199(level):
    """End to end: medium and hard (fixed work) play trump 16, not trump 1."""
    game = _deal_199()
    player = make(level, None, 4 if level == "hard" else None)
    got = player.choose(game.view(3), game.legal(), game.cursor)
    assert got == Play(3, _c(PIED, "T16")[0])


def test_natural_first_reorders_only_ties():
    game = _deal_199()
    view = game.view(3)._replace(trick=tuple(_c(PIED, "D4", "T17", "CQ")))
    t1, t16 = _c(PIED, "T1", "T16")
    vals = [(t16, 2.0), (t1, 1.0)]
    assert natural_first(view, vals, [t16]) == vals
    # tied, on the partner's sure trick: the natural card gives trump 1
    assert natural_first(view, vals, [t16, t1])[0][0] == t1


def test_spare_partner_needs_the_margin_to_overtake():
    game = _deal_199()
    # seat 3 last on a trick its partner (seat 1, trump 17 on Diamonds) takes
    own = game.view(3)._replace(trick=tuple(_c(PIED, "D4", "T17", "CQ")))
    t16, t18, t21 = _c(PIED, "T16", "T18", "T21")
    matto = PIED.pack.matto
    assert overtakes(own, t21) and overtakes(own, t18)
    assert not overtakes(own, t16) and not overtakes(own, matto)
    m = OVERTAKE_MARGIN
    # preferred by less than the margin: the best card that does not overtake comes first
    vals = [(t21, 10.0 + m), (t18, 9.0 + m), (t16, 10.0), (matto, 0.0)]
    assert [c for c, _v in spare_partner(own, vals)] == [t16, t21, t18, matto]
    assert [c for c, _v in natural_first(own, vals, [t21])] == [t16, t21, t18, matto]
    # by more than the margin: the search keeps its card
    vals = [(t21, 10.1 + m), (t16, 10.0)]
    assert spare_partner(own, vals) == vals
    # only the Matto besides: nothing to spare
    vals = [(t21, 5.0), (matto, 4.9)]
    assert spare_partner(own, vals) == vals
    # the opponents' trick (seat 0's trump 17): taking it is no overtake
    opp = game.view(3)
    assert not overtakes(opp, t21)
    assert spare_partner(opp, [(t21, 9.0), (t16, 1.0)]) == [(t21, 9.0), (t16, 1.0)]
    # Scarto has no partners
    sview = Game(3, 1, ["easy"] * 3, rules=SCARTO).view(0)
    assert not overtakes(sview._replace(trick=tuple(_c(SCARTO, "D4", "T17"))), _c(SCARTO, "T21")[0])


#: Hard's overtake in a 200-deal match against medium (seed 41, deal pair 176,
#: seating 1): seat 3 last on its partner's trump 13 (Swords 7 led, the Knight
#: of Swords), with trumps 5, 11 and 17 legal; the search preferred trump 17 by
#: 9.1 points at 40 rounds, 16 here.
SEED_176 = 1635104609896033570
DISCARD_176 = 275951648768
PLAYS_176 = (
    25, 22, 27, 31, 54, 60, 53, 58, 56, 13, 55, 5, 28, 3, 23, 26, 32, 21, 2, 34, 52, 0, 9, 11,
    42, 45, 48, 51, 33, 14, 15, 37, 59, 20, 6, 7, 24, 12, 29,
)


def test_hard_does_not_overtake_its_partner_in_deal_176():
    game = _replayed(SEED_176, tuple(mask_cards(DISCARD_176)), PLAYS_176)
    view = game.view(3)
    legal = sorted(c.card for c in game.legal())
    over = [c for c in legal if overtakes(view, c)]
    assert over == _c(PIED, "T17")
    assert classify(PIED, view.leader, view.trick, legal, over[0]) == {"overtake_partner": True}
    got = make("hard", None, 16).choose(view, game.legal(), game.cursor)
    assert isinstance(got, Play) and got.card in legal and not overtakes(view, got.card)


# --- seeded self-play -------------------------------------------------------------------

#: (level, hard rounds a decision) and deals a game; a few seconds each
LEVELS = [("easy", None, 6), ("medium", None, 3), ("hard", 2, 2)]


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["piedicavallo", "scarto"])
def test_searching_levels_make_no_visible_blunders(variant):
    """Medium and hard (fixed work) on a few seeded deals: no 5-point card thrown
    into an opponent's trick, and no more blunders of any kind than easy makes
    on the same deals."""
    got = {}
    for level, rounds, deals in LEVELS:
        got[level] = count(level, variant, range(900, 900 + deals), rounds=rounds)
    for level in ("medium", "hard"):
        res = got[level]
        assert res["blunders"]["five_to_opponents"] == 0, res
        for kind in kinds_of(ruleset(variant)):
            assert res["rate"][kind] <= max(got["easy"]["rate"][kind], 0.0) + 1e-9, (level, kind, res)


# --- counted from replay files (a tournament's games) ----------------------------------------


@pytest.mark.parametrize("variant", ["piedicavallo", "scarto"])
def test_replay_counts_equal_the_self_play_counts(tmp_path, variant):
    """The counter over replay files gives the self-play counter's figures on the
    same games (easy in every seat, so a few deals have chances of each kind)."""
    rules = ruleset(variant)
    seeds = range(900, 906)
    for seed in seeds:
        game = Game(seed, 1, ["easy"] * rules.n_seats, rules=rules)
        play_out(game, [make("easy", None, None)] * rules.n_seats)
        write_replay(tmp_path / f"{seed}.jsonl", game.header, list(game.log))
    got = count_replays(sorted(str(f) for f in tmp_path.glob("*.jsonl")))
    want = count("easy", variant, seeds)
    assert list(got) == ["easy"]
    assert sum(want["chances"].values()) > 0
    for key in ("deals", "last_cards", "chances", "blunders", "rate"):
        assert got["easy"][key] == want[key], key


def test_replay_counts_go_to_the_player_of_each_seat(tmp_path):
    """Two levels at one table: each last card is counted for the name in its
    seat, and each level played half the seats of each deal."""
    seeds = range(910, 914)
    names = ["easy", "random", "easy", "random"]
    players = [make_player(n) for n in names]
    for seed in seeds:
        game = Game(seed, 1, names, rules=PIED)
        play_out(game, players)
        write_replay(tmp_path / f"{seed}.jsonl", game.header, list(game.log))
    got = count_replays(sorted(str(f) for f in tmp_path.glob("*.jsonl")))
    assert sorted(got) == ["easy", "random"]
    assert got["easy"]["deals"] == got["random"]["deals"] == 2
    tricks = PIED.n_tricks * len(seeds)
    assert got["easy"]["last_cards"] + got["random"]["last_cards"] == tricks
