"""Translate the engine's rule reasons (English, citing the rule) for the screen.

The engine says *why* a move is illegal (``rules.play_error``,
``rules.discard_error``); this only matches those sentences to catalog
templates, so the rule itself is never re-implemented here.  Unknown sentences
are shown as the engine wrote them.
"""

from __future__ import annotations

import re

from engine.cards import SUIT_NAMES
from engine.variants import PIEDICAVALLO

from .i18n import N_, _

_PACK = PIEDICAVALLO.pack
CODES = _PACK.codes
card_name = _PACK.card_name
parse_card = _PACK.parse

_SUITS = {n: n for n in SUIT_NAMES}
N_("Swords"), N_("Batons"), N_("Cups"), N_("Coins"), N_("Trumps")

_PATTERNS = [
    (re.compile(r"^must follow (\w+) \(R7\)$"), N_("you must follow {suit} (R7)"), "suit"),
    (re.compile(r"^is void in (\w+) and must play a trump \(R7\)$"),
     N_("you have no {suit}, so you must play a trump (R7)"), "suit"),
    (re.compile(r"^(\S+) is not in the hand$"), N_("{card} is not in your hand"), "card"),
    (re.compile(r"^(.+) may never be discarded: no King, trump 1, trump 21 or Matto \(R6\)$"),
     N_("{card} may never be discarded: no King, trump 1, trump 21 or Matto (R6)"), "cards"),
    (re.compile(r"^only (\d+) trump\(s\) may be discarded with this hand \(R6\)$"),
     N_("trumps this hand may discard: {n} at most (R6)"), "n"),
    (re.compile(r"^a trump may be discarded only with no other choice or to keep no trump \(R6\)$"),
     N_("a trump may be discarded only with no other choice, or to keep no trump at all (R6)"), ""),
]


def local_card_name(card: int) -> str:
    """A card's long name in the current language."""
    name = card_name(card)
    if card < _PACK.n_trumps:
        return _("trump {n}").format(n=int(CODES[card][1:]))
    if name == "the Matto":
        return _("the Matto")
    rank, _of, suit = name.partition(" of ")
    return _("{rank} of {suit}").format(rank=_(rank), suit=_(suit))


def explain(reason: str) -> str:
    for rx, template, kind in _PATTERNS:
        m = rx.match(reason)
        if not m:
            continue
        if kind == "suit":
            return _(template).format(suit=_(m.group(1)))
        if kind == "card":
            return _(template).format(card=local_card_name(parse_card(m.group(1))))
        if kind == "cards":
            names = ", ".join(local_card_name(parse_card(c)) for c in m.group(1).split() if c in CODES)
            return _(template).format(card=names)
        if kind == "n":
            return _(template).format(n=m.group(1))
        return _(template)
    return reason


N_("King"), N_("Queen"), N_("Knight"), N_("Jack"), N_("Ace")
