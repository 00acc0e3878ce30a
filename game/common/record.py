"""Your record: every finished deal and game, in a SQLite database in the user
data folder (``record.sqlite3``; stdlib ``sqlite3``, WAL, no arcade import).

The database never holds the only copy of anything.  The replay files are the
source: a deal is recorded from its file's ``deal`` and ``score`` events, and
``tarocchi stats --rebuild`` (:func:`rebuild`) makes the database again from
every ``*.jsonl`` under ``<data>/replays/`` and ``<data>/autoplay/``.  The one
value not in a replay, a review's accuracy (:func:`set_accuracy`), is carried
over by a rebuild and can always be worked out again by reviewing the deal.

What is noted: archived replays of finished games (the table files one when a
game ends) and autoplay logs.  The autosave is never noted: the deals of an
unfinished game count once it is archived.  A file noted again, or longer (a
match noted after each deal), adds only the deals not yet recorded; a game's
row is written once its last deal is scored.  Watched AI games (header
``"watch": true``) are not the player's and are left out.

A file's identity is a hash of its header (canonical JSON), plus the file's
name when the header has no ``created`` time (two files with the same seed
and players are then told apart by name).  A deal's key is that and its
number in the file (1 for the first).

Your record is the games with a person at the table (a seat played by
``human``).  Games the AI played alone (autoplay: every seat an AI level) are
kept in the database (``human`` 0, seen from seat 0) but counted apart: the
totals of :func:`summary` and :func:`deal_rows` are the player's only, and
``ai_only`` says how many deals and games the AI played alone.

Your side: the seat whose player is ``human``, else seat 0 (autoplay).  Won,
lost and drawn are what the table announces: the ruleset's ``deal_outcome``
and ``game_outcome`` (engine/ruleset.py, the score sheet's), never a rule
worked out here.  Piedicavallo: more card points win the deal, 57-57 is a
draw (R12); a match's team totals decide (R13).  Scarto (S6): the lowest count
loses the deal (all who share it), the others win it, all equal is a draw;
over a game the lowest total of deal scores (count - 26) loses the same way.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sqlite3
import sys
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from engine.counted import counted

DB_NAME = "record.sqlite3"
FORMAT = "tarocchi-replay"
FORMAT_VERSION = 1
HUMAN = "human"
#: a deal's or a game's result for the player's side (the ``result`` column's values)
Result = Literal["win", "draw", "loss"]
RESULTS: tuple[Result, ...] = ("win", "draw", "loss")


@dataclass(frozen=True)
class Variant:
    name: str
    seats: int
    sides: int  # entries of a ``score`` event: teams (Piedicavallo) or seats (Scarto)
    pack_points: int  # what a deal's ``score`` points add up to
    even: int  # a fair share: a deal score of 0 (a draw)
    default_deals: int


VARIANTS = {
    "piedicavallo": Variant("piedicavallo", 4, 2, 114, 57, 1),
    "scarto": Variant("scarto", 3, 3, 78, 26, 3),
}


class RecordError(Exception):
    """A replay that cannot be recorded, or a database that cannot be used."""


class NewerDatabase(RecordError):
    """A record made by a newer program: left alone."""


# --- where ----------------------------------------------------------------------------------


_local = threading.local()  # a note made on a thread of its own keeps the folder of its caller


def data_home() -> Path:
    home: Path | None = getattr(_local, "home", None)
    if home is not None:
        return home
    from game.common import paths

    return paths.home()


def db_path() -> Path:
    return data_home() / DB_NAME


def source_dirs() -> list[Path]:
    """The folders a rebuild reads: archived replays and autoplay logs."""
    home = data_home()
    return [home / "replays", home / "autoplay"]


# --- schema and migrations ------------------------------------------------------------------

#: Migration steps, applied in order: step i takes the database from version i
#: to version i + 1, in one transaction.  Never edit a released step; add one.
MIGRATIONS: list[list[str]] = [
    # 1: deals and games
    [
        """CREATE TABLE deals (
            game_key TEXT NOT NULL,
            deal_no INTEGER NOT NULL,
            file TEXT NOT NULL,
            played_at TEXT NOT NULL,
            variant TEXT NOT NULL,
            players TEXT NOT NULL,
            seat INTEGER NOT NULL,
            human INTEGER NOT NULL,
            practice INTEGER NOT NULL,
            dealer INTEGER,
            partner TEXT,
            opponents TEXT NOT NULL,
            points TEXT NOT NULL,
            us INTEGER NOT NULL,
            them INTEGER NOT NULL,
            score INTEGER NOT NULL,
            result TEXT NOT NULL CHECK (result IN ('win', 'draw', 'loss')),
            PRIMARY KEY (game_key, deal_no)
        )""",
        """CREATE TABLE games (
            game_key TEXT PRIMARY KEY,
            file TEXT NOT NULL,
            played_at TEXT NOT NULL,
            variant TEXT NOT NULL,
            players TEXT NOT NULL,
            seat INTEGER NOT NULL,
            human INTEGER NOT NULL,
            practice INTEGER NOT NULL,
            partner TEXT,
            opponents TEXT NOT NULL,
            n_deals INTEGER NOT NULL,
            totals TEXT NOT NULL,
            us INTEGER NOT NULL,
            them INTEGER NOT NULL,
            result TEXT NOT NULL CHECK (result IN ('win', 'draw', 'loss'))
        )""",
    ],
    # 2: the review's accuracy (a percentage, filled later) and the indexes the
    # screen's charts and set_accuracy use
    [
        "ALTER TABLE deals ADD COLUMN accuracy REAL "
        "CHECK (accuracy IS NULL OR (accuracy >= 0 AND accuracy <= 100))",
        "CREATE INDEX deals_by_time ON deals (played_at, game_key, deal_no)",
        "CREATE INDEX deals_by_file ON deals (file, deal_no)",
    ],
]
SCHEMA_VERSION = len(MIGRATIONS)


def schema_version(con: sqlite3.Connection) -> int:
    row = con.execute("SELECT version FROM schema_version").fetchone()
    return int(row[0]) if row else 0


def migrate(con: sqlite3.Connection, target: int = SCHEMA_VERSION) -> int:
    """Bring the database to ``target`` (default: the newest), one step per
    transaction; returns the version reached.  A newer database is refused."""
    con.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    while True:
        con.execute("BEGIN IMMEDIATE")
        try:
            v = schema_version(con)
            if v > SCHEMA_VERSION:
                raise NewerDatabase(
                    f"the record database is version {v}, newer than this program ({SCHEMA_VERSION})")
            if v >= target:
                con.execute("COMMIT")
                return v
            for stmt in MIGRATIONS[v]:
                con.execute(stmt)
            if v == 0:
                con.execute("INSERT INTO schema_version (version) VALUES (1)")
            else:
                con.execute("UPDATE schema_version SET version = ?", (v + 1,))
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise


def connect(path: str | os.PathLike[str] | None = None, *, target: int = SCHEMA_VERSION,
            import_existing: bool = True) -> sqlite3.Connection:
    """Open (creating and migrating) the record database.  A database made for
    the first time imports the replays already on disk, so games played
    before the record existed count too."""
    p = Path(path) if path is not None else db_path()
    fresh = import_existing and path is None and not p.exists()
    if fresh:
        rebuild(quiet=True)
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        con = sqlite3.connect(p, timeout=15, isolation_level=None)
        try:
            con.execute("PRAGMA journal_mode=WAL")
            con.execute("PRAGMA synchronous=NORMAL")  # WAL: a killed program loses nothing committed
            migrate(con, target)
        except BaseException:
            con.close()
            raise
    except (sqlite3.DatabaseError, OSError) as exc:  # not a database, damaged, or no folder
        raise RecordError(f"cannot open the record {p}: {exc} (tarocchi stats --rebuild makes it again)") \
            from exc
    return con


# --- reading a replay -------------------------------------------------------------------------


@dataclass
class ScoredDeal:
    deal_no: int
    dealer: int | None
    points: list[int]


@dataclass
class ReplayRecord:
    """What the record needs of one replay file."""

    file: str
    key: str
    variant: Variant
    players: list[str]
    seat: int
    human: bool
    practice: bool
    n_deals: int
    played_at: str
    deals: list[ScoredDeal] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return len(self.deals) >= self.n_deals


class NotRecorded(RecordError):
    """A valid file that is not the player's (a watched AI game)."""


