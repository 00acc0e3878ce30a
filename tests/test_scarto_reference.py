"""An independent reference of Scarto (RULES.md S1-S6, replay-format.md "Variant
scarto"), written from the rule book and seed 003 alone, against the engine's reader.

The model is tests/test_engine_adversarial.py: a reference of the rules in plain
strings, lists and sets (nothing from ``engine.ruleset``, ``engine.variants``,
``engine.state`` or the reader's code) writes random legal Scarto files the way another
correct program might (its own shuffle and deal in packets of 5, keys in any order,
unknown keys, cards in any order, CRLF, no final newline, trailing blanks) and reads
files back as the spec says.  The engine is used only through ``parse_replay`` and
``python -m game.cli check --json``; its states are decoded with the card codes the
state carries (``rules.pack.codes``, data only).  The engine must accept every legal
file with the same position and counts, and refuse every breach at the same line,
citing the rule.

Decisions where the rule book leaves room (each is a comment at the code too):

* D1 (S4) "trump 1 only if the dealer holds no other trump and no Matto": what the
  dealer holds is judged on the 28 cards before the discard, not on what remains
  after it.  So T1 thrown together with the dealer's only other trump is refused.
  (R6 says "after the discard" where it means that; S4 does not; seed 003: "Trump 1
  can be discarded if the dealer has no other trump (including the Fool)".)
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
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from engine.cards import mask_cards
from engine.replay import ReplayError, parse_replay

ROOT = Path(__file__).resolve().parent.parent

# =====================================================================================
# The reference rules (S1-S6), from RULES.md and seed 003
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
# The reference reader (replay-format.md), with the reference state
# =====================================================================================

ANY_RULE = "any"  # a rule breach: the message must cite some Scarto rule id


class RefRefused(Exception):
    def __init__(self, line: int, rules: frozenset[str] | str = frozenset()) -> None:
        super().__init__(line, rules)
        self.line = line
        self.rules = rules


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


class _Huge:
    """An integer too long for Python's str->int limit: valid JSON, never in range."""


def _parse_int(text: str) -> int | _Huge:
    return _Huge() if len(text.lstrip("-")) > 1000 else int(text)


def _is_int(v: Any) -> bool:
    return type(v) is int or isinstance(v, _Huge)


def _seat(obj: dict[str, Any], key: str, line: int) -> int:
    v = obj.get(key)
    if type(v) is not int or not 0 <= v < SEATS:
        raise RefRefused(line)
    return v


def _cards(v: Any, line: int) -> list[str]:
    if not isinstance(v, list) or not all(isinstance(c, str) and c in PACK_SET for c in v):
        raise RefRefused(line)
    return v


DEAL_RULES = frozenset({"S1", "S4"})
DISCARD_RULES = frozenset({"S4"})
PLAY_RULES = frozenset({"S5", "R7", "R9"})
TRICK_RULES = frozenset({"S2", "S5", "R8", "R9"})
SCORE_RULES = frozenset({"S6"})
GAME_RULES = frozenset({"S6"})


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


def _read_play(obj: dict[str, Any], line: int) -> tuple[int, str]:
    seat = _seat(obj, "seat", line)
    card = obj.get("card")
    if not isinstance(card, str) or card not in PACK_SET:
        raise RefRefused(line)
    return seat, card


def _read_trick(obj: dict[str, Any], line: int) -> tuple[int, list[str]]:
    tcards = _cards(obj.get("cards"), line)
    if len(tcards) != SEATS:
        raise RefRefused(line)
    winner = _seat(obj, "winner", line)
    return winner, tcards


def _read_score(obj: dict[str, Any], line: int) -> list[Any]:
    pts = obj.get("points")
    if not (isinstance(pts, list) and len(pts) == SEATS and all(_is_int(p) for p in pts)):
        raise RefRefused(line)
    return pts


#: each event kind's field reader: its fields, or RefRefused (malformed, no rule)
_READERS: dict[str, Callable[[dict[str, Any], int], Any]] = {
    "deal": _read_deal, "discard": _read_discard, "play": _read_play,
    "trick": _read_trick, "score": _read_score,
}


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


