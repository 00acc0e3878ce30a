"""The breakdown of a deal's points for the scoring scene (R10, R11).

The engine's ``score_deal`` is the authority on the totals; this only splits
them into the parts a player wants to see (tricks, Matto, discard, sweep), and
``breakdown`` checks that the parts add up to the engine's figures.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TeamScore:
    tricks: int  # card points of the cards won in tricks
    matto: int  # the team's own Matto (R9, R10)
    discard: int  # the dealer's discard (R10)
    sweep: int  # R11: what a team with no trick surrenders (negative) or receives
    total: int
    tricks_won: int


def breakdown(state) -> tuple[TeamScore, TeamScore]:
    """The split of each team's points in a finished deal (state after the last trick)."""
    rules = state.rules
    mask_points = rules.pack.mask_points
    matto_mask = rules.pack.matto_mask
    engine_points = rules.score(state.piles, state.tricks_won, state.dealer, state.discard)
    parts = []
    for t in (0, 1):
        tricks = mask_points(state.piles[t] & ~matto_mask)
        matto = mask_points(state.piles[t] & matto_mask)
        discard = mask_points(state.discard) if rules.side[state.dealer] == t else 0
        parts.append([tricks, matto, discard])
    sweep = [0, 0]
    for t in (0, 1):
        if state.tricks_won[t] == 0:
            moved = sum(parts[t])
            sweep[t] -= moved
            sweep[1 - t] += moved
    out = tuple(
        TeamScore(p[0], p[1], p[2], sweep[t], sum(p) + sweep[t], state.tricks_won[t])
        for t, p in enumerate(parts)
    )
    assert (out[0].total, out[1].total) == engine_points, (out, engine_points)
    return out[0], out[1]
