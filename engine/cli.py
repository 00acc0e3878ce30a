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
from typing import TYPE_CHECKING, Any, TypeAlias

from . import argtypes
from .argtypes import add_variant_option
from .counted import counted
from .files import clean_temporaries, die_with_parent, exit_cleanly_on_sigterm
from .game import Game
from .players import Player, level_names, make_player
from .replay import Header, ReplayError, read_replay, write_replay
from .rng import Rng, mix64
from .ruleset import Ruleset, ruleset
from .simulate import play_game
from .state import PHASE_NAMES, State

if TYPE_CHECKING:
    from .review import Review

#: The subcommands of a parser (``add_subparsers``), as argparse types them.
_Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def _add_check(sub: _Subparsers) -> None:
    p = sub.add_parser(
        "check",
        help="validate replay files",
        description="Validate replay files against the rules.",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="replay files (.jsonl) to check")
    p.add_argument("--json", action="store_true", help="one JSON object per file")
    p.add_argument(
        "--at", type=argtypes.index(argtypes.MAX_EVENTS), metavar="N",
        help="print the position after the first N events, as JSON"
    )
    p.set_defaults(func=cmd_check)


def _add_simulate(sub: _Subparsers) -> None:
    p = sub.add_parser(
        "simulate",
        help="play games with AI or random players and save replays",
        description="Play N games and write one replay file per game.",
    )
    p.add_argument("--games", type=argtypes.count(argtypes.MAX_GAMES), required=True, metavar="N",
                   help=f"how many games (1 to {argtypes.MAX_GAMES:,})")
    p.add_argument("--seed", type=argtypes.seed, required=True, metavar="S",
                   help="the run's seed: the same seed, players and options give the same games")
    p.add_argument(
        "--players",
        default=None,
        metavar="P,P,...",
        help="levels by seat: 4 for piedicavallo (South, East, North, West), 3 for scarto "
        "(South, East, West); default random in every seat",
    )
    p.add_argument(
        "--match",
        action="store_true",
        help="whole games (a match of four deals, or Scarto's three) instead of single deals",
    )
    add_variant_option(p)
    p.add_argument("--out", type=argtypes.out_dir, required=True, metavar="DIR",
                   help="folder for the replay files, game-00000.jsonl and on (created if missing)")
    p.add_argument(
        "--budget-ms",
        type=argtypes.count(argtypes.MAX_BUDGET_MS),
        default=None,
        metavar="MS",
        help="cap the hard level's thinking, for long runs: simulate gives hard the fixed "
        "work (rounds) it does in about MS on one core, never a clock, so the files are the "
        "same on every run",
    )
    p.add_argument(
        "--budget-rounds",
        type=argtypes.count(argtypes.MAX_BUDGET_ROUNDS),
        default=None,
        metavar="N",
        help="the hard level's fixed work: N rounds of sampled deals a decision "
        "(default: what --budget-ms, or 1000 ms, stands for)",
    )
    p.add_argument(
        "--jobs",
        type=argtypes.count(argtypes.MAX_PROCESSES),
        default=1,
        metavar="K",
        help="games played at once in K processes (output is the same for any K)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_simulate)


def _add_review(sub: _Subparsers) -> None:
    p = sub.add_parser(
        "review",
        help="grade one seat's decisions in a replay",
        description="For every decision of one seat (its discard, every card it played), the "
        "hard AI's search, with only what that seat knew and more work than at the table, values "
        "every choice on the same sampled deals: the expected points of the card played and of "
        "the best card, the loss (counted only beyond the search's noise) and a label (best, "
        "good, inaccuracy, mistake, blunder).  Then, over the real choices (more than one card "
        "allowed, not all worth the same): the mean loss, and the accuracy, the share of them "
        "on which the best card was played.",
    )
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="replay files (.jsonl) of a deal or a game; with several, a last line "
                   "sums them all up")
    p.add_argument("--seat", type=argtypes.whole(0, 3), default=None, metavar="S",
                   help=f"the seat to review (default: the human seat, else 0); {argtypes.SEATS_HELP}")
    p.add_argument("--seed", type=argtypes.seed, default=0, metavar="N",
                   help="seed of the sampled deals (same file and seed, same review)")
    p.add_argument("--codes", action="store_true",
                   help="cards by their codes (DK, T21, M) instead of their names")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object (last line), cards by their codes")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_review)


