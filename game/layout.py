"""Pure geometry of the table at the logical 1280x720 size (no GPU, no arcade).

Everything the renderer places comes from here: where each seat's hand fans,
where the trick's cards lie, the piles, the deck, the labels; and the
letterbox that maps any window size onto the 16:9 logical screen.

A *place* is ``Place(x, y, angle, scale, face_up, z)``; a *key* names what a
sprite shows: ``("card", c)`` for a known card, ``("back", owner, i)`` for the
i-th unknown card of a hand (owner = seat) or of the discard (owner = "discard")
or of the undealt pack (owner = "deck").
"""

from __future__ import annotations

from typing import NamedTuple

from engine.cards import TRUMP_SUIT, Pack, mask_cards
from engine.variants import PIEDICAVALLO

from .constants import (
    CARD_H,
    CARD_W,
    DECK_SCALE,
    HAND_SCALE,
    HEIGHT,
    OPEN_SCALE,
    PILE_SCALE,
    RAISE,
    SMALL_SCALE,
    SOUTH_STEP,
    TRICK_SCALE,
    WIDTH,
)

Key = tuple


class Place(NamedTuple):
    x: float
    y: float
    angle: float = 0.0
    scale: float = 1.0
    face_up: bool = False
    z: float = 0.0
    hidden: bool = False  # covered for good (deep in a pile): not drawn, to save fill


# --- letterbox ------------------------------------------------------------------


def letterbox(win_w: int, win_h: int) -> tuple[int, int, int, int]:
    """The 16:9 viewport (left, bottom, width, height) centred in a window."""
    if win_w <= 0 or win_h <= 0:
        return 0, 0, max(win_w, 1), max(win_h, 1)
    scale = min(win_w / WIDTH, win_h / HEIGHT)
    w, h = round(WIDTH * scale), round(HEIGHT * scale)
    return (win_w - w) // 2, (win_h - h) // 2, w, h


def to_logical(x: float, y: float, win_w: int, win_h: int) -> tuple[float, float]:
    """Window pixel coordinates -> logical 1280x720 coordinates."""
    left, bottom, w, h = letterbox(win_w, win_h)
    return (x - left) * WIDTH / w, (y - bottom) * HEIGHT / h


# --- sizes ----------------------------------------------------------------------


def card_size(scale: float) -> tuple[float, float]:
    """On-screen size of a card drawn at ``scale`` (of the 320x592 art)."""
    return CARD_W * scale, CARD_H * scale


# --- South's hand order -----------------------------------------------------------

# Matto first, trumps high to low, then suits alternating in colour, high to low.
_SUIT_ORDER = {TRUMP_SUIT: 1, 0: 2, 2: 3, 1: 4, 3: 5}


def sort_key(card: int, pack: Pack = PIEDICAVALLO.pack) -> tuple[int, int]:
    if card == pack.matto:
        return (0, 0)
    return (_SUIT_ORDER[pack.suit[card]], -card)


def sorted_hand(mask: int, pack: Pack = PIEDICAVALLO.pack) -> list[int]:
    """A hand as the player sees it: trumps together, suits by rank."""
    return sorted(mask_cards(mask), key=lambda c: sort_key(c, pack))


# --- seats ----------------------------------------------------------------------

