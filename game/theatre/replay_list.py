"""The Replays browser's model, pure Python (no arcade): one :class:`Row` per
replay file, its texts in the player's language, filtering, sorting, and
moving a file to the trash.

A row says what a player wants to know of a game, not its file name: when it
was played, which game (Piedicavallo's single deal or match, Scarto's single
deal or game of three deals; practice, a watched AI game), who sat where (the
AI levels by seat, "You" for the human), and how it ended from the human's
side (won, lost or drawn, with the side's points or the player's score), or
for an unfinished game how far it got.  Every result is the engine's: the
ruleset's ``game_outcome`` and the state's ``totals``; nothing is counted here.

Files are read with the engine's reader (``read_replay``, within its limits);
one that cannot be read is listed with the reader's message.  Deleting a row
moves its file into ``trash/`` in the data folder (never unlinks it), so it can
be moved back by hand.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from engine.replay import Replay, ReplayError, read_replay
from engine.ruleset import Ruleset, ruleset, variant_names
from engine.state import DISCARD, PLAY
from game.common import paths
from game.common.i18n import N_, _, ngettext
from game.common.words import Words, and_list, game_name

HUMAN = "human"
#: where a row's file lies: a folder of the data folder ("data": the data folder
#: itself, the autosave), or a file opened by its path
Where = Literal["replays", "autoplay", "data", "opened"]
#: folders of the data folder that hold games, and what a row from each is
FOLDERS: tuple[tuple[str, Where], ...] = (("replays", "replays"), ("autoplay", "autoplay"), ("", "data"))
#: the statuses a row can have
Status = Literal["won", "drawn", "lost", "unfinished", "broken"]
WON: Status = "won"
DRAWN: Status = "drawn"
LOST: Status = "lost"
UNFINISHED: Status = "unfinished"
BROKEN: Status = "broken"
#: the statuses in the order "sort by result" lists them
STATUS_ORDER: tuple[Status, ...] = (WON, DRAWN, LOST, UNFINISHED, BROKEN)
#: the filters and orders of the list ("all" or a game's name for the game filter)
StatusFilter = Literal["all", "finished", "unfinished"]
Order = Literal["newest", "oldest", "game", "result"]
GAME_FILTERS = ("all", *variant_names())
STATUS_FILTERS: tuple[StatusFilter, ...] = ("all", "finished", "unfinished")
SORTS: tuple[Order, ...] = ("newest", "oldest", "game", "result")
N_("easy"), N_("medium"), N_("hard"), N_("random")


@dataclass(frozen=True)
class Row:
    """What the browser shows of one file (the facts; see the ``*_text`` functions
    for the words)."""

    path: Path
    when: datetime
    where: Where = "replays"
    error: str = ""
    variant: str = "piedicavallo"
    n_deals: int = 1
    players: tuple[str, ...] = ()
    viewer: int | None = None  # the human's seat; None for a watched AI game
    practice: bool = False
    online: bool = False  # played at a server's table (its file written from the server's events)
    names: tuple[str, ...] = ()  # by seat, the people's names an online game knew ("" for the AI)
    autosave: bool = False  # the game in progress, offered for resume by the menu
    status: Status = BROKEN
    totals: tuple[int, ...] = ()  # the engine's totals over the finished deals, by side
    deals_done: int = 0
    deal_no: int = 0  # deals started
    phase: int = 0
    tricks_done: int = 0  # in the deal under way

    @property
    def ok(self) -> bool:
        return not self.error

    @property
    def rules(self) -> Ruleset:
        return ruleset(self.variant)

    @property
    def finished(self) -> bool:
        return self.status in (WON, DRAWN, LOST)

    @property
    def watched(self) -> bool:
        return self.ok and self.viewer is None

    @property
    def side(self) -> int:
        """The side the result is told from: the human's, or South's in a watched game."""
        return self.rules.side[self.viewer if self.viewer is not None else 0]


# --- reading -------------------------------------------------------------------------

_CACHE: dict[tuple[str, int, int, str], Row] = {}


def _mtime(path: Path) -> tuple[datetime, int, int]:
    try:
        st = path.stat()
    except OSError:
        return datetime.fromtimestamp(0, tz=UTC), 0, 0
    return datetime.fromtimestamp(st.st_mtime, tz=UTC), st.st_mtime_ns, st.st_size


def _created(rp: Replay, fallback: datetime) -> datetime:
    created = rp.header.extra.get("created")
    if isinstance(created, str):
        try:
            when = datetime.fromisoformat(created.replace("Z", "+00:00"))
        except ValueError:
            return fallback
        return when if when.tzinfo is not None else when.replace(tzinfo=UTC)
    return fallback


def _status(rp: Replay, side: int) -> Status:
    s = rp.final
    if len(s.scores) < s.n_deals:
        return UNFINISHED
    outcome = rp.rules.game_outcome(s.scores)
    if outcome.draw:
        return DRAWN
    return WON if side in outcome.winners else LOST


def _viewer(players: tuple[str, ...], extra: dict[str, object], n_seats: int) -> int | None:
    """The seat that was "you": an online game's own seat (every friend is a
    "human" there), else the human's seat; None for a game the AI played alone."""
    seat = extra.get("seat")
    if extra.get("online") and isinstance(seat, int) and 0 <= seat < n_seats:
        return seat
    return players.index(HUMAN) if HUMAN in players else None


