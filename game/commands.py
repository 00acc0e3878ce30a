"""Window commands of ``tarocchi``: ``autoplay`` (and ``replay`` from the theatre)."""

from __future__ import annotations

import argparse
import importlib.util


def add_game_commands(sub) -> None:
    p = sub.add_parser(
        "autoplay",
        help="play a game at the real table with AI in all four seats (headless-friendly)",
        description="Run the real table, every frame rendered, all four seats played by AI. "
        "Works under ARCADE_HEADLESS=1 (EGL) and under Xvfb.",
    )
    p.add_argument("--deals", type=int, choices=(1, 4), default=1, help="1 (a deal) or 4 (a match)")
    p.add_argument("--seed", type=int, default=1, metavar="S")
    p.add_argument("--players", default=None, metavar="P,P,P,P",
                   help="AI levels by seat 0-3 (South, East, North, West); default medium")
    p.add_argument("--speed", type=float, default=2.0, metavar="F",
                   help="animation speed factor (default 2)")
    p.add_argument("--screenshots", default=None, metavar="DIR",
                   help="save a PNG of each scene (deal, discard, play, scoring)")
    p.add_argument("--json", action="store_true",
                   help='print {"frames", "frame_ms_p50", "frame_ms_p95", "replay", ...}')
    p.set_defaults(func=_autoplay)

    if importlib.util.find_spec("game.theatre") is not None:
        from game.theatre import add_replay_command

        add_replay_command(sub)


def _autoplay(args: argparse.Namespace) -> int:
    from .autoplay import cmd_autoplay

    return cmd_autoplay(args)