SOUTH_Y = 112
NORTH_Y = HEIGHT - 64
SIDE_X = 64
CENTRE = (WIDTH // 2, 398)


def hand_places(seat: int, n: int, face_up: bool, raised: frozenset[int] = frozenset()) -> list[Place]:
    """Places of the n cards of ``seat``'s hand, left to right as that hand is shown.

    South (and any seat shown face up in South's place) fans wide and large; the
    others are compact rows of smaller cards, East and West turned sideways.
    ``raised`` holds indexes lifted by ``RAISE`` (South's legal cards).
    """
    if n == 0:
        return []
    out = []
    # Cards at rest sit on whole pixels and are not turned (except by quarter
    # turns), so they are drawn 1:1: see constants.HAND_SCALE.
    if seat == 0:
        # 16 or 17 cards (the dealer's) close up so the hand keeps clear of the labels
        step = min(SOUTH_STEP, (880 - 96) // max(n - 1, 1))
        x0 = round(WIDTH / 2 - step * (n - 1) / 2)
        mid = (n - 1) / 2
        for i in range(n):
            d = i - mid
            y = round(SOUTH_Y - 0.22 * d * d) + (RAISE if i in raised else 0)
            out.append(Place(x0 + step * i, y, 0.0, HAND_SCALE, face_up, 100 + i))
        return out
    scale = SMALL_SCALE if not face_up else OPEN_SCALE
    step = 20 if not face_up else 26
    # A hidden hand is anchored where a 15-card hand would start, so a card played
    # from it leaves the others where they are (and the hand stays one fan image).
    m = n if face_up else 15
    if seat == 2:
        x0 = round(WIDTH / 2 - step * (m - 1) / 2)
        for i in range(n):
            out.append(Place(x0 + step * i, NORTH_Y, 180.0 if not face_up else 0.0, scale, face_up, 100 + i))
        return out
    # East (1) at the right, West (3) at the left; top to bottom.
    x = WIDTH - SIDE_X if seat == 1 else SIDE_X
    if face_up:
        # Shown open (watch mode, replays): columns of at most 9, the second to the
        # right of the first, so every corner index stays in view and a long hand
        # does not run into the seat's label.
        per = n if n <= 9 else (n + 1) // 2
        x0 = x - 26 + (14 if seat == 3 else 0)
        y0 = round(CENTRE[1] + step * (per - 1) / 2)
        return [
            Place(x0 + 40 * (i // per), y0 - step * (i % per), 0.0, scale, True, 100 + i)
            for i in range(n)
        ]
    y0 = round(CENTRE[1] + step * (m - 1) / 2)
    angle = 90.0 if seat == 1 else -90.0
    for i in range(n):
        out.append(Place(x, y0 - step * i, angle if not face_up else 0.0, scale, face_up, 100 + i))
    return out


# Where a seat's card lies in the trick (offset from the centre toward the seat).
_TRICK_OFFSETS = ((0, -66), (96, 4), (4, 70), (-96, -4))


def trick_place(seat: int, order: int, highlight: bool = False) -> Place:
    dx, dy = _TRICK_OFFSETS[seat]
    scale = TRICK_SCALE * (1.08 if highlight else 1.0)
    return Place(round(CENTRE[0] + dx), round(CENTRE[1] + dy), 0.0, scale, True, 300 + order)


# Team piles: {South, North} bottom right, {East, West} top right.
PILE_POS = ((WIDTH - 90, 100), (WIDTH - 90, HEIGHT - 76))
DISCARD_OFFSET = (0, 0)  # the discard lies across under its team's pile


def pile_place(team: int, i: int, n: int = 0) -> Place:
    """The i-th of n cards of a team's pile: a face-down stack growing by trick;
    only the top few are drawn."""
    x, y = PILE_POS[team]
    k = i // 4
    return Place(x + k // 2, y + k, 90.0, PILE_SCALE, False, 10 + i, i < n - 3)


def discard_place(dealer_team: int, i: int) -> Place:
    x, y = PILE_POS[dealer_team]
    return Place(x + DISCARD_OFFSET[0] - 6 + 12 * i, y + DISCARD_OFFSET[1], 0.0, PILE_SCALE, False, 5 + i)


# Where the dealer handles the pack (between the dealer and the centre).
DECK_POS = ((WIDTH // 2 - 190, 262), (WIDTH - 220, CENTRE[1] - 120), (WIDTH // 2 + 190, HEIGHT - 185), (220, CENTRE[1] + 120))


def deck_place(dealer: int, i: int, face_up: bool = False) -> Place:
    """The i-th card from the bottom of the pack: four cards to each place, so the
    ones under the top of each four are not drawn (``TableScene._cull_covered``)."""
    x, y = DECK_POS[dealer if dealer >= 0 else 0]
    return Place(x - i // 4, y + i // 4, 0.0, DECK_SCALE, face_up, 20 + i)


# Labels: a seat's name (and below it level and card count), the dealer marker.
LABEL_POS = ((92, 122), (WIDTH - 92, 212), (WIDTH // 2 + 292, NORTH_Y + 8), (92, 212))
DEALER_MARK_POS = ((92, 64), (WIDTH - 160, 262), (WIDTH // 2 + 292 + 102, NORTH_Y), (160, 262))
STATUS_POS = (WIDTH / 2, 250)  # the one-line message above South's hand
SCORE_POS = ((18, HEIGHT - 92), (18, HEIGHT - 118))  # team points, under the buttons
# the discard's trump count, right-aligned under (or over) the discard
TRUMP_NOTE_POS = ((WIDTH - 10, 34), (WIDTH - 10, HEIGHT - 146))


def button_rects(n: int) -> list[tuple[float, float, float, float]]:
    """Icon buttons along the top left: (centre x, centre y, width, height)."""
    size, gap = 44, 8
    return [(16 + size / 2 + i * (size + gap), HEIGHT - 16 - size / 2, size, size) for i in range(n)]


def in_rect(x: float, y: float, rect: tuple[float, float, float, float]) -> bool:
    cx, cy, w, h = rect
    return abs(x - cx) <= w / 2 and abs(y - cy) <= h / 2


# --- a whole table --------------------------------------------------------------


def table_places(
    state,
    face_up_seats: frozenset[int] | set[int] = frozenset({0}),
    raised: frozenset[int] | set[int] = frozenset(),
    highlight: int | None = None,
) -> dict[Key, Place]:
    """Key -> place of every one of the 62 cards for an engine ``State``.

    Only the hands of ``face_up_seats`` are read; the others are shown by their
    size alone, as anonymous backs (the table never peeks at a hidden hand).
    The discard is known only if the dealer's seat is face up.
    ``raised`` lifts those cards of South's hand; ``highlight`` enlarges a trick card.
    """
    out: dict[Key, Place] = {}
    if state.deal_no == 0:
        for i in range(62):
            out[("back", "deck", i)] = deck_place(0, i)
        return out
    trick_mask = 0
    for order, (seat, card) in enumerate(zip(state.trick_seats, state.trick, strict=True)):
        out[("card", card)] = trick_place(seat, order, card == highlight)
        trick_mask |= 1 << card
    for seat in range(4):
        hand = state.hands[seat]
        if seat in face_up_seats:
            cards = sorted_hand(hand, state.rules.pack)
            idx = frozenset(i for i, c in enumerate(cards) if c in raised) if seat == 0 else frozenset()
            for c, p in zip(cards, hand_places(seat, len(cards), True, idx), strict=True):
                out[("card", c)] = p
        else:
            for i, p in enumerate(hand_places(seat, hand.bit_count(), False)):
                out[("back", seat, i)] = p
    for team in (0, 1):
        pile = mask_cards(state.piles[team] & ~trick_mask)
        for i, c in enumerate(pile):
            out[("card", c)] = pile_place(team, i, len(pile))
    if state.discard_trumps >= 0 and state.dealer >= 0:
        dteam = state.dealer & 1
        if state.dealer in face_up_seats:
            for i, c in enumerate(mask_cards(state.discard)):
                out[("card", c)] = discard_place(dteam, i)
        else:
            for i in range(2):
                out[("back", "discard", i)] = discard_place(dteam, i)
    return out


def point_in_place(x: float, y: float, place: Place) -> bool:
    """Whether a point lies on a card drawn at ``place`` (rotation included)."""
    import math

    w, h = card_size(place.scale)
    a = math.radians(place.angle)
    dx, dy = x - place.x, y - place.y
    # arcade turns sprites clockwise by ``angle``; undo that turn.
    lx = dx * math.cos(a) - dy * math.sin(a)
    ly = dx * math.sin(a) + dy * math.cos(a)
    return abs(lx) <= w / 2 and abs(ly) <= h / 2
