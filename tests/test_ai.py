"""AI players: legality, determinism, no peeking, partner play, hint, solver,
sampling, and the tournament's duplicate pairing."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine.ai import pool
from engine.ai.cli import play_pair, run_tournament
from engine.ai.fast import kernel
from engine.ai.players import (
    MEDIUM,
    Budget,
    EasyPlayer,
    HardPlayer,
    MediumPlayer,
    SearchPlayer,
    card_values,
    hint,
)
from engine.ai.solver import Solver
from engine.ai.worlds import known_of, sample
from engine.files import MAX_NAME_CHARS
from engine.game import Game
from engine.players import LEVELS, Player, RandomPlayer, level_names, make_player
from engine.replay import format_replay
from engine.simulate import play_game
from engine.state import PLAY, Play, State, legal_commands
from engine.variants.piedicavallo import NEVER_DISCARD_MASK, PACK, PIEDICAVALLO
from engine.view import seat_view

ROOT = Path(__file__).resolve().parent.parent

MATTO = PACK.matto
POINTS = PACK.points
TRUMP_MASK = PACK.trump_mask
parse_card = PACK.parse
led_suit = PIEDICAVALLO.led_suit
legal_mask = PIEDICAVALLO.legal_mask
trick_winner_index = PIEDICAVALLO.trick_winner_index
policy = kernel(PIEDICAVALLO).policy


def CardSet(cards: object) -> object:  # noqa: N802 - the friendly set of this pack
    return PACK.cards(cards) if isinstance(cards, int) else PACK.cards(sum(1 << c for c in cards))  # type: ignore[attr-defined]

pool.set_parallel(False)  # tests run in-process (and quickly)

TINY = Budget(
    playout_cards=600,
    min_worlds=2,
    max_worlds=4,
    exact_cards=3,
    exact_worlds=(0, 1, 3, 3),
    discard_pairs=2,
    discard_worlds=2,
    inference=1.3,
    oversample=2,
)


def tiny(name: str = "tiny") -> SearchPlayer:
    return SearchPlayer(name, TINY)


def m(text: str) -> int:
    return PACK.parse_set(text).mask


def test_every_level_is_listed_and_made_by_name() -> None:
    assert level_names() == ["random", "easy", "medium", "hard"] == list(LEVELS)
    for name in level_names():
        assert make_player(name).name == name
    with pytest.raises(ValueError, match="unknown player level 'expert'; choose from random, easy"):
        make_player("expert")


@pytest.mark.parametrize("seed", range(3))
def test_easy_plays_only_legal_commands(seed: int) -> None:
    # play_game raises IllegalMove on any illegal choice
    for i in range(100):
        game = play_game(seed * 1000 + i, [EasyPlayer(), EasyPlayer(), EasyPlayer(), EasyPlayer()], rules=PIEDICAVALLO)
        assert sum(game.state.scores[0]) == 114


@pytest.mark.slow
def test_search_players_play_only_legal_commands() -> None:
    players: list[Player] = [tiny(), EasyPlayer(), HardPlayer(budget_ms=20, parallel=False), tiny()]
    # (a deadline of 20 ms: whatever it completes, every card played is legal)
    for i in range(12):
        game = play_game(50_000 + i, players, 1, rules=PIEDICAVALLO)
        assert sum(game.state.scores[0]) == 114
    game = play_game(7, players, 4, rules=PIEDICAVALLO)  # a match: four deals, every seat deals once
    assert len(game.state.scores) == 4


def test_replays_are_deterministic() -> None:
    def run() -> str:
        ps: list[Player] = [tiny(), EasyPlayer(), HardPlayer(parallel=False, rounds=2), EasyPlayer()]
        g = play_game(1234, ps, 1, rules=PIEDICAVALLO)
        return format_replay(g.header, g.events)

    assert run() == run()


def _states_along(seed: int, players: list[Player]) -> list[State]:
    game = Game(seed, 1, rules=PIEDICAVALLO)
    out = []
    while True:
        legal = game.legal()
        if not legal:
            return out
        out.append(game.state)
        seat = game.state.turn
        game.submit(players[seat].choose(game.view(seat), legal, game.cursor))


def _reshuffled(state: State, seat: int, rand: random.Random) -> State:
    """The same position for ``seat`` with the other seats' hidden cards (and the
    discard, unless ``seat`` dealt) dealt differently."""
    others = [s for s in range(4) if s != seat]
    pool_cards: list[int] = []
    for s in others:
        pool_cards += list(CardSet(state.hands[s]))
    hide_discard = state.phase == PLAY and seat != state.dealer
    if hide_discard:
        pool_cards += list(CardSet(state.discard))
    rand.shuffle(pool_cards)
    hands = list(state.hands)
    pos = 0
    for s in others:
        k = state.hands[s].bit_count()
        hands[s] = CardSet(pool_cards[pos : pos + k]).mask
        pos += k
    discard = CardSet(pool_cards[pos:]).mask if hide_discard else state.discard
    return state._replace(hands=(hands[0], hands[1], hands[2], hands[3]), discard=discard)


def test_no_peeking() -> None:
    """Same view, different truths: every level's decision is the same."""
    rand = random.Random(5)
    levels: list[Player] = [
        RandomPlayer(),
        EasyPlayer(),
        tiny(),
        MediumPlayer(),
        HardPlayer(parallel=False, rounds=3),
    ]
    states = _states_along(77, [EasyPlayer()] * 4)
    picks = [states[0], states[1], states[10], states[25], states[40], states[55]]
    for st in picks:
        seat = st.turn
        other = _reshuffled(st, seat, rand)
        assert other.hands != st.hands
        v1, v2 = seat_view(st, seat), seat_view(other, seat)
        assert v1 == v2
        legal = legal_commands(st)
        for p in levels:
            assert p.choose(v1, legal, 9) == p.choose(v2, legal_commands(other), 9), p.name


