"""Window commands of ``tarocchi``: ``autoplay`` and ``replay`` (game/replay_command.py)."""

from __future__ import annotations

import argparse


def add_game_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from engine import argtypes
    from engine.cli import add_variant_option

    p = sub.add_parser(
        "autoplay",
        help="play a game at the real table with AI in every seat (headless-friendly)",
        description="Run the real table, every frame rendered, every seat played by AI. "
        "Works under ARCADE_HEADLESS=1 (EGL) and under Xvfb.",
    )
    add_variant_option(p)
    p.add_argument("--deals", type=argtypes.whole(1, 100), default=1, metavar="N",
                   help="1 (a deal) or the game's full length: 4 (a Piedicavallo match), 3 (Scarto)")
    p.add_argument("--seed", type=argtypes.seed, default=1, metavar="S",
                   help="the seed of the deals (default 1; the same seed, the same cards)")
    p.add_argument("--players", default=None, metavar="P,P,...",
                   help="AI levels by seat: South, East, North, West (Scarto: South, East, West); "
                   "default medium")
    p.add_argument("--speed", type=argtypes.speed, default=2.0, metavar="F",
                   help=f"animation speed factor, {argtypes.MIN_SPEED:g} to {argtypes.MAX_SPEED:g} "
                   "(default 2)")
    p.add_argument("--screenshots", type=argtypes.new_dir, default=None, metavar="DIR",
                   help="save a PNG of each scene (deal, discard or exchange, play, the first "
                   "trick complete, scoring)")
    p.add_argument("--language", choices=("en", "fr", "it"), default=None,
                   help="the table's language (default: the one chosen in Settings)")
    p.add_argument("--lesson", default=None, metavar="LESSON",
                   help="play a lesson of Learn to play by its own prepared moves ('list' lists them); "
                   "with --json: lesson, steps, rules_met, screenshots")
    p.add_argument("--json", action="store_true",
                   help='print {"frames", "frame_ms_p50", "frame_ms_p95", "replay", ...}')
    p.set_defaults(func=_autoplay)

    from game.replay_command import add_replay_command

    add_replay_command(sub)


def _autoplay(args: argparse.Namespace) -> int:
    from game.autoplay import cmd_autoplay

    return cmd_autoplay(args)
