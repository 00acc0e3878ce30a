"""Pure geometry of the tables (no window): the three-seat table's long hands are
readable and every card clickable at 1280x720, and every card of the pack has
one place, the hidden ones as backs."""

from __future__ import annotations

import pytest

from engine.game import Game
from engine.ruleset import ruleset
from engine.state import DISCARD, PLAY, first_dealer
from game import layout
from game.constants import CARD_H, HEIGHT, PILE_SCALE, WIDTH
from game.position import seen_by


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
