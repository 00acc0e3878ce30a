"""Hints that say why: every reason :func:`engine.ai.reasons.reason`
gives is true of the seat's view, checked by code of its own written from
RULES.md (R3, R4, R7, R8, R9; S2, S3, S5), over 2,000 decisions of simulated
deals of both games; and no reason changes when the cards the seat cannot see
are dealt again among the other hands."""

from __future__ import annotations

import collections
import random
from collections.abc import Callable
from functools import cache

import pytest

from engine.ai.players import EasyPlayer
from engine.ai.reasons import KEYS, Reason, reason
from engine.game import Game
from engine.ruleset import ruleset
from engine.state import Command, Discard, Play, State
from engine.view import SeatView, seat_view

# --- the rules, written again from RULES.md (codes only: no engine ranking tables) ---

SUITS = "SBCD"
#: a suit by the engine's number, trumps included
SUITS_AND_TRUMPS = SUITS + "T"
#: R3 / S2: each suit's cards from the highest down
ORDER = {
    "piedicavallo": {"S": "K Q N J 10 9 8 7 6 5", "B": "K Q N J 10 9 8 7 6 5",
                     "C": "K Q N J 1 2 3 4 5 6", "D": "K Q N J 1 2 3 4 5 6"},
    "scarto": {"S": "K Q N J 10 9 8 7 6 5 4 3 2 1", "B": "K Q N J 10 9 8 7 6 5 4 3 2 1",
               "C": "K Q N J 1 2 3 4 5 6 7 8 9 10", "D": "K Q N J 1 2 3 4 5 6 7 8 9 10"},
}


def suit_of(code: str) -> str:
    return "" if code == "M" else code[0]


def strength(game: str, code: str) -> int:
    """Higher is stronger, within a suit or among trumps (R3, S2)."""
    if code[0] == "T":
        n = int(code[1:])
        if game == "scarto":
            return {20: 30, 21: 29}.get(n, n)  # S2: 20 beats 21
        return n
    ranks = ORDER[game][code[0]].split()
    return len(ranks) - ranks.index(code[1:])


def points(game: str, code: str) -> int:
    """R4 / S3."""
    if code == "M":
        return 5 if game == "piedicavallo" else 4
    if code[0] == "T":
        fives = {"T1", "T21"} if game == "piedicavallo" else {"T1", "T20"}
        return 5 if code in fives else 1
    return {"K": 5, "Q": 4, "N": 3, "J": 2}.get(code[1:], 1)


def winner(game: str, trick: list[str]) -> int:
    """R8/R9: the highest trump, else the highest card of the suit led; the Matto
    never wins, and the first other card sets the suit."""
    led = next((suit_of(c) for c in trick if c != "M"), "")
    best, at = None, -1
    for i, c in enumerate(trick):
        s = suit_of(c)
        if c == "M" or (s != "T" and s != led):
            continue
        key = (s == "T", strength(game, c))
        if best is None or key > best:
            best, at = key, i
    return at


def legal(game: str, hand: list[str], trick: list[str]) -> list[str]:
    """R7/R9: follow the suit led, else trump, else anything; the Matto always."""
    led = next((suit_of(c) for c in trick if c != "M"), "")
    if not led:
        return list(hand)
    follow = [c for c in hand if suit_of(c) == led]
    trumps = [c for c in hand if suit_of(c) == "T"]
    must = follow or trumps or [c for c in hand if c != "M"]
    return must + (["M"] if "M" in hand else [])


class Seen:
    """What the seat knows, recomputed from its view's raw facts."""

    def __init__(self, view: SeatView) -> None:
        pack = view.rules.pack
        self.game = view.rules.name
        code = pack.codes
        self.hand = [code[c] for c in range(pack.n_cards) if view.hand >> c & 1]
        self.trick = [code[c] for c in view.trick]
        played = [code[c] for _l, cards in view.history for c in cards] + self.trick
        discard = [code[c] for c in range(pack.n_cards) if view.discard >> c & 1]
        self.unseen = [c for c in code if c not in set(self.hand) | set(played) | set(discard)]
        n = view.rules.n_seats
        self.seat, self.leader, self.n = view.seat, view.leader, n
        self.side = view.rules.side
        self.legal = legal(self.game, self.hand, self.trick)
        self.pts = {c: points(self.game, c) for c in code}

    def wins(self, card: str) -> bool:
        t = [*self.trick, card]
        return winner(self.game, t) == len(t) - 1

    def winner_seat(self) -> int:
        return (self.leader + winner(self.game, self.trick)) % self.n

    def opponent_after(self) -> bool:
        k = len(self.trick)
        after = [(self.seat + i) % self.n for i in range(1, self.n - k)]
        return any(self.side[s] != self.side[self.seat] for s in after)

    def unseen_beats(self, card: str) -> bool:
        t = [*self.trick, card]
        return any(winner(self.game, [*t, x]) == len(t) for x in self.unseen)

    def cheapest(self, card: str) -> bool:
        return self.pts[card] == min(self.pts[c] for c in self.legal if c != "M")

    def led(self) -> str:
        return next((suit_of(c) for c in self.trick if c != "M"), "")

    def higher_unseen(self, card: str) -> bool:
        s = suit_of(card)
        return any(suit_of(x) == s and strength(self.game, x) > strength(self.game, card)
                   for x in self.unseen)


