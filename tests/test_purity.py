"""The one-way arrows (DESIGN.md): engine/ imports no arcade, pyglet or PIL;
online/ (game/ -> online/ -> engine/) imports none of them nor game/."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {"arcade", "pyglet", "PIL", "game"}


def test_engine_imports_no_ui() -> None:
    _check_imports("engine")


def test_online_imports_no_ui_and_no_game() -> None:
    _check_imports("online")


def _check_imports(package: str) -> None:
    files = list((ROOT / package).rglob("*.py"))
    assert len(files) > 5
    for f in files:
        tree = ast.parse(f.read_text(), str(f))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for n in names:
                assert n.split(".")[0] not in FORBIDDEN, f"{f.relative_to(ROOT)} imports {n}"


def test_engine_runs_without_ui_modules() -> None:
    code = (
        "import sys, engine.cli, engine.game, engine.replay, engine.players\n"
        "engine.players.level_names()\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('arcade', 'pyglet', 'PIL')]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_online_runs_without_ui_modules() -> None:
    code = (
        "import sys, online.server, online.client, online.bot, online.bench, online.cli\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('arcade', 'pyglet', 'PIL', 'game')]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
