"""A dozen varied replay files for the Replays browser's tests (and its
screenshots): both games, single deals and whole games, finished and not,
practice, watched AI games, autoplay logs, the autosave, and a broken file."""

from __future__ import annotations

import copy
from pathlib import Path

from engine.players import RandomPlayer
from engine.replay import write_replay
from engine.simulate import play_game
from engine.state import DealScored, Discarded, TrickTaken
from engine.variants import PIEDICAVALLO, SCARTO


def _cut(events, kind, nth: int):
    """The events up to and including the ``nth`` event of type ``kind``."""
    seen = 0
    for i, e in enumerate(events):
        if type(e) is kind:
            seen += 1
            if seen == nth:
                return events[: i + 1]
    raise AssertionError(f"fewer than {nth} {kind.__name__} events")


def _write(path: Path, game, players, *, created: str, events=None, **extra) -> Path:
    header = copy.deepcopy(game.header)
    header.players = list(players)
    header.extra = {"created": created, **extra}
    path.parent.mkdir(parents=True, exist_ok=True)
    write_replay(path, header, list(game.log if events is None else events))
    return path


def make_replays(home: Path) -> dict[str, Path]:
    """Write the files under ``home`` (the data folder); returns them by name."""
    rep, auto = home / "replays", home / "autoplay"
    rnd3, rnd4 = [RandomPlayer()] * 3, [RandomPlayer()] * 4
    p1 = play_game(11, rnd4, 1, rules=PIEDICAVALLO)
    p4 = play_game(12, rnd4, 4, rules=PIEDICAVALLO)
    s1 = play_game(13, rnd3, 1, rules=SCARTO)
    s3 = play_game(14, rnd3, 3, rules=SCARTO)
    you4 = ["human", "hard", "medium", "hard"]
    you3 = ["human", "easy", "hard"]
    out = {
        "p-single": _write(rep / "p-single.jsonl", p1, you4, created="2025-03-01T10:00:00Z"),
        "p-match": _write(rep / "p-match.jsonl", p4, you4, created="2025-03-02T10:00:00Z"),
        "p-match-half": _write(rep / "p-match-half.jsonl", p4, you4, created="2025-03-03T10:00:00Z",
                               events=_cut(p4.log, TrickTaken, 22)),
        "p-practice": _write(rep / "p-practice.jsonl", p1, ["human", "easy", "easy", "easy"],
                             created="2025-03-04T10:00:00Z", practice=True),
        "p-watched": _write(rep / "watch-p.jsonl", p1, ["hard", "medium", "hard", "medium"],
                            created="2025-03-05T10:00:00Z", watch=True),
        "s-single": _write(rep / "s-single.jsonl", s1, you3, created="2025-03-06T10:00:00Z"),
        "s-game": _write(rep / "s-game.jsonl", s3, you3, created="2025-03-07T10:00:00Z"),
        "s-discard": _write(rep / "s-discard.jsonl", s3, you3, created="2025-03-08T10:00:00Z",
                            events=_cut(s3.log, DealScored, 1) + [s3.log[len(_cut(s3.log, DealScored, 1))]]),
        "s-watched": _write(rep / "watch-s.jsonl", s3, ["medium", "hard", "easy"], created="2025-03-09T10:00:00Z",
                            watch=True),
        "autoplay": _write(auto / "20250310-100000.jsonl", p4, ["medium"] * 4, created="2025-03-10T10:00:00Z"),
        "autosave": _write(home / "autosave.jsonl", p1, you4, created="2025-03-11T10:00:00Z",
                           events=_cut(p1.log, Discarded, 1)),
    }
    broken = rep / "broken.jsonl"
    broken.write_text('{"format": "tarocchi-replay", "version": 1, "variant": "piedicavallo"}\n{"type": "nonsense"}\n')
    out["broken"] = broken
    return out


__all__ = ["make_replays", "PIEDICAVALLO"]
