"""The tables: one table is one sequential actor (an ``asyncio.Lock``).

Every change of a table happens under its lock, in this order: ask the engine
what the command causes (``engine.state.judge``, the one judge: the command's
events and those then due without a decision, a trick's result, a deal's score,
the next deal), **commit them to the store**, and only then take the new state
and fan the events out: each connection gets
each event as its seat sees it (``engine.view.seat_event``), numbered with its
seq (the event's 1-based position in the table's log, the same for every seat).

AI seats are played on the server, in a process pool, from the seat's view
only (``make_player(level).choose(view, legal, event_index)`` with event_index =
the seq the view is at); their command goes through ``judge`` like anyone's.
The server's turn clock plays for a person whose time is up (the fallback
level), and an AI can take a dropped person's seat (after a time, or when the
host says so); the person gets the seat back when they come back.

A table is rebuilt from its stored log at start-up, so a killed server goes on
where its log ends.  Memory holds only the tables in play and in their lobby
(:class:`Hub`): a finished one leaves once its replay is written, an abandoned
lobby expires, and a seat is one connection (a resume with its token elsewhere
closes the old one).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
import time
from collections import deque
from collections.abc import Callable, Container
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path
from typing import Any, Protocol

from engine.cards import mask_cards
from engine.errors import IllegalMove
from engine.files import MAX_NAME_CHARS
from engine.players import level_names, make_player
from engine.replay import Header, event_from_json, event_to_json, write_replay
from engine.ruleset import Ruleset, ruleset
from engine.state import (
    OVER,
    Command,
    DealScored,
    Event,
    Ruling,
    State,
    apply,
    due_event,
    judge,
    legal_commands,
    new_game,
)
from engine.view import SPECTATOR, SeatView, seat_event, seat_view

from .limits import LOBBY_EXPIRY
from .options import outcome_json, send_options
from .protocol import (
    CODE_ALPHABET,
    CODE_LENGTH,
    RESUME_EVENTS_MAX,
    ProtocolError,
    command_from_json,
    encode,
    event_json,
    view_to_json,
)
from .ring import Ring
from .store import CodeTaken, Store, TableRecord, token_hash

log = logging.getLogger("tarocchi.online")

MAX_SPECTATORS = 16
#: codes drawn for a new table before giving up (31^6 codes: a clash is rare, two unheard of)
CODE_TRIES = 16


class Conn(Protocol):
    """What a table needs of a connection: its seat, a send that never blocks
    (the server queues the text for the connection's writer), and ``displaced()``:
    another connection took its seat with the token, so it is told so and closed."""

    seat: int

    def send(self, text: str) -> None: ...

    def displaced(self) -> None: ...


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_token() -> str:
    return secrets.token_urlsafe(32)


# --- AI in worker processes -----------------------------------------------------------


def _worker_init(parent: int) -> None:
    from engine.files import die_with_parent

    die_with_parent(parent)
    os.environ["TAROCCHI_AI_PARALLEL"] = "0"  # one process a decision: the pool is the parallelism


def choose(level: str, view: SeatView, event_index: int, budget_ms: int | None = None) -> Command:
    """One AI decision from a seat's view (run in a worker process); ``budget_ms``
    is the server's deadline for the levels that search against the clock (hard)."""
    try:
        from engine.ai.pool import set_parallel

        set_parallel(False)
    except ImportError:
        pass
    return make_player(level, budget_ms).choose(view, view.legal(), event_index)


class AiRunner:
    """The server's AI processes (made on first use); ``inline`` levels (random)
    are so cheap that they run on the loop's default thread pool instead."""

    def __init__(self, workers: int = 1, inline: frozenset[str] = frozenset({"random"}),
                 budget_ms: int | None = None) -> None:
        self.workers = workers
        #: the hard level's deadline a decision (``tarocchi serve --ai-ms``; None: its own)
        self.budget_ms = budget_ms
        self.inline = inline
        self._pool: Executor | None = None
        #: seconds each decision took, from asking to the answer (the bench's figures)
        self.timings = Ring(100_000)
        self.decisions = 0
        #: told (level, seconds) after each decision (the server's metrics)
        self.on_decision: Callable[[str, float], None] | None = None

    def _executor(self) -> Executor:
        if self._pool is None:
            import multiprocessing

            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_init, initargs=(os.getpid(),),
            )
        return self._pool

    async def choose(self, level: str, view: SeatView, event_index: int) -> Command:
        loop = asyncio.get_running_loop()
        t0 = time.perf_counter()
        if level in self.inline:
            cmd = choose(level, view, event_index, self.budget_ms)
        else:
            cmd = await loop.run_in_executor(
                self._executor(), choose, level, view, event_index, self.budget_ms
            )
        took = time.perf_counter() - t0
        self.timings.append(took)
        self.decisions += 1
        if self.on_decision is not None:
            self.on_decision(level, took)
        return cmd

    def shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


