"""A real (virtual) X window under Xvfb: resizing and letterboxing, F11, and the
autoplay run.  EGL windows cannot be resized (docs/HEADLESS.md trap 5), so these run
in a subprocess under ``xvfb-run``, which CI installs (.ci/run).  Without it,
skipped naming the packages, or failed under CI (tests/support/prereq.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.prereq import XVFB as XVFB_PROGRAMS

pytestmark = [pytest.mark.requires_program(name, package) for name, package in XVFB_PROGRAMS]

ROOT = Path(__file__).resolve().parent.parent
XVFB = ["xvfb-run", "-a", "-s", "-screen 0 1920x1080x24"]


def _run_under_xvfb(args: list[str], home: Path, timeout: float = 300,
                    env: dict | None = None, screen: str = "1920x1080") -> subprocess.CompletedProcess[str]:
    extra = env or {}
    env = {k: v for k, v in os.environ.items() if k not in ("ARCADE_HEADLESS", "DISPLAY", "TAROCCHI_REDRAW")}
    env.update(PYTHONPATH=str(ROOT), TAROCCHI_HOME=str(home), **extra)
    xvfb = [*XVFB[:-1], f"-screen 0 {screen}x24"]
    return subprocess.run([*xvfb, sys.executable, *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)


def _felt_like(rgb) -> bool:
    """Green baize, lit or in the dark rim at the table's edge (never a black bar)."""
    r, g, b = rgb
    return g >= 25 and g > r + 10 and g > b


@pytest.mark.slow
def test_resized_window_is_letterboxed_and_f11_goes_fullscreen(tmp_path: Path) -> None:
    r = _run_under_xvfb([str(ROOT / "tests" / "support" / "xvfb_window_check.py")], tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["headless"] is False  # a real X window, not EGL
    assert out["1280x720"]["viewport"] == [0, 0, 1280, 720]
    assert out["1600x700"]["viewport"] == [178, 0, 1244, 700]
    assert out["800x900"]["viewport"] == [0, 225, 800, 450]
    for size in ("1280x720", "1600x700", "800x900"):
        seen = out[size]
        # the felt fills the 16:9 table right to its edges, the bars are black
        for px in seen["inside"]:
            assert _felt_like(px), (size, seen)
        for px in seen["bars"]:
            assert px == [0, 0, 0], (size, seen)
        # a click on a button, wherever the window puts it, lands on that button
        assert seen["click_maps_to"] == [round(v, 1) for v in seen["button"]]
    assert out["fullscreen"] is True


@pytest.mark.slow
def test_autoplay_under_xvfb(tmp_path: Path) -> None:
    r = _run_under_xvfb(["-m", "game.cli", "autoplay", "--deals", "1", "--seed", "3",
                         "--players", "random,easy,random,easy", "--speed", "8", "--json"], tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["frames"] > 100 and out["frame_ms_p50"] > 0
    assert out["redraw"] == "retained"  # llvmpipe: the back buffer keeps the picture (no swaps)
    replay = Path(out["replay"])
    assert replay.is_file() and replay.parent.parent == tmp_path
    check = subprocess.run([sys.executable, "-m", "game.cli", "check", str(replay)], cwd=ROOT,
                           capture_output=True, text=True, timeout=60)
    assert check.returncode == 0 and "ok" in check.stdout, check.stdout + check.stderr


@pytest.mark.slow
@pytest.mark.parametrize(("redraw", "screen"), [("retained", "1280x720"), ("fbo", "1920x1080")])
def test_table_in_a_window_redrawn_in_pieces_shows_the_whole_picture(tmp_path: Path, redraw: str,
                                                                     screen: str) -> None:
    # llvmpipe under Xvfb is a software renderer.  "retained": the window never swaps
    # and shows the rectangles it redrew (GLX_MESA_copy_sub_buffer); "fbo": the
    # picture is kept offscreen and copied whole.  Either way, letterboxed or not,
    # after a view switch to the theatre (which draws unseen while it warms up) and
    # back, and in fullscreen (on a 1280x720 screen the same size as the window: a
    # new X window with no new size), the X window (XGetImage) shows the kept
    # picture, and that is the frame drawn whole.
    env = {"TAROCCHI_AI_PROCESS": "0"}  # random players: frames do not wait on another process
    if redraw == "fbo":
        env["TAROCCHI_REDRAW"] = "fbo"
    r = _run_under_xvfb([str(ROOT / "tests" / "support" / "xvfb_damage_check.py")], tmp_path, env=env, screen=screen)
    assert r.returncode == 0, r.stderr[-2000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["mode"] == redraw
    assert set(out["runs"]) == {"1200x650", "1280x720", "theatre", "back to the table", "fullscreen"}
    for name, seen in out["runs"].items():
        assert not seen["shown_bad"] and not seen["kept_bad"], (name, seen)
        assert seen["compared"] >= 15 and seen["pieces"] > 10, (name, seen)
    assert out["runs"]["1200x650"]["framebuffer"] == [1200, 650]
    assert out["runs"]["fullscreen"]["framebuffer"] == [int(v) for v in screen.split("x")]
    if redraw == "retained":
        assert out["swaps_in_a_run"] == 0  # shown by copying boxes, never by a swap
        # a mark left in the back buffer outside the redrawn boxes never reaches the window
        assert out["mark_shown"] is not None and out["mark_shown"] != [255, 0, 255]
