"""Message catalogs (gettext conventions): ``_("...")`` looks the English msgid
up in ``locale/<lang>/LC_MESSAGES/tarocchi.po``.

The .po files are read directly by a small parser (no compile step, no .mo in
the repo): msgid/msgstr pairs, plural entries (``msgid_plural`` and
``msgstr[n]``, chosen by the language's plural rule), C escapes, multi-line
strings, ``#`` comments, and ``#, fuzzy`` entries skipped as gettext does.  An
empty msgstr falls back to the msgid.

``ngettext(singular, plural, n)`` words counts ("1 trick", "2 tricks"; French
"0 pli", "2 plis"); format the number in afterwards: ``ngettext(...).format(n=n)``.
"""

from __future__ import annotations

import ast
from pathlib import Path

from game.common.paths import LOCALE_DIR

DOMAIN = "tarocchi"
_catalog: dict[str, str] = {}
_plurals: dict[str, list[str]] = {}
_language = "en"

#: gettext's Plural-Forms of each language: the index of the form for ``n``
PLURAL_RULES = {
    "en": lambda n: int(n != 1),
    "it": lambda n: int(n != 1),
    "fr": lambda n: int(n > 1),  # "0 pli", "1 pli", "2 plis"
}
#: the header line each catalog carries (for gettext's own tools)
PLURAL_FORMS = {
    "en": "nplurals=2; plural=(n != 1);",
    "it": "nplurals=2; plural=(n != 1);",
    "fr": "nplurals=2; plural=(n > 1);",
}


def parse_po(text: str) -> dict[str, str]:
    """msgid -> msgstr of a .po text (fuzzy and empty translations left out).

    A plural entry is listed under its singular msgid with its first form; see
    :func:`parse_po_plurals` for all of its forms."""
    return _parse(text)[0]


def parse_po_plurals(text: str) -> dict[str, list[str]]:
    """msgid -> [msgid_plural, msgstr[0], msgstr[1], ...] of the plural entries."""
    return _parse(text)[1]


def _parse(text: str) -> tuple[dict[str, str], dict[str, list[str]]]:
    out: dict[str, str] = {}
    plurals: dict[str, list[str]] = {}
    entry: dict[str, list[str]] = {}
    fuzzy = False
    current: list[str] | None = None

    def flush() -> None:
        nonlocal entry, fuzzy
        if "msgid" in entry:
            k = "".join(entry["msgid"])
            if "msgid_plural" in entry:
                forms = [
                    "".join(entry[f"msgstr[{i}]"])
                    for i in range(len(entry))
                    if f"msgstr[{i}]" in entry
                ]
                if k and forms and all(forms) and not fuzzy:
                    plurals[k] = ["".join(entry["msgid_plural"]), *forms]
                    out[k] = forms[0]
            elif "msgstr" in entry:
                v = "".join(entry["msgstr"])
                if k and v and not fuzzy:
                    out[k] = v
        entry = {}
        fuzzy = False

    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            flush()
            current = None
            continue
        if line.startswith("#"):
            if any(k.startswith("msgstr") for k in entry):
                flush()
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            continue
        if line.startswith('"'):
            if current is not None:
                current.append(ast.literal_eval(line))
            continue
        keyword, _sep, rest = line.partition(" ")
        if keyword in ("msgid", "msgid_plural", "msgstr") or keyword.startswith("msgstr["):
            if keyword == "msgid" and any(k.startswith("msgstr") for k in entry):
                flush()
            current = entry[keyword] = [ast.literal_eval(rest.strip())]
    flush()
    return out, plurals


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def set_language(lang: str) -> None:
    """Switch every later ``_()`` to ``lang`` (English if no catalog)."""
    global _catalog, _plurals, _language
    _language = lang
    try:
        _catalog, _plurals = _parse(po_path(lang).read_text(encoding="utf-8"))
    except OSError:
        _catalog, _plurals = {}, {}


def language() -> str:
    return _language


def _(msgid: str) -> str:
    return _catalog.get(msgid, msgid)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted text for ``n`` in the current language."""
    forms = _plurals.get(singular)
    if forms is None:
        return singular if n == 1 else plural
    i = PLURAL_RULES.get(_language, PLURAL_RULES["en"])(n)
    return forms[1 + min(i, len(forms) - 2)]


def N_(msgid: str) -> str:
    """Mark a string for translation without translating it now."""
    return msgid
