"""Message catalogs (gettext conventions): ``_("...")`` looks the English msgid
up in ``locale/<lang>/LC_MESSAGES/tarocchi.po``.

The .po files are read directly by a small parser (no compile step, no .mo in
the repo): msgid/msgstr pairs, C escapes, multi-line strings, ``#`` comments,
and ``#, fuzzy`` entries skipped as gettext does.  An empty msgstr falls back
to the msgid.
"""

from __future__ import annotations

import ast
from pathlib import Path

from .paths import LOCALE_DIR

DOMAIN = "tarocchi"
_catalog: dict[str, str] = {}
_language = "en"


def parse_po(text: str) -> dict[str, str]:
    """msgid -> msgstr of a .po text (fuzzy and empty translations left out)."""
    out: dict[str, str] = {}
    msgid: list[str] | None = None
    msgstr: list[str] | None = None
    fuzzy = False
    current: list[str] | None = None

    def flush() -> None:
        nonlocal msgid, msgstr, fuzzy
        if msgid is not None and msgstr is not None:
            k, v = "".join(msgid), "".join(msgstr)
            if k and v and not fuzzy:
                out[k] = v
        msgid = msgstr = None
        fuzzy = False

    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            flush()
            current = None
            continue
        if line.startswith("#"):
            if msgstr is not None:
                flush()
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            continue
        if line.startswith("msgid "):
            if msgstr is not None:
                flush()
            msgid = [ast.literal_eval(line[6:].strip())]
            current = msgid
        elif line.startswith("msgstr "):
            msgstr = [ast.literal_eval(line[7:].strip())]
            current = msgstr
        elif line.startswith('"') and current is not None:
            current.append(ast.literal_eval(line))
    flush()
    return out


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def set_language(lang: str) -> None:
    """Switch every later ``_()`` to ``lang`` (English if no catalog)."""
    global _catalog, _language
    _language = lang
    try:
        _catalog = parse_po(po_path(lang).read_text(encoding="utf-8"))
    except OSError:
        _catalog = {}


def language() -> str:
    return _language


def _(msgid: str) -> str:
    return _catalog.get(msgid, msgid)


def N_(msgid: str) -> str:
    """Mark a string for translation without translating it now."""
    return msgid
