"""The frame shared by the independent references of each game's replay files.

A reference (``tests/support/reference_piedicavallo.py``,
``tests/support/reference_scarto.py``) is a module that holds one game's rules in
plain strings, lists and sets, written from RULES.md and docs/REPLAY-FORMAT.md
alone: nothing from ``engine.state``, ``engine.variants`` or the reader's code.  It
writes random legal files the way another correct program might, and reads files
back as the spec says.  The engine's reader must agree with it
(``tests/test_replay_reference.py``): accept every legal file with the same
position, and refuse every breach at the same line, citing a rule.

What is the same for every game lives here: the refusal, the JSON lines, the field
readers, the event loop of a reader, the written games, the ways another writer
formats a line, the comparison with the engine, and the mutation kinds that do not
depend on a game's rules.  A reference module provides:

- ``NAME`` (the header's ``variant``), ``SEATS``, ``PACK`` (card codes),
  ``RULE_IDS`` (the rule ids its messages may cite), ``SCORE_RULES``,
  ``DEAL_POINTS`` (what each deal's points add up to), ``MATCH_DEALS`` (a whole
  game's deals), ``COVERAGE`` (the corners its random games must reach);
- ``RefState`` (``summary()``, ``hands``, ``trick``, ``turn``, ``leader``,
  ``dealer``), ``ref_step(s, obj, line)``, ``read_header(objs)`` (the game length,
  or None for a file this reference does not model), ``ref_read(text)`` (its
  :func:`read_file`), ``legal_plays(hand, trick)``;
- ``write_game(rnd, n_deals, matto_bias)``, ``games()``, ``random_deal(rnd,
  dealer)`` (a legal deal event), ``engine_summary(state)``;
- ``MUTATORS`` (its own mutation kinds), ``header_mutations(head)``, ``BAD_CODES``,
  ``ALWAYS_LEGAL`` and ``MAY_STAY_LEGAL`` (kinds that may leave the file legal),
  ``MUTATIONS_PER_GAME`` and ``MUTATION_SAMPLE`` (how much to try).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import pytest

from engine.replay import ReplayError, parse_replay

ANY_RULE = "any"  # a rule breach: the message must cite some rule id of the game


Readers = dict[str, Callable[[dict[str, Any], int], Any]]
Due = dict[str, Callable[[Any, Any, Any, int], None]]
Steps = dict[str, Callable[[Any, Any, int], None]]


class RefRefused(Exception):
    def __init__(self, line: int, rules: frozenset[str] | str = frozenset()) -> None:
        super().__init__(line, rules)
        self.line = line
        self.rules = rules


class Huge:
    """An integer too long for Python's str->int limit: valid JSON, never in range."""


def parse_int(text: str) -> int | Huge:
    return Huge() if len(text.lstrip("-")) > 1000 else int(text)


def is_int(v: Any) -> bool:
    return type(v) is int or isinstance(v, Huge)


def read_seat(obj: dict[str, Any], key: str, line: int, seats: int) -> int:
    v = obj.get(key)
    if type(v) is not int or not 0 <= v < seats:
        raise RefRefused(line)
    return v


def read_cards(v: Any, line: int, pack: frozenset[str]) -> list[str]:
    if not isinstance(v, list) or not all(isinstance(c, str) and c in pack for c in v):
        raise RefRefused(line)
    return v


def read_card(obj: dict[str, Any], line: int, pack: frozenset[str]) -> str:
    card = obj.get("card")
    if not isinstance(card, str) or card not in pack:
        raise RefRefused(line)
    return card


def read_points(obj: dict[str, Any], line: int, seats: int) -> list[Any]:
    pts = obj.get("points")
    if not (isinstance(pts, list) and len(pts) == seats and all(is_int(p) for p in pts)):
        raise RefRefused(line)
    return pts


def event_readers(seats: int, pack: frozenset[str], sides: int,
                  read_deal: Callable[[dict[str, Any], int], Any],
                  read_discard: Callable[[dict[str, Any], int], Any]) -> Readers:
    """Each event kind's field reader (its fields, or RefRefused: malformed, no rule):
    the game's own deal and discard, and the play, trick and score (``sides`` points)
    that every game writes alike."""

    def read_play(obj: dict[str, Any], line: int) -> tuple[int, str]:
        return read_seat(obj, "seat", line, seats), read_card(obj, line, pack)

    def read_trick(obj: dict[str, Any], line: int) -> tuple[int, list[str]]:
        tcards = read_cards(obj.get("cards"), line, pack)
        if len(tcards) != seats:
            raise RefRefused(line)
        return read_seat(obj, "winner", line, seats), tcards

    def read_score(obj: dict[str, Any], line: int) -> list[Any]:
        return read_points(obj, line, sides)

    return {"deal": read_deal, "discard": read_discard, "play": read_play,
            "trick": read_trick, "score": read_score}


