"""The server's log: one line a happening, on stderr, as text or JSON lines.

``tarocchi serve --log-format json`` writes one JSON object a line (``time``,
``level``, ``event``, ``msg`` and the happening's own fields: a table's code, a
limit's name, a client's address), for a log collector; the default is the same
as text (``2025-01-01T12:00:00Z INFO table_started code=ABC123 variant=scarto``).

:func:`event` logs a happening with its fields; a happening that can repeat fast
(a limit hit by a flood) goes through :class:`Throttle`, so that one address
cannot fill the disk through the log.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any

#: the logger every part of the server writes to
LOGGER = "tarocchi.online"


def _iso(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + f".{int(t % 1 * 1000):03d}Z"


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, event, msg and the event's fields."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {"time": _iso(record.created), "level": record.levelname.lower(),
                               "event": getattr(record, "event", "log"),
                               "msg": record.getMessage()}
        out.update(getattr(record, "fields", {}))
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str)


class TextFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = f"{_iso(record.created)} {record.levelname} {record.getMessage()}"
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


def setup(fmt: str = "text", level: int = logging.INFO) -> None:
    """Send the server's log to stderr in ``fmt`` (``text`` or ``json``)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    logger = logging.getLogger(LOGGER)
    for h in list(logger.handlers):
        logger.removeHandler(h)
    logger.addHandler(handler)
    logger.setLevel(level)
    logger.propagate = False


def event(name: str, level: int = logging.INFO, **fields: Any) -> None:
    """Log the happening ``name`` with its fields (``key=value`` in text)."""
    logger = logging.getLogger(LOGGER)
    if not logger.isEnabledFor(level):
        return
    text = " ".join([name, *(f"{k}={v}" for k, v in fields.items())])
    logger.log(level, "%s", text, extra={"event": name, "fields": fields})


class Throttle:
    """At most one line every ``every`` seconds for each key; the lines left out
    are counted in the next one (``repeated``).  Holds at most ``keys`` keys."""

    def __init__(self, every: float = 10.0, keys: int = 4096) -> None:
        self.every = every
        self.max_keys = keys
        self._seen: dict[tuple[str, ...], tuple[float, int]] = {}

    def allow(self, key: tuple[str, ...]) -> int | None:
        """None: leave this one out; else the number left out since the last line."""
        now = time.monotonic()
        last = self._seen.get(key)
        if last is not None and now - last[0] < self.every:
            self._seen[key] = (last[0], last[1] + 1)
            return None
        if len(self._seen) >= self.max_keys:
            self._seen.clear()
        self._seen[key] = (now, 0)
        return last[1] if last is not None else 0


__all__ = ["LOGGER", "JsonFormatter", "TextFormatter", "Throttle", "event", "setup"]
