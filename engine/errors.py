"""Refusals as data: why a move breaks a rule, so that every language can word it.

A :class:`Refusal` names the rule (``"R7"``, ``"S4"``), a reason key, and the
cards, suit or count it is about; ``text`` is the engine's English sentence (used
by the command-line tools and the replay reader).  :class:`IllegalMove` carries
one.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Refusal:
    """One broken rule.

    ``reason`` is one of a small set of keys (the table words each one):

    * ``not_in_hand`` (``cards``), ``out_of_turn`` (``seat``: who is to play),
      ``no_play_due``, ``must_follow`` (``suit``), ``must_trump`` (``suit``: the
      suit the hand is void in);
    * ``discard_size`` (``count``: how many it must be), ``discard_not_held``
      (``cards``), ``never_discard`` (``cards``), ``discard_trump`` (a trump with
      a choice left), ``discard_trumps_max`` (``count``: how many trumps at most),
      ``trump1_with_trumps`` (``cards``), ``not_dealer`` (``seat``: the dealer),
      ``no_discard_due``.
    """

    rule: str
    reason: str
    text: str
    cards: tuple[int, ...] = ()
    suit: int = -1
    count: int = -1
    seat: int = -1

    def __str__(self) -> str:
        return self.text


class IllegalMove(ValueError):
    """A command (or a replayed event) that breaks a rule; ``str`` cites the rule.

    ``refusal`` holds the reason as data when the move was refused by a rule of
    play (the table words it from there)."""

    def __init__(self, message: str, rule: str = "", refusal: Refusal | None = None) -> None:
        if rule and f"({rule})" not in message:
            message = f"{message} ({rule})"
        super().__init__(message)
        self.rule = rule
        self.refusal = refusal