# --- one table -------------------------------------------------------------------------


def _refusal_data(exc: IllegalMove, rules: Ruleset) -> dict[str, Any]:
    r = exc.refusal
    out: dict[str, Any] = {"rule": exc.rule}
    if r is not None:
        out.update(rule=r.rule, reason=r.reason)
        if r.cards:
            out["cards"] = [rules.pack.codes[c] for c in r.cards if 0 <= c < rules.pack.n_cards]
        if r.suit >= 0:
            out["suit"] = r.suit
        if r.count >= 0:
            out["count"] = r.count
        if r.seat >= 0:
            out["seat"] = r.seat
    return out


class Table:
    def __init__(self, hub: Hub, rec: TableRecord) -> None:
        self.hub = hub
        self.rec = rec
        self.rules = ruleset(rec.variant)
        self.lock = asyncio.Lock()
        self.state: State = new_game(rec.seed, rec.deals, self.rules)
        self.events: list[Event] = []
        for text in rec.events:  # our own committed events: applied as they are
            e = event_from_json(json.loads(text), self.rules)
            self.state = apply(self.state, e)
            self.events.append(e)
        self.conns: set[Conn] = set()
        self._ai_for = -1  # the seq an AI move was asked for
        self._clock: asyncio.TimerHandle | None = None
        self._takeover: dict[int, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        #: since when nobody was at this lobby (Hub.expire_lobbies keeps it up to date)
        self.idle_since = time.monotonic()

    # --- reading ---------------------------------------------------------------------

    @property
    def code(self) -> str:
        return self.rec.code

    @property
    def seq(self) -> int:
        return len(self.events)

    @property
    def started(self) -> bool:
        return self.rec.status != "lobby"

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.conns)

    def seat_level(self, seat: int) -> str | None:
        """The AI level that plays ``seat`` now (None: a person plays it)."""
        s = self.rec.seats[seat]
        return s.get("level") if s["kind"] == "ai" else s.get("takeover")

    def lobby(self) -> dict[str, Any]:
        return lobby_message(self)

    def snapshot(self, seat: int) -> dict[str, Any]:
        return {"seq": self.seq, "view": view_to_json(seat_view(self.state, seat))}

    def _broadcast(self, msg: dict[str, Any]) -> None:
        text = encode(msg)
        for c in list(self.conns):
            c.send(text)

    def _event_texts(self, seq: int, e: Event) -> dict[int, str]:
        return {
            seat: encode({"type": "event", "seq": seq, "event": event_json(
                seat_event(e, seat, self.rules), self.rules)})
            for seat in {c.seat for c in self.conns}
        }

    def _offer(self, conns: list[Conn] | set[Conn]) -> None:
        """Tell the seat on turn, if a person plays it, what it may do (``options``)."""
        if self.rec.status == "playing" and self.state.turn >= 0 and not self.seat_level(self.state.turn):
            send_options(self.state, self.seq, conns)

    # --- joining -------------------------------------------------------------------

    async def join(self, conn: Conn, seat: int | None, name: str, host: bool) -> dict[str, Any]:
        async with self.lock:
            check_open(self.rec)
            if seat is None:
                if sum(1 for c in self.conns if c.seat == SPECTATOR) >= MAX_SPECTATORS:
                    raise ProtocolError("table_full", "this table has no room for more spectators")
                conn.seat = SPECTATOR
                reply: dict[str, Any] = {"type": "watching", "code": self.code, "snapshot": self.snapshot(SPECTATOR)}
                conn.send(encode(reply))
                conn.send(encode(self.lobby()))
                self.conns.add(conn)
                return reply
            if not 0 <= seat < self.rules.n_seats:
                raise ProtocolError("bad_seat", f"{self.rules.title} has seats {self.rules.seat_range_text()}")
            s = self.rec.seats[seat]
            if s["kind"] != "human":
                raise ProtocolError("seat_taken", f"seat {seat} is played by the AI ({s.get('level')})")
            if seat in self.rec.tokens:
                raise ProtocolError("seat_taken", f"seat {seat} is taken; rejoin it with its token (resume)")
            if self.rec.status == "over":
                raise ProtocolError("game_over", "the game is over: watch it (seat null) or resume "
                                    "your seat with its token")
            token = new_token()
            s["name"] = (name or f"Player {seat + 1}")[:MAX_NAME_CHARS]
            if host and self.rec.settings.get("host_seat") is None:
                self.rec.settings["host_seat"] = seat
            await self.hub.store.set_token(self.rec.id, seat, token_hash(token))
            await self.hub.store.update_table(self.rec.id, seats=self.rec.seats)
            self.rec.tokens[seat] = token_hash(token)
            conn.seat = seat
            reply = {"type": "seated", "code": self.code, "seat": seat, "token": token,
                     "snapshot": self.snapshot(seat)}
            conn.send(encode(reply))
            self._attach(conn)
            self._broadcast(self.lobby())
            self._offer([conn])
            return reply

    async def resume(self, conn: Conn, token: str, last_seq: int) -> int:
        async with self.lock:
            h = token_hash(token)
            seat = next((s for s, th in self.rec.tokens.items() if secrets.compare_digest(th, h)), None)
            if seat is None:
                raise ProtocolError("bad_token", "this token holds no seat at this table")
            again = conn in self.conns  # a re-sync on the same connection (a gap seen)
            if again and conn.seat != seat:
                raise ProtocolError("already_joined", f"this connection plays seat {conn.seat}")
            conn.seat = seat
            if last_seq == 0 or last_seq > self.seq or self.seq - last_seq > RESUME_EVENTS_MAX:
                conn.send(encode({"type": "resumed", "code": self.code, "seat": seat,
                                  "seq": self.seq}))
                conn.send(encode({"type": "snapshot", **self.snapshot(seat)}))
            else:
                conn.send(encode({"type": "resumed", "code": self.code, "seat": seat,
                                  "seq": last_seq}))
                for i in range(last_seq, self.seq):
                    e = seat_event(self.events[i], seat, self.rules)
                    conn.send(encode({"type": "event", "seq": i + 1,
                                      "event": event_json(e, self.rules)}))
            if self.rec.status == "over":  # said once to those connected: again to one who was not
                conn.send(encode(game_over_message(self)))
            if again:
                self._offer([conn])
                return seat
            s = self.rec.seats[seat]
            if s.get("takeover") and self.rec.status == "playing":  # back: the AI gives the seat back
                s.pop("takeover")
                await self.hub.store.update_table(self.rec.id, seats=self.rec.seats)
                self._ai_for = -1
            self._attach(conn)
            self._displace(seat, conn)
            self._broadcast(self.lobby())
            self._offer([conn])
            self._schedule()
            return seat

    def _displace(self, seat: int, new: Conn) -> None:
        """A seat is one connection: the one that held it before ``new`` resumed it
        with its token is told ``opened_elsewhere`` and closed (the seat stays
        connected: nobody is told it went away)."""
        for old in [c for c in self.conns if c.seat == seat and c is not new]:
            self.conns.discard(old)
            old.displaced()

    def _attach(self, conn: Conn) -> None:
        seat = conn.seat
        back = seat >= 0 and not self.connected(seat)
        self.conns.add(conn)
        if back:
            t = self._takeover.pop(seat, None)
            if t:
                t.cancel()
            self._broadcast({"type": "presence", "seat": seat, "connected": True})

    def detach(self, conn: Conn) -> None:
        """A connection closed (no lock needed: nothing is awaited)."""
        if conn not in self.conns:
            return
        self.conns.discard(conn)
        seat = conn.seat
        if seat >= 0 and not self.connected(seat):
            self._broadcast({"type": "presence", "seat": seat, "connected": False})
            self._arm_takeover(seat)
        if not self.conns and self.rec.status == "over":
            self.hub.forget(self)  # nobody watches a finished game: it leaves memory

    def _arm_takeover(self, seat: int) -> None:
        after = self.rec.settings.get("ai_takeover_seconds", 0)
        if (after and self.rec.status == "playing" and self.rec.seats[seat]["kind"] == "human"
                and not self.rec.seats[seat].get("takeover") and seat not in self._takeover):
            loop = asyncio.get_running_loop()
            self._takeover[seat] = loop.call_later(
                after, lambda: self._spawn(self._takeover_by_clock(seat)))

    async def _takeover_by_clock(self, seat: int) -> None:
        try:
            await self.takeover(seat, None, by_host=False)
        except ProtocolError:
            pass  # back meanwhile, or the game ended

    # --- the host ------------------------------------------------------------------

    def check_host(self, host_token: str) -> None:
        if not secrets.compare_digest(token_hash(host_token), self.rec.host_hash):
            raise ProtocolError("not_host", "only the table's host may do this (wrong host token)")

    async def set_seat(self, seat: int, level: str) -> None:
        async with self.lock:
            check_open(self.rec)
            if self.started:
                raise ProtocolError("started", "the game has started: seats are set")
            if not 0 <= seat < self.rules.n_seats:
                raise ProtocolError("bad_seat", f"{self.rules.title} has seats {self.rules.seat_range_text()}")
            if seat in self.rec.tokens:
                raise ProtocolError("seat_taken", f"seat {seat} is taken by a person")
            self.rec.seats[seat] = seat_spec(level)
            await self.hub.store.update_table(self.rec.id, seats=self.rec.seats)
            self._broadcast(self.lobby())

    async def start(self) -> None:
        async with self.lock:
            check_open(self.rec)
            if self.started:
                raise ProtocolError("started", "the game has already started")
            check_seats_taken(self.rec)
            await self._commit(judge(self.state, None), None, status="playing")
            self._broadcast(self.lobby())

    async def takeover(self, seat: int, level: str | None, *, by_host: bool = True) -> None:
        async with self.lock:
            timer = self._takeover.pop(seat, None)
            if timer is not None:
                timer.cancel()
            if not 0 <= seat < self.rules.n_seats:
                raise ProtocolError("bad_seat", f"{self.rules.title} has seats {self.rules.seat_range_text()}")
            s = self.rec.seats[seat]
            if s["kind"] != "human" or s.get("takeover"):
                raise ProtocolError("bad_seat", f"seat {seat} is already played by the AI")
            if self.connected(seat):
                raise ProtocolError("connected", f"seat {seat} is connected: its player plays it")
            if self.rec.status == "over":
                raise ProtocolError("game_over", "the game is over")
            s["takeover"] = level or self.rec.settings.get("fallback_level", "easy")
            await self.hub.store.update_table(self.rec.id, seats=self.rec.seats)
            self._broadcast({"type": "takeover", "seat": seat, "level": s["takeover"],
                             "by": "host" if by_host else "clock"})
            self._broadcast(self.lobby())
            self._schedule()

    # --- commands ------------------------------------------------------------------

    async def command(self, seat: int, cmd: dict[str, Any], cmd_id: str) -> int:
        """Judge, commit, fan out; returns the seq of the last event it caused (a
        command id already applied returns its seq again and changes nothing)."""
        async with self.lock:
            key = (seat, cmd_id)
            done = self.rec.commands.get(key)
            if done is not None:
                return done
            if self.rec.status == "lobby":
                raise ProtocolError("not_started", "the game has not started yet")
            if self.rec.status == "over":
                raise ProtocolError("game_over", "the game is over")
            if self.seat_level(seat):
                raise ProtocolError("not_your_turn", f"seat {seat} is played by the AI now")
            command = command_from_json(cmd, seat, self.rules)
            try:
                ruling = judge(self.state, command)
            except IllegalMove as exc:
                raise ProtocolError("illegal_move", str(exc), **_refusal_data(exc, self.rules)) from None
            return await self._commit(ruling, key)

    async def _commit(self, ruling: Ruling, key: tuple[int, str] | None,
                      status: str | None = None) -> int:
        """Under the lock: what the engine judged (a command's events and those due
        after them), committed, then sent."""
        events, _states, after = ruling
        if not events:
            return self.seq
        first = self.seq + 1
        if after.phase == OVER:
            status = "over"
        texts = [encode(event_to_json(e, self.rules)) for e in events]
        t0 = time.perf_counter()
        await self.hub.store.append(self.rec.id, first, texts, key, status)
        t1 = time.perf_counter()
        # committed: from here on it is the table's history, and may be told
        self.state = after
        self.events.extend(events)
        if status:
            self.rec.status = status
        if key is not None:
            self.rec.commands[key] = self.seq
        for i, e in enumerate(events):
            seq = first + i
            texts_by_seat = self._event_texts(seq, e)
            for c in list(self.conns):
                c.send(texts_by_seat[c.seat])
            if isinstance(e, DealScored):
                self._broadcast({"type": "deal_end", "seq": seq, "points": list(e.points),
                                 "totals": list(self.rules.totals(self._scores_at(seq))),
                                 "outcome": outcome_json(self.rules.deal_outcome(e.points))})
        self._offer(self.conns)
        self.hub.timings.append(t1 - t0, time.perf_counter() - t1)
        if self.rec.status == "over":
            self._game_over()
        self._schedule()
        return self.seq

    def _scores_at(self, seq: int) -> tuple[tuple[int, ...], ...]:
        return tuple(e.points for e in self.events[:seq] if isinstance(e, DealScored))

    def _game_over(self) -> None:
        msg = game_over_message(self)
        self._broadcast(msg)
        self._spawn(self.hub.finish(self, str(msg["replay"])))

    # --- AI seats and the turn clock ------------------------------------------------------

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("table %s: %s", self.code, task.exception())

    def _schedule(self) -> None:
        """After every change: an AI to move, or the turn clock to arm."""
        if self._clock is not None:
            self._clock.cancel()
            self._clock = None
        if self.rec.status != "playing" or self.state.turn < 0:
            return
        seat = self.state.turn
        level = self.seat_level(seat)
        if level:
            if self._ai_for != self.seq:
                self._ai_for = self.seq
                self._spawn(self._ai_move(self.seq, seat, level, timeout=False))
            return
        secs = self.rec.settings.get("turn_seconds", 0)
        if secs:
            seq = self.seq
            fallback = self.rec.settings.get("fallback_level", "easy")
            self._clock = asyncio.get_running_loop().call_later(
                secs, lambda: self._spawn(self._ai_move(seq, seat, fallback, timeout=True)))

    async def _ai_move(self, seq: int, seat: int, level: str, *, timeout: bool) -> None:
        if self.seq != seq or self.state.turn != seat:
            return
        view = seat_view(self.state, seat)
        try:
            cmd = await self.hub.ai.choose(level, view, seq)
        except Exception as exc:  # a broken worker: a legal move all the same
            log.warning("table %s: AI %s failed (%s); playing a random legal move", self.code, level, exc)
            cmd = choose("random", view, seq)
        async with self.lock:
            if self.seq != seq or self.state.turn != seat or self.rec.status != "playing":
                return  # the position moved on (a person played, a restart)
            if not timeout and self.seat_level(seat) != level:
                return  # the person took the seat back meanwhile
            try:
                ruling = judge(self.state, cmd)
            except IllegalMove as exc:
                log.warning("table %s: AI %s chose an illegal move: %s", self.code, level, exc)
                ruling = judge(self.state, legal_commands(self.state)[0])
            if timeout:
                self._broadcast({"type": "timeout", "seat": seat, "level": level, "seq": seq})
            try:
                await self._commit(ruling, None)
            except Exception as exc:
                log.error("table %s: commit failed: %s", self.code, exc)
                self._ai_for = -1

    def resume_after_restart(self) -> None:
        """At start-up: anything due, the AI or the clock, and the takeover timers."""
        if self.rec.status == "playing":
            if due_event(self.state) is not None:
                self._spawn(self._complete_after_restart())
            for seat in range(self.rules.n_seats):
                self._arm_takeover(seat)
            self._schedule()

    async def _complete_after_restart(self) -> None:
        async with self.lock:
            await self._commit(judge(self.state, None), None)

    def close(self) -> None:
        """Its timers and tasks stopped (but the task that calls this)."""
        if self._clock:
            self._clock.cancel()
        for t in self._takeover.values():
            t.cancel()
        self._takeover.clear()
        current = asyncio.current_task()
        for task in list(self._tasks):
            if task is not current:
                task.cancel()