def _position(
    hands: dict[int, str],
    leader: int,
    trick: str,
    turn: int,
    *,
    dealer: int = 3,
    tricks_won: tuple[int, int] = (5, 7),
) -> State:
    """A late-deal position: the given hands, the trick so far, every other card
    already played (spread over the seats; no history needed by the view)."""
    hm = [m(hands[s]) for s in range(4)]
    tcards = [parse_card(c) for c in trick.split()]
    used = 0
    for h in hm:
        used |= h
    for c in tcards:
        used |= 1 << c
    rest = [c for c in range(62) if not used >> c & 1]
    played = [0, 0, 0, 0]
    for i, c in enumerate(tcards):
        played[(leader + i) & 3] |= 1 << c
    # discard: two non-trump, non-King cards of the rest
    disc = [c for c in rest if c >= 22 and not (1 << c) & NEVER_DISCARD_MASK][:2]
    rest = [c for c in rest if c not in disc]
    for i, c in enumerate(rest):
        played[i % 4] |= 1 << c
    return State(
        seed=3,
        n_deals=1,
        phase=PLAY,
        deal_no=1,
        dealer=dealer,
        hands=(hm[0], hm[1], hm[2], hm[3]),
        discard=CardSet(disc).mask,
        discard_trumps=0,
        turn=turn,
        leader=leader,
        trick=tuple(tcards),
        trick_no=12,
        piles=(0, 0),
        tricks_won=tricks_won,
        played=(played[0], played[1], played[2], played[3]),
        rules=PIEDICAVALLO,
    )


ALL_LEVELS = [EasyPlayer(slip=0.0), MediumPlayer(), HardPlayer(parallel=False, rounds=4)]


def test_fourth_hand_feeds_partner_trick() -> None:
    # Seat 0 led S5, partner seat 1 trumped with T21 (sure), seat 2 followed S6:
    # seat 3, void in swords and trumps, feeds the King of Cups.
    st = _position({0: "T3 T4", 1: "D6 D5", 2: "T5 T6", 3: "CK C6 D4"}, 0, "S5 T21 S6", 3, dealer=0)
    view = seat_view(st, 3)
    for p in ALL_LEVELS:
        assert p.choose(view, legal_commands(st), 1) == Play(3, parse_card("CK")), p.name


def test_does_not_overtake_partner() -> None:
    # Partner (seat 1) wins with T15; seat 3 must trump: T2 under, not T20 over.
    st = _position(
        {0: "T3 T4", 1: "D6 D5", 2: "T5 T6", 3: "T2 T20 D4"}, 0, "S5 T15 S6", 3, dealer=0
    )
    view = seat_view(st, 3)
    for p in ALL_LEVELS:
        assert p.choose(view, legal_commands(st), 1) == Play(3, parse_card("T2")), p.name


def test_matto_saves_king() -> None:
    # Seat 3 (opponent) trumps a swords trick; seat 0 holds SK, Matto, T21: the
    # Matto keeps the King, which later wins after T21 clears the way.
    st = _position({0: "SK M T21", 1: "C2 C3", 2: "D2 D3", 3: "C4 C5"}, 1, "S5 S6 T10", 0, dealer=1)
    view = seat_view(st, 0)
    for p in ALL_LEVELS:
        assert p.choose(view, legal_commands(st), 1) == Play(0, MATTO), p.name


def test_policy_keeps_matto_when_cheap_card_available() -> None:
    hands = [m("S5 SK M"), m("C2 C3"), m("D2 D3"), m("C4 C5")]
    trick = [parse_card("S6"), parse_card("S7"), parse_card("T10")]
    legal = legal_mask(hands[0], led_suit(trick))
    assert policy(hands, 0, 1, trick, legal) == parse_card("S5")


