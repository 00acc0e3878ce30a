"""The hard level's playout policy with the partner's-ruff lead
(``Kernel.policy_variant``): lead to a suit the partner can surely ruff, the
card with the most points first."""

from __future__ import annotations

import pytest

from engine.ai.fast import kernel
from engine.ruleset import ruleset
from tests.support.policy_games import policy_positions


def _mask(rules, *codes: str) -> int:  # type: ignore[no-untyped-def]
    m = 0
    for c in codes:
        m |= 1 << rules.pack.by_code[c]
    return m


def test_off_is_the_rules_of_thumb_themselves() -> None:
    k = kernel(ruleset("piedicavallo"))
    assert k.policy_variant(0, 8) is k.policy
    assert k.policy_variant(70, 8) is k.policy_variant(70, 8)  # built once
    assert k.policy_variant(70, 8) is not k.policy


def test_leads_points_into_the_partners_sure_ruff() -> None:
    rules = ruleset("piedicavallo")
    k = kernel(rules)
    hands = [
        _mask(rules, "SQ", "S5", "B5"),  # seat 0 leads
        _mask(rules, "SK", "S6", "T2"),
        _mask(rules, "T21", "B6", "T4"),  # the partner: no Spades, the top trump
        _mask(rules, "S7", "B7", "T3"),
    ]
    ruff = k.policy_variant(70, 8)
    lead = ruff(hands, 0, 0, [], hands[0])
    assert lead == rules.pack.by_code["SQ"]
    assert k.policy(hands, 0, 0, [], hands[0]) != lead  # the rules of thumb lead small
    # Played out by the rules of thumb, the partner ruffs and the Queen is banked.
    trick = [lead]
    hs = list(hands)
    hs[0] &= ~(1 << lead)
    led = rules.pack.suit[lead]
    for seat in (1, 2, 3):
        c = k.policy(hs, seat, 0, trick, rules.legal_mask(hs[seat], led))
        hs[seat] &= ~(1 << c)
        trick.append(c)
    assert rules.side[k.trick_winner(trick)] == rules.side[0]


def test_no_sure_ruff_no_change() -> None:
    """The same hands, but an opponent is void in Spades too and holds a higher
    trump than the partner's: the lead is the rules of thumb's."""
    rules = ruleset("piedicavallo")
    k = kernel(rules)
    hands = [
        _mask(rules, "SQ", "S5", "B5"),
        _mask(rules, "SK", "S6", "T2"),
        _mask(rules, "T20", "B6", "T4"),
        _mask(rules, "T21", "B7", "T3"),
    ]
    ruff = k.policy_variant(70, 8)
    assert ruff(hands, 0, 0, [], hands[0]) == k.policy(hands, 0, 0, [], hands[0])


@pytest.mark.parametrize("variant", ["piedicavallo", "scarto"])
def test_following_is_the_rules_of_thumb_and_every_card_is_legal(variant: str) -> None:
    """Only leads change; where each plays alone (Scarto) there is no partner to
    ruff, so nothing does."""
    rules = ruleset(variant)
    k = kernel(rules)
    ruff = k.policy_variant(70, 8)
    changed = 0
    for view, hands, _d in policy_positions(variant, range(6), 1, 99):
        legal = view.legal_mask()
        args = (hands, view.seat, view.leader, list(view.trick), legal)
        c = ruff(*args)
        assert legal >> c & 1
        if view.trick or variant == "scarto":
            assert c == k.policy(*args)
        else:
            changed += c != k.policy(*args)
    if variant == "piedicavallo":
        assert changed >= 3
