"""Scenario tests: literal positions, each citing the rule of RULES.md it tests."""

from __future__ import annotations

from itertools import combinations

import pytest

from engine.cards import CardSet, mask_cards
from engine.game import Game
from engine.rng import Rng
from engine.state import (
    DEAL,
    DISCARD,
    OVER,
    PLAY,
    CardPlayed,
    DealScored,
    Dealt,
    Discard,
    Discarded,
    IllegalMove,
    Play,
    State,
    TrickTaken,
    apply,
    decide,
    first_dealer,
    judge,
    legal_commands,
    new_game,
    next_deal,
)
from engine.variants.piedicavallo import PACK, PIEDICAVALLO

R = PIEDICAVALLO
ALL_MASK = PACK.all_mask
MATTO = PACK.matto
POINTS = PACK.points
TOTAL_POINTS = PACK.total_points
card_str = PACK.code
parse_card = PACK.parse
deal_error = R.deal_error
legal_discards = R.legal_discards
random_deal_fast = R.random_deal_fast
score_deal = R.score
trick_winner_index = R.trick_winner_index


def deal_hands(rng: Rng, dealer: int) -> tuple[tuple[int, ...], int]:
    hands, stock, cut = R.deal(rng, dealer)
    assert stock == 0
    return hands, cut


def discard_error(hand: int, pair: int) -> str | None:
    refusal = R.discard_refusal(hand, pair)
    return refusal.text if refusal else None


def result(points: tuple[int, int]) -> int:
    """0 or 1 for the winning team, -1 for the 57-57 draw (R12)."""
    out = R.deal_outcome(points)
    return -1 if out.draw else out.winners[0]


GOLDEN_NEXT64 = 2454886589211414944
GOLDEN_DEAL_42 = (0, 41, "T13 T15 T16 T17 T21 M S5 S9 S10 B9 B10 C4 CN D6 D1 DJ DK")


def C(code: str) -> int:
    return parse_card(code)


def M(codes: str) -> int:
    return PACK.parse_set(codes).mask


def play_state(hands: list[str], leader: int, trick: str = "", dealer: int = 3, **kw: object) -> State:
    """A literal position in the play phase; ``trick`` lists the cards already played."""
    cards = tuple(C(c) for c in trick.split())
    return new_game(0, 1, PIEDICAVALLO)._replace(
        phase=PLAY,
        deal_no=1,
        dealer=dealer,
        hands=tuple(M(h) for h in hands),
        discard_trumps=0,
        leader=leader,
        trick=cards,
        turn=(leader + len(cards)) & 3,
        **kw,
    )


def plays(state: State) -> list[str]:
    return [card_str(c.card) for c in legal_commands(state)]  # type: ignore[union-attr]


# --- R1-R4 ------------------------------------------------------------------------


def test_r1_pack_is_62_cards() -> None:
    assert len(PACK.cards()) == 62
    codes = PACK.cards().codes()
    assert "S4" not in codes and "B1" not in codes and "C7" not in codes and "D10" not in codes
    assert {"S5", "S10", "B5", "C1", "C6", "D6", "M", "T1", "T21"} <= set(codes)


def test_r3_rank_order() -> None:
    # Swords: K Q N J 10 .. 5; Cups: K Q N J 1 2 .. 6
    assert trick_winner_index([C("S10"), C("SJ"), C("S5"), C("SK")]) == 3
    assert trick_winner_index([C("C6"), C("C1"), C("C2"), C("CJ")]) == 3
    assert trick_winner_index([C("C6"), C("C1"), C("C2"), C("C5")]) == 1
    assert trick_winner_index([C("T2"), C("T21"), C("T20"), C("T1")]) == 1


def test_r4_points() -> None:
    assert TOTAL_POINTS == 114
    assert [POINTS[C(c)] for c in ("SK", "T1", "T21", "M", "DQ", "BN", "CJ", "T20", "C1")] == [
        5, 5, 5, 5, 4, 3, 2, 1, 1,
    ]


