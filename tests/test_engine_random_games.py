"""The random-game invariant test, in the OpenSpiel manner, over 2,000 seeded deals.

At every step: the legal list is non-empty and sorted; every listed command is
accepted and others are refused; views leak no hidden card.  Per game: replay of
the log equals the live state; undo and redo land exactly on each earlier state;
the replay JSON round-trips; every deal scores 114.
"""

from __future__ import annotations

import random

import pytest

from engine.cards import ALL_MASK, N_CARDS, TOTAL_POINTS, mask_cards
from engine.game import Game
from engine.replay import format_replay, parse_replay
from engine.state import (
    DISCARD,
    OVER,
    PLAY,
    Discard,
    IllegalMove,
    Play,
    State,
    apply,
    decide,
    is_decision,
    legal_commands,
    new_game,
)
from engine.view import seat_view

N_DEALS = 2000
CHUNKS = 8


def _refused(state: State, cmd: Play | Discard) -> bool:
    try:
        decide(state, cmd)
    except IllegalMove:
        return True
    return False


def _check_step(state: State, legal: list[Play | Discard], rnd: random.Random) -> None:
    assert legal, "a seat is to act but has no legal command"
    assert legal == sorted(legal), "the legal list is not sorted"
    assert len(set(legal)) == len(legal)
    seat = state.turn
    for cmd in legal:
        events = decide(state, cmd)  # every listed command is accepted
        assert events
    listed = set(legal)
    if state.phase == PLAY:
        hand = state.hands[seat]
        for card in range(N_CARDS):  # every unlisted card of every seat is refused
            cmd = Play(seat, card)
            if cmd not in listed:
                assert _refused(state, cmd), f"{cmd} accepted but not listed"
        other = (seat + 1 + rnd.randrange(3)) & 3
        assert _refused(state, Play(other, rnd.choice(mask_cards(state.hands[other]) or [0])))
        assert hand
    else:
        cards = mask_cards(state.hands[seat])
        for i, a in enumerate(cards):
            for b in cards[i + 1 :]:
                cmd = Discard(seat, (a, b))
                if cmd not in listed:
                    assert _refused(state, cmd), f"{cmd} accepted but not listed"
        assert _refused(state, Discard((seat + 1) & 3, legal[0].cards))  # type: ignore[union-attr]


def _check_views(state: State, rnd: random.Random) -> None:
    """Each view holds only what its seat may know: redealing the cards hidden from
    that seat (other hands and, for non-dealers, the discard) gives the same view."""
    for seat in range(4):
        view = seat_view(state, seat)
        assert view.hand == state.hands[seat]
        known = view.hand | view.discard
        for p in view.played:
            known |= p
        hidden_holders = [s for s in range(4) if s != seat]
        pool = [c for s in hidden_holders for c in mask_cards(state.hands[s])]
        if seat != state.dealer:
            pool += mask_cards(state.discard)
        assert not any(known >> c & 1 for c in pool), "a hidden card is in the view"
        rnd.shuffle(pool)
        hands = list(state.hands)
        for s in hidden_holders:
            n = hands[s].bit_count()
            hands[s] = sum(1 << c for c in pool[:n])
            pool = pool[n:]
        discard = state.discard if seat == state.dealer else sum(1 << c for c in pool)
        other = state._replace(hands=tuple(hands), discard=discard)
        assert seat_view(other, seat) == view


def _check_undo_redo(game: Game) -> None:
    fold = [game.states[0]]
    for e in game.events:
        fold.append(apply(fold[-1], e))
    assert fold[-1] == game.state  # replay equals the live state
    end = game.cursor
    for seat in range(4):
        decisions = [i for i, s in enumerate(fold) if is_decision(s, seat)]
        seen = []
        while game.undo(seat):
            assert game.state == fold[game.cursor]
            seen.append(game.cursor)
        assert seen == decisions[::-1]
        while game.redo(seat):
            assert game.state == fold[game.cursor]
        assert game.cursor == end


def _play_chunk(start: int, count: int) -> int:
    deals = 0
    for seed in range(start, start + count):
        rnd = random.Random(seed)
        game = Game(seed, 1)
        while game.state.phase != OVER:
            state = game.state
            legal = game.legal()
            assert legal == legal_commands(state)
            if seed % 4 == 0:  # the exhaustive refusal sweep on a quarter of the deals
                _check_step(state, legal, rnd)
            else:
                assert legal and legal == sorted(legal)
            if seed % 10 == 0 or state.phase == DISCARD:
                _check_views(state, rnd)
            game.submit(legal[rnd.randrange(len(legal))])
        (points,) = game.state.scores
        assert sum(points) == TOTAL_POINTS
        assert game.state.hands == (0, 0, 0, 0)
        cards = game.state.piles[0] | game.state.piles[1] | game.state.discard
        assert cards == ALL_MASK
        _check_undo_redo(game)
        back = parse_replay(format_replay(game.header, game.events))
        assert back.events == game.events
        assert back.final == game.state
        deals += 1
    return deals


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_invariants(chunk: int) -> None:
    per = N_DEALS // CHUNKS
    assert _play_chunk(1000 + chunk * per, per) == per


def test_random_matches_invariants() -> None:
    for seed in range(40):
        rnd = random.Random(seed)
        game = Game(seed, 4)
        dealers = []
        while game.state.phase != OVER:
            if not dealers or dealers[-1] != game.state.dealer:
                dealers.append(game.state.dealer)
            legal = game.legal()
            game.submit(legal[rnd.randrange(len(legal))])
        assert len(game.state.scores) == 4
        assert all(sum(p) == TOTAL_POINTS for p in game.state.scores)
        assert [(d - dealers[0]) & 3 for d in dealers] == [0, 1, 2, 3]  # R13
        _check_undo_redo(game)
        back = parse_replay(format_replay(game.header, game.events))
        assert back.final == game.state
    assert new_game(1, 4).n_deals == 4
