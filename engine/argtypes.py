"""Validators for the options of every ``tarocchi`` command (argparse ``type=``).

Each one turns the text of an option into its value or refuses it with one
line, so argparse prints ``tarocchi simulate: error: argument --games: must be
a positive whole number, not '0'`` and exits with 2: no traceback, and no run
of a nonsense value (a count of 0, a speed of ``nan``, a time of ``inf``, an
output path that is a file).  Huge numbers are capped at what a run can
sensibly take, and the message says the cap.

Output paths are checked without being made: a folder that is a file, a file
that is a folder, a folder that cannot be created (a part of its path is a
file, or the nearest existing folder is not writable), and an output file
whose folder does not exist (refused, not created).

Pure Python, no UI imports: used by engine/cli.py, engine/ai/cli.py and the
game's commands (autoplay, replay).
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable
from pathlib import Path

from .ruleset import variant_names

#: The largest seed: 63 bits, so that JSON readers keep it exact.
MAX_SEED = 2**63 - 1

#: Caps, each about what one run can sensibly take on a desktop.
MAX_GAMES = 100_000  # simulate: about a day of random games, weeks of hard ones
MAX_DEAL_PAIRS = 100_000  # tournament
MAX_DECISIONS = 10_000  # bench ai
MAX_PROCESSES = 64  # simulate --jobs, tournament --workers
MAX_BUDGET_MS = 60_000  # a minute a decision
MAX_BUDGET_ROUNDS = 3_000  # about a minute a decision at 20 ms a round (engine.ai.players.ROUND_MS)
MAX_SECONDS = 600.0  # bench engine: ten minutes a path (three paths: half an hour)
MAX_EVENTS = 1_000_000  # check/replay --at: more events than any replay within its size cap
MIN_SPEED, MAX_SPEED = 0.25, 8.0  # the table's animation speeds (game.common.settings clamps the same)

Error = argparse.ArgumentTypeError


def _show(text: str) -> str:
    """The value as typed, quoted and cut short (a 10,000-digit number is one line)."""
    return repr(text if len(text) <= 40 else text[:37] + "...")


def whole(lo: int, hi: int, what: str = "whole number") -> Callable[[str], int]:
    """A whole number from ``lo`` to ``hi``."""

    def parse(text: str) -> int:
        t = text.strip().replace("_", "")
        digits = t[1:] if t[:1] in ("+", "-") else t
        if not digits.isdigit():
            raise Error(f"must be a {what}, not {_show(text)}")
        if len(digits.lstrip("0")) > 30:  # no int() of a 10,000-digit string: past any cap
            v = hi + 1 if t[:1] != "-" else lo - 1
        else:
            try:
                v = int(t[: len(t) - len(digits)] + (digits.lstrip("0") or "0"))
            except ValueError:
                raise Error(f"must be a {what}, not {_show(text)}") from None
        if v < lo:
            if lo == 1:
                raise Error(f"must be a positive {what}, not {_show(text)}")
            if lo == 0:
                raise Error(f"must be a {what} of 0 or more, not {_show(text)}")
            raise Error(f"must be at least {lo:,}, not {_show(text)}")
        if v > hi:
            raise Error(f"must be at most {hi:,}, not {_show(text)}")
        return v

    parse.__name__ = what
    return parse


def count(cap: int) -> Callable[[str], int]:
    """A positive whole number (1 or more), at most ``cap``."""
    return whole(1, cap)


def index(cap: int) -> Callable[[str], int]:
    """A whole number of 0 or more, at most ``cap``."""
    return whole(0, cap)


#: A seed: a whole number from 0 to 2**63 - 1.
seed = whole(0, MAX_SEED)


def number(lo: float, hi: float, *, lo_open: bool = False) -> Callable[[str], float]:
    """A finite number from ``lo`` to ``hi`` (above ``lo`` with ``lo_open``)."""

    def parse(text: str) -> float:
        try:
            v = float(text.strip()) if len(text) <= 64 else float("nan")
        except ValueError:
            raise Error(f"must be a number, not {_show(text)}") from None
        if not math.isfinite(v):
            raise Error(f"must be a finite number, not {_show(text)}")
        if v <= 0 and lo_open and lo == 0:
            raise Error(f"must be a positive number, not {_show(text)}")
        if v < lo or (lo_open and v <= lo) or v > hi:
            low = f"above {lo:g}" if lo_open else f"from {lo:g}"
            raise Error(f"must be a number {low} to {hi:g}, not {_show(text)}")
        return v

    parse.__name__ = "number"
    return parse


#: seconds of a timed run: positive, finite, at most an hour
seconds = number(0.0, MAX_SECONDS, lo_open=True)
#: an animation speed factor
speed = number(MIN_SPEED, MAX_SPEED)


def _stat_error(text: str, exc: OSError | ValueError) -> Error:
    why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return Error(f"cannot be used: {why}: {_show(text)}")


def _writable_folder(folder: Path, text: str, what: str) -> None:
    if not os.access(folder, os.W_OK | os.X_OK):
        raise Error(f"{what} cannot be written: the folder {folder} is read-only to you: {_show(text)}")


def out_dir(text: str) -> str:
    """A folder to write into: an existing folder, or one that can be made (with
    its missing parents) below an existing, writable folder.  Not made here."""
    if not text.strip():
        raise Error("must name a folder, not ''")
    try:
        p = Path(text)
        if p.exists():
            if not p.is_dir():
                raise Error(f"is a file, not a folder: {_show(text)}")
            _writable_folder(p, text, "it")
            return text
        q = p.absolute().parent
        while not q.exists():
            q = q.parent
        if not q.is_dir():
            raise Error(f"cannot be created: {q} is a file, not a folder: {_show(text)}")
        _writable_folder(q, text, "it")
    except (OSError, ValueError) as exc:
        raise _stat_error(text, exc) from None
    return text


def _existing_parent(p: Path, text: str, what: str) -> None:
    parent = p.absolute().parent
    if not parent.exists():
        raise Error(f"its folder {parent} does not exist (it is not created): {_show(text)}")
    if not parent.is_dir():
        raise Error(f"{parent} is a file, not a folder: {_show(text)}")
    _writable_folder(parent, text, what)


def new_dir(text: str) -> str:
    """A folder to write into that is made if missing, but only in an existing
    folder (autoplay's ``--screenshots``): its parent is never created."""
    if not text.strip():
        raise Error("must name a folder, not ''")
    try:
        p = Path(text)
        if p.exists():
            if not p.is_dir():
                raise Error(f"is a file, not a folder: {_show(text)}")
            _writable_folder(p, text, "it")
            return text
        _existing_parent(p, text, "it")
    except (OSError, ValueError) as exc:
        raise _stat_error(text, exc) from None
    return text


def out_file(text: str) -> str:
    """A file to write (a screenshot): not a folder, in a folder that exists and
    can be written (the folder is never created)."""
    if not text.strip():
        raise Error("must name a file, not ''")
    try:
        p = Path(text)
        if p.is_dir() or text.endswith(("/", os.sep)):
            raise Error(f"is a folder, not a file: {_show(text)}")
        if p.exists() and not p.is_file():
            raise Error(f"is not a regular file: {_show(text)}")
        _existing_parent(p, text, "it")
    except (OSError, ValueError) as exc:
        raise _stat_error(text, exc) from None
    return text


#: How seats are numbered, for every option that takes one.
SEATS_HELP = ("seats are numbered 0 = South, 1 = East, 2 = North, 3 = West "
              "(Scarto: 0 = South, 1 = East, 2 = West)")


def add_variant_option(p: argparse.ArgumentParser) -> None:
    """``--variant piedicavallo|scarto`` (default piedicavallo); here, below both
    ``engine.cli`` and ``engine.ai.cli``, so that neither imports the other for it."""
    p.add_argument(
        "--variant",
        choices=variant_names(),
        default="piedicavallo",
        help="which game: piedicavallo (four players, partners) or scarto "
        "(three players, each for themselves); default piedicavallo",
    )


__all__ = [
    "add_variant_option",
    "MAX_BUDGET_MS",
    "MAX_BUDGET_ROUNDS",
    "MAX_DEAL_PAIRS",
    "MAX_DECISIONS",
    "MAX_EVENTS",
    "MAX_GAMES",
    "MAX_PROCESSES",
    "MAX_SECONDS",
    "SEATS_HELP",
    "count",
    "index",
    "new_dir",
    "number",
    "out_dir",
    "out_file",
    "seconds",
    "seed",
    "speed",
    "whole",
]