def test_codes_round_trip() -> None:
    for card in range(62):
        assert parse_card(card_str(card)) == card
    cs = CardSet.parse("SK T21 M C1", variant="piedicavallo")
    assert eval(repr(cs)) == cs and len(cs) == 4 and C("M") in cs
    assert cs.pack is PACK
    assert (cs | CardSet.parse("B10", variant="piedicavallo")).codes() == ["T21", "M", "SK", "B10", "C1"]
    with pytest.raises(ValueError):
        parse_card("S4")


# --- R5 the deal ------------------------------------------------------------------


def test_r5_deal_sizes_and_reproducible() -> None:
    for dealer in range(4):
        hands, _ = deal_hands(Rng(99), dealer)
        assert deal_error(dealer, hands) is None
        assert [h.bit_count() for h in hands] == [17 if s == dealer else 15 for s in range(4)]
    assert deal_hands(Rng(7), 2) == deal_hands(Rng(7), 2)
    assert deal_hands(Rng(7), 2) != deal_hands(Rng(8), 2)


def test_r5_packets_go_anticlockwise_from_the_dealers_right() -> None:
    # With the same shuffled pack, the first packet goes to the dealer's right (dealer+1).
    h0, _ = deal_hands(Rng(5), 0)
    h1, _ = deal_hands(Rng(5), 1)
    assert h0[1] == h1[2] and h0[2] == h1[3] and h0[3] == h1[0]


def test_r5_deal_errors() -> None:
    hands, _ = deal_hands(Rng(1), 0)
    assert "R5" in (deal_error(1, hands) or "")
    bad = (hands[0], hands[1], hands[2] | (hands[3] & -hands[3]), hands[3] ^ (hands[3] & -hands[3]))
    assert deal_error(0, bad)


def test_seed_deals_the_same_cards_everywhere() -> None:
    """Golden values: our own generator, so every Python version deals these cards."""
    assert [Rng(12345).next64() for _ in range(1)] == [GOLDEN_NEXT64]
    e = next_deal(State(seed=42, n_deals=1, rules=PIEDICAVALLO))
    assert (e.dealer, e.cut) == GOLDEN_DEAL_42[:2]
    assert PACK.cards(e.hands[0]).codes() == GOLDEN_DEAL_42[2].split()


# --- R6 the discard ---------------------------------------------------------------


def _dealer_state(hand: str) -> State:
    others = ALL_MASK & ~M(hand)
    cards = mask_cards(others)
    hands = [M(hand), sum(1 << c for c in cards[:15]), sum(1 << c for c in cards[15:30]), sum(1 << c for c in cards[30:])]
    return State(seed=0, n_deals=1, phase=DISCARD, deal_no=1, dealer=0, hands=tuple(hands), turn=0, leader=1, rules=PIEDICAVALLO)


def test_r6_never_kings_t1_t21_matto() -> None:
    s = _dealer_state("SK BK T1 T21 M S5 S6 B5 C1 C2 D1 D2 T2 T3 T4 T5 T6")
    for bad in ("SK S5", "T1 S5", "T21 S5", "M S5"):
        with pytest.raises(IllegalMove, match=r"R6"):
            decide(s, Discard(0, tuple(sorted(C(c) for c in bad.split()))))  # type: ignore[arg-type]


def test_r6_trump_only_without_choice() -> None:
    s = _dealer_state("SK BK T1 T21 M S5 S6 B5 C1 C2 D1 D2 T2 T3 T4 T5 T6")
    with pytest.raises(IllegalMove, match=r"R6"):
        decide(s, Discard(0, (C("T2"), C("S5"))))
    assert decide(s, Discard(0, (C("S5"), C("S6")))) == [Discarded(0, M("S5 S6"), 0)]


def test_r6a_one_suit_card_needs_exactly_one_trump() -> None:
    # Non-King suit cards: only C1; 4 Kings, T1, T21, M, and trumps.
    hand = "SK BK CK DK T1 T21 M C1 T2 T3 T4 T5 T6 T7 T8 T9 T10"
    s = _dealer_state(hand)
    legal = {c.cards for c in legal_commands(s)}  # type: ignore[union-attr]
    assert (C("T2"), C("C1")) in legal
    assert (C("T2"), C("T3")) not in legal  # two trumps where one suffices
    with pytest.raises(IllegalMove, match=r"R6"):
        decide(s, Discard(0, (C("T2"), C("T3"))))
    assert decide(s, Discard(0, (C("T5"), C("C1"))))[0].trumps == 1  # type: ignore[union-attr]