def _add_bench(sub: _Subparsers) -> _Subparsers:
    """``bench`` and its ``engine`` benchmark; returns the ``bench`` subcommands
    (the AI package adds ``bench ai`` to them)."""
    p = sub.add_parser("bench", help="benchmarks that print figures")
    bsub = p.add_subparsers(dest="what", required=True, metavar="{engine,ai}")
    b = bsub.add_parser("engine", help="random legal full deals per second")
    b.add_argument(
        "--seconds", type=argtypes.seconds, default=3.0, metavar="S",
        help=f"time per path (default 3, at most {argtypes.MAX_SECONDS:g})"
    )
    b.add_argument("--json", action="store_true", help="print JSON (the default output form)")
    add_variant_option(b)
    b.set_defaults(func=cmd_bench_engine)
    return bsub


def add_commands(sub: _Subparsers) -> None:
    """The engine's commands, then the AI's (``tournament``, ``bench ai``) where installed."""
    _add_check(sub)
    _add_simulate(sub)
    _add_review(sub)
    bsub = _add_bench(sub)
    if importlib.util.find_spec("engine.ai.cli") is not None:  # tournament, bench ai
        from .ai.cli import add_ai_commands

        add_ai_commands(sub, bsub)


# --- check ---------------------------------------------------------------------


def position_json(state: State) -> dict[str, Any]:
    """The position as JSON: hands, current trick, tricks and points so far, turn."""
    seats = state.trick_seats
    pack = state.rules.pack
    return {
        "variant": state.rules.name,
        "phase": PHASE_NAMES[state.phase],
        "deal": state.deal_no,
        "dealer": state.dealer,
        "hands": [pack.mask_codes(h) for h in state.hands],
        "trick": [{"seat": s, "card": pack.codes[c]} for s, c in zip(seats, state.trick, strict=True)],
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
                json.dumps(
                    {
                        "file": name,
                        "ok": True,
                        "variant": rp.rules.name,
                        "deals": rp.final.deal_no,
                        "points": points,
                    }
                )
            )
        else:
            status = "finished" if len(points) == rp.final.n_deals else "unfinished"
            _say(f"{name}: ok, {counted(rp.final.deal_no, 'deal')}, {status}, points {points}")
    return 0 if ok_all else 1


# --- review ----------------------------------------------------------------------


def cmd_review(args: argparse.Namespace) -> int:
    from .review import Review

    reviews: list[Review] = []
    status = 0
    for name in args.files:
        got = _review_file(args, name)
        if isinstance(got, int):
            status = max(status, got)
            continue
        review, rules = got
        reviews.append(review)
        if args.json:
            print(json.dumps(review.to_json()))
        else:
            for line in review_lines(review, rules, args.codes):
                print(line)
    if len(args.files) > 1 and reviews:
        every = Review("", reviews[0].variant, reviews[0].seat, args.seed,
                       [d for r in reviews for d in r.decisions])
        if args.json:
            print(json.dumps({"files": len(reviews), "graded": len(every.graded),
                              "mean_loss": round(every.mean_loss, 3),
                              "accuracy": round(every.accuracy, 1), "labels": every.counts()}))
        else:
            print(f"{counted(len(reviews), 'file')}: {review_summary(every)}")
    return status


def _review_file(args: argparse.Namespace, name: str) -> tuple[Review, Ruleset] | int:
    """One file's review, or the exit status of why not (said on stderr)."""
    from tqdm import tqdm

    from .review import default_seat, review_replay

    try:
        rp = read_replay(name)
    except ReplayError as exc:
        print(f"{name}: {exc}", file=sys.stderr)
        return 1
    seat = default_seat(rp) if args.seat is None else args.seat
    if not 0 <= seat < rp.rules.n_seats:
        print(f"{name}: --seat {seat}: {rp.rules.title} has seats {rp.rules.seat_range_text()}",
              file=sys.stderr)
        return 2
    bar = tqdm(desc="review", unit="decision", disable=args.quiet, file=sys.stderr)

    def progress(done: int, total: int) -> None:
        bar.total = total
        bar.n = done
        bar.refresh()

    review = review_replay(rp, seat, file=name, seed=args.seed, progress=progress)
    bar.close()
    return review, rp.rules


def review_lines(review: Review, rules: Ruleset, codes: bool = False) -> list[str]:
    """``tarocchi review``'s report: a line a decision, cards by name (by code
    with ``codes``), then the summary over the real choices."""
    pack = rules.pack

    def cards(text: str) -> str:
        if codes:
            return text
        return ", ".join(pack.card_name(pack.parse(c)) for c in text.split())

    out = [f"{review.file}: {rules.seat_names[review.seat]} (seat {review.seat}), {rules.title}"]
    for d in review.decisions:
        where = "discard" if d.kind == "discard" else f"deal {d.deal}, trick {d.trick:2d}"
        if d.forced:
            out.append(f"  {where}: {cards(d.played)} (forced)")
        elif not d.real:
            out.append(f"  {where}: {cards(d.played)} (every choice worth the same)")
        elif d.label == "best":
            out.append(f"  {where}: {cards(d.played)} {d.expected_played:.1f} points -> best")
        else:
            out.append(f"  {where}: {cards(d.played)} {d.expected_played:.1f} points; best "
                       f"{cards(d.best)} {d.expected_best:.1f} -> {d.label} (-{d.loss:.1f})")
    out.append(review_summary(review))
    return out