def describe(path: Path, where: Where = "replays") -> Row:
    """One row: the facts of a readable file, or its error (never raises).  Rows
    are kept by path, modification time and size, so a list is read once."""
    when, mtime_ns, size = _mtime(path)
    key = (str(path), mtime_ns, size, where)
    if key in _CACHE:
        return _CACHE[key]
    autosave = path == paths.autosave_path()
    try:
        rp = read_replay(path, tolerate_torn=True)
    except ReplayError as exc:
        row = Row(path, when, where, error=str(exc), autosave=autosave)
    else:
        rules = rp.rules
        players = tuple(rp.header.players)
        extra = rp.header.extra
        online = bool(extra.get("online"))
        viewer = _viewer(players, extra, rules.n_seats)
        names = extra.get("names")
        names = tuple(str(n) for n in names)[:rules.n_seats] if isinstance(names, list) else ()
        side = rules.side[viewer if viewer is not None else 0]
        s = rp.final
        row = Row(path, _created(rp, when), where, variant=rules.name, n_deals=s.n_deals, players=players,
                  viewer=viewer, practice=bool(extra.get("practice")), online=online, names=names,
                  autosave=autosave, status=_status(rp, side), totals=s.totals, deals_done=len(s.scores),
                  deal_no=s.deal_no, phase=s.phase, tricks_done=s.trick_no)
    if len(_CACHE) > 2000:
        _CACHE.clear()
    _CACHE[key] = row
    return row


def game_files(opened: Sequence[Path] = ()) -> list[tuple[Path, Where]]:
    """Every replay file of the data folder (``replays/``, ``autoplay/`` and the
    data folder itself: the autosave), and the files opened by path, once each."""
    found: dict[str, tuple[Path, Where]] = {}
    home = paths.home()
    for sub, where in FOLDERS:
        folder = home / sub if sub else home
        if folder.is_dir():
            for p in sorted(folder.glob("*.jsonl")):
                found.setdefault(os.path.realpath(p), (p, where))
    for p in opened:
        found.setdefault(os.path.realpath(p), (Path(p), "opened"))
    return list(found.values())


def load(opened: Sequence[Path] = ()) -> list[Row]:
    """Every row, newest first."""
    return sort_rows([describe(p, where) for p, where in game_files(opened)], "newest")


# --- filtering and sorting -------------------------------------------------------------


def matches(row: Row, game: str = "all", status: StatusFilter = "all", text: str = "") -> bool:
    """Whether ``row`` passes the filters: a game, finished or not, and a text
    found (case aside) in any of the row's texts or its file name."""
    if game != "all" and (not row.ok or row.variant != game):
        return False
    if status == "finished" and not row.finished:
        return False
    if status == "unfinished" and row.status != UNFINISHED:
        return False
    needle = text.strip().casefold()
    return not needle or needle in search_text(row)


def sort_rows(rows: Iterable[Row], order: Order) -> list[Row]:
    rows = list(rows)
    newest = sorted(rows, key=lambda r: (r.when, str(r.path)), reverse=True)
    if order == "oldest":
        return newest[::-1]
    if order == "game":
        return sorted(newest, key=lambda r: (not r.ok, r.variant, r.n_deals))
    if order == "result":
        return sorted(newest, key=lambda r: STATUS_ORDER.index(r.status))
    return newest


def select(rows: Sequence[Row], game: str = "all", status: StatusFilter = "all", text: str = "",
           order: Order = "newest") -> list[Row]:
    return sort_rows((r for r in rows if matches(r, game, status, text)), order)


# --- the trash ---------------------------------------------------------------------------


class TrashError(Exception):
    """Why a file was not moved to the trash (one line)."""


def trash_dir() -> Path:
    return paths.home() / "trash"


