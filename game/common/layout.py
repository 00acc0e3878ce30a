"""Pure geometry of the table at the logical 1280x720 size (no GPU, no arcade).

Everything the renderer places comes from here: where each seat's hand fans,
where the trick's cards lie, the piles, the deck, the labels; and the
letterbox that maps any window size onto the 16:9 logical screen.

A *place* is ``Place(x, y, angle, scale, face_up, z)``; a *key* names what a
sprite shows: ``("card", c)`` for a known card, ``("back", owner, i)`` for the
i-th unknown card of a hand (owner = seat), of the discard (owner = "discard"),
of the stock (owner = "stock") or of the undealt pack (owner = "deck").
Seats sit at *spots* on the screen (:func:`spot`): the viewer at the bottom,
then anticlockwise; a three-seat table leaves the top free.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from engine.cards import TRUMP_SUIT, Pack, mask_cards
from engine.ruleset import Ruleset
from game.common.constants import (
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
from game.common.position import Position

#: what a sprite shows: ``("card", c)``, or ``("back", owner, i)`` with owner a seat,
#: "discard", "stock" or "deck" (see the module)
Key = tuple[Any, ...]


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


# --- the player's hand order ----------------------------------------------------

# Matto first, trumps high to low, then suits alternating in colour, high to low.
_SUIT_ORDER = {TRUMP_SUIT: 1, 0: 2, 2: 3, 1: 4, 3: 5}


def sort_key(card: int, pack: Pack) -> tuple[int, int]:
    if card == pack.matto:
        return (0, 0)
    return (_SUIT_ORDER[pack.suit[card]], -card)


def sorted_hand(mask: int, pack: Pack) -> list[int]:
    """A hand as the player sees it: trumps together (strongest first), suits by rank."""
    return sorted(mask_cards(mask), key=lambda c: sort_key(c, pack))


# --- seats ----------------------------------------------------------------------

# Where a seat sits on the screen.  The viewer is always at the bottom and play
# runs anticlockwise: the next seat is on the right (R2, S1).
BOTTOM, RIGHT, TOP, LEFT = 0, 1, 2, 3
_SPOTS = {4: (BOTTOM, RIGHT, TOP, LEFT), 3: (BOTTOM, RIGHT, LEFT)}


def spot(n_seats: int, seat: int, bottom: int = 0) -> int:
    """The place on the screen of ``seat`` at a table of ``n_seats`` whose seat
    ``bottom`` is drawn at the bottom."""
    return _SPOTS[n_seats][(seat - bottom) % n_seats]


#: The bottom hand: its lower edge runs off the bottom of the screen (the cards are
#: double-ended: the top index is what is read), which leaves room above it for
#: the hint figures and the status line under the trick.
SOUTH_Y = 92
NORTH_Y = HEIGHT - 64
SIDE_X = 64
SIDE_Y = 398  # the middle of the side hands' columns
#: the middle of the trick; the lamp of the felt hangs over it (art/generate.py)
CENTRE = (WIDTH // 2, 426)
#: the player's hand keeps within this span (centres of its first and last card)
#: once it is longer than 17 cards: clear of the labels on the left and the pile
SOUTH_SPAN = 940 - 104


def _bottom_places(n: int, face_up: bool, raised: frozenset[int]) -> list[Place]:
    # Cards at rest sit on whole pixels and are not turned (except by quarter
    # turns), so they are drawn 1:1: see constants.HAND_SCALE.
    if n <= 17:  # 16 or 17 cards (the dealer's) close up to keep clear of the labels
        step = min(SOUTH_STEP, (880 - 96) // max(n - 1, 1))
    else:  # Scarto's 25 (28 while the dealer lays three aside): a tighter, flatter arc
        step = SOUTH_SPAN // (n - 1)
    x0 = round(WIDTH / 2 - step * (n - 1) / 2)
    mid = (n - 1) / 2
    # the arc sags 14 px at the ends; neighbours stay within BAND_H of each other
    sag = 0.22 if mid <= 8 else 14 / (mid * mid)
    out = []
    for i in range(n):
        d = i - mid
        y = round(SOUTH_Y - sag * d * d) + (RAISE if i in raised else 0)
        out.append(Place(x0 + step * i, y, 0.0, HAND_SCALE, face_up, 100 + i))
    return out


#: Where an open side hand (the theatre, watch mode) lies, in table coordinates:
#: left, bottom, right, top of the left seat's block; the right one's is its mirror image.
#: Left and right: from the table's edge to short of the theatre's tricks panel
#: (its left edge, 216 on the screen, is table x 179 through the theatre's 0.92
#: zoom); bottom: over the seat's plate (top 223); top: under Scarto's left pile
#: and its outline (bottom 558), Piedicavallo's team points and the right note of the
#: trumps discarded (567).
OPEN_SIDE_BOX = (6.0, 228.0, 168.0, 552.0)
#: an open side card shows at least this much of its top (the corner index, rank
#: and sign, is 23 px tall at OPEN_SCALE) and the columns are at most
#: OPEN_COL_GAP apart, at most OPEN_STEP_MAX between rows
OPEN_STEP_MIN = 32
OPEN_STEP_MAX = 44
OPEN_COL_GAP = 6


def open_side_grid(n: int) -> tuple[int, int, float, float]:
    """The grid of an open side hand of ``n`` cards: (columns, cards per column,
    step between columns, step between rows).

    The fewest columns that leave each card at least ``OPEN_STEP_MIN`` of its top in
    view: up to 7 cards are one column, up to 14 two, Piedicavallo's 15 to 17 three,
    Scarto's 25 to 28 four.  Columns overlap only as much as the box needs (two columns lie
    side by side), so each card shows its top-left corner, the index, whole."""
    w, h = card_size(OPEN_SCALE)
    left, bottom, right, top = OPEN_SIDE_BOX
    room_x, room_y = right - left - w, top - bottom - h
    cols = 1
    while (per := -(-n // cols)) > 1 and room_y / (per - 1) < OPEN_STEP_MIN:
        cols += 1
    dx = min(w + OPEN_COL_GAP, room_x / (cols - 1)) if cols > 1 else 0.0
    dy = min(OPEN_STEP_MAX, room_y / (per - 1)) if per > 1 else 0.0
    return cols, per, dx, dy


def _open_side_places(where: int, n: int) -> list[Place]:
    """An open side hand: columns left to right, each top to bottom; a card covers the
    bottom of the one above it and a column the right part of the one before, so every
    card keeps its top-left corner (the index) in view.  The left block starts at the
    table's left edge, the right one ends at its right edge; both are centred on the box's
    height."""
    cols, per, dx, dy = open_side_grid(n)
    w, _h = card_size(OPEN_SCALE)
    left, bottom, right, top = OPEN_SIDE_BOX
    if where == RIGHT:
        x0 = WIDTH - left - w / 2 - dx * (cols - 1)
    else:
        x0 = left + w / 2
    y0 = (bottom + top) / 2 + dy * (per - 1) / 2
    return [
        Place(round(x0 + dx * (i // per)), round(y0 - dy * (i % per)), 0.0, OPEN_SCALE, True, 100 + i)
        for i in range(n)
    ]


def hidden_step(rules_hand: int) -> int:
    """The step between the backs of a hidden hand: a 25-card hand closes up."""
    return 20 if rules_hand <= 17 else 10


def hand_places(where: int, n: int, face_up: bool, raised: frozenset[int] = frozenset(),
                full: int = 15) -> list[Place]:
    """Places of the n cards of the hand at ``where``, left to right as it is shown.

    The bottom hand (the viewer's) fans wide and large; the others are compact
    rows of smaller cards, right and left turned sideways (shown open, right and
    left lie in columns: :func:`_open_side_places`).  ``raised`` holds
    indexes lifted by ``RAISE`` (the viewer's legal cards); ``full`` is the size
    of a hand as dealt (15 or 25), where a hidden hand is anchored.
    """
    if n == 0:
        return []
    if where == BOTTOM:
        return _bottom_places(n, face_up, raised)
    scale = SMALL_SCALE if not face_up else OPEN_SCALE
    step: float = hidden_step(full) if not face_up else 26
    if where == TOP and face_up and n > 15:
        step = 24  # the dealer's 17 close up, clear of the theatre's buttons
    # A hidden hand is anchored where a full hand would start, so a card played
    # from it leaves the others where they are (and the hand stays one fan image);
    # the dealer's longer hand before its discard closes up within that length,
    # clear of its own name plate
    m = n if face_up else full
    reach = step * (m - 1)  # from the first card's centre to the last one's
    if not face_up and n > full > 1:
        step = reach / (n - 1)
    if where == TOP:
        x0 = round(WIDTH / 2 - reach / 2)
        out = []
        for i in range(n):
            out.append(Place(round(x0 + step * i), NORTH_Y, 180.0 if not face_up else 0.0, scale, face_up, 100 + i))
        return out
    if face_up:
        return _open_side_places(where, n)
    x = WIDTH - SIDE_X if where == RIGHT else SIDE_X
    y0 = round(SIDE_Y + reach / 2)
    angle = 90.0 if where == RIGHT else -90.0
    return [Place(x, round(y0 - step * i), angle, scale, False, 100 + i) for i in range(n)]


# Where a seat's card lies in the trick: off the centre toward the seat; the bottom
# and top cards overlap a little (each keeps one of its two corner indices in view).
# The bottom card a little left, the side ones further out: each card's index (its
# top-left corner) stays in view whoever plays last, the top card over the bottom one too
_TRICK_OFFSETS = ((-20, -60), (110, 2), (4, 62), (-110, -2))
#: the card that takes the trick keeps its size (its gold glow marks it): lifted to
#: the bottom seat's size, the top card covered the index of the bottom card below it
LIFT = 1.0


def trick_place(where: int, order: int, highlight: bool = False) -> Place:
    """The place of the ``order``-th card of the trick, played from ``where``;
    ``highlight``: the card that takes the trick, over the others."""
    dx, dy = _TRICK_OFFSETS[where]
    scale = TRICK_SCALE * (LIFT if highlight else 1.0)
    return Place(round(CENTRE[0] + dx), round(CENTRE[1] + dy), 0.0, scale, True,
                 300 + order + (10 if highlight else 0))


#: the ring round the trick (centre x, centre y, half width, half height) and where on
#: it the arrows of the direction of play lie, by table size (degrees anticlockwise
#: from the right: between each seat and the next, anticlockwise)
RING = (CENTRE[0], CENTRE[1], 216.0, 160.0)
RING_ARROWS = {4: (-45.0, 45.0, 135.0, 225.0), 3: (-40.0, 90.0, 220.0)}

# Name plates: a seat's name, level and card count, with a token holding the
# seat's letter (or the dealer's chip) on the left.
PLATE_W, PLATE_H = 170, 46
SOUTH_PLATE_W = 162  # ends before the first card of a 28-card hand
TOKEN_R = 15


class Geometry(NamedTuple):
    """Where a table of ``n`` seats puts its furniture (by screen spot, or by side)."""

    pile_pos: tuple[tuple[int, int], ...]  # by side
    score_pos: tuple[tuple[int, int], ...]  # by side: its points and tricks
    label_pos: tuple[tuple[int, int], ...]  # by spot: the middle of the seat's name plate
    dealer_mark_pos: tuple[tuple[int, int], ...]  # by spot: the plate's token (the dealer's chip)
    trump_note_pos: tuple[tuple[int, int], ...]  # by side


# Plates: the bottom seat's left of its hand, the side seats' under their columns, the top seat's
# right of its row (further right where its hand may be shown open: the theatre).
_PLATES = ((6 + SOUTH_PLATE_W // 2, 58), (WIDTH - 6 - PLATE_W // 2, 200),
           (826 + PLATE_W // 2, NORTH_Y + 8), (6 + PLATE_W // 2, 200))
_OPEN_NORTH_PLATE = (884 + PLATE_W // 2, NORTH_Y + 8)


def _tokens(plates: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    out = []
    for spot_, (x, y) in enumerate(plates):
        w = SOUTH_PLATE_W if spot_ == BOTTOM else PLATE_W
        out.append((round(x - w / 2 + 6 + TOKEN_R), y))
    return tuple(out)


GEOMETRY = {
    # Team piles: the bottom seat's team bottom right, the other top right; the team
    # points under the buttons (the space between them and the buttons is left for
    # the buttons' tooltips).
    4: Geometry(
        pile_pos=((WIDTH - 90, 100), (WIDTH - 90, HEIGHT - 76)),
        score_pos=((18, HEIGHT - 108), (18, HEIGHT - 132)),
        label_pos=_PLATES,
        dealer_mark_pos=_tokens(_PLATES),
        # the discard's trump count, right-aligned under (or over) the discard
        trump_note_pos=((WIDTH - 10, 34), (WIDTH - 10, HEIGHT - 142)),
    ),
    # Each for themselves: each seat's pile beside it (the viewer's bottom right,
    # the right seat's top right, the left seat's top left under the buttons); the points of each
    # along the top, where a fourth player would sit.
    3: Geometry(
        pile_pos=((WIDTH - 90, 100), (WIDTH - 90, HEIGHT - 76), (90, HEIGHT - 130)),
        score_pos=((WIDTH // 2 - 130, HEIGHT - 26), (WIDTH // 2 - 130, HEIGHT - 50),
                   (WIDTH // 2 - 130, HEIGHT - 74)),
        label_pos=_PLATES,
        dealer_mark_pos=_tokens(_PLATES),
        trump_note_pos=((WIDTH - 10, 34), (WIDTH - 10, HEIGHT - 142), (10, HEIGHT - 200)),
    ),
}


def geometry(n_seats: int) -> Geometry:
    return GEOMETRY[n_seats]


class Seating:
    """A table seen from one seat: ``bottom``, the seat drawn at the bottom (the
    viewer), the others anticlockwise from it in the order of play, each keeping
    its own name.  Each side's pile, points and trump note lie where
    :data:`GEOMETRY` puts those of the side sitting at the same spots: the bottom
    seat's side bottom right, first in the points."""

    def __init__(self, rules: Ruleset, bottom: int = 0) -> None:
        n = rules.n_seats
        self.rules = rules
        self.bottom = bottom
        #: by seat: its spot on the screen
        self.spots = tuple(spot(n, s, bottom) for s in range(n))
        slots = [0] * rules.n_sides  # by side: the side of GEOMETRY's table seen from seat 0
        for s in range(n):
            slots[rules.side[s]] = rules.side[(s - bottom) % n]
        geo = GEOMETRY[n]
        #: by side: where its pile lies, its points and tricks, its trump note
        self.pile_pos = tuple(geo.pile_pos[k] for k in slots)
        self.score_pos = tuple(geo.score_pos[k] for k in slots)
        self.trump_note_pos = tuple(geo.trump_note_pos[k] for k in slots)

    def spot(self, seat: int) -> int:
        return self.spots[seat]


def plate_rect(n_seats: int, where: int, open_hands: bool = False) -> tuple[float, float, float, float]:
    """The name plate of the seat at ``where``: left, bottom, right, top."""
    x, y = _OPEN_NORTH_PLATE if (where == TOP and open_hands) else GEOMETRY[n_seats].label_pos[where]
    w = SOUTH_PLATE_W if where == BOTTOM else PLATE_W
    return x - w / 2, y - PLATE_H / 2, x + w / 2, y + PLATE_H / 2


def token_pos(n_seats: int, where: int, open_hands: bool = False) -> tuple[float, float]:
    """The middle of the plate's token (the seat's letter, or the dealer's chip)."""
    left, bottom, _right, top = plate_rect(n_seats, where, open_hands)
    return left + 6 + TOKEN_R, (bottom + top) / 2


def pile_place(pile_pos: tuple[int, int], i: int, n: int = 0) -> Place:
    """The i-th of n cards of a pile: a face-down stack growing by trick; only the
    top few are drawn."""
    x, y = pile_pos
    k = i // 4
    return Place(x + k // 2, y + k, 90.0, PILE_SCALE, False, 10 + i, i < n - 3)


def discard_place(pile_pos: tuple[int, int], i: int) -> Place:
    """The discard lies across under the dealer's pile."""
    x, y = pile_pos
    return Place(x - 6 + 12 * i, y, 0.0, PILE_SCALE, False, 5 + i)


def stock_place(i: int) -> Place:
    """The stock, face down in the middle of the table until the dealer takes it (S4)."""
    cx, cy = CENTRE
    return Place(cx - 26 + 26 * i, cy, 0.0, DECK_SCALE, False, 250 + i)


# Where the dealer handles the pack (between the dealer and the centre), by spot.
DECK_POS = ((WIDTH // 2 - 190, 262), (WIDTH - 220, CENTRE[1] - 120), (WIDTH // 2 + 190, HEIGHT - 185), (220, CENTRE[1] + 120))


def deck_place(where: int, i: int, face_up: bool = False) -> Place:
    """The i-th card from the bottom of the pack: four cards to each place, so the
    ones under the top of each four are not drawn (``TableScene._cull_covered``)."""
    x, y = DECK_POS[where if where >= 0 else 0]
    return Place(x - i // 4, y + i // 4, 0.0, DECK_SCALE, face_up, 20 + i)


# Labels: a seat's name (and below it level and card count), the dealer marker.
LABEL_POS = _PLATES
DEALER_MARK_POS = _tokens(_PLATES)
#: the one-line message between the bottom hand and the trick
STATUS_POS = (WIDTH / 2, 260)
#: the status line's text at most this wide (smaller type past it): its pill stays
#: clear of the side hands' columns (SIDE_X, a card and a margin each side)
STATUS_MAX_W = WIDTH - 2 * (SIDE_X + 66) - 32
STATUS_H = 30
#: announcements and "who takes the trick", between the trick and the top hand
TOP_SLOT = (WIDTH / 2, 592)
SLOT_H = 28
PILE_POS = GEOMETRY[4].pile_pos
SCORE_POS = GEOMETRY[4].score_pos
#: the last trick shown again: a panel over the trick (left, bottom, right, top by seats)
OVERLAY_W = {4: 452, 3: 352}
OVERLAY_Y = (300, 560)


def overlay_rect(n_seats: int) -> tuple[float, float, float, float]:
    w = OVERLAY_W[n_seats]
    return CENTRE[0] - w / 2, OVERLAY_Y[0], CENTRE[0] + w / 2, OVERLAY_Y[1]


def overlay_card_x(n_seats: int, i: int) -> float:
    """The middle of the i-th card (in play order) of the last trick shown again."""
    step = 84 + 20
    return CENTRE[0] + (i - (n_seats - 1) / 2) * step


def button_rects(n: int, size: float = 40, gap: float = 6) -> list[tuple[float, float, float, float]]:
    """Icon buttons along the top left: (centre x, centre y, width, height)."""
    return [(16 + size / 2 + i * (size + gap), HEIGHT - 16 - size / 2, size, size) for i in range(n)]


def hint_place(card_left: float, card_top: float, strip: float, i: int) -> tuple[float, float, bool]:
    """Where a hint figure stands over a card of the bottom hand: its middle, and whether
    it is set small.  Over the strip its right neighbour leaves in view, just above the
    card's top edge; where the strips are narrower than a figure (a 25-card hand),
    every other figure stands a row higher."""
    close = strip < 44
    x = card_left + strip / 2
    y = card_top + 12 + (HINT_ROW if close and i % 2 else 0)  # clear of the index under it
    return x, y, close


HINT_ROW = 20  # a digit and a half: clear of the neighbour also where the arc drops ~3 px a card


def in_rect(x: float, y: float, rect: tuple[float, float, float, float]) -> bool:
    cx, cy, w, h = rect
    return abs(x - cx) <= w / 2 and abs(y - cy) <= h / 2


# --- a whole table --------------------------------------------------------------


def table_places(
    pos: Position,
    raised: frozenset[int] | set[int] = frozenset(),
    highlight: int | None = None,
    bottom: int = 0,
) -> dict[Key, Place]:
    """Key -> place of every card of the pack for a :class:`~game.common.position.Position`
    seen with seat ``bottom`` at the bottom (:class:`Seating`).

    A hand is shown face up when the position holds it (the seats it was seen
    by); the others are shown by their size alone, as anonymous backs.  The
    discard and the stock are known only where a shown seat dealt.  ``raised``
    lifts those cards of the bottom hand; ``highlight`` lifts a trick card (by
    default, once every seat has played, the one that takes the trick).
    """
    rules = pos.rules
    pack = rules.pack
    n_seats = rules.n_seats
    seating = Seating(rules, bottom)
    out: dict[Key, Place] = {}
    if pos.deal_no == 0:
        for i in range(pack.n_cards):
            out[("back", "deck", i)] = deck_place(BOTTOM, i)
        return out
    trick_mask = 0
    if highlight is None and len(pos.trick) == n_seats:  # complete: the card that takes it is lifted
        highlight = pos.trick[rules.trick_winner_index(pos.trick)]
    for order, (seat, card) in enumerate(zip(pos.trick_seats, pos.trick, strict=True)):
        out[("card", card)] = trick_place(seating.spot(seat), order, card == highlight)
        trick_mask |= 1 << card
    for seat in range(n_seats):
        out.update(_hand_places(pos, seat, seating.spot(seat), raised))
    for side in range(rules.n_sides):
        pile = mask_cards(pos.piles[side] & ~trick_mask)
        for i, c in enumerate(pile):
            out[("card", c)] = pile_place(seating.pile_pos[side], i, len(pile))
    if pos.stock_out:
        if pos.stock:
            for i, c in enumerate(mask_cards(pos.stock)):
                out[("card", c)] = stock_place(i)
        else:
            for i in range(rules.stock_cards):
                out[("back", "stock", i)] = stock_place(i)
    if pos.discarded and pos.dealer >= 0:
        where_pile = seating.pile_pos[rules.side[pos.dealer]]
        if pos.discard is not None:
            for i, c in enumerate(mask_cards(pos.discard)):
                out[("card", c)] = discard_place(where_pile, i)
        else:
            for i in range(rules.discard_cards):
                out[("back", "discard", i)] = discard_place(where_pile, i)
    return out


def _hand_places(pos: Position, seat: int, where: int, raised: frozenset[int] | set[int]) -> dict[Key, Place]:
    """Key -> place of the cards of ``seat``'s hand, shown at ``where``: face up
    where ``pos`` holds the hand (``raised`` lifted at the bottom), else backs."""
    rules = pos.rules
    hand = pos.hands[seat]
    if hand is None:
        places = hand_places(where, pos.hand_sizes[seat], False, full=rules.hand_cards)
        return {("back", seat, i): p for i, p in enumerate(places)}
    cards = sorted_hand(hand, rules.pack)
    idx = frozenset(i for i, c in enumerate(cards) if c in raised) if where == BOTTOM else frozenset()
    return {("card", c): p for c, p in zip(cards, hand_places(where, len(cards), True, idx), strict=True)}


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
