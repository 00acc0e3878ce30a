"""The wire protocol (PROTOCOL.md): versioned JSON messages, every field bounded.

Each message is one JSON object in one websocket text frame, with a ``type``.
:func:`decode_client` parses and checks a client's frame (a
:class:`ProtocolError` says what is wrong, with a code the client can act on);
:func:`encode` writes any message compactly.  The codecs of the engine's data
(events as a seat sees them, a :class:`~engine.view.SeatView`) use the card
codes of the game's pack (``"SK"``, ``"T21"``), as the replay files do.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from engine.cards import CardError, Pack, cards_mask
from engine.replay import event_from_json, event_to_json
from engine.ruleset import Ruleset, ruleset, variant_names
from engine.state import CardPlayed, Command, Dealt, Discard, Discarded, Event, Play, TrickTaken
from engine.view import SPECTATOR, SeatView

PROTOCOL_VERSION = 1

#: a client frame over this many bytes gets a ``too_big`` error (and is not read);
#: the websocket layer closes the connection (1009) on frames over HARD_MAX_FRAME
MAX_FRAME = 8 * 1024
HARD_MAX_FRAME = 64 * 1024
#: what a client accepts from the server (a snapshot is a few KB)
CLIENT_MAX_FRAME = 256 * 1024

MAX_NAME = 32
MAX_LEVEL = 16
MAX_COMMAND_ID = 32
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L
CODE_LENGTH = 6
TOKEN_CHARS = 43  # secrets.token_urlsafe(32)
MAX_SEQ = 1_000_000
MAX_TURN_SECONDS = 3600
MAX_TAKEOVER_SECONDS = 86_400
MAX_SEATS = 4
#: a client more than this many events behind gets one snapshot instead
RESUME_EVENTS_MAX = 256

_CODE_RE = re.compile(f"^[{CODE_ALPHABET}]{{{CODE_LENGTH}}}$")
_TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
_CARD_RE = re.compile(r"^[A-Z0-9]{1,4}$")
_ID_RE = re.compile(r"^[\x21-\x7e]{1," + str(MAX_COMMAND_ID) + r"}$")

CLIENT_TYPES = frozenset(
    {"hello", "create", "join", "resume", "command", "set_seat", "start", "takeover", "ping"}
)
SERVER_TYPES = frozenset(
    {"welcome", "created", "lobby", "seated", "watching", "resumed", "event", "snapshot", "ack",
     "options",
     "presence", "deal_end", "game_over", "timeout", "takeover", "error", "pong", "bye"}
)


class ProtocolError(Exception):
    """A message refused; ``code`` is a short key (PROTOCOL.md lists them), ``text``
    an English sentence naming what is wrong."""

    def __init__(self, code: str, text: str, **data: Any) -> None:
        super().__init__(f"{code}: {text}")
        self.code = code
        self.text = text
        self.data = data

    def message(self, msg_id: str | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "error", "code": self.code, "text": self.text}
        if msg_id is not None:
            out["id"] = msg_id
        out.update(self.data)
        return out


def encode(msg: dict[str, Any]) -> str:
    return json.dumps(msg, separators=(",", ":"), ensure_ascii=False)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def loads(raw: str | bytes) -> Any:
    """JSON of one frame; ProtocolError ``bad_json`` if it is not."""
    try:
        return json.loads(raw, parse_constant=_refuse_constant)
    except (ValueError, RecursionError, UnicodeDecodeError) as exc:
        raise ProtocolError("bad_json", f"the message is not JSON: {exc}") from None


# --- field checks ----------------------------------------------------------------


def _str(obj: dict[str, Any], key: str, lo: int, hi: int, *, optional: bool = False) -> Any:
    v = obj.get(key)
    if v is None and optional:
        return None
    if not isinstance(v, str) or not lo <= len(v) <= hi:
        raise ProtocolError("bad_message", f"'{key}' must be a string of {lo} to {hi} characters")
    return v


def _int(obj: dict[str, Any], key: str, lo: int, hi: int, *, optional: bool = False) -> Any:
    v = obj.get(key)
    if v is None and optional:
        return None
    if type(v) is not int or not lo <= v <= hi:
        raise ProtocolError("bad_message", f"'{key}' must be a whole number from {lo} to {hi}")
    return v


def _code(obj: dict[str, Any]) -> str:
    v = obj.get("code")
    if not isinstance(v, str) or not _CODE_RE.match(v.upper()):
        raise ProtocolError(
            "bad_message", f"'code' must be a table code of {CODE_LENGTH} letters and digits"
        )
    return v.upper()


def _token(obj: dict[str, Any], key: str = "token") -> str:
    v = obj.get(key)
    if not isinstance(v, str) or not _TOKEN_RE.match(v):
        raise ProtocolError("bad_message", f"'{key}' must be a token of 16 to 64 characters")
    return v


def _name(obj: dict[str, Any]) -> str:
    v = _str(obj, "name", 1, MAX_NAME, optional=True)
    if v is None:
        return ""
    v = " ".join(v.split())
    if not v.isprintable():
        raise ProtocolError("bad_message", "'name' must be printable text")
    return v


def _seat_kind(v: Any) -> str:
    if not isinstance(v, str) or not 1 <= len(v) <= MAX_LEVEL or not v.isidentifier():
        raise ProtocolError("bad_message", 'a seat must be "human" or an AI level name')
    return v


def _check_keys(obj: dict[str, Any], allowed: set[str]) -> None:
    extra = set(obj) - allowed - {"type"}
    if extra:
        raise ProtocolError("bad_message", f"unknown field(s): {', '.join(sorted(extra)[:4])[:80]}")


def _command(obj: dict[str, Any]) -> dict[str, Any]:
    c = obj.get("command")
    if not isinstance(c, dict) or len(c) != 1:
        raise ProtocolError(
            "bad_message", '\'command\' must be {"play": CARD} or {"discard": [CARD, ...]}'
        )
    if "play" in c:
        card = c["play"]
        if not isinstance(card, str) or not _CARD_RE.match(card):
            raise ProtocolError("bad_message", "'play' must be one card code, e.g. \"SK\"")
        return {"play": card}
    if "discard" in c:
        cards = c["discard"]
        if (not isinstance(cards, list) or not 1 <= len(cards) <= 8
                or not all(isinstance(x, str) and _CARD_RE.match(x) for x in cards)):
            raise ProtocolError("bad_message", "'discard' must be a list of 1 to 8 card codes")
        return {"discard": list(cards)}
    raise ProtocolError(
        "bad_message", '\'command\' must be {"play": CARD} or {"discard": [CARD, ...]}'
    )


def _hello(obj: dict[str, Any], out: dict[str, Any]) -> None:
    _check_keys(obj, {"protocol", "name"})
    out["protocol"] = _int(obj, "protocol", 0, 1_000_000)
    out["name"] = _name(obj)


def _create(obj: dict[str, Any], out: dict[str, Any]) -> None:
    _check_keys(obj, {"variant", "deals", "seats", "settings", "name"})
    variant = obj.get("variant", "piedicavallo")
    if variant not in variant_names():
        raise ProtocolError("bad_message", f"'variant' must be one of {', '.join(variant_names())}")
    rules = ruleset(variant)
    out["variant"] = variant
    deals = obj.get("deals", rules.full_game)
    if type(deals) is not int or deals not in rules.game_lengths:
        raise ProtocolError("bad_message", f"'deals' must be one of {list(rules.game_lengths)}")
    out["deals"] = deals
    seats = obj.get("seats")
    if not isinstance(seats, list) or len(seats) != rules.n_seats:
        raise ProtocolError("bad_message", f"'seats' must list {rules.n_seats} seats")
    out["seats"] = [_seat_kind(s) for s in seats]
    out["settings"] = _table_settings(obj.get("settings", {}))
    out["name"] = _name(obj)


def _table_settings(settings: object) -> dict[str, Any]:
    """A new table's settings: the turn clock, the AI takeover, the fallback level."""
    if not isinstance(settings, dict):
        raise ProtocolError("bad_message", "'settings' must be an object")
    _check_keys(settings, {"turn_seconds", "ai_takeover_seconds", "fallback_level"})
    return {
        "turn_seconds": _int(settings, "turn_seconds", 0, MAX_TURN_SECONDS, optional=True) or 0,
        "ai_takeover_seconds": _int(settings, "ai_takeover_seconds", 0, MAX_TAKEOVER_SECONDS,
                                    optional=True) or 0,
        "fallback_level": _seat_kind(settings.get("fallback_level", "easy")),
    }


