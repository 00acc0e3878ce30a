"""``tarocchi tournament`` (duplicate matches between levels) and ``tarocchi bench ai``.

Duplicate format: with partners (Piedicavallo) deal i is played twice with the
same cards (same game seed), A's pair at seats 0 and 2, then at seats 1 and 3;
where each plays alone (Scarto) it is played once per seat, A in that seat and
B in the others.  So the luck of the cards cancels.  Deals run in parallel on
both cores; a hard player inside them searches in-process.
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any

from .. import argtypes
from ..argtypes import add_variant_option
from ..counted import counted
from ..files import MAX_NAME_CHARS
from ..game import Game
from ..player_api import Player, decision_seed
from ..players import level_names, make_player
from ..replay import write_replay
from ..rng import mix64
from ..ruleset import Ruleset, ruleset
from ..simulate import play_out
from ..state import DISCARD, Command
from ..view import SeatView
from . import native, pool
from .anytime import VALUED
from .players import HARD_MS, HardPlayer


def add_ai_commands(sub: Any, bench_sub: Any) -> None:
    """``tournament`` and ``bench ai``."""
    _add_tournament(sub)
    _add_bench_ai(bench_sub)


def _add_tournament(sub: Any) -> None:
    p = sub.add_parser(
        "tournament",
        help="duplicate match between two AI levels",
        description="Duplicate: play every deal with the same cards once per seating "
        "(Piedicavallo: A's pair in each partnership in turn, reporting A's mean card-point "
        "margin over B; Scarto: A in each seat in turn against two B, reporting A's mean deal "
        "score, count - 26).",
    )
    p.add_argument("--a", required=True, metavar="LEVEL",
                   help=f"the level measured (one of {', '.join(level_names())})")
    p.add_argument("--b", required=True, metavar="LEVEL", help="the level it plays against")
    p.add_argument("--deals", type=argtypes.count(argtypes.MAX_DEAL_PAIRS), required=True, metavar="N",
                   help=f"deal pairs (1 to {argtypes.MAX_DEAL_PAIRS:,})")
    p.add_argument("--seed", type=argtypes.seed, required=True, metavar="S",
                   help="the seed of the deals (the same seed, the same cards)")
    p.add_argument(
        "--budget-ms", type=argtypes.count(argtypes.MAX_BUDGET_MS), default=None, metavar="MS",
        help="the hard level's deadline a decision (default 1000)",
    )
    p.add_argument(
        "--budget-rounds", type=argtypes.count(argtypes.MAX_BUDGET_ROUNDS), default=None, metavar="N",
        help="fixed work instead of a deadline: the hard level searches N rounds a decision "
        "(deterministic: the same figures on every run)",
    )
    p.add_argument("--workers", type=argtypes.count(argtypes.MAX_PROCESSES), default=pool.WORKERS,
                   metavar="K",
                   help=f"deals played at once, in K worker processes (default {pool.WORKERS})")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument(
        "--replays", type=argtypes.out_dir, default=None, metavar="DIR",
        help="write every game's replay file into DIR (created if missing): "
        "PAIR-SEATING.jsonl, e.g. 0007-1.jsonl, the players by seat in its header",
    )
    add_variant_option(p)
    p.set_defaults(func=cmd_tournament)


def _add_bench_ai(bench_sub: Any) -> None:
    b = bench_sub.add_parser("ai", help="decision times of an AI level")
    b.add_argument("--level", required=True, metavar="LEVEL",
                   help=f"the level timed (one of {', '.join(level_names())})")
    b.add_argument("--decisions", type=argtypes.count(argtypes.MAX_DECISIONS), default=60, metavar="N",
                   help="how many decisions to time (default 60)")
    b.add_argument("--budget-ms", type=argtypes.count(argtypes.MAX_BUDGET_MS), default=None, metavar="MS",
                   help="the hard level's deadline a decision (default 1000)")
    b.add_argument("--budget-rounds", type=argtypes.count(argtypes.MAX_BUDGET_ROUNDS), default=None,
                   metavar="N",
                   help="fixed work instead of a deadline (rounds a decision)")
    b.add_argument("--seed", type=argtypes.seed, default=1, metavar="S",
                   help="the seed of the deals the positions come from (default 1)")
    b.add_argument(
        "--baseline", default="hard:native=0", metavar="LEVEL",
        help="also run LEVEL on the same positions, and give the ratio of the hard "
        "searches' positions a second (default hard:native=0: the same search on the "
        "pure-Python kernels, the hard level before the C ones); 'none' to skip",
    )
    b.add_argument(
        "--in-process", action="store_true",
        help="the hard search's rounds in this process, as a server's AI processes and "
        "tournament games run them (default: on the two workers, as the desktop game does)",
    )
    b.add_argument("--json", action="store_true", help="print JSON (the default output form)")
    add_variant_option(b)
    b.set_defaults(func=cmd_bench_ai)


_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


def _flag(key: str, val: str, spec: str) -> bool:
    """A yes/no setting's value (1/true/yes/on or 0/false/no/off)."""
    if val.lower() in _TRUE:
        return True
    if val.lower() in _FALSE:
        return False
    raise SystemExit(f"setting {key!r} in {spec!r} is 1 or 0 (yes or no), not {val!r}")