def lobby_message(t: Table) -> dict[str, Any]:
    """A table's lobby as anyone may see it: no token, no seed, no card."""
    rec = t.rec
    seats = []
    for i, s in enumerate(rec.seats):
        seats.append({
            "kind": s["kind"], "level": s.get("level"), "name": s.get("name", ""),
            "taken": i in rec.tokens, "connected": t.connected(i), "takeover": s.get("takeover"),
        })
    return {
        "type": "lobby", "code": t.code, "variant": t.rules.name,
        "deals": rec.deals, "seats": seats, "started": t.started,
        "over": rec.status == "over", "host_seat": rec.settings.get("host_seat"),
        "settings": {k: rec.settings[k] for k in
                     ("turn_seconds", "ai_takeover_seconds", "fallback_level")},
        "seq": t.seq,
    }


def game_over_message(t: Table) -> dict[str, Any]:
    """Everything is public now: the totals, each deal's points, the seed (to
    check the deals), and the replay file's name."""
    st = t.state
    return {"type": "game_over", "seq": t.seq, "totals": list(st.totals),
            "scores": [list(s) for s in st.scores], "seed": t.rec.seed,
            "outcome": outcome_json(t.rules.game_outcome(st.scores)),
            "replay": f"{t.code}-{t.rec.id}.jsonl"}


