"""Helpers of the online tests: the true game from the server's store, and the
check of every frame a client received against what its seat could know."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

from engine.replay import event_from_json
from engine.ruleset import Ruleset, ruleset
from engine.state import DealScored, Event, State, apply, legal_commands, new_game
from engine.view import SPECTATOR, seat_event, seat_view
from online.client import SeatClient
from online.options import options_commands
from online.protocol import event_cards, event_from_wire, view_cards, view_from_json

DB = "tarocchi.sqlite3"


def table_row(data: Path, code: str) -> dict[str, Any]:
    db = sqlite3.connect(data / DB)
    try:
        row = db.execute("SELECT id, variant, deals, seed, status FROM tables WHERE code = ?",
                         (code,)).fetchone()
    finally:
        db.close()
    assert row is not None, code
    return {"id": row[0], "variant": row[1], "deals": row[2], "seed": int(row[3]), "status": row[4]}


def stored_events(data: Path, code: str) -> list[str]:
    db = sqlite3.connect(data / DB)
    try:
        return [e for (e,) in db.execute(
            "SELECT e.event FROM events e JOIN tables t ON t.id = e.table_id WHERE t.code = ?"
            " ORDER BY e.seq", (code,))]
    finally:
        db.close()


def all_logs(data: Path) -> dict[str, list[str]]:
    db = sqlite3.connect(data / DB)
    try:
        codes = [c for (c,) in db.execute("SELECT code FROM tables")]
    finally:
        db.close()
    return {c: stored_events(data, c) for c in codes}


def truth(data: Path, code: str) -> tuple[Ruleset, list[Event], list[State], int]:
    """The table's events and the state after each (states[s]: after seq s)."""
    row = table_row(data, code)
    rules = ruleset(row["variant"])
    events = [event_from_json(json.loads(t), rules) for t in stored_events(data, code)]
    st = new_game(row["seed"], row["deals"], rules)
    states = [st]
    for e in events:
        st = apply(st, e)
        states.append(st)
    return rules, events, states, row["seed"]


FORBIDDEN_KEYS = {"hand", "hands", "stock", "discard", "cards", "seed", "token", "host_token"}


def _keys(obj: Any) -> set[str]:
    out: set[str] = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.add(k)
            out |= _keys(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= _keys(v)
    return out


def check_options(msg: dict[str, Any], seat: int, states: list[State]) -> None:
    """An ``options`` message: for ``seat`` on turn at its seq, naming only cards
    of the seat's hand, and allowing exactly the engine's legal commands."""
    st = states[msg["seq"]]
    assert msg["seat"] == seat == st.turn, (seat, msg["seq"], "options to a seat not on turn")
    view = seat_view(st, seat)
    pack = st.rules.pack
    named = msg["play"] if "play" in msg else msg["discard"]["cards"]
    for code in named:
        assert view.hand >> pack.parse(code) & 1, (seat, code, "options named a card not held")
    assert sorted(options_commands(msg, seat, view)) == sorted(legal_commands(st)), (seat, msg["seq"])


def check_frames(c: SeatClient, seat: int, data: Path, code: str,
                 sent_cards: int = 0) -> int:
    """Every frame ``c`` received (see :func:`check_messages`)."""
    return check_messages([json.loads(raw) for raw in c.frames], seat, data, code, sent_cards,
                          raws=c.frames)


def check_messages(msgs: list[dict[str, Any]], seat: int, data: Path, code: str,
                   sent_cards: int = 0, raws: list[str] | None = None) -> int:
    """Every message a seat received, against what ``seat`` could know at that seq:
    an event equals the true event as the seat sees it, a view equals the seat's
    view, every card named is one the seat may know, ``options`` are the engine's
    legal list; the game seed appears in no message before game over; no token
    but its own.  Returns the messages checked."""
    rules, events, states, seed = truth(data, code)
    seq = 0
    n = 0
    for i, msg in enumerate(msgs):
        raw = raws[i] if raws is not None else json.dumps(msg)
        kind = msg["type"]
        n += 1
        if kind != "game_over":
            assert str(seed) not in raw, f"the game seed went out in a {kind} frame"
        if kind == "event":
            seq = msg["seq"]
            got = event_from_wire(msg["event"], rules)
            assert got == seat_event(events[seq - 1], seat, rules), (seat, seq)
            known = view_cards(seat_view(states[seq], seat))
            assert event_cards(got) & ~known == 0, (seat, seq, "a card the seat cannot see")
        elif kind in ("snapshot", "seated", "watching"):
            snap = msg if kind == "snapshot" else msg["snapshot"]
            seq = snap["seq"]
            v = view_from_json(snap["view"])
            assert v == seat_view(states[seq], seat), (seat, seq, kind)
            if kind == "seated":
                assert msg["seat"] == seat
        elif kind == "deal_end":
            assert isinstance(events[msg["seq"] - 1], DealScored)
            assert msg["points"] == list(events[msg["seq"] - 1].points)
        elif kind == "game_over":
            assert msg["seq"] == len(events)
        elif kind == "options":
            check_options(msg, seat, states)
        elif kind == "error":
            cards = {rules.pack.parse(x) for x in msg.get("cards", [])}
            known = view_cards(seat_view(states[seq], seat)) | sent_cards
            for x in cards:
                assert known >> x & 1, (seat, "an error named a card the seat cannot see")
        elif kind == "created":
            assert set(msg) == {"type", "code", "host_token"}
        else:
            bad = _keys(msg) & FORBIDDEN_KEYS
            assert not bad, (kind, bad)
    return n


async def wait_until(pred: Any, timeout: float = 30.0, what: str = "") -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not pred():
        if loop.time() > end:
            raise TimeoutError(f"waited {timeout} s for {what or pred}")
        await asyncio.sleep(0.02)


def final_views_match(clients: dict[int, SeatClient], states: list[State]) -> None:
    for seat, c in clients.items():
        assert c.last_seq == len(states) - 1, (seat, c.last_seq, len(states) - 1)
        assert c.view == seat_view(states[-1], seat if seat >= 0 else SPECTATOR), seat


async def four_people_game(url: str, tls: Any = None, timeout: float = 120.0
                           ) -> tuple[str, list[SeatClient]]:
    """A whole one-deal Piedicavallo game of four headless people (random legal
    cards) at a table made at ``url``; returns its code and the closed clients."""
    from online.bot import play, random_chooser

    clients = [SeatClient(url, f"p{s}", tls=tls) for s in range(4)]
    for c in clients:
        await c.connect(10)
    code, _ = await clients[0].create("piedicavallo", 1, ["human"] * 4)
    for s, c in enumerate(clients):
        await c.join(code, s)
    await clients[0].host("start")
    await asyncio.gather(*(play(c, random_chooser(s), timeout=timeout)
                           for s, c in enumerate(clients)))
    for c in clients:
        await c.close()
    return code, clients