def _join(obj: dict[str, Any], out: dict[str, Any]) -> None:
    _check_keys(obj, {"code", "seat", "name"})
    out["code"] = _code(obj)
    if "seat" not in obj:
        raise ProtocolError("bad_message", "'seat' is missing: a seat number, or null to watch")
    out["seat"] = _int(obj, "seat", 0, MAX_SEATS - 1, optional=True)
    out["name"] = _name(obj)


def _resume(obj: dict[str, Any], out: dict[str, Any]) -> None:
    _check_keys(obj, {"code", "token", "last_seq"})
    out["code"] = _code(obj)
    out["token"] = _token(obj)
    out["last_seq"] = _int(obj, "last_seq", 0, MAX_SEQ)


def _command_frame(obj: dict[str, Any], out: dict[str, Any]) -> None:
    _check_keys(obj, {"id", "command", "seat"})
    cid = obj.get("id")
    if not isinstance(cid, str) or not _ID_RE.match(cid):
        raise ProtocolError(
            "bad_message", f"'id' must be 1 to {MAX_COMMAND_ID} printable ASCII characters"
        )
    out["id"] = cid
    out["seat"] = _int(obj, "seat", 0, MAX_SEATS - 1, optional=True)
    out["command"] = _command(obj)


def _host_frame(obj: dict[str, Any], out: dict[str, Any]) -> None:
    """``set_seat``, ``start`` and ``takeover``: the host's orders for a table."""
    kind = out["type"]
    _check_keys(obj, {"code", "host_token", "seat", "level"})
    out["code"] = _code(obj)
    out["host_token"] = _token(obj, "host_token")
    if kind != "start":
        out["seat"] = _int(obj, "seat", 0, MAX_SEATS - 1)
    if kind == "set_seat":
        out["level"] = _seat_kind(obj.get("level"))
    if kind == "takeover":
        lvl = obj.get("level")
        out["level"] = _seat_kind(lvl) if lvl is not None else None


