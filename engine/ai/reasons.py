"""Why a move is good, in one reason drawn from the position.

:func:`reason` takes a seat's :class:`~engine.view.SeatView` and a suggested
command (the hint's best, or any legal one) and returns one :class:`Reason`: a
key and its arguments (cards by int, a suit by number), for the table to word
in each language.  Nothing here sees a :class:`~engine.state.State` or a hidden
card: every reason is a fact of the view (the seat's hand, the cards played,
its own discard), so it cannot tell more than the seat knows, and each key
claims only what the view shows (a test checks every claim with code of its
own, over thousands of decisions).

The reasons are the rules of thumb of :mod:`engine.ai.fast` (feed a partner's
sure trick, take a trick with a sure winner, ruff when void, win cheaply, second hand low,
lose the cheapest card, keep the Matto for a trick that cannot be won, lead a
master card; at the discard, bank points and void a short suit) put as claims
that can be checked.  Trick winners and the legal list come from the ruleset.

Keys and what each claims (``card`` is the suggested card):

* ``forced``: it is the only legal card;
* ``partner_sure`` (``card``): the partner's card wins the trick so far and no
  card unseen by the seat could beat it (or no opponent plays after), and
  ``card`` is worth more than 1 point;
* ``matto_save``: ``card`` is the Matto, the trick has begun and no other legal
  card would win it so far;
* ``take_sure`` (``card``): ``card`` wins the trick so far and no unseen card
  could beat it (or no opponent plays after);
* ``void_trump`` (``suit``): a suit was led, the hand holds none of it, and
  ``card`` is a trump that wins the trick so far;
* ``cheap_win`` (``card``): the trick has begun, ``card`` wins it so far and
  no legal card worth fewer points would;
* ``master_trumps_out`` (``card``): leading a suit card above every unseen
  card of its suit, and no trump is unseen;
* ``master`` (``card``): leading a suit card above every unseen card of its suit;
* ``top_trump`` (``card``): leading the strongest trump not yet played;
* ``second_low``: second to play, ``card`` does not win the trick so far and is
  worth the fewest points of the legal cards;
* ``cannot_win`` (``card``: the card winning the trick): no legal card would win
  the trick so far, and ``card`` is worth the fewest points of the legal cards
  (the Matto aside);
* ``only_of_suit`` (``card``, ``suit``): a suit was led and ``card`` is the
  hand's only card of it (the Matto, if held, is the only other legal card);
* ``keep_matto``: the trick has begun, the hand holds the Matto and ``card``
  is another card worth the fewest points of the legal cards;
* ``draw_trumps``: leading a trump while trumps are unseen;
* ``lead_low``: leading a card worth 1 point;
* discards: ``discard_void`` (``suit``): the discard lays aside the last cards
  of a suit the hand held, and trumps stay in hand; ``discard_points``
  (``cards``): the discard banks cards worth more than 1 point; ``discard_low``:
  every card laid aside is a suit card worth 1 point.

None when no reason applies (the hint then shows its figures alone).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from ..cards import NO_SUIT, TRUMP_SUIT, mask_cards
from ..state import DISCARD, PLAY, Command, Discard, Play
from ..view import SeatView


class Reason(NamedTuple):
    """One reason as data: ``key`` (see the module) and its arguments."""

    key: str
    args: tuple[tuple[str, object], ...] = ()

    def get(self, name: str, default: object = None) -> object:
        return dict(self.args).get(name, default)


def _r(key: str, **args: object) -> Reason:
    return Reason(key, tuple(sorted(args.items())))


# --- facts of the view ------------------------------------------------------------------


class _Play(NamedTuple):
    """What the reasons of a play ask about, worked out once."""

    view: SeatView
    card: int
    legal: int
    led: int
    wins_now: bool  # the card would win the trick as it stands
    later_opponent: bool  # an opponent plays after this seat in the trick


def _winner_index(view: SeatView, trick: tuple[int, ...]) -> int:
    return view.rules.trick_winner_index(trick)


def _wins_now(view: SeatView, card: int) -> bool:
    trick = (*view.trick, card)
    return card != view.rules.pack.matto and _winner_index(view, trick) == len(trick) - 1


def _unseen_beats(view: SeatView, trick: tuple[int, ...]) -> bool:
    """Whether some card the seat has not seen would beat the winner of ``trick``."""
    return any(_winner_index(view, (*trick, x)) == len(trick) for x in mask_cards(view.unseen))


def _later_opponent(view: SeatView, before: int) -> bool:
    """An opponent of the seat plays after it, ``before`` cards being in the trick
    before its own."""
    rules = view.rules
    n = rules.n_seats
    return any(rules.side[(view.seat + k) % n] != view.team for k in range(1, n - before))


def _cheapest(view: SeatView, card: int, legal: int) -> bool:
    """``card`` is worth the fewest points of the legal cards (the Matto aside)."""
    p = view.rules.pack
    others = legal & ~p.matto_mask
    if not others:
        return False
    return p.points[card] == min(p.points[c] for c in mask_cards(others))


def _forced(f: _Play) -> Reason | None:
    return _r("forced") if f.legal.bit_count() == 1 else None


def _partner_sure(f: _Play) -> Reason | None:
    v = f.view
    p = v.rules.pack
    if not v.trick or f.card == p.matto or p.points[f.card] <= 1:
        return None
    n = v.rules.n_seats
    w = (v.leader + _winner_index(v, v.trick)) % n
    if w == v.seat or v.rules.side[w] != v.team or f.wins_now:
        return None
    trick = (*v.trick, f.card)
    if f.later_opponent and _unseen_beats(v, trick):
        return None
    return _r("partner_sure", card=f.card)


def _matto_save(f: _Play) -> Reason | None:
    v = f.view
    p = v.rules.pack
    if f.card != p.matto or not v.trick or v.rules.led_suit(v.trick) == NO_SUIT:
        return None
    if any(_wins_now(v, c) for c in mask_cards(f.legal & ~p.matto_mask)):
        return None
    return _r("matto_save")


def _take_sure(f: _Play) -> Reason | None:
    v = f.view
    if not v.trick or not f.wins_now:
        return None
    if f.later_opponent and _unseen_beats(v, (*v.trick, f.card)):
        return None
    return _r("take_sure", card=f.card)


def _void_trump(f: _Play) -> Reason | None:
    v = f.view
    p = v.rules.pack
    if f.led in (NO_SUIT, TRUMP_SUIT) or v.hand & p.suit_mask[f.led]:
        return None
    if p.suit[f.card] != TRUMP_SUIT or not f.wins_now:
        return None
    return _r("void_trump", suit=f.led)


def _cheap_win(f: _Play) -> Reason | None:
    v = f.view
    if not v.trick or not f.wins_now:
        return None
    points = v.rules.pack.points
    if any(points[c] < points[f.card] and _wins_now(v, c) for c in mask_cards(f.legal)):
        return None
    return _r("cheap_win", card=f.card)


def _master_of_suit(v: SeatView, card: int) -> bool:
    p = v.rules.pack
    return not v.unseen & p.higher[card]


def _master(f: _Play) -> Reason | None:
    v = f.view
    p = v.rules.pack
    if v.trick or f.card == p.matto or p.suit[f.card] == TRUMP_SUIT:
        return None
    if not _master_of_suit(v, f.card):
        return None
    if not v.unseen & p.trump_mask:
        return _r("master_trumps_out", card=f.card)
    return _r("master", card=f.card)


def _top_trump(f: _Play) -> Reason | None:
    v = f.view
    p = v.rules.pack
    if v.trick or p.suit[f.card] != TRUMP_SUIT or not _master_of_suit(v, f.card):
        return None
    return _r("top_trump", card=f.card)


def _second_low(f: _Play) -> Reason | None:
    v = f.view
    if len(v.trick) != 1 or f.led == NO_SUIT or f.wins_now or f.card == v.rules.pack.matto:
        return None
    return _r("second_low") if _cheapest(v, f.card, f.legal) else None


def _cannot_win(f: _Play) -> Reason | None:
    v = f.view
    p = v.rules.pack
    if not v.trick or f.led == NO_SUIT or f.card == p.matto:
        return None
    if any(_wins_now(v, c) for c in mask_cards(f.legal & ~p.matto_mask)):
        return None
    if not _cheapest(v, f.card, f.legal):
        return None
    return _r("cannot_win", card=v.trick[_winner_index(v, v.trick)])


def _only_of_suit(f: _Play) -> Reason | None:
    v = f.view
    p = v.rules.pack
    if f.led == NO_SUIT or p.suit[f.card] != f.led or v.hand & p.suit_mask[f.led] != 1 << f.card:
        return None
    return _r("only_of_suit", card=f.card, suit=f.led)


def _keep_matto(f: _Play) -> Reason | None:
    v = f.view
    p = v.rules.pack
    if not v.trick or not v.hand & p.matto_mask or f.card == p.matto:
        return None
    return _r("keep_matto") if _cheapest(v, f.card, f.legal) else None


def _draw_trumps(f: _Play) -> Reason | None:
    v = f.view
    p = v.rules.pack
    if v.trick or p.suit[f.card] != TRUMP_SUIT or not v.unseen & p.trump_mask:
        return None
    return _r("draw_trumps")


def _lead_low(f: _Play) -> Reason | None:
    v = f.view
    p = v.rules.pack
    if v.trick or f.card == p.matto or p.points[f.card] != 1:
        return None
    return _r("lead_low")


#: in order: the first that applies is the reason
PLAY_REASONS: tuple[Callable[[_Play], Reason | None], ...] = (
    _forced, _partner_sure, _matto_save, _take_sure, _void_trump, _only_of_suit, _cheap_win, _master,
    _top_trump, _second_low, _cannot_win, _keep_matto, _draw_trumps, _lead_low,
)

#: every key :func:`reason` may give
KEYS = ("forced", "partner_sure", "matto_save", "take_sure", "void_trump", "cheap_win", "master_trumps_out",
        "master", "top_trump", "second_low", "cannot_win", "only_of_suit", "keep_matto", "draw_trumps",
        "lead_low",
        "discard_void", "discard_points", "discard_low")


def play_reason(view: SeatView, card: int) -> Reason | None:
    legal = view.legal_mask()
    if not legal >> card & 1:
        return None
    f = _Play(view, card, legal, view.rules.led_suit(view.trick), _wins_now(view, card),
              _later_opponent(view, len(view.trick)))
    for fn in PLAY_REASONS:
        got = fn(f)
        if got is not None:
            return got
    return None


def discard_reason(view: SeatView, cards: tuple[int, ...]) -> Reason | None:
    p = view.rules.pack
    laid = 0
    for c in cards:
        laid |= 1 << c
    if laid & ~view.hand:
        return None
    rest = view.hand & ~laid
    if rest & p.trump_mask:
        for s in range(4):
            sm = p.suit_mask[s]
            if laid & sm and not rest & sm:
                return _r("discard_void", suit=s)
    valued = tuple(c for c in sorted(cards) if p.points[c] > 1)
    if valued:
        return _r("discard_points", cards=valued)
    if all(p.suit[c] < TRUMP_SUIT and p.points[c] == 1 for c in cards):
        return _r("discard_low")
    return None


def reason(view: SeatView, command: Command) -> Reason | None:
    """One reason for ``command`` from ``view`` (see the module), or None."""
    if view.turn != view.seat:
        return None
    if view.phase == PLAY and isinstance(command, Play) and command.seat == view.seat:
        return play_reason(view, command.card)
    if view.phase == DISCARD and isinstance(command, Discard) and command.seat == view.seat:
        return discard_reason(view, tuple(command.cards))
    return None


__all__ = ["Reason", "reason", "play_reason", "discard_reason", "KEYS"]
