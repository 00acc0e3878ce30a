"""Catalog upkeep: ``python -m game.i18n_tools`` lists the msgids of game/ and
adds the missing ones (empty) to each language's .po file, as xgettext and
msgmerge would.  Tests use :func:`source_msgids` to check that every text on
screen has a French and an Italian translation."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from .i18n import parse_po, po_path
from .paths import GAME_DIR

LANGS = ("en", "fr", "it")


def source_msgids() -> list[str]:
    """Every literal passed to ``_()`` or ``N_()`` in game/ (in order of appearance)."""
    seen: dict[str, None] = {}
    for path in sorted(GAME_DIR.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("_", "N_") and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                seen.setdefault(node.args[0].value, None)
            if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "RULES_TEXT" for t in node.targets):
                seen.setdefault(ast.literal_eval(node.value), None)
    return list(seen)


def po_quote(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def update(lang: str) -> int:
    p = po_path(lang)
    p.parent.mkdir(parents=True, exist_ok=True)
    text = p.read_text(encoding="utf-8") if p.exists() else (
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        f'"Language: {lang}\\n"\n')
    have = set(parse_po(text)) | {k for k in _all_ids(text)}
    missing = [m for m in source_msgids() if m not in have]
    if missing:
        text = text.rstrip("\n") + "\n"
        for m in missing:
            text += f"\nmsgid {po_quote(m)}\nmsgstr {po_quote(m if lang == 'en' else '')}\n"
        p.write_text(text, encoding="utf-8")
    return len(missing)


def _all_ids(text: str) -> list[str]:
    out = []
    for line in text.splitlines():
        if line.startswith("msgid "):
            out.append(ast.literal_eval(line[6:]))
    return out


def main() -> int:
    for lang in LANGS:
        print(f"{lang}: {update(lang)} msgid(s) added to {po_path(lang)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["source_msgids", "update", "Path"]