def due_score(rules: frozenset[str]) -> Callable[[Any, list[Any], Any, int], None]:
    """The score event due after a deal's last trick: exactly the reference's points
    (else refused citing ``rules``); then the next deal, or the game is over."""

    def due(s: Any, pts: list[Any], want: Any, line: int) -> None:
        if tuple(pts) != want:
            raise RefRefused(line, rules)
        s.scores.append(want)
        s.pending.pop(0)
        s.phase = "over" if len(s.scores) >= s.n_deals else "deal"
        s.turn = -1

    return due


def json_lines(text: str) -> list[Any]:
    """The file's lines as JSON values, or RefRefused at the first that is not one."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines:
        raise RefRefused(1)
    objs = []
    for i, ln in enumerate(lines, start=1):
        try:
            objs.append(json.loads(ln, parse_int=parse_int))
        except ValueError:
            raise RefRefused(i) from None
    return objs


def check_header_start(head: Any) -> None:
    """The format and version every replay header carries (line 1)."""
    if not isinstance(head, dict) or head.get("format") != "tarocchi-replay":
        raise RefRefused(1)
    if type(head.get("version")) is not int or head["version"] != 1:
        raise RefRefused(1)


def step_event(s: Any, obj: Any, line: int, readers: Readers, due: Due, steps: Steps) -> None:
    """Apply one event object to ``s`` (in place) or raise RefRefused.  ``readers``
    read each kind's fields; ``due`` takes the events the reference itself makes due
    (a trick after its last card, the score after the last trick), which must come
    next exactly as computed; ``steps`` the events a player writes."""
    if not isinstance(obj, dict):
        raise RefRefused(line)
    kind = obj.get("type")
    if kind not in ("deal", "discard", "play", "trick", "score"):
        raise RefRefused(line)
    # Field types first (a malformed event is refused whatever the position).
    fields = readers[kind](obj, line)
    if s.deal_no == 0 and kind != "deal":
        raise RefRefused(line, ANY_RULE)
    if s.pending:
        want_kind, want = s.pending[0]
        if kind != want_kind:
            raise RefRefused(line, ANY_RULE)
        due[kind](s, fields, want, line)
        return
    if kind not in steps:
        raise RefRefused(line, ANY_RULE)  # a trick or score that is not due
    steps[kind](s, fields, line)


def read_file(ref: ModuleType, text: str) -> dict[str, Any]:
    """The reference reader: a summary of the final position, or RefRefused; an
    empty summary for a file of another game that the reference only refuses to
    read as its own."""
    objs = json_lines(text)
    n_deals = ref.read_header(objs)
    if n_deals is None:
        return {}
    s = ref.RefState(n_deals=n_deals)
    for i, obj in enumerate(objs[1:], start=2):
        ref.ref_step(s, obj, i)
    summary: dict[str, Any] = s.summary()
    return summary


# --- the writer: random legal games, as another program would write them ------------


@dataclass
class Written:
    header: dict[str, Any]
    events: list[dict[str, Any]]
    states: list[Any]  # states[i]: the reference's position before events[i]
    coverage: set[str] = field(default_factory=set)


def emit(out: Written, s: Any, ev: dict[str, Any], ref_step: Callable[[Any, Any, int], None]) -> None:
    out.states.append(s.copy())
    ref_step(s, ev, len(out.events) + 2)
    out.events.append(ev)


def _styled_event(rnd: random.Random, obj: dict[str, Any]) -> dict[str, Any]:
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
    return dict(items)


def style_line(rnd: random.Random, obj: Any) -> str:
    """One JSON line the way some other correct writer might format it: unknown keys,
    keys and cards in any order, other separators, escaped or raw text, blanks around."""
    if isinstance(obj, dict):
        obj = _styled_event(rnd, obj)
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


# --- checks against the engine -------------------------------------------------------


def cites(ref: ModuleType, msg: str, rules: frozenset[str] | str) -> bool:
    """The engine's message cites one of ``rules``, as ``(R7)`` (any of the game's rule
    ids for ANY_RULE)."""
    want = ref.RULE_IDS if rules == ANY_RULE else rules
    return any(f"({r})" in msg for r in want)


def check_agrees(ref: ModuleType, text: str) -> str:
    """The engine and the reference agree on ``text``; returns 'ok' or 'refused'."""
    try:
        want = ref.ref_read(text)
    except RefRefused as refused:
        with pytest.raises(ReplayError) as exc:
            parse_replay(text)
        msg = str(exc.value)
        assert exc.value.line == refused.line, (msg, refused.line, text)
        assert msg.startswith(f"line {refused.line}: "), msg
        if refused.rules:
            assert cites(ref, msg, refused.rules), (msg, refused.rules)
        return "refused"
    got = parse_replay(text)
    if want:
        assert ref.engine_summary(got.final) == want
    return "ok"


# --- mutation kinds that do not depend on a game's rules ----------------------------
#
# Each changes ``evs`` (a deep copy of w's events) in place; ``ref`` is the game's
# reference module.


def index_of(w: Written, kind: str, rnd: random.Random) -> int:
    return rnd.choice([i for i, e in enumerate(w.events) if e["type"] == kind])


def _other_seat(ref: ModuleType, seat: int, rnd: random.Random) -> int:
    return int((seat + rnd.randrange(1, ref.SEATS)) % ref.SEATS)


def _m_play_any_card(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = index_of(w, "play", rnd)
    evs[i]["card"] = rnd.choice(ref.PACK)


def _m_play_another_hands_card(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = index_of(w, "play", rnd)
    st = w.states[i]
    others = [s for s in range(ref.SEATS) if s != evs[i]["seat"] and st.hands[s]]
    if others:
        evs[i]["card"] = rnd.choice(sorted(st.hands[rnd.choice(others)]))


def _m_play_revoke(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    for i in rnd.sample(range(len(evs)), len(evs)):
        if evs[i]["type"] == "play":
            st = w.states[i]
            hand = st.hands[evs[i]["seat"]]
            bad = sorted(hand - ref.legal_plays(hand, st.trick))
            if bad:
                evs[i]["card"] = rnd.choice(bad)
                break


def _m_play_another_legal_card(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = index_of(w, "play", rnd)
    st = w.states[i]
    evs[i]["card"] = rnd.choice(sorted(ref.legal_plays(st.hands[evs[i]["seat"]], st.trick)))


def _m_play_the_matto(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    cands = [i for i, e in enumerate(w.events)
             if e["type"] == "play" and "M" in w.states[i].hands[e["seat"]]]
    if cands:
        evs[rnd.choice(cands)]["card"] = "M"


def _m_play_out_of_turn(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = index_of(w, "play", rnd)
    evs[i]["seat"] = _other_seat(ref, evs[i]["seat"], rnd)


def _m_play_swap_two_plays(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = index_of(w, "play", rnd)
    if evs[i + 1]["type"] == "play":
        evs[i], evs[i + 1] = evs[i + 1], evs[i]


def _recount_trumps(ev: dict[str, Any]) -> None:
    """A discard that announces its trumps (Piedicavallo) keeps its count right, so
    the mutation breaks only what it means to."""
    if "trumps" in ev:
        ev["trumps"] = sum(1 for c in ev["cards"] if isinstance(c, str) and c.startswith("T"))


def _m_play_a_discarded_card(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = index_of(w, "play", rnd)
    st = w.states[i]
    gone = sorted(st.discard | getattr(st, "stock", set()))
    if gone:
        evs[i]["card"] = rnd.choice(gone)


def _m_discard_never_card(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = index_of(w, "discard", rnd)
    st = w.states[i]
    never = sorted(st.hands[st.dealer] & ref.NEVER)
    if never:
        evs[i]["cards"][rnd.randrange(len(evs[i]["cards"]))] = rnd.choice(never)
        _recount_trumps(evs[i])


def _m_discard_any_own_card(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = index_of(w, "discard", rnd)
    st = w.states[i]
    evs[i]["cards"][rnd.randrange(len(evs[i]["cards"]))] = rnd.choice(sorted(st.hands[st.dealer]))
    _recount_trumps(evs[i])


def _m_discard_trump(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = index_of(w, "discard", rnd)
    st = w.states[i]
    trumps = sorted(c for c in st.hands[st.dealer] if c.startswith("T"))
    if trumps:
        evs[i]["cards"][rnd.randrange(len(evs[i]["cards"]))] = rnd.choice(trumps)
        _recount_trumps(evs[i])


def _m_discard_one_card_fewer_or_more(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = index_of(w, "discard", rnd)
    st = w.states[i]
    cards = evs[i]["cards"]
    if rnd.random() < 0.5:
        cards.pop(rnd.randrange(len(cards)))
    else:
        cards.append(rnd.choice(sorted(st.hands[st.dealer] - set(cards))))
    _recount_trumps(evs[i])


def _m_discard_another_hands_card(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = index_of(w, "discard", rnd)
    st = w.states[i]
    other = _other_seat(ref, st.dealer, rnd)
    evs[i]["cards"][rnd.randrange(len(evs[i]["cards"]))] = rnd.choice(sorted(st.hands[other]))


def _m_discard_a_card_twice(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = index_of(w, "discard", rnd)
    evs[i]["cards"][-1] = evs[i]["cards"][0]


def _m_discard_not_the_dealer(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = index_of(w, "discard", rnd)
    evs[i]["seat"] = _other_seat(ref, evs[i]["seat"], rnd)


def _m_discard_after_play_began(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = index_of(w, "discard", rnd)
    d = evs.pop(i)
    evs.insert(i + rnd.randrange(1, 6), d)


def _m_discard_twice(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = index_of(w, "discard", rnd)
    evs.insert(i + 1, dict(evs[i]))


def _m_discard_missing(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    del evs[index_of(w, "discard", rnd)]


def _m_trick_winner(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = index_of(w, "trick", rnd)
    evs[i]["winner"] = _other_seat(ref, evs[i]["winner"], rnd)


def _m_trick_cards(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = index_of(w, "trick", rnd)
    cards = evs[i]["cards"]
    if rnd.random() < 0.5:
        rnd.shuffle(cards)
    else:
        cards[rnd.randrange(ref.SEATS)] = rnd.choice(ref.PACK)


def _m_delete_one(kind: str) -> Callable[[ModuleType, Written, random.Random, list[Any]], None]:
    def mutator(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
        del evs[index_of(w, kind, rnd)]
    return mutator


def _m_repeat_one(kind: str) -> Callable[[ModuleType, Written, random.Random, list[Any]], None]:
    def mutator(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
        i = index_of(w, kind, rnd)
        evs.insert(i + 1, dict(evs[i]))
    return mutator


def _m_deal_card_twice(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = index_of(w, "deal", rnd)
    h = evs[i]["hands"]
    a, b = rnd.sample(range(ref.SEATS), 2)
    h[a][rnd.randrange(len(h[a]))] = rnd.choice(h[b] + h[a] + evs[i].get("stock", []))


def _m_deal_card_moved(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = index_of(w, "deal", rnd)
    h = evs[i]["hands"]
    a, b = rnd.sample(range(ref.SEATS), 2)
    h[b].append(h[a].pop())


def _m_deal_card_dropped(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = index_of(w, "deal", rnd)
    h = evs[i]["hands"][rnd.randrange(ref.SEATS)]
    h.pop(rnd.randrange(len(h)))


def _m_deal_wrong_dealer(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = index_of(w, "deal", rnd)
    evs[i]["dealer"] = _other_seat(ref, evs[i]["dealer"], rnd)


def _m_deal_extra_deal(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    last = [e for e in evs if e["type"] == "deal"][-1]["dealer"]
    evs.append(ref.random_deal(rnd, (last + 1) % ref.SEATS))


def _m_line_swap(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i, j = rnd.sample(range(len(evs)), 2)
    evs[i], evs[j] = evs[j], evs[i]


def _m_line_delete(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    del evs[rnd.randrange(len(evs))]


def _m_event_unknown_key(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = rnd.randrange(len(evs))
    evs[i][rnd.choice(["x", "note", "stock2", "trump", "Seat"])] = rnd.choice([1, "a", None])


def _m_event_unknown_type(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    i = rnd.randrange(len(evs))
    evs[i] = dict(evs[i], type=rnd.choice(["bid", "Play", "", None, 3, ["play"], "stock"]))


def _m_event_no_type(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    del evs[rnd.randrange(len(evs))]["type"]


def _m_event_not_an_object(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    evs[rnd.randrange(len(evs))] = rnd.choice([[1, 2], None, 42, "play", True])


def _m_event_bad_type_of_a_field(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    e = evs[rnd.randrange(len(evs))]
    key = rnd.choice([k for k in e if k != "type"])
    e[key] = rnd.choice(["1", 1.0, True, False, -1, ref.SEATS, 10**30, None, [], {}, "SK"])


def _m_event_bad_card_code(ref: ModuleType, w: Written, rnd: random.Random, evs: list[Any]) -> None:
    e = evs[rnd.randrange(len(evs))]
    bad = rnd.choice([*ref.BAD_CODES, "T0", "T22", "sk", "m", "", 5, None, "T01"])
    if e["type"] == "play":
        e["card"] = bad
    elif e["type"] in ("trick", "discard"):
        e["cards"][0] = bad
    elif e["type"] == "deal":
        rnd.choice([e["hands"][1], *([e["stock"]] if "stock" in e else [])])[0] = bad


Mutator = Callable[[ModuleType, Written, random.Random, list[Any]], None]

#: the mutation kinds of every game, by name
COMMON_MUTATORS: dict[str, Mutator] = {
    "play: any card": _m_play_any_card,
    "play: another hand's card": _m_play_another_hands_card,
    "play: revoke": _m_play_revoke,
    "play: another legal card": _m_play_another_legal_card,
    "play: the Matto": _m_play_the_matto,
    "play: out of turn": _m_play_out_of_turn,
    "play: swap two plays": _m_play_swap_two_plays,
    "play: a discarded card": _m_play_a_discarded_card,
    "discard: never card": _m_discard_never_card,
    "discard: any own card": _m_discard_any_own_card,
    "discard: trump": _m_discard_trump,
    "discard: one card fewer or more": _m_discard_one_card_fewer_or_more,
    "discard: another hand's card": _m_discard_another_hands_card,
    "discard: a card twice": _m_discard_a_card_twice,
    "discard: not the dealer": _m_discard_not_the_dealer,
    "discard: after play began": _m_discard_after_play_began,
    "discard: twice": _m_discard_twice,
    "discard: missing": _m_discard_missing,
    "trick: winner": _m_trick_winner,
    "trick: cards": _m_trick_cards,
    "trick: missing": _m_delete_one("trick"),
    "trick: twice": _m_repeat_one("trick"),
    "score: missing": _m_delete_one("score"),
    "score: twice": _m_repeat_one("score"),
    "deal: card twice": _m_deal_card_twice,
    "deal: card moved": _m_deal_card_moved,
    "deal: card dropped": _m_deal_card_dropped,
    "deal: wrong dealer": _m_deal_wrong_dealer,
    "deal: extra deal": _m_deal_extra_deal,
    "line: swap": _m_line_swap,
    "line: delete": _m_line_delete,
    "event: unknown key": _m_event_unknown_key,
    "event: unknown type": _m_event_unknown_type,
    "event: no type": _m_event_no_type,
    "event: not an object": _m_event_not_an_object,
    "event: bad type of a field": _m_event_bad_type_of_a_field,
    "event: bad card code": _m_event_bad_card_code,
}

#: kinds after which a file is always still legal (the engine must accept it)
COMMON_ALWAYS_LEGAL = frozenset({"event: unknown key"})
#: kinds that may leave a file legal (another legal card, lines that happen to fit)
COMMON_MAY_STAY_LEGAL = frozenset({
    "play: another legal card", "play: the Matto", "line: swap", "play: swap two plays",
    "discard: after play began", "discard: any own card", "header",
})


def mutations(ref: ModuleType) -> list[str]:
    """Every mutation kind of ``ref``'s game, the header's last."""
    return [*COMMON_MUTATORS, *ref.MUTATORS, "header"]


def mutate(ref: ModuleType, w: Written, rnd: random.Random, name: str) -> tuple[list[Any], Any]:
    """One single mutation ``name`` of ``w``; returns (events, header)."""
    evs: list[Any] = json.loads(json.dumps(w.events))
    head: Any = dict(w.header)
    if name == "header":
        return evs, rnd.choice(bad_headers(ref, head))
    mutator = COMMON_MUTATORS.get(name) or ref.MUTATORS[name]
    mutator(ref, w, rnd, evs)
    return evs, head


def bad_headers(ref: ModuleType, head: dict[str, Any]) -> list[Any]:
    """Headers no reader may take: another version, format or game, a key missing."""
    return [
        dict(head, version=2), dict(head, version=0), dict(head, version="1"),
        dict(head, version=True), dict(head, version=1.0), dict(head, variant="skat"),
        dict(head, variant=ref.NAME.capitalize()), dict(head, format="x"),
        {k: v for k, v in head.items() if k != "variant"},
        {k: v for k, v in head.items() if k != "version"},
        [head], None, *ref.header_mutations(head),
    ]
