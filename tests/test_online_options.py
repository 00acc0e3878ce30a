"""The server tells the seat on turn what it may do (PROTOCOL.md, ``options``):
always the engine's legal list, never a card the seat cannot see, and enough to
play a whole game without a rule on the client's side."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine.cards import cards_mask
from engine.ruleset import ruleset
from engine.state import DISCARD, PLAY, apply, decide, due_event, legal_commands, new_game
from engine.view import seat_view
from online.client import SeatClient
from online.options import options_commands, options_message, seat_options
from online.server import start_background
from tests.support.online_harness import check_frames, truth, wait_until


def _random_positions(variant: str, seed: int, n_deals: int = 1):
    """Every position of a random game where a seat is to decide."""
    rules = ruleset(variant)
    rnd = random.Random(seed)
    st = new_game(seed, n_deals, rules=rules)
    while True:
        while (d := due_event(st)) is not None:
            st = apply(st, d)
        legal = legal_commands(st)
        if not legal:
            return
        yield st
        cmd = legal[rnd.randrange(len(legal))]
        for e in decide(st, cmd):
            st = apply(st, e)


@pytest.mark.parametrize("variant", ["piedicavallo", "scarto"])
def test_options_are_the_engine_legal_list_and_only_the_seat_s_own_cards(variant: str) -> None:
    rules = ruleset(variant)
    positions = 0
    for seed in range(6):
        for st in _random_positions(variant, seed, rules.full_game if seed == 0 else 1):
            positions += 1
            for seat in range(rules.n_seats):
                view = seat_view(st, seat)
                body = seat_options(view)
                if seat != st.turn:
                    assert body is None
                    continue
                assert body is not None
                msg = options_message(view, 5)
                assert msg is not None and msg["seq"] == 5 and msg["seat"] == seat
                named = body["play"] if "play" in body else body["discard"]["cards"]
                held = cards_mask(rules.pack.parse(c) for c in named)
                assert held & ~view.hand == 0
                assert sorted(options_commands(body, seat, view)) == sorted(legal_commands(st))
                if st.phase == DISCARD:
                    assert body["discard"]["count"] == rules.discard_cards
                    assert body["discard"]["announced"] == rules.announces_discard_trumps
    assert positions > 100


def test_a_piedicavallo_hand_short_of_suit_cards_gets_its_choices_listed() -> None:
    """R6: with one non-King suit card the dealer must lay a trump beside it; the
    discard is then not 'any two of these', so every legal pair is listed."""
    rules = ruleset("piedicavallo")
    pack = rules.pack
    st = new_game(1, 1, rules=rules)
    st = apply(st, due_event(st))  # type: ignore[arg-type]
    dealer = st.dealer
    codes = ["SK", "BK", "CK", "DK", "C1", *(f"T{n}" for n in range(2, 14))]
    hand = cards_mask(pack.parse(c) for c in codes)
    st = st._replace(hands=tuple(hand if s == dealer else h & ~hand for s, h in enumerate(st.hands)))
    body = seat_options(seat_view(st, dealer))
    assert body is not None
    d = body["discard"]
    assert d["choices"] is not None and d["count"] == 2
    assert sorted(options_commands(body, dealer, seat_view(st, dealer))) == sorted(legal_commands(st))
    assert all("C1" in ch for ch in d["choices"])  # the last suit card goes with a trump
    assert set(d["cards"]) == {"C1", *(f"T{n}" for n in range(2, 14))}
    assert len(d["choices"]) == 12


def _chooser(c: SeatClient, seed: int) -> Any:
    """Play from the server's ``options`` only: the latest one for the seq we are at."""
    rnd = random.Random(seed)
    latest: dict[str, Any] = {}
    previous = c.on_message

    def on_message(msg: dict[str, Any]) -> None:
        if msg.get("type") == "options":
            latest["msg"] = msg
        if previous is not None:
            previous(msg)

    c.on_message = on_message

    async def loop() -> int:
        sent = 0
        while c.over is None:
            m = latest.get("msg")
            if m is not None and m["seq"] == c.last_seq and not c.pending and c.view is not None:
                latest.pop("msg")
                if "play" in m:
                    body: dict[str, Any] = {"play": rnd.choice(m["play"])}
                else:
                    d = m["discard"]
                    pick = (rnd.sample(d["cards"], d["count"]) if d["choices"] is None
                            else rnd.choice(d["choices"]))
                    body = {"discard": pick}
                await c.send_command(body)
                sent += 1
            await asyncio.sleep(0.005)
        return sent

    return loop


@pytest.mark.slow
@pytest.mark.parametrize("variant,seats", [("scarto", ["human", "human", "random"]),
                                           ("piedicavallo", ["human", "random", "human", "random"])])
def test_people_who_play_only_what_options_say_finish_a_game(tmp_path: Path, variant: str,
                                                             seats: list[str]) -> None:
    server = start_background(tmp_path / "server")

    async def main() -> tuple[str, dict[int, SeatClient], dict[int, int]]:
        host = SeatClient(server.url, "host", record=True)
        await host.connect()
        code, _ = await host.create(variant, 1, seats, {})
        clients: dict[int, SeatClient] = {}
        for s, kind in enumerate(seats):
            if kind != "human":
                continue
            c = host if not clients else SeatClient(server.url, f"p{s}", record=True)
            if clients:
                await c.connect()
            await c.join(code, s)
            clients[s] = c
        loops = {s: _chooser(c, s) for s, c in clients.items()}
        await host.host("start")
        sent = await asyncio.wait_for(asyncio.gather(*(loops[s]() for s in clients)), 120)
        for c in clients.values():
            await wait_until(lambda c=c: c.over is not None and not c.pending, 30, "game over")
            await c.close()
        return code, clients, dict(zip(clients, sent, strict=True))

    try:
        code, clients, sent = asyncio.run(main())
        _, _, states, _ = truth(server.data_dir, code)
        for seat, c in clients.items():
            check_frames(c, seat, server.data_dir, code)
            offered = [json.loads(f) for f in c.frames if '"type":"options"' in f]
            decisions = sum(1 for st in states if st.turn == seat and st.phase in (PLAY, DISCARD)
                            and due_event(st) is None)
            assert len(offered) == decisions == sent[seat], seat
            assert not any(json.loads(f).get("code") == "illegal_move" for f in c.frames)
    finally:
        server.stop()