def parse_hard_spec(spec: str) -> dict[str, Any]:
    """Settings of a tuning variant of the hard level, ``hard:key=value,...``:
    ``rounds``, ``ms``, ``work`` (fixed rounds, deadline, counted work a
    decision), ``oracle=1`` (sees all hands: samples only the true deal), and
    any :class:`~engine.ai.anytime.HardConfig` field (tuples as ``a/b/c``)."""
    from dataclasses import fields

    from .anytime import HardConfig

    types: dict[str, Any] = {f.name: f.default for f in fields(HardConfig)}
    out: dict[str, Any] = {}
    _name, _sep, rest = spec.partition(":")
    for item in filter(None, rest.split(",")):
        key, eq, val = item.partition("=")
        if not eq:
            raise SystemExit(f"bad setting {item!r} in {spec!r} (want key=value)")
        if key == "oracle" or isinstance(types.get(key), bool):
            out[key] = _flag(key, val, spec)
            continue
        checked = {"rounds": argtypes.count(argtypes.MAX_BUDGET_ROUNDS),
                   "ms": argtypes.count(argtypes.MAX_BUDGET_MS),
                   "work": argtypes.number(0.0, argtypes.MAX_BUDGET_MS, lo_open=True)}
        if key in checked:  # the work of a decision: positive, finite, capped (no endless run)
            try:
                out[key] = checked[key](val)
            except argparse.ArgumentTypeError as exc:
                raise SystemExit(f"setting {key!r} in {spec!r}: {exc}") from None
            continue
        if key in types:
            kind: Any = type(types[key])
        else:
            raise SystemExit(f"unknown hard setting {key!r} in {spec!r}")
        try:
            if kind is tuple:
                d = types[key]
                # floats where any default is one ((0, 0.05, ...) is read as floats)
                part = float if not d or any(isinstance(x, float) for x in d) else type(d[0])
                got = tuple(part(x) for x in val.split("/"))
                if not all(math.isfinite(x) for x in got):
                    raise SystemExit(f"setting {key!r} in {spec!r}: {val!r} is not a finite number")
                out[key] = got
            else:
                out[key] = kind(val)
        except ValueError:
            raise SystemExit(f"setting {key!r} in {spec!r}: {val!r} is not a number") from None
        values = out[key] if isinstance(out[key], tuple) else (out[key],)
        if any(isinstance(v, float) and not math.isfinite(v) for v in values):
            raise SystemExit(f"setting {key!r} in {spec!r}: {val!r} is not a finite number")
    return out


def make_level(
    level: str, budget_ms: int | None, parallel: bool = True, rounds: int | None = None
) -> Player:
    """A player of ``level``; hard gets the deadline ``budget_ms`` (default 1000),
    or fixed work of ``rounds`` rounds.  ``hard:key=value,...`` is a tuning
    variant of the hard level (:func:`parse_hard_spec`), its settings taking
    precedence over ``budget_ms`` and ``rounds``."""
    if level == "hard":
        return HardPlayer(budget_ms or HARD_MS, parallel=parallel, rounds=rounds)
    if level.startswith("hard:"):
        opts = parse_hard_spec(level)
        ms = opts.pop("ms", None)
        r = opts.pop("rounds", None)
        work = opts.pop("work", None)
        oracle = opts.pop("oracle", False)
        if ms is not None and r is None and work is None:
            rounds = None  # a deadline of its own, not the match's fixed work
        p = HardPlayer(
            ms or budget_ms or HARD_MS, parallel=parallel,
            rounds=r if r is not None else (None if work is not None else rounds),
            work_ms=work, overrides=opts, oracle=oracle,
        )
        p.name = level
        return p
    if level.startswith("medium:"):
        return medium_variant(level)
    return make_player(level)