def _canonical(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def file_key(header: dict[str, Any], path: Path) -> str:
    text = _canonical(header)
    if not isinstance(header.get("created"), str):
        text += "\n" + path.name
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _iso(dt: datetime) -> str:
    return dt.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _played_at(header: dict[str, Any], path: Path) -> str:
    created = header.get("created")
    if isinstance(created, str):
        try:
            dt = datetime.fromisoformat(created.replace("Z", "+00:00"))
            return _iso(dt if dt.tzinfo else dt.replace(tzinfo=UTC))
        except ValueError:
            pass
    # the table names its archives <YYYYmmdd-HHMMSS>-<kind>-<seed>.jsonl, in local time
    try:
        return _iso(datetime.strptime(path.name[:15], "%Y%m%d-%H%M%S").astimezone())
    except ValueError:
        pass
    try:
        return _iso(datetime.fromtimestamp(path.stat().st_mtime, UTC))
    except OSError:
        return _iso(datetime.now(UTC))


def read_record(path: str | os.PathLike[str], *, validate: bool = True) -> ReplayRecord:
    """The finished deals of a replay file (the format's header, ``deal`` and
    ``score`` lines).  Raises :class:`RecordError` for a file that cannot be
    read, :class:`NotRecorded` for a watched game.  Piedicavallo files are also
    checked by the engine's reader (``validate``), so a score that breaks the
    rules is never recorded."""
    p = Path(path)
    text, lines = _read_lines(p)
    header, variant = _read_header(p, lines)
    players = [str(x) for x in header["players"]]
    human = HUMAN in players
    seat = players.index(HUMAN) if human else 0
    own = header.get("seat")  # an online game: several people, this program's was this seat
    if header.get("online") is True and isinstance(own, int) and not isinstance(own, bool) \
            and 0 <= own < len(players) and players[own] == HUMAN:
        seat = own
    deals, n_deal_events = _scored_deals(p, text, lines, variant)
    n_deals = header.get("deals")
    if type(n_deals) is not int or n_deals < 1:
        if variant.name == "piedicavallo":
            n_deals = 4 if n_deal_events > 1 else 1
        else:
            n_deals = variant.default_deals
    if validate and variant.name == "piedicavallo":
        _engine_check(p)
    return ReplayRecord(str(p.resolve()), file_key(header, p), variant, players, seat, human,
                        bool(header.get("practice")), n_deals, _played_at(header, p), deals)


def _read_lines(p: Path) -> tuple[str, list[str]]:
    """The file's text and its lines (without the empty one after the last newline)."""
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise RecordError(f"cannot read {p}: {exc.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"{p}: not UTF-8 text") from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or not lines[0].strip():
        raise RecordError(f"{p}: empty, no header")
    return text, lines


def _read_header(p: Path, lines: list[str]) -> tuple[dict[str, Any], Variant]:
    """The header of a replay this program reads, and its variant; a watched game
    is :class:`NotRecorded`, anything else wrong a :class:`RecordError`."""
    try:
        header = json.loads(lines[0])
    except ValueError:
        raise RecordError(f"{p}: line 1: the header is not JSON") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise RecordError(f"{p}: not a Tarocchi replay")
    version = header.get("version")
    if type(version) is not int or not 1 <= version <= FORMAT_VERSION:
        raise RecordError(f"{p}: replay format version {version!r} is not one this program reads")
    variant = VARIANTS.get(str(header.get("variant")))
    if variant is None:
        raise RecordError(f"{p}: unknown variant {header.get('variant')!r}")
    if header.get("watch") is True:
        raise NotRecorded(f"{p}: a watched AI game, not yours")
    players = header.get("players")
    if not (isinstance(players, list) and len(players) == variant.seats):
        raise RecordError(f"{p}: 'players' must list {variant.seats} seats")
    return header, variant


def _scored_deals(p: Path, text: str, lines: list[str], variant: Variant) -> tuple[list[ScoredDeal], int]:
    """Each scored deal (its dealer and points, checked) and how many deals began."""
    deals: list[ScoredDeal] = []
    dealer: int | None = None
    n_deal_events = 0
    open_deal = False
    for i, line in enumerate(lines[1:], start=2):
        try:
            obj = json.loads(line)
        except ValueError:
            if i == len(lines) and not text.endswith("\n"):
                break  # a torn last line: the program was stopped while writing it
            raise RecordError(f"{p}: line {i}: bad JSON") from None
        if not isinstance(obj, dict):
            raise RecordError(f"{p}: line {i}: an event must be a JSON object")
        kind = obj.get("type")
        if kind == "deal":
            n_deal_events += 1
            d = obj.get("dealer")
            dealer = d if type(d) is int and 0 <= d < variant.seats else None
            open_deal = True
        elif kind == "score":
            pts = obj.get("points")
            if not (open_deal and isinstance(pts, list) and len(pts) == variant.sides
                    and all(type(x) is int and x >= 0 for x in pts)
                    and sum(pts) == variant.pack_points):
                raise RecordError(f"{p}: line {i}: a score that is not {variant.sides} points "
                                  f"adding up to {variant.pack_points} after a deal")
            deals.append(ScoredDeal(len(deals) + 1, dealer, list(pts)))
            open_deal = False
    return deals, n_deal_events


def _engine_check(p: Path) -> None:
    from engine.replay import ReplayError, read_replay

    try:
        read_replay(p, tolerate_torn=True)
    except (ReplayError, ValueError) as exc:
        raise RecordError(f"{p}: {exc}") from None


# --- your side -------------------------------------------------------------------------------


def _levels_label(levels: Iterable[str]) -> str:
    """One opponent level, or several joined with '/' (e.g. 'easy/hard')."""
    return "/".join(sorted(set(levels)))


def side_of(rec: ReplayRecord) -> tuple[str | None, str]:
    """(partner's level or None, the opponents' level label)."""
    s, pl = rec.seat, rec.players
    if rec.variant.name == "piedicavallo":
        return pl[(s + 2) % 4], _levels_label([pl[(s + 1) % 4], pl[(s + 3) % 4]])
    return None, _levels_label(pl[i] for i in range(len(pl)) if i != s)


def _verdict(outcome: Any, side: int) -> Result:
    """The engine's :class:`~engine.ruleset.Outcome` as ``side`` reads it at the
    table: a draw, a win (among the winners), else a loss."""
    if outcome.draw:
        return "draw"
    return "win" if side in outcome.winners else "loss"


def _rules(variant: Variant) -> Any:
    from engine.ruleset import ruleset

    return ruleset(variant.name)


def deal_outcome(variant: Variant, seat: int, points: list[int]) -> tuple[int, int, int, Result]:
    """(us, them, score, result) of one deal for ``seat``'s side; ``score`` is
    the points above a fair share (Piedicavallo: us - 57; Scarto: count - 26).
    The result is the table's: the ruleset's ``deal_outcome`` (the score sheet's)."""
    rules = _rules(variant)
    side = rules.side[seat]
    us = points[side]
    them = sum(points) - us
    return us, them, us - variant.even, _verdict(rules.deal_outcome(points), side)


def game_outcome(variant: Variant, seat: int, deals: list[list[int]]) -> tuple[list[int], int, int, Result]:
    """(totals, us, them, result) of a finished game for ``seat``'s side: the
    ruleset's ``totals`` and ``game_outcome`` (what the table announces)."""
    rules = _rules(variant)
    side = rules.side[seat]
    totals = list(rules.totals(deals))
    us = totals[side]
    return totals, us, sum(totals) - us, _verdict(rules.game_outcome(deals), side)


# --- writing -------------------------------------------------------------------------------------


def _insert(con: sqlite3.Connection, rec: ReplayRecord) -> int:
    """Record ``rec``'s deals not yet there, and its game once complete; returns
    how many deals were added.  The caller holds the transaction."""
    partner, opponents = side_of(rec)
    players = json.dumps(rec.players)
    added = 0
    for d in rec.deals:
        us, them, score, result = deal_outcome(rec.variant, rec.seat, d.points)
        cur = con.execute(
            "INSERT OR IGNORE INTO deals (game_key, deal_no, file, played_at, variant, players, seat,"
            " human, practice, dealer, partner, opponents, points, us, them, score, result)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (rec.key, d.deal_no, rec.file, rec.played_at, rec.variant.name, players, rec.seat,
             int(rec.human), int(rec.practice), d.dealer, partner, opponents, json.dumps(d.points),
             us, them, score, result))
        added += cur.rowcount
    if rec.complete:
        totals, us, them, result = game_outcome(rec.variant, rec.seat,
                                                [d.points for d in rec.deals[: rec.n_deals]])
        con.execute(
            "INSERT OR IGNORE INTO games (game_key, file, played_at, variant, players, seat, human,"
            " practice, partner, opponents, n_deals, totals, us, them, result)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (rec.key, rec.file, rec.played_at, rec.variant.name, players, rec.seat, int(rec.human),
             int(rec.practice), partner, opponents, rec.n_deals, json.dumps(totals), us, them, result))
    return added


