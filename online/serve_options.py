"""The options of ``tarocchi serve`` (and of ``python -m online.server``): below
both online/cli.py and online/server.py, so neither imports the other for them,
and light (no websockets), so the command line starts fast."""

from __future__ import annotations

import argparse

from engine import argtypes

RATE_PER_S = 20.0  # online.server.RATE_PER_S, without importing it
AI_MS = 1000  # the hard level's deadline a decision on this server (engine.ai.players.HARD_MS)
DB_CONNECTIONS = 8  # online.pg_store.CONNECTIONS, without importing psycopg


def _lease_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0.5 <= value <= 3600:
        raise argparse.ArgumentTypeError(f"{text} s: a lease is 0.5 to 3600 seconds")
    return value


def add_serve_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=argtypes.whole(0, 65535, "port number"), default=8765,
                   help="port (default 8765; 0: a free one)")
    p.add_argument("--data", default=None, metavar="DIR", type=argtypes.out_dir,
                   help="the server's data folder (default: the user data folder's server/; "
                   "TAROCCHI_HOME overrides the data folder)")
    p.add_argument("--rate", type=argtypes.number(0, 10_000, lo_open=True), default=RATE_PER_S,
                   metavar="R",
                   help=f"messages a second a connection may send (default {RATE_PER_S:g})")
    p.add_argument("--ai-workers", type=argtypes.count(64), default=1, metavar="K",
                   help="AI processes (default 1)")
    p.add_argument("--ai-ms", type=argtypes.whole(50, 10_000, "milliseconds"), default=AI_MS,
                   metavar="MS",
                   help=f"the hard AI's time a decision, 50 to 10000 ms (default {AI_MS}); "
                   "250 gives four times as many hard seats a core, a little weaker")
    p.add_argument("--synchronous", choices=["FULL", "NORMAL"], default="FULL",
                   help="SQLite durability: FULL survives a power cut (default), NORMAL a killed "
                   "process")
    p.add_argument("--db", default=None, metavar="URL",
                   help="postgresql://user@host:port/dbname: keep the tables in PostgreSQL, shared "
                   "by several server nodes (each its own --port); default: SQLite in --data")
    p.add_argument("--node-url", default=None, metavar="URL",
                   help="with --db: the URL other nodes send clients to (default ws://HOST:PORT)")
    p.add_argument("--lease-seconds", type=_lease_seconds, default=5.0, metavar="S",
                   help="with --db: a dead node's tables are taken over after this long "
                   "(default 5)")
    p.add_argument("--db-connections", type=argtypes.count(64), default=DB_CONNECTIONS,
                   metavar="C", help=f"with --db: connections this node keeps to the database "
                   f"(default {DB_CONNECTIONS}; commits in flight at once)")
    add_operator_arguments(p)


def add_operator_arguments(p: argparse.ArgumentParser) -> None:
    """TLS and the log's format (docs/SERVER.md)."""
    p.add_argument("--tls-cert", default=None, metavar="FILE",
                   help="a PEM certificate (chain): the port speaks wss:// and https:// "
                   "(with --tls-key)")
    p.add_argument("--tls-key", default=None, metavar="FILE",
                   help="the certificate's PEM private key (unencrypted, readable by the server "
                   "only)")
    p.add_argument("--log-format", choices=["text", "json"], default="text",
                   help="the log on stderr: text lines (default) or one JSON object a line")


__all__ = ["AI_MS", "DB_CONNECTIONS", "RATE_PER_S", "add_serve_arguments"]
