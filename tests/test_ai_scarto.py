"""The AI in Scarto (three seats, each for themselves): no peeking at any level,
sampled deals that fit what the seat knows (S4's discard included), and the
paranoid solver against a plain minimax of the searching seat's count."""

from __future__ import annotations

import random

import pytest

from engine.ai import pool
from engine.ai.players import EasyPlayer, HardPlayer, MediumPlayer
from engine.ai.solver import Solver
from engine.ai.worlds import known_of, sample
from engine.cards import mask_cards
from engine.game import Game
from engine.players import Player, RandomPlayer
from engine.state import DISCARD, PLAY, State, legal_commands
from engine.variants.scarto import NEVER_DISCARD_MASK, PACK, SCARTO, T1
from engine.view import seat_view

pool.set_parallel(False)

RULES = SCARTO
N = RULES.n_seats
MATTO = PACK.matto
POINTS = PACK.points
TRUMPS = PACK.trump_mask


def _states_along(seed: int, players: list[Player]) -> list[State]:
    game = Game(seed, 1, rules=RULES)
    out = []
    while True:
        legal = game.legal()
        if not legal:
            return out
        out.append(game.state)
        seat = game.state.turn
        game.submit(players[seat].choose(game.view(seat), legal, game.cursor))


def _reshuffled(state: State, seat: int, rand: random.Random) -> State:
    """The same position for ``seat``, everything it has not seen dealt anew: the
    other hands and, unless it dealt, the discard and the stock (which it never
    sees; the new stock is three of the new dealer's cards or discard)."""
    others = [s for s in range(N) if s != seat]
    cards: list[int] = []
    for s in others:
        cards += mask_cards(state.hands[s])
    hide = seat != state.dealer
    if hide:
        cards += mask_cards(state.discard)
    rand.shuffle(cards)
    hands = list(state.hands)
    pos = 0
    for s in others:
        k = state.hands[s].bit_count()
        hands[s] = sum(1 << c for c in cards[pos : pos + k])
        pos += k
    discard = sum(1 << c for c in cards[pos:]) if hide else state.discard
    stock = state.stock
    if hide:
        pool_d = mask_cards(hands[state.dealer] | discard)
        stock = sum(1 << c for c in rand.sample(pool_d, RULES.stock_cards))
    return state._replace(hands=tuple(hands), discard=discard, stock=stock)


LEVELS: list[Player] = [
    RandomPlayer(),
    EasyPlayer(),
    MediumPlayer(),
    HardPlayer(parallel=False, rounds=2),
]


@pytest.mark.parametrize("seed", [31, 32])
def test_no_peeking_scarto(seed: int) -> None:
    """Same view, different truths (other hands, and the discard and stock a
    non-dealer never sees): every level decides the same."""
    rand = random.Random(seed)
    states = _states_along(seed, [EasyPlayer()] * N)
    picks = [states[0], states[1], states[2], states[20], states[40], states[60], states[70]]
    assert picks[0].phase == DISCARD
    for st in picks:
        seat = st.turn
        other = _reshuffled(st, seat, rand)
        assert other.hands != st.hands
        if st.phase == PLAY and seat != st.dealer:
            assert other.discard != st.discard or other.stock != st.stock
        v1, v2 = seat_view(st, seat), seat_view(other, seat)
        assert v1 == v2
        legal = legal_commands(st)
        assert legal == legal_commands(other)
        for p in LEVELS:
            assert p.choose(v1, legal, 9) == p.choose(v2, legal, 9), (p.name, st.trick_no)


