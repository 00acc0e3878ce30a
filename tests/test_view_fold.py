"""A seat rebuilds its view from its own events (engine.view.advance).

The online table and every network client receive only their seat's events
(:func:`engine.view.seat_event`); folding them from :func:`initial_view` must
give exactly :func:`seat_view` of the server's state after the same events, at
every step, for every seat and for a spectator, in both games.  And the
spectator's view holds no hand, discard, stock or seed.
"""

from __future__ import annotations

import random

import pytest

from engine.game import Game
from engine.scoring import state_breakdown, view_breakdown
from engine.state import DealScored
from engine.variants import PIEDICAVALLO, SCARTO
from engine.view import SPECTATOR, advance, initial_view, seat_event, seat_view


def _random_game(rules, seed: int, n_deals: int) -> Game:
    g = Game(seed, n_deals, rules=rules)
    rnd = random.Random(seed)
    while g.legal():
        legal = g.legal()
        g.submit(legal[rnd.randrange(len(legal))])
    return g


@pytest.mark.parametrize("rules", [PIEDICAVALLO, SCARTO], ids=lambda r: r.name)
def test_fold_of_seat_events_is_the_seat_view(rules) -> None:
    for seed in range(1, 7):
        g = _random_game(rules, seed, rules.full_game if seed % 2 else 1)
        for seat in [*range(rules.n_seats), SPECTATOR]:
            v = initial_view(seed, g.header.deals, rules, seat)
            assert v == seat_view(g.states[0], seat)
            for i, e in enumerate(g.events):
                v = advance(v, seat_event(e, seat, rules))
                assert v == seat_view(g.states[i + 1], seat), (seed, seat, i, type(e).__name__)


@pytest.mark.parametrize("rules", [PIEDICAVALLO, SCARTO], ids=lambda r: r.name)
def test_spectator_sees_no_private_card(rules) -> None:
    g = _random_game(rules, 11, 1)
    for st in g.states:
        v = seat_view(st, SPECTATOR)
        assert v.hand == 0 and v.discard == 0 and v.stock == 0 and v.seed == 0
        if not rules.announces_discard_trumps:
            assert v.discard_trumps == -1
        assert not v.legal()
    for e in g.events:
        seen = seat_event(e, SPECTATOR, rules)
        for name in ("hands",):
            if hasattr(seen, name):
                assert not any(getattr(seen, name))
        if hasattr(seen, "stock"):
            assert seen.stock == 0
        if type(seen).__name__ == "Discarded":
            assert seen.cards == 0


@pytest.mark.parametrize("rules", [PIEDICAVALLO, SCARTO], ids=lambda r: r.name)
def test_breakdown_from_a_view_equals_the_engines(rules) -> None:
    """At the end of a deal every seat can name the discard by elimination, so the
    score sheet built from its view equals the engine's breakdown of the state."""
    g = _random_game(rules, 5, rules.full_game)
    for i, e in enumerate(g.events):
        if isinstance(e, DealScored):
            full = state_breakdown(g.states[i])
            for seat in [*range(rules.n_seats), SPECTATOR]:
                assert view_breakdown(seat_view(g.states[i], seat)) == full