def test_hint_lists_every_legal_card_best_first() -> None:
    states = _states_along(11, [EasyPlayer()] * 4)
    st = next(s for s in states if s.phase == PLAY and s.trick_no == 3 and len(s.trick) == 1)
    view = seat_view(st, st.turn)
    h = hint(view, budget_ms=30)
    legal = view.legal()
    assert sorted(c for c, _v in h) == sorted(legal)  # type: ignore[type-var]
    vals = [v for _c, v in h]
    # the first is the natural card among those tied within the search's noise
    # (the natural-card tie-break), the rest best first
    assert vals[1:] == sorted(vals[1:], reverse=True)
    assert all(0 <= v <= 114 for v in vals)
    # the medium player's card is one the same search rates
    cv = card_values(view, MEDIUM, 1, False)
    assert [c for c, _ in cv] and len(cv) == len(legal)


def test_hint_for_the_discard() -> None:
    game = Game(3, 1, rules=PIEDICAVALLO)
    view = game.view(game.state.turn)
    h = hint(view, budget_ms=5)
    assert len(h) == len(view.legal())
    assert {c for c, _ in h} == set(view.legal())


def _naive(hands: list[int], leader: int, trick: list[int], acc0: int, w0: int, w1: int) -> int:
    n = len(trick)
    seat = (leader + n) & 3
    if n == 0 and not hands[seat]:
        return 0 if w0 == 0 else (114 if w1 == 0 else acc0)
    vals = []
    for c in CardSet(legal_mask(hands[seat], led_suit(trick))):
        h = list(hands)
        h[seat] &= ~(1 << c)
        t = [*trick, c]
        a = acc0 + (5 if c == MATTO and seat % 2 == 0 else 0)
        if len(t) == 4:
            wi = (leader + trick_winner_index(t)) & 3
            pts = sum(POINTS[x] for x in t if x != MATTO)
            if wi % 2 == 0:
                vals.append(_naive(h, wi, [], a + pts, w0 + 1, w1))
            else:
                vals.append(_naive(h, wi, [], a, w0, w1 + 1))
        else:
            vals.append(_naive(h, leader, t, a, w0, w1))
    return max(vals) if seat % 2 == 0 else min(vals)


def test_solver_matches_plain_minimax() -> None:
    for i in range(150):
        r = random.Random(i)
        k = r.choice([1, 2, 3])
        cards = list(range(62))
        r.shuffle(cards)
        if r.random() < 0.5 and MATTO not in cards[: 4 * k]:
            cards[0] = MATTO
        hands = [CardSet(cards[s * k : (s + 1) * k]).mask for s in range(4)]
        leader = r.randrange(4)
        w0, w1, acc0 = r.choice([0, 1, 2]), r.choice([0, 1, 3]), r.randrange(50)
        trick: list[int] = []
        for j in range(r.randrange(3)):
            s = (leader + j) & 3
            c = r.choice(list(CardSet(legal_mask(hands[s], led_suit(trick)))))
            hands[s] &= ~(1 << c)
            trick.append(c)
            if c == MATTO and s % 2 == 0:
                acc0 += 5
        seat = (leader + len(trick)) & 3
        legal = legal_mask(hands[seat], led_suit(trick))
        got = Solver(PIEDICAVALLO, 0).root_values(hands, leader, tuple(trick), acc0, w0, w1, legal)
        for c in CardSet(legal):
            h = list(hands)
            h[seat] &= ~(1 << c)
            t = [*trick, c]
            a = acc0 + (5 if c == MATTO and seat % 2 == 0 else 0)
            if len(t) == 4:
                wi = (leader + trick_winner_index(t)) & 3
                pts = sum(POINTS[x] for x in t if x != MATTO)
                want = (
                    _naive(h, wi, [], a + pts, w0 + 1, w1)
                    if wi % 2 == 0
                    else _naive(h, wi, [], a, w0, w1 + 1)
                )
            else:
                want = _naive(h, leader, t, a, w0, w1)
            assert got[c] == want, (i, c)


def test_sampled_deals_fit_what_the_seat_knows() -> None:
    states = _states_along(21, [EasyPlayer()] * 4)
    rand = random.Random(1)
    for st in states[::3]:
        if st.phase != PLAY:
            continue
        for seat in range(4):
            view = seat_view(st, seat)
            kn = known_of(view)
            voids = view.voids()
            for _ in range(5):
                hands, discard = sample(kn, rand)
                assert hands[seat] == st.hands[seat]
                for s in range(4):
                    assert hands[s].bit_count() == st.hands[s].bit_count()
                    if s != seat:
                        assert not hands[s] & voids[s]
                allc = hands[0] | hands[1] | hands[2] | hands[3] | discard
                assert allc == view.unseen | view.hand | view.discard
                assert discard.bit_count() == 2
                assert not discard & NEVER_DISCARD_MASK
                assert (discard & TRUMP_MASK).bit_count() == st.discard_trumps