def trash(path: Path) -> Path:
    """Move ``path`` into the data folder's ``trash/`` (a free name there: ``-1``,
    ``-2`` ... before the suffix) and return where it went.  The file is renamed,
    or copied and only then removed from its old place, never simply deleted.
    The autosave (the game the menu offers to resume) is refused."""
    if path == paths.autosave_path():
        raise TrashError(_("This is the interrupted game: resume it from the menu, or start a new game."))
    folder = trash_dir()
    folder.mkdir(parents=True, exist_ok=True)
    dest = folder / path.name
    n = 1
    while dest.exists():
        dest = folder / f"{path.stem}-{n}{path.suffix}"
        n += 1
    try:
        shutil.move(str(path), str(dest))
    except OSError as exc:
        raise TrashError(_("Could not move {name} to the trash: {error}").format(
            name=path.name, error=exc.strerror or exc)) from None
    _CACHE.clear()
    return dest


# --- words -------------------------------------------------------------------------------


_MONTHS = (N_("Jan"), N_("Feb"), N_("Mar"), N_("Apr"), N_("May"), N_("Jun"), N_("Jul"), N_("Aug"),
           N_("Sep"), N_("Oct"), N_("Nov"), N_("Dec"))


def date_text(when: datetime, now: datetime | None = None) -> str:
    """A day and a time as people say them: "7 Dec, 12:08" ("7 Dec 2024, 12:08" in
    another year), in the player's language and time zone."""
    local = when.astimezone()
    now = (now or datetime.now(UTC)).astimezone()
    month, clock = _(_MONTHS[local.month - 1]), local.strftime("%H:%M")
    if local.year == now.year:
        return _("{day} {month}, {time}").format(day=local.day, month=month, time=clock)
    return _("{day} {month} {year}, {time}").format(day=local.day, month=month, year=local.year, time=clock)


def when_text(row: Row) -> str:
    return date_text(row.when)


def people(row: Row) -> list[str]:
    """The other people's names at an online game ("" seats, the AI's, left out)."""
    return [n for s, n in enumerate(row.names) if n and s != row.viewer]


def title_text(row: Row) -> str:
    """A game named for the people who played it and when: "Online game with Anna,
    7 Dec, 12:08", "Practice game, 7 Dec, 12:08", "Watched AI game, ..."."""
    if not row.ok:
        return _("Unreadable replay")
    if row.autosave:
        kind = _("The interrupted game")
    elif row.online:
        kind = _("Online game with {names}").format(names=and_list(people(row))) if people(row) \
            else _("Online game")
    elif row.watched:
        kind = _("Autoplay") if row.where == "autoplay" else _("Watched AI game")
    elif row.practice:
        kind = _("Practice game")
    else:
        kind = _("Game with the AI")
    return _("{game}, {when}").format(game=kind, when=when_text(row))


def game_title(path: Path) -> str:
    """The game in a file named for people (:func:`title_text`), for the replay's and
    the review's heading; the file's name where it cannot be read."""
    where: Where = "opened"
    try:
        home, folder = paths.home().resolve(), path.resolve().parent
    except (OSError, paths.DataFolderError):
        home = folder = Path()
    for sub, w in FOLDERS:
        if home != Path() and folder == (home / sub if sub else home):
            where = w
    row = describe(path, where)
    return title_text(row) if row.ok else path.name


def game_text(row: Row) -> str:
    """"Piedicavallo, match of 4 deals · practice"; "Scarto, single deal · watched AI game"."""
    if not row.ok:
        return _("Unreadable replay")
    rules = row.rules
    parts = [f"{game_name(rules)}, {Words(rules, None).game_kind(row.n_deals)}"]
    if row.autosave:
        parts.append(_("the interrupted game"))
    if row.online:
        parts.append(_("online with {names}").format(names=and_list(people(row))) if people(row)
                     else _("online"))
    elif row.practice:
        parts.append(_("practice"))
    if row.watched:
        parts.append(_("watched AI game") if row.where != "autoplay" else _("autoplay"))
    return "  ·  ".join(parts)


def seat_label(row: Row, seat: int) -> str:
    """One seat: "You", or where it sits and who played it: its level ("East: hard",
    "Partner: medium"), a person's name at an online game ("West: Anna")."""
    rules = row.rules
    level = row.players[seat] if seat < len(row.players) else "?"
    if row.viewer is not None and seat == row.viewer:
        return _("You ({seat})").format(seat=_(rules.seat_names[seat]))
    name = Words(rules, row.viewer).name(seat)
    person = row.names[seat] if seat < len(row.names) else ""
    who = person or (_(level) if level != "?" else "?")
    return _("{seat}: {level}").format(seat=name, level=who)


def players_text(row: Row) -> str:
    if not row.ok:
        return ""
    order = [row.viewer] if row.viewer is not None else []
    order += [s for s in range(row.rules.n_seats) if s not in order]
    return "  ·  ".join(seat_label(row, s) for s in order)


def signed(v: int) -> str:
    """A score with its sign: "+4", "−6" (a minus sign), "0"."""
    return f"+{v}" if v > 0 else (f"−{-v}" if v < 0 else "0")


