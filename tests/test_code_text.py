"""The code's own words: what they point at is there, and they speak of behaviour.

A comment or docstring that cites a file (``engine/ai/anytime.py``,
``docs/HEADLESS.md``, ``PROTOCOL.md``) sends a reader to it: the file must be in
the repository.  The same for the relative links of the repository's Markdown pages.

Code, comments, docstrings, test names and pyproject.toml say what the code does
and why, in the present tense: no issue numbers, no word that dates (the day, a
stop of the work).  A reader cannot follow an issue number, and a word for the day
is wrong the day after; that history belongs in the commit messages and
CHANGELOG.md.
"""

from __future__ import annotations

import ast
import io
import os
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIP = {".git", ".venv", "venv", "build", "dist", "node_modules", "__pycache__", ".mypy_cache",
        ".ruff_cache", ".pytest_cache"}

#: a cited file: a path with a folder (``tests/support/prereq.py``) or a bare
#: Markdown page (``RULES.md``), of the kinds a reader opens (code and documents;
#: not the data files a comment names as an example, like ``replays/x.jsonl``)
CITED = re.compile(
    r"(?<![\w/.<>{}$*~-])"
    r"((?:[\w.-]+/)+[\w.-]*\w\.(?:py|md|c|toml|po|sh|txt|cfg)|[\w-]+\.md)"
    r"(?![\w/])"
)
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
#: history told in the code: an issue's number, a day, a stop or a bug of the work
HISTORY = re.compile(
    r"(?<![a-z])issue[\s_#(]*\d+|\btoday'?s\b|\b(?:this )?stop \d+\b|\bthis stop\b|\bbugs? \d+\b"
    r"|\bas (?:it|they) (?:was|were) before (?:them|this|that)\b",
    re.IGNORECASE,
)


def source_files(suffix: str) -> list[Path]:
    found = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIP and not d.endswith(".egg-info")]
        found += [Path(folder) / f for f in files if f.endswith(suffix)]
    return sorted(found)


def comments_and_docstrings(path: Path) -> Iterator[tuple[int, str]]:
    """(line, text) of every comment and docstring of a Python file."""
    src = path.read_text(encoding="utf-8")
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type == tokenize.COMMENT:
            yield tok.start[0], tok.string
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                yield node.body[0].lineno, doc


def toml_comments(path: Path) -> Iterator[tuple[int, str]]:
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if "#" in line:
            yield n, line[line.index("#"):]


def exists(cited: str, citing: Path) -> bool:
    """Found from the repository's top, beside the citing file, or (a bare page)
    under docs/."""
    return any((base / cited).exists() for base in (ROOT, citing.parent, ROOT / "docs"))


def missing_citations(path: Path, texts: Iterator[tuple[int, str]]) -> list[str]:
    rel = path.relative_to(ROOT)
    return [f"{rel}:{line}: {m.group(1)}" for line, text in texts
            for m in CITED.finditer(text) if not exists(m.group(1), path)]


def test_cited_paths_are_found_in_a_sample_text(tmp_path: Path) -> None:
    """The pattern finds what a comment cites, and only that."""
    text = ("see docs/HEADLESS.md trap 5 and tests/support/prereq.py::find; PROTOCOL.md;"
            " not replays/x.jsonl, art/cards/<variant>/<code>.png nor 3.5 or e.g.")
    assert [m.group(1) for m in CITED.finditer(text)] == [
        "docs/HEADLESS.md", "tests/support/prereq.py", "PROTOCOL.md"]
    assert missing_citations(ROOT / "tests" / "x.py", iter([(1, "docs/NOPE.md")])) == [
        "tests/x.py:1: docs/NOPE.md"]


def test_every_path_a_comment_or_docstring_cites_exists() -> None:
    missing: list[str] = []
    for path in source_files(".py"):
        text = path.read_text(encoding="utf-8")
        if any(not exists(m.group(1), path) for m in CITED.finditer(text)):
            # only then read its comments and docstrings (a string in code may name
            # a file that is made at run time)
            missing += missing_citations(path, comments_and_docstrings(path))
    missing += missing_citations(ROOT / "pyproject.toml", toml_comments(ROOT / "pyproject.toml"))
    assert not missing, "cited but not in the repository:\n" + "\n".join(missing)


def test_every_relative_link_of_a_markdown_page_exists() -> None:
    missing = []
    for page in source_files(".md"):
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
            for m in LINK.finditer(line):
                target = m.group(1)
                if "://" in target or target.startswith("mailto:"):
                    continue
                if not (page.parent / target).exists():
                    missing.append(f"{page.relative_to(ROOT)}:{n}: {target}")
    assert not missing, "links to nothing:\n" + "\n".join(missing)


def history_in(text: str) -> list[str]:
    return [m.group(0) for m in HISTORY.finditer(text)]


def test_history_is_found_in_a_sample_text() -> None:
    """The pattern finds the ways history was told, and not behaviour."""
    told = ["Iss" + "ue 36, part 3: every command", "(iss" + "ue\n    32)", "test_iss" + "ue_13",
            "tod" + "ay's quick table", "the screens of this st" + "op", "(b" + "ug 7)",
            "the level as it was bef" + "ore them"]
    for text in told:
        assert history_in(text), text
    behaviour = ["the game is left exactly as it was before the command", "stop the run now",
                 "a tissue of 12 cards", "the 5-point rule", "issued 3 times"]
    for text in behaviour:
        assert not history_in(text), text


def test_no_history_in_code_or_pyproject() -> None:
    told = [f"{p.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)!r}"
            for p in [*source_files(".py"), ROOT / "pyproject.toml"]
            for text in [p.read_text(encoding="utf-8")]
            for m in HISTORY.finditer(text)]
    assert not told, "history in the code (say it in a commit message):\n" + "\n".join(told)
