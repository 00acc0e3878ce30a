"""The online commands of ``tarocchi``: ``serve``, ``bot``, ``bench server`` and
``bench soak`` (no window: ``game.cli`` lists them among its tools).  The parsers are built
here without importing websockets; each command imports what it runs."""

from __future__ import annotations

import argparse
from typing import Any

from engine import argtypes

from .serve_options import DB_CONNECTIONS, OPERATOR_PAGE, add_serve_arguments

#: tables a bench may start at once (four connections each; past this the open
#: files and two cores, not the server, are what is measured)
MAX_BENCH_TABLES = 2000
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # online.protocol's, without importing it


def _url(text: str) -> str:
    """A websocket server's address: ws://host:port or wss://..."""
    t = text.strip()
    if not (t.startswith(("ws://", "wss://")) and len(t) > 6) or len(t) > 300 or any(
            c.isspace() for c in t):
        raise argparse.ArgumentTypeError(f"must be a ws:// or wss:// address, e.g. "
                                         f"ws://127.0.0.1:8765, not {t[:60]!r}")
    return t


def _code(text: str) -> str:
    t = text.strip().upper()
    if len(t) != 6 or any(c not in CODE_ALPHABET for c in t):
        raise argparse.ArgumentTypeError(f"must be a table's six-letter code, not {text[:20]!r}")
    return t


def _think(text: str) -> str:
    from .bench import parse_think  # refused at parse time, in one line; kept as typed

    parse_think(text)
    return text


def _name(text: str) -> str:
    if len(text) > 32 or not text.isprintable():
        raise argparse.ArgumentTypeError("must be at most 32 printable characters")
    return text


def _bench_subparsers(sub: argparse._SubParsersAction[Any]) -> argparse._SubParsersAction[Any] | None:
    bench = sub.choices.get("bench")
    if bench is None:
        return None
    for action in bench._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action
    return None


def add_bot_arguments(p: argparse.ArgumentParser) -> None:
    from engine.players import level_names

    p.add_argument("--server", required=True, type=_url, metavar="URL",
                   help="e.g. ws://127.0.0.1:8765")
    p.add_argument("--code", required=True, type=_code, help="the table's code")
    p.add_argument("--seat", type=argtypes.index(3), default=None, metavar="N",
                   help=f"the seat (default: the first free one); {argtypes.SEATS_HELP}")
    p.add_argument("--level", default="random", choices=level_names(),
                   help="an AI level, or random legal moves (the default)")
    p.add_argument("--name", default="", type=_name, help="the name shown at the table")
    p.add_argument("--cafile", default=None, metavar="FILE",
                   help="with wss://: trust this PEM certificate too (a server's self-signed "
                   "one); the system's trust store is always used, the host name always checked")


def _db_url(text: str) -> str:
    from .store import is_postgres_url

    t = text.strip()
    if not is_postgres_url(t) or len(t) > 500:
        raise argparse.ArgumentTypeError(
            f"must be a postgresql:// URL, e.g. postgresql://me@127.0.0.1:5432/tarocchi, "
            f"not {t[:60]!r}")
    return t


def add_bench_arguments(b: argparse.ArgumentParser) -> None:
    from engine.players import level_names
    from engine.ruleset import variant_names

    b.add_argument("--tables", type=argtypes.count(MAX_BENCH_TABLES), required=True, metavar="N",
                   help=f"tables played at once (1-{MAX_BENCH_TABLES})")
    b.add_argument("--variant", choices=variant_names(), default="piedicavallo",
                   help="the game every table plays (default piedicavallo)")
    b.add_argument("--out", default=None, metavar="DIR", type=argtypes.out_dir,
                   help="write each finished table's replay here")
    b.add_argument("--think-ms", default="250-750", metavar="LO-HI", type=_think,
                   help="each move waits a random LO..HI ms, as a player thinks (default 250-750; "
                   "0: a closed loop, which measures saturation, not latency)")
    b.add_argument("--pin", action="store_true",
                   help="server on CPU 0, clients on CPU 1 (taskset-like)")
    b.add_argument("--synchronous", choices=["FULL", "NORMAL"], default="FULL",
                   help="SQLite's durability (without --db; default FULL)")
    b.add_argument("--db", default=None, metavar="URL", type=_db_url,
                   help="postgresql://...: run --nodes server nodes on this database instead of "
                   "one server on SQLite")
    b.add_argument("--nodes", type=argtypes.count(16), default=1, metavar="K",
                   help="with --db: server nodes (default 1); table i is run by node i %% K")
    b.add_argument("--db-connections", type=argtypes.count(64), default=DB_CONNECTIONS,
                   metavar="C", help=f"with --db: database connections a node (default "
                   f"{DB_CONNECTIONS})")
    b.add_argument("--ai-seats", type=argtypes.whole(0, 3, "number of seats"), default=0,
                   metavar="M", help="the last M seats of every table are the server's AI "
                   "(default 0: people only)")
    b.add_argument("--ai-level", default=None, choices=level_names(),
                   help="with --ai-seats: the AI seats' level (default medium)")
    b.add_argument("--ai-workers", type=argtypes.count(64), default=None, metavar="W",
                   help="with --ai-seats: AI processes a node (default 1)")
    b.add_argument("--ai-ms", type=argtypes.whole(50, 10_000, "milliseconds"), default=None,
                   metavar="MS", help="with --ai-seats: the hard AI's time a decision "
                   "(tarocchi serve --ai-ms; default 1000)")
    b.add_argument("--timeout", type=argtypes.seconds, default=900.0, metavar="S",
                   help="give up after S seconds (default 900)")
    b.add_argument("--json", action="store_true", help="one JSON line (the default output)")