def note_replay(path: str | os.PathLike[str], con: sqlite3.Connection | None = None) -> int:
    """Record the finished deals (and game) of one replay file; idempotent.
    Returns the number of deals added (0 for a watched game)."""
    try:
        rec = read_record(path)
    except NotRecorded:
        return 0
    own = con is None
    c = connect() if con is None else con
    try:
        c.execute("BEGIN IMMEDIATE")
        try:
            added = _insert(c, rec)
            c.execute("COMMIT")
        except BaseException:
            c.execute("ROLLBACK")
            raise
        return added
    finally:
        if own:
            c.close()


def note_safely(path: str | os.PathLike[str] | None) -> int:
    """:func:`note_replay` for the places that file a finished game: a failure
    is one line on stderr, never an exception (the replay file is kept anyway,
    and a rebuild will count it)."""
    if path is None:
        return 0
    try:
        return note_replay(path)
    except Exception as exc:  # noqa: BLE001 - the record never stops a game
        print(f"tarocchi: the record could not note {path}: {exc}", file=sys.stderr)
        return 0


_pending: list[threading.Thread] = []


def note_later(path: str | os.PathLike[str] | None) -> None:
    """:func:`note_safely` on a thread of its own, off the frame loop (the first
    note imports every replay kept).  Not a daemon: the program waits for it at
    exit; a kill leaves the database as it was, and a rebuild counts the file."""
    try:
        t = threading.Thread(target=_note_in, args=(data_home(), path), name="tarocchi-record")
        _pending.append(t)
        t.start()
    except Exception as exc:  # noqa: BLE001 - the record never stops a game
        print(f"tarocchi: the record could not note {path}: {exc}", file=sys.stderr)


