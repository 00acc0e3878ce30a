"""The tree search for seats that each play for themselves (engine.ai.uct): it
finds the solver's best card where the solver is right (two sides, every hand
known), it is a pure function of its seed and deals, and as a hard level's
rounds it gives the same answer in-process and on the pool."""

from __future__ import annotations

import dataclasses
import math
import random

import pytest

from engine.ai import pool
from engine.ai.anytime import Limits, Meter, config_for, search_play
from engine.ai.players import EasyPlayer
from engine.ai.search import exact_values
from engine.ai.uct import uct_counts
from engine.ai.worlds import known_of
from engine.cards import mask_cards
from engine.game import Game
from engine.players import decision_seed
from engine.ruleset import ruleset
from engine.state import PLAY
from engine.view import SeatView

pool.set_parallel(False)


def _position(variant: str, seed: int, cards_left: int) -> tuple[Game, SeatView]:
    """An easy game played until the seat to play holds ``cards_left`` cards
    and has at least two legal ones."""
    game = Game(seed, 1, rules=ruleset(variant))
    easy = EasyPlayer(slip=0.0)
    while True:
        legal = game.legal()
        assert legal, "the deal ended before the position"
        st = game.state
        view = game.view(st.turn)
        if st.phase == PLAY and view.hand.bit_count() <= cards_left and len(legal) > 1:
            return game, view
        game.submit(easy.choose(view, legal, game.cursor))


@pytest.mark.parametrize("seed", [3, 4, 5, 6])
def test_open_endgame_finds_the_solvers_best_card(seed: int) -> None:
    """Piedicavallo has two sides, so a seat's points are the other side's loss
    and each playing for its own points is exact minimax: with the true hands
    as the only deal, the tree's most visited card is worth what the solver's
    best card is worth."""
    game, view = _position("piedicavallo", seed, 3)
    kn = known_of(view)
    st = game.state
    truth = [(list(st.hands), st.discard)]
    cands = mask_cards(view.legal_mask())
    exact = exact_values(kn, list(st.hands), st.discard, cands)
    visits, sums = uct_counts(
        kn, truth, [1.0], cands, 4000, 8.0, random.Random(seed), Meter(), 1.5
    ) or ([], [])
    assert sum(visits) == 4000
    best = max(range(len(cands)), key=lambda i: visits[i])
    assert exact[best] == max(exact), (cands, exact, visits)
    # a card's mean is what its line is worth with everyone playing well from there
    assert sums[best] / visits[best] == pytest.approx(max(exact), abs=3.0)


def test_same_seed_same_counts_and_a_spent_meter_stops() -> None:
    game, view = _position("scarto", 8, 12)
    kn = known_of(view)
    from engine.ai.worlds import sample

    rand = random.Random(1)
    worlds = [sample(kn, rand, True) for _ in range(6)]
    cands = mask_cards(view.legal_mask())
    weights = [1.0, 0.5, 2.0, 1.0, 1.0, 0.1]
    a = uct_counts(kn, worlds, weights, cands, 300, 8.0, random.Random(7), Meter(), 1.5)
    b = uct_counts(kn, worlds, weights, cands, 300, 8.0, random.Random(7), Meter(), 1.5)
    assert a == b and a is not None and sum(a[0]) == 300
    meter = Meter(work=5_000.0)
    assert uct_counts(kn, worlds, weights, cands, 10_000, 8.0, random.Random(7), meter, 1.5) is None
    assert meter.used > 5_000


def test_tree_rounds_are_the_same_here_and_on_the_pool() -> None:
    """A hard level whose rounds are trees folds them in order like any other:
    fixed work gives one answer, in-process or on the two workers, and the
    seat's view is all it reads (a reshuffle of what it cannot see changes
    nothing)."""
    game, view = _position("scarto", 9, 20)
    rules = view.rules
    cfg = dataclasses.replace(config_for(rules), uct_iters=200, uct_worlds=6)
    seed = decision_seed(view, game.cursor)
    here = search_play(view, cfg, seed, Limits(None, 3), False, 1000)
    pool.set_parallel(True)
    try:
        there = search_play(view, cfg, seed, Limits(None, 3), True, 1000)
    finally:
        pool.set_parallel(False)
    assert here == there
    vals, rounds = here
    assert rounds == 3
    assert sorted(c for c, _v in vals) == mask_cards(view.legal_mask())
    assert all(math.isfinite(v) and 0 <= v <= 78 for _c, v in vals)
