"""The options of ``tarocchi serve`` (and of ``python -m online.server``): below
both online/cli.py and online/server.py, so neither imports the other for them,
and light (no websockets), so the command line starts fast."""

from __future__ import annotations

import argparse

from engine import argtypes

from .limits import LOBBY_EXPIRY, LimitSettings, parse_networks

RATE_PER_S = 20.0  # online.server.RATE_PER_S, without importing it
AI_MS = 1000  # the hard level's deadline a decision on this server (engine.ai.players.HARD_MS)
DB_CONNECTIONS = 8  # online.pg_store.CONNECTIONS, without importing psycopg
_LIMITS = LimitSettings()


#: the operator's page at the end of ``tarocchi serve --help`` (docs/SERVER.md says more)
OPERATOR_PAGE = """\
running it for others (docs/SERVER.md has the whole page):
  service   contrib/tarocchi.service is a systemd unit: a user of its own, the data
            in /var/lib/tarocchi, restarted if it fails; SIGTERM stops it cleanly
            (every client told, the store closed).
  data      --data DIR (default: the user data folder's server/): tarocchi.sqlite3
            (every table's log, seat tokens as hashes) and replays/ (finished games).
            With --db postgresql://... the logs are in PostgreSQL, replays/ still here.
  backup    tarocchi serve-backup OUT --data DIR copies the SQLite store while the
            server runs; copy replays/ as files.  PostgreSQL: pg_dump -Fc DBNAME.
  upgrade   stop it (SIGTERM), pip install --upgrade tarocchi, start it: tables go on
            from their logs; a PostgreSQL schema is migrated at start-up, and an
            older server refuses a newer schema.
  TLS       --tls-cert FILE --tls-key FILE, or a proxy in front of it:
            contrib/nginx-tarocchi.conf (with --trusted-proxy, so limits see the
            client's address, not the proxy's).
  watch     GET /healthz (200, or 503 when the store does not answer) and GET /metrics
            (Prometheus) on the same port; --log-format json for a log collector.
"""


def _lease_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0.5 <= value <= 3600:
        raise argparse.ArgumentTypeError(f"{text} s: a lease is 0.5 to 3600 seconds")
    return value


def _proxy(text: str) -> str:
    try:
        parse_networks([text])
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{exc} (e.g. 127.0.0.1 or 10.0.0.0/8)") from None
    return text.strip()


def add_limit_arguments(p: argparse.ArgumentParser) -> None:
    """The limits per client address and the lobbies' expiry (docs/SERVER.md)."""
    g = p.add_argument_group(
        "limits per client address",
        "one address (a home router: every device behind it) cannot spoil the server for the "
        "others; the defaults let a family of four behind one router play (docs/SERVER.md)")
    d = _LIMITS
    g.add_argument("--lobby-expiry", type=argtypes.number(0.05, 30 * 86400), default=LOBBY_EXPIRY,
                   metavar="S", help=f"a lobby nobody is at (its host gone too) expires after S "
                   f"seconds (default {LOBBY_EXPIRY:g}: 30 minutes); its code is then unknown")
    g.add_argument("--per-address-connections", type=argtypes.count(100_000),
                   default=d.connections, metavar="N",
                   help=f"connections (websocket and plain HTTP) one address may hold open "
                   f"(default {d.connections})")
    g.add_argument("--per-address-lobbies", type=argtypes.count(100_000), default=d.lobbies,
                   metavar="N", help=f"tables one address created that have not started "
                   f"(default {d.lobbies})")
    g.add_argument("--per-address-rate", type=argtypes.number(0, 100_000, lo_open=True),
                   default=d.rate, metavar="R",
                   help=f"messages a second across one address's connections, with a burst of "
                   f"2R (default {d.rate:g})")
    g.add_argument("--hello-seconds", type=argtypes.number(0.1, 3600), default=d.hello_seconds,
                   metavar="S", help=f"a connection that has not said hello after S seconds is "
                   f"closed (default {d.hello_seconds:g})")
    g.add_argument("--wrong-codes", type=argtypes.count(100_000), default=d.wrong_codes,
                   metavar="N", help=f"wrong table codes an address may send at once (one more "
                   f"forgiven a minute); past them each starts a pause of 1 s that doubles, up to "
                   f"{d.pause_max_seconds:g} s (default {d.wrong_codes})")
    g.add_argument("--trusted-proxy", action="append", default=[], type=_proxy, metavar="ADDR",
                   help="a reverse proxy (an address or a network, e.g. 127.0.0.1): connections "
                   "from it count under the client address it gives in Forwarded or "
                   "X-Forwarded-For (repeat for several)")


def limit_settings(args: argparse.Namespace) -> LimitSettings:
    """The :class:`LimitSettings` of parsed ``serve`` options."""
    d = _LIMITS
    rate = float(getattr(args, "per_address_rate", d.rate))
    return LimitSettings(
        connections=getattr(args, "per_address_connections", d.connections),
        lobbies=getattr(args, "per_address_lobbies", d.lobbies),
        hello_seconds=float(getattr(args, "hello_seconds", d.hello_seconds)),
        rate=rate, burst=max(1.0, 2 * rate),
        wrong_codes=getattr(args, "wrong_codes", d.wrong_codes),
        trusted_proxies=tuple(getattr(args, "trusted_proxy", ()) or ()),
    )


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
    add_limit_arguments(p)


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


__all__ = ["AI_MS", "DB_CONNECTIONS", "LOBBY_EXPIRY", "OPERATOR_PAGE", "RATE_PER_S",
           "add_limit_arguments", "add_operator_arguments", "add_serve_arguments",
           "limit_settings"]