def _note_in(home: Path, path: str | os.PathLike[str] | None) -> None:
    _local.home = home
    note_safely(path)


def wait_for_notes(timeout: float | None = 30.0) -> None:
    while _pending:
        _pending.pop(0).join(timeout)


def set_accuracy(file: str | os.PathLike[str], deal_no: int, accuracy: float | None,
                 seat: int | None = None) -> bool:
    """Store the review's accuracy (a percentage, 0-100) for deal ``deal_no``
    (1 for the first) of a replay file, noting the file first if need be.
    A review of a seat that is not the record's side (``seat``) is not yours:
    nothing is stored.  Returns whether a deal was updated."""
    if accuracy is not None and not 0 <= accuracy <= 100:
        raise ValueError(f"accuracy is a percentage, not {accuracy!r}")
    rec = read_record(file)
    if seat is not None and seat != rec.seat:
        return False
    con = connect()
    try:
        con.execute("BEGIN IMMEDIATE")
        try:
            _insert(con, rec)
            cur = con.execute("UPDATE deals SET accuracy = ? WHERE game_key = ? AND deal_no = ?",
                              (accuracy, rec.key, deal_no))
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
        return cur.rowcount > 0
    finally:
        con.close()


# --- rebuild -----------------------------------------------------------------------------------


