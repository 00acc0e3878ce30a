"""The wire protocol: messages checked field by field, codecs that round-trip."""

from __future__ import annotations

import json
import random

import pytest

from engine.game import Game
from engine.ruleset import ruleset
from engine.view import SPECTATOR, seat_event, seat_view
from online.protocol import (
    MAX_FRAME,
    ProtocolError,
    command_from_json,
    command_to_json,
    decode_client,
    encode,
    event_from_wire,
    event_json,
    view_from_json,
    view_to_json,
)


def _random_game(variant: str, seed: int, deals: int) -> Game:
    rules = ruleset(variant)
    g = Game(seed, deals, rules=rules)
    rnd = random.Random(seed)
    while g.legal():
        legal = g.legal()
        g.submit(legal[rnd.randrange(len(legal))])
    return g


@pytest.mark.parametrize("variant", ["piedicavallo", "scarto"])
def test_views_and_events_round_trip_for_every_seat(variant: str) -> None:
    rules = ruleset(variant)
    for seed in (1, 2):
        g = _random_game(variant, seed, rules.full_game if seed == 1 else 1)
        for i in range(0, len(g.states), 3):
            for seat in [*range(rules.n_seats), SPECTATOR]:
                v = seat_view(g.states[i], seat)
                wire = json.loads(encode(view_to_json(v)))
                assert view_from_json(wire) == v
        for e in g.events:
            for seat in [*range(rules.n_seats), SPECTATOR]:
                seen = seat_event(e, seat, rules)
                assert event_from_wire(json.loads(encode(event_json(seen, rules))), rules) == seen


def test_commands_round_trip() -> None:
    rules = ruleset("scarto")
    g = _random_game("scarto", 3, 1)
    st = g.states[1]  # the discard is due
    legal = list(Game(3, 1, rules=rules).legal())[:5]
    for cmd in legal:
        assert command_from_json(command_to_json(cmd, rules), cmd.seat, rules) == cmd
    assert st.phase == 1
    with pytest.raises(ProtocolError) as exc:
        command_from_json({"play": "ZZ"}, 0, rules)
    assert exc.value.code == "bad_card"


GOOD = [
    {"type": "hello", "protocol": 1, "name": "Ada"},
    {"type": "create", "variant": "scarto", "deals": 3, "seats": ["human", "easy", "human"],
     "settings": {"turn_seconds": 30, "ai_takeover_seconds": 60}},
    {"type": "join", "code": "ABCDEF", "seat": 2, "name": "Bo"},
    {"type": "join", "code": "abcdef", "seat": None},
    {"type": "resume", "code": "ABCDEF", "token": "x" * 43, "last_seq": 12},
    {"type": "command", "id": "c1", "command": {"play": "SK"}},
    {"type": "command", "id": "c2", "command": {"discard": ["S1", "SK"]}},
    {"type": "set_seat", "code": "ABCDEF", "host_token": "y" * 43, "seat": 1, "level": "hard"},
    {"type": "start", "code": "ABCDEF", "host_token": "y" * 43},
    {"type": "takeover", "code": "ABCDEF", "host_token": "y" * 43, "seat": 3},
    {"type": "ping"},
]


@pytest.mark.parametrize("msg", GOOD, ids=lambda m: m["type"])
def test_good_messages_decode(msg: dict) -> None:
    out = decode_client(encode(msg))
    assert out["type"] == msg["type"]
    if "code" in msg:
        assert out["code"] == msg["code"].upper()


BAD = [
    ("not json", "bad_json"),
    ("[1, 2]", "bad_message"),
    ('{"type": "fly"}', "unknown_type"),
    ('{"protocol": 1}', "unknown_type"),
    ('{"type": "hello", "protocol": "1"}', "bad_message"),
    ('{"type": "hello", "protocol": 1, "name": "' + "n" * 33 + '"}', "bad_message"),
    ('{"type": "join", "code": "ABC", "seat": 0}', "bad_message"),
    ('{"type": "join", "code": "ABCDE0", "seat": 0}', "bad_message"),  # 0 is not in the alphabet
    ('{"type": "join", "code": "ABCDEF", "seat": 9}', "bad_message"),
    ('{"type": "join", "code": "ABCDEF", "seat": 0, "extra": 1}', "bad_message"),
    ('{"type": "resume", "code": "ABCDEF", "token": "short", "last_seq": 0}', "bad_message"),
    ('{"type": "resume", "code": "ABCDEF", "token": "' + "t" * 43 + '", "last_seq": -1}',
     "bad_message"),
    ('{"type": "command", "id": "", "command": {"play": "SK"}}', "bad_message"),
    ('{"type": "command", "id": "' + "i" * 33 + '", "command": {"play": "SK"}}', "bad_message"),
    ('{"type": "command", "id": "a", "command": {"play": "SK", "discard": []}}', "bad_message"),
    ('{"type": "command", "id": "a", "command": {"discard": ["S1", 2]}}', "bad_message"),
    ('{"type": "command", "id": "a", "command": {"play": "' + "S" * 9 + '"}}', "bad_message"),
    ('{"type": "create", "variant": "bridge", "seats": []}', "bad_message"),
    ('{"type": "create", "variant": "scarto", "deals": 2, "seats": ["human"]}', "bad_message"),
    ('{"type": "create", "variant": "scarto", "deals": 1, "seats": ["human", "a b", "c"]}',
     "bad_message"),
    ('{"type": "create", "variant": "scarto", "deals": 1, "seats": ["human", "easy", "easy"],'
     ' "settings": {"turn_seconds": 99999}}', "bad_message"),
    ('{"type": "ping", "t": 1e400}', "bad_message"),
    ('{"type": "ping", "t": NaN}', "bad_json"),
    ("[" * 100_000, "too_big"),
    ('{"type": "ping", "pad": "' + "p" * MAX_FRAME + '"}', "too_big"),
]


@pytest.mark.parametrize("raw,code", BAD, ids=[c + str(i) for i, (_, c) in enumerate(BAD)])
def test_bad_messages_get_a_code_and_a_sentence(raw: str, code: str) -> None:
    with pytest.raises(ProtocolError) as exc:
        decode_client(raw)
    assert exc.value.code == code
    assert exc.value.text
    err = exc.value.message("c1")
    assert err["type"] == "error" and err["id"] == "c1" and err["code"] == code