def _ping(obj: dict[str, Any], out: dict[str, Any]) -> None:
    _check_keys(obj, {"t"})
    out["t"] = _int(obj, "t", 0, 2**53, optional=True)


#: The checks of each client message type's fields, filling the decoded frame.
_CLIENT_FIELDS: dict[str, Callable[[dict[str, Any], dict[str, Any]], None]] = {
    "hello": _hello,
    "create": _create,
    "join": _join,
    "resume": _resume,
    "command": _command_frame,
    "set_seat": _host_frame,
    "start": _host_frame,
    "takeover": _host_frame,
    "ping": _ping,
}


def decode_client(raw: str | bytes) -> dict[str, Any]:
    """One client frame, parsed and checked: a new dict with only the known fields,
    each within its bounds.  Raises :class:`ProtocolError`."""
    if len(raw) > MAX_FRAME:
        raise ProtocolError("too_big", f"a message is at most {MAX_FRAME} bytes")
    obj = loads(raw)
    if not isinstance(obj, dict):
        raise ProtocolError("bad_message", "a message must be a JSON object")
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_TYPES:
        shown = kind[:20] if isinstance(kind, str) else type(kind).__name__
        raise ProtocolError("unknown_type", f"unknown message type {shown!r}")
    out: dict[str, Any] = {"type": kind}
    _CLIENT_FIELDS[kind](obj, out)
    return out


# --- commands --------------------------------------------------------------------


