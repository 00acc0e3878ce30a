"""The hard AI's time a decision is a server setting (``tarocchi serve --ai-ms``):
it reaches the players the server's AI processes make, and bad values
are refused in one line."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

import online.tables as tables_mod
from engine.ai.players import HARD_MS
from engine.game import Game
from engine.players import make_player
from engine.ruleset import ruleset
from game.cli import main
from online.server import start_background
from online.tables import AiRunner


def test_make_player_gives_the_deadline_to_hard_only() -> None:
    assert make_player("hard").budget_ms == HARD_MS  # type: ignore[attr-defined]
    assert make_player("hard", 250).budget_ms == 250  # type: ignore[attr-defined]
    medium = make_player("medium", 250)
    assert not hasattr(medium, "budget_ms")  # medium is fixed work: the yardstick


def test_the_runner_asks_for_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[tuple[str, int | None]] = []
    real = tables_mod.make_player

    def spy(level: str, budget_ms: int | None = None) -> Any:
        asked.append((level, budget_ms))
        return real("easy")  # a quick stand-in: only the arguments are under test

    monkeypatch.setattr(tables_mod, "make_player", spy)
    game = Game(5, 1, rules=ruleset("scarto"))
    view = game.view(game.state.turn)
    runner = AiRunner(inline=frozenset({"hard"}), budget_ms=250)
    cmd = asyncio.run(runner.choose("hard", view, game.cursor))
    assert asked == [("hard", 250)] and cmd in game.legal()
    assert runner.decisions == 1


def test_the_server_passes_ai_ms_to_its_runner(tmp_path: Path) -> None:
    h = start_background(tmp_path, ai_ms=250)
    try:
        assert h.server.hub is not None and h.server.hub.ai.budget_ms == 250
    finally:
        h.stop()
    h = start_background(tmp_path / "b")
    try:
        assert h.server.hub is not None and h.server.hub.ai.budget_ms == HARD_MS
    finally:
        h.stop()


@pytest.mark.parametrize("value", ["10", "20000", "fast"])
def test_a_bad_ai_ms_is_refused(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["serve", "--ai-ms", value])
    assert exc.value.code == 2
    assert "--ai-ms" in capsys.readouterr().err