def replay_files(dirs: Iterable[Path] | None = None) -> list[Path]:
    out: list[Path] = []
    for d in dirs if dirs is not None else source_dirs():
        if d.is_dir():
            out += sorted(p for p in d.rglob("*.jsonl") if p.is_file())
    return out


def _remove_db_files(p: Path) -> None:
    for q in (p, p.with_name(p.name + "-wal"), p.with_name(p.name + "-shm"),
              p.with_name(p.name + "-journal")):
        try:
            q.unlink()
        except FileNotFoundError:
            pass


def rebuild(dirs: Iterable[Path] | None = None, *, quiet: bool = False,
            err: Callable[[str], None] | None = None,
            before_swap: Callable[[], None] | None = None) -> dict[str, int]:
    """Make the database again from the replay files.

    The new database is written to ``record.sqlite3.rebuild-<pid>`` beside the old
    one, then copied over the old one in a single SQLite transaction (the
    backup API): a kill at any moment leaves the old database or the new one,
    never a mixture.  (A plain rename would be atomic too, but another program
    with the old database open in WAL mode would then write its log into the
    new file.)  The review's accuracies are carried over.  Returns counts."""
    say = err if err is not None else (lambda s: print(s, file=sys.stderr))
    target = db_path()
    with _rebuild_lock:
        _remove_stale_rebuilds(target)
        tmp = target.with_name(f"{target.name}.rebuild-{os.getpid()}")
        _remove_db_files(tmp)
        return _rebuild(dirs, target, tmp, say, quiet, err is not None, before_swap)