def _due_score(s: RefState, pts: list[Any], want: Any, line: int) -> None:
    if tuple(pts) != want:
        raise RefRefused(line, SCORE_RULES)
    s.scores.append(want)
    s.pending.pop(0)
    s.phase = "over" if len(s.scores) >= s.n_deals else "deal"
    s.turn = -1


#: the events the reference itself makes due (a trick after its third card,
#: the score after the last trick): they must come next, exactly as computed
_DUE: dict[str, Callable[[RefState, Any, Any, int], None]] = {
    "trick": _due_trick, "score": _due_score,
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
    if not isinstance(obj, dict):
        raise RefRefused(line)
    kind = obj.get("type")
    if kind not in ("deal", "discard", "play", "trick", "score"):
        raise RefRefused(line)
    # Field types first (a malformed event is refused whatever the position).
    fields = _READERS[kind](obj, line)
    if s.deal_no == 0 and kind != "deal":
        raise RefRefused(line, ANY_RULE)
    if s.pending:
        want_kind, want = s.pending[0]
        if kind != want_kind:
            raise RefRefused(line, ANY_RULE)
        _DUE[kind](s, fields, want, line)
        return
    if kind not in _STEPS:
        raise RefRefused(line, ANY_RULE)  # a trick or score that is not due
    _STEPS[kind](s, fields, line)


def _json_lines(text: str) -> list[Any]:
    """The file's lines as JSON values, or RefRefused at the first that is not one."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines:
        raise RefRefused(1)
    objs = []
    for i, ln in enumerate(lines, start=1):
        try:
            objs.append(json.loads(ln, parse_int=_parse_int))
        except ValueError:
            raise RefRefused(i) from None
    return objs


def _scarto_deals(head: Any, n_lines: int) -> int | None:
    """The game length a Scarto header announces (D4), None for a Piedicavallo header
    alone, or RefRefused."""
    if not isinstance(head, dict) or head.get("format") != "tarocchi-replay":
        raise RefRefused(1)
    if type(head.get("version")) is not int or head["version"] != 1:
        raise RefRefused(1)
    if head.get("variant") == "piedicavallo" and "players" in head and not (
        isinstance(head["players"], list) and len(head["players"]) == 4
    ):
        raise RefRefused(1)  # the format's four players of Piedicavallo (R2)
    if head.get("variant") == "piedicavallo" and n_lines > 1:
        # Not a Scarto file: its first event (a Scarto deal, or any other event) is
        # not a Piedicavallo deal of four hands.
        raise RefRefused(2)
    if head.get("variant") == "piedicavallo":
        return None
    if head.get("variant") != "scarto":
        raise RefRefused(1)
    players = head.get("players")
    if isinstance(players, list) and len(players) != SEATS:
        raise RefRefused(1, frozenset({"S1"}))  # D5
    deals = head.get("deals")
    return deals if deals in (1, 3) and type(deals) is int else 3  # D4


def ref_read(text: str) -> dict[str, Any]:
    """The reference reader: a summary of the final position, or RefRefused."""
    objs = _json_lines(text)
    n_deals = _scarto_deals(objs[0], len(objs))
    if n_deals is None:
        return {}
    s = RefState(n_deals=n_deals)
    for i, obj in enumerate(objs[1:], start=2):
        ref_step(s, obj, i)
    return s.summary()


# =====================================================================================
# The reference writer: random legal games, as another program would write them
# =====================================================================================


@dataclass
class Written:
    header: dict[str, Any]
    events: list[dict[str, Any]]
    states: list[RefState]  # states[i]: the position before events[i]
    coverage: set[str] = field(default_factory=set)


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
    out.states.append(s.copy())
    ref_step(s, ev, len(out.events) + 2)
    out.events.append(ev)


def style_line(rnd: random.Random, obj: Any) -> str:
    """One JSON line the way some other correct writer might format it."""
    if isinstance(obj, dict):
        obj = dict(obj)
        if rnd.random() < 0.3:
            obj[rnd.choice(["comment", "t", "ms", "_x", "nota"])] = rnd.choice(
                [1, "note", "però", None, [1, 2], {"a": True}, 2.5]
            )
        if obj.get("type") == "deal":
            if isinstance(obj.get("hands"), list):
                obj["hands"] = [rnd.sample(h, len(h)) if isinstance(h, list) else h
                                for h in obj["hands"]]
            if isinstance(obj.get("stock"), list):
                obj["stock"] = rnd.sample(obj["stock"], len(obj["stock"]))
            if rnd.random() < 0.5:
                obj["cut"] = rnd.choice([7, "x", -3, 40])
        if obj.get("type") == "discard" and isinstance(obj.get("cards"), list):
            obj["cards"] = rnd.sample(obj["cards"], len(obj["cards"]))
        items = list(obj.items())
        rnd.shuffle(items)
        obj = dict(items)
    seps = rnd.choice([(",", ":"), (", ", ": "), (" , ", " : ")])
    text = json.dumps(obj, separators=seps, ensure_ascii=rnd.random() < 0.5)
    if rnd.random() < 0.05:
        text = rnd.choice([" ", "\t", ""]) + text + rnd.choice([" ", "  ", "\t"])
    return text


def render(rnd: random.Random, header: Any, events: list[Any], crlf: bool | None = None) -> str:
    nl = "\r\n" if (rnd.random() < 0.2 if crlf is None else crlf) else "\n"
    text = nl.join(style_line(rnd, o) for o in [header, *events])
    return text + (nl if rnd.random() < 0.8 else "")


def plain(header: Any, events: list[Any]) -> str:
    return "".join(json.dumps(o) + "\n" for o in [header, *events])


# =====================================================================================
# Checks against the engine
# =====================================================================================


def _cites(msg: str, rules: frozenset[str] | str) -> bool:
    want = RULE_IDS if rules == ANY_RULE else rules
    return any(f"({r})" in msg or f"{r}:" in msg or f"{r} " in msg for r in want)


def check_agrees(text: str) -> str:
    """The engine and the reference agree on ``text``; returns 'ok' or 'refused'."""
    try:
        want = ref_read(text)
    except RefRefused as ref:
        with pytest.raises(ReplayError) as exc:
            parse_replay(text)
        msg = str(exc.value)
        assert exc.value.line == ref.line, (msg, ref.line, text)
        assert msg.startswith(f"line {ref.line}: "), msg
        if ref.rules:
            assert _cites(msg, ref.rules), (msg, ref.rules)
        return "refused"
    got = parse_replay(text)
    if want:
        assert engine_summary(got.final) == want
    return "ok"


_CACHE: dict[str, list[Written]] = {}


def singles() -> list[Written]:
    if "s" not in _CACHE:
        rnd = random.Random(20261203)
        _CACHE["s"] = [write_game(rnd, 1, rnd.choice([-1.0, 0.0, 0.3, 0.6]))
                       for _ in range(150)]
    return _CACHE["s"]


def whole_games() -> list[Written]:
    if "g" not in _CACHE:
        rnd = random.Random(31122026)
        _CACHE["g"] = [write_game(rnd, 3, rnd.choice([-1.0, 0.3]), deals_key=rnd.random() < 0.5)
                       for _ in range(20)]
    return _CACHE["g"]


def games() -> list[Written]:
    return singles() + whole_games()


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


# --- 1. files by other correct writers --------------------------------------------


def test_random_legal_single_deals_are_accepted_with_the_same_counts() -> None:
    rnd = random.Random(1)
    cover: set[str] = set()
    for w in singles():
        cover |= w.coverage
        text = render(rnd, w.header, w.events)
        want = ref_read(text)
        got = parse_replay(text)
        assert engine_summary(got.final) == want
        assert want["phase"] == "over" and len(want["scores"]) == 1
        (pts,) = want["scores"]
        assert sum(pts) == 78 and sum(p - 26 for p in pts) == 0  # S6
        # The engine's score event carries the same counts (the check itself).
        assert got.final.scores == (pts,)
        assert tuple(got.final.totals) == tuple(p - 26 for p in pts)
    for c in ("matto led", "matto played", "matto led, trump second",
              "matto led, suit second", "matto in the last trick", "discard T1",
              "discard 1 trump(s)", "discard 2 trump(s)", "discard 3 trump(s)",
              "discard the stock", "T20 and T21 in one trick"):
        assert c in cover, c


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


def test_files_cut_anywhere_rebuild_the_position() -> None:
    rnd = random.Random(3)
    for w in games()[::2]:
        for _ in range(3):
            k = rnd.randrange(1, len(w.events) + 1)
            text = render(rnd, w.header, w.events[:k])
            assert check_agrees(text) == "ok"
            rep = parse_replay(text)
            assert len(rep.states) == k + 1 and len(rep.events) == k
            st = rep.states[-1]
            ref = w.states[k] if k < len(w.events) else None
            if ref is not None:
                mine = ref.summary()
                theirs = engine_summary(st)
                assert theirs["hands"] == mine["hands"] and theirs["trick"] == mine["trick"]
                assert (st.turn, st.leader) == (ref.turn, ref.leader), (k, w.events[k - 1])


def test_files_cut_inside_a_line() -> None:
    """A cut anywhere in the text: a line cut short is bad JSON, refused at its
    number; a cut between the CR and LF of a line end keeps the file whole."""
    rnd = random.Random(4)
    n = 0
    for w in games()[1::6]:
        text = render(rnd, w.header, w.events, crlf=rnd.random() < 0.5)
        for _ in range(4):
            cut = text[: rnd.randrange(0, len(text))]
            assert check_agrees(cut) in ("ok", "refused")
            n += 1
        if "\r\n" in text:
            i = text.index("\r\n", len(text) // 2)
            assert check_agrees(text[: i + 1]) == "ok"
    assert n > 80


def test_the_command_line_check_agrees(tmp_path: Path) -> None:
    rnd = random.Random(5)
    files, wants = [], []
    for i, w in enumerate(games()[::8]):
        p = tmp_path / f"g{i}.jsonl"
        p.write_text(render(rnd, w.header, w.events), encoding="utf-8", newline="")
        files.append(p)
        wants.append(("ok", [list(x) for x in ref_read(p.read_text(encoding="utf-8"))["scores"]]))
    bad = tmp_path / "bad.jsonl"
    evs = json.loads(json.dumps(games()[0].events))
    i = next(i for i, e in enumerate(evs) if e["type"] == "score")
    evs[i]["points"] = [26, 26, 26]
    bad.write_text(plain(games()[0].header, evs), encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "game.cli", "check", "--json",
                        *map(str, files), str(bad)], cwd=ROOT, capture_output=True, text=True)
    out = [json.loads(ln) for ln in r.stdout.splitlines() if ln.strip()]
    assert len(out) == len(files) + 1, r.stdout + r.stderr
    for o, (_ok, pts) in zip(out, wants, strict=False):
        assert o["ok"] is True and o["points"] == pts, o
    assert out[-1]["ok"] is False and out[-1]["line"] == i + 2 and "S6" in out[-1]["error"]
    assert r.returncode != 0


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
    """replay-format.md, Variant scarto: "The header says "variant": "scarto" and
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
    """S6 "A game is three deals"; replay-format.md "A game is three deals in one
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


# --- 4. mutation testing of the reader ----------------------------------------------


def _idx(w: Written, kind: str, rnd: random.Random) -> int:
    return rnd.choice([i for i, e in enumerate(w.events) if e["type"] == kind])


def _m_play_any_card(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = _idx(w, "play", rnd)
    evs[i]["card"] = rnd.choice(PACK)


def _m_play_another_hands_card(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = _idx(w, "play", rnd)
    st = w.states[i]
    others = [s for s in range(3) if s != evs[i]["seat"] and st.hands[s]]
    if others:
        evs[i]["card"] = rnd.choice(sorted(st.hands[rnd.choice(others)]))


def _m_play_a_discarded_or_stock_card(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = _idx(w, "play", rnd)
    st = w.states[i]
    evs[i]["card"] = rnd.choice(sorted(st.discard | st.stock))


def _m_play_revoke(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    for i in rnd.sample(range(len(evs)), len(evs)):
        if evs[i]["type"] == "play":
            st = w.states[i]
            hand = st.hands[evs[i]["seat"]]
            bad = sorted(hand - legal_plays(hand, st.trick))
            if bad:
                evs[i]["card"] = rnd.choice(bad)
                break


def _m_play_another_legal_card(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = _idx(w, "play", rnd)
    st = w.states[i]
    evs[i]["card"] = rnd.choice(sorted(legal_plays(st.hands[evs[i]["seat"]], st.trick)))


def _m_play_the_matto(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    cands = [i for i, e in enumerate(w.events)
             if e["type"] == "play" and "M" in w.states[i].hands[e["seat"]]]
    if cands:
        evs[rnd.choice(cands)]["card"] = "M"


def _m_play_out_of_turn(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = _idx(w, "play", rnd)
    evs[i]["seat"] = (evs[i]["seat"] + rnd.randrange(1, 3)) % 3


def _m_play_swap_two_plays(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = _idx(w, "play", rnd)
    if evs[i + 1]["type"] == "play":
        evs[i], evs[i + 1] = evs[i + 1], evs[i]


def _m_discard_never_card(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = _idx(w, "discard", rnd)
    st = w.states[i]
    never = sorted(st.hands[st.dealer] & NEVER)
    if never:
        evs[i]["cards"][rnd.randrange(3)] = rnd.choice(never)


def _m_discard_trump_1(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = _idx(w, "discard", rnd)
    st = w.states[i]
    if "T1" in st.hands[st.dealer] and "T1" not in evs[i]["cards"]:
        evs[i]["cards"][rnd.randrange(3)] = "T1"


def _m_discard_any_own_card(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = _idx(w, "discard", rnd)
    st = w.states[i]
    evs[i]["cards"][rnd.randrange(3)] = rnd.choice(sorted(st.hands[st.dealer]))


def _m_discard_another_hands_card(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = _idx(w, "discard", rnd)
    st = w.states[i]
    other = (st.dealer + rnd.randrange(1, 3)) % 3
    evs[i]["cards"][rnd.randrange(3)] = rnd.choice(sorted(st.hands[other]))


def _m_discard_two_or_four_cards(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = _idx(w, "discard", rnd)
    st = w.states[i]
    if rnd.random() < 0.5:
        evs[i]["cards"].pop(rnd.randrange(3))
    else:
        extra = sorted(set(legal_discard_cards(st.hands[st.dealer])) - set(evs[i]["cards"]))
        evs[i]["cards"].append(rnd.choice(extra))


def _m_discard_a_card_twice(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = _idx(w, "discard", rnd)
    evs[i]["cards"][2] = evs[i]["cards"][0]


def _m_discard_trumps_key(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = _idx(w, "discard", rnd)
    evs[i]["trumps"] = rnd.choice([0, 1, 3, -1, "x", None])


def _m_discard_not_the_dealer(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = _idx(w, "discard", rnd)
    evs[i]["seat"] = (evs[i]["seat"] + rnd.randrange(1, 3)) % 3


def _m_discard_after_play_began(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = _idx(w, "discard", rnd)
    d = evs.pop(i)
    evs.insert(i + rnd.randrange(1, 6), d)


def _m_discard_twice(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = _idx(w, "discard", rnd)
    evs.insert(i + 1, dict(evs[i]))


def _m_discard_missing(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    del evs[_idx(w, "discard", rnd)]


def _m_trick_winner(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = _idx(w, "trick", rnd)
    evs[i]["winner"] = (evs[i]["winner"] + rnd.randrange(1, 3)) % 3


def _m_trick_cards(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = _idx(w, "trick", rnd)
    cards = evs[i]["cards"]
    if rnd.random() < 0.5:
        rnd.shuffle(cards)
    else:
        cards[rnd.randrange(3)] = rnd.choice(PACK)


def _m_trick_missing(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    del evs[_idx(w, "trick", rnd)]


def _m_trick_twice(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = _idx(w, "trick", rnd)
    evs.insert(i + 1, dict(evs[i]))


def _m_score_points(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = _idx(w, "score", rnd)
    a, b, c = evs[i]["points"]
    evs[i]["points"] = rnd.choice([[a + 1, b - 1, c], [b, c, a], [a - 26, b - 26, c - 26],
                                   [a, b, c + 1], [78, 0, 0], [26, 26, 26], [c, b, a],
                                   [float(a), b, c], [a, b, c, 0], [a, b]])


def _m_score_missing(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    del evs[_idx(w, "score", rnd)]


def _m_score_twice(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = _idx(w, "score", rnd)
    evs.insert(i + 1, dict(evs[i]))


def _m_deal_card_twice(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = _idx(w, "deal", rnd)
    h = evs[i]["hands"]
    a, b = rnd.sample(range(3), 2)
    h[a][rnd.randrange(25)] = rnd.choice(h[b] + h[a] + evs[i]["stock"])


def _m_deal_card_moved(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = _idx(w, "deal", rnd)
    h = evs[i]["hands"]
    a, b = rnd.sample(range(3), 2)
    h[b].append(h[a].pop())


def _m_deal_card_dropped(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = _idx(w, "deal", rnd)
    h = evs[i]["hands"][rnd.randrange(3)]
    h.pop(rnd.randrange(len(h)))


def _m_deal_stock_size(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = _idx(w, "deal", rnd)
    h, st = evs[i]["hands"], evs[i]["stock"]
    k = rnd.randrange(3)
    if rnd.random() < 0.5:
        h[k].append(st.pop())
    else:
        st.append(h[k].pop())


def _m_deal_stock_swapped_with_a_hand_card(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = _idx(w, "deal", rnd)
    h, st = evs[i]["hands"], evs[i]["stock"]
    k, j, m = rnd.randrange(3), rnd.randrange(25), rnd.randrange(3)
    h[k][j], st[m] = st[m], h[k][j]


def _m_deal_stock_missing(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = _idx(w, "deal", rnd)
    del evs[i]["stock"]


def _m_deal_wrong_dealer(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = _idx(w, "deal", rnd)
    evs[i]["dealer"] = (evs[i]["dealer"] + rnd.randrange(1, 3)) % 3


def _m_deal_extra_deal(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    last = [e for e in evs if e["type"] == "deal"][-1]["dealer"]
    order = PACK[:]
    rnd.shuffle(order)
    h, st = deal_packets(order, (last + 1) % 3)
    evs.append({"type": "deal", "dealer": (last + 1) % 3, "hands": h, "stock": st})


def _m_deal_the_62_card_pack(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = _idx(w, "deal", rnd)
    pack = PIEDI_PACK[:]
    rnd.shuffle(pack)
    evs[i]["hands"] = rnd.choice([
        [pack[:17], pack[17:32], pack[32:47], pack[47:]],
        [pack[:20], pack[20:40], pack[40:59]],
    ])
    evs[i]["stock"] = [] if len(evs[i]["hands"]) == 4 else pack[59:]


def _m_line_swap(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i, j = rnd.sample(range(len(evs)), 2)
    evs[i], evs[j] = evs[j], evs[i]


def _m_line_delete(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    del evs[rnd.randrange(len(evs))]


def _m_event_unknown_key(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = rnd.randrange(len(evs))
    evs[i][rnd.choice(["x", "note", "stock2", "trump", "Seat"])] = rnd.choice([1, "a", None])


def _m_event_unknown_type(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = rnd.randrange(len(evs))
    evs[i] = dict(evs[i], type=rnd.choice(["bid", "Play", "", None, 3, ["play"], "stock"]))


def _m_event_no_type(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = rnd.randrange(len(evs))
    del evs[i]["type"]


def _m_event_not_an_object(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    evs[rnd.randrange(len(evs))] = rnd.choice([[1, 2], None, 42, "play", True])


def _m_event_bad_type_of_a_field(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = rnd.randrange(len(evs))
    e = evs[i]
    key = rnd.choice([k for k in e if k != "type"])
    e[key] = rnd.choice(["1", 1.0, True, False, -1, 3, 10**30, None, [], {}, "SK"])


def _m_event_bad_card_code(w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = rnd.randrange(len(evs))
    e = evs[i]
    bad = rnd.choice(["S0", "S11", "B14", "C0", "D11", "T0", "T22", "sk", "m", "", 5, None,
                      "T01", "S01", "CA"])
    if e["type"] == "play":
        e["card"] = bad
    elif e["type"] in ("trick", "discard"):
        e["cards"][0] = bad
    elif e["type"] == "deal":
        rnd.choice([e["hands"][1], e["stock"]])[0] = bad


#: one function a mutation kind: each changes ``evs`` (a copy of w's events) in place
_MUTATORS: dict[str, Callable[[Written, random.Random, list[Any]], None]] = {
    "play: any card": _m_play_any_card,
    "play: another hand's card": _m_play_another_hands_card,
    "play: a discarded or stock card": _m_play_a_discarded_or_stock_card,
    "play: revoke": _m_play_revoke,
    "play: another legal card": _m_play_another_legal_card,
    "play: the Matto": _m_play_the_matto,
    "play: out of turn": _m_play_out_of_turn,
    "play: swap two plays": _m_play_swap_two_plays,
    "discard: never card": _m_discard_never_card,
    "discard: trump 1": _m_discard_trump_1,
    "discard: any own card": _m_discard_any_own_card,
    "discard: another hand's card": _m_discard_another_hands_card,
    "discard: two or four cards": _m_discard_two_or_four_cards,
    "discard: a card twice": _m_discard_a_card_twice,
    "discard: trumps key": _m_discard_trumps_key,
    "discard: not the dealer": _m_discard_not_the_dealer,
    "discard: after play began": _m_discard_after_play_began,
    "discard: twice": _m_discard_twice,
    "discard: missing": _m_discard_missing,
    "trick: winner": _m_trick_winner,
    "trick: cards": _m_trick_cards,
    "trick: missing": _m_trick_missing,
    "trick: twice": _m_trick_twice,
    "score: points": _m_score_points,
    "score: missing": _m_score_missing,
    "score: twice": _m_score_twice,
    "deal: card twice": _m_deal_card_twice,
    "deal: card moved": _m_deal_card_moved,
    "deal: card dropped": _m_deal_card_dropped,
    "deal: stock size": _m_deal_stock_size,
    "deal: stock swapped with a hand card": _m_deal_stock_swapped_with_a_hand_card,
    "deal: stock missing": _m_deal_stock_missing,
    "deal: wrong dealer": _m_deal_wrong_dealer,
    "deal: extra deal": _m_deal_extra_deal,
    "deal: the 62-card pack": _m_deal_the_62_card_pack,
    "line: swap": _m_line_swap,
    "line: delete": _m_line_delete,
    "event: unknown key": _m_event_unknown_key,
    "event: unknown type": _m_event_unknown_type,
    "event: no type": _m_event_no_type,
    "event: not an object": _m_event_not_an_object,
    "event: bad type of a field": _m_event_bad_type_of_a_field,
    "event: bad card code": _m_event_bad_card_code,
}


def _mutate_header(rnd: random.Random, head: dict[str, Any]) -> Any:
    return rnd.choice([
        dict(head, version=2), dict(head, version=0), dict(head, version="1"),
        dict(head, version=True), dict(head, variant="skat"), dict(head, variant="Scarto"),
        dict(head, variant="piedicavallo"), dict(head, format="x"),
        dict(head, version=1.0),
        # (players of 2 or 4 entries: test_s1_players_has_three_entries)
        {k: v for k, v in head.items() if k != "variant"},
        {k: v for k, v in head.items() if k != "version"},
        [head], None,
    ])


def mutate(w: Written, rnd: random.Random, name: str) -> tuple[list[Any], Any]:
    """One single mutation ``name`` of ``w``; returns (events, header)."""
    evs: list[Any] = json.loads(json.dumps(w.events))
    head: Any = dict(w.header)
    if name == "header":
        return evs, _mutate_header(rnd, head)
    if name not in _MUTATORS:
        raise AssertionError(name)
    _MUTATORS[name](w, rnd, evs)
    return evs, head


MUTATIONS = [
    "play: any card", "play: another hand's card", "play: a discarded or stock card",
    "play: revoke", "play: another legal card", "play: the Matto", "play: out of turn",
    "play: swap two plays", "discard: never card", "discard: trump 1", "discard: any own card",
    "discard: another hand's card", "discard: two or four cards", "discard: a card twice",
    "discard: trumps key", "discard: not the dealer", "discard: after play began",
    "discard: twice", "discard: missing", "trick: winner", "trick: cards", "trick: missing",
    "trick: twice", "score: points", "score: missing", "score: twice", "deal: card twice",
    "deal: card moved", "deal: card dropped", "deal: stock size",
    "deal: stock swapped with a hand card", "deal: stock missing", "deal: wrong dealer",
    "deal: extra deal", "deal: the 62-card pack", "line: swap", "line: delete",
    "event: unknown key", "event: unknown type", "event: no type", "event: not an object",
    "event: bad type of a field", "event: bad card code", "header",
]
#: mutations after which the file is always still legal (the engine must accept it)
ALWAYS_LEGAL = {"event: unknown key", "discard: trumps key"}
#: mutations that must be refused whenever they change the file
ALWAYS_REFUSED = set(MUTATIONS) - ALWAYS_LEGAL - {
    "play: another legal card", "play: the Matto", "discard: trump 1", "discard: any own card",
    "deal: stock swapped with a hand card", "line: swap", "play: swap two plays", "header",
    "discard: after play began",
}


def test_single_mutations_agree_with_the_reference() -> None:
    """Every mutation kind, on a sample of the files: where the reference says the
    file breaks a rule the engine refuses it at the same line citing a rule; where
    the reference says it is still legal the engine accepts it with the same
    position.  (Each kind also cut short now and then.)"""
    rnd = random.Random(15)
    outcome_of: dict[str, set[str]] = {m: set() for m in MUTATIONS}
    n = 0
    sample = singles()[::2] + whole_games()
    for k, w in enumerate(sample):
        for j in range(len(MUTATIONS) // 4 + 1):
            name = MUTATIONS[(k * 7 + j * 4 + rnd.randrange(4)) % len(MUTATIONS)]
            evs, head = mutate(w, rnd, name)
            if evs == w.events and head == w.header:
                continue
            if rnd.random() < 0.2:  # also cut off somewhere after the mutation
                evs = evs[: rnd.randrange(len(evs) // 2, len(evs) + 1)]
            text = render(rnd, head, evs) if rnd.random() < 0.5 else plain(head, evs)
            got = check_agrees(text)
            outcome_of[name].add(got)
            n += 1
    assert n > 400, n
    for m in MUTATIONS:
        assert outcome_of[m], m
        if m in ALWAYS_LEGAL:
            assert outcome_of[m] == {"ok"}, m
        elif m in ALWAYS_REFUSED:
            assert "refused" in outcome_of[m], m


def test_bad_json_lines_are_refused_at_their_line() -> None:
    rnd = random.Random(16)
    w = singles()[1]
    lines = plain(w.header, w.events).split("\n")
    for bad in ["", "   ", "\r", "{", '{"type": "play"', "{'type': 'play'}", "[", "nul",
                '{"a":1}{}', '{"type": "play", "seat": 0, "card": "SK",}']:
        k = rnd.randrange(1, len(lines) - 1)
        text = "\n".join(lines[:k] + [bad] + lines[k:])
        with pytest.raises(ReplayError) as exc:
            parse_replay(text)
        assert exc.value.line == k + 1, str(exc.value)
        assert check_agrees(text) == "refused"
