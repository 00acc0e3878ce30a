"""What the seat on turn may do, as data (PROTOCOL.md, ``options``).

The server tells the seat whose turn it is which cards it may play, or which
cards it may lay aside and how many, so that a client (the browser seat above
all) lights them without knowing a rule.  Everything here comes from the
engine's own legal list (:meth:`engine.view.SeatView.legal`, the rule
functions the engine's ``decide`` uses), computed from the seat's view: it can
name no card that the seat may not see.

A discard is ``{count, cards, choices}``: the dealer lays ``count`` of
``cards`` aside; ``choices`` is ``None`` when any ``count`` of them will do
(Scarto, and Piedicavallo in the common case), else the list of every legal
discard (Piedicavallo's few hands where a trump must go with the last suit card).
A client lights a card when some choice holds it together with the cards
already chosen: set arithmetic on the data, no rule.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, Protocol

from engine.ruleset import Outcome
from engine.state import DISCARD, PLAY, Discard, DiscardList, Play, State
from engine.view import SeatView, seat_view

from .protocol import encode


class _Conn(Protocol):
    seat: int

    def send(self, text: str) -> None: ...


def seat_options(view: SeatView) -> dict[str, Any] | None:
    """The ``options`` of the seat of ``view`` (without ``type`` and ``seq``), or
    None when it is not this seat's turn to play or discard."""
    if view.turn != view.seat or view.seat < 0:
        return None
    codes = view.rules.pack.codes
    legal = view.legal()
    if view.phase == PLAY:
        return {"play": [codes[c.card] for c in legal if isinstance(c, Play)]}
    if view.phase == DISCARD and isinstance(legal, DiscardList):
        return {"discard": _discard_options(view, legal)}
    return None


def _discard_options(view: SeatView, legal: DiscardList) -> dict[str, Any]:
    rules = view.rules
    codes = rules.pack.codes
    k = rules.discard_cards
    union = 0
    for m in legal.masks:
        union |= m
    cards = [codes[c] for c in range(rules.pack.n_cards) if union >> c & 1]
    out: dict[str, Any] = {"count": k, "cards": cards, "choices": None,
                           "announced": rules.announces_discard_trumps}
    if len(legal.masks) != math.comb(len(cards), k):
        out["choices"] = [[codes[c] for c in d.cards] for d in legal]
    return out


def options_commands(options: dict[str, Any], seat: int, view: SeatView) -> list[Play | Discard]:
    """The commands an ``options`` message allows, every one spelled out (the
    tests compare them with the engine's legal list)."""
    from itertools import combinations

    pack = view.rules.pack
    if "play" in options:
        return [Play(seat, pack.parse(c)) for c in options["play"]]
    d = options["discard"]
    if d["choices"] is None:
        sets = combinations(sorted(pack.parse(c) for c in d["cards"]), d["count"])
        return [Discard(seat, tuple(s)) for s in sets]
    return [Discard(seat, tuple(sorted(pack.parse(c) for c in ch))) for ch in d["choices"]]


def options_message(view: SeatView, seq: int) -> dict[str, Any] | None:
    """The wire message ``options {seq, seat, play | discard}``, or None."""
    body = seat_options(view)
    if body is None:
        return None
    return {"type": "options", "seq": seq, "seat": view.seat, **body}


def send_options(state: State, seq: int, conns: Iterable[_Conn]) -> None:
    """Send ``options`` to the connections of the seat on turn in ``state`` (at
    ``seq``); nothing when no seat is to play or discard."""
    seat = state.turn
    mine = [c for c in conns if c.seat == seat]
    msg = options_message(seat_view(state, seat), seq) if mine and seat >= 0 else None
    if msg is not None:
        text = encode(msg)
        for c in mine:
            c.send(text)


def outcome_json(outcome: Outcome) -> dict[str, list[int]]:
    """The engine's verdict on a deal or a game (sides that won, sides that lost;
    both empty for a draw), so that no client decides who won."""
    return {"winners": list(outcome.winners), "losers": list(outcome.losers)}


__all__ = ["seat_options", "options_commands", "options_message", "outcome_json", "send_options"]
