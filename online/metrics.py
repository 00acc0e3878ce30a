"""How a running server is doing, on its own port: ``GET /healthz`` and ``GET /metrics``.

``/healthz`` answers 200 ``ok`` when the store answers a cheap query through its
own connection (SQLite: on its writer thread, behind the commits waiting there;
PostgreSQL: on a connection of the node's pool), and 503 when it does not, or
not within :data:`HEALTH_SECONDS` (PostgreSQL stopped, a disk that hangs); the
page says the kind of failure, the log its whole text (it may name hosts).  A
check still running is not started twice: it is awaited.

``/metrics`` is Prometheus' text format, written by the ``prometheus_client``
library (pinned): the format's escaping, histograms and process figures are its
job, well tested, rather than ours.  Each server has its own registry (a process
may run several: the tests, the desktop game's host).  What it counts:

- ``tarocchi_connections`` open now; ``tarocchi_tables{state}`` in memory, by
  state (lobby, playing, over);
- ``tarocchi_commits_total`` (appends to the log), ``tarocchi_moves_total`` (the
  appends after a table's first, each one decision: a person's, the AI's or the
  turn clock's), ``tarocchi_events_total``, and ``tarocchi_commit_seconds``, the
  store's append from asking to durable;
- ``tarocchi_ai_decisions_total{level}`` and ``tarocchi_ai_decision_seconds``;
- ``tarocchi_refusals_total{code}``: every ``error`` sent to a client, by code;
- ``tarocchi_limits_hit_total{limit}``: :meth:`Metrics.limit_hit`, which the
  limits call (with a log line, throttled per limit and address);
- ``tarocchi_tables_started_total``, ``tarocchi_tables_finished_total`` (each
  with a log line), and the process' CPU, memory and open files.

The store is watched from outside (:class:`MeteredStore` wraps the hub's store),
so the tables' code is not touched to be counted.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterator
from typing import Any, Protocol

from prometheus_client import CollectorRegistry, Counter, Histogram, ProcessCollector
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4, generate_latest
from websockets.http11 import Request, Response

from . import logs
from .http import Routes, response
from .store import Store, TableRecord
from .tables import Hub

#: how long /healthz waits for the store before it answers 503
HEALTH_SECONDS = 2.0
COMMIT_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
AI_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0)
STATES = ("lobby", "playing", "over")


class Watched(Protocol):
    """What the metrics read of a running server (an ``online.server.TarocchiServer``)."""

    connections: int
    hub: Hub | None
    http: Routes


class _Gauges:
    """The figures read when scraped: connections and tables by state."""

    def __init__(self, srv: Watched) -> None:
        self.srv = srv

    def describe(self) -> Iterator[Metric]:
        return iter(self._families())

    def collect(self) -> Iterator[Metric]:
        return iter(self._families(live=True))

    def _families(self, live: bool = False) -> list[Metric]:
        conns = GaugeMetricFamily("tarocchi_connections", "websocket connections open")
        tables = GaugeMetricFamily("tarocchi_tables", "tables in memory, by state",
                                   labels=["state"])
        counts = dict.fromkeys(STATES, 0)
        hub = self.srv.hub
        if live and hub is not None:
            for t in list(hub.tables.values()):
                counts[t.rec.status] = counts.get(t.rec.status, 0) + 1
        conns.add_metric([], self.srv.connections if live else 0)
        for state, n in counts.items():
            tables.add_metric([state], n)
        return [conns, tables]


class Metrics:
    """The counters of one server; :meth:`render` is the ``/metrics`` page."""

    def __init__(self) -> None:
        r = self.registry = CollectorRegistry()
        self.commits = Counter("tarocchi_commits", "appends committed to the store", registry=r)
        self.moves = Counter("tarocchi_moves", "moves committed (the appends after a table's "
                             "first: a person's, the AI's or the turn clock's)", registry=r)
        self.events = Counter("tarocchi_events", "events committed", registry=r)
        self.commit_seconds = Histogram("tarocchi_commit_seconds", "a store append, from "
                                        "asking to durable", buckets=COMMIT_BUCKETS, registry=r)
        self.ai_decisions = Counter("tarocchi_ai_decisions", "AI decisions made", ["level"],
                                    registry=r)
        self.ai_seconds = Histogram("tarocchi_ai_decision_seconds", "an AI decision, from "
                                    "asking to the answer", buckets=AI_BUCKETS, registry=r)
        self.refusals = Counter("tarocchi_refusals", "errors sent to clients, by code",
                                ["code"], registry=r)
        self.limits = Counter("tarocchi_limits_hit", "limits hit, by limit", ["limit"],
                              registry=r)
        self.started = Counter("tarocchi_tables_started", "tables started", registry=r)
        self.finished = Counter("tarocchi_tables_finished", "tables finished", registry=r)
        ProcessCollector(registry=r)
        self._throttle = logs.Throttle()

    def watch(self, srv: Watched) -> None:
        """Read ``srv``'s connections and tables when scraped."""
        self.registry.register(_Gauges(srv))

    # --- what the server calls ---------------------------------------------------------

    def committed(self, seconds: float, first_seq: int, events: int) -> None:
        self.commits.inc()
        self.events.inc(events)
        if first_seq > 1:
            self.moves.inc()
        self.commit_seconds.observe(seconds)

    def ai_decision(self, level: str, seconds: float) -> None:
        self.ai_decisions.labels(level).inc()
        self.ai_seconds.observe(seconds)

    def refused(self, code: str) -> None:
        self.refusals.labels(code).inc()

    def limit_hit(self, name: str, address: str = "", **fields: Any) -> None:
        """A limit refused something (``name``: which, e.g. ``rate``); counted, and
        logged at most once every 10 s for each limit and address."""
        self.limits.labels(name).inc()
        left_out = self._throttle.allow((name, address))
        if left_out is not None:
            logs.event("limit_hit", limit=name, address=address, repeated=left_out, **fields)

    def table_changed(self, rec: TableRecord | None, status: str) -> None:
        if status == "playing":
            self.started.inc()
            name = "table_started"
        elif status == "over":
            self.finished.inc()
            name = "table_finished"
        else:
            return
        if rec is None:
            logs.event(name)
            return
        people = sum(1 for s in rec.seats if s.get("kind") == "human")
        logs.event(name, code=rec.code, variant=rec.variant, deals=rec.deals, people=people,
                   ai=len(rec.seats) - people)

    def render(self) -> bytes:
        return generate_latest(self.registry)


