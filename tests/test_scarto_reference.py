"""An independent reference of Scarto (RULES.md S1-S6, docs/REPLAY-FORMAT.md "Variant
scarto"), written from the rule book alone, against the engine's reader.

The reference (tests/support/reference_scarto.py) holds the rules in plain strings,
lists and sets (nothing from ``engine.ruleset``, ``engine.variants``,
``engine.state`` or the reader's code); it writes random legal Scarto files the way
another correct program might (its own shuffle and deal in packets of 5, keys in any
order, unknown keys, cards in any order, CRLF, no final newline, trailing blanks) and
reads files back as the spec says.  The engine is used only through ``parse_replay``
and ``python -m game.cli check --json``; its states are decoded with the card codes
the state carries (``rules.pack.codes``, data only).  The engine must accept every
legal file with the same position and counts, and refuse every breach at the same
line, citing the rule.  The checks of every random file and every single-mutation
breach, run for both games, are in tests/test_replay_reference.py; here: the
reference itself, whole games, the count in threes, and a refusal for every Scarto
rule.

Decisions where the rule book leaves room (each is a comment at the code too):

* D1 (S4) "trump 1 only if the dealer holds no other trump and no Matto": what the
  dealer holds is judged on the 28 cards before the discard, not on what remains
  after it.  So T1 thrown together with the dealer's only other trump is refused.
  (R6 says "after the discard" where it means that; S4 says "among the 28", and
  RULES.md reads it on the 28 cards the dealer holds when discarding.)
* D2 (S4) The three discarded cards may be any three of the dealer's 28 allowed ones,
  stock cards included ("possibly the same 3"); other trumps may go, any number.
* D3 (replay-format) The Scarto discard has the fields ``seat`` and ``cards`` only;
  a ``trumps`` key there is not a field of the variant, so (as for any key a reader
  does not know) it is ignored whatever its value.  S4: nothing about the discard
  is announced.
* D4 (S6, replay-format) A Scarto game is three deals.  A file without the engine's
  own ``deals`` header key is a (possibly unfinished) three-deal game; the engine
  writes ``"deals": 1`` for its single-deal files and the reference honours 1 and 3.
* D5 (S1, replay-format) ``players``, when present, must have three entries.
* D6 (S4) The deal is checked as a partition of the 78 cards: 25 to each seat, 3 to
  the stock (the stock goes to the dealer).  The packets of 5 cannot be checked from
  the hands (any partition is some shuffle dealt in packets of 5).
* D7 (S6) The count is done from the piles: the dealer's discard lies in the dealer's
  pile; the Matto counts alone (4) in its own player's pile; the other cards of a pile,
  in the order they were taken, go in threes; the winner of the Matto's trick is the
  one pile left with a group of two.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.replay import ReplayError, parse_replay
from tests.support import reference_scarto
from tests.support.reference_scarto import (
    KINGS,
    NEVER,
    PACK,
    PHASES,
    PIEDI_PACK,
    RefState,
    deal_packets,
    engine_summary,
    games,
    led_of,
    legal_discard_cards,
    legal_plays,
    outcome,
    points,
    ref_read,
    ref_step,
    singles,
    strength,
    suit,
    whole_games,
)
from tests.support.replay_reference import RefRefused, Written, cites, plain, render


def _cites(msg: str, rules: frozenset[str]) -> bool:
    return cites(reference_scarto, msg, rules)


# --- 0. the reference itself ----------------------------------------------------------


def test_reference_pack_and_ranks_as_the_rule_book_says() -> None:
    assert sum(points(c) for c in PACK) == 129  # S3
    assert points("T21") == 1 and points("T20") == 5 and points("M") == 4
    assert strength("T20") > strength("T21") > strength("T19")  # S2
    assert strength("S10") > strength("S1") and strength("B1") < strength("BJ")
    assert strength("C1") > strength("C10") and strength("D1") < strength("DJ")
    cups = sorted((c for c in PACK if suit(c) == "C"), key=strength)
    assert cups[-5:] == ["C1", "CJ", "CN", "CQ", "CK"] and cups[0] == "C10"
    # The counting identity behind S6: 26 groups of three less one pair...
    assert 129 - 4 - 2 * 25 + (1 - 2) + 4 == 78


# --- 1. whole games ----------------------------------------------------------------


def test_whole_three_deal_games_pass_the_deal_to_the_next_seat() -> None:
    rnd = random.Random(2)
    for w in whole_games():
        deals = [e for e in w.events if e["type"] == "deal"]
        assert [d["dealer"] for d in deals] == [(deals[0]["dealer"] + k) % 3 for k in range(3)]
        text = render(rnd, w.header, w.events)
        want = ref_read(text)
        got = parse_replay(text).final
        assert engine_summary(got) == want and want["phase"] == "over"
        assert got.deal_no == 3 and len(got.scores) == 3
        totals = [sum(p[k] - 26 for p in want["scores"]) for k in range(3)]
        assert sum(totals) == 0 and list(got.totals) == totals
        o = got.rules.game_outcome(got.scores)
        assert (tuple(o.winners), tuple(o.losers)) == outcome(totals)  # S6
    # The ties of S6, which random games seldom reach (the result the reader's game
    # carries, asked with literal counts).
    rules = parse_replay(plain(whole_games()[0].header, [])).rules
    for scores in ([(26, 26, 26)] * 3, [(20, 20, 38), (30, 30, 18), (28, 28, 22)],
                   [(20, 29, 29), (26, 26, 26), (26, 26, 26)], [(10, 30, 38)] * 3):
        totals = [sum(p[k] - 26 for p in scores) for k in range(3)]
        o = rules.game_outcome(scores)
        assert (tuple(o.winners), tuple(o.losers)) == outcome(totals), scores


# --- 2. the count in threes (S6) -----------------------------------------------------


def test_count_in_threes_from_the_piles_matches_the_score_events() -> None:
    """The reference counts each pile card by card in threes; the engine's score
    events (and its refusal of anything else) agree, deal by deal."""
    seen_pair_dealer = False
    for w in games():
        s = RefState(n_deals=3)
        for i, ev in enumerate(w.events):
            ref_step(s, ev, i + 2)
            if ev["type"] == "score":
                pts = tuple(ev["points"])
                assert pts == s.scores[-1] and sum(pts) == 78
        seen_pair_dealer |= "dealer won the Matto's trick" in w.coverage
    assert seen_pair_dealer


def _game_to_score(w: Written) -> tuple[list[dict[str, Any]], int]:
    evs = json.loads(json.dumps(w.events))
    return evs, next(i for i, e in enumerate(evs) if e["type"] == "score")


def test_wrong_counts_are_refused_at_the_score_line() -> None:
    w = singles()[7]
    evs, i = _game_to_score(w)
    pts = evs[i]["points"]
    s = w.states[i]
    raw = [sum(points(c) for c in p) for p in s.piles]  # raw points, not in threes
    wrong = [
        [p - 26 for p in pts],  # the deal score instead of the count
        raw,
        [pts[1], pts[2], pts[0]],
        [pts[0] + 1, pts[1] - 1, pts[2]],
        [pts[0] + 2, pts[1], pts[2]],  # the Matto's pair counted as a group of three
        [26, 26, 26],
    ]
    for bad in wrong:
        if bad == pts:
            continue
        evs[i]["points"] = bad
        with pytest.raises(ReplayError, match=rf"^line {i + 2}: .*S6"):
            parse_replay(plain(w.header, evs))


def _literal(dealer: int, hands: list[str], stock: str, discard: str,
             plays: list[tuple[int, str]] | None = None, *, auto: bool = False,
             rnd: random.Random | None = None, head: dict[str, Any] | None = None) -> str:
    """A file from literal hands (by seat, the dealer's 25 without the stock), the
    stock, the discard and the cards played (trick and score lines derived by the
    reference).  ``auto`` then plays the deal out at random."""
    s = RefState()
    events: list[dict[str, Any]] = []

    def put(ev: dict[str, Any]) -> None:
        ref_step(s, ev, len(events) + 2)
        events.append(ev)
        while s.pending:
            kind, val = s.pending[0]
            if kind == "trick":
                put({"type": "trick", "winner": val[0], "cards": val[1]})
            else:
                put({"type": "score", "points": list(val)})

    put({"type": "deal", "dealer": dealer, "hands": [h.split() for h in hands],
         "stock": stock.split()})
    put({"type": "discard", "seat": dealer, "cards": discard.split()})
    for seat, card in plays or []:
        put({"type": "play", "seat": seat, "card": card})
    while auto and s.phase == "play" and not s.scores:
        assert rnd is not None
        put({"type": "play", "seat": s.turn,
             "card": rnd.choice(sorted(legal_plays(s.hands[s.turn], s.trick)))})
    return plain(head or {"format": "tarocchi-replay", "version": 1, "variant": "scarto",
                          "deals": 1}, events)


def _hands_with(fixed: dict[int, str], dealer: int, seed: int = 0,
                stock: str | None = None,
                void: dict[int, set[str | None]] | None = None) -> tuple[list[str], str]:
    """Hands (and stock) holding the ``fixed`` cards by seat, the rest at random;
    the seats in ``void`` hold no other card of those suits (seat 0, the donor,
    takes them), and the stock is then three plain cards of none of those suits."""
    rnd = random.Random(seed)
    hands: list[list[str]] = [[], [], []]
    for seat, cards in fixed.items():
        hands[seat] = cards.split()
    void = void or {}
    banned = set().union(*void.values()) if void else set()
    used = {c for h in hands for c in h}
    rest = [c for c in PACK if c not in used]
    rnd.shuffle(rest)
    if stock:
        st = stock.split()
    elif void:
        st = [c for c in rest if suit(c) not in banned | {"T", None} and c not in KINGS][:3]
    else:
        st = []
    rest = [c for c in rest if c not in st]
    for seat in range(3):
        while len(hands[seat]) < 25:
            hands[seat].append(rest.pop())
    st += [rest.pop() for _ in range(3 - len(st))]
    assert not rest
    keep = {c for cards in fixed.values() for c in cards.split()}
    for seat, suits in void.items():
        assert seat != 0
        for x in [c for c in hands[seat] if suit(c) in suits and c not in keep]:
            y = next(c for c in hands[0] if suit(c) not in suits and c not in keep)
            hands[seat][hands[seat].index(x)] = y
            hands[0][hands[0].index(y)] = x
    return [" ".join(h) for h in hands], " ".join(st)


def _discardable(hands: list[str], stock: str, dealer: int, avoid: str = "") -> str:
    hand = set(hands[dealer].split()) | set(stock.split())
    ok = [c for c in legal_discard_cards(hand) if c not in avoid.split()]
    return " ".join(ok[:3])


def test_matto_goes_to_its_own_pile_when_its_player_takes_no_trick() -> None:
    """S5/S6: seat 2 holds the Matto and the lowest card of every suit, no trump:
    it can never take a trick, and still counts its Matto alone at 4."""
    low = "S1 S2 S3 S4 S5 S6 B1 B2 B3 B4 B5 B6 C10 C9 C8 C7 C6 C5 D10 D9 D8 D7 D6 D5 M"
    hands, stock = _hands_with({2: low}, dealer=0, seed=9)
    disc = _discardable(hands, stock, 0)
    rnd = random.Random(10)
    for _ in range(3):
        text = _literal(0, hands, stock, disc, auto=True, rnd=rnd)
        want = ref_read(text)
        assert want["tricks_won"][2] == 0 and want["scores"][0][2] == 4
        final = parse_replay(text).final
        assert final.scores[0][2] == 4 and final.tricks_won[2] == 0
        assert engine_summary(final) == want


# --- 3. a refusal for every Scarto rule --------------------------------------------


def _refused(text: str, line: int, *rules: str) -> str:
    """The reference and the engine both refuse ``text`` at ``line``, citing a rule."""
    with pytest.raises(RefRefused) as ref:
        ref_read(text)
    assert ref.value.line == line
    with pytest.raises(ReplayError) as exc:
        parse_replay(text)
    msg = str(exc.value)
    assert exc.value.line == line and msg.startswith(f"line {line}: "), msg
    if rules:
        assert _cites(msg, frozenset(rules)), (msg, rules)
    return msg


def _accepted(text: str) -> Any:
    want = ref_read(text)
    got = parse_replay(text)
    assert engine_summary(got.final) == want
    return got.final


def _deal_only(dealer: int, hands: list[str], stock: str, discard: str,
               discard_extra: dict[str, Any] | None = None) -> str:
    head = {"format": "tarocchi-replay", "version": 1, "variant": "scarto"}
    ev = {"type": "discard", "seat": dealer, "cards": discard.split(), **(discard_extra or {})}
    return plain(head, [
        {"type": "deal", "dealer": dealer, "hands": [h.split() for h in hands],
         "stock": stock.split()},
        ev,
    ])


@pytest.mark.parametrize("never", ["SK", "BK", "CK", "DK", "T20", "M"])
def test_s4_never_a_king_trump_20_or_the_matto(never: str) -> None:
    hands, stock = _hands_with({1: never}, dealer=1, seed=len(never))
    other = _discardable(hands, stock, 1, avoid="T1").split()[:2]
    _refused(_deal_only(1, hands, stock, " ".join([never, *other])), 3, "S4")
    # ... also when it came in the stock
    hands, stock = _hands_with({}, dealer=1, seed=3, stock=never)
    _refused(_deal_only(1, hands, stock, " ".join([never, *other])), 3, "S4")


def test_s4_trump_1_only_without_another_trump_or_the_matto() -> None:
    suits = [c for c in PACK if suit(c) not in ("T", None) and c not in KINGS]
    alone = " ".join(["T1", *suits[:24]])  # the dealer's 25: T1 and suit cards
    rest = [c for c in PACK if c not in alone.split()]
    # (a) with no other trump and no Matto among the 28: T1 may go
    stock_plain = " ".join([c for c in rest if suit(c) not in ("T", None) and c not in KINGS][:3])
    others = [c for c in rest if c not in stock_plain.split()]
    hands = [alone, " ".join(others[:25]), " ".join(others[25:])]
    st = _accepted(_deal_only(0, hands, stock_plain, f"T1 {suits[0]} {suits[1]}"))
    assert PHASES[st.phase] == "play"
    # (b) another trump in the stock: refused
    trump = next(c for c in others if suit(c) == "T" and c != "T20")
    for extra in (trump, "M"):  # (c) the Matto in the stock: refused too
        stock2 = " ".join([extra, *stock_plain.split()[:2]])
        others2 = [c for c in rest if c not in stock2.split()]
        hands2 = [alone, " ".join(others2[:25]), " ".join(others2[25:])]
        msg = _refused(_deal_only(0, hands2, stock2, f"T1 {suits[0]} {suits[1]}"), 3, "S4")
        assert "T1" in msg or "trump 1" in msg.lower() or "Trump 1" in msg, msg
        if extra == trump:
            # D1: thrown together with that other trump, T1 is still refused (the
            # dealer held another trump); the other trump alone may go (S4).
            _refused(_deal_only(0, hands2, stock2, f"T1 {trump} {suits[0]}"), 3, "S4")
            _accepted(_deal_only(0, hands2, stock2, f"{trump} {suits[0]} {suits[1]}"))


def test_s4_other_trumps_may_be_discarded() -> None:
    hands, stock = _hands_with({2: "T2 T3 T19 T21 T1"}, dealer=2, seed=4)
    st = _accepted(_deal_only(2, hands, stock, "T2 T19 T21"))
    assert PHASES[st.phase] == "play"
    st = _accepted(_deal_only(2, hands, stock, "T2 T3 T19"))
    _refused(_deal_only(2, hands, stock, "T1 T2 T3"), 3, "S4")


@pytest.mark.parametrize("n", [0, 1, 2, 4, 5])
def test_s4_the_discard_is_three_cards(n: int) -> None:
    hands, stock = _hands_with({}, dealer=0, seed=n)
    cards = legal_discard_cards(set(hands[0].split()) | set(stock.split()))[:n]
    _refused(_deal_only(0, hands, stock, " ".join(cards)), 3, "S4")


def test_s4_a_discarded_card_must_be_among_the_dealers_28() -> None:
    hands, stock = _hands_with({}, dealer=0, seed=5)
    mine = _discardable(hands, stock, 0).split()
    foreign = next(c for c in hands[1].split() if c not in NEVER and c != "T1")
    _refused(_deal_only(0, hands, stock, " ".join([foreign, *mine[:2]])), 3, "S4")
    _refused(_deal_only(0, hands, stock, "T22 S1 S2"), 3)  # not a card at all
    # D2: the stock itself may be thrown back
    plain_stock = "S1 S2 S3"
    hands2, stock2 = _hands_with({}, dealer=0, seed=6, stock=plain_stock)
    _accepted(_deal_only(0, hands2, stock2, stock2))
    # D3: a "trumps" key in a Scarto discard is not a field; any value is ignored
    _accepted(_deal_only(0, hands2, stock2, stock2, {"trumps": 2}))


def test_s4_the_stock_goes_to_the_dealer_only() -> None:
    stock = "S1 B2 C3"
    hands, stock = _hands_with({}, dealer=0, seed=7, stock=stock)
    disc = _discardable(hands, stock, 0, avoid=stock)
    leader = 1
    # the leader (not the dealer) plays a stock card: not in that hand
    _refused(plain({"format": "tarocchi-replay", "version": 1, "variant": "scarto"}, [
        {"type": "deal", "dealer": 0, "hands": [h.split() for h in hands],
         "stock": stock.split()},
        {"type": "discard", "seat": 0, "cards": disc.split()},
        {"type": "play", "seat": leader, "card": "S1"},
    ]), 4)
    # a seat that is not the dealer discards (as if it had taken the stock)
    _refused(_deal_only(0, hands, stock, disc).replace('"seat": 0', '"seat": 1'), 3)
    # the dealer does hold the stock: it can play a stock card it kept
    text = _literal(0, hands, stock, disc, auto=True, rnd=random.Random(1))
    plays = [json.loads(ln) for ln in text.splitlines()[3:]]
    assert any(e.get("type") == "play" and e["seat"] == 0 and e["card"] == "S1" for e in plays)
    _accepted(text)


def _deal_text(hands: list[list[str]], stock: list[str], dealer: int = 0,
               head: dict[str, Any] | None = None) -> str:
    head = head or {"format": "tarocchi-replay", "version": 1, "variant": "scarto"}
    return plain(head, [{"type": "deal", "dealer": dealer, "hands": hands, "stock": stock}])


def test_s4_a_deal_is_three_hands_of_25_and_a_stock_of_3() -> None:
    pack = PACK[:]
    random.Random(8).shuffle(pack)
    h, st = deal_packets(pack, 2)
    _accepted(_deal_text(h, st, 2))
    _refused(_deal_text([h[0], h[1], h[2] + st[:1]], st[1:], 2), 2, "S1", "S4")  # stock 2
    _refused(_deal_text([h[0], h[1][1:], h[2]], st + h[1][:1], 2), 2, "S1", "S4")  # stock 4
    _refused(_deal_text([h[0], h[1], h[2] + st], [], 2), 2, "S1", "S4")  # no stock cards
    _refused(_deal_text([h[0], h[1][:24] + [h[0][0]], h[2]], st, 2), 2, "S1", "S4")  # twice
    _refused(_deal_text([h[0], h[1], h[2]], [st[0], st[1], h[0][3]], 2), 2, "S1", "S4")
    _refused(_deal_text([h[0], h[1], h[2][:24]], st, 2), 2, "S1", "S4")  # 77 cards
    _refused(_deal_text([h[0], h[1], h[2]], st[:2], 2), 2, "S1", "S4")  # 77, stock of 2
    _refused(_deal_text([h[0], h[1], h[2]], [], 2), 2, "S1", "S4")  # 75, no stock
    no_stock = plain({"format": "tarocchi-replay", "version": 1, "variant": "scarto"},
                     [{"type": "deal", "dealer": 2, "hands": h}])
    _refused(no_stock, 2)


def test_s1_the_piedicavallo_pack_or_four_seats_under_a_scarto_header() -> None:
    pack = PIEDI_PACK[:]
    random.Random(9).shuffle(pack)
    # R1's 62 cards dealt as Piedicavallo does (four hands, 17 to the dealer)
    four = [pack[:17], pack[17:32], pack[32:47], pack[47:]]
    _refused(_deal_text(four, [], 0), 2)
    _refused(plain({"format": "tarocchi-replay", "version": 1, "variant": "scarto"},
                   [{"type": "deal", "dealer": 0, "hands": four}]), 2)
    # the 62 cards as three hands and a stock: the pack is not Scarto's
    _refused(_deal_text([pack[:20], pack[20:40], pack[40:59]], pack[59:], 0), 2, "S1", "S4")
    # (the same 4-seat file with four players listed: test_s1_players_has_three_entries)
    # a Scarto file under a piedicavallo header: its first deal is not R1/R5's (and,
    # with its three players listed, the header itself is refused: four seats, R2)
    w = singles()[0]
    no_players = {k: v for k, v in w.header.items() if k != "players"}
    _refused(plain(dict(no_players, variant="piedicavallo"), w.events), 2)
    with pytest.raises(ReplayError, match=r"line 1: .*4 players.*\(R2\)"):
        parse_replay(plain(dict(w.header, variant="piedicavallo"), w.events))


def _with_winner(text: str, winner: int) -> str:
    lines = text.splitlines()
    ev = json.loads(lines[-1])
    assert ev["type"] == "trick"
    lines[-1] = json.dumps(dict(ev, winner=winner))
    return "\n".join(lines)


TRICKS = [
    # (the leader's, the second's, the third's card, index of the winner)  S2, R8
    ("T21", "T20", "T2", 1),  # trump 20 beats 21
    ("T20", "T21", "T19", 0),
    ("T19", "T21", "T3", 1),
    ("S1", "S10", "S5", 1),  # Swords: 10 beats 1
    ("B1", "B2", "BJ", 2),
    ("SJ", "S10", "SK", 2),
    ("SN", "SQ", "SJ", 1),
    ("C10", "C1", "C5", 1),  # Cups: 1 beats 10
    ("D2", "D9", "D1", 2),
    ("CJ", "C1", "C10", 0),  # Jack above the Ace
    ("DQ", "DN", "DK", 2),
    ("M", "C4", "C9", 1),  # the Matto led: the second card sets the suit (R9)
    ("M", "D7", "T1", 2),
    ("M", "T21", "T20", 2),
    ("S3", "M", "S2", 0),
    ("S3", "T1", "M", 1),
]


@pytest.mark.parametrize("cards", TRICKS, ids=["-".join(t[:3]) for t in TRICKS])
def test_s2_r8_the_trick_winner(cards: tuple[str, str, str, int]) -> None:
    a, b, c, win = cards
    dealer = 2
    leader = 0
    # each card must be legal: a seat that does not follow holds none of the led suit
    # (and, if it does not trump either, no trump)
    void: dict[int, set[str | None]] = {}
    for k, card in ((1, b), (2, c)):
        lead = led_of([a, b][:k])
        if lead is not None and suit(card) != lead and card != "M":
            void[k] = {lead} if suit(card) == "T" else {lead, "T"}
    hands, stock = _hands_with({0: a, 1: b, 2: c}, dealer, seed=sum(map(ord, a + b + c)),
                               void=void or {2: set()})
    disc = stock  # D2: the (plain) stock thrown back
    text = _literal(dealer, hands, stock, disc, [(0, a), (1, b), (2, c)])
    last = json.loads(text.splitlines()[-1])
    assert last == {"type": "trick", "winner": (leader + win) % 3, "cards": [a, b, c]}
    final = _accepted(text)
    assert final.leader == (leader + win) % 3 and final.tricks_won[(leader + win) % 3] == 1
    for wrong in range(3):
        if wrong != (leader + win) % 3:
            _refused(_with_winner(text, wrong), len(text.splitlines()), "S2", "S5", "R8", "R9")


def _after_two(a: str, b: str, third: str, third_holds: str, void: str = "") -> str:
    """Seat 0 leads ``a``, seat 1 plays ``b``; seat 2 (the dealer) holds ``third_holds``
    and no other card of the suits in ``void`` (``-`` for the Matto's none), and plays
    ``third``."""
    lead = led_of([a])
    v: dict[int, set[str | None]] = {2: set(void)}
    if lead is not None and suit(b) != lead and b != "M":
        v[1] = {lead} if suit(b) == "T" else {lead, "T"}
    hands, stock = _hands_with({0: a, 1: b, 2: third_holds}, 2, seed=11, void=v)
    text = _literal(2, hands, stock, stock, [(0, a), (1, b)])
    return text + json.dumps({"type": "play", "seat": 2, "card": third}) + "\n"


def test_s5_revoke_and_not_trumping_are_refused() -> None:
    # holding a Sword, seat 2 plays a Cup on a Sword lead: revoke
    _refused(_after_two("S5", "S7", "C5", "S9 C5"), 6, "S5", "R7")
    # holding a Sword, seat 2 trumps: revoke too
    _refused(_after_two("S5", "S7", "T4", "S9 T4"), 6, "S5", "R7")
    # void in Swords, holding a trump, seat 2 throws a Cup: must trump
    _refused(_after_two("S5", "S7", "C5", "T4 C5", void="S"), 6, "S5", "R7")
    _accepted(_after_two("S5", "S7", "T4", "T4 C5", void="S"))
    # void in Swords and trumps: anything goes
    _accepted(_after_two("S5", "S7", "C5", "C5", void="ST"))
    # the Matto led, then a Cup: seat 2 must follow Cups (R9)
    _refused(_after_two("M", "C4", "T4", "C9 T4"), 6, "S5", "R7", "R9")
    _accepted(_after_two("M", "C4", "C9", "C9 T4"))
    # the Matto led, then a trump: seat 2 must follow trumps
    _refused(_after_two("M", "T6", "S9", "S9 T4"), 6, "S5", "R7", "R9")
    _accepted(_after_two("M", "T6", "T4", "S9 T4"))
    # the Matto excuses: holding a Sword, the Matto may be played on a Sword lead
    _accepted(_after_two("S5", "S7", "M", "S9 M"))


def test_s5_out_of_turn_and_cards_not_in_hand() -> None:
    hands, stock = _hands_with({0: "S5", 1: "S7"}, dealer=2, seed=12)
    disc = _discardable(hands, stock, 2, avoid="S5 S7")
    base = _literal(2, hands, stock, disc)
    lines = base.splitlines()
    for seat in (1, 2):  # seat 0 (the dealer's right) leads, not 1 or 2
        card = hands[seat].split()[0]
        bad = "\n".join([*lines, json.dumps({"type": "play", "seat": seat, "card": card})])
        _refused(bad, 4)
    # seat 0 plays a card of seat 1's hand
    _refused("\n".join([*lines, json.dumps({"type": "play", "seat": 0, "card": "S7"})]), 4)
    # the dealer plays a card it discarded
    _refused("\n".join([*lines, json.dumps({"type": "play", "seat": 0, "card": "S5"}),
                        json.dumps({"type": "play", "seat": 1, "card": "S7"}),
                        json.dumps({"type": "play", "seat": 2, "card": disc.split()[0]})]), 6)
    # a play before the discard
    _refused("\n".join([*lines[:2], json.dumps({"type": "play", "seat": 0, "card": "S5"})]), 3)


def test_s6_three_deals_a_fourth_is_refused_and_the_deal_passes_on() -> None:
    rnd = random.Random(13)
    for w in whole_games()[:4]:
        deals = [i for i, e in enumerate(w.events) if e["type"] == "deal"]
        last = w.events[deals[-1]]["dealer"]
        order = PACK[:]
        rnd.shuffle(order)
        h, st = deal_packets(order, (last + 1) % 3)
        fourth = {"type": "deal", "dealer": (last + 1) % 3, "hands": h, "stock": st}
        for head in (w.header, {k: v for k, v in w.header.items() if k != "deals"}):
            _refused(plain(head, [*w.events, fourth]), len(w.events) + 2, "S6")
        # deal 2 by any seat but the next one is refused
        k = deals[1]
        for wrong in range(3):
            if wrong == w.events[k]["dealer"]:
                continue
            evs = json.loads(json.dumps(w.events[: k + 1]))
            evs[k]["dealer"] = wrong
            _refused(plain(w.header, evs), k + 2, "S6")
        # a cut game (one deal, no deals key) goes on with deal 2 by the next seat
        head = {k2: v for k2, v in w.header.items() if k2 != "deals"}
        st2 = _accepted(plain(head, w.events[: k + 1]))
        assert st2.deal_no == 2 and st2.dealer == (w.events[0]["dealer"] + 1) % 3


def test_s6_a_single_deal_file_ends_after_its_deal() -> None:
    w = singles()[3]
    order = PACK[:]
    random.Random(14).shuffle(order)
    d = (w.events[0]["dealer"] + 1) % 3
    h, st = deal_packets(order, d)
    _refused(plain(w.header, [*w.events, {"type": "deal", "dealer": d, "hands": h, "stock": st}]),
             len(w.events) + 2, "S6")


# --- disagreements with the engine (see the report in the commit message) ------------


@pytest.mark.parametrize("players", [["human", "hard", "medium", "hard"], ["human", "hard"]])
def test_s1_players_has_three_entries(players: list[str]) -> None:
    """docs/REPLAY-FORMAT.md, Variant scarto: "The header says "variant": "scarto" and
    `players` has three entries"; S1: three players.  A Scarto header listing four
    (or two) players is refused at line 1, with or without events after it, and a
    4-seat file under such a header is refused there too, not at its deal.

    ENGINE BUG: the engine ignores ``players`` (any length, any type) in a Scarto
    header; it accepts the header alone, and refuses the 4-seat file only at line 2."""
    head = {"format": "tarocchi-replay", "version": 1, "variant": "scarto", "players": players}
    _refused(plain(head, []), 1, "S1")
    w = singles()[0]
    _refused(plain(dict(w.header, players=players), w.events), 1, "S1")
    pack = PIEDI_PACK[:]
    random.Random(9).shuffle(pack)
    four = [pack[:17], pack[17:32], pack[32:47], pack[47:]]
    _refused(_deal_text(four, [], 0, head), 1, "S1")


def test_d4_without_the_deals_key_a_scarto_file_is_a_three_deal_game() -> None:
    """S6 "A game is three deals"; docs/REPLAY-FORMAT.md "A game is three deals in one
    file" (the format knows no single Scarto deal, nor the ``deals`` key).  So a file
    with one finished deal and no ``deals`` key is a game cut after its first deal:
    deal 2 is due, the game is not over.

    ENGINE DISAGREES: it reads such a file as a finished single deal (n_deals 1,
    phase over), as it does for Piedicavallo (R13's single-deal default), though it
    does take a second deal in the same file as a three-deal game."""
    w = whole_games()[0]
    head = {k: v for k, v in w.header.items() if k != "deals"}
    first = next(i for i, e in enumerate(w.events) if e["type"] == "score") + 1
    text = plain(head, w.events[:first])
    assert ref_read(text)["phase"] == "deal"
    final = parse_replay(text).final
    assert final.n_deals == 3 and PHASES[final.phase] == "deal"


@pytest.mark.parametrize("deals", [True, 1.0, 3.0])
def test_the_engines_deals_key_is_the_integer_1_or_3(deals: Any) -> None:
    """The engine's own header key ``deals`` (its files carry it): the engine refuses
    2, 0 or "x" with "'deals' must be 1 or 3 (S6)" but takes ``true`` and ``1.0`` as a
    game length (the state's n_deals is then True or 1.0).  As for ``version``,
    where 1.0 is refused, only the integers 1 and 3 should pass.  (Minor.)"""
    w = singles()[0]
    with pytest.raises(ReplayError, match=r"^line 1: .*S6"):
        parse_replay(plain(dict(w.header, deals=deals), w.events))