def medium_variant(spec: str) -> Player:
    """A tuning variant of the medium level, ``medium:key=value,...``: any field
    of :class:`~engine.ai.players.Budget` that is a number or a yes/no."""
    from dataclasses import fields, replace

    from .players import MEDIUM, SearchPlayer

    types: dict[str, Any] = {f.name: getattr(MEDIUM, f.name) for f in fields(MEDIUM)}
    out: dict[str, Any] = {}
    _name, _sep, rest = spec.partition(":")
    for item in filter(None, rest.split(",")):
        key, eq, val = item.partition("=")
        if not eq or key not in types or isinstance(types[key], tuple):
            raise SystemExit(f"bad medium setting {item!r} in {spec!r}")
        if isinstance(types[key], bool):
            out[key] = _flag(key, val, spec)
            continue
        try:
            out[key] = type(types[key])(val)
        except ValueError:
            raise SystemExit(f"setting {key!r} in {spec!r}: {val!r} is not a number") from None
    return SearchPlayer(spec, replace(MEDIUM, **out))


def _check_level(name: str, oracle_ok: bool = True) -> None:
    """Refuse an unknown level; ``oracle_ok`` False refuses ``oracle=1``, which
    only a tournament can honour (it hands the seat the true deal)."""
    if name.startswith("medium:"):
        medium_variant(name)
        return
    if name.startswith("hard:"):
        if parse_hard_spec(name).get("oracle") and not oracle_ok:
            raise SystemExit(
                f"{name!r}: oracle=1 only works in 'tarocchi tournament', which hands "
                "the seat the true deal; here it would play as plain hard"
            )
        return
    if name not in level_names():
        raise SystemExit(f"unknown level {name!r}; choose from {', '.join(level_names())}")


class Timed:
    """A player that records how long each decision took (ms)."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.name = inner.name
        self.times: list[float] = []

    def choose(self, view: SeatView, legal: Sequence[Command], event_index: int) -> Command:
        t = time.perf_counter()
        c = self.inner.choose(view, legal, event_index)
        if len(legal) > 1:
            self.times.append((time.perf_counter() - t) * 1000)
        return c


def pair_seed(seed: int, i: int) -> int:
    return mix64(seed, i, 0xD0B1) >> 1


def seatings(rules: Ruleset) -> list[tuple[bool, ...]]:
    """Where A sits in each game of one duplicate deal (True: A)."""
    n = rules.n_seats
    if rules.n_sides < n:  # partners: A's side in each partnership in turn
        return [tuple(rules.side[s] == t for s in range(n)) for t in range(rules.n_sides)]
    return [tuple(s == k for s in range(n)) for k in range(n)]


def a_margin(rules: Ruleset, points: Sequence[int], a_seats: Sequence[bool]) -> float:
    """A's result in one game: with partners A's side's points less B's; alone,
    A's deal score (count - par)."""
    if rules.n_sides < rules.n_seats:
        a_side = next(rules.side[s] for s, is_a in enumerate(a_seats) if is_a)
        return float(points[a_side] - points[1 - a_side])
    a_seat = a_seats.index(True)
    return float(rules.deal_scores(points)[rules.side[a_seat]])


def replay_name(level: str, label: str) -> str:
    """A level's name as a replay header may hold it (at most
    ``MAX_NAME_CHARS``): a longer tuning level is cut, behind its side's
    ``label`` (A or B) so that the two stay apart; the whole names are in the
    header's ``tournament`` entry."""
    if len(level) <= MAX_NAME_CHARS:
        return level
    return f"{label}:{level[: MAX_NAME_CHARS - len(label) - 1]}"