def command_from_json(c: dict[str, Any], seat: int, rules: Ruleset) -> Command:
    """``{"play": "SK"}`` / ``{"discard": [...]}`` for ``seat``; ProtocolError
    ``bad_card`` for a code that is not a card of this game's pack."""
    try:
        if "play" in c:
            return Play(seat, rules.pack.parse(c["play"]))
        return Discard(seat, tuple(sorted(rules.pack.parse(x) for x in c["discard"])))
    except CardError as exc:
        raise ProtocolError("bad_card", str(exc)) from None


def command_to_json(cmd: Command, rules: Ruleset) -> dict[str, Any]:
    codes = rules.pack.codes
    if isinstance(cmd, Play):
        return {"play": codes[cmd.card]}
    return {"discard": [codes[c] for c in cmd.cards]}


# --- events as a seat sees them ----------------------------------------------------


def event_json(e: Event, rules: Ruleset) -> dict[str, Any]:
    """An event (already filtered for the seat, :func:`engine.view.seat_event`) as
    JSON: the replay format's objects; a hidden discard has ``"cards": []`` and a
    hidden trump count ``"trumps": -1``."""
    out = event_to_json(e, rules)
    if isinstance(e, Discarded) and e.cards == 0:
        out["trumps"] = e.trumps
    return out


def event_from_wire(obj: Any, rules: Ruleset) -> Event:
    """The inverse of :func:`event_json` (a filtered deal has ``[]`` for hidden hands)."""
    if isinstance(obj, dict) and obj.get("type") == "discard" and obj.get("cards") == []:
        seat, trumps = obj.get("seat"), obj.get("trumps", -1)
        if type(seat) is not int or not 0 <= seat < rules.n_seats or type(trumps) is not int:
            raise ValueError("a hidden discard needs its seat and trump count")
        return Discarded(seat, 0, trumps)
    return event_from_json(obj, rules)


def event_cards(e: Event) -> int:
    """Every card an event names, as a mask (for the tests' leak checks)."""
    if isinstance(e, CardPlayed):
        return 1 << e.card
    if isinstance(e, TrickTaken):
        return cards_mask(e.cards)
    if isinstance(e, Dealt):
        m = e.stock
        for h in e.hands:
            m |= h
        return m
    if isinstance(e, Discarded):
        return e.cards
    return 0


# --- the seat view ---------------------------------------------------------------


def view_to_json(v: SeatView) -> dict[str, Any]:
    pack = v.rules.pack
    codes = pack.codes
    return {
        "variant": v.rules.name,
        "seat": v.seat,
        "seed": v.seed,
        "n_deals": v.n_deals,
        "phase": v.phase,
        "deal_no": v.deal_no,
        "dealer": v.dealer,
        "hand": pack.mask_codes(v.hand),
        "discard": pack.mask_codes(v.discard),
        "discard_trumps": v.discard_trumps,
        "turn": v.turn,
        "leader": v.leader,
        "trick": [codes[c] for c in v.trick],
        "trick_no": v.trick_no,
        "hand_sizes": list(v.hand_sizes),
        "played": [pack.mask_codes(m) for m in v.played],
        "piles": [pack.mask_codes(m) for m in v.piles],
        "tricks_won": list(v.tricks_won),
        "scores": [list(s) for s in v.scores],
        "history": [[leader, [codes[c] for c in cards]] for leader, cards in v.history],
        "stock": pack.mask_codes(v.stock),
    }


def _ints(v: Any, n: int, what: str) -> tuple[int, ...]:
    if not isinstance(v, list) or len(v) != n or not all(type(x) is int for x in v):
        raise ValueError(f"'{what}' must be {n} whole numbers")
    return tuple(v)


def _view_mask(pack: Pack, x: Any, what: str) -> int:
    if not isinstance(x, list) or len(x) > pack.n_cards:
        raise ValueError(f"'{what}' must be a list of card codes")
    return cards_mask(pack.parse(c) for c in x)


def _view_cards(rules: Ruleset, x: Any, what: str) -> tuple[int, ...]:
    if not isinstance(x, list) or len(x) > rules.n_seats:
        raise ValueError(f"'{what}' must be a list of card codes")
    return tuple(rules.pack.parse(c) for c in x)