_rebuild_lock = threading.Lock()
#: Pages copied per backup step (-1: all at once); the destination is written in
#: one transaction whatever the step (the tests kill a rebuild between steps).
BACKUP_PAGES = -1
_backup_progress: Callable[[int, int, int], object] | None = None


def _remove_stale_rebuilds(target: Path) -> None:
    """A rebuild killed half-way leaves its temporary file: drop those whose process is gone."""
    prefix = f"{target.name}.rebuild-"
    for q in target.parent.glob(prefix + "*"):
        pid = q.name[len(prefix):].split("-")[0]  # also its -wal and -shm
        if not pid.isdigit():
            continue
        try:
            os.kill(int(pid), 0)
            continue  # still running (or another user's)
        except ProcessLookupError:
            pass
        except PermissionError:
            continue
        try:
            q.unlink()
        except OSError:
            pass


def _rebuild(dirs: Iterable[Path] | None, target: Path, tmp: Path, say: Callable[[str], None],
             quiet: bool, told: bool, before_swap: Callable[[], None] | None) -> dict[str, int]:
    counts = {"files": 0, "skipped": 0, "watched": 0, "deals": 0, "games": 0}
    new = connect(tmp)
    try:
        new.execute("BEGIN IMMEDIATE")
        for f in replay_files(dirs):
            try:
                rec = read_record(f)
            except NotRecorded:
                counts["watched"] += 1
                continue
            except RecordError as exc:
                counts["skipped"] += 1
                if not quiet or told:
                    say(f"skipped: {exc}")
                continue
            counts["files"] += 1
            _insert(new, rec)
        new.execute("COMMIT")
        _carry_accuracy(new, target)
        counts["deals"] = new.execute("SELECT COUNT(*) FROM deals").fetchone()[0]
        counts["games"] = new.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        new.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        if before_swap is not None:
            before_swap()
        try:
            old = connect(target, import_existing=False)
        except NewerDatabase:
            raise
        except RecordError:
            old = None
        if old is None:  # not a database at all: nothing to keep, put the new one in its place
            new.close()
            broken = target.with_name(target.name + ".broken")
            if target.exists():
                os.replace(target, broken)
            for suffix in ("-wal", "-shm"):
                w = target.with_name(target.name + suffix)
                if w.exists():
                    w.unlink()
            os.replace(tmp, target)
        else:
            try:
                new.backup(old, pages=BACKUP_PAGES, progress=_backup_progress)
            finally:
                old.close()
    finally:
        new.close()
        _remove_db_files(tmp)
    return counts


def _carry_accuracy(new: sqlite3.Connection, old_path: Path) -> None:
    if not old_path.exists():
        return
    try:
        old = sqlite3.connect(f"file:{old_path}?mode=ro", uri=True, timeout=15)
        try:
            rows = old.execute(
                "SELECT game_key, deal_no, accuracy FROM deals WHERE accuracy IS NOT NULL").fetchall()
        finally:
            old.close()
    except sqlite3.DatabaseError:
        return  # an old version without the column, or not a database: nothing to carry
    new.execute("BEGIN IMMEDIATE")
    new.executemany("UPDATE deals SET accuracy = ? WHERE game_key = ? AND deal_no = ?",
                    [(a, k, n) for k, n, a in rows])
    new.execute("COMMIT")


# --- reading the record ----------------------------------------------------------------------------


@dataclass
class DealRow:
    played_at: str
    variant: str
    file: str
    deal_no: int
    seat: int
    human: bool
    practice: bool
    opponents: str
    us: int
    them: int
    score: int
    result: Result
    accuracy: float | None