def test_r6a_no_suit_card_two_trumps() -> None:
    s = _dealer_state("SK BK CK DK T1 T21 M T2 T3 T4 T5 T6 T7 T8 T9 T10 T11")
    legal = legal_commands(s)
    assert legal and all(len([c for c in d.cards if c < 21]) == 2 for d in legal)  # type: ignore[union-attr]


def test_r6b_discard_every_trump() -> None:
    # Two trumps (no T1/T21): may discard both to hold no trump, though suit cards exist.
    s = _dealer_state("T5 T9 S5 S6 S7 S8 S9 B5 B6 B7 B8 B9 C1 C2 C3 C4 C5")
    assert decide(s, Discard(0, (C("T5"), C("T9")))) == [Discarded(0, M("T5 T9"), 2)]
    with pytest.raises(IllegalMove, match=r"R6"):  # only one of them keeps a trump
        decide(s, Discard(0, (C("T5"), C("S5"))))
    one = _dealer_state("T5 S5 S6 S7 S8 S9 B5 B6 B7 B8 B9 C1 C2 C3 C4 C5 C6")
    assert decide(one, Discard(0, (C("T5"), C("S5"))))[0].trumps == 1  # type: ignore[union-attr]


def test_r6_constructive_list_matches_the_rule() -> None:
    rng = Rng(3)
    for _ in range(300):
        hands, _ = deal_hands(rng, 0)
        hand = hands[0]
        cards = mask_cards(hand)
        by_rule = sorted(
            (1 << a | 1 << b for a, b in combinations(cards, 2) if discard_error(hand, 1 << a | 1 << b) is None),
            key=mask_cards,
        )
        assert legal_discards(hand) == by_rule


def test_r6_trump_count_is_public() -> None:
    g = Game(11, 1, rules=PIEDICAVALLO)
    g.submit(g.legal()[0])
    assert g.state.discard_trumps >= 0
    for seat in range(4):
        v = g.view(seat)
        assert v.discard_trumps == g.state.discard_trumps
        assert (v.discard != 0) == (seat == g.state.dealer)


# --- R7-R9 play -------------------------------------------------------------------


def test_r7_first_lead_is_dealers_right() -> None:
    g = Game(5, 1, rules=PIEDICAVALLO)
    g.submit(g.legal()[0])
    assert g.state.turn == (g.state.dealer + 1) & 3


def test_r7_must_follow_suit() -> None:
    s = play_state(["S5 SK B5 T3", "S6 B6 T4 C1", "S7 B7 T5 C2", "S8 B8 T6 C3"], leader=3, trick="S8")
    assert plays(s) == ["S5", "SK"]
    s2 = play_state(["S5 SK B5 T3", "S6 B6 T4 C1", "S7 B7 T5 C2", "S8 B8 T6 C3"], leader=1, trick="S6")
    with pytest.raises(IllegalMove, match=r"seat 2 played B7 but must follow Swords \(R7\)") as exc:
        decide(s2, Play(2, C("B7")))
    assert exc.value.rule == "R7"


def test_r7_void_must_trump_else_any() -> None:
    s = play_state(["B5 T3 T9 C1", "S6 B6 T4 C2", "S7 B7 T5 C3", "S8 B8 T6 C4"], leader=3, trick="S8")
    assert plays(s) == ["T3", "T9"]
    with pytest.raises(IllegalMove, match=r"must play a trump \(R7\)"):
        decide(s, Play(0, C("B5")))
    s2 = play_state(["B5 C1 D1 D2", "S6 B6 T4 C2", "S7 B7 T5 C3", "S8 B8 T6 C4"], leader=3, trick="S8")
    assert plays(s2) == ["B5", "C1", "D2", "D1"]


