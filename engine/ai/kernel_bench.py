"""CPU seconds of the AI's hot kernels, for deciding whether a refactor costs speed.

``python -m engine.ai.kernel_bench [REPS] [ROUNDS]`` times, per game, open-hand
playouts (:attr:`~engine.ai.fast.Kernel.finish`, the policy playing every card),
playouts from the seats' views, the lookahead and ruff-lead policies, and the
exact solver, on seeded random deals; each figure is the best of ``ROUNDS``
runs in process CPU time (steadier than wall time on a shared machine), with a
checksum of the results so that two versions can be seen to play the same.
The kernels kept long for speed cite their figures from it in their comments.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

from ..ruleset import Ruleset, ruleset, variant_names
from .fast import kernel, lookahead_policy
from .solver import Solver


def _deals(rules: Ruleset, k: int, count: int, seed: int) -> list[list[int]]:
    """``count`` random deals of ``k`` cards a seat (the rest of the pack unused)."""
    rnd = random.Random(seed)
    out = []
    for _ in range(count):
        cards = list(range(rules.pack.n_cards))
        rnd.shuffle(cards)
        out.append([sum(1 << c for c in cards[s * k : (s + 1) * k]) for s in range(rules.n_seats)])
    return out


def _timed(deals: list[list[int]], play: Callable[[list[int]], int]) -> tuple[float, int]:
    t = time.process_time()
    check = 0
    for hands in deals:
        check = (check * 31 + play(list(hands))) % 1_000_003
    return time.process_time() - t, check


def bench(rules: Ruleset, reps: int) -> dict[str, tuple[float, int]]:
    """Each kernel's CPU seconds and checksum, on ``reps`` times a fixed set of deals."""
    k = kernel(rules)
    sides = rules.n_sides
    full = _deals(rules, rules.n_tricks, 400 * reps, 1)
    look, _spent = lookahead_policy(rules, 0.5)
    ruff = k.policy_variant(30, 2)
    voids = [0] * rules.n_seats

    def solve(hands: list[int]) -> int:
        s = Solver(rules, 0)
        return sum(s.root_values(hands, 0, (), 0, 1, 1, hands[0]).values()) + s.nodes

    small = _deals(rules, 6 if rules.n_seats == 4 else 7, 12 * reps, 2)
    return {
        "finish": _timed(full, lambda h: k.finish(h, 0, [], [0] * sides, [0] * sides)[0][0]),
        "finish_view": _timed(
            full[: 150 * reps], lambda h: k.finish_view(h, 0, [], [0] * sides, [0] * sides, voids)[0][0]
        ),
        "lookahead": _timed(
            full[: 100 * reps], lambda h: k.finish(h, 0, [], [0] * sides, [0] * sides, look)[0][0]
        ),
        "ruff_variant": _timed(
            full[: 200 * reps], lambda h: k.finish(h, 0, [], [0] * sides, [0] * sides, ruff)[0][0]
        ),
        "solver": _timed(small, solve),
    }


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    reps = int(args[0]) if args else 2
    rounds = int(args[1]) if len(args) > 1 else 3
    for variant in variant_names():
        best: dict[str, tuple[float, int]] = {}
        for _ in range(rounds):
            for name, (sec, check) in bench(ruleset(variant), reps).items():
                if name not in best or sec < best[name][0]:
                    best[name] = (sec, check)
        for name, (sec, check) in best.items():
            print(f"{variant:13s} {name:13s} {sec:7.3f} s  check {check}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