def add_soak_arguments(b: argparse.ArgumentParser) -> None:
    from engine.ruleset import variant_names

    b.add_argument("--games", type=argtypes.count(1_000_000), default=5000, metavar="N",
                   help="single deals played to the end (default 5000)")
    b.add_argument("--lobbies", type=argtypes.whole(0, 1_000_000, "number of lobbies"),
                   default=5000, metavar="N",
                   help="tables created and left unstarted, in step with the games (default 5000)")
    b.add_argument("--at-once", type=argtypes.count(500), default=16, metavar="K",
                   help="games played at the same time (default 16)")
    b.add_argument("--variant", choices=variant_names(), default="scarto",
                   help="the game of every table: one person's seat, random AI in the others "
                   "(default scarto)")
    b.add_argument("--lobby-expiry", type=argtypes.number(0.05, 3600), default=1.0, metavar="S",
                   help="the server's --lobby-expiry, shortened so the lobbies go in the run "
                   "(default 1 s)")
    b.add_argument("--sample-seconds", type=argtypes.number(0.1, 3600), default=2.0,
                   metavar="S", help="the server's RSS and tables sampled every S seconds "
                   "(default 2)")
    b.add_argument("--addresses", type=argtypes.whole(0, 250, "number of addresses"),
                   default=50, metavar="A",
                   help="the clients speak from loopback addresses 127.0.1.1 .. 127.0.1.A, as "
                   "many houses (default 50; 0: all from 127.0.0.1, which the server's limits "
                   "per address then bound)")
    b.add_argument("--synchronous", choices=["FULL", "NORMAL"], default="NORMAL",
                   help="the server's SQLite durability (default NORMAL: the soak measures "
                   "memory, not the disk)")
    b.add_argument("--timeout", type=argtypes.seconds, default=7200.0, metavar="S",
                   help="stop the clients after S seconds and report what was done, as a "
                   "failure (default 7200)")


def _serve(args: argparse.Namespace) -> int:
    from .server import cmd_serve

    return cmd_serve(args)


def _bot(args: argparse.Namespace) -> int:
    from .bot import cmd_bot

    return cmd_bot(args)


def _bench(args: argparse.Namespace) -> int:
    from .bench import cmd_bench_server

    return cmd_bench_server(args)


def _soak(args: argparse.Namespace) -> int:
    from .soak import cmd_soak

    return cmd_soak(args)


def _serve_backup(args: argparse.Namespace) -> int:
    from .backup import cmd_serve_backup

    return cmd_serve_backup(args)


def add_online_commands(sub: argparse._SubParsersAction[Any]) -> None:
    p = sub.add_parser("serve", help="run a server for online play (websockets)",
                       description="Hold online tables: prints its URL, then serves until stopped.",
                       epilog=OPERATOR_PAGE, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_serve_arguments(p)
    p.set_defaults(func=_serve)

    p = sub.add_parser("serve-backup", help="copy a server's SQLite store while it runs",
                       description="Copy the server's store (SQLite's online backup: a "
                       "consistent snapshot, the server goes on) to OUT, checked, then renamed "
                       "into place; prints one JSON line.  PostgreSQL: use pg_dump.")
    p.add_argument("out", metavar="OUT", help="the backup's file (replaced if it exists)")
    p.add_argument("--data", default=None, metavar="DIR",
                   help="the server's data folder (default: as tarocchi serve's)")
    p.set_defaults(func=_serve_backup)

    p = sub.add_parser("bot", help="a headless player that joins an online table",
                       description="Join a seat of an online table and play it to the end.")
    add_bot_arguments(p)
    p.set_defaults(func=_bot)

    bsub = _bench_subparsers(sub)
    if bsub is not None:
        b = bsub.add_parser(
            "server", help="tables of headless clients against a server",
            description="Start a server and N tables of headless clients playing random legal "
            "cards on loopback to the end of a deal; print one JSON line of figures.")
        add_bench_arguments(b)
        b.set_defaults(func=_bench)
        b = bsub.add_parser(
            "soak", help="thousands of games and abandoned lobbies through one server",
            description="Start a server (a short lobby expiry, the limits per address as "
            "served) and play N single deals through it, K at a time, while as many clients "
            "create tables and leave them unstarted; print one JSON object: the server's RSS "
            "and tables in memory over time, RSS after the first 500 games and at the end. "
            "Exit 1 if RSS moved more than 10% or tables are left in memory.")
        add_soak_arguments(b)
        b.set_defaults(func=_soak)
        bsub.metavar = "{" + ",".join(bsub.choices) + "}"
