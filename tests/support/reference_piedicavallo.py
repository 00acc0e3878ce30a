"""An independent reference of Piedicavallo Tarocchi's replay files (RULES.md R1-R13,
docs/REPLAY-FORMAT.md), in plain strings, lists and sets: nothing from
``engine.state``, ``engine.variants`` or the reader's code.  It writes random legal
games the way another correct program might (its own deal, keys in any order,
unknown keys, cards in any order, CRLF, no final newline) and reads files back as
the spec says.  The frame it fills is tests/support/replay_reference.py; the checks
against the engine are tests/test_replay_reference.py and
tests/test_engine_adversarial.py.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from engine.cards import mask_cards
from engine.state import State
from engine.variants.piedicavallo import PACK as ENGINE_PACK
from tests.support.replay_reference import (
    ANY_RULE,
    RefRefused,
    Written,
    check_header_start,
    due_score,
    emit,
    event_readers,
    index_of,
    is_int,
    read_cards,
    read_file,
    read_seat,
    step_event,
)

CODES = ENGINE_PACK.codes
NAME = "piedicavallo"
SEATS = 4  # R2
RULE_IDS = tuple(f"R{n}" for n in range(1, 14))
SCORE_RULES = frozenset({"R10", "R11", "R12"})
DEAL_POINTS = 114  # R4
MATCH_DEALS = 4  # R13

# =====================================================================================
# The reference rules (R1-R13), written from RULES.md alone
# =====================================================================================

BLACK = ["5", "6", "7", "8", "9", "10", "J", "N", "Q", "K"]  # weakest first (R3)
RED = ["6", "5", "4", "3", "2", "1", "J", "N", "Q", "K"]  # weakest first (R3)
PACK = (
    [f"T{n}" for n in range(1, 22)]
    + ["M"]
    + [s + r for s in "SB" for r in BLACK]
    + [s + r for s in "CD" for r in RED]
)
PACK_SET = frozenset(PACK)
NEVER = {"SK", "BK", "CK", "DK", "T1", "T21", "M"}  # R6
SUIT_WORD = {"S": "Swords", "B": "Batons", "C": "Cups", "D": "Coins", "T": "Trumps"}
TEAM_OF = (0, 1, 0, 1)  # R2


def suit(card: str) -> str | None:
    if card == "M":
        return None
    return "T" if card[0] == "T" and card[1:].isdigit() else card[0]


def strength(card: str) -> int:
    if suit(card) == "T":
        return int(card[1:])
    return (BLACK if card[0] in "SB" else RED).index(card[1:])


def points(card: str) -> int:  # R4
    if card in ("T1", "T21", "M"):
        return 5
    if suit(card) == "T":
        return 1
    return {"K": 5, "Q": 4, "N": 3, "J": 2}.get(card[1:], 1)


def led_of(trick: list[str]) -> str | None:
    """R9: the Matto led leaves the suit to the second card."""
    return next((suit(c) for c in trick if c != "M"), None)


def legal_plays(hand: set[str], trick: list[str]) -> set[str]:  # R7, R9
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


def winner_index(trick: list[str]) -> int:  # R8, R9
    led = led_of(trick)
    trumps = [(strength(c), i) for i, c in enumerate(trick) if suit(c) == "T"]
    if trumps:
        return max(trumps)[1]
    return max((strength(c), i) for i, c in enumerate(trick) if suit(c) == led)[1]


def discard_ok(hand: set[str], pair: set[str]) -> bool:  # R6 word for word
    if len(pair) != 2 or not pair <= hand or pair & NEVER:
        return False
    thrown = [c for c in pair if suit(c) == "T"]
    if not thrown:
        return True
    if not any(suit(c) == "T" for c in hand - pair):  # (b) no trump at all after
        return True
    nonking = [c for c in hand if suit(c) in ("S", "B", "C", "D") and not c.endswith("K")]
    # (a) fewer than 2 non-King suit cards, and only as many trumps as needed to make 2
    return len(nonking) < 2 and len(thrown) == 2 - len(nonking)


def legal_discard_pairs(hand: set[str]) -> list[frozenset[str]]:
    return [frozenset(p) for p in combinations(sorted(hand), 2) if discard_ok(hand, set(p))]


# =====================================================================================

# =====================================================================================
# The reference reader (docs/REPLAY-FORMAT.md), with the reference state
# =====================================================================================



@dataclass
class RefState:
    n_deals: int = 1
    deal_no: int = 0
    phase: str = "deal"  # deal, discard, play, over
    dealer: int = -1
    hands: list[set[str]] = field(default_factory=lambda: [set(), set(), set(), set()])
    discard: set[str] = field(default_factory=set)
    discard_trumps: int = -1
    leader: int = -1
    turn: int = -1
    trick: list[str] = field(default_factory=list)
    trick_no: int = 0
    tricks_won: list[int] = field(default_factory=lambda: [0, 0])
    piles: list[int] = field(default_factory=lambda: [0, 0])  # points, incl. own Matto
    scores: list[tuple[int, int]] = field(default_factory=list)
    pending: list[tuple[str, Any]] = field(default_factory=list)

    def copy(self) -> RefState:
        return RefState(
            self.n_deals, self.deal_no, self.phase, self.dealer,
            [set(h) for h in self.hands], set(self.discard), self.discard_trumps,
            self.leader, self.turn, list(self.trick), self.trick_no,
            list(self.tricks_won), list(self.piles), list(self.scores), list(self.pending),
        )

    def summary(self) -> dict[str, Any]:
        return {
            "scores": [tuple(s) for s in self.scores],
            "hands": [set(h) for h in self.hands],
            "trick": list(self.trick),
            "tricks_won": tuple(self.tricks_won),
            "deal_no": self.deal_no,
            "dealer": self.dealer,
            "discard_trumps": self.discard_trumps,
        }


def engine_summary(st: State) -> dict[str, Any]:
    return {
        "scores": [tuple(s) for s in st.scores],
        "hands": [{CODES[c] for c in mask_cards(h)} for h in st.hands],
        "trick": [CODES[c] for c in st.trick],
        "tricks_won": tuple(st.tricks_won),
        "deal_no": st.deal_no,
        "dealer": st.dealer,
        "discard_trumps": st.discard_trumps,
    }


def deal_score(s: RefState) -> tuple[int, int]:  # R10, R11
    pts = list(s.piles)
    pts[TEAM_OF[s.dealer]] += sum(points(c) for c in s.discard)
    for t in (0, 1):
        if s.tricks_won[t] == 0:
            pts[1 - t] += pts[t]
            pts[t] = 0
    return pts[0], pts[1]




def _seat(obj: dict[str, Any], key: str, line: int) -> int:
    return read_seat(obj, key, line, SEATS)


def _cards(v: Any, line: int) -> list[str]:
    return read_cards(v, line, PACK_SET)


def _read_deal(obj: dict[str, Any], line: int) -> tuple[list[list[str]], int]:
    hands = obj.get("hands")
    if not isinstance(hands, list) or len(hands) != SEATS:
        raise RefRefused(line)
    hs = [_cards(h, line) for h in hands]
    dealer = _seat(obj, "dealer", line)
    return hs, dealer


def _read_discard(obj: dict[str, Any], line: int) -> tuple[int, list[str], Any]:
    seat = _seat(obj, "seat", line)
    dcards = _cards(obj.get("cards"), line)
    trumps = obj.get("trumps")
    if not is_int(trumps):
        raise RefRefused(line)
    return seat, dcards, trumps


_READERS = event_readers(SEATS, PACK_SET, 2, _read_deal, _read_discard)


def _due_trick(s: RefState, fields: tuple[int, list[str]], want: Any, line: int) -> None:
    winner, tcards = fields
    if (winner, tcards) != want:
        raise RefRefused(line, frozenset({"R8"}))
    t = TEAM_OF[winner]
    s.tricks_won[t] += 1
    s.piles[t] += sum(points(c) for c in tcards if c != "M")
    s.trick = []
    s.trick_no += 1
    s.leader = winner
    s.turn = winner if s.trick_no < 15 else -1
    s.pending.pop(0)
    if s.trick_no == 15:
        s.pending.append(("score", deal_score(s)))


#: the events the reference itself makes due (a trick after its fourth card, the
#: score after the last trick): they must come next, exactly as computed
_DUE: dict[str, Callable[[RefState, Any, Any, int], None]] = {
    "trick": _due_trick, "score": due_score(SCORE_RULES),
}


def _step_deal(s: RefState, fields: tuple[list[list[str]], int], line: int) -> None:
    hs, dealer = fields
    if s.deal_no >= s.n_deals:
        raise RefRefused(line, frozenset({"R13"}))
    if s.phase != "deal":
        raise RefRefused(line, ANY_RULE)
    if s.deal_no > 0 and dealer != (s.dealer + 1) % 4:
        raise RefRefused(line, frozenset({"R13"}))
    flat = [c for h in hs for c in h]
    if len(set(flat)) != len(flat) or any(
        len(h) != (17 if i == dealer else 15) for i, h in enumerate(hs)
    ):
        raise RefRefused(line, frozenset({"R1", "R5"}))
    s.deal_no += 1
    s.phase = "discard"
    s.dealer = dealer
    s.hands = [set(h) for h in hs]
    s.discard = set()
    s.discard_trumps = -1
    s.leader = (dealer + 1) % 4  # R7
    s.turn = dealer
    s.trick = []
    s.trick_no = 0
    s.tricks_won = [0, 0]
    s.piles = [0, 0]


def _step_discard(s: RefState, fields: tuple[int, list[str], Any], line: int) -> None:
    seat, dcards, trumps = fields
    if s.phase != "discard" or seat != s.dealer:
        raise RefRefused(line, ANY_RULE)
    if len(dcards) != 2 or len(set(dcards)) != 2:
        raise RefRefused(line)
    pair = set(dcards)
    if not discard_ok(s.hands[seat], pair):
        raise RefRefused(line, frozenset({"R6"}))
    if trumps != sum(1 for c in pair if suit(c) == "T"):
        raise RefRefused(line, frozenset({"R6"}))
    s.hands[seat] -= pair
    s.discard = pair
    s.discard_trumps = trumps
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
        raise RefRefused(line, frozenset({"R7"}))
    hand.discard(card)
    if card == "M":  # R9: to its own team at once
        s.piles[TEAM_OF[seat]] += points("M")
    s.trick.append(card)
    if len(s.trick) == 4:
        s.turn = -1
        s.pending.append(("trick", ((s.leader + winner_index(s.trick)) % 4, list(s.trick))))
    else:
        s.turn = (seat + 1) % 4


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


def read_header(objs: list[Any]) -> int:
    """The game length the header says (R13: one deal, or a match of four), or
    RefRefused at line 1."""
    head = objs[0]
    check_header_start(head)
    if head.get("variant") != NAME:
        raise RefRefused(1)
    players = head.get("players", [""] * SEATS)
    if not (isinstance(players, list) and len(players) == SEATS):
        raise RefRefused(1, frozenset({"R2"}))
    deals = head.get("deals")
    if deals is None:
        return 4 if sum(isinstance(o, dict) and o.get("type") == "deal" for o in objs) > 1 else 1
    return int(deals)


# =====================================================================================
# The reference writer: random legal games, as another program would write them
# =====================================================================================


def random_hands(rnd: random.Random, dealer: int) -> list[list[str]]:
    """Any partition of the 62 cards: shuffled pack, random packet sizes; now and
    then a dealer short of trumps or of non-King suit cards (the R6 corners)."""
    pack = PACK[:]
    rnd.shuffle(pack)
    hands: list[list[str]] = [[], [], [], []]
    corner = rnd.random()
    if corner < 0.25:  # few trumps: (b)
        trumps = [c for c in pack if suit(c) == "T"][: rnd.randrange(3)]
        rest = [c for c in pack if suit(c) != "T"][: 17 - len(trumps)]
        hands[dealer] = trumps + rest
    elif corner < 0.35:  # few non-King suit cards: (a)
        low = [c for c in pack if suit(c) in tuple("SBCD") and not c.endswith("K")]
        mine = low[: rnd.randrange(2)]
        mine += [c for c in pack if c not in low][: 17 - len(mine)]
        hands[dealer] = mine
    pack = [c for c in pack if c not in hands[dealer]]
    want = [17 if s == dealer else 15 for s in range(4)]
    seat = (dealer + 1) % 4
    while pack:
        room = want[seat] - len(hands[seat])
        if room:
            k = min(room, rnd.choice([1, 2, 3, 4, 5, 8]))
            hands[seat] += [pack.pop() for _ in range(k)]
        seat = (seat + 1) % 4
    return hands


def _header(rnd: random.Random, n_deals: int) -> dict[str, Any]:
    header: dict[str, Any] = {"format": "tarocchi-replay", "version": 1, "variant": "piedicavallo"}
    if rnd.random() < 0.5:
        header["seed"] = rnd.randrange(10**6)
    if rnd.random() < 0.5:
        header["players"] = ["human", "hard", "medium", "easy"]
    if rnd.random() < 0.3:
        header["created"] = "2026-12-02T09:00:00Z"
    if n_deals == 4 or rnd.random() < 0.3:
        header["deals"] = n_deals  # the engine's own key; written correctly here
    return header


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
        if trick_no == 14 and k == 3:
            out.coverage.add("matto last card of the last trick")
    if k == 1 and s.trick == ["M"] and suit(card) == "T":
        out.coverage.add("matto led, trump second")
    _emit(out, s, {"type": "play", "seat": seat, "card": card})


def _write_deal(rnd: random.Random, out: Written, s: RefState, dealer: int,
                matto_bias: float) -> None:
    """One deal from the deal event to the score."""
    evs: list[dict[str, Any]] = [
        {"type": "deal", "dealer": dealer, "hands": random_hands(rnd, dealer)}
    ]
    _emit(out, s, evs[0])
    hand = s.hands[dealer]
    pair = sorted(rnd.choice(legal_discard_pairs(hand)))
    n_tr = sum(1 for c in pair if suit(c) == "T")
    if n_tr:
        out.coverage.add(f"discard {n_tr} trump(s)")
    _emit(out, s, {"type": "discard", "seat": dealer, "cards": pair, "trumps": n_tr})
    for trick_no in range(15):
        for k in range(4):
            _write_play(rnd, out, s, matto_bias, trick_no, k)
        win, cards = s.pending[0][1]
        _emit(out, s, {"type": "trick", "winner": win, "cards": cards})
    pts = s.pending[0][1]
    if 0 in s.tricks_won:
        out.coverage.add("no-trick team")
    if pts == (57, 57):
        out.coverage.add("57-57")
    _emit(out, s, {"type": "score", "points": list(pts)})


def write_game(rnd: random.Random, n_deals: int = 1, matto_bias: float = 0.3) -> Written:
    """A random legal game as event objects, validated step by step by the reference."""
    out = Written(_header(rnd, n_deals), [], [])
    s = RefState(n_deals=n_deals)
    dealer = rnd.randrange(4)
    for _deal in range(n_deals):
        _write_deal(rnd, out, s, dealer, matto_bias)
        dealer = (dealer + 1) % 4  # R13
    return out


def _emit(out: Written, s: RefState, ev: dict[str, Any]) -> None:
    emit(out, s, ev, ref_step)


def random_deal(rnd: random.Random, dealer: int) -> dict[str, Any]:
    """A legal deal event by ``dealer``."""
    return {"type": "deal", "dealer": dealer, "hands": random_hands(rnd, dealer)}


GAMES_SEED = 20261202


def _games(n_single: int, n_match: int, seed: int) -> list[Written]:
    rnd = random.Random(seed)
    return [write_game(rnd, 1, rnd.choice([-1.0, 0.0, 0.3])) for _ in range(n_single)] + [
        write_game(rnd, 4, rnd.choice([-1.0, 0.3])) for _ in range(n_match)
    ]


_CACHE: dict[str, list[Written]] = {}


def games() -> list[Written]:
    """160 single deals and 30 matches, written once a session."""
    if "g" not in _CACHE:
        _CACHE["g"] = _games(160, 30, GAMES_SEED)
    return _CACHE["g"]


#: the corners of R6, R9 and R11 that the random games must reach
COVERAGE = ("matto led", "matto led, trump second", "matto last card of the last trick",
            "discard 1 trump(s)", "discard 2 trump(s)")


# =====================================================================================
# Mutation kinds of this game (the others: tests/support/replay_reference.py)
# =====================================================================================


def _m_discard_trump_count(ref: Any, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = index_of(w, "discard", rnd)
    evs[i]["trumps"] = rnd.choice([-1, 0, 1, 2, 3, 10**30])


def _m_score_points(ref: Any, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = index_of(w, "score", rnd)
    a, b = evs[i]["points"]
    evs[i]["points"] = rnd.choice([[a + 1, b - 1], [b, a], [a, b + 1], [114, 0], [57, 57],
                                   [float(a), b], [a, b, 0], [a]])


MUTATORS: dict[str, Callable[[Any, Written, random.Random, list[Any]], None]] = {
    "discard: trump count": _m_discard_trump_count,
    "score: points": _m_score_points,
}


def header_mutations(head: dict[str, Any]) -> list[Any]:
    return [dict(head, players=["human", "hard", "medium"]), dict(head, players=None)]


BAD_CODES = ("S4", "B1", "C7", "D10", "S11", "CA")
ALWAYS_LEGAL: frozenset[str] = frozenset()
#: the discard's two cards may be swapped for another legal pair
MAY_STAY_LEGAL = frozenset({"discard: trump"})
MUTATION_SAMPLE = slice(None)
MUTATIONS_PER_GAME = 6

