"""Sound effects: played at the right moments, silent and harmless without a
sound device or without the files.

Sounds load lazily on first use; any failure (no device, no file, no decoder)
turns that sound off quietly and is remembered in ``problems`` for the
settings screen.
"""

from __future__ import annotations

from game.common import paths


class SoundBoard:
    def __init__(self, enabled: bool = True, volume: float = 0.7) -> None:
        self.enabled = enabled
        self.volume = volume
        self._sounds: dict[str, object | None] = {}
        self.problems: dict[str, str] = {}
        self.played: list[str] = []  # names, in order (tests and autoplay read it)

    def _load(self, name: str) -> object | None:
        if name in self._sounds:
            return self._sounds[name]
        snd = None
        p = paths.sound_path(name)
        if not p.is_file():
            self.problems[name] = f"missing sound file {p}"
        else:
            try:
                import arcade

                snd = arcade.Sound(str(p), streaming=False)
            except Exception as exc:  # noqa: BLE001 - no device or decoder: stay silent
                self.problems[name] = f"{type(exc).__name__}: {exc}"
        self._sounds[name] = snd
        return snd

    def play(self, name: str) -> None:
        self.played.append(name)
        if len(self.played) > 500:
            del self.played[:250]
        if not self.enabled or self.volume <= 0:
            return
        snd = self._load(name)
        if snd is None:
            return
        try:
            snd.play(volume=self.volume)  # type: ignore[attr-defined]
        except Exception as exc:  # noqa: BLE001
            self.problems[name] = f"{type(exc).__name__}: {exc}"
            self._sounds[name] = None