def review_summary(review: Review) -> str:
    """The summary line: mean loss and accuracy over the real choices."""
    real = len(review.graded)
    best = review.counts()["best"]
    return (f"mean loss {review.mean_loss:.2f} points a real choice over "
            f"{counted(real, 'real choice')} (of {counted(len(review.decisions), 'decision')}); "
            f"accuracy {review.accuracy:.1f}%: the best on {best} of {real}")


# --- simulate --------------------------------------------------------------------


def parse_players(text: str | None, rules: Ruleset) -> list[str]:
    n = rules.n_seats
    if text is None:
        return ["random"] * n
    names = [p.strip() for p in text.split(",")]
    if len(names) != n:
        raise SystemExit(
            f"--players needs {n} levels separated by commas for {rules.name}, got {text!r}"
        )
    known = level_names()
    for name in names:
        if name not in known:
            raise SystemExit(f"unknown player level {name!r}; choose from {', '.join(known)}")
    return names


def game_seed(seed: int, i: int) -> int:
    """Seed of the i-th game of a run (63 bits, so JSON readers keep it exact)."""
    return mix64(seed, i) >> 1


def _players(
    names: list[str], budget_ms: int | None, parallel: bool, rounds: int | None = None
) -> list[Player]:
    """One player per seat; the hard level does fixed work (``rounds``, or what
    ``budget_ms`` stands for: no clock, so a run is the same every time) and,
    inside a job process, searches in-process (the jobs already use the cores)."""
    if "hard" not in names:
        return [make_player(n) for n in names]
    from .ai.cli import make_level
    from .ai.players import HARD_MS, rounds_for_ms

    if rounds is None:
        rounds = rounds_for_ms(budget_ms or HARD_MS)
    return [make_level(n, budget_ms, parallel=parallel, rounds=rounds) for n in names]


def simulate_one(
    names: list[str],
    seed: int,
    i: int,
    n_deals: int,
    out: str,
    budget_ms: int | None,
    parallel: bool,
    variant: str,
    budget_rounds: int | None = None,
) -> tuple[int, ...]:
    """Play game i of a run, write its replay file, return the sides' totals."""
    if not parallel:
        from .ai import pool

        pool.set_parallel(False)
    players = _players(names, budget_ms, parallel, budget_rounds)
    extra: dict[str, object] = {} if budget_ms is None else {"budget_ms": budget_ms}
    if budget_rounds is not None:
        extra["budget_rounds"] = budget_rounds
    game = play_game(game_seed(seed, i), players, n_deals, extra=extra, rules=ruleset(variant))
    write_replay(Path(out) / f"game-{i:05d}.jsonl", game.header, game.events)
    return game.state.totals


def _simulate_worker_init(parent_pid: int) -> None:
    """A ``--jobs`` worker dies with its parent (SIGTERM when the parent goes, even
    by SIGKILL) and removes the replay it was writing (its temporary file) first."""
    exit_cleanly_on_sigterm()
    die_with_parent(parent_pid)


