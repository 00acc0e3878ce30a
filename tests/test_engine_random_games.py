"""The random-game invariant test, in the OpenSpiel manner, over every ruleset:
2,000 seeded deals of Piedicavallo and 800 of Scarto.

At every step: the legal list is non-empty and sorted; every listed command is
accepted and others are refused; views leak no hidden card.  Per game: replay of
the log equals the live state; undo and redo land exactly on each earlier state;
the replay JSON round-trips; every deal's points sum to the game's total (114 card
points, or Scarto's count of 78) and every card ends in a pile or the discard.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from engine.cards import mask_cards
from engine.game import Game
from engine.replay import format_replay, parse_replay
from engine.ruleset import Ruleset
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
from engine.variants import PIEDICAVALLO, SCARTO
from engine.view import seat_view

#: (ruleset, deals, chunks, whole games)
RUNS = {"piedicavallo": (PIEDICAVALLO, 2000, 8, 40), "scarto": (SCARTO, 800, 4, 20)}
CHUNK_PARAMS = [(name, k) for name, (_r, _n, chunks, _g) in RUNS.items() for k in range(chunks)]


def _refused(state: State, cmd: Play | Discard) -> bool:
    try:
        decide(state, cmd)
    except IllegalMove:
        return True
    return False


def _check_step(state: State, legal: list[Play | Discard], rnd: random.Random) -> None:
    rules = state.rules
    n = rules.n_seats
    assert legal, "a seat is to act but has no legal command"
    listed_list = list(legal)
    assert listed_list == sorted(listed_list), "the legal list is not sorted"
    assert len(set(listed_list)) == len(listed_list)
    seat = state.turn
    for cmd in listed_list:
        events = decide(state, cmd)  # every listed command is accepted
        assert events
        assert cmd in legal
    listed = set(listed_list)
    if state.phase == PLAY:
        hand = state.hands[seat]
        for card in range(rules.pack.n_cards):  # every unlisted card of every seat is refused
            cmd = Play(seat, card)
            if cmd not in listed:
                assert _refused(state, cmd), f"{cmd} accepted but not listed"
                assert cmd not in legal
        other = (seat + 1 + rnd.randrange(n - 1)) % n
        assert _refused(state, Play(other, rnd.choice(mask_cards(state.hands[other]) or [0])))
        assert hand
    else:
        cards = mask_cards(state.hands[seat])
        for combo in combinations(cards, rules.discard_cards):
            cmd = Discard(seat, combo)
            if cmd not in listed:
                assert _refused(state, cmd), f"{cmd} accepted but not listed"
                assert cmd not in legal
        assert _refused(state, Discard(rules.next[seat], listed_list[0].cards))  # type: ignore[union-attr]
        assert _refused(state, Discard(seat, listed_list[0].cards[1:]))  # type: ignore[union-attr]


def _check_views(state: State, rnd: random.Random) -> None:
    """Each view holds only what its seat may know: redealing the cards hidden from
    that seat (other hands and, for non-dealers, the discard) gives the same view."""
    n_seats = state.rules.n_seats
    for seat in range(n_seats):
        view = seat_view(state, seat)
        assert view.hand == state.hands[seat]
        if seat != state.dealer:
            assert view.stock == 0 and view.discard == 0
            if not state.rules.announces_discard_trumps:
                assert view.discard_trumps == -1
        known = view.hand | view.discard | view.stock
        for p in view.played:
            known |= p
        hidden_holders = [s for s in range(n_seats) if s != seat]
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
    for seat in range(game.rules.n_seats):
        decisions = [i for i, s in enumerate(fold) if is_decision(s, seat)]
        seen = []
        while game.undo(seat):
            assert game.state == fold[game.cursor]
            seen.append(game.cursor)
        assert seen == decisions[::-1]
        while game.redo(seat):
            assert game.state == fold[game.cursor]
        assert game.cursor == end


def _play_chunk(rules: Ruleset, start: int, count: int) -> int:
    deals = 0
    for seed in range(start, start + count):
        rnd = random.Random(seed)
        game = Game(seed, 1, rules=rules)
        while game.state.phase != OVER:
            state = game.state
            legal = game.legal()
            assert legal == legal_commands(state)
            if seed % 4 == 0:  # the exhaustive refusal sweep on a quarter of the deals
                _check_step(state, legal, rnd)  # type: ignore[arg-type]
            else:
                assert legal and list(legal) == sorted(legal)
            if seed % 10 == 0 or state.phase == DISCARD:
                _check_views(state, rnd)
            game.submit(legal[rnd.randrange(len(legal))])
        (points,) = game.state.scores
        assert len(points) == rules.n_sides
        assert sum(points) == rules.total
        assert game.state.hands == (0,) * rules.n_seats
        cards = game.state.discard
        for pile in game.state.piles:
            assert not pile & cards
            cards |= pile
        assert cards == rules.pack.all_mask
        assert sum(rules.deal_scores(points)) == rules.total - rules.n_sides * rules.par
        _check_undo_redo(game)
        back = parse_replay(format_replay(game.header, game.events))
        assert back.events == game.events
        assert back.final == game.state
        deals += 1
    return deals


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "chunk"), CHUNK_PARAMS)
def test_random_games_invariants(variant: str, chunk: int) -> None:
    rules, n_deals, chunks, _games = RUNS[variant]
    per = n_deals // chunks
    assert _play_chunk(rules, 1000 + chunk * per, per) == per


@pytest.mark.parametrize("variant", RUNS)
def test_random_matches_invariants(variant: str) -> None:
    rules, _n, _c, n_games = RUNS[variant]
    full = rules.full_game
    for seed in range(n_games):
        rnd = random.Random(seed)
        game = Game(seed, full, rules=rules)
        dealers = []
        while game.state.phase != OVER:
            if not dealers or dealers[-1] != game.state.dealer:
                dealers.append(game.state.dealer)
            legal = game.legal()
            game.submit(legal[rnd.randrange(len(legal))])
        assert len(game.state.scores) == full
        assert all(sum(p) == rules.total for p in game.state.scores)
        # R13, S6: each seat deals once, the deal passing to the next seat
        assert [(d - dealers[0]) % rules.n_seats for d in dealers] == list(range(full))
        _check_undo_redo(game)
        back = parse_replay(format_replay(game.header, game.events))
        assert back.final == game.state
    assert new_game(1, full, rules).n_deals == full