def points_text(row: Row) -> str:
    """The side's points first ("72–42"), or in Scarto the player's score ("−8")."""
    t = row.totals
    if not t:
        return ""
    rules = row.rules
    mine = row.side
    if rules.n_sides < rules.n_seats:
        return f"{t[mine]}–{t[1 - mine]}"
    return signed(t[mine])


def others_text(row: Row) -> str:
    """Scarto: the other players' scores ("East +16 · West −8"), every seat's in a
    watched game; "" where two teams play."""
    rules = row.rules
    t = row.totals
    if not t or rules.n_sides < rules.n_seats:
        return ""
    words = Words(rules, row.viewer)
    seats = [s for s in range(rules.n_seats) if row.viewer is None or s != row.viewer]
    return "  ·  ".join(f"{words.name(s)} {signed(t[rules.side[s]])}" for s in seats)


#: the result from the player's side
_RESULTS = {WON: N_("Won {points}"), LOST: N_("Lost {points}"), DRAWN: N_("Drawn {points}")}


def _watched_result(row: Row) -> str:
    """A watched game's result, told by name (nobody is "you"): the winning team
    and its points, or in Scarto who lost (the lowest total)."""
    rules = row.rules
    t = row.totals
    teams = rules.n_sides < rules.n_seats
    if row.status == DRAWN:
        return _("Drawn {points}").format(points=points_text(row) if teams else "").strip()
    if teams:
        winner = row.side if row.status == WON else 1 - row.side
        who = "-".join(_(rules.seat_names[s]) for s in range(rules.n_seats) if rules.side[s] == winner)
        return _("{side} won {points}").format(side=who, points=f"{t[winner]}–{t[1 - winner]}")
    low = min(t)
    losers = [_(rules.seat_names[s]) for s in range(rules.n_seats) if t[rules.side[s]] == low]
    names = and_list(losers)
    return ngettext("{names} lost", "{names} lost", len(losers)).format(names=names)


def progress_text(row: Row) -> str:
    """How far an unfinished game got: "7 tricks of 15 played", "deal 2 of 4, the discard"."""
    rules = row.rules
    if row.deal_no == 0:
        return _("not started")
    if row.phase == DISCARD:
        where = _("the discard")
    elif row.phase == PLAY:
        where = ngettext("{n} trick of {total} played", "{n} tricks of {total} played", row.tricks_done).format(
            n=row.tricks_done, total=rules.n_tricks)
    else:
        return ngettext("{n} deal of {total} played", "{n} deals of {total} played", row.deals_done).format(
            n=row.deals_done, total=row.n_deals)
    if row.n_deals == 1:
        return where
    return _("deal {n} of {total}, {where}").format(n=row.deal_no, total=row.n_deals, where=where)


def result_lines(row: Row) -> tuple[str, str]:
    """The result from the player's side and its detail: ("Won 72–42", ""),
    ("Lost −8", "East +16 · West −8"), ("Unfinished", "deal 2 of 4, the discard · 56–58 so far")."""
    if not row.ok:
        return _("Cannot be read"), ""
    if row.status == UNFINISHED:
        detail = progress_text(row)
        if row.deals_done:
            if row.viewer is None and others_text(row):
                so_far = others_text(row)  # a watched Scarto game: every seat's score
            else:
                so_far = points_text(row)
            detail += "  ·  " + _("{points} so far").format(points=so_far)
            if row.viewer is not None and others_text(row):
                detail += f" ({others_text(row)})"
        return _("Unfinished"), detail
    if row.watched:
        return _watched_result(row), others_text(row)
    return _(_RESULTS[row.status]).format(points=points_text(row)), others_text(row)


def result_text(row: Row) -> str:
    head, detail = result_lines(row)
    return f"{head}  ·  {detail}" if detail else head


def file_text(row: Row) -> str:
    """Where the file lies, for the detail line: "replays/x.jsonl" or a full path."""
    if row.where in ("replays", "autoplay"):
        return f"{row.where}/{row.path.name}"
    return str(row.path) if row.where == "opened" else row.path.name


def search_text(row: Row) -> str:
    parts = [when_text(row), row.when.astimezone().strftime("%Y-%m-%d %H:%M"), file_text(row), row.error]
    if row.ok:  # the words shown, and the levels as the file writes them ("hard" in any language)
        parts += [title_text(row), game_text(row), players_text(row), result_text(row), *row.players]
    return "  ".join(parts).casefold()


__all__ = ["Row", "describe", "load", "select", "matches", "sort_rows", "trash", "TrashError", "trash_dir",
           "game_text", "players_text", "result_lines", "result_text", "when_text", "date_text", "title_text", "game_title",
           "file_text", "search_text"]