def _view_num(obj: dict[str, Any], key: str, lo: int, hi: int) -> int:
    x = obj.get(key)
    if type(x) is not int or not lo <= x <= hi:
        raise ValueError(f"'{key}' must be a whole number from {lo} to {hi}")
    return x


def _view_lists(obj: dict[str, Any], rules: Ruleset) -> tuple[list[Any], list[Any], list[Any], list[Any]]:
    """A snapshot view's ``played``, ``piles``, ``scores`` and ``history``, each
    checked for its shape (the cards in them are parsed later)."""
    n, k = rules.n_seats, rules.n_sides
    played = obj.get("played")
    piles = obj.get("piles")
    scores = obj.get("scores")
    history = obj.get("history")
    if not isinstance(played, list) or len(played) != n:
        raise ValueError(f"'played' must be {n} lists")
    if not isinstance(piles, list) or len(piles) != k:
        raise ValueError(f"'piles' must be {k} lists")
    if not isinstance(scores, list) or len(scores) > rules.full_game:
        raise ValueError("'scores' must be a list of deal scores")
    if not isinstance(history, list) or len(history) > rules.n_tricks:
        raise ValueError("'history' must be a list of tricks")
    return played, piles, scores, history


def view_from_json(obj: Any) -> SeatView:
    """Parse a snapshot's view; ValueError (or CardError) says what is wrong."""
    if not isinstance(obj, dict):
        raise ValueError("a view must be an object")
    variant = obj.get("variant")
    if variant not in variant_names():
        raise ValueError(f"unknown variant {variant!r}")
    rules = ruleset(variant)
    pack = rules.pack
    n, k = rules.n_seats, rules.n_sides
    played, piles, scores, history = _view_lists(obj, rules)
    hist = []
    for h in history:
        if not (isinstance(h, list) and len(h) == 2 and type(h[0]) is int):
            raise ValueError("a trick of 'history' is [leader, cards]")
        hist.append((h[0], _view_cards(rules, h[1], "history")))
    return SeatView(
        seat=_view_num(obj, "seat", SPECTATOR, n - 1),
        seed=_view_num(obj, "seed", 0, 2**64),
        n_deals=_view_num(obj, "n_deals", 1, rules.full_game),
        phase=_view_num(obj, "phase", 0, 3),
        deal_no=_view_num(obj, "deal_no", 0, rules.full_game),
        dealer=_view_num(obj, "dealer", -1, n - 1),
        hand=_view_mask(pack, obj.get("hand"), "hand"),
        discard=_view_mask(pack, obj.get("discard"), "discard"),
        discard_trumps=_view_num(obj, "discard_trumps", -1, 8),
        turn=_view_num(obj, "turn", -1, n - 1),
        leader=_view_num(obj, "leader", -1, n - 1),
        trick=_view_cards(rules, obj.get("trick"), "trick"),
        trick_no=_view_num(obj, "trick_no", 0, rules.n_tricks),
        hand_sizes=_ints(obj.get("hand_sizes"), n, "hand_sizes"),
        played=tuple(_view_mask(pack, p, "played") for p in played),
        piles=tuple(_view_mask(pack, p, "piles") for p in piles),
        tricks_won=_ints(obj.get("tricks_won"), k, "tricks_won"),
        scores=tuple(_ints(s, k, "scores") for s in scores),
        history=tuple(hist),
        rules=rules,
        stock=_view_mask(pack, obj.get("stock"), "stock"),
    )


def view_cards(v: SeatView) -> int:
    """Every card a view names, as a mask (for the tests' leak checks)."""
    m = v.hand | v.discard | v.stock
    for x in (*v.played, *v.piles):
        m |= x
    for c in v.trick:
        m |= 1 << c
    for _, cards in v.history:
        for c in cards:
            m |= 1 << c
    return m


__all__ = [
    "PROTOCOL_VERSION", "MAX_FRAME", "ProtocolError", "encode", "decode_client",
    "command_from_json", "command_to_json", "event_json", "event_from_wire", "view_to_json",
    "view_from_json", "CardError",
]
