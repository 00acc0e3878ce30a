"""``tarocchi bot``: a headless player that joins a seat and plays until the game
ends, an AI level from the seat's view only, or random legal moves.

:func:`play` is the loop the bot, the tests and the bench share: whenever the
seat's view says it is to act and no command of it is waiting for its ack, it
chooses and sends one.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from collections.abc import Callable, Sequence

from engine.players import make_player
from engine.state import DISCARD, PLAY, Command
from engine.view import SeatView

from .client import ClientError, SeatClient
from .tls import client_context

Chooser = Callable[[SeatView, Sequence[Command], int], Command]


def random_chooser(seed: int | None = None) -> Chooser:
    rnd = random.Random(seed)

    def choose(view: SeatView, legal: Sequence[Command], seq: int) -> Command:
        return legal[rnd.randrange(len(legal))]

    return choose


def level_chooser(level: str) -> Chooser:
    player = make_player(level)
    return player.choose


def my_turn(c: SeatClient) -> bool:
    v = c.view
    return (v is not None and c.seat is not None and v.turn == c.seat >= 0
            and v.phase in (DISCARD, PLAY) and not c.pending and c.connected.is_set())


async def play(c: SeatClient, choose: Chooser, *, timeout: float = 600.0,
               think: Callable[[], float] | None = None,
               on_send: Callable[[int], None] | None = None) -> None:
    """Play ``c``'s seat until the game is over (``c.over``); ``think()`` seconds
    before each move; ``on_send(seq)`` when a command leaves (the bench times it).
    Raises TimeoutError past ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    waiter: list[asyncio.Future[None]] = []
    previous = c.on_message

    def wake(_: object = None) -> None:
        if waiter and not waiter[0].done():
            waiter[0].set_result(None)

    def seen(msg: dict[str, object]) -> None:
        wake()
        if previous is not None:
            previous(msg)

    c.on_message = seen
    deadline = time.monotonic() + timeout
    try:
        while c.over is None:
            if c.closed:
                raise ClientError("the connection is closed")
            if my_turn(c):
                v = c.view
                assert v is not None
                if think is not None:
                    await asyncio.sleep(think())
                    if not my_turn(c) or c.view is not v:
                        continue
                cmd = choose(v, v.legal(), c.last_seq)
                if on_send is not None:
                    on_send(c.last_seq)
                await c.send_command(cmd)
                if my_turn(c) or c.over is not None:
                    continue
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"seat {c.seat}: the game did not end in {timeout:g} s")
            # sleep until a message comes (or a second passes): a future, no task
            fut: asyncio.Future[None] = loop.create_future()
            waiter[:] = [fut]
            timer = loop.call_later(min(left, 1.0), wake)
            try:
                await fut
            finally:
                timer.cancel()
                waiter.clear()
    finally:
        c.on_message = previous


async def run_bot(url: str, code: str, seat: int | None, level: str, name: str,
                  cafile: str | None = None) -> int:
    tls = client_context([cafile]) if cafile else None
    c = SeatClient(url, name or f"bot ({level})", tls=tls)
    await c.connect()
    try:
        if seat is None:
            lobby = c.lobby
            reply = None
            for s in range(4):
                try:
                    reply = await c.join(code, s)
                    break
                except ClientError as exc:
                    if exc.code not in ("seat_taken", "bad_seat", "bad_message"):
                        raise
            if reply is None:
                raise ClientError(f"no free seat at table {code} ({lobby})")
        else:
            await c.join(code, seat)
        chooser = random_chooser() if level == "random" else level_chooser(level)
        await play(c, chooser, timeout=24 * 3600)
        assert c.over is not None
        print(f"game over: totals {c.over.get('totals')}")
        return 0
    finally:
        await c.close()


def cmd_bot(args: argparse.Namespace) -> int:
    try:
        return asyncio.run(run_bot(args.server, args.code, args.seat, args.level, args.name,
                                   getattr(args, "cafile", None)))
    except (ClientError, OSError, TimeoutError) as exc:
        print(f"tarocchi bot: {exc}", file=sys.stderr)
        return 1
