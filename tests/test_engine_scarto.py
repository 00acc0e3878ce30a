"""Scarto scenarios: literal positions, each citing the rule of RULES.md (S1-S6) it
tests, the replay form of the variant, and its command-line tools."""

from __future__ import annotations

import json
import random
from itertools import combinations
from pathlib import Path

import pytest

from engine.cards import mask_cards
from engine.game import Game
from engine.replay import ReplayError, format_replay, parse_replay
from engine.rng import Rng
from engine.scoring import state_breakdown
from engine.state import (
    DISCARD,
    OVER,
    PLAY,
    Dealt,
    Discard,
    Discarded,
    IllegalMove,
    Play,
    State,
    apply,
    decide,
    legal_commands,
    new_game,
)
from engine.variants import PIEDICAVALLO, SCARTO
from engine.view import seat_event
from game.cli import main

R = SCARTO
P = SCARTO.pack


def C(code: str) -> int:
    return P.parse(code)


def M(codes: str) -> int:
    return P.parse_set(codes).mask


def play_state(hands: list[str], leader: int, trick: str = "", dealer: int = 2, **kw: object) -> State:
    cards = tuple(C(c) for c in trick.split())
    base = new_game(0, 1, R)
    return base._replace(
        phase=PLAY, deal_no=1, dealer=dealer, hands=tuple(M(h) for h in hands),
        discard_trumps=0, leader=leader, trick=cards, turn=(leader + len(cards)) % 3, **kw,
    )


def plays(state: State) -> list[str]:
    return [P.codes[c.card] for c in legal_commands(state)]  # type: ignore[union-attr]


def finished(seed: int, n_deals: int = 1) -> Game:
    rnd = random.Random(seed)
    g = Game(seed, n_deals, rules=R)
    while g.legal():
        legal = g.legal()
        g.submit(legal[rnd.randrange(len(legal))])
    return g


# --- S1-S3 -------------------------------------------------------------------------


def test_s1_full_pack_three_seats() -> None:
    assert P.n_cards == 78 and len(P.cards()) == 78
    assert {"S1", "S4", "B1", "B4", "C7", "C10", "D7", "D10", "T20", "M"} <= set(P.cards().codes())
    assert R.n_seats == 3 and R.next == (1, 2, 0) and R.seat_names == ("South", "East", "West")
    assert R.side == (0, 1, 2) and R.partner == (-1, -1, -1)


def test_s2_trump_20_beats_21_and_suit_orders() -> None:
    assert R.trick_winner_index([C("T21"), C("T20"), C("T19")]) == 1
    assert R.trick_winner_index([C("T19"), C("T21"), C("T1")]) == 1
    assert R.trick_winner_index([C("S1"), C("S10"), C("SJ")]) == 2  # K Q N J 10 .. 1
    assert R.trick_winner_index([C("S1"), C("S10"), C("S9")]) == 1
    assert R.trick_winner_index([C("C10"), C("C1"), C("C2")]) == 1  # K Q N J 1 .. 10
    assert R.trick_winner_index([C("C10"), C("CJ"), C("C1")]) == 1
    assert R.trick_winner_index([C("DK"), C("T1"), C("D1")]) == 1
    assert R.trick_winner_index([C("BK"), C("CK"), C("B2")]) == 0  # off suit never wins


def test_s3_points() -> None:
    assert P.total_points == 129
    got = [P.points[C(c)] for c in ("SK", "T1", "T20", "T21", "M", "DQ", "BN", "CJ", "C10", "S1")]
    assert got == [5, 5, 5, 1, 4, 4, 3, 2, 1, 1]


# --- S4 the deal and the discard -------------------------------------------------------


def test_s4_deal_25_each_and_the_stock_to_the_dealer() -> None:
    for dealer in range(3):
        hands, stock, cut = R.deal(Rng(99), dealer)
        assert R.deal_error(dealer, hands, stock) is None
        assert [h.bit_count() for h in hands] == [25, 25, 25] and stock.bit_count() == 3
        assert 4 <= cut <= 74
    g = Game(7, 1, rules=R)
    dealt = g.events[0]
    assert isinstance(dealt, Dealt)
    st = g.state
    assert st.phase == DISCARD and st.turn == dealt.dealer
    assert st.hands[dealt.dealer] == dealt.hands[dealt.dealer] | dealt.stock  # 28 cards
    assert st.hands[dealt.dealer].bit_count() == 28 and st.stock == dealt.stock


