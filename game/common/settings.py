"""Settings kept between runs, in ``settings.json`` of the user data folder."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict, dataclass, fields

from engine.files import atomic_write, read_capped
from engine.ruleset import variant_names
from game.common import paths

MAX_SETTINGS_BYTES = 64 * 1024
#: the longest name a player goes by at an online table (the protocol's limit)
MAX_NAME = 32

LANGUAGES = ("en", "fr", "it")


@dataclass
class Settings:
    language: str = "en"
    sound: bool = True
    volume: float = 0.7
    speed: float = 1.0  # animation speed factor
    # False (a new player's default): each complete trick stays until a click, and the
    # AI's cards come at a reading pace (T_AI_READ); True: the quick table, the
    # trick gathered by itself after T_TRICK_SHOW and the AI's cards every T_AI_MIN
    auto_advance: bool = False
    partner: str = "medium"  # AI level of North
    opponents: str = "medium"  # AI level of East and West
    match: bool = False  # the whole game (a match of four deals, Scarto's three) instead of one deal
    variant: str = "piedicavallo"  # the game last chosen: piedicavallo or scarto
    fullscreen: bool = False
    practice_dealer: int = -1  # who deals first in practice: a seat, or -1 drawn at random
    online_server: str = ""  # Play online: a server's address; "" hosts on this computer
    #: Play online on this computer's own server: friends in the house may join too
    online_lan: bool = False
    #: the name friends see at an online table (asked the first time; "" not asked yet)
    player_name: str = ""

    @classmethod
    def load(cls) -> Settings:
        """The saved settings; defaults for anything missing or unreadable."""
        s = cls()
        try:  # a regular file of at most 64 KB: a FIFO or a huge file is not waited on
            data = json.loads(read_capped(paths.settings_path(), MAX_SETTINGS_BYTES).decode("utf-8"))
        except (OSError, ValueError, RecursionError, paths.DataFolderError):
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
        if s.variant not in variant_names():
            s.variant = "piedicavallo"
        if isinstance(s.practice_dealer, bool) or not -1 <= s.practice_dealer < 4:
            s.practice_dealer = -1
        s.player_name = clean_name(s.player_name)
        s.volume = min(1.0, max(0.0, float(s.volume)))
        s.speed = min(8.0, max(0.25, float(s.speed)))
        return s

    def save(self) -> str:
        """Write ``settings.json`` (temporary file, fsync, rename).  Never raises: a
        failure (say ``settings.json`` is a folder) is one line on stderr, the
        first time, and is returned ("" when saved); the game goes on."""
        global _warned
        try:
            p = paths.settings_path()
            if p.is_dir():
                raise IsADirectoryError(21, "it is a folder, not a file")
            atomic_write(p, json.dumps(asdict(self), indent=2) + "\n")
            return ""
        except paths.DataFolderError as exc:
            msg = f"the settings cannot be saved: {exc}"
        except OSError as exc:
            msg = f"the settings cannot be saved to {p}: {exc.strerror or exc}"
        if not _warned:
            _warned = True
            print(f"tarocchi: {msg}", file=sys.stderr)
        return msg


_warned = False


def clean_name(text: str) -> str:
    """A player's name as it goes to a table: printable, one line, single spaces,
    at most :data:`MAX_NAME` characters ("" if nothing is left)."""
    kept = "".join(ch if ch.isprintable() else " " for ch in text)
    return " ".join(kept.split())[:MAX_NAME].strip()


def levels() -> list[str]:
    """The engine's AI levels in the order the screens offer them: the engine's
    order, but the random baseline last."""
    from engine.players import level_names

    return sorted(level_names(), key=lambda n: n == "random")
