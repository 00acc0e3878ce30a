"""An independent reference of Scarto's replay files (RULES.md S1-S6,
docs/REPLAY-FORMAT.md "Variant scarto"), written from the rule book alone, in plain
strings, lists and sets: nothing from ``engine.ruleset``, ``engine.variants``,
``engine.state`` or the reader's code.  The engine is used only
through ``parse_replay`` and ``python -m game.cli check --json``; its states are
decoded with the card codes the state carries (``rules.pack.codes``, data only).
The frame it fills is tests/support/replay_reference.py; the decisions where the
rule book leaves room (D1-D7) are listed in tests/test_scarto_reference.py, which
holds this game's own checks.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.cards import mask_cards
from tests.support.replay_reference import (
    ANY_RULE,
    RefRefused,
    Written,
    check_header_start,
    due_score,
    emit,
    event_readers,
    index_of,
    read_cards,
    read_file,
    read_seat,
    step_event,
)

NAME = "scarto"
DEAL_POINTS = 78  # S6: the counts in threes of a deal
MATCH_DEALS = 3  # S6

# =====================================================================================
# The reference rules (S1-S6), from RULES.md
# =====================================================================================

TRUMPS = [f"T{n}" for n in range(1, 22)]
BLACK = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K"]  # S2, weakest first
RED = ["10", "9", "8", "7", "6", "5", "4", "3", "2", "1", "J", "N", "Q", "K"]  # S2, weakest first
PACK = TRUMPS + ["M"] + [s + r for s in "SB" for r in BLACK] + [s + r for s in "CD" for r in RED]
PACK_SET = frozenset(PACK)
KINGS = {"SK", "BK", "CK", "DK"}
NEVER = KINGS | {"T20", "M"}  # S4: never a King, trump 20 or the Matto
# R1's 62-card pack (for the "wrong pack" refusals)
PIEDI_PACK = [c for c in PACK if c not in
              {"S1", "S2", "S3", "S4", "B1", "B2", "B3", "B4", "C7", "C8", "C9", "C10",
               "D7", "D8", "D9", "D10"}]
SEATS = 3  # S1
N_TRICKS = 25  # S5
RULE_IDS = ("S1", "S2", "S3", "S4", "S5", "S6", "R7", "R8", "R9")  # S5 plays "as R7-R9"


def suit(card: str) -> str | None:
    if card == "M":
        return None
    return "T" if card[0] == "T" else card[0]


def strength(card: str) -> int:
    """Trick strength within a suit (S2): trump 20 above 21, then 19 down to 1."""
    if suit(card) == "T":
        n = int(card[1:])
        return {20: 21, 21: 20}.get(n, n)
    return (BLACK if card[0] in "SB" else RED).index(card[1:])


def points(card: str) -> int:  # S3
    if card in ("T1", "T20") or card in KINGS:
        return 5
    if card == "M" or card[1:] == "Q" and suit(card) != "T":
        return 4
    if suit(card) == "T":
        return 1  # trump 21 included
    return {"N": 3, "J": 2}.get(card[1:], 1)


assert len(PACK) == 78 and len(PACK_SET) == 78 and len(PIEDI_PACK) == 62
assert sum(points(c) for c in PACK) == 129  # S3


def led_of(trick: list[str]) -> str | None:
    """R9 (via S5): the Matto led leaves the suit to the second card."""
    return next((suit(c) for c in trick if c != "M"), None)


def legal_plays(hand: set[str], trick: list[str]) -> set[str]:  # S5 = R7, R9
    led = led_of(trick)
    if led is None:
        return set(hand)
    matto = hand & {"M"}
    follow = {c for c in hand if suit(c) == led}
    if follow:
        return follow | matto
    trumps = {c for c in hand if suit(c) == "T"}
    if trumps:
        return trumps | matto
    return set(hand)


def winner_index(trick: list[str]) -> int:  # R8, R9, S2
    led = led_of(trick)
    trumps = [(strength(c), i) for i, c in enumerate(trick) if suit(c) == "T"]
    if trumps:
        return max(trumps)[1]
    return max((strength(c), i) for i, c in enumerate(trick) if suit(c) == led)[1]


def discard_ok(hand: set[str], cards: list[str]) -> bool:
    """S4, with D1 and D2: three distinct cards of the dealer's 28, none of NEVER, and
    trump 1 only if the 28 hold no other trump and no Matto."""
    chosen = set(cards)
    if len(cards) != 3 or len(chosen) != 3 or not chosen <= hand or chosen & NEVER:
        return False
    if "T1" in chosen and ("M" in hand or any(suit(c) == "T" and c != "T1" for c in hand)):
        return False  # D1: judged on the 28 in hand
    return True


def legal_discard_cards(hand: set[str]) -> list[str]:
    """The cards that may be in a discard (S4); any three of them make a legal one."""
    out = sorted(hand - NEVER)
    if "T1" in out and ("M" in hand or any(suit(c) == "T" and c != "T1" for c in hand)):
        out.remove("T1")
    return out


def count_in_threes(pile: list[str], holds_the_pair: bool) -> int:
    """S6 (D7): the Matto alone at 4; the rest in groups of three, each its points
    minus 2, and for the winner of the Matto's trick one group of two, its points
    plus 1 minus 2."""
    cards = [c for c in pile if c != "M"]
    full, rest = divmod(len(cards), 3)
    assert rest == (2 if holds_the_pair else 0), (pile, holds_the_pair)
    total = 4 if "M" in pile else 0
    for g in range(full):
        total += sum(points(c) for c in cards[3 * g: 3 * g + 3]) - 2
    if rest:
        total += sum(points(c) for c in cards[-2:]) + 1 - 2
    return total


def deal_packets(order: list[str], dealer: int) -> tuple[list[list[str]], list[str]]:
    """S4: 25 each in packets of 5, starting on the dealer's right (seat dealer+1),
    anticlockwise; the 3 left over are the stock."""
    assert sorted(order) == sorted(PACK)
    hands: list[list[str]] = [[], [], []]
    i = 0
    for _round in range(5):
        for k in (1, 2, 0):
            hands[(dealer + k) % SEATS] += order[i: i + 5]
            i += 5
    return hands, order[75:]


def outcome(totals: list[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """S6: (winners, losers); the lowest total loses, all sharing it; all equal: a draw."""
    if len(set(totals)) == 1:
        return (), ()
    low = min(totals)
    return (tuple(s for s in range(SEATS) if totals[s] != low),
            tuple(s for s in range(SEATS) if totals[s] == low))


# =====================================================================================
# The reference reader (docs/REPLAY-FORMAT.md), with the reference state
# =====================================================================================


@dataclass
class RefState:
    n_deals: int = 3
    deal_no: int = 0
    phase: str = "deal"  # deal, discard, play, over
    dealer: int = -1
    hands: list[set[str]] = field(default_factory=lambda: [set(), set(), set()])
    stock: set[str] = field(default_factory=set)
    discard: set[str] = field(default_factory=set)
    leader: int = -1
    turn: int = -1
    trick: list[str] = field(default_factory=list)
    trick_no: int = 0
    tricks_won: list[int] = field(default_factory=lambda: [0, 0, 0])
    piles: list[list[str]] = field(default_factory=lambda: [[], [], []])
    matto_winner: int = -1  # who won the Matto's trick
    scores: list[tuple[int, ...]] = field(default_factory=list)
    pending: list[tuple[str, Any]] = field(default_factory=list)

    def copy(self) -> RefState:
        return RefState(
            self.n_deals, self.deal_no, self.phase, self.dealer,
            [set(h) for h in self.hands], set(self.stock), set(self.discard), self.leader,
            self.turn, list(self.trick), self.trick_no, list(self.tricks_won),
            [list(p) for p in self.piles], self.matto_winner, list(self.scores),
            list(self.pending),
        )

    def summary(self) -> dict[str, Any]:
        return {
            "scores": [tuple(s) for s in self.scores],
            "totals": tuple(sum(s[k] - 26 for s in self.scores) for k in range(SEATS)),
            "hands": [set(h) for h in self.hands],
            "trick": list(self.trick),
            "trick_no": self.trick_no,
            "tricks_won": tuple(self.tricks_won),
            "piles": [set(p) for p in self.piles],  # the discard in the dealer's
            "deal_no": self.deal_no,
            "dealer": self.dealer,
            "stock": set(self.stock),
            "discard": set(self.discard),
            "phase": self.phase,
        }


PHASES = {0: "deal", 1: "discard", 2: "play", 3: "over"}  # the engine's numbers, observed


def engine_summary(st: Any) -> dict[str, Any]:
    codes = st.rules.pack.codes

    def cs(mask: int) -> set[str]:
        return {codes[c] for c in mask_cards(mask)}

    piles = [cs(p) for p in st.piles]
    if st.dealer >= 0 and st.discard:
        piles[st.dealer] |= cs(st.discard)  # wherever the engine keeps it: the dealer's pile
    return {
        "scores": [tuple(s) for s in st.scores],
        "totals": tuple(st.totals),
        "hands": [cs(h) for h in st.hands],
        "trick": [codes[c] for c in st.trick],
        "trick_no": st.trick_no,
        "tricks_won": tuple(st.tricks_won),
        "piles": piles,
        "deal_no": st.deal_no,
        "dealer": st.dealer,
        "stock": cs(st.stock),
        "discard": cs(st.discard),
        "phase": PHASES.get(st.phase, st.phase),
    }


def deal_counts(s: RefState) -> tuple[int, ...]:  # S6
    counts = tuple(count_in_threes(s.piles[k], k == s.matto_winner) for k in range(SEATS))
    assert sum(counts) == 78, counts
    return counts


DEAL_RULES = frozenset({"S1", "S4"})
DISCARD_RULES = frozenset({"S4"})
PLAY_RULES = frozenset({"S5", "R7", "R9"})
TRICK_RULES = frozenset({"S2", "S5", "R8", "R9"})
SCORE_RULES = frozenset({"S6"})
GAME_RULES = frozenset({"S6"})


def _seat(obj: dict[str, Any], key: str, line: int) -> int:
    return read_seat(obj, key, line, SEATS)


def _cards(v: Any, line: int) -> list[str]:
    return read_cards(v, line, PACK_SET)


def _read_deal(obj: dict[str, Any], line: int) -> tuple[list[list[str]], list[str], int]:
    hands = obj.get("hands")
    if not isinstance(hands, list) or len(hands) != SEATS:
        raise RefRefused(line)
    hs = [_cards(h, line) for h in hands]
    stock = _cards(obj.get("stock"), line)
    dealer = _seat(obj, "dealer", line)
    return hs, stock, dealer


def _read_discard(obj: dict[str, Any], line: int) -> tuple[int, list[str]]:
    seat = _seat(obj, "seat", line)
    dcards = _cards(obj.get("cards"), line)
    # D3: a "trumps" key is not a Scarto field; ignored like any unknown key.
    return seat, dcards


_READERS = event_readers(SEATS, PACK_SET, SEATS, _read_deal, _read_discard)


def _due_trick(s: RefState, fields: tuple[int, list[str]], want: Any, line: int) -> None:
    winner, tcards = fields
    if (winner, tcards) != want:
        raise RefRefused(line, TRICK_RULES)
    s.tricks_won[winner] += 1
    s.piles[winner] += [c for c in tcards if c != "M"]  # S5: never captured
    if "M" in tcards:
        s.matto_winner = winner
    s.trick = []
    s.trick_no += 1
    s.leader = winner
    s.turn = winner if s.trick_no < N_TRICKS else -1
    s.pending.pop(0)
    if s.trick_no == N_TRICKS:
        s.pending.append(("score", deal_counts(s)))


#: the events the reference itself makes due (a trick after its third card,
#: the score after the last trick): they must come next, exactly as computed
_DUE: dict[str, Callable[[RefState, Any, Any, int], None]] = {
    "trick": _due_trick, "score": due_score(SCORE_RULES),
}


def _step_deal(s: RefState, fields: tuple[list[list[str]], list[str], int], line: int) -> None:
    hs, stock, dealer = fields
    if s.deal_no >= s.n_deals:
        raise RefRefused(line, GAME_RULES)  # S6: a game is three deals
    if s.phase != "deal":
        raise RefRefused(line, ANY_RULE)
    if s.deal_no > 0 and dealer != (s.dealer + 1) % SEATS:
        raise RefRefused(line, GAME_RULES)  # S6: the deal passes to the next seat
    flat = [c for h in hs for c in h] + stock
    if len(set(flat)) != len(flat) or len(stock) != 3 or any(len(h) != 25 for h in hs):
        raise RefRefused(line, DEAL_RULES)  # D6
    s.deal_no += 1
    s.phase = "discard"
    s.dealer = dealer
    s.hands = [set(h) for h in hs]
    s.hands[dealer] |= set(stock)  # S4: the dealer takes the stock
    s.stock = set(stock)
    s.discard = set()
    s.leader = (dealer + 1) % SEATS  # S5: the dealer's right leads
    s.turn = dealer
    s.trick = []
    s.trick_no = 0
    s.tricks_won = [0, 0, 0]
    s.piles = [[], [], []]
    s.matto_winner = -1


def _step_discard(s: RefState, fields: tuple[int, list[str]], line: int) -> None:
    seat, dcards = fields
    if s.phase != "discard" or seat != s.dealer:
        raise RefRefused(line, ANY_RULE)
    if len(set(dcards)) != len(dcards):
        raise RefRefused(line)  # a card named twice: malformed
    if not discard_ok(s.hands[seat], dcards):
        raise RefRefused(line, DISCARD_RULES)
    s.hands[seat] -= set(dcards)
    s.discard = set(dcards)
    s.piles[seat] += sorted(dcards)  # S4: to the dealer's own trick pile
    s.phase = "play"
    s.turn = s.leader


def _step_play(s: RefState, fields: tuple[int, str], line: int) -> None:
    seat, card = fields
    if s.phase != "play" or seat != s.turn:
        raise RefRefused(line, ANY_RULE)
    hand = s.hands[seat]
    if card not in hand:
        raise RefRefused(line, ANY_RULE)
    if card not in legal_plays(hand, s.trick):
        raise RefRefused(line, PLAY_RULES)
    hand.discard(card)
    if card == "M":  # S5: to its own player's pile, trick or no trick
        s.piles[seat].append("M")
    s.trick.append(card)
    if len(s.trick) == SEATS:
        s.turn = -1
        s.pending.append(("trick", ((s.leader + winner_index(s.trick)) % SEATS,
                                    list(s.trick))))
    else:
        s.turn = (seat + 1) % SEATS


#: the events a player writes when the position allows them
_STEPS: dict[str, Callable[[RefState, Any, int], None]] = {
    "deal": _step_deal, "discard": _step_discard, "play": _step_play,
}


def ref_step(s: RefState, obj: Any, line: int) -> None:
    """Apply one event object to ``s`` (in place) or raise RefRefused."""
    step_event(s, obj, line, _READERS, _DUE, _STEPS)


def ref_read(text: str) -> dict[str, Any]:
    """The summary of the final position of ``text`` as this reference reads it, or
    RefRefused."""
    return read_file(sys.modules[__name__], text)


def read_header(objs: list[Any]) -> int | None:
    """The game length a Scarto header announces (D4), None for a Piedicavallo header
    alone, or RefRefused."""
    head = objs[0]
    check_header_start(head)
    if head.get("variant") == "piedicavallo" and "players" in head and not (
        isinstance(head["players"], list) and len(head["players"]) == 4
    ):
        raise RefRefused(1)  # the format's four players of Piedicavallo (R2)
    if head.get("variant") == "piedicavallo" and len(objs) > 1:
        # Not a Scarto file: its first event (a Scarto deal, or any other event) is
        # not a Piedicavallo deal of four hands.
        raise RefRefused(2)
    if head.get("variant") == "piedicavallo":
        return None
    if head.get("variant") != NAME:
        raise RefRefused(1)
    players = head.get("players")
    if isinstance(players, list) and len(players) != SEATS:
        raise RefRefused(1, frozenset({"S1"}))  # D5
    deals = head.get("deals")
    return deals if deals in (1, 3) and type(deals) is int else 3  # D4


# =====================================================================================
# The reference writer: random legal games, as another program would write them
# =====================================================================================


def shuffled_pack(rnd: random.Random, dealer: int) -> list[str]:
    """A shuffle; now and then one that gives the dealer's 28 a corner of S4 (trump 1
    with no other trump, with or without the Matto; no trump at all; many trumps).
    The order is then dealt by ``deal_packets`` like any other."""
    pack = PACK[:]
    rnd.shuffle(pack)
    corner = rnd.random()
    if corner >= 0.3:
        return pack
    plain_cards = [c for c in pack if suit(c) not in ("T", None)]
    if corner < 0.1:
        mine = ["T1"] + plain_cards[:27]  # T1 may go
    elif corner < 0.15:
        mine = ["T1", "M"] + plain_cards[:26]  # T1 may not go (the Matto)
    elif corner < 0.2:
        mine = plain_cards[:28]  # no trump
    else:
        mine = [c for c in pack if suit(c) == "T"][:18] + plain_cards[:10]
    rnd.shuffle(mine)
    rest = [c for c in pack if c not in mine]
    order: list[str] = []
    for _round in range(5):
        for k in (1, 2, 0):
            src = mine if k == 0 else rest
            order += [src.pop() for _ in range(5)]
    order += mine
    assert len(order) == 78 and deal_packets(order, dealer)[1] == order[75:]
    return order


def _header(rnd: random.Random, n_deals: int, deals_key: bool) -> dict[str, Any]:
    header: dict[str, Any] = {"format": "tarocchi-replay", "version": 1, "variant": "scarto"}
    if rnd.random() < 0.5:
        header["seed"] = rnd.randrange(10**6)
    if rnd.random() < 0.5:
        header["players"] = rnd.choice([["human", "hard", "medium"], ["random"] * 3])
    if rnd.random() < 0.3:
        header["created"] = "2026-12-03T09:00:00Z"
    if n_deals == 1 or deals_key:
        header["deals"] = n_deals
    return header


def _write_discard(rnd: random.Random, out: Written, s: RefState, dealer: int,
                   stock: list[str]) -> None:
    allowed = legal_discard_cards(s.hands[dealer])
    r = rnd.random()
    if r < 0.1 and set(stock) <= set(allowed):
        chosen = sorted(stock)  # D2: the stock itself
        out.coverage.add("discard the stock")
    elif r < 0.3 and "T1" in allowed:
        chosen = sorted(["T1", *rnd.sample([c for c in allowed if c != "T1"], 2)])
    else:
        chosen = sorted(rnd.sample(allowed, 3))
    n_tr = sum(1 for c in chosen if suit(c) == "T")
    if n_tr:
        out.coverage.add(f"discard {n_tr} trump(s)")
    if "T1" in chosen:
        out.coverage.add("discard T1")
    _emit(out, s, {"type": "discard", "seat": dealer, "cards": chosen})


def _write_play(rnd: random.Random, out: Written, s: RefState, matto_bias: float,
                trick_no: int, k: int) -> None:
    """The ``k``-th card of trick ``trick_no``, by the seat whose turn it is."""
    seat = s.turn
    options = sorted(legal_plays(s.hands[seat], s.trick))
    if "M" in options and len(options) > 1 and matto_bias < 0:
        options.remove("M")  # keep the Matto for the last trick
    card = "M" if "M" in options and rnd.random() < matto_bias else rnd.choice(options)
    if card == "M":
        out.coverage.add("matto led" if k == 0 else "matto played")
        if trick_no == N_TRICKS - 1:
            out.coverage.add("matto in the last trick")
    if k == 1 and s.trick == ["M"]:
        out.coverage.add("matto led, trump second" if suit(card) == "T"
                         else "matto led, suit second")
    _emit(out, s, {"type": "play", "seat": seat, "card": card})


def _write_tricks(rnd: random.Random, out: Written, s: RefState, matto_bias: float) -> None:
    for trick_no in range(N_TRICKS):
        for k in range(SEATS):
            _write_play(rnd, out, s, matto_bias, trick_no, k)
        win, cards = s.pending[0][1]
        if {"T20", "T21"} <= set(cards):
            out.coverage.add("T20 and T21 in one trick")
        _emit(out, s, {"type": "trick", "winner": win, "cards": cards})


def _write_score(out: Written, s: RefState, dealer: int) -> None:
    pts = s.pending[0][1]
    if 0 in s.tricks_won:
        out.coverage.add("a seat without a trick")
        if "M" in s.piles[s.tricks_won.index(0)]:
            out.coverage.add("the Matto with a seat without a trick")
    if s.matto_winner == dealer:
        out.coverage.add("dealer won the Matto's trick")
    _emit(out, s, {"type": "score", "points": list(pts)})


def write_game(rnd: random.Random, n_deals: int = 1, matto_bias: float = 0.3,
               deals_key: bool = True, hands: list[list[str]] | None = None,
               first_dealer: int | None = None) -> Written:
    """A random legal Scarto file as event objects, validated step by step by the
    reference.  ``n_deals`` 1 writes ``"deals": 1``; 3 writes a whole game."""
    out = Written(_header(rnd, n_deals, deals_key), [], [])
    s = RefState(n_deals=n_deals if n_deals in (1, 3) else 3)
    dealer = rnd.randrange(SEATS) if first_dealer is None else first_dealer
    for _deal in range(n_deals):
        if hands is None:
            dealt, stock = deal_packets(shuffled_pack(rnd, dealer), dealer)
        else:
            dealt, stock = [list(h) for h in hands[:3]], list(hands[3])
        _emit(out, s, {"type": "deal", "dealer": dealer, "hands": dealt, "stock": stock})
        _write_discard(rnd, out, s, dealer, stock)
        _write_tricks(rnd, out, s, matto_bias)
        _write_score(out, s, dealer)
        dealer = (dealer + 1) % SEATS  # S6
    return out


def _emit(out: Written, s: RefState, ev: dict[str, Any]) -> None:
    emit(out, s, ev, ref_step)


def random_deal(rnd: random.Random, dealer: int) -> dict[str, Any]:
    """A legal deal event by ``dealer``: a shuffle dealt in packets (S4)."""
    order = PACK[:]
    rnd.shuffle(order)
    hands, stock = deal_packets(order, dealer)
    return {"type": "deal", "dealer": dealer, "hands": hands, "stock": stock}


_CACHE: dict[str, list[Written]] = {}


def singles() -> list[Written]:
    """150 single deals, written once a session."""
    if "s" not in _CACHE:
        rnd = random.Random(20261203)
        _CACHE["s"] = [write_game(rnd, 1, rnd.choice([-1.0, 0.0, 0.3, 0.6]))
                       for _ in range(150)]
    return _CACHE["s"]


def whole_games() -> list[Written]:
    """20 games of three deals, half without the ``deals`` key (D4)."""
    if "g" not in _CACHE:
        rnd = random.Random(31122026)
        _CACHE["g"] = [write_game(rnd, 3, rnd.choice([-1.0, 0.3]), deals_key=rnd.random() < 0.5)
                       for _ in range(20)]
    return _CACHE["g"]


def games() -> list[Written]:
    return singles() + whole_games()


#: the corners of S4, S5 and R9 that the random games must reach
COVERAGE = ("matto led", "matto played", "matto led, trump second",
            "matto led, suit second", "matto in the last trick", "discard T1",
            "discard 1 trump(s)", "discard 2 trump(s)", "discard 3 trump(s)",
            "discard the stock", "T20 and T21 in one trick")


# =====================================================================================
# Mutation kinds of this game (the others: tests/support/replay_reference.py)
# =====================================================================================


def _m_discard_trump_1(ref: Any, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = index_of(w, "discard", rnd)
    st = w.states[i]
    if "T1" in st.hands[st.dealer] and "T1" not in evs[i]["cards"]:
        evs[i]["cards"][rnd.randrange(3)] = "T1"


def _m_discard_trumps_key(ref: Any, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = index_of(w, "discard", rnd)
    evs[i]["trumps"] = rnd.choice([0, 1, 3, -1, "x", None])


def _m_score_points(ref: Any, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = index_of(w, "score", rnd)
    a, b, c = evs[i]["points"]
    evs[i]["points"] = rnd.choice([[a + 1, b - 1, c], [b, c, a], [a - 26, b - 26, c - 26],
                                   [a, b, c + 1], [78, 0, 0], [26, 26, 26], [c, b, a],
                                   [float(a), b, c], [a, b, c, 0], [a, b]])


def _m_deal_stock_size(ref: Any, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = index_of(w, "deal", rnd)
    h, st = evs[i]["hands"], evs[i]["stock"]
    k = rnd.randrange(3)
    if rnd.random() < 0.5:
        h[k].append(st.pop())
    else:
        st.append(h[k].pop())


def _m_deal_stock_swapped_with_a_hand_card(ref: Any, w: Written, rnd: random.Random,
                                           evs: list[Any]) -> None:
    i = index_of(w, "deal", rnd)
    h, st = evs[i]["hands"], evs[i]["stock"]
    k, j, m = rnd.randrange(3), rnd.randrange(25), rnd.randrange(3)
    h[k][j], st[m] = st[m], h[k][j]


def _m_deal_stock_missing(ref: Any, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    del evs[index_of(w, "deal", rnd)]["stock"]


def _m_deal_the_62_card_pack(ref: Any, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = index_of(w, "deal", rnd)
    pack = PIEDI_PACK[:]
    rnd.shuffle(pack)
    evs[i]["hands"] = rnd.choice([
        [pack[:17], pack[17:32], pack[32:47], pack[47:]],
        [pack[:20], pack[20:40], pack[40:59]],
    ])
    evs[i]["stock"] = [] if len(evs[i]["hands"]) == 4 else pack[59:]


MUTATORS: dict[str, Callable[[Any, Written, random.Random, list[Any]], None]] = {
    "discard: trump 1": _m_discard_trump_1,
    "discard: trumps key": _m_discard_trumps_key,
    "score: points": _m_score_points,
    "deal: stock size": _m_deal_stock_size,
    "deal: stock swapped with a hand card": _m_deal_stock_swapped_with_a_hand_card,
    "deal: stock missing": _m_deal_stock_missing,
    "deal: the 62-card pack": _m_deal_the_62_card_pack,
}


def header_mutations(head: dict[str, Any]) -> list[Any]:
    # (players of 2 or 4 entries: test_s1_players_has_three_entries)
    return [dict(head, variant="piedicavallo")]


BAD_CODES = ("S0", "S11", "B14", "C0", "D11", "S01", "CA")
#: D3: a "trumps" key is not a Scarto field, ignored whatever its value
ALWAYS_LEGAL = frozenset({"discard: trumps key"})
#: other trumps than 1 and 20 may go (S4); trump 1 where the dealer holds no other;
#: a stock card swapped into a hand may still make a legal deal
MAY_STAY_LEGAL = frozenset({"discard: trump", "discard: trump 1",
                            "deal: stock swapped with a hand card"})
MUTATION_SAMPLE = slice(None)
MUTATIONS_PER_GAME = 7