class MeteredStore:
    """The hub's store, counted: each append timed and counted, each table's start
    and end logged.  Everything else goes through to the store unchanged."""

    def __init__(self, store: Store, metrics: Metrics,
                 record_of: Callable[[int], TableRecord | None]) -> None:
        self._store = store
        self._metrics = metrics
        self._record_of = record_of

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    @property
    def inner(self) -> Store:
        return self._store

    async def create_table(self, rec: TableRecord) -> int:
        return await self._store.create_table(rec)

    async def update_table(self, table_id: int, *, seats: list[dict[str, Any]] | None = None,
                           status: str | None = None) -> None:
        await self._store.update_table(table_id, seats=seats, status=status)
        if status is not None:
            self._metrics.table_changed(self._record_of(table_id), status)

    async def set_token(self, table_id: int, seat: int, token_hash: str) -> None:
        await self._store.set_token(table_id, seat, token_hash)

    async def append(self, table_id: int, first_seq: int, events: list[str],
                     command: tuple[int, str] | None = None, status: str | None = None) -> None:
        t0 = time.perf_counter()
        await self._store.append(table_id, first_seq, events, command, status)
        self._metrics.committed(time.perf_counter() - t0, first_seq, len(events))
        if status is not None:
            self._metrics.table_changed(self._record_of(table_id), status)

    async def load(self) -> list[TableRecord]:
        return await self._store.load()

    async def ping(self) -> None:
        await self._store.ping()

    async def close(self) -> None:
        await self._store.close()


class Health:
    """``/healthz``: the store's cheap query, bounded by :data:`HEALTH_SECONDS`."""

    def __init__(self, srv: Watched, seconds: float = HEALTH_SECONDS) -> None:
        self.srv = srv
        self.seconds = seconds
        self._check: asyncio.Task[None] | None = None
        self._throttle = logs.Throttle()

    async def __call__(self, request: Request) -> Response:
        hub = self.srv.hub
        if hub is None:
            return response(503, "starting\n")
        if self._check is None or self._check.done():
            self._check = asyncio.get_running_loop().create_task(hub.store.ping())
        try:  # shielded: a slow check goes on (no query cut in half), the answer does not wait
            await asyncio.wait_for(asyncio.shield(self._check), self.seconds)
        except TimeoutError:
            return response(503, f"store: no answer in {self.seconds:g} s\n")
        except Exception as exc:  # the page is public: the reason (hosts, ports) goes to the log
            if self._throttle.allow(("health",)) is not None:
                logs.event("health_failed", logging.WARNING, store=type(exc).__name__,
                           reason=" ".join(str(exc).split())[:300])
            return response(503, f"store: unavailable ({type(exc).__name__})\n")
        return response(200, "ok\n")


def instrument(srv: Watched, metrics: Metrics) -> None:
    """Count ``srv``'s store and AI, and answer ``/healthz`` and ``/metrics`` on its port."""
    hub = srv.hub
    assert hub is not None

    def record_of(table_id: int) -> TableRecord | None:
        return next((t.rec for t in list(hub.tables.values()) if t.rec.id == table_id), None)

    if not isinstance(hub.store, MeteredStore):
        hub.store = MeteredStore(hub.store, metrics, record_of)
    hub.ai.on_decision = metrics.ai_decision
    metrics.watch(srv)
    srv.http.add("/healthz", Health(srv))
    srv.http.add("/metrics", lambda request: response(
        200, metrics.render(), content_type=CONTENT_TYPE_PLAIN_0_0_4))


__all__ = ["HEALTH_SECONDS", "Health", "MeteredStore", "Metrics", "instrument"]
