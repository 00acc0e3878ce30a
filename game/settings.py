"""Settings kept between runs, in ``settings.json`` of the user data folder."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields

from . import paths

LANGUAGES = ("en", "fr", "it")


@dataclass
class Settings:
    language: str = "en"
    sound: bool = True
    volume: float = 0.7
    speed: float = 1.0  # animation speed factor
    auto_advance: bool = True  # after each trick; otherwise click to continue
    partner: str = "medium"  # AI level of North
    opponents: str = "medium"  # AI level of East and West
    match: bool = False  # the whole game (a match of four deals, Scarto's three) instead of one deal
    variant: str = "piedicavallo"  # the game last chosen: piedicavallo or scarto
    fullscreen: bool = False

    @classmethod
    def load(cls) -> Settings:
        """The saved settings; defaults for anything missing or unreadable."""
        s = cls()
        try:
            data = json.loads(paths.settings_path().read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return s
        if not isinstance(data, dict):
            return s
        for f in fields(cls):
            v = data.get(f.name)
            if v is not None and isinstance(v, type(getattr(s, f.name))) or (
                f.name in ("volume", "speed") and isinstance(v, int | float) and not isinstance(v, bool)
            ):
                setattr(s, f.name, v)
        if s.language not in LANGUAGES:
            s.language = "en"
        if s.variant not in ("piedicavallo", "scarto"):
            s.variant = "piedicavallo"
        s.volume = min(1.0, max(0.0, float(s.volume)))
        s.speed = min(8.0, max(0.25, float(s.speed)))
        return s

    def save(self) -> None:
        p = paths.settings_path()
        tmp = p.with_name(p.name + ".tmp")
        tmp.write_text(json.dumps(asdict(self), indent=2), encoding="utf-8")
        tmp.replace(p)
