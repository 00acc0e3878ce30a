"""The one-way arrows (docs/ARCHITECTURE.md), kept by import-linter: the
contracts in pyproject.toml's ``[tool.importlinter]`` (game over online over
engine; inside game/ the commands over the window over the router over the
screens over the table over the shared pieces; no screen importing another;
engine/ and online/ importing no arcade, pyglet, PIL nor game/).  And no import
circle between modules (``python -m tests.import_cycles``).  The two runtime
tests check what importing engine/ and online/ really loads."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests import import_cycles

ROOT = Path(__file__).resolve().parent.parent
#: import-linter's command (``lint-imports``), run by this interpreter
LINT_IMPORTS = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"


@pytest.mark.slow
def test_the_import_contracts_are_kept() -> None:
    r = subprocess.run([sys.executable, "-c", LINT_IMPORTS, "--no-cache"], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Contracts: 7 kept, 0 broken." in r.stdout, r.stdout  # every contract was read and checked


def test_no_import_cycle_between_modules() -> None:
    """game/, online/ and engine/: no strongly connected component of more than one module."""
    report = import_cycles.report(("game", "online", "engine"))
    assert report["count"] == 0, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in report["cycles"])


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}, "f": {"d"}}
    assert import_cycles.cycles(graph) == [["a", "b", "c"]]


def test_engine_runs_without_ui_modules() -> None:
    code = (
        "import sys, engine.cli, engine.game, engine.replay, engine.players\n"
        "engine.players.level_names()\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('arcade', 'pyglet', 'PIL')]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


@pytest.mark.slow
def test_online_runs_without_ui_modules() -> None:
    code = (
        "import sys, online.server, online.client, online.bot, online.bench, online.cli\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('arcade', 'pyglet', 'PIL', 'game')]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)