def test_tournament_pairs_deals_both_ways() -> None:
    results, times, deals = play_pair("easy", "random", 9, 0, None, "piedicavallo")
    assert deals[0] == deals[1]  # the same cards both times
    assert set(times) == {"easy", "random"}
    # the same level on both sides: the two games are identical, margins cancel
    res = run_tournament("easy", "easy", 6, 3, workers=1, variant="piedicavallo")
    assert res["mean_margin"] == 0 and res["draws"] == 6
    res = run_tournament("easy", "random", 20, 3, workers=2, variant="piedicavallo")
    assert res["deal_pairs"] == 20 and res["wins"] + res["draws"] + res["losses"] == 20
    assert res["mean_margin"] > 0


@pytest.mark.slow
def test_tournament_writes_its_games_as_replays(tmp_path) -> None:
    """``--replays DIR``: every game of the match, readable, the players by seat,
    and its points are the match's."""
    from engine.replay import read_replay
    from engine.ruleset import ruleset

    folder = tmp_path / "games"
    res = run_tournament("easy", "random", 3, 5, workers=2, variant="piedicavallo", replays=str(folder))
    files = sorted(p.name for p in folder.iterdir())
    assert files == [f"{i:04d}-{k}.jsonl" for i in range(3) for k in range(2)]
    pied = ruleset("piedicavallo")
    margins = []
    for i in range(3):
        pair = []
        for k in range(2):
            rep = read_replay(folder / f"{i:04d}-{k}.jsonl")
            assert rep.header.extra["tournament"] == {
                "a": "easy", "b": "random", "seed": 5, "pair": i, "seating": k
            }
            names = rep.header.players
            assert sorted(names) == ["easy", "easy", "random", "random"]
            assert names[k] == "easy" and names[2 + k] == "easy"  # A's pair, each side in turn
            pts = rep.final.scores[0]
            a_side = pied.side[k]
            pair.append(pts[a_side] - pts[1 - a_side])
        margins.append(sum(pair) / 2)
    assert round(sum(margins) / 3, 2) == res["mean_margin"]
    # Scarto: A in each seat in turn, three files a deal
    scarto = tmp_path / "scarto"
    run_tournament("easy", "random", 1, 5, workers=1, variant="scarto", replays=str(scarto))
    heads = [read_replay(scarto / f"0000-{k}.jsonl").header.players for k in range(3)]
    assert [h.index("easy") for h in heads] == [0, 1, 2]
    # a folder that already holds a match's games is refused: the two would be counted as one
    r = subprocess.run([sys.executable, "-m", "game.cli", "tournament", "--a", "easy", "--b",
                        "random", "--deals", "1", "--seed", "1", "--quiet", "--replays",
                        str(scarto)], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 1 and "already holds replay files" in r.stderr
    assert "Traceback" not in r.stderr
    assert len(list(scarto.iterdir())) == 3  # nothing added
    # a tuning level longer than a replay's player names may be: cut behind its side's
    # letter, the whole name in the tournament entry, and the file reads back
    long_a = "medium:natural=0,tie_z=1.5,tie_margin=0.25,last_margin=2.5"
    long_b = "medium:natural=0,tie_z=1.5,tie_margin=0.25,last_margin=3.5"
    assert len(long_a) > MAX_NAME_CHARS
    cut = tmp_path / "long"
    run_tournament(long_a, long_b, 1, 5, workers=1, variant="scarto", replays=str(cut))
    rep = read_replay(cut / "0000-1.jsonl")
    assert rep.header.extra["tournament"]["a"] == long_a
    assert rep.header.players == [f"B:{long_b[:38]}", f"A:{long_a[:38]}", f"B:{long_b[:38]}"]
    assert all(len(n) == MAX_NAME_CHARS for n in rep.header.players)


def test_medium_tuning_variants() -> None:
    """``medium:key=value,...`` levels for tuning matches (screens of the tie-break's
    settings)."""
    import pytest

    from engine.ai.cli import make_level
    from engine.ai.players import MEDIUM, SearchPlayer

    p = make_level("medium:natural=0,tie_z=1.5", None)
    assert isinstance(p, SearchPlayer)
    assert p.budget.natural is False and p.budget.tie_z == 1.5
    assert p.budget.playout_cards == MEDIUM.playout_cards
    with pytest.raises(SystemExit):
        make_level("medium:nonsense=1", None)
