"""``tarocchi replay FILE``: the replay viewer in the game window, one rendered
position (``--screenshot``) or the seek benchmark (``--bench-seek``).  A command,
so it sits with the window over the screens (it opens the window itself)."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

import arcade

from engine import argtypes
from engine.replay import Replay, ReplayError, read_replay
from game.common.constants import HEIGHT, WIDTH
from game.common.i18n import _
from game.common.navigation import show
from game.theatre.replay_list import game_title
from game.theatre.theatre import ViewerView, render_position


def add_replay_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("replay", help="watch a saved game again",
                       description="Open the replay viewer on FILE; with --at and --screenshot, "
                       "render the table after the first N events to a PNG and exit.")
    p.add_argument("file", metavar="FILE", help="a replay file (.jsonl)")
    p.add_argument("--at", type=argtypes.index(argtypes.MAX_EVENTS), metavar="N",
                   help="start at (or render) the position after N events")
    p.add_argument("--screenshot", type=argtypes.out_file, metavar="OUT.png",
                   help="render one frame to this PNG and exit (its folder must exist)")
    p.add_argument("--face-down", action="store_true", help="show only South's hand face up")
    p.add_argument("--bench-seek", action="store_true",
                   help="seek to every position in random order (each seek plus one drawn frame) "
                   "and print the times as JSON")
    p.set_defaults(func=cmd_replay)


def cmd_replay(args: argparse.Namespace) -> int:
    import sys

    path = Path(args.file)
    rp: Replay | None = None
    error = ""
    try:
        rp = read_replay(path)
    except ReplayError as exc:
        if args.screenshot or args.bench_seek:
            print(f"{path}: {exc}", file=sys.stderr)
            return 1
        error = str(exc)
    if rp is not None and args.at is not None and not 0 <= args.at <= len(rp.events):
        print(f"--at {args.at} is outside 0..{len(rp.events)} for {path}", file=sys.stderr)
        return 1
    from game.app import prepare_environment

    prepare_environment()
    if rp is not None and args.bench_seek:
        return _bench_seek(rp, path.name)
    if rp is not None and args.screenshot:
        return _screenshot(rp, args.at if args.at is not None else len(rp.events), Path(args.screenshot),
                           path, not args.face_down)

    def first_view(window: arcade.Window) -> None:
        if rp is None:
            show(window, "message", text=f"{path.name}\n{error}", title=_("This replay cannot be shown"))
            return
        v = ViewerView(window, rp, title=game_title(path), face_up=not args.face_down)
        if args.at is not None:
            v.seek(args.at)
        window.show_view(v)

    return _run(first_view)


def _run(first_view: Callable[[arcade.Window], None]) -> int:
    """Open the game window, ``first_view(window)`` showing its first screen (as
    ``game.app.run`` does for the menu)."""
    from game.app import make_window
    from game.common import i18n, textures
    from game.common.settings import Settings
    from game.common.sound import SoundBoard

    settings = Settings.load()
    i18n.set_language(settings.language)
    textures.start_loading()
    window = make_window(settings)
    window.sound = SoundBoard(settings.sound, settings.volume)
    first_view(window)
    arcade.run()
    return 0




def _screenshot(rp: Replay, at: int, out: Path, path: Path, face_up: bool) -> int:
    """The table after ``at`` events of the replay in ``path`` as a picture in ``out``."""
    from game.common import i18n
    from game.common.settings import Settings

    settings = Settings.load()
    i18n.set_language(settings.language)
    title = game_title(path)  # in the player's language
    window = arcade.Window(WIDTH, HEIGHT, "Tarocchi", visible=False, antialiasing=False, vsync=False)
    window.settings = settings
    image = render_position(window, rp, at, title, face_up)
    window.close()
    try:  # a PNG by its name's suffix (OUT.png); the folder is never made
        image.convert("RGB").save(out, format=_image_format(out))
    except (OSError, ValueError) as exc:
        import sys

        from engine.files import describe_os_error

        why = describe_os_error(exc) if isinstance(exc, OSError) else str(exc)
        print(f"tarocchi replay: cannot write the screenshot {out}: {why}", file=sys.stderr)
        return 1
    print(out)
    return 0


def _image_format(out: Path) -> str:
    """The image format of a screenshot file: from its suffix when PIL knows it, else PNG."""
    from PIL import Image

    return Image.registered_extensions().get(out.suffix.lower(), "PNG")


def _bench_seek(rp: Replay, title: str) -> int:
    """Time every seek of a replay, in random order: the snap and one drawn frame."""
    import json
    import random

    window = arcade.Window(WIDTH, HEIGHT, "Tarocchi", visible=False, antialiasing=False, vsync=False)
    view = ViewerView(window, rp, title=title)
    window.show_view(view)
    order = list(range(len(rp.events) + 1))
    random.Random(1).shuffle(order)
    times = []
    for p in order:
        t0 = time.perf_counter()
        view.seek(p)
        view.on_draw()
        window.ctx.finish()
        times.append((time.perf_counter() - t0) * 1000)
    window.close()
    times.sort()
    print(json.dumps({"positions": len(times), "seek_ms_p50": round(times[len(times) // 2], 2),
                      "seek_ms_p95": round(times[int(len(times) * 0.95)], 2),
                      "seek_ms_max": round(times[-1], 2)}))
    return 0