def play_pair(
    a: str,
    b: str,
    seed: int,
    i: int,
    budget_ms: int | None,
    variant: str,
    rounds: int | None = None,
    replays: str | None = None,
) -> tuple[list[tuple[int, ...]], dict[str, list[float]], list[Any]]:
    """Deal i once per seating (see :func:`seatings`).  Returns each game's points,
    decision times by level, and the games' Dealt hands (to check pairing).
    With ``replays`` (a folder) each game's replay is written there as
    ``{i:04d}-{seating}.jsonl``."""
    pool.set_parallel(False)
    rules = ruleset(variant)
    gs = pair_seed(seed, i)
    pa = Timed(make_level(a, budget_ms, parallel=False, rounds=rounds))
    pb = Timed(make_level(b, budget_ms, parallel=False, rounds=rounds))
    results = []
    deals = []
    for k, where in enumerate(seatings(rules)):
        players = [pa if is_a else pb for is_a in where]
        game = Game(gs, 1, [p.name for p in players], rules=rules)
        for p in (pa, pb):
            if isinstance(p.inner, HardPlayer) and p.inner.oracle:
                p.inner.truth = lambda g=game: (g.state.hands, g.state.discard)
        play_out(game, players)
        if replays is not None:
            header = copy.deepcopy(game.header)
            header.extra.update(tournament={"a": a, "b": b, "seed": seed, "pair": i, "seating": k})
            header.players = [replay_name(n, "A" if is_a else "B") for n, is_a in zip(
                header.players, where, strict=True)]
            write_replay(Path(replays) / f"{i:04d}-{k}.jsonl", header, list(game.log))
        results.append(game.state.scores[0])
        dealt = game.events[0]
        deals.append(getattr(dealt, "hands", None))
    times = {a: pa.times, b: pb.times} if a != b else {a: pa.times + pb.times}
    return results, times, deals


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def run_tournament(
    a: str,
    b: str,
    deals: int,
    seed: int,
    budget_ms: int | None = None,
    workers: int = 2,
    progress: bool = False,
    *,
    variant: str,
    rounds: int | None = None,
    replays: str | None = None,
) -> dict[str, Any]:
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=deals, desc=f"{a} vs {b}", unit="pair", file=sys.stderr)
    results = _play_pairs(a, b, deals, seed, budget_ms, workers, variant, rounds, bar, replays)
    if bar:
        bar.close()
    out: dict[str, Any] = {"variant": variant, "a": a, "b": b}
    out.update(_match_figures(ruleset(variant), a, b, results))
    out["seed"] = seed
    out["budget_ms"] = budget_ms
    out["budget_rounds"] = rounds
    return _with_times(out, a, b, results)


def _play_pairs(
    a: str, b: str, deals: int, seed: int, budget_ms: int | None, workers: int, variant: str,
    rounds: int | None, bar: Any, replays: str | None = None,
) -> list[Any]:
    """Every deal pair's games, in deal order (in ``workers`` processes where more than one)."""
    results: list[Any] = [None] * deals
    if workers > 1 and deals > 1:
        with ProcessPoolExecutor(workers) as ex:
            futs: dict[Future[Any], int] = {
                ex.submit(play_pair, a, b, seed, i, budget_ms, variant, rounds, replays): i
                for i in range(deals)
            }
            from concurrent.futures import as_completed

            for f in as_completed(futs):
                results[futs[f]] = f.result()
                if bar:
                    bar.update(1)
    else:
        for i in range(deals):
            results[i] = play_pair(a, b, seed, i, budget_ms, variant, rounds, replays)
            if bar:
                bar.update(1)
    return results


def _match_figures(rules: Ruleset, a: str, b: str, results: list[Any]) -> dict[str, Any]:
    """A's mean margin a deal pair, its 95% interval, and the pairs won, drawn and lost."""
    where = seatings(rules)
    margins: list[float] = []
    wins = draws = losses = 0
    for games, _t, _d in results:
        m = sum(a_margin(rules, g, w) for g, w in zip(games, where, strict=True)) / len(games)
        margins.append(m)
        if m > 0:
            wins += 1
        elif m == 0:
            draws += 1
        else:
            losses += 1
    n = len(margins)
    mean = statistics.fmean(margins) if n else 0.0
    sd = statistics.stdev(margins) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n) if n > 1 else 0.0
    return {
        "deal_pairs": n,
        "games_per_deal": len(where),
        "measure": "card-point margin" if rules.n_sides < rules.n_seats else "deal score",
        "mean_margin": round(mean, 2),
        "ci95": [round(mean - half, 2), round(mean + half, 2)],
        "sd": round(sd, 2),
        "wins": wins,
        "draws": draws,
        "losses": losses,
    }


def _with_times(out: dict[str, Any], a: str, b: str, results: list[Any]) -> dict[str, Any]:
    """The summary in its printed key order, with each level's decision times."""
    times: dict[str, list[float]] = {a: [], b: []}
    for _games, t, _d in results:
        for k, v in t.items():
            times.setdefault(k, []).extend(v)
    order = ("variant", "a", "b", "deal_pairs", "games_per_deal", "measure", "seed", "budget_ms",
             "budget_rounds", "mean_margin", "ci95", "sd", "wins", "draws", "losses")
    summary = {k: out[k] for k in order}
    summary["time_ms"] = {
        k: {
            "p50": round(_pct(v, 0.5), 1),
            "p95": round(_pct(v, 0.95), 1),
            "max": round(max(v), 1) if v else 0.0,
            "decisions": len(v),
        }
        for k, v in times.items()
    }
    return summary


