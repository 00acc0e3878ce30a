"""The theatre's live AI game: played by a worker thread while the viewer shows it
(pure Python, no arcade).

Each turn goes through the engine's own AI loop, :func:`engine.simulate.play_turn`
(the seat's view in, the choice checked against the legal list, then
submitted); only the thinking itself runs in the AI process, so the search
never holds the window's GIL.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from engine.game import Game
from engine.players import Player, make_player
from engine.ruleset import Ruleset
from engine.simulate import play_turn
from engine.state import Command
from engine.view import SeatView
from game.table import ai_service


class ServicePlayer:
    """A player whose thinking runs in the AI process (``game.table.ai_service``)."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.name = player.name

    def choose(self, view: SeatView, legal: Sequence[Command], event_index: int) -> Command:
        command: Command = ai_service.service().submit(self.player.choose, view, legal, event_index).result()
        return command


class LiveGame:
    """An AI game played by a worker thread while the viewer shows it.

    The worker stays at most ``lead`` events ahead of what is shown, so pausing
    the viewer also pauses the thinking.  The game autosaves as it goes: its file
    is a complete replay once the game ends."""

    def __init__(self, levels: list[str], n_deals: int, seed: int, path: Path, *, rules: Ruleset,
                 lead: int = 6) -> None:
        self.players = [ServicePlayer(make_player(lv)) for lv in levels]
        self.game = Game(seed, n_deals, levels, autosave=path, rules=rules,
                         extra={"created": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"), "watch": True})
        self.path = path
        self.lead = lead
        self.shown = 0
        self.error = ""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tarocchi-watch", daemon=True)
        self._thread.start()

    @property
    def done(self) -> bool:
        return not self._thread.is_alive()

    def _run(self) -> None:
        g = self.game
        try:
            while not self._stop.is_set():
                legal = g.legal()
                if not legal:
                    break
                if len(g.events) - self.shown > self.lead:
                    time.sleep(0.02)
                    continue
                play_turn(g, self.players[g.state.turn], legal)
        except Exception as exc:  # noqa: BLE001 - shown on screen, the game so far is saved
            self.error = f"{type(exc).__name__}: {exc}"
        finally:
            g.close()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)


__all__ = ["LiveGame", "ServicePlayer"]
