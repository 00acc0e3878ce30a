"""Starting, resuming and finishing games: the glue between the menu, the
engine's ``Game`` (with its autosave) and the table view.

The save discipline (docs/SAVES.md): every event is appended and flushed before it is
shown; any rewrite goes to a temporary file, fsync, rename.  Here that means:

- a finished game is filed under ``replays/`` by renaming its autosave there
  (fsynced first): archived and cleared in one step, so a kill leaves the game
  in one place or the other, never in neither; a finished autosave still in
  place (a kill, a full disk) is filed at the next start (:func:`startup`);
- resuming continues the autosave after checking it, never rewriting it; an
  autosave that cannot be resumed is never deleted or rewritten: the menu
  says why in one line and it stays, until a new game is started, which files
  it under ``replays/`` (a readable game) or renames it
  ``autosave-broken-<time>.jsonl`` (an unreadable one);
- autoplay logs to a new file of its own (``autoplay/``), never the autosave;
- one writer per data folder: starting or resuming a game takes the folder's
  writer lock (:func:`paths.acquire_autosave`, the OS's own lock) and the game
  holds it until it is closed; a second Tarocchi on the same folder can browse
  replays, rules and the record, but is refused a game in one line
  (:class:`paths.AutosaveBusy`, :class:`ResumeBusy`), and never files the
  autosave another window has open.
"""

from __future__ import annotations

import errno
import os
import random
import secrets
import time
from dataclasses import dataclass
from pathlib import Path

from engine.files import MAX_REPLAY_BYTES, atomic_write, clean_temporaries, fsync_dir, read_capped
from engine.game import Game
from engine.players import Player, level_names, make_player
from engine.replay import AutosaveConflict, Replay, ReplayError, read_replay
from engine.ruleset import Ruleset, ruleset
from game.common import paths

HUMAN = "human"

#: deal numbers the table draws (a game's seed): short enough to note and type
#: back in the practice set-up to play the same deal again
DEAL_NUMBERS = 1_000_000


class ResumeError(Exception):
    """The autosave cannot be resumed; ``str()`` is one line saying why (the file is untouched)."""


class ResumeBusy(ResumeError):
    """Another Tarocchi process has the game in progress open (the data folder's
    writer lock, :func:`paths.acquire_autosave`); ``str()`` names the folder."""


class SessionGame(Game):
    """A game logged to the user's autosave: it holds the data folder's writer
    lock (one writer per data folder) from its start until it is closed."""

    _lock_folder: Path | None = None

    def close(self, *, sync: bool = False) -> None:
        try:
            super().close(sync=sync)
        finally:
            folder, self._lock_folder = self._lock_folder, None
            if folder is not None:
                paths.release_autosave(folder)


def deal_number_for(rules: Ruleset, dealer: int | None = None, rng: random.Random | None = None) -> int:
    """A new deal number (the game's seed), whose first dealer is ``dealer`` when
    one is asked for: the first dealer is drawn from the seed (R13, S6), so
    numbers are drawn until one gives that dealer (a few tries)."""
    from engine.state import first_dealer

    rng = rng or random.SystemRandom()
    while True:
        seed = rng.randrange(1, DEAL_NUMBERS)
        if dealer is None or first_dealer(seed, rules) == dealer:
            return seed