def cmd_tournament(args: argparse.Namespace) -> int:
    _check_level(args.a)
    _check_level(args.b)
    if args.replays and any(Path(args.replays).glob("*.jsonl")):
        # another match's games would be counted with this one's (blunder_rates --replays)
        raise SystemExit(f"tarocchi tournament: --replays {args.replays} already holds replay "
                         "files: give an empty or new folder")
    res = run_tournament(
        args.a,
        args.b,
        args.deals,
        args.seed,
        args.budget_ms,
        workers=max(1, args.workers),
        progress=not args.quiet,
        variant=args.variant,
        rounds=args.budget_rounds,
        replays=args.replays,
    )
    if args.json:
        print(json.dumps(res))
    else:
        print(
            f"{res['a']} vs {res['b']} ({res['variant']}, {res['measure']}): "
            f"{res['mean_margin']:+.2f} points a deal "
            f"(95% CI {res['ci95'][0]:+.2f} .. {res['ci95'][1]:+.2f}) over "
            f"{counted(res['deal_pairs'], 'duplicate deal')}; "
            f"W/D/L {res['wins']}/{res['draws']}/{res['losses']}"
        )
        for k, v in res["time_ms"].items():
            print(f"  {k}: decision p50 {v['p50']} ms, p95 {v['p95']} ms, max {v['max']} ms")
    return 0


# --- bench ai ----------------------------------------------------------------------


def bench_positions(
    n: int, seed: int, rules: Ruleset
) -> list[tuple[SeatView, Sequence[Command], int]]:
    """Real positions from seeded games between easy players: the discard, the
    first trick, the middle and the endgame, in turn."""
    kinds = ["discard", "first", "middle", "end"]
    out: list[tuple[SeatView, Sequence[Command], int]] = []
    g = 0
    third = rules.n_tricks // 3
    while len(out) < n:
        easy = make_player("easy")
        game = Game(mix64(seed, g) >> 1, 1, rules=rules)
        g += 1
        kind = kinds[len(out) % 4]
        rnd = mix64(seed, g, 7)
        target = {
            "discard": -1,
            "first": 0,
            "middle": third + rnd % 4,
            "end": 2 * third + rnd % 4,
        }[kind]
        while True:
            legal = game.legal()
            if not legal:
                break
            st = game.state
            seat = st.turn
            view = game.view(seat)
            if len(legal) > 1 and (
                (kind == "discard" and st.phase == DISCARD)
                or (
                    kind != "discard"
                    and st.phase != DISCARD
                    and st.trick_no == target
                    and len(st.trick) == rnd % rules.n_seats
                )
            ):
                out.append((view, legal, game.cursor))
                break
            game.submit(easy.choose(view, legal, game.cursor))
    return out


def _bench_level(
    level: str, args: argparse.Namespace, positions: list[tuple[SeatView, Sequence[Command], int]]
) -> dict[str, Any]:
    """One level's decision times on ``positions``, and for the hard search the
    candidates it valued in a deal (by playouts or solved) a second of decision."""
    player = make_level(
        level, args.budget_ms, parallel=not args.in_process, rounds=args.budget_rounds
    )
    times = []
    valued0 = VALUED[0]
    for view, legal, idx in positions:
        t = time.perf_counter()
        player.choose(view, legal, idx)
        times.append((time.perf_counter() - t) * 1000)
    out: dict[str, Any] = {
        "level": level,
        "decisions": len(times),
        "p50_ms": round(_pct(times, 0.5), 1),
        "p95_ms": round(_pct(times, 0.95), 1),
        "max_ms": round(max(times), 1),
    }
    valued = VALUED[0] - valued0
    if valued:
        out["positions_per_s"] = round(valued / (sum(times) / 1000), 1)
    return out


def cmd_bench_ai(args: argparse.Namespace) -> int:
    _check_level(args.level, oracle_ok=False)
    baseline = None if args.baseline == "none" else args.baseline
    if baseline is not None:
        _check_level(baseline, oracle_ok=False)
    if not args.in_process:
        pool.warm()
    positions = bench_positions(args.decisions, args.seed, ruleset(args.variant))
    out = {
        "variant": args.variant, "in_process": args.in_process,
        **_bench_level(args.level, args, positions),
    }
    if not native.built():
        out["kernels"] = "python (the C kernels are not built)"
    if baseline is not None and baseline != args.level and "positions_per_s" in out:
        base = _bench_level(baseline, args, positions)
        out["baseline"] = base
        if base.get("positions_per_s"):
            out["ratio"] = round(out["positions_per_s"] / base["positions_per_s"], 2)
    print(json.dumps(out))
    return 0


__all__ = ["add_ai_commands", "decision_seed", "run_tournament", "play_pair"]