def test_s4_packets_go_anticlockwise_from_the_dealers_right() -> None:
    h0, s0, _ = R.deal(Rng(5), 0)
    h1, s1, _ = R.deal(Rng(5), 1)
    assert h0[1] == h1[2] and h0[2] == h1[0] and h0[0] == h1[1] and s0 == s1
    assert R.cutter(0) == 2 and R.receivers[0][:5] == (1,) * 5 and R.receivers[0][-3:] == (-1,) * 3


def _dealer(hand: str) -> State:
    """A discard position: South deals and holds ``hand`` (28 cards)."""
    mine = M(hand)
    assert mine.bit_count() == 28
    rest = mask_cards(P.all_mask & ~mine)
    base = new_game(0, 1, R)
    return base._replace(
        phase=DISCARD, deal_no=1, dealer=0, turn=0, leader=1,
        hands=(mine, sum(1 << c for c in rest[:25]), sum(1 << c for c in rest[25:])),
    )


HAND = ("SK BK CK T20 M T1 T5 T9 S1 S2 S3 S4 S5 SQ B1 B2 B3 C1 C2 C3 CQ D1 D2 D3 D4 D5 D6 DJ")
NO_TRUMPS = ("SK S1 S2 S3 S4 S5 S6 S7 S8 S9 SQ B1 B2 B3 B4 B5 C1 C2 C3 C4 C5 C6 D1 D2 D3 D4 D5 T1")


def test_s4_never_a_king_trump_20_or_the_matto() -> None:
    s = _dealer(HAND)
    for bad, words in (("SK S1 S2", "King"), ("T20 S1 S2", "trump 20 may not be discarded"),
                       ("M S1 S2", "Matto")):
        with pytest.raises(IllegalMove, match=r"\(S4\)") as exc:
            decide(s, Discard(0, tuple(sorted(C(c) for c in bad.split()))))
        assert words in str(exc.value) and exc.value.rule == "S4"
        assert exc.value.refusal is not None and exc.value.refusal.reason == "never_discard"


def test_s4_trump_1_only_without_other_trumps_or_matto() -> None:
    s = _dealer(HAND)
    with pytest.raises(IllegalMove, match=r"trump 1 .* \(S4\)"):
        decide(s, Discard(0, (C("T1"), C("S1"), C("S2"))))
    assert decide(s, Discard(0, (C("T5"), C("T9"), C("S1"))))  # other trumps may go
    alone = _dealer(NO_TRUMPS)  # T1 is the only trump, and no Matto
    assert decide(alone, Discard(0, (C("T1"), C("S1"), C("S2"))))


def test_s4_three_cards_from_the_hand() -> None:
    s = _dealer(HAND)
    for cards in ((C("S1"), C("S2")), (C("S1"), C("S2"), C("S3"), C("S4")), (C("S1"), C("S1"), C("S2"))):
        with pytest.raises(IllegalMove, match=r"\(S4\)"):
            decide(s, Discard(0, cards))
    with pytest.raises(IllegalMove, match=r"not in the dealer's hand \(S4\)"):
        decide(s, Discard(0, (C("S1"), C("S2"), C("S6"))))
    with pytest.raises(IllegalMove, match="deals"):
        decide(s, Discard(1, (C("S1"), C("S2"), C("S3"))))
    (ev,) = decide(s, Discard(0, (C("S1"), C("S2"), C("S3"))))
    assert ev == Discarded(0, M("S1 S2 S3"), 0)
    after = apply(s, ev)
    assert after.phase == PLAY and after.turn == 1 and after.hands[0].bit_count() == 25


