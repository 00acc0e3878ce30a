"""The engine's command-line tools: ``check``, ``simulate`` and ``bench engine``.

No UI imports: these run without a display.  ``game.cli`` adds the table's own
commands and is the ``tarocchi`` entry point.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

from .cards import CODES, mask_cards
from .files import clean_temporaries, die_with_parent, exit_cleanly_on_sigterm
from .game import Game
from .players import Player, level_names, make_player
from .replay import Header, ReplayError, read_replay, write_replay
from .rng import Rng, mix64
from .rules import random_deal_fast
from .simulate import play_game
from .state import PHASE_NAMES, State


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "check",
        help="validate replay files",
        description="Validate replay files against the rules.",
    )
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--json", action="store_true", help="one JSON object per file")
    p.add_argument(
        "--at", type=int, metavar="N", help="print the position after the first N events, as JSON"
    )
    p.set_defaults(func=cmd_check)

    p = sub.add_parser(
        "simulate",
        help="play games with AI or random players and save replays",
        description="Play N games and write one replay file per game.",
    )
    p.add_argument("--games", type=int, required=True, metavar="N")
    p.add_argument("--seed", type=int, required=True, metavar="S")
    p.add_argument(
        "--players",
        default="random,random,random,random",
        metavar="P,P,P,P",
        help="levels by seat 0-3 (South, East, North, West)",
    )
    p.add_argument(
        "--match", action="store_true", help="matches of four deals instead of single deals"
    )
    p.add_argument("--out", required=True, metavar="DIR")
    p.add_argument(
        "--budget-ms",
        type=int,
        default=None,
        metavar="MS",
        help="cap the hard level's thinking (sample counts, not a clock), for long runs",
    )
    p.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="K",
        help="games played at once in K processes (output is the same for any K)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("bench", help="benchmarks that print figures")
    bsub = p.add_subparsers(dest="what", required=True, metavar="{engine,ai}")
    b = bsub.add_parser("engine", help="random legal full deals per second")
    b.add_argument(
        "--seconds", type=float, default=3.0, metavar="S", help="time per path (default 3)"
    )
    b.add_argument("--json", action="store_true", help="print JSON (the default output form)")
    b.set_defaults(func=cmd_bench_engine)

    if importlib.util.find_spec("engine.ai.cli") is not None:  # tournament, bench ai
        from .ai.cli import add_ai_commands

        add_ai_commands(sub, bsub)


# --- check ---------------------------------------------------------------------


def position_json(state: State) -> dict[str, Any]:
    """The position as JSON: hands, current trick, tricks and points so far, turn."""
    seats = state.trick_seats
    return {
        "phase": PHASE_NAMES[state.phase],
        "deal": state.deal_no,
        "dealer": state.dealer,
        "hands": [[CODES[c] for c in mask_cards(h)] for h in state.hands],
        "trick": [{"seat": s, "card": CODES[c]} for s, c in zip(seats, state.trick, strict=True)],
        "tricks": list(state.tricks_won),
        "points": list(state.points_so_far),
        "discard_trumps": state.discard_trumps,
        "turn": state.turn,
        "scores": [list(s) for s in state.scores],
    }


def _say(line: str) -> None:
    """Print a line of ``check``'s output whatever the file names and the locale:
    a name's undecodable bytes (kept by ``os.fsdecode`` as surrogates) and what
    the output encoding cannot show are written as backslash escapes."""
    try:
        raw = line.encode("utf-8", "surrogateescape")  # the file names' own bytes back
    except UnicodeEncodeError:  # another lone surrogate: escaped
        raw = line.encode("utf-8", "backslashreplace")
    text = raw.decode("utf-8", "backslashreplace")
    enc = getattr(sys.stdout, "encoding", None) or "utf-8"
    try:
        print(text.encode(enc, "backslashreplace").decode(enc))
    except LookupError:
        print(text.encode("ascii", "backslashreplace").decode("ascii"))


def cmd_check(args: argparse.Namespace) -> int:
    ok_all = True
    for name in args.files:
        try:
            rp = read_replay(name)
        except ReplayError as exc:
            ok_all = False
            if args.json:
                _say(
                    json.dumps({"file": name, "ok": False, "line": exc.line, "error": exc.message})
                )
            else:
                _say(f"{name}: {exc}")
            continue
        if args.at is not None:
            if not 0 <= args.at <= len(rp.events):
                ok_all = False
                _say(
                    json.dumps(
                        {
                            "file": name,
                            "ok": False,
                            "line": 0,
                            "error": f"--at {args.at} is outside 0..{len(rp.events)}",
                        }
                    )
                )
                continue
            _say(
                json.dumps(
                    {"file": name, "ok": True, "at": args.at, **position_json(rp.states[args.at])}
                )
            )
            continue
        points = [list(s) for s in rp.final.scores]
        if args.json:
            _say(
                json.dumps({"file": name, "ok": True, "deals": rp.final.deal_no, "points": points})
            )
        else:
            status = "finished" if len(points) == rp.final.n_deals else "unfinished"
            _say(f"{name}: ok, {rp.final.deal_no} deal(s), {status}, points {points}")
    return 0 if ok_all else 1


# --- simulate --------------------------------------------------------------------


def parse_players(text: str) -> list[str]:
    names = [p.strip() for p in text.split(",")]
    if len(names) != 4:
        raise SystemExit(f"--players needs 4 levels separated by commas, got {text!r}")
    known = level_names()
    for n in names:
        if n not in known:
            raise SystemExit(f"unknown player level {n!r}; choose from {', '.join(known)}")
    return names


def game_seed(seed: int, i: int) -> int:
    """Seed of the i-th game of a run (63 bits, so JSON readers keep it exact)."""
    return mix64(seed, i) >> 1


def _players(names: list[str], budget_ms: int | None, parallel: bool) -> list[Player]:
    """One player per seat; the hard level takes the budget and, inside a job
    process, searches in-process (the jobs already use the cores)."""
    if budget_ms is None and parallel:
        return [make_player(n) for n in names]
    from .ai.cli import make_level

    return [make_level(n, budget_ms, parallel=parallel) for n in names]


def simulate_one(
    names: list[str], seed: int, i: int, n_deals: int, out: str, budget_ms: int | None, parallel: bool
) -> tuple[int, int]:
    """Play game i of a run, write its replay file, return the teams' totals."""
    if not parallel:
        from .ai import pool

        pool.set_parallel(False)
    players = _players(names, budget_ms, parallel)
    extra: dict[str, object] = {} if budget_ms is None else {"budget_ms": budget_ms}
    game = play_game(game_seed(seed, i), players, n_deals, extra=extra)
    write_replay(Path(out) / f"game-{i:05d}.jsonl", game.header, game.events)
    t = game.state.totals
    return t[0], t[1]


