"""Deals played by the rules of thumb open-handed, for the tests of the hard
level's playout policies and inference: every seat plays ``Kernel.policy``
knowing every hand (so the true deal explains every play), the dealer's
discard chosen by the easy level without slips."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from engine.ai.fast import kernel
from engine.ai.players import EasyPlayer
from engine.game import Game
from engine.ruleset import ruleset
from engine.state import PLAY, Play
from engine.view import SeatView


def policy_positions(
    variant: str, seeds: Iterable[int], least: int = 0, most: int = 99
) -> Iterator[tuple[SeatView, list[int], int]]:
    """At every card to play of one deal per seed, where the seat to play holds
    between ``least`` and ``most`` cards: its view, the true hands and the true
    discard."""
    rules = ruleset(variant)
    policy = kernel(rules).policy
    easy = EasyPlayer(slip=0.0)
    for seed in seeds:
        game = Game(seed, 1, rules=rules)
        while True:
            legal = game.legal()
            if not legal:
                break
            st = game.state
            view = game.view(st.turn)
            if st.phase != PLAY:
                game.submit(easy.choose(view, legal, game.cursor))
                continue
            if least <= view.hand.bit_count() <= most:
                yield view, list(st.hands), st.discard
            card = policy(list(st.hands), st.turn, view.leader, list(view.trick), view.legal_mask())
            game.submit(Play(st.turn, card))