def holds_token(rec: TableRecord, token: str | None, host_token: str | None = None) -> bool:
    """True if ``token`` is one of the table's seat tokens or ``host_token`` its host's."""
    if token is not None:
        h = token_hash(token)
        if any(secrets.compare_digest(th, h) for th in rec.tokens.values()):
            return True
    return host_token is not None and secrets.compare_digest(token_hash(host_token), rec.host_hash)


def check_open(rec: TableRecord) -> None:
    """An expired lobby is no table any more."""
    if rec.status == "expired":
        raise ProtocolError("unknown_table", f"table {rec.code} expired: nobody came to it")


def check_seats_taken(rec: TableRecord) -> None:
    """No start while a person's seat has nobody in it (a stranger with the code
    would sit down in the running game and be dealt that hand): the host waits,
    or gives the seat to the AI first."""
    empty = [i for i, s in enumerate(rec.seats) if s["kind"] == "human" and i not in rec.tokens]
    if empty:
        raise ProtocolError(
            "seats_empty", f"nobody sits at seat{'s' if len(empty) > 1 else ''} "
            f"{', '.join(map(str, empty))}: wait for them, or give each to the AI "
            "(set_seat) before the start", seats=empty)


def seat_spec(kind: str) -> dict[str, Any]:
    if kind == "human":
        return {"kind": "human", "level": None, "name": ""}
    if kind not in level_names():
        raise ProtocolError("bad_level", f"unknown AI level {kind!r}; choose from {', '.join(level_names())}")
    return {"kind": "ai", "level": kind, "name": kind}