def test_r7_no_duty_to_beat() -> None:
    s = play_state(["S5 SK", "S6 B6", "S7 B7", "S10 B8"], leader=3, trick="S10")
    assert plays(s) == ["S5", "SK"]


def test_r8_winner_highest_trump_else_led_suit() -> None:
    assert trick_winner_index([C("S5"), C("SK"), C("T1"), C("S6")]) == 2
    assert trick_winner_index([C("S5"), C("BK"), C("S6"), C("CK")]) == 2
    s = play_state(["S5", "S6", "S7", "T2"], leader=0, trick="S5 S6 S7")
    ev = decide(s, Play(3, C("T2")))
    assert ev[1] == TrickTaken(3, (C("S5"), C("S6"), C("S7"), C("T2")))
    after = apply(apply(s, ev[0]), ev[1])
    assert after.leader == 3 and after.turn == 3  # the winner leads


def test_r9_matto_anytime_never_wins_goes_to_own_team() -> None:
    s = play_state(["M S5", "S6 B6", "S7 B7", "S8 B8"], leader=1, trick="S6 S7 S8")
    assert plays(s) == ["M", "S5"]  # instead of following
    ev = decide(s, Play(0, MATTO))
    assert ev[1].winner == 3  # type: ignore[union-attr]
    after = apply(apply(s, ev[0]), ev[1])
    assert after.piles[0] & (1 << MATTO)  # team 0 keeps it, though team 1 won
    assert not after.piles[1] & (1 << MATTO)


def test_r9_matto_led_second_card_sets_suit() -> None:
    s = play_state(["M", "B6 S6", "S7 B7", "S8 B8"], leader=0, trick="M")
    assert plays(s) == ["S6", "B6"]  # second player: anything
    s3 = play_state(["M", "B6", "S7 B7", "S8 B8"], leader=0, trick="M B6")
    assert plays(s3) == ["B7"]  # third player follows the second card's suit
    assert trick_winner_index([MATTO, C("B6"), C("B7"), C("S8")]) == 2


def test_r9_matto_keeps_privilege_in_last_trick() -> None:
    s = play_state(["M", "S6", "S7", "S8"], leader=1, trick="S6", trick_no=14)
    assert plays(s._replace(turn=2, hands=(M("M"), 0, M("S7"), M("S8")))) == ["S7"]
    last = play_state(["M", "S6", "S7", "S8"], leader=1, trick="S6 S7 S8", trick_no=14)
    assert plays(last) == ["M"]
    assert decide(last, Play(0, MATTO))[1].winner == 3  # type: ignore[union-attr]


# --- R10-R12 scoring --------------------------------------------------------------


def test_r10_count_includes_matto_and_dealers_discard() -> None:
    piles = (M("SK T21 M"), M("BK"))
    assert score_deal(piles, (1, 1), dealer=0, discard=M("S5 CQ")) == (15 + 1 + 4, 5)
    assert score_deal(piles, (1, 1), dealer=1, discard=M("S5 CQ")) == (15, 5 + 5)


def test_r11_no_trick_team_surrenders_matto_and_discard() -> None:
    # Team 1 (dealer's team) took no trick: its Matto and discard go to team 0.
    pts = score_deal((ALL_MASK & ~M("M S5 S6"), M("M")), (15, 0), dealer=1, discard=M("S5 S6"))
    assert pts == (114, 0)  # the sweep


def test_r11_sweep_by_the_dealers_team() -> None:
    pts = score_deal((ALL_MASK & ~M("M C1 C2"), M("M")), (15, 0), dealer=0, discard=M("C1 C2"))
    assert pts == (114, 0)


def test_r12_result_and_draw() -> None:
    assert result((57, 57)) == -1
    assert result((58, 56)) == 0 and result((20, 94)) == 1