def _discard_claim(k: Seen, laid: list[str], r: Reason, code: tuple[str, ...]) -> bool:
    """Whether a discard reason is true of the cards ``laid`` from the hand."""
    rest = [c for c in k.hand if c not in laid]
    if r.key == "discard_void":
        s = SUITS[r.get("suit")]  # type: ignore[index]
        return (any(suit_of(c) == s for c in laid) and not any(suit_of(c) == s for c in rest)
                and any(suit_of(c) == "T" for c in rest))
    if r.key == "discard_points":
        named = [code[c] for c in r.get("cards")]  # type: ignore[union-attr]
        return bool(named) and all(c in laid and k.pts[c] > 1 for c in named)
    if r.key == "discard_low":
        return all(suit_of(c) in SUITS and k.pts[c] == 1 for c in laid)
    return False


def _partner_sure(k: Seen, card: str, r: Reason, code: tuple[str, ...]) -> bool:
    w = k.winner_seat()
    return (bool(k.trick) and w != k.seat and k.side[w] == k.side[k.seat] and not k.wins(card)
            and card != "M" and k.pts[card] > 1 and not (k.opponent_after() and k.unseen_beats(card)))


def _void_trump(k: Seen, card: str, r: Reason, code: tuple[str, ...]) -> bool:
    s = SUITS[r.get("suit")]  # type: ignore[index]
    return (k.led() == s and not any(suit_of(c) == s for c in k.hand) and suit_of(card) == "T"
            and k.wins(card))


def _master(k: Seen, card: str, r: Reason, code: tuple[str, ...]) -> bool:
    ok = not k.trick and suit_of(card) in SUITS and not k.higher_unseen(card)
    if r.key == "master_trumps_out":
        ok = ok and not any(suit_of(x) == "T" for x in k.unseen)
    return ok


def _cannot_win(k: Seen, card: str, r: Reason, code: tuple[str, ...]) -> bool:
    w = k.trick[winner(k.game, k.trick)] if k.trick else None
    return (bool(k.led()) and card != "M" and not any(k.wins(c) for c in k.legal if c != "M")
            and k.cheapest(card) and w == code[r.get("card")])  # type: ignore[index]


#: a play reason's key -> whether its sentence is true of the card played, from the view
_PLAY_CLAIMS: dict[str, Callable[[Seen, str, Reason, tuple[str, ...]], bool]] = {
    "forced": lambda k, card, r, code: len(k.legal) == 1,
    "partner_sure": _partner_sure,
    "matto_save": lambda k, card, r, code: (
        card == "M" and bool(k.led()) and not any(k.wins(c) for c in k.legal if c != "M")),
    "take_sure": lambda k, card, r, code: (
        bool(k.trick) and k.wins(card) and not (k.opponent_after() and k.unseen_beats(card))),
    "void_trump": _void_trump,
    "cheap_win": lambda k, card, r, code: (
        bool(k.trick) and k.wins(card)
        and not any(k.pts[c] < k.pts[card] and k.wins(c) for c in k.legal if c != "M")),
    "master": _master,
    "master_trumps_out": _master,
    "top_trump": lambda k, card, r, code: (
        not k.trick and suit_of(card) == "T" and not k.higher_unseen(card)),
    "second_low": lambda k, card, r, code: (
        len(k.trick) == 1 and bool(k.led()) and not k.wins(card) and k.cheapest(card)),
    "cannot_win": _cannot_win,
    "only_of_suit": lambda k, card, r, code: (
        bool(k.led()) and k.led() == SUITS_AND_TRUMPS[r.get("suit")]  # type: ignore[index]
        and [c for c in k.hand if suit_of(c) == k.led()] == [card]),
    "keep_matto": lambda k, card, r, code: (
        bool(k.trick) and "M" in k.hand and card != "M" and k.cheapest(card)),
    "draw_trumps": lambda k, card, r, code: (
        not k.trick and suit_of(card) == "T" and any(suit_of(x) == "T" for x in k.unseen)),
    "lead_low": lambda k, card, r, code: not k.trick and card != "M" and k.pts[card] == 1,
}