@pytest.mark.parametrize("hand", [HAND, NO_TRUMPS])
def test_s4_the_legal_list_is_every_triple_the_rule_allows(hand: str) -> None:
    s = _dealer(hand)
    listed = legal_commands(s)
    cards = mask_cards(s.hands[0])
    by_rule = [Discard(0, t) for t in combinations(cards, 3)
               if R.discard_refusal(s.hands[0], sum(1 << c for c in t)) is None]
    assert list(listed) == by_rule and len(listed) == len(by_rule)
    rnd = random.Random(1)
    for _ in range(200):  # the lazy list answers like the list it stands for
        i = rnd.randrange(len(by_rule))
        assert listed[i] == by_rule[i] and by_rule[i] in listed
        assert R.legal_discards(s.hands[0]).index(sum(1 << c for c in by_rule[i].cards)) == i  # type: ignore[attr-defined]
    assert Discard(0, (C("SK"), C("S1"), C("S2"))) not in listed


def test_s4_nobody_else_sees_the_stock_or_the_discard() -> None:
    g = Game(11, 1, rules=R)
    dealt = g.events[0]
    assert isinstance(dealt, Dealt)
    d = dealt.dealer
    g.submit(g.legal()[0])
    for seat in range(3):
        v = g.view(seat)
        if seat == d:
            assert v.stock == dealt.stock and v.discard == g.state.discard
            assert v.discard_trumps == g.state.discard_trumps
        else:
            assert v.stock == 0 and v.discard == 0 and v.discard_trumps == -1
            assert not v.hand & g.state.discard
            se = seat_event(dealt, seat, R)
            assert isinstance(se, Dealt) and se.stock == 0
            assert [h != 0 for h in se.hands] == [s == seat for s in range(3)]
            de = seat_event(g.events[1], seat, R)
            assert isinstance(de, Discarded) and de.cards == 0 and de.trumps == -1
    assert seat_event(g.events[1], d, R) == g.events[1]


# --- S5 play -------------------------------------------------------------------------


def test_s5_right_of_dealer_leads_follow_else_trump_else_any() -> None:
    s = play_state(["S5 SK B5 T3", "S6 B6 T4 C1", "B7 T5 C2 M"], leader=1, trick="S6")
    assert plays(s._replace(turn=2)) == ["T5", "M"]  # void in Swords: trump or the Matto
    s2 = play_state(["S5 SK B5 T3", "S6 B6 T4 C1", "B7 C2 D3 D9"], leader=1, trick="S6")
    assert plays(s2._replace(turn=2)) == ["B7", "C2", "D9", "D3"]
    s3 = play_state(["S5 SK B5 T3", "S6 B6 T4 C1", "S7 B7 T5 C2"], leader=1, trick="S6")
    assert plays(s3._replace(turn=2)) == ["S7"]
    with pytest.raises(IllegalMove, match=r"must follow Swords \(S5\)"):
        decide(s3._replace(turn=2), Play(2, C("T5")))
    g = Game(3, 1, rules=R)
    g.submit(g.legal()[0])
    assert g.state.turn == R.next[g.state.dealer]


def test_s5_matto_never_wins_and_goes_to_its_player() -> None:
    s = play_state(["M S5", "S6 B6", "S7 B7"], leader=1, trick="S6 S7")
    ev = decide(s, Play(0, P.matto))
    assert ev[1].winner == 2  # type: ignore[union-attr]
    after = apply(apply(s, ev[0]), ev[1])
    assert after.piles[0] == P.matto_mask and after.piles[2] == M("S6 S7")
    led = play_state(["M", "B6 S6", "S7 B7"], leader=0, trick="M")
    assert plays(led) == ["S6", "B6"]
    assert plays(play_state(["M", "B6", "S7 B7"], leader=0, trick="M B6")) == ["B7"]


# --- S6 counting in threes -----------------------------------------------------------------


def test_s6_count_in_threes_of_a_literal_deal_end() -> None:
    # Three tricks of the last moment: South took SK SQ S1 (10 - 2 = 8), East the
    # Matto's trick with two cards C1 C2 (2 + 1 - 2 = 1) while West played the Matto
    # (4), and South dealt a discard of SN SJ S2 (6 - 2 = 4).
    s = new_game(0, 1, R)._replace(dealer=0, discard=M("SN SJ S2"))
    piles = (M("SK SQ S1"), M("C1 C2"), P.matto_mask)
    won = (1, 1, 0)
    assert R.score(piles, won, 0, s.discard) == (8 + 4, 1, 4)
    assert R.deal_scores((30, 22, 26)) == (4, -4, 0)