def test_r10_last_trick_scores_the_deal() -> None:
    s = play_state(["S5", "S6", "S7", "T2"], leader=0, trick="S5 S6 S7", trick_no=14,
                   piles=(0, ALL_MASK & ~M("S5 S6 S7 T2 C1 C2")), tricks_won=(0, 14))
    s = s._replace(discard=M("C1 C2"))
    ev = decide(s, Play(3, C("T2")))
    assert isinstance(ev[2], DealScored) and ev[2].points == (0, 114)
    end = apply(apply(apply(s, ev[0]), ev[1]), ev[2])
    assert end.phase == OVER and end.scores == ((0, 114),)


# --- R13 the match ----------------------------------------------------------------


def test_r13_match_of_four_deals_passes_to_the_right() -> None:
    g = Game(77, 4, rules=PIEDICAVALLO)
    dealers = [g.state.dealer]
    import random

    rnd = random.Random(1)
    while g.legal():
        events = g.submit(g.legal()[rnd.randrange(len(g.legal()))])
        dealers += [e.dealer for e in events if isinstance(e, Dealt)]
    assert dealers == [(dealers[0] + k) & 3 for k in range(4)]
    assert g.state.phase == OVER and len(g.state.scores) == 4
    assert g.state.totals == tuple(sum(p[t] for p in g.state.scores) for t in (0, 1))


def test_r13_first_dealer_drawn_at_random() -> None:
    assert {first_dealer(s, rules=PIEDICAVALLO) for s in range(50)} == {0, 1, 2, 3}


# --- the judge: what a command causes ------------------------------------------------


def test_judge_returns_a_commands_events_then_those_due_each_with_its_state() -> None:
    """Over a whole match: the judge's events and states are what the game records,
    a card ends a trick with its TrickTaken, a deal's last card brings its score
    and the next deal, and nothing is due otherwise."""
    import random

    g = Game(77, 4, rules=PIEDICAVALLO)
    events, states, after = judge(new_game(77, 4, PIEDICAVALLO), None)
    assert [type(e) for e in events] == [Dealt] and states == [g.states[1]] == [after]
    rnd = random.Random(3)
    seen: set[tuple[type, ...]] = set()
    while g.legal():
        before, cmd = g.state, rnd.choice(list(g.legal()))
        judged, states, after = judge(before, cmd)
        assert judge(before, None) == ([], [], before)  # nothing due between decisions
        events = g.submit(cmd)
        assert judged == events and judged[: len(decide(before, cmd))] == decide(before, cmd)
        assert states == g.states[-len(events):] and after == g.state
        seen.add(tuple(type(e) for e in events))
    assert seen == {
        (Discarded,), (CardPlayed,), (CardPlayed, TrickTaken),
        (CardPlayed, TrickTaken, DealScored, Dealt), (CardPlayed, TrickTaken, DealScored),
    }


def test_judge_refuses_as_decide_does_and_changes_nothing() -> None:
    s = play_state(["S5", "S6", "S7", "S8"], leader=1)
    with pytest.raises(IllegalMove, match="out of turn"):
        judge(s, Play(0, C("S5")))
    assert judge(s, Play(1, C("S6")))[0] == [CardPlayed(1, C("S6"))]


# --- misc engine ------------------------------------------------------------------


def test_illegal_out_of_turn_and_wrong_phase() -> None:
    s = play_state(["S5", "S6", "S7", "S8"], leader=1)
    with pytest.raises(IllegalMove, match="out of turn"):
        decide(s, Play(0, C("S5")))
    with pytest.raises(IllegalMove, match="R6"):
        decide(s, Discard(1, (C("S6"), C("S5"))))
    with pytest.raises(IllegalMove, match="not in the hand"):
        decide(s, Play(1, C("S5")))
    assert State(seed=0, n_deals=1, rules=PIEDICAVALLO).phase == DEAL


def test_fast_core_scores_114() -> None:
    import random

    rng, rnd = Rng(9), random.Random(9)
    for _ in range(500):
        assert sum(random_deal_fast(rng, rnd.random)) == 114


def test_events_are_facts() -> None:
    assert CardPlayed(0, 3) == CardPlayed(0, 3)
    with pytest.raises(AttributeError):
        CardPlayed(0, 3).card = 4  # type: ignore[misc]
