"""Catalog upkeep: ``python -m game.i18n_tools`` lists the msgids of game/ and of
the browser seat's page (online/web/*.js: ``t("...")``, ``N_("...")`` and
``nt("...", "...", n)``) and adds the missing ones (empty) to each language's
.po file, as xgettext and msgmerge would.  Tests use :func:`source_msgids` and
:func:`source_plurals` to check that every text on screen has a French and an
Italian translation."""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

from game.common.i18n import PLURAL_FORMS, _parse, po_path
from game.common.paths import GAME_DIR

LANGS = ("en", "fr", "it")
#: the browser seat's page (its words come from the same catalogs)
WEB_DIR = GAME_DIR.parent / "online" / "web"
_JS_STRING = r'"((?:[^"\\\n]|\\.)*)"'
_JS_TEXT = re.compile(r"(?<![\w.$])(?:t|N_)\(\s*" + _JS_STRING)
_JS_COUNTED = re.compile(r"(?<![\w.$])nt\(\s*" + _JS_STRING + r"\s*,\s*" + _JS_STRING)


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def source_entries() -> dict[str, str | None]:
    """Every literal passed to ``_()``, ``N_()`` or ``ngettext()`` in game/, in order
    of appearance: msgid -> its plural (None for a text that is not counted)."""
    seen: dict[str, str | None] = {}
    for path in sorted(GAME_DIR.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
                name = node.func.id
                first = _literal(node.args[0])
                if name in ("_", "N_") and first is not None:
                    seen.setdefault(first, None)
                elif name in ("ngettext", "Np_") and len(node.args) >= 2 and first is not None:
                    plural = _literal(node.args[1])
                    if plural is not None:
                        seen[first] = plural
            if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id.endswith("RULES_TEXT") for t in node.targets):
                seen.setdefault(ast.literal_eval(node.value), None)
    return seen


def web_entries(folder: Path = WEB_DIR) -> dict[str, str | None]:
    """The msgids of the browser seat's modules (``folder``/*.js), as
    :func:`source_entries` gives those of game/."""
    seen: dict[str, str | None] = {}
    for path in sorted(folder.glob("*.js")):
        text = path.read_text(encoding="utf-8")
        for m in _JS_TEXT.finditer(text):
            seen.setdefault(json.loads(f'"{m.group(1)}"'), None)
        for m in _JS_COUNTED.finditer(text):
            seen[json.loads(f'"{m.group(1)}"')] = json.loads(f'"{m.group(2)}"')
    return seen


def all_entries() -> dict[str, str | None]:
    """The msgids of game/ and of the browser seat's page."""
    out = source_entries()
    for k, v in web_entries().items():
        if v is not None or k not in out:
            out[k] = v
    return out


def source_msgids() -> list[str]:
    """Every msgid of game/ and of the page (singular texts and the singular of
    counted ones)."""
    return list(all_entries())


def source_plurals() -> dict[str, str]:
    """The counted texts of game/ and of the page: singular msgid -> plural msgid."""
    return {k: v for k, v in all_entries().items() if v is not None}


def po_quote(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def update(lang: str) -> int:
    p = po_path(lang)
    p.parent.mkdir(parents=True, exist_ok=True)
    text = p.read_text(encoding="utf-8") if p.exists() else (
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        f'"Language: {lang}\\n"\n')
    if "Plural-Forms:" not in text:
        marker = f'"Language: {lang}\\n"\n'
        text = text.replace(marker, marker + f'"Plural-Forms: {PLURAL_FORMS[lang]}\\n"\n', 1)
    singular, plurals = _parse(text)
    have = set(singular) | set(plurals) | set(_all_ids(text))
    missing = [(m, pl) for m, pl in all_entries().items() if m not in have]
    if missing:
        text = text.rstrip("\n") + "\n"
        for m, pl in missing:
            if pl is None:
                text += f"\nmsgid {po_quote(m)}\nmsgstr {po_quote(m if lang == 'en' else '')}\n"
            else:
                a, b = (m, pl) if lang == "en" else ("", "")
                text += (f"\nmsgid {po_quote(m)}\nmsgid_plural {po_quote(pl)}\n"
                         f"msgstr[0] {po_quote(a)}\nmsgstr[1] {po_quote(b)}\n")
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


__all__ = ["source_msgids", "source_plurals", "source_entries", "web_entries", "all_entries",
           "update", "Path"]
