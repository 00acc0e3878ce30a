"""The browser seat's catalog: ``python -m game.web_catalog`` writes
``online/web/catalog.json`` from the desktop's own sources, so the page has one
source of words and one of rules:

* ``words``: each language's texts for every msgid the page's modules use
  (:func:`game.i18n_tools.web_entries`), from the .po files; a counted text
  has its two forms and ``plural`` names the language's rule;
* ``cards``: every card's name in each language, worded by
  :func:`game.common.words.card_name` as the desktop words it;
* ``games``: each game's facts as data, from the engine's ruleset (seats,
  sides, cards in a hand, the discard's size, the game's lengths, the par,
  each card's points, the desktop's hand order) and the sprite sheet's layout
  that ``art/generate.py`` draws;
* ``levels``: the AI levels a table may seat.

The file is committed (``pip install .`` needs no tool); a test fails when it
is not what this module makes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from art.web import sprite_layout
from engine.cards import TRUMP_SUIT
from engine.players import level_names
from engine.ruleset import Ruleset, ruleset, variant_names
from game.common import i18n
from game.common.layout import sort_key
from game.common.words import card_name
from game.i18n_tools import LANGS, WEB_DIR, web_entries

CATALOG = WEB_DIR / "catalog.json"
LANGUAGE_NAMES = {"en": "English", "fr": "Français", "it": "Italiano"}
#: each language's plural rule, as the page reads it (game.common.i18n.PLURAL_RULES)
PLURAL = {"en": "n!=1", "fr": "n>1", "it": "n!=1"}


def _words(lang: str) -> dict[str, str | list[str]]:
    i18n.set_language(lang)
    out: dict[str, str | list[str]] = {}
    for msgid, plural in web_entries().items():
        if plural is None:
            out[msgid] = i18n._(msgid)
        else:
            out[msgid] = [i18n.ngettext(msgid, plural, 1), i18n.ngettext(msgid, plural, 2)]
    return out


def _game(rules: Ruleset) -> dict[str, Any]:
    pack = rules.pack
    return {
        "name": rules.name,
        "n_seats": rules.n_seats,
        "side": list(rules.side),
        "n_sides": rules.n_sides,
        "seat_names": list(rules.seat_names),
        "hand_cards": rules.hand_cards,
        "dealer_extra": rules.dealer_extra,
        "stock_cards": rules.stock_cards,
        "discard_cards": rules.discard_cards,
        "n_tricks": rules.n_tricks,
        "game_lengths": list(rules.game_lengths),
        "full_game": rules.full_game,
        "par": rules.par,
        "matto": pack.codes[pack.matto],
        "order": [pack.codes[c] for c in sorted(range(pack.n_cards), key=lambda c: sort_key(c, pack))],
        "points": {code: pack.points[i] for i, code in enumerate(pack.codes)},
        "sprite": sprite_layout(rules.name),
    }


def build() -> dict[str, Any]:
    """The catalog as data (the languages switched back to English after)."""
    full = max((ruleset(v) for v in variant_names()), key=lambda r: r.pack.n_cards).pack
    try:
        words = {lang: _words(lang) for lang in LANGS}
        cards = {}
        for lang in LANGS:
            i18n.set_language(lang)
            cards[lang] = {code: card_name(full, i) for i, code in enumerate(full.codes)}
    finally:
        i18n.set_language("en")
    return {
        "langs": {lang: LANGUAGE_NAMES[lang] for lang in LANGS},
        "plural": PLURAL,
        "words": words,
        "cards": cards,
        "games": {v: _game(ruleset(v)) for v in variant_names()},
        "levels": level_names(),
        "trump_suit": TRUMP_SUIT,
    }


def render() -> str:
    return json.dumps(build(), ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"


def write(path: Path = CATALOG) -> Path:
    """Write the catalog (temporary file, then rename)."""
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(render(), encoding="utf-8")
    tmp.replace(path)
    return path


def main() -> int:
    path = write()
    print(f"wrote {path} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
