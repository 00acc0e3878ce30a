"""The C kernels (engine/ai/_native.c) against the pure-Python ones they mirror.

Both paths must give the same answers on the same seeds: the same
legal cards, the same card from the rules of thumb, the same playouts, the same
exact values *and* the same count of positions searched (so the deadlines and
the counted work behave alike), the same deals of the hidden cards from the
same random state, the same inference, and so the same decisions of the hard
and medium levels.  Positions come from real games (seeded easy players) and
from random deals, in both games.

Where the C module is not built (no C compiler when the package was
installed) these tests are skipped with the reason, and fail under CI, which
must build it.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from dataclasses import replace

import pytest

from engine.ai import native
from engine.ai.anytime import Limits, config_for, search_play
from engine.ai.fast import _led_suit, c_tables, kernel
from engine.ai.players import HardPlayer, MediumPlayer
from engine.ai.search import policy_plays
from engine.ai.solver import OutOfTime, PySolver, Solver
from engine.ai.worlds import known_of, sample
from engine.game import Game
from engine.players import make_player
from engine.ruleset import ruleset
from engine.state import PLAY

GAMES = ("piedicavallo", "scarto")


@pytest.fixture(autouse=True)
def _built() -> None:
    if native.built():
        return
    why = (
        "the C kernels (engine/ai/_native.c) are not built: install a C compiler "
        "(Debian package gcc) and reinstall with pip install -e ."
    )
    if os.environ.get("CI"):
        pytest.fail(why + " (CI is set: every test must run)")
    pytest.skip(why)


def _views(variant: str, games: int, seed: int) -> Iterator[tuple[Game, object]]:
    """Every position of ``games`` seeded games between easy players, with the
    game at that point."""
    easy = make_player("easy")
    for g in range(games):
        game = Game(seed * 1000 + g, 1, rules=ruleset(variant))
        while True:
            legal = game.legal()
            if not legal:
                break
            st = game.state
            view = game.view(st.turn)
            yield game, view
            game.submit(easy.choose(view, legal, game.cursor))


def _random_hands(rules, k: int, rnd: random.Random) -> list[int]:  # type: ignore[no-untyped-def]
    cards = list(range(rules.pack.n_cards))
    rnd.shuffle(cards)
    return [sum(1 << c for c in cards[s * k : (s + 1) * k]) for s in range(rules.n_seats)]


def _led(rules, trick: list[int]) -> int:  # type: ignore[no-untyped-def]
    return _led_suit(trick, rules.pack.matto, rules.pack.suit)


def _random_position(rules, rnd: random.Random, k: int):  # type: ignore[no-untyped-def]
    """Random hands of ``k`` cards, a random leader and a random legal trick start."""
    hands = _random_hands(rules, k, rnd)
    leader = rnd.randrange(rules.n_seats)
    trick: list[int] = []
    for j in range(rnd.randrange(rules.n_seats)):
        s = (leader + j) % rules.n_seats
        legal = rules.legal_mask(hands[s], _led(rules, trick))
        cs = [c for c in range(rules.pack.n_cards) if legal >> c & 1]
        c = rnd.choice(cs)
        hands[s] &= ~(1 << c)
        trick.append(c)
    return hands, leader, trick


@pytest.mark.parametrize("variant", GAMES)
def test_the_legal_cards_are_the_rulebooks(variant: str) -> None:
    rules = ruleset(variant)
    t = c_tables(rules)
    rnd = random.Random(5)
    for i in range(3000):
        hand = _random_hands(rules, 1 + i % rules.n_tricks, rnd)[0]
        for led in (-1, 0, 1, 2, 3, 4):
            assert t.legal_mask(hand, led) == rules.legal_mask(hand, led)


@pytest.mark.parametrize("variant", GAMES)
@pytest.mark.parametrize("ruff", [(0, 0), (70, 8), (30, 2)])
def test_the_rules_of_thumb_choose_the_same_card(variant: str, ruff: tuple[int, int]) -> None:
    rules = ruleset(variant)
    c_pol = kernel(rules).policy_variant(*ruff)
    with native.pure():
        py_pol = kernel(rules).policy_variant(*ruff)
    assert type(c_pol) is native.policy_type() and type(py_pol) is not native.policy_type()
    rnd = random.Random(hash(ruff) & 0xFFFF)
    differ = 0
    for i in range(4000):
        hands, leader, trick = _random_position(rules, rnd, 1 + i % rules.n_tricks)
        seat = (leader + len(trick)) % rules.n_seats
        legal = rules.legal_mask(hands[seat], _led(rules, trick))
        if not legal:
            continue
        a = c_pol(hands, seat, leader, trick, legal)
        b = py_pol(hands, seat, leader, trick, legal)
        assert a == b, (i, hands, seat, leader, trick)
        differ += a != min(c for c in range(rules.pack.n_cards) if legal >> c & 1)
    assert differ > 100  # the positions were not all trivial


@pytest.mark.parametrize("variant", GAMES)
def test_the_playouts_are_the_same(variant: str) -> None:
    rules = ruleset(variant)
    k_c = kernel(rules)
    with native.pure():
        k_py = kernel(rules)
    sides = rules.n_sides
    rnd = random.Random(11)
    stopped = 0
    for i in range(1500):
        hands, leader, trick = _random_position(rules, rnd, 2 + i % (rules.n_tricks - 1))
        first = -1
        if i % 3 == 0:
            seat = (leader + len(trick)) % rules.n_seats
            legal = rules.legal_mask(hands[seat], _led(rules, trick))
            first = max(c for c in range(rules.pack.n_cards) if legal >> c & 1)
        stop = 3 if i % 2 else 0
        pol_c = k_c.policy_variant(70, 8) if i % 4 == 1 else k_c.policy
        pol_py = k_py.policy_variant(70, 8) if i % 4 == 1 else k_py.policy
        pts0 = [rnd.randrange(20) for _ in range(sides)]
        won0 = [rnd.randrange(3) for _ in range(sides)]
        got = []
        for k, pol in ((k_c, pol_c), (k_py, pol_py)):
            h = list(hands)
            at: list[int] = []
            pts, won = k.finish(h, leader, list(trick), list(pts0), list(won0), pol, first, stop, at)
            got.append((list(pts), list(won), h, at))
        assert got[0] == got[1], i
        stopped += bool(got[0][3])
    assert stopped > 100


@pytest.mark.slow
@pytest.mark.parametrize("variant", GAMES)
def test_the_solver_gives_the_same_values_after_the_same_nodes(variant: str) -> None:
    rules = ruleset(variant)
    rnd = random.Random(21)
    k = 5 if rules.n_seats == 4 else 6
    for i in range(40):
        hands, leader, trick = _random_position(rules, rnd, k)
        seat = (leader + len(trick)) % rules.n_seats
        legal = rules.legal_mask(hands[seat], _led(rules, trick))
        me = rules.side[i % rules.n_seats]
        acc, mine, others = rnd.randrange(30), rnd.randrange(3), rnd.randrange(3)
        c_s = Solver(rules, me)
        p_s = PySolver(rules, me)
        assert type(c_s) is not PySolver
        got = [s.root_values(hands, leader, tuple(trick), acc, mine, others, legal) for s in (c_s, p_s)]
        assert got[0] == got[1] and c_s.nodes == p_s.nodes > 0
        # the same table, reused from a trick boundary
        full = _random_hands(rules, k, rnd)
        a = c_s.lead_value(full, leader, acc, mine, others)
        b = p_s.lead_value(full, leader, acc, mine, others)
        assert a == b and c_s.nodes == p_s.nodes


@pytest.mark.parametrize("variant", GAMES)
def test_the_solver_runs_out_of_nodes_at_the_same_count(variant: str) -> None:
    rules = ruleset(variant)
    hands = _random_hands(rules, 8 if rules.n_seats == 4 else 10, random.Random(3))
    for limit in (100, 1000):
        counts = []
        for s in (Solver(rules, 0, node_limit=limit), PySolver(rules, 0, node_limit=limit)):
            with pytest.raises(OutOfTime):
                s.lead_value(hands, 0, 0, 0, 0)
            counts.append(s.nodes)
        assert counts[0] == counts[1] > limit


@pytest.mark.parametrize("variant", GAMES)
def test_the_deals_and_the_inference_are_the_same(variant: str) -> None:
    seen = 0
    for n, (_game, view) in enumerate(_views(variant, 2, 7)):
        if view.phase != PLAY or n % 3:
            continue
        kn = known_of(view)
        for strict in (False, True):
            r1, r2 = random.Random(n), random.Random(n)
            a = [sample(kn, r1, strict) for _ in range(3)]
            with native.pure():
                b = [sample(kn, r2, strict) for _ in range(3)]
            assert a == b and r1.getstate() == r2.getstate(), n
        hands, _d = a[0]
        got = policy_plays(kn, view.history, hands)
        with native.pure():
            want = policy_plays(kn, view.history, hands)
        assert got == want
        seen += len(got)
    assert seen > 300


@pytest.mark.slow
@pytest.mark.parametrize("variant", GAMES)
def test_the_levels_decide_the_same(variant: str) -> None:
    """Hard at fixed work (its discards too) and medium, with and without C."""
    hard, medium = HardPlayer(parallel=False, rounds=4), MediumPlayer()
    decided = 0
    for n, (game, view) in enumerate(_views(variant, 2, 3)):
        legal = game.legal()
        if len(legal) < 2 or n % 5:
            continue
        for player in (hard, medium):
            a = player.choose(view, legal, game.cursor)
            with native.pure():
                b = player.choose(view, legal, game.cursor)
            assert a == b, (n, player.name)
        decided += 1
        if view.phase == PLAY and n % 15 == 0:  # the tuning switch reaches the rounds
            cfg_c = config_for(view.rules)
            cfg_py = replace(cfg_c, native=False)
            a2, _r = search_play(view, cfg_c, 9, Limits(None, 2), False, 1000)
            b2, _r = search_play(view, cfg_py, 9, Limits(None, 2), False, 1000)
            assert a2 == b2
    assert decided > 20


def test_bad_arguments_are_refused_with_a_message() -> None:
    rules = ruleset("piedicavallo")
    t = c_tables(rules)
    pol = kernel(rules).policy
    with pytest.raises(ValueError, match="hands"):
        t.finish([1, 2], 0, [], [0, 0], [0, 0], pol)
    with pytest.raises(ValueError, match="no card"):
        pol([1, 2, 4, 8], 0, 0, [], 0)
    with pytest.raises(ValueError, match="not a seat"):
        pol([1, 2, 4, 8], 7, 0, [], 1)
    with pytest.raises(ValueError, match="past the pack"):
        Solver(rules, 0).lead_value([1 << 70, 2, 4, 8], 0, 0, 0, 0)
    with pytest.raises(ValueError, match="a policy of another ruleset"):
        t.finish([1, 2, 4, 8], 0, [], [0, 0], [0, 0], kernel(ruleset("scarto")).policy)
    with pytest.raises(TypeError):
        pol(["SK", 2, 4, 8], 0, 0, [], 1)
    # masks past 128 bits or negative, ints past any range, list-shaped history
    with pytest.raises(ValueError, match="2\\*\\*128"):
        t.legal_mask((1 << 130) | 5, -1)
    with pytest.raises(ValueError, match="2\\*\\*128"):
        t.legal_mask(-1, -1)
    with pytest.raises(ValueError, match="past the pack"):
        pol([1 << 70, 2, 4, 8], 0, 0, [], 1)
    with pytest.raises(ValueError, match="past the pack"):
        pol([1, 2, 4, 8], 0, 0, [], 1 << 100)
    hands = [sum(1 << c for c in range(s * 15, s * 15 + 15)) for s in range(4)]
    assert t.policy_plays([[0, [0, 15, 30]]], 3, [], hands, 0) == t.policy_plays(
        ((0, (0, 15, 30)),), 3, (), hands, 0
    )
    with pytest.raises(ValueError, match="not a seat"):
        t.policy_plays([(2**32, (0, 15, 30, 45))], 0, (), hands, 0)
    with pytest.raises(ValueError, match="out of range"):
        t.policy_plays([(0, (2**32 + 3,))], 0, (), hands, 0)
    with pytest.raises(ValueError, match="pairs"):
        t.policy_plays([(0, (1,), 5)], 0, (), hands, 0)
    with pytest.raises(ValueError, match="acc"):
        Solver(rules, 0).lead_value(hands, 0, -(2**30), 0, 0)
    with pytest.raises(TypeError, match="already made"):
        t.__init__()


def test_without_the_c_module_the_pure_kernels_are_used(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = ruleset("scarto")
    c_policy = native.policy_type()
    assert c_policy is not None and type(kernel(rules).policy) is c_policy
    monkeypatch.setattr(native, "_native", None)
    assert not native.built() and not native.active()
    assert c_tables(rules) is None and native.deal_fn() is None
    assert type(kernel(rules).policy) is not c_policy
    assert isinstance(Solver(rules, 0), PySolver)


@pytest.mark.slow
def test_bench_ai_gives_positions_a_second_and_the_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from game.cli import main

    for extra in ([], ["--in-process"]):
        args = ["bench", "ai", "--level", "hard", "--decisions", "4", "--budget-rounds", "2"]
        assert main([*args, *extra, "--variant", "scarto", "--json"]) == 0
        got = json.loads(capsys.readouterr().out)
        assert got["in_process"] == bool(extra) and got["decisions"] == 4
        assert got["positions_per_s"] > 0 and got["baseline"]["level"] == "hard:native=0"
        assert got["ratio"] == round(got["positions_per_s"] / got["baseline"]["positions_per_s"], 2)
    args = ["bench", "ai", "--level", "hard", "--decisions", "2", "--budget-rounds", "1"]
    assert main([*args, "--baseline", "none", "--in-process"]) == 0
    assert "baseline" not in json.loads(capsys.readouterr().out)
    with pytest.raises(SystemExit) as err:
        main([*args, "--baseline", "hard:bogus=1"])
    assert "unknown hard setting 'bogus'" in str(err.value.code)