def test_s6_every_deal_counts_78_and_the_breakdown_adds_up() -> None:
    for seed in range(30):
        g = finished(seed)
        (points,) = g.state.scores
        assert sum(points) == 78 and sum(R.deal_scores(points)) == 0
        parts = state_breakdown(g.states[-2])
        assert tuple(p.total for p in parts) == points
        for p in parts:
            cards = sum(len(x.cards) for x in p.groups if x.kind != "matto")
            # each group of three less 2, one group of two at +1 - 2 for the Matto's trick
            twos = sum(1 for x in p.groups if x.kind == "matto_trick")
            assert p.adjust == -2 * (cards // 3) - (1 if cards % 3 == 2 else 0)
            assert twos == (1 if cards % 3 == 2 else 0)
            assert p.deal_score == p.total - 26


def test_s6_game_of_three_deals_lowest_total_loses() -> None:
    g = finished(5, 3)
    assert g.state.phase == OVER and len(g.state.scores) == 3
    dealers = [e.dealer for e in g.events if isinstance(e, Dealt)]
    assert [(d - dealers[0]) % 3 for d in dealers] == [0, 1, 2]
    totals = g.state.totals
    assert totals == tuple(sum(R.deal_scores(p)[s] for p in g.state.scores) for s in range(3))
    out = R.game_outcome(g.state.scores)
    assert out.losers == tuple(s for s in range(3) if totals[s] == min(totals))
    assert R.outcome((3, -3, 0)) == ((0, 2), (1,))
    assert R.outcome((2, -1, -1)) == ((0,), (1, 2))  # two share the lowest: both lose
    assert R.outcome((0, 0, 0)).draw
    with pytest.raises(ValueError, match="S6"):
        new_game(1, 4, R)


# --- the replay form (docs/REPLAY-FORMAT.md, "Variant scarto") ----------------------


def test_replay_form_of_a_scarto_game() -> None:
    g = finished(8, 3)
    text = format_replay(g.header, g.events)
    lines = [json.loads(x) for x in text.splitlines()]
    assert lines[0]["variant"] == "scarto" and len(lines[0]["players"]) == 3
    deal = lines[1]
    assert deal["type"] == "deal" and [len(h) for h in deal["hands"]] == [25, 25, 25]
    assert len(deal["stock"]) == 3
    disc = lines[2]
    assert disc["type"] == "discard" and len(disc["cards"]) == 3 and "trumps" not in disc
    tricks = [x for x in lines[1:] if x["type"] == "trick"]
    assert len(tricks) == 75 and all(len(t["cards"]) == 3 for t in tricks)
    scores = [x for x in lines[1:] if x["type"] == "score"]
    assert len(scores) == 3 and all(len(s["points"]) == 3 and sum(s["points"]) == 78 for s in scores)
    back = parse_replay(text)
    assert back.events == g.events and back.final == g.state and back.rules is R


def _refuse(text: str, line: int, *needles: str) -> None:
    with pytest.raises(ReplayError) as exc:
        parse_replay(text)
    assert exc.value.line == line, str(exc.value)
    for n in needles:
        assert n in str(exc.value), str(exc.value)


def test_replay_refusals_name_the_line_and_the_scarto_rule() -> None:
    g = finished(9)
    objs = [json.loads(x) for x in format_replay(g.header, g.events).splitlines()]

    def text(o: list[dict]) -> str:  # type: ignore[type-arg]
        return "".join(json.dumps(x) + "\n" for x in o)

    dealer = objs[1]["dealer"]
    hand = objs[1]["hands"][dealer] + objs[1]["stock"]
    king = next(c for c in hand if c.endswith("K"))
    bad = [*objs[:2], {**objs[2], "cards": [king, *objs[2]["cards"][1:]]}, *objs[3:]]
    _refuse(text(bad), 3, "King may not be discarded", "(S4)")
    short = [*objs[:2], {**objs[2], "cards": objs[2]["cards"][:2]}, *objs[3:]]
    _refuse(text(short), 3, "(S4)")
    no_stock = [objs[0], {k: v for k, v in objs[1].items() if k != "stock"}, *objs[2:]]
    _refuse(text(no_stock), 2, "stock")
    four = [objs[0], {**objs[1], "hands": [*objs[1]["hands"], []]}, *objs[2:]]
    _refuse(text(four), 2, "3 lists")
    wrong = [*objs]
    k = next(i for i, o in enumerate(objs) if o.get("type") == "score")
    wrong[k] = {**objs[k], "points": [objs[k]["points"][1], objs[k]["points"][0], objs[k]["points"][2]]}
    if wrong[k] != objs[k]:
        _refuse(text(wrong), k + 1, "(S6)")
    pied = [{**objs[0], "variant": "piedicavallo"}, *objs[1:]]
    _refuse(text(pied), 1, "4 players", "(R2)")
    no_players = {k: v for k, v in objs[0].items() if k != "players"}
    _refuse(text([{**no_players, "variant": "piedicavallo"}, *objs[1:]]), 2, "4 lists")
    _refuse(text([{**objs[0], "players": ["a", "b"]}, *objs[1:]]), 1, "3 players", "(S1)")
    one = [{k: v for k, v in objs[0].items() if k != "deals"}, *objs[1:]]
    assert parse_replay(text(one)).final.n_deals == 3  # S6: a game is three deals


def test_piedicavallo_files_read_as_before() -> None:
    golden = Path(__file__).parent / "golden" / "single-seed-42.jsonl"
    rp = parse_replay(golden.read_text())
    assert rp.rules is PIEDICAVALLO and rp.final.scores and sum(rp.final.scores[0]) == 114


# --- commands -------------------------------------------------------------------------------


def test_simulate_scarto_is_byte_identical_with_jobs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    common = ["--variant", "scarto", "--games", "3", "--seed", "4242", "--quiet"]
    assert main(["simulate", *common, "--players", "random,random,random", "--out", str(a)]) == 0
    assert main(["simulate", *common, "--out", str(b)]) == 0  # random in every seat by default
    assert main(["simulate", *common, "--jobs", "2", "--out", str(c)]) == 0
    summaries = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert summaries[0]["variant"] == "scarto" and summaries[0]["deals_per_game"] == 1
    files = sorted(a.iterdir())
    assert len(files) == 3
    for f in files:
        assert f.read_bytes() == (b / f.name).read_bytes() == (c / f.name).read_bytes()
    assert main(["check", "--json", *map(str, files)]) == 0
    for line in capsys.readouterr().out.splitlines():
        obj = json.loads(line)
        assert obj["ok"] and obj["variant"] == "scarto" and sum(obj["points"][0]) == 78
    m = tmp_path / "m"
    assert main(["simulate", *common, "--match", "--out", str(m)]) == 0
    capsys.readouterr()
    assert main(["check", "--json", *map(str, sorted(m.iterdir()))]) == 0
    assert all(json.loads(x)["deals"] == 3 for x in capsys.readouterr().out.splitlines())


def test_scarto_players_count_is_checked(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="3 levels"):
        main(["simulate", "--variant", "scarto", "--games", "1", "--seed", "1",
              "--players", "random,random,random,random", "--out", str(tmp_path)])


def test_tournament_scarto_rotates_a_through_the_seats(capsys: pytest.CaptureFixture[str]) -> None:
    from engine.ai.cli import play_pair, run_tournament

    results, _times, deals = play_pair("easy", "random", 3, 0, None, "scarto")
    assert len(results) == 3 and deals[0] == deals[1] == deals[2]
    res = run_tournament("easy", "easy", 4, 3, workers=1, variant="scarto")
    assert res["games_per_deal"] == 3 and res["measure"] == "deal score"
    # the same level everywhere: A's three seats share the deal's scores, which sum to zero
    assert res["mean_margin"] == 0