def deal_rows(con: sqlite3.Connection, variant: str | None = None, *,
              ai_only: bool = False) -> list[DealRow]:
    """Every deal of the player's (a person at the table), oldest first; with
    ``ai_only``, the deals the AI played alone instead."""
    sql = ("SELECT played_at, variant, file, deal_no, seat, human, practice, opponents, us, them,"
           " score, result, accuracy FROM deals WHERE human = ?")
    args: tuple[Any, ...] = (0 if ai_only else 1,)
    if variant is not None:
        sql += " AND variant = ?"
        args = (*args, variant)
    sql += " ORDER BY played_at, game_key, deal_no"
    return [DealRow(r[0], r[1], r[2], r[3], r[4], bool(r[5]), bool(r[6]), r[7], r[8], r[9], r[10],
                    r[11], r[12]) for r in con.execute(sql, args)]


def _rate(wins: int, n: int) -> float | None:
    return round(wins / n, 3) if n else None


def _tally(rows: Iterable[tuple[Result, ...]]) -> dict[Result, int]:
    t: dict[Result, int] = {"win": 0, "draw": 0, "loss": 0}
    for (r,) in rows:
        t[r] += 1
    return t


def summary(con: sqlite3.Connection, variant: str | None = None) -> dict[str, Any]:
    """The totals ``tarocchi stats --json`` prints and the screen shows.

    ``wins``, ``draws`` and ``losses`` count deals; ``games_won`` and the like
    count games.  ``by_level`` is keyed by the opponents' level ('easy/hard'
    when they differ): deals and games with their results and win rates."""
    where, args = ("WHERE human = 1 AND variant = ?", (variant,)) if variant else ("WHERE human = 1", ())
    d = _tally(con.execute(f"SELECT result FROM deals {where}", args))
    g = _tally(con.execute(f"SELECT result FROM games {where}", args))
    n_deals, n_games = sum(d.values()), sum(g.values())
    out: dict[str, Any] = {
        "deals": n_deals, "games": n_games,
        "wins": d["win"], "draws": d["draw"], "losses": d["loss"],
        "win_rate": _rate(d["win"], n_deals),
        "games_won": g["win"], "games_drawn": g["draw"], "games_lost": g["loss"],
        "game_win_rate": _rate(g["win"], n_games),
    }
    by_level: dict[str, dict[str, Any]] = {}
    for level, result, n in con.execute(
            f"SELECT opponents, result, COUNT(*) FROM deals {where} GROUP BY opponents, result", args):
        e = by_level.setdefault(level, {"deals": 0, "wins": 0, "draws": 0, "losses": 0,
                                        "games": 0, "games_won": 0, "games_drawn": 0, "games_lost": 0})
        e["deals"] += n
        e[{"win": "wins", "draw": "draws", "loss": "losses"}[result]] += n
    for level, result, n in con.execute(
            f"SELECT opponents, result, COUNT(*) FROM games {where} GROUP BY opponents, result", args):
        e = by_level.setdefault(level, {"deals": 0, "wins": 0, "draws": 0, "losses": 0,
                                        "games": 0, "games_won": 0, "games_drawn": 0, "games_lost": 0})
        e["games"] += n
        e[{"win": "games_won", "draw": "games_drawn", "loss": "games_lost"}[result]] += n
    for e in by_level.values():
        e["win_rate"] = _rate(e["wins"], e["deals"])
        e["game_win_rate"] = _rate(e["games_won"], e["games"])
    out["by_level"] = dict(sorted(by_level.items()))
    by_variant: dict[str, Any] = {}
    for v, n, wins, mean_us, mean_score in con.execute(
            f"SELECT variant, COUNT(*), SUM(result = 'win'), AVG(us), AVG(score) FROM deals {where}"
            " GROUP BY variant ORDER BY variant", args):
        games = con.execute("SELECT COUNT(*), SUM(result = 'win') FROM games WHERE human = 1"
                            " AND variant = ?", (v,)).fetchone()
        by_variant[v] = {"deals": n, "wins": wins, "win_rate": _rate(wins, n),
                         "mean_points": round(mean_us, 2), "mean_score": round(mean_score, 2),
                         "games": games[0], "games_won": games[1] or 0}
    out["by_variant"] = by_variant
    acc = con.execute(f"SELECT COUNT(accuracy), AVG(accuracy) FROM deals {where}", args).fetchone()
    out["reviewed"] = acc[0]
    out["mean_accuracy"] = round(acc[1], 2) if acc[1] is not None else None
    extra = con.execute(f"SELECT SUM(human), SUM(practice), MIN(played_at), MAX(played_at) FROM deals {where}",
                        args).fetchone()
    out["played_by_you"] = extra[0] or 0
    out["practice"] = extra[1] or 0
    out["first"], out["last"] = extra[2], extra[3]
    # the AI's games alone (autoplay): apart, never the player's
    ai_where, ai_args = ("WHERE human = 0 AND variant = ?", (variant,)) if variant else ("WHERE human = 0", ())
    out["ai_only"] = {
        "deals": con.execute(f"SELECT COUNT(*) FROM deals {ai_where}", ai_args).fetchone()[0],
        "games": con.execute(f"SELECT COUNT(*) FROM games {ai_where}", ai_args).fetchone()[0],
    }
    return out