def cmd_simulate(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    rules = ruleset(args.variant)
    names = parse_players(args.players, rules)
    if args.games < 0 or args.jobs < 1:
        raise SystemExit("--games must be at least 0 and --jobs at least 1")
    if args.budget_ms is not None and args.budget_ms < 1:
        raise SystemExit("--budget-ms must be at least 1")
    if args.budget_rounds is not None and args.budget_rounds < 1:
        raise SystemExit("--budget-rounds must be at least 1")
    out = Path(args.out)
    try:
        return _simulate(args, rules, names, out, tqdm)
    except OSError as exc:  # a full disk, a folder gone: one line, the files written so far kept
        from .files import describe_os_error

        where = exc.filename or out
        raise SystemExit(f"tarocchi simulate: cannot write {where}: {describe_os_error(exc)}") from None


def _simulate(args: argparse.Namespace, rules: Ruleset, names: list[str], out: Path, tqdm: Any) -> int:
    out.mkdir(parents=True, exist_ok=True)
    clean_temporaries(out)  # what a killed run was writing (its pid is gone)
    n_deals = rules.full_game if args.match else 1
    jobs = min(args.jobs, max(1, args.games))
    bar = tqdm(total=args.games, desc="simulate", unit="game", disable=args.quiet, file=sys.stderr)
    if jobs == 1:
        results = _simulate_here(args, rules, names, out, n_deals, bar)
    else:
        results = _simulate_in_processes(args, rules, names, out, n_deals, jobs, bar)
    bar.close()
    print(json.dumps(_simulate_summary(args, rules, names, out, n_deals, results)))
    return 0


def _simulate_here(
    args: argparse.Namespace, rules: Ruleset, names: list[str], out: Path, n_deals: int, bar: Any
) -> list[tuple[int, ...]]:
    """The games one after another in this process (the hard level searching in parallel)."""
    results: list[tuple[int, ...]] = []
    for i in range(args.games):
        results.append(
            simulate_one(
                names, args.seed, i, n_deals, str(out), args.budget_ms, True, rules.name,
                args.budget_rounds,
            )
        )
        bar.update()
    return results


def _simulate_in_processes(
    args: argparse.Namespace, rules: Ruleset, names: list[str], out: Path, n_deals: int,
    jobs: int, bar: Any,
) -> list[tuple[int, ...]]:
    """The games in ``jobs`` worker processes, their results in game order."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    results: list[tuple[int, ...]] = []
    # spawn (not fork): the progress bar's thread is running; workers import once
    ctx = multiprocessing.get_context("spawn")
    ex = ProcessPoolExecutor(
        jobs, mp_context=ctx, initializer=_simulate_worker_init, initargs=(os.getpid(),)
    )
    try:
        futures = [
            ex.submit(
                simulate_one,
                names, args.seed, i, n_deals, str(out), args.budget_ms, False, rules.name,
                args.budget_rounds,
            )
            for i in range(args.games)
        ]
        for f in futures:
            results.append(f.result())
            bar.update()
    finally:  # a failed game stops the run now, not after the thousands queued
        ex.shutdown(wait=True, cancel_futures=True)
    return results


def _simulate_summary(
    args: argparse.Namespace, rules: Ruleset, names: list[str], out: Path, n_deals: int,
    results: list[tuple[int, ...]],
) -> dict[str, object]:
    """The JSON line ``simulate`` prints: wins, draws, losses and mean points by side."""
    wins = [0] * rules.n_sides
    losses = [0] * rules.n_sides
    draws = 0
    totals = [0] * rules.n_sides
    for t in results:
        for s, v in enumerate(t):
            totals[s] += v
        res = rules.outcome(t)
        if res.draw:
            draws += 1
        for s in res.winners:
            wins[s] += 1
        for s in res.losers:
            losses[s] += 1
    g = max(args.games, 1)
    summary: dict[str, object] = {
        "variant": rules.name,
        "games": args.games,
        "deals_per_game": n_deals,
        "players": names,
        "out": str(out),
        "team_wins" if rules.n_sides < rules.n_seats else "seat_wins": wins,
        "draws": draws,
        "mean_points": [round(v / g, 2) for v in totals],
    }
    if rules.n_sides == rules.n_seats:
        summary["seat_losses"] = losses
    if args.budget_ms is not None:
        summary["budget_ms"] = args.budget_ms
    if args.budget_rounds is not None:
        summary["budget_rounds"] = args.budget_rounds
    return summary


# --- bench engine ----------------------------------------------------------------


def bench_fast(seconds: float, rules: Ruleset) -> float:
    rng = Rng(1)
    rand = random.Random(1).random
    n = 0
    deal = rules.random_deal_fast
    t0 = time.perf_counter()
    end = t0 + seconds
    while True:
        for _ in range(100):
            deal(rng, rand)
        n += 100
        t = time.perf_counter()
        if t >= end:
            return n / (t - t0)


def bench_event(seconds: float, rules: Ruleset, autosave_dir: Path | None = None) -> float:
    """Random legal deals per second through Game (decide, apply, the log kept
    in memory); with ``autosave_dir`` also written and flushed event by event."""
    n = 0
    t0 = time.perf_counter()
    end = t0 + seconds
    while True:
        autosave = autosave_dir / "bench.jsonl" if autosave_dir else None
        game = Game(n, 1, autosave=autosave, rules=rules)
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

    rules = ruleset(args.variant)
    fast = bench_fast(args.seconds, rules)
    event = bench_event(args.seconds, rules)
    with tempfile.TemporaryDirectory() as d:
        saved = bench_event(args.seconds, rules, Path(d))
    print(
        json.dumps(
            {
                "variant": rules.name,
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


__all__ = ["add_commands", "add_variant_option", "main", "position_json", "Header"]
