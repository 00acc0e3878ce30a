"""Pure geometry of the tables (no window): the three-seat table's long hands are
readable and every card clickable at 1280x720, and every card of the pack has
one place, the hidden ones as backs."""

from __future__ import annotations

import pytest

from engine.game import Game
from engine.ruleset import ruleset
from engine.state import DISCARD, PLAY, first_dealer
from game.common import layout
from game.common.constants import CARD_H, HEIGHT, PILE_SCALE, WIDTH
from game.common.position import seen_by


def topmost(places, x: float, y: float):
    hits = [(p.z, i) for i, p in enumerate(places) if layout.point_in_place(x, y, p)]
    return max(hits)[1] if hits else None


@pytest.mark.parametrize("n", [15, 17, 25, 28])
def test_every_card_of_a_long_hand_shows_its_corner_and_takes_its_click(n: int) -> None:
    places = layout.hand_places(layout.BOTTOM, n, True)
    w = layout.card_size(places[0].scale)[0]
    steps = {b.x - a.x for a, b in zip(places, places[1:], strict=False)}
    assert len(steps) == 1 and min(steps) >= 30  # a strip wide enough for the index and a finger
    for i, p in enumerate(places):
        assert w / 2 <= p.x <= WIDTH - w / 2 and CARD_H * p.scale / 2 - 20 <= p.y  # on the screen
        strip = min(steps) if i < n - 1 else w
        x = p.x - w / 2 + strip / 2  # the middle of the part left uncovered
        for y in (p.y + 60, p.y, p.y - 60):
            assert topmost(places, x, y) == i, (n, i, y)
    # neighbours stay within the strips' bands (the resting hand is drawn as strips)
    assert all(abs(b.y - a.y) <= 4 for a, b in zip(places, places[1:], strict=False))


def test_the_three_seat_hand_clears_the_labels_and_the_pile() -> None:
    geo = layout.geometry(3)
    places = layout.hand_places(layout.BOTTOM, 28, True)
    w, _h = layout.card_size(places[0].scale)
    left, right = places[0].x - w / 2, places[-1].x + w / 2
    label_x = geo.label_pos[layout.BOTTOM][0]
    assert label_x + 70 < left  # "28 cards" under "You" ends before the first card
    pile_x = geo.pile_pos[0][0]
    pile_w = layout.card_size(PILE_SCALE)[1]  # a pile card lies turned: as wide as a card is tall
    assert right < pile_x - pile_w / 2 - 7  # clear of the pile and its outline


def _scarto_game(dealer: int) -> Game:
    rules = ruleset("scarto")
    seed = next(s for s in range(1, 500) if first_dealer(s, rules) == dealer)
    return Game(seed, 1, ["random"] * 3, rules=rules)


@pytest.mark.parametrize("dealer", [0, 1])
def test_a_scarto_position_places_all_78_cards_and_hides_the_others(dealer: int) -> None:
    g = _scarto_game(dealer)
    st = g.state
    assert st.phase == DISCARD
    pos = seen_by(st, {0})
    places = layout.table_places(pos)
    assert len(places) == 78
    cards = {k[1] for k in places if k[0] == "card"}
    assert cards == set(layout.mask_cards(st.hands[0]))  # only South's hand is known
    out = pos.with_stock_out()
    places = layout.table_places(out)
    assert len(places) == 78
    stock = [p for p in places.values() if p.z >= 250 and p.z < 300]
    assert len(stock) == 3 and not any(p.face_up for p in stock)  # face down in the middle
    if dealer == 0:
        assert {k[1] for k, p in places.items() if p in stock} == set(layout.mask_cards(st.stock))
    else:
        assert {k for k, p in places.items() if p in stock} == {("back", "stock", i) for i in range(3)}
    g.submit(g.legal()[0])
    pos = seen_by(g.state, {0})
    assert pos.phase == PLAY
    places = layout.table_places(pos)
    assert len(places) == 78
    discard = [k for k in places if k[0] == "back" and k[1] == "discard"]
    assert len(discard) == (0 if dealer == 0 else 3)


def test_hidden_side_hands_of_25_stay_between_the_labels_and_the_piles() -> None:
    geo = layout.geometry(3)
    for where in (layout.RIGHT, layout.LEFT):
        places = layout.hand_places(where, 28, False, full=25)
        ys = [p.y for p in places]
        top, bottom = max(ys) + 27, min(ys) - 27  # sideways: 54 px tall
        assert bottom > geo.label_pos[where][1] + 8  # the seat's label under it
        assert top < HEIGHT - 130 - 31  # the piles above it (West's under the buttons)


# --- the side hands shown open (the theatre, watch mode) ------------------------------


def _rect(p) -> tuple[float, float, float, float]:
    """left, bottom, right, top of an unturned card."""
    w, h = layout.card_size(p.scale)
    return p.x - w / 2, p.y - h / 2, p.x + w / 2, p.y + h / 2


