"""The server's durable store: the interface the tables write through.

Small and async on purpose (the SQLite and the PostgreSQL stores implement it):
each call returns once its change is durable, and never blocks the event loop
(the SQLite store commits on its own writer thread).  Events are stored whole
(the replay format's JSON, every hand), one row per event keyed by (table, seq);
a second append of the same seq is refused (:class:`SeqConflict`).  Seat tokens
are stored as hashes, never as the tokens themselves.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Protocol


class SeqConflict(Exception):
    """An append whose sequence numbers are already in the log (nothing written)."""


class CodeTaken(Exception):
    """A new table's code is already a table's, a finished or expired one included
    (nothing written): the hub draws another."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class TableRecord:
    """One table as stored.  ``seed`` is the game's secret seed: it never leaves the
    server before the game is over.  ``events`` are JSON texts, seq 1 first."""

    code: str
    variant: str
    deals: int
    seed: int
    seats: list[dict[str, Any]]
    settings: dict[str, Any]
    host_hash: str
    status: str = "lobby"  # lobby, playing, over; expired: a lobby nobody started
    id: int = 0
    events: list[str] = field(default_factory=list)
    tokens: dict[int, str] = field(default_factory=dict)  # seat -> token hash
    commands: dict[tuple[int, str], int] = field(default_factory=dict)  # (seat, id) -> seq


class Store(Protocol):
    async def create_table(self, rec: TableRecord) -> int:
        """Store a new table; returns its id (:class:`CodeTaken` if its code is a table's)."""
        ...

    async def update_table(
        self, table_id: int, *, seats: list[dict[str, Any]] | None = None,
        status: str | None = None,
    ) -> None: ...

    async def set_token(self, table_id: int, seat: int, token_hash: str) -> None: ...

    async def append(
        self, table_id: int, first_seq: int, events: list[str],
        command: tuple[int, str] | None = None, status: str | None = None,
    ) -> None:
        """Append events ``first_seq, first_seq + 1, ...`` in one transaction, with the
        command id that caused them (seat, id; for de-duplication) and the table's new
        status; raises :class:`SeqConflict` if a seq is taken."""
        ...

    async def load(self) -> list[TableRecord]:
        """Every table in play or in its lobby, with its events, tokens and command
        ids (at start-up; finished and expired tables stay in the store)."""
        ...

    async def load_code(self, code: str) -> TableRecord | None:
        """The table with this code, whatever its status (None: no such table)."""
        ...

    async def finished(self) -> list[tuple[str, int]]:
        """(code, id) of every finished table (the start-up checks their replays)."""
        ...

    async def ping(self) -> None:
        """A cheap query through the store's own connection (the health check);
        raises when the store cannot answer."""
        ...

    async def close(self) -> None: ...


def is_postgres_url(db: str | None) -> bool:
    """``--db``: a ``postgresql://`` URL (a node of several, online/cluster.py), else
    the SQLite file in the data folder.  Here, not in pg_store: no psycopg import."""
    return bool(db) and str(db).startswith(("postgresql://", "postgres://"))