def new_game(*, partner: str, opponents: str, match: bool, practice: bool = False,
             seed: int | None = None, human: bool = True, players: list[str] | None = None,
             autosave: Path | None = None, variant: str = "piedicavallo",
             dealer: int | None = None, chosen_deal: bool = False) -> Game:
    """A fresh game autosaved in the user data folder; South is the human unless ``human=False``.

    ``dealer``: the seat that deals first (a practice set-up choice; the seed is
    drawn to give it), kept in the header so that "Play again" keeps it;
    ``chosen_deal``: the player typed the deal number in (``seed``), so "Play
    again" plays that deal again.

    ``variant``: which game (``piedicavallo``, ``scarto``); ``match``: its full
    length (a match of four deals, Scarto's three) instead of a single deal;
    ``partner`` plays opposite South where the game has partners.
    A game left in the autosave is filed first (:func:`set_aside_autosave`), never
    overwritten.  ``autosave``: log to this file instead (autoplay), the user's
    autosave untouched."""
    rules = ruleset(variant)
    if seed is None:
        seed = deal_number_for(rules, dealer)
    if players is None:
        others = [partner if s == rules.partner[0] else opponents for s in range(1, rules.n_seats)]
        players = [HUMAN if human else opponents, *others]
    # "id" tells two games apart that share a seed and a second (two autoplay runs
    # in a row): the record keys a game on its header
    extra: dict[str, object] = {"ui": "tarocchi-table",
                                "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                                "id": secrets.token_hex(8)}
    if practice:
        extra["practice"] = True
    if dealer is not None and not chosen_deal:
        extra["chosen_dealer"] = dealer
    if chosen_deal:
        extra["chosen_deal"] = True
    if autosave is not None:  # a file of its own (autoplay): no lock, the autosave untouched
        return Game(seed, rules.full_game if match else 1, players, autosave=autosave, extra=extra,
                    rules=rules)
    folder = paths.acquire_autosave()  # AutosaveBusy: another window has the game in progress
    try:
        paths.check_home()
        set_aside_autosave()
        game = SessionGame(seed, rules.full_game if match else 1, players,
                           autosave=paths.autosave_path(), extra=extra, rules=rules)
    except BaseException:
        paths.release_autosave(folder)
        raise
    game._lock_folder = folder
    return game


def play_again(game: Game) -> Game:
    """A new game set up as ``game`` was: the same game, length, players and
    practice; its chosen first dealer again, or its chosen deal again (the same
    deal number), else a new deal."""
    h = game.header
    chosen_deal = bool(h.extra.get("chosen_deal"))
    dealer = h.extra.get("chosen_dealer")
    return new_game(partner="", opponents="", match=game.states[0].n_deals > 1,
                    practice=bool(h.extra.get("practice")), seed=h.seed if chosen_deal else None,
                    players=list(h.players), variant=h.variant,
                    dealer=dealer if isinstance(dealer, int) and not isinstance(dealer, bool) else None,
                    chosen_deal=chosen_deal)


def ai_players(game: Game) -> dict[int, Player]:
    return {s: make_player(p) for s, p in enumerate(game.header.players) if p != HUMAN}


def human_seats(game: Game) -> frozenset[int]:
    return frozenset(s for s, p in enumerate(game.header.players) if p == HUMAN)


# --- the autosave ------------------------------------------------------------------


@dataclass
class Autosave:
    """What the autosave holds: a readable game (``replay``) or the reason it is not."""

    path: Path
    replay: Replay | None
    problem: str = ""  # why it cannot be resumed ("" if it can)

    @property
    def finished(self) -> bool:
        if self.replay is None:
            return False
        final = self.replay.final
        return len(final.scores) >= final.n_deals


def playable_problem(rp: Replay) -> str:
    """Why the game of ``rp`` cannot be continued here ("" if it can): its seats must
    name the human or AI levels this program has."""
    players = rp.header.players
    n = rp.rules.n_seats
    if players == ["?"] * n:
        return f"it does not say who plays (no list of {n} players in its header)"
    known = level_names()
    for seat, p in enumerate(players):
        if p != HUMAN and p not in known:
            return f"seat {seat} is played by {p!r}, not a level of this program ({', '.join(known)})"
    return ""


def inspect_autosave() -> Autosave | None:
    """The autosave (read within the replay limits, never changed), or None if there is none."""
    p = paths.autosave_path()
    if not os.path.lexists(p):
        return None
    try:
        rp = read_replay(p, tolerate_torn=True)
    except ReplayError as exc:
        return Autosave(p, None, str(exc))
    return Autosave(p, rp, playable_problem(rp))


def startup() -> Path | None:
    """At start: remove temporary files a killed run left, and file a finished game
    still in the autosave (a kill between its score and its filing).  Returns the
    replay filed now, if any; never raises for a bad file or folder."""
    try:
        home = paths.home()
    except paths.DataFolderError:
        return None
    clean_temporaries(home)
    for sub in ("replays", "autoplay"):
        if (home / sub).is_dir():
            clean_temporaries(home / sub)
    try:
        with paths.autosave_lock():  # another window's game is its own to file
            info = inspect_autosave()
            if info is not None and info.finished:
                return file_autosave(info)
    except (OSError, paths.DataFolderError):
        pass  # left in place: tried again next time
    return None


def resumable() -> tuple[Replay | None, str] | None:
    """The autosaved game if one was left unfinished (after a crash or a kill), else None.

    Returns ``(replay, message)``; an autosave that cannot be resumed gives
    ``(None, message)``.  A finished game still in the autosave is filed now."""
    try:
        info = inspect_autosave()
    except paths.DataFolderError as exc:
        return None, str(exc)
    if info is None:
        return None
    busy = _busy()
    if busy:
        return None, busy
    if info.finished:
        try:
            with paths.autosave_lock():
                file_autosave(info)
        except (OSError, paths.DataFolderError):
            pass  # left in place: tried again at the next start
        return None
    if info.replay is None or info.problem:
        return None, info.problem
    return info.replay, info.replay.notice


def _busy() -> str:
    """The one-line refusal if another process has the game in progress open, else ""."""
    try:
        with paths.autosave_lock():
            return ""
    except paths.AutosaveBusy as exc:
        return str(exc)
    except paths.DataFolderError:
        return ""  # said where it matters (starting or resuming)


def resume() -> Game:
    """Continue the interrupted game in the autosave (appending to the file after
    checking it), holding the data folder's writer lock until the game is closed.
    :class:`ResumeError` if it cannot be, the file unchanged; :class:`ResumeBusy`
    if another Tarocchi has it open."""
    try:
        folder = paths.acquire_autosave()
    except paths.AutosaveBusy as exc:
        raise ResumeBusy(str(exc)) from None
    except paths.DataFolderError as exc:
        raise ResumeError(str(exc)) from None
    try:
        game = _resume()
    except BaseException:
        paths.release_autosave(folder)
        raise
    game._lock_folder = folder
    return game


def _resume() -> SessionGame:
    try:
        info = inspect_autosave()
    except paths.DataFolderError as exc:
        raise ResumeError(str(exc)) from None
    if info is None:
        raise ResumeError("there is no interrupted game to resume")
    if info.replay is None:
        raise ResumeError(f"the autosave {info.path} cannot be read: {info.problem}")
    if info.problem:
        raise ResumeError(f"the autosave {info.path} cannot be resumed: {info.problem}")
    if info.finished:
        raise ResumeError("the game in the autosave is finished: it is filed under Replays")
    try:
        game = SessionGame.from_replay(info.replay, autosave=info.path)
        assert isinstance(game, SessionGame)
        return game
    except AutosaveConflict as exc:
        raise ResumeError(f"the autosave {info.path} changed while it was read: {exc}") from None
    except OSError as exc:
        raise ResumeError(f"the autosave {info.path} cannot be continued: {exc.strerror}") from None


def _kind(rp_or_game: Replay | Game) -> str:
    """A replay's kind in its file name: ``practice``, ``match`` (a whole game of
    several deals) or ``deal``; another game than Piedicavallo is named first
    (``scarto-match``)."""
    h = rp_or_game.header
    rules = rp_or_game.states[0].rules
    if h.extra.get("practice"):
        kind = "practice"
    else:
        kind = "match" if (h.deals or rp_or_game.states[0].n_deals) > 1 else "deal"
    return kind if rules.name == "piedicavallo" else f"{rules.name}-{kind}"


def _move_into(src: Path, folder: Path, base: str) -> Path:
    """Rename ``src`` to a free ``folder/base[-n].jsonl`` (one step: filed and
    cleared at once); across file systems, a copy (temporary file, fsync, rename)
    and then the source removed."""
    path = folder / f"{base}.jsonl"
    n = 1
    while os.path.lexists(path):
        n += 1
        path = folder / f"{base}-{n}.jsonl"
    try:
        os.rename(src, path)
    except OSError as exc:
        if exc.errno != errno.EXDEV:
            raise
        atomic_write(path, read_capped(src, MAX_REPLAY_BYTES), overwrite=False)
        os.unlink(src)
    fsync_dir(folder)
    fsync_dir(src.parent)
    return path


def _fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _cut_torn_tail(path: Path) -> None:
    """Drop an incomplete last line (a kill mid-write; never a line reported written)."""
    data = read_capped(path, MAX_REPLAY_BYTES)
    if data and not data.endswith(b"\n"):
        os.truncate(path, data.rfind(b"\n") + 1)


def file_autosave(info: Autosave) -> Path:
    """File the game in the autosave under ``replays/`` (finished or not); returns its path."""
    assert info.replay is not None
    rp = info.replay
    if rp.notice:
        _cut_torn_tail(info.path)
    _fsync_file(info.path)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    base = f"{stamp}-{_kind(rp)}-{rp.header.seed}" + ("" if info.finished else "-unfinished")
    path = _move_into(info.path, paths.replays_dir(), base)
    from game.common import record

    record.note_later(path)  # your record (its finished deals), off the frame loop
    return path


def set_aside_autosave() -> str:
    """Before a new game: file what the autosave holds, never deleting it.  A
    readable game goes under ``replays/``; an unreadable file is renamed
    ``autosave-broken-<time>.jsonl`` beside it.  Returns where it went ("" if there
    was no autosave)."""
    info = inspect_autosave()
    if info is None:
        return ""
    if info.replay is not None:
        return str(file_autosave(info))
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return str(_move_into(info.path, info.path.parent, f"autosave-broken-{stamp}"))


def archive_finished(game: Game) -> Path | None:
    """The game is over: close its log (fsynced) and file it; returns the replay's path.

    The user's autosave is renamed into ``replays/`` (archived and cleared in one
    step); a game logged to a file of its own (autoplay, a watched game) keeps
    that file, whose path is returned.  If filing fails (say the disk is full),
    the finished autosave stays and :func:`startup` files it next time."""
    own = game.autosave_path
    if own is None or own != paths.autosave_path():
        game.close(sync=True)
        return own
    with paths.autosave_lock():  # held from the close to the filing: no other window between
        game.close(sync=True)
        return file_autosave(Autosave(own, _replay_of(game)))


def _replay_of(game: Game) -> Replay:
    return Replay(game.header, game.log, game.states[: game.cursor + 1])


def autoplay_log_path() -> Path:
    """A new file for one autoplay run (``autoplay/<time>.jsonl``), never an existing one:
    the name is claimed with an exclusive create before the game writes to it."""
    folder = paths.autoplay_dir()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    n = 1
    while True:
        path = folder / (f"{stamp}.jsonl" if n == 1 else f"{stamp}-{n}.jsonl")
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
        except FileExistsError:
            n += 1
            continue
        os.close(fd)
        return path