def _meet(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _index_corner(p) -> tuple[float, float, float, float]:
    """The card's top-left index (rank and sign), measured on the art itself."""
    from art.generate import INDEX_BOX, SIGN_CENTRE, SIGN_R, H, W

    left, _bottom, _right, top = _rect(p)
    w, h = layout.card_size(p.scale)
    return left, top - h * (SIGN_CENTRE[1] + SIGN_R) / H, left + w * INDEX_BOX[2] / W, top


# Piedicavallo's hands run to 17 (the dealer's, before the discard); Scarto's to 28.
OPEN_SIZES = [(4, n) for n in range(1, 18)] + [(3, n) for n in range(1, 29)]


@pytest.mark.parametrize("where", [layout.LEFT, layout.RIGHT])
@pytest.mark.parametrize(("n_seats", "n"), OPEN_SIZES)
def test_an_open_side_hand_shows_every_index_and_keeps_to_its_side(where: int, n_seats: int, n: int) -> None:
    places = layout.hand_places(where, n, True)
    assert len(places) == n and len({(p.x, p.y) for p in places}) == n  # no two cards coincide
    assert all(p.face_up and p.angle == 0 for p in places)
    for i, p in enumerate(places):
        left, bottom, right, top = _rect(p)
        assert 0 <= left and right <= WIDTH and 0 <= bottom and top <= HEIGHT  # on the table
        corner = _index_corner(p)
        over = [q for q in places if q.z > p.z and _meet(_rect(q), corner)]
        assert not over, (n, i)  # nothing covers the card's index
        # every card also takes its click on its index
        cx, cy = (corner[0] + corner[2]) / 2, (corner[1] + corner[3]) / 2
        assert topmost(places, cx, cy) == i
    rects = [_rect(p) for p in places]
    # the seat's name plate under the hand, the piles, the trick and the other hands clear of it
    plate = layout.plate_rect(n_seats, where, open_hands=True)
    pw, ph = layout.card_size(PILE_SCALE)
    piles = [(x - ph / 2 - 8, y - pw / 2 - 8, x + ph / 2 + 8, y + pw / 2 + 8)  # turned, with the outline
             for x, y in layout.geometry(n_seats).pile_pos]
    others = [_rect(p) for k in (15, 17, 25, 28) for p in layout.hand_places(layout.BOTTOM, k, True)]
    others += [_rect(p) for p in layout.hand_places(layout.TOP, 17, True)]
    others += [_rect(layout.trick_place(w, 0, True)) for w in range(4)]
    cx, cy, rx, _ry = layout.RING
    for r in rects:
        assert not _meet(r, plate) and r[1] > plate[3]
        assert not any(_meet(r, b) for b in piles + others)
        assert r[2] < cx - rx or r[0] > cx + rx  # outside the ring round the trick
    # clear of the texts: the team points (West's side) and the note of the trumps
    # discarded (East's), both of them about 14 px tall round their middle
    geo = layout.geometry(n_seats)
    top = max(r[3] for r in rects)
    if where == layout.LEFT:
        assert all(top < y - 10 for _x, y in geo.score_pos if _x < 200)
    else:
        assert all(top < y - 10 for x, y in geo.trump_note_pos if x > WIDTH / 2 and y > HEIGHT / 2)


def test_open_side_hands_mirror_each_other_and_long_hands_use_more_columns() -> None:
    for n in (15, 17, 25, 28):
        west, east = layout.hand_places(layout.LEFT, n, True), layout.hand_places(layout.RIGHT, n, True)
        assert [p.y for p in west] == [p.y for p in east]
        assert abs((min(p.x for p in west) + max(p.x for p in east)) - WIDTH) <= 1
    cols = {n: len({p.x for p in layout.hand_places(layout.LEFT, n, True)}) for n in (5, 10, 15, 17, 25, 28)}
    assert cols == {5: 1, 10: 2, 15: 3, 17: 3, 25: 4, 28: 4}
    # each shows more of its cards than the old columns of 9 with a 26 px step did
    for n in (15, 17, 25, 28):
        _c, _per, dx, dy = layout.open_side_grid(n)
        assert dy >= 32 and dx >= 30


def test_the_live_tables_hidden_side_hands_are_unchanged() -> None:
    """Only the open hands moved: the backs of the live table lie where they did."""
    from game.common.constants import SMALL_SCALE

    for full, step in ((15, 20), (25, 10)):
        for where, x, angle in ((layout.LEFT, 64, -90.0), (layout.RIGHT, WIDTH - 64, 90.0)):
            y0 = round(398 + step * (full - 1) / 2)
            want = [layout.Place(x, y0 - step * i, angle, SMALL_SCALE, False, 100 + i) for i in range(full)]
            assert layout.hand_places(where, full, False, full=full) == want
            assert layout.hand_places(where, 5, False, full=full) == want[:5]


@pytest.mark.parametrize(("n_seats", "full", "dealer"), [(4, 15, 17), (3, 25, 28)])
def test_a_dealers_long_hidden_hand_closes_up_clear_of_its_plate(n_seats: int, full: int, dealer: int) -> None:
    """Before its discard the dealer holds more cards than were dealt to the others:
    its hidden hand keeps to the length of a dealt one, clear of its name plate."""
    wheres = (layout.RIGHT, layout.LEFT) + ((layout.TOP,) if n_seats == 4 else ())
    for where in wheres:
        dealt = layout.hand_places(where, full, False, full=full)
        long = layout.hand_places(where, dealer, False, full=full)
        assert long[0] == dealt[0] and (long[-1].x, long[-1].y) == (dealt[-1].x, dealt[-1].y)
        plate = layout.plate_rect(n_seats, where)
        for p in long:
            w, h = layout.card_size(p.scale)
            if p.angle % 180:
                w, h = h, w  # lying sideways
            card = (p.x - w / 2, p.y - h / 2, p.x + w / 2, p.y + h / 2)
            assert not _meet(card, plate), (where, p)