def claim_holds(view: SeatView, cmd: Command, r: Reason) -> bool:
    """Whether what the reason's sentence says is true of the view."""
    k = Seen(view)
    code = view.rules.pack.codes
    if isinstance(cmd, Discard):
        return _discard_claim(k, [code[c] for c in cmd.cards], r, code)
    assert isinstance(cmd, Play)
    card = code[cmd.card]
    assert card in k.legal
    arg = r.get("card")
    if arg is not None and r.key != "cannot_win" and code[arg] != card:  # type: ignore[index]
        return False
    claim = _PLAY_CLAIMS.get(r.key)
    return claim is not None and claim(k, card, r, code)


# --- the corpus ------------------------------------------------------------------------


@cache
def corpus(game: str, deals: int) -> list[tuple[State, int, Command]]:
    """(state, seat to act, the easy level's choice) at every decision of
    ``deals`` simulated deals."""
    rules = ruleset(game)
    out = []
    player = EasyPlayer()
    for seed in range(1, deals + 1):
        g = Game(seed, 1, ["easy"] * rules.n_seats, rules=rules)
        while g.legal():
            seat = g.state.turn
            cmd = player.choose(g.view(seat), g.legal(), g.cursor)
            out.append((g.state, seat, cmd))
            g.submit(cmd)
    return out


def decisions() -> list[tuple[State, int, Command]]:
    return corpus("piedicavallo", 18) + corpus("scarto", 14)


@pytest.mark.slow
def test_every_reason_is_true_of_the_seat_view() -> None:
    ds = decisions()
    assert len(ds) >= 2000
    seen: collections.Counter[str] = collections.Counter()
    none = 0
    for state, seat, cmd in ds:
        view = seat_view(state, seat)
        r = reason(view, cmd)
        if r is None:
            none += 1
            continue
        assert r.key in KEYS
        assert claim_holds(view, cmd, r), (state.rules.name, view.rules.pack.codes[getattr(cmd, "card", 0)], r)
        seen[r.key] += 1
    # every kind of reason comes up, and most decisions get one
    rare = {"discard_low"}  # the easy level rarely lays aside two 1-point cards
    assert set(KEYS) - rare <= set(seen), set(KEYS) - set(seen)
    assert none < len(ds) // 10, (none, seen)


@pytest.mark.slow
def test_the_checker_catches_false_claims() -> None:
    """The independent check is not a rubber stamp: a reason given for another
    move, or another reason, is caught."""
    wrong = 0
    total = 0
    for state, seat, cmd in decisions()[:600]:
        view = seat_view(state, seat)
        r = reason(view, cmd)
        if r is None or not isinstance(cmd, Play) or r.key == "forced":
            continue
        for other in view.legal():
            if other != cmd:
                total += 1
                wrong += not claim_holds(view, other, r)
    assert total > 200 and wrong > total // 4, (wrong, total)


def redeal(state: State, seat: int, rand: random.Random) -> State | None:
    """The hidden cards (the other seats' hands) dealt again among those seats,
    each keeping its size and never given a suit it has shown void in (R7: a
    card not following shows the void; not trumping shows no trumps)."""
    rules = state.rules
    view = seat_view(state, seat)
    voids = view.voids()
    others = [s for s in range(rules.n_seats) if s != seat]
    pool = []
    for s in others:
        pool += [c for c in range(rules.pack.n_cards) if state.hands[s] >> c & 1]
    for _ in range(200):
        rand.shuffle(pool)
        hands = list(state.hands)
        i = 0
        ok = True
        for s in others:
            n = state.hands[s].bit_count()
            m = 0
            for c in pool[i:i + n]:
                m |= 1 << c
            i += n
            if m & voids[s]:
                ok = False
                break
            hands[s] = m
        if ok:
            return state._replace(hands=tuple(hands))
    return None


@pytest.mark.parametrize("game", ["piedicavallo", "scarto"])
def test_no_reason_depends_on_a_hidden_card(game: str) -> None:
    rand = random.Random(32)
    changed = 0
    checked = 0
    for state, seat, cmd in corpus(game, 6):
        r = reason(seat_view(state, seat), cmd)
        for _ in range(3):
            other = redeal(state, seat, rand)
            if other is None:
                continue
            checked += 1
            changed += other.hands != state.hands
            assert reason(seat_view(other, seat), cmd) == r
    assert checked > 500 and changed > checked // 2
