"""Starting the game where there is no display: one clear line, not a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_no_display_is_one_line_and_a_failure(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "ARCADE_HEADLESS")}
    env["TAROCCHI_HOME"] = str(tmp_path)
    for args in ([], ["play"], ["play", "--resume"]):
        r = subprocess.run([sys.executable, "-m", "game.cli", *args], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=120)
        assert r.returncode != 0
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and "no display" in lines[0] and "DISPLAY" in lines[0], r.stderr
        assert "Traceback" not in r.stderr and r.stdout == ""
    # the tools still run without a display
    r = subprocess.run([sys.executable, "-m", "game.cli", "check",
                        str(ROOT / "tests" / "golden" / "single-seed-42.jsonl")],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "ok" in r.stdout
