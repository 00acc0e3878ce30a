"""Every command of ``tarocchi`` (and every subcommand: ``bench engine``...) explains
each of its options in its ``--help``: the text printed is read back, option by
option, and an option listed with nothing beside it or under it fails.  An option
that takes a seat says how seats are numbered."""

from __future__ import annotations

import argparse
import contextlib
import io
import re

import pytest

from game.cli import build_parser


def _commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command path of the parser, the top (``()``) included."""
    out = [path]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out += _commands(sub, (*path, name))
    return out


ALL = _commands(build_parser())


def _help_text(path: tuple[str, ...]) -> str:
    argv = [*path, "--help"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as stop:
        build_parser(argv).parse_args(argv)
    assert stop.value.code == 0
    return out.getvalue()


def _entries(text: str) -> dict[str, str]:
    """The options and positionals listed in a help text, each with the words
    printed for it (on its line, after two spaces or more, and the lines under it)."""
    entries: dict[str, str] = {}
    current = ""
    in_list = False
    for line in text.splitlines():
        if re.match(r"^(options|positional arguments|[a-z].*arguments):$", line):
            in_list, current = True, ""
            continue
        if not line.strip():
            continue
        if not line.startswith(" "):
            in_list = False
            continue
        if not in_list:
            continue
        m = re.match(r"^  (\S.*?)(?:\s{2,}(\S.*))?$", line)
        if m and not line.startswith("   "):
            current = m.group(1)
            entries[current] = m.group(2) or ""
        elif current:
            entries[current] += " " + line.strip()
    return entries


def test_the_walk_finds_every_command() -> None:
    names = {" ".join(p) for p in ALL}
    for expected in ("check", "simulate", "review", "tournament", "bench engine", "bench ai",
                     "bench server", "serve", "bot", "stats", "play", "autoplay", "replay"):
        assert expected in names, sorted(names)


@pytest.mark.parametrize("path", ALL, ids=lambda p: " ".join(p) or "tarocchi")
def test_every_option_is_explained(path: tuple[str, ...]) -> None:
    text = _help_text(path)
    entries = _entries(text)
    assert entries, text
    bare = [name for name, words in entries.items() if len(words.split()) < 2]
    assert not bare, f"tarocchi {' '.join(path)}: no explanation for {bare}\n{text}"
    for name, words in entries.items():
        if re.search(r"--seat\b", name):
            assert "0 = South" in words, (path, name, words)
