"""The hard level's inference models: how likely a deal of the hidden cards makes
the other seats' seen plays (``engine.ai.search``)."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from engine.ai.search import likelihood_matches, likelihood_mix, policy_plays
from engine.ai.worlds import Known, known_of, sample
from engine.view import SeatView
from tests.support.policy_games import policy_positions

VARIANTS = ["piedicavallo", "scarto"]
History = tuple[tuple[int, tuple[int, ...]], ...]


def _open_policy_game(variant: str, seed: int, seat: int) -> list[tuple[SeatView, list[int]]]:
    """Seat ``seat``'s views along a deal where every seat plays the rules of thumb
    open-handed (so the true deal explains every play), with the true hands."""
    return [
        (view, hands)
        for view, hands, _d in policy_positions(variant, [seed])
        if view.seat == seat and view.history
    ]


@pytest.mark.parametrize("variant", VARIANTS)
def test_mix_is_the_log_likelihood_of_a_policy_player_who_slips(variant: str) -> None:
    """Each judged play counts log(1 - eps + eps/n) when it is the policy's card and
    log(eps/n) when not (n legal cards); the matches model counts the hits."""
    views = _open_policy_game(variant, 5, 1)[::3]
    assert views
    rand = random.Random(2)
    for view, _true in views:
        kn = known_of(view)
        for _ in range(4):
            h, _d = sample(kn, rand, True)
            plays = policy_plays(kn, view.history, h)
            assert all(n >= 2 for n, _ok in plays)
            assert likelihood_matches(kn, view.history, h) == sum(ok for _n, ok in plays)
            for eps in (0.1, 0.5):
                want = sum(math.log(eps / n + (1 - eps) * ok) for n, ok in plays)
                assert likelihood_mix(kn, view.history, h, eps) == pytest.approx(want)


def _score(model: str, kn: Known, history: History, hands: list[int]) -> float:
    if model == "matches":
        return float(likelihood_matches(kn, history, hands))
    return likelihood_mix(kn, history, hands, 0.3)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_true_deal_explains_policy_plays_better_than_sampled_deals(variant: str) -> None:
    """Where the others played the policy, the true deal agrees with every judged
    play, and both models score it well above the average sampled deal; the
    mixture, which weighs a hit by how many cards it was chosen from, more so."""
    rand = random.Random(9)
    z: dict[str, list[float]] = {"matches": [], "mix": []}
    for seed in (11, 12):
        for view, true in _open_policy_game(variant, seed, 0):
            kn = known_of(view)
            plays = policy_plays(kn, view.history, true)
            assert all(ok for _n, ok in plays)
            deals = [sample(kn, rand, True)[0] for _ in range(40)]
            for name in z:
                scores = [_score(name, kn, view.history, h) for h in deals]
                sd = statistics.pstdev(scores)
                if sd:
                    t = _score(name, kn, view.history, true)
                    z[name].append((t - statistics.mean(scores)) / sd)
    assert len(z["mix"]) >= 10
    assert statistics.mean(z["matches"]) > 0.5
    assert statistics.mean(z["mix"]) > statistics.mean(z["matches"])


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_temperature_scales_the_mixtures_weights_and_keeps_the_deals(variant: str) -> None:
    """infer_temp multiplies each kept deal's log-likelihood and changes nothing
    else: the same deals are kept (the ranking is the same) and valued the same."""
    from engine.ai.anytime import HardConfig, Meter, play_round

    view, _true = _open_policy_game(variant, 7, 2)[4]
    kn = known_of(view)
    mask = view.legal_mask()
    cands = [c for c in range(kn.rules.pack.n_cards) if mask >> c & 1]
    out = []
    for temp in (1.0, 0.25):
        cfg = HardConfig(oversample=2, infer_mix=0.3, infer_temp=temp)
        got = play_round(kn, view.history, cands, 3, 0, 6, False, 1.3, 0.0, cfg, Meter())
        assert got is not None
        out.append(got)
    (w1, rows1), (w2, rows2) = out
    assert rows1 == rows2
    assert len(w1) == 6 and len(set(w1)) > 1
    assert w2 == pytest.approx([0.25 * w for w in w1])