# --- tarocchi stats ---------------------------------------------------------------------------------


def add_stats_command(sub: Any) -> None:
    p = sub.add_parser(
        "stats",
        help="your record: finished deals and games, win rates by opponent level",
        description="Print your record, kept in the user data folder and made from the replay "
        "files of finished games and autoplay runs.",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--rebuild", action="store_true",
                   help="make the record again from every replay under <data>/replays and <data>/autoplay")
    p.set_defaults(func=cmd_stats)


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def _ai_line(s: dict[str, Any]) -> str:
    ai = s.get("ai_only") or {}
    if not ai.get("deals"):
        return ""
    return (f"(not yours: {counted(ai['deals'], 'deal')} and {counted(ai['games'], 'game')} "
            "the AI played alone, in autoplay)")


def format_summary(s: dict[str, Any]) -> str:
    if not s["deals"]:
        return "\n".join(x for x in ("Your record is empty: no finished deal yet.", _ai_line(s)) if x)
    lines = [
        f"{counted(s['deals'], 'deal')}: {s['wins']} won, {s['draws']} drawn, {s['losses']} lost "
        f"(win rate {_pct(s['win_rate'])})",
        f"{counted(s['games'], 'game')}: {s['games_won']} won, {s['games_drawn']} drawn, {s['games_lost']} lost "
        f"(win rate {_pct(s['game_win_rate'])})",
        "by opponent level:",
    ]
    for level, e in s["by_level"].items():
        deals, games = counted(e["deals"], "deal"), counted(e["games"], "game")
        lines.append(f"  {level:<14} {deals:>11}, win rate {_pct(e['win_rate']):>4}   "
                     f"{games:>10}, win rate {_pct(e['game_win_rate']):>4}")
    for v, e in s["by_variant"].items():
        lines.append(f"{v}: {counted(e['deals'], 'deal')}, {e['mean_points']} points a deal on average "
                     f"({e['mean_score']:+} against a fair share)")
    if s["reviewed"]:
        lines.append(f"accuracy: {s['mean_accuracy']}% on average over "
                     f"{counted(s['reviewed'], 'reviewed deal')}")
    if _ai_line(s):
        lines.append(_ai_line(s))
    return "\n".join(lines)


def _os_reason(exc: Exception) -> str:
    if isinstance(exc, OSError):
        from engine.files import describe_os_error

        return describe_os_error(exc)
    return str(exc)


def cmd_stats(args: argparse.Namespace) -> int:
    from game.common import paths

    try:
        data_home()
    except paths.DataFolderError as exc:
        print(f"tarocchi stats: {exc}", file=sys.stderr)
        return 1
    try:
        if args.rebuild:
            c = rebuild()
            print(f"rebuilt from {counted(c['files'], 'file')} ({c['skipped']} skipped, "
                  f"{counted(c['watched'], 'watched game')} left out): "
                  f"{counted(c['deals'], 'deal')}, {counted(c['games'], 'game')}", file=sys.stderr)
        con = connect()
        try:
            s = summary(con)
        finally:
            con.close()
    except RecordError as exc:
        print(f"tarocchi stats: {exc}", file=sys.stderr)
        return 1
    except (sqlite3.DatabaseError, OSError) as exc:  # a full disk, a folder gone, mid-rebuild
        print(f"tarocchi stats: cannot write the record {db_path()}: {_os_reason(exc)}", file=sys.stderr)
        return 1
    s["database"] = str(db_path())
    if args.json:
        print(json.dumps(s))
    else:
        print(format_summary(s))
    return 0
