"""The ``tarocchi`` command: the game window by default, and the tools.

Tools that need no window (check, simulate, bench, tournament, stats) never import
arcade, so they run anywhere and start fast.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys

from engine import cli as engine_cli
from game.common.record import add_stats_command
from online.cli import add_online_commands

#: Commands that need no window: with one of these, the window commands (whose
#: parsers live beside the theatre, hence arcade) are not even imported.
TOOLS = frozenset({"check", "simulate", "tournament", "bench", "review", "stats", "serve", "bot"})


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The whole parser; given ``argv`` naming a tool, only what that tool needs."""
    parser = argparse.ArgumentParser(
        prog="tarocchi",
        description="Piedicavallo Tarocchi and Scarto: Piedmontese tarot games. "
        "With no command, opens the game window.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    p = sub.add_parser("play", help="open the game window (the default)")
    p.add_argument("--first-frame-exit", action="store_true",
                   help="draw the first frame, print the seconds since start, and exit (start-up check)")
    p.add_argument("--resume", action="store_true",
                   help="open the interrupted game straight away (what the menu's Resume does)")
    p.set_defaults(func=_play)
    engine_cli.add_commands(sub)
    add_online_commands(sub)  # serve, bot, bench server (no window)
    add_stats_command(sub)  # your record (sqlite3, no window)
    words = [a for a in (argv or []) if not a.startswith("-")]
    if words and words[0] in TOOLS:
        return parser
    if importlib.util.find_spec("game.commands") is not None:
        # game.commands brings in the theatre, hence arcade: choose EGL (no display)
        # and silence before that import, or a headless `tarocchi play` cannot open
        from game.app import prepare_environment

        prepare_environment()
        from game.commands import add_game_commands  # autoplay, replay

        add_game_commands(sub)
    return parser


#: Whether the user asked for a window nobody sees (tests, a start-up check); read
#: before :func:`game.app.prepare_environment` chooses EGL for the tools.
_ASKED_HEADLESS = bool(os.environ.get("ARCADE_HEADLESS"))


def no_display() -> str:
    """Why the game window cannot open here ("" when it can)."""
    if _ASKED_HEADLESS or not sys.platform.startswith("linux"):
        return ""
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return ""
    return ("tarocchi: no display to open the game window on (DISPLAY is not set); "
            "run it in a desktop session, or try `tarocchi --help` for the tools")


def _play(args: argparse.Namespace) -> int:
    missing = no_display()
    if missing:
        print(missing, file=sys.stderr)
        return 2
    from game.app import run

    return run(first_frame_exit=getattr(args, "first_frame_exit", False),
               resume=getattr(args, "resume", False))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        args.func = _play
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