def _simulate_worker_init(parent_pid: int) -> None:
    """A ``--jobs`` worker dies with its parent (SIGTERM when the parent goes, even
    by SIGKILL) and removes the replay it was writing (its temporary file) first."""
    exit_cleanly_on_sigterm()
    die_with_parent(parent_pid)


def cmd_simulate(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    names = parse_players(args.players)
    if args.games < 0 or args.jobs < 1:
        raise SystemExit("--games must be at least 0 and --jobs at least 1")
    if args.budget_ms is not None and args.budget_ms < 1:
        raise SystemExit("--budget-ms must be at least 1")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    clean_temporaries(out)  # what a killed run was writing (its pid is gone)
    n_deals = 4 if args.match else 1
    wins = [0, 0]
    draws = 0
    totals = [0, 0]
    jobs = min(args.jobs, max(1, args.games))
    bar = tqdm(total=args.games, desc="simulate", unit="game", disable=args.quiet, file=sys.stderr)
    results: list[tuple[int, int]] = []
    if jobs == 1:
        for i in range(args.games):
            results.append(
                simulate_one(names, args.seed, i, n_deals, str(out), args.budget_ms, True)
            )
            bar.update()
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        # spawn (not fork): the progress bar's thread is running; workers import once
        ctx = multiprocessing.get_context("spawn")
        ex = ProcessPoolExecutor(
            jobs, mp_context=ctx, initializer=_simulate_worker_init, initargs=(os.getpid(),)
        )
        try:
            futures = [
                ex.submit(simulate_one, names, args.seed, i, n_deals, str(out), args.budget_ms, False)
                for i in range(args.games)
            ]
            for f in futures:
                results.append(f.result())
                bar.update()
        finally:  # a failed game stops the run now, not after the thousands queued
            ex.shutdown(wait=True, cancel_futures=True)
    bar.close()
    for t0, t1 in results:
        totals[0] += t0
        totals[1] += t1
        if t0 == t1:
            draws += 1
        else:
            wins[0 if t0 > t1 else 1] += 1
    g = max(args.games, 1)
    summary: dict[str, object] = {
        "games": args.games,
        "deals_per_game": n_deals,
        "players": names,
        "out": str(out),
        "team_wins": wins,
        "draws": draws,
        "mean_points": [round(totals[0] / g, 2), round(totals[1] / g, 2)],
    }
    if args.budget_ms is not None:
        summary["budget_ms"] = args.budget_ms
    print(json.dumps(summary))
    return 0


# --- bench engine ----------------------------------------------------------------


def bench_fast(seconds: float) -> float:
    rng = Rng(1)
    rand = random.Random(1).random
    n = 0
    t0 = time.perf_counter()
    end = t0 + seconds
    while True:
        for _ in range(100):
            random_deal_fast(rng, rand)
        n += 100
        t = time.perf_counter()
        if t >= end:
            return n / (t - t0)


def bench_event(seconds: float, autosave_dir: Path | None = None) -> float:
    """Random legal deals per second through Game (decide, apply, the log kept
    in memory); with ``autosave_dir`` also written and flushed event by event."""
    n = 0
    t0 = time.perf_counter()
    end = t0 + seconds
    while True:
        autosave = autosave_dir / "bench.jsonl" if autosave_dir else None
        game = Game(n, 1, autosave=autosave)
        rand = random.Random(n).random
        while True:
            legal = game.legal()
            if not legal:
                break
            game.submit(legal[int(rand() * len(legal))])
        game.close()
        n += 1
        t = time.perf_counter()
        if t >= end:
            return n / (t - t0)


def cmd_bench_engine(args: argparse.Namespace) -> int:
    import tempfile

    fast = bench_fast(args.seconds)
    event = bench_event(args.seconds)
    with tempfile.TemporaryDirectory() as d:
        saved = bench_event(args.seconds, Path(d))
    print(
        json.dumps(
            {
                "fast_deals_per_s": round(fast, 1),
                "event_deals_per_s": round(event, 1),
                "event_autosave_deals_per_s": round(saved, 1),
            }
        )
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tarocchi-engine")
    sub = parser.add_subparsers(dest="command", required=True)
    add_commands(sub)
    args = parser.parse_args(argv)
    return int(args.func(args))


__all__ = ["add_commands", "main", "position_json", "Header"]