def test_sampled_deals_fit_what_the_seat_knows_scarto() -> None:
    rand = random.Random(2)
    for seed in (21, 22, 23):
        states = _states_along(seed, [EasyPlayer()] * N)
        for st in states[1::4]:
            if st.phase != PLAY:
                continue
            for seat in range(N):
                view = seat_view(st, seat)
                kn = known_of(view)
                voids = view.voids()
                d = st.dealer
                dealer_shown_no_trump = bool(voids[d] & TRUMPS) and not (
                    view.played[d] & (TRUMPS | PACK.matto_mask)
                )
                for _ in range(4):
                    hands, discard = sample(kn, rand, strict=True)
                    assert hands[seat] == st.hands[seat]
                    for s in range(N):
                        assert hands[s].bit_count() == st.hands[s].bit_count()
                        if s != seat:
                            assert not hands[s] & voids[s]
                    allc = hands[0] | hands[1] | hands[2] | discard
                    assert allc == view.unseen | view.hand | view.discard
                    assert discard.bit_count() == 3
                    if seat == d:
                        assert discard == st.discard  # the dealer knows its discard
                        continue
                    # S4: never a King, trump 20 or the Matto; trump 1 only from
                    # a dealer that has shown it holds no trump and no Matto
                    assert not discard & NEVER_DISCARD_MASK
                    if discard >> T1 & 1:
                        assert dealer_shown_no_trump
                    # S4 judged on the dealer's 28 cards at the time of the discard
                    whole = hands[d] | view.played[d] | discard
                    assert RULES.discard_refusal(whole, discard) is None


def _naive(hands: list[int], leader: int, trick: list[int], acc: int, me: int) -> int:
    """Plain minimax of seat ``me``'s count: it maximises, both others minimise."""
    n = len(trick)
    seat = (leader + n) % N
    if n == 0 and not hands[seat]:
        return acc
    vals = []
    for c in mask_cards(RULES.legal_mask(hands[seat], RULES.led_suit(trick))):
        h = list(hands)
        h[seat] &= ~(1 << c)
        t = [*trick, c]
        a = acc + (POINTS[MATTO] if c == MATTO and seat == me else 0)
        if len(t) == N:
            w = (leader + RULES.trick_winner_index(t)) % N
            pts = RULES.trick_adjust + sum(
                RULES.matto_trick_adjust if x == MATTO else POINTS[x] for x in t
            )
            vals.append(_naive(h, w, [], a + (pts if w == me else 0), me))
        else:
            vals.append(_naive(h, leader, t, a, me))
    return max(vals) if seat == me else min(vals)


def test_solver_matches_plain_minimax_scarto() -> None:
    for i in range(150):
        r = random.Random(i)
        k = r.choice([1, 2, 3])
        cards = list(range(PACK.n_cards))
        r.shuffle(cards)
        if r.random() < 0.5 and MATTO not in cards[: N * k]:
            cards[r.randrange(N * k)] = MATTO
        hands = [sum(1 << c for c in cards[s * k : (s + 1) * k]) for s in range(N)]
        leader = r.randrange(N)
        me = r.randrange(N)
        acc0 = r.randrange(40)
        w_me, w_others = r.choice([0, 1, 2]), r.choice([0, 1, 3])
        trick: list[int] = []
        for j in range(r.randrange(N)):
            s = (leader + j) % N
            c = r.choice(mask_cards(RULES.legal_mask(hands[s], RULES.led_suit(trick))))
            hands[s] &= ~(1 << c)
            trick.append(c)
            if c == MATTO and s == me:
                acc0 += POINTS[MATTO]
        seat = (leader + len(trick)) % N
        legal = RULES.legal_mask(hands[seat], RULES.led_suit(trick))
        got = Solver(RULES, me).root_values(hands, leader, tuple(trick), acc0, w_me, w_others, legal)
        for c in mask_cards(legal):
            h = list(hands)
            h[seat] &= ~(1 << c)
            t = [*trick, c]
            a = acc0 + (POINTS[MATTO] if c == MATTO and seat == me else 0)
            if len(t) == N:
                w = (leader + RULES.trick_winner_index(t)) % N
                pts = RULES.trick_adjust + sum(
                    RULES.matto_trick_adjust if x == MATTO else POINTS[x] for x in t
                )
                want = _naive(h, w, [], a + (pts if w == me else 0), me)
            else:
                want = _naive(h, leader, t, a, me)
            assert got[c] == want, (i, c)