# --- all tables --------------------------------------------------------------------


class Hub:
    """Every table of the server in play or in its lobby, by code; the store; the
    AI processes.

    Memory holds only what is alive: a finished table leaves it once its replay
    is written (it stays in :attr:`done` while someone still watches it), an
    abandoned lobby expires (:meth:`expire_lobbies`), and neither counts against
    ``max_tables``.  Their logs stay in the store: a late ``resume`` of a
    finished game loads it from there (:meth:`find`), and a restart loads only
    the tables in play and in the lobby."""

    def __init__(self, store: Store, data_dir: str | os.PathLike[str], ai: AiRunner | None = None,
                 *, max_tables: int = 10_000, lobby_expiry: float = LOBBY_EXPIRY) -> None:
        self.store = store
        self.data_dir = Path(data_dir)
        self.ai = ai or AiRunner()
        self.tables: dict[str, Table] = {}
        #: finished tables that connections still watch (they leave with the last one)
        self.done: dict[str, Table] = {}
        self.max_tables = max_tables
        self.lobby_expiry = lobby_expiry
        #: the latest replay files written
        self.replays_written: deque[Path] = deque(maxlen=64)
        self.finished = 0  # games finished since start-up
        self.expired = 0  # lobbies expired since start-up
        self._create_lock = asyncio.Lock()
        self.on_replay: Callable[[Path], None] | None = None
        #: (commit, fan-out) seconds of the latest commits, for the bench
        self.timings = Ring(200_000, 2)

    async def load(self) -> int:
        """At start-up: the tables in play and in the lobby (a finished game's replay
        that a crash left unwritten is written now)."""
        for rec in await self.store.load():
            t = Table(self, rec)
            self.tables[rec.code] = t
            t.resume_after_restart()
        for code, tid in await self.store.finished():
            if not (self.replays_dir / f"{code}-{tid}.jsonl").exists():
                over = await self.store.load_code(code)
                if over is not None:
                    await self.write_replay(Table(self, over), f"{code}-{tid}.jsonl")
        return len(self.tables)

    @property
    def replays_dir(self) -> Path:
        return self.data_dir / "replays"

    async def find(self, code: str) -> Table:
        """The table with this code: in memory, or a finished one from the store."""
        code = code.upper()
        t = self.tables.get(code) or self.done.get(code)
        if t is not None:
            return t
        rec = await self.store.load_code(code)
        if rec is not None and rec.status == "over":
            return self.keep_finished(rec)
        if rec is not None and rec.status == "expired":
            raise ProtocolError("unknown_table", f"table {code} expired: nobody came to it")
        raise ProtocolError("unknown_table", f"no table has the code {code}")

    def keep_finished(self, rec: TableRecord) -> Table:
        """A finished game from the store, kept while someone watches it (its
        replay written if a crash left it unwritten)."""
        t = self.done.get(rec.code)
        if t is None:
            t = self.done[rec.code] = Table(self, rec)
            name = f"{rec.code}-{rec.id}.jsonl"
            if not (self.replays_dir / name).exists():
                t._spawn(self.write_replay(t, name))
        return t

    async def create(self, variant: str, deals: int, seats: list[str], settings: dict[str, Any]
                     ) -> tuple[Table, str]:
        """A new table in the lobby; returns it and the host token."""
        if len(self.tables) >= self.max_tables:
            raise ProtocolError("server_full", "this server holds as many tables as it can")
        specs = [seat_spec(s) for s in seats]
        host_token = new_token()
        async with self._create_lock:
            for _ in range(CODE_TRIES):
                code = new_code()
                if code in self.tables:
                    continue
                rec = TableRecord(code=code, variant=variant, deals=deals,
                                  seed=secrets.randbits(63), seats=specs, settings=dict(settings),
                                  host_hash=token_hash(host_token))
                try:  # the store knows every code ever given, the finished tables' too
                    await self.store.create_table(rec)
                except CodeTaken:
                    continue
                t = Table(self, rec)
                self.tables[code] = t
                return t, host_token
        raise ProtocolError("server_full", "no free table code was found: try again")

    async def finish(self, table: Table, name: str) -> None:
        """A game ended: its replay written, the table out of the count (kept in
        :attr:`done` while connections watch it)."""
        try:
            await self.write_replay(table, name)
        finally:
            self.finished += 1
            self.retire(table)

    def retire(self, table: Table) -> None:
        if self.tables.get(table.code) is table:
            del self.tables[table.code]
        table.close()
        if table.conns and table.rec.status == "over":
            self.done[table.code] = table

    def forget(self, table: Table) -> None:
        """A finished table nobody watches any more leaves memory."""
        if self.done.get(table.code) is table:
            del self.done[table.code]

    async def expire_lobbies(self, attended: Container[str] = frozenset()) -> int:
        """Lobbies nobody was at for :attr:`lobby_expiry` seconds (no connection at
        the table, its host's connection gone: ``attended`` are the codes whose
        host is connected) are marked expired in the store and leave memory;
        finished tables nobody watches leave too.  Returns how many expired."""
        now = time.monotonic()
        n = 0
        for t in list(self.tables.values()):
            if t.rec.status != "lobby":
                continue
            if t.conns or t.code in attended:
                t.idle_since = now
            elif now - t.idle_since >= self.lobby_expiry:
                n += await self._expire(t)
        for t in [t for t in self.done.values() if not t.conns]:
            self.forget(t)
        return n

    async def _expire(self, t: Table) -> int:
        async with t.lock:
            if t.rec.status != "lobby" or t.conns or self.tables.get(t.code) is not t:
                return 0
            await self.store.update_table(t.rec.id, status="expired")
            t.rec.status = "expired"
        self.retire(t)
        self.expired += 1
        log.info("table %s: the lobby expired (nobody at it for %g s)", t.code, self.lobby_expiry)
        return 1

    async def write_replay(self, table: Table, name: str) -> None:
        """The finished game in the public replay format (temporary file, fsync, rename)."""
        rec = table.rec
        players = [(s.get("name") or s.get("level") or f"seat {i}")[:MAX_NAME_CHARS]
                   for i, s in enumerate(rec.seats)]
        header = Header(rec.seed, players, rec.deals, {"online": rec.code}, rec.variant)
        path = self.replays_dir / name
        events = list(table.events)
        await asyncio.get_running_loop().run_in_executor(None, write_replay, path, header, events)
        self.replays_written.append(path)
        if self.on_replay:
            self.on_replay(path)

    def close(self) -> None:
        for t in [*self.tables.values(), *self.done.values()]:
            t.close()
        self.ai.shutdown()


__all__ = ["Table", "Hub", "AiRunner", "Conn", "new_code", "new_token", "mask_cards", "holds_token",
           "lobby_message", "game_over_message", "check_open", "check_seats_taken"]
