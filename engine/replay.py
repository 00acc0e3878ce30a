"""Replay files (``docs/REPLAY-FORMAT.md``, version 1): events to and from JSON
Lines, a validating reader that refuses a bad file whole with the line, the event
and the rule broken, and the append-only autosave log.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from .cards import CardError, cards_mask, mask_cards
from .files import MAX_NAME_CHARS, FileRefused, atomic_write, iter_lines
from .ruleset import Ruleset, ruleset, variant_names
from .state import (
    DEAL,
    CardPlayed,
    DealScored,
    Dealt,
    Discard,
    Discarded,
    Event,
    IllegalMove,
    Play,
    State,
    TrickTaken,
    apply,
    decide,
    new_game,
)

FORMAT = "tarocchi-replay"
VERSION = 1


class ReplayError(ValueError):
    """A replay file that cannot be accepted; ``line`` is 1-based (0: the whole file)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        self.message = message


# --- events <-> JSON -------------------------------------------------------------


def event_to_json(e: Event, rules: Ruleset) -> dict[str, Any]:
    codes = rules.pack.codes
    if isinstance(e, CardPlayed):
        return {"type": "play", "seat": e.seat, "card": codes[e.card]}
    if isinstance(e, TrickTaken):
        return {"type": "trick", "winner": e.winner, "cards": [codes[c] for c in e.cards]}
    if isinstance(e, Discarded):
        out: dict[str, Any] = {"type": "discard", "seat": e.seat, "cards": rules.pack.mask_codes(e.cards)}
        if rules.announces_discard_trumps:
            out["trumps"] = e.trumps
        return out
    if isinstance(e, Dealt):
        deal: dict[str, Any] = {
            "type": "deal",
            "dealer": e.dealer,
            "hands": [rules.pack.mask_codes(h) for h in e.hands],
        }
        if rules.stock_cards:
            deal["stock"] = rules.pack.mask_codes(e.stock)
        deal["cut"] = e.cut
        return deal
    if isinstance(e, DealScored):
        return {"type": "score", "points": list(e.points)}
    raise TypeError(f"not an event: {e!r}")


def _seat(obj: dict[str, Any], key: str, rules: Ruleset) -> int:
    v = obj.get(key)
    if type(v) is not int or not 0 <= v < rules.n_seats:
        raise ValueError(f"'{key}' must be a seat {rules.seat_range_text()}, not {v!r}")
    return v


def _card_list(v: Any, key: str, rules: Ruleset) -> list[int]:
    if not isinstance(v, list):
        raise ValueError(f"'{key}' must be a list of card codes")
    return [rules.pack.parse(c) for c in v]


def _hand(v: Any, key: str, rules: Ruleset, what: str) -> int:
    cards = _card_list(v, key, rules)
    m = cards_mask(cards)
    if m.bit_count() != len(cards):
        raise ValueError(f"a card is listed twice in {what} ({rules.rule_pack})")
    return m


def event_from_json(obj: Any, rules: Ruleset) -> Event:
    """Parse one event object; raises ValueError (or CardError) saying what is wrong."""
    if not isinstance(obj, dict):
        raise ValueError("an event must be a JSON object")
    kind = obj.get("type")
    n = rules.n_seats
    if kind == "play":
        card = obj.get("card")
        if not isinstance(card, str):
            raise ValueError("'card' must be a card code")
        return CardPlayed(_seat(obj, "seat", rules), rules.pack.parse(card))
    if kind == "trick":
        cards = _card_list(obj.get("cards"), "cards", rules)
        if len(cards) != n:
            raise ValueError(f"a trick has {n} cards, not {len(cards)}")
        return TrickTaken(_seat(obj, "winner", rules), tuple(cards))
    if kind == "discard":
        cards = _card_list(obj.get("cards"), "cards", rules)
        if len(set(cards)) != len(cards):
            raise ValueError("the same card is discarded twice")
        k = rules.discard_cards
        if len(cards) != k:
            raise ValueError(f"the discard is {len(cards)} cards, not {k} ({rules.rule_discard})")
        mask = cards_mask(cards)
        actual = (mask & rules.pack.trump_mask).bit_count()
        if rules.announces_discard_trumps:
            trumps = obj.get("trumps")
            if type(trumps) is not int:
                raise ValueError("'trumps' must be the number of trumps discarded")
        else:
            trumps = actual
        return Discarded(_seat(obj, "seat", rules), mask, trumps)
    if kind == "deal":
        hands = obj.get("hands")
        if not isinstance(hands, list) or len(hands) != n:
            raise ValueError(f"'hands' must be {n} lists of card codes")
        masks = tuple(
            _hand(h, f"hands[{i}]", rules, f"the hand of seat {i}") for i, h in enumerate(hands)
        )
        stock = 0
        if rules.stock_cards:
            if "stock" not in obj:
                raise ValueError(f"'stock' must list the {rules.stock_cards} cards of the stock")
            stock = _hand(obj.get("stock"), "stock", rules, "the stock")
        cut = obj.get("cut", 0)
        return Dealt(_seat(obj, "dealer", rules), masks, cut if type(cut) is int else 0, stock)
    if kind == "score":
        pts = obj.get("points")
        k = rules.n_sides
        if not (isinstance(pts, list) and len(pts) == k and all(type(p) is int for p in pts)):
            if rules.n_sides == rules.n_seats:
                want = ", ".join(f"seat {s}" for s in range(k))
            else:
                want = ", ".join(f"team {s}" for s in range(k))
            raise ValueError(f"'points' must be [{want}]")
        return DealScored(tuple(pts))
    raise ValueError(f"unknown event type {kind!r}")


def _describe(obj: Any) -> str:
    if isinstance(obj, dict) and isinstance(obj.get("type"), str):
        return f"{obj['type']} event"
    return "event"


# --- the header ------------------------------------------------------------------


@dataclass
class Header:
    seed: int
    players: list[str]
    deals: int | None  # a length the ruleset allows, when known
    extra: dict[str, Any]
    variant: str

    @property
    def rules(self) -> Ruleset:
        return ruleset(self.variant)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "version": VERSION, "variant": self.variant}
        out["seed"] = self.seed
        out["players"] = list(self.players)
        if self.deals is not None:
            out["deals"] = self.deals
        out.update(self.extra)
        return out


def header_from_json(obj: Any) -> Header:
    if not isinstance(obj, dict):
        raise ReplayError(1, "the header must be a JSON object")
    if obj.get("format") != FORMAT:
        raise ReplayError(
            1, f"not a Tarocchi replay: format is {obj.get('format')!r}, not {FORMAT!r}"
        )
    version = obj.get("version")
    if type(version) is not int:
        raise ReplayError(1, "the header has no version number")
    if version > VERSION:
        raise ReplayError(
            1, f"replay format version {version} is newer than this program reads ({VERSION})"
        )
    if version < 1:
        raise ReplayError(1, f"unknown replay format version {version}")
    variant = obj.get("variant")
    if not isinstance(variant, str) or variant not in variant_names():
        plays = ", ".join(repr(v) for v in variant_names())
        raise ReplayError(1, f"unknown variant {variant!r}: this program plays {plays}")
    rules = ruleset(variant)
    seed = obj.get("seed", 0)
    players = obj.get("players", ["?"] * rules.n_seats)
    deals = obj.get("deals")
    if deals is not None and (type(deals) is not int or deals not in rules.game_lengths):
        lengths = " or ".join(map(str, rules.game_lengths))
        raise ReplayError(1, f"'deals' must be {lengths}, not {deals!r} ({rules.rule_game})")
    known = {"format", "version", "variant", "seed", "players", "deals"}
    extra = {k: v for k, v in obj.items() if k not in known}
    if "players" in obj and not (isinstance(players, list) and len(players) == rules.n_seats):
        raise ReplayError(
            1, f"'players' must list the {rules.n_seats} players of {rules.title} by seat "
            f"({rules.rule_seats})"
        )
    # Names are shown at the table and in the browser: short ones only.
    for i, p in enumerate(players):
        if len(p if isinstance(p, str) else str(p)) > MAX_NAME_CHARS:
            raise ReplayError(
                1, f"the name of player {i} is over {MAX_NAME_CHARS} characters long"
            )
    return Header(
        seed if type(seed) is int else 0, [str(p) for p in players], deals, extra, variant
    )


# --- reading and validating --------------------------------------------------------


@dataclass
class Replay:
    header: Header
    events: list[Event]
    states: list[State]  # states[i] is the position after the first i events
    notice: str = ""  # e.g. a torn last line that was dropped

    @property
    def final(self) -> State:
        return self.states[-1]

    @property
    def rules(self) -> Ruleset:
        return self.states[0].rules


_KIND: dict[type, str] = {
    Dealt: "deal",
    Discarded: "discard",
    CardPlayed: "play",
    TrickTaken: "trick",
    DealScored: "score",
}


def _check_event(state: State, e: Event, pending: list[Event]) -> list[Event]:
    """Validate one replayed event against ``state``; returns the derived events
    still due (trick and score lines).  Raises IllegalMove naming the rule."""
    rules = state.rules
    if pending:
        want = pending[0]
        if type(e) is not type(want):
            kind = "trick" if isinstance(want, TrickTaken) else "score"
            got = _KIND[type(e)]
            rule = rules.rule_winner if kind == "trick" else rules.rule_score
            raise IllegalMove(f"{got} event, but a {kind} event is due here", rule)
        if e != want:
            if isinstance(want, TrickTaken):
                assert isinstance(e, TrickTaken)
                if e.cards != want.cards:
                    raise IllegalMove("the trick's cards are not the cards played", rules.rule_winner)
                raise IllegalMove(
                    f"seat {e.winner} is written as winner but seat {want.winner} took the trick",
                    rules.rule_winner,
                )
            assert isinstance(e, DealScored) and isinstance(want, DealScored)
            raise IllegalMove(
                f"points {list(e.points)} are written but the deal scores {list(want.points)}",
                rules.rule_score,
            )
        return pending[1:]
    if isinstance(e, Dealt):
        if state.deal_no >= state.n_deals:
            what = rules.game_text if state.n_deals == rules.full_game else "this file is a single deal"
            raise IllegalMove(f"deal {state.deal_no + 1}, but {what}", rules.rule_game)
        if state.phase != DEAL:
            raise IllegalMove("a new deal before the last one was scored", rules.rule_deal)
        nxt = rules.next[state.dealer] if state.deal_no > 0 else -1
        if state.deal_no > 0 and e.dealer != nxt:
            raise IllegalMove(
                f"seat {e.dealer} deals but the deal passes to seat {nxt}", rules.rule_game
            )
        err = rules.deal_error(e.dealer, e.hands, e.stock)
        if err:
            raise IllegalMove(err, err[-3:-1])
        return []
    if isinstance(e, Discarded):
        out = decide(state, Discard(e.seat, tuple(mask_cards(e.cards))))
        if out[0] != e:
            raise IllegalMove(f"{e.trumps} trump(s) announced but {out[0].trumps} discarded", rules.rule_discard)  # type: ignore[union-attr]
        return []
    if isinstance(e, CardPlayed):
        out = decide(state, Play(e.seat, e.card))
        return out[1:]
    kind = "trick" if isinstance(e, TrickTaken) else "score"
    raise IllegalMove(
        f"a {kind} event but no {kind} is due",
        rules.rule_winner if kind == "trick" else rules.rule_score,
    )


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _split_lines(text: str) -> Iterator[str]:
    """The lines of ``text``, each with its ``\\n`` (the last one may lack it)."""
    start = 0
    while start < len(text):
        end = text.find("\n", start)
        if end < 0:
            yield text[start:]
            return
        yield text[start : end + 1]
        start = end + 1


def parse_replay(text: str | Iterable[str], *, tolerate_torn: bool = False) -> Replay:
    """Read and validate a whole replay; raises :class:`ReplayError` (nothing is
    half-loaded).  ``text`` is the file's text or its lines as they come (each
    with its ``\\n``; a bad line is refused before the next is read).  With
    ``tolerate_torn`` a torn last line (a crash mid-write) is dropped with a
    notice instead."""
    lines = _split_lines(text) if isinstance(text, str) else text
    notice = ""
    objs: list[Any] = []
    for i, line in enumerate(lines, start=1):
        ended = line.endswith("\n")
        if ended:
            line = line[:-1]
        if i == 1 and not line.strip():
            raise ReplayError(1, "the file is empty: no header")
        try:
            objs.append(json.loads(line, parse_constant=_refuse_constant))
        except (ValueError, RecursionError) as exc:
            if tolerate_torn and i > 1 and not ended:  # only the last line can lack its \\n
                notice = f"line {i}: an incomplete last line was dropped (the game was interrupted while saving)"
                break
            if isinstance(exc, json.JSONDecodeError):
                raise ReplayError(i, f"bad JSON: {exc.msg} at column {exc.colno}") from None
            what = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
            raise ReplayError(i, f"bad JSON: {what}") from None
    if not objs:
        raise ReplayError(1, "the file is empty: no header")
    header = header_from_json(objs[0])
    rules = header.rules
    n_deals = header.deals
    if n_deals is None:
        n_deals = rules.default_deals or (
            rules.full_game
            if sum(1 for o in objs[1:] if isinstance(o, dict) and o.get("type") == "deal") > 1
            else 1
        )
    state = new_game(header.seed, n_deals, rules)
    states = [state]
    events: list[Event] = []
    pending: list[Event] = []
    for i, obj in enumerate(objs[1:], start=2):
        try:
            e = event_from_json(obj, rules)
        except (ValueError, CardError) as exc:
            raise ReplayError(i, f"{_describe(obj)}: {exc}") from None
        if not events and not isinstance(e, Dealt):
            raise ReplayError(i, f"{_describe(obj)} before the first deal ({rules.rule_deal})")
        try:
            pending = _check_event(state, e, pending)
        except IllegalMove as exc:
            msg = str(exc)
            if exc.rule and f"({exc.rule})" not in msg:
                msg += f" ({exc.rule})"
            raise ReplayError(i, msg) from None
        state = apply(state, e)
        states.append(state)
        events.append(e)
    return Replay(header, events, states, notice)


def read_replay(path: str | os.PathLike[str], *, tolerate_torn: bool = False) -> Replay:
    """Read a replay file; every failure is a :class:`ReplayError` with a message.
    Only a regular file is read, line by line, within ``engine.files``' caps
    (2 MB, 4 KB a line): a FIFO, a device or a huge file is refused at once."""
    return parse_replay(_file_lines(path, tolerate_torn), tolerate_torn=tolerate_torn)


def _file_lines(path: str | os.PathLike[str], tolerate_torn: bool) -> Iterator[str]:
    n = 0
    try:
        for raw in iter_lines(path):
            n += 1
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError:
                if tolerate_torn and n > 1 and not raw.endswith(b"\n"):
                    yield ""  # a last line cut inside a character: torn, dropped as such
                    return
                raise ReplayError(n, "the file is not UTF-8 text") from None
    except FileRefused as exc:
        raise ReplayError(exc.line, exc.message) from None
    except OSError as exc:
        raise ReplayError(0, f"cannot read {os.fspath(path)}: {exc.strerror}") from None


# --- writing -----------------------------------------------------------------------


def dumps_line(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False) + "\n"


def format_replay(header: Header, events: list[Event]) -> str:
    rules = header.rules
    return dumps_line(header.to_json()) + "".join(dumps_line(event_to_json(e, rules)) for e in events)


def write_replay(path: str | os.PathLike[str], header: Header, events: list[Event]) -> None:
    """Write atomically (temporary file, fsync, rename, fsync the folder): a crash
    never leaves half a file, and the temporary file is removed on failure."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(p, format_replay(header, events))


class AutosaveConflict(ValueError):
    """The file to continue does not hold the game being resumed (it changed since
    it was read): it is left as it is."""


class AutosaveLog:
    """An append-only JSON Lines log: each event is written (one ``write`` a line)
    as it happens, so the file survives a kill of the process at any moment.
    ``truncate(n)`` drops events past the first ``n`` (a new command after an
    undo), so the file is always a valid replay of the live game.

    A new log is made whole first (a temporary file, fsync, rename over ``path``);
    :meth:`resume` continues an existing file after checking that it holds the
    game, never rewriting it."""

    def __init__(
        self, path: str | os.PathLike[str], header: Header, events: Sequence[Event] = ()
    ) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.rules = header.rules
        lines = [dumps_line(header.to_json()).encode("utf-8")]
        lines += [dumps_line(event_to_json(e, self.rules)).encode("utf-8") for e in events]
        atomic_write(self.path, b"".join(lines))
        offsets = []
        end = 0
        for b in lines:
            end += len(b)
            offsets.append(end)
        self._open(offsets)

    def _open(self, offsets: list[int]) -> None:
        # unbuffered: every line goes to the file (os.pwrite) when it is appended;
        # a FileIO so that a log never closed is still closed when collected
        self._file: IO[bytes] | None = open(self.path, "r+b", buffering=0)
        self._offsets = offsets

    @property
    def _fd(self) -> int | None:
        return self._file.fileno() if self._file is not None else None

    @classmethod
    def resume(
        cls, path: str | os.PathLike[str], header: Header, events: Sequence[Event]
    ) -> AutosaveLog:
        """Continue the log at ``path``, which must hold ``header`` (seed and players)
        and exactly ``events``; a torn last line after them is cut off, nothing
        else is changed.  With no file at ``path``, a new log is made.  Raises
        :class:`AutosaveConflict` (the file untouched) if the file holds anything else."""
        p = Path(path)
        if not p.exists():
            return cls(p, header, events)
        offsets: list[int] = []
        end = 0
        ended = True
        try:
            for k, raw in enumerate(iter_lines(p)):
                if not ended:  # unreachable: only the last line lacks its \n
                    raise AutosaveConflict("a line without its end inside the file")
                if k > len(events):
                    if raw.endswith(b"\n"):
                        raise AutosaveConflict(f"line {k + 1} is past the events resumed")
                    break  # the torn tail: cut off below
                ended = raw.endswith(b"\n")
                try:
                    obj = json.loads(raw)
                    if k == 0:
                        h = header_from_json(obj)
                        same = (
                            h.seed == header.seed
                            and h.players == list(header.players)
                            and h.variant == header.variant
                        )
                    else:
                        same = event_from_json(obj, header.rules) == events[k - 1]
                except (ValueError, CardError):
                    same = False
                if not same:
                    what = "the header" if k == 0 else f"line {k + 1}"
                    raise AutosaveConflict(f"{what} is not the game being resumed")
                end += len(raw)
                offsets.append(end)
        except FileRefused as exc:
            raise AutosaveConflict(str(exc)) from None
        if len(offsets) != len(events) + 1:
            raise AutosaveConflict(f"the file has {len(offsets) - 1} events, not {len(events)}")
        log = cls.__new__(cls)
        log.path = p
        log.rules = header.rules
        log._open(offsets)
        assert log._fd is not None
        os.ftruncate(log._fd, end)  # the torn tail (a line never reported written), if any
        if not ended:  # a last line whole but without its \n: end it before appending
            log._pwrite(b"\n", end)
            log._offsets[-1] = end + 1
        return log

    def _pwrite(self, data: bytes, at: int) -> None:
        assert self._fd is not None
        view = memoryview(data)
        while view:
            k = os.pwrite(self._fd, view, at)
            view = view[k:]
            at += k

    def _write(self, line: str) -> None:
        data = line.encode("utf-8")
        at = self._offsets[-1]
        self._pwrite(data, at)
        self._offsets.append(at + len(data))

    def append(self, e: Event) -> None:
        self._write(dumps_line(event_to_json(e, self.rules)))

    def truncate(self, n_events: int) -> None:
        if n_events + 1 < len(self._offsets):
            assert self._fd is not None
            os.ftruncate(self._fd, self._offsets[n_events])
            self._offsets = self._offsets[: n_events + 1]

    @property
    def n_events(self) -> int:
        """How many events the file holds (whole lines after the header)."""
        return len(self._offsets) - 1

    def rollback(self, n_events: int) -> None:
        """After a failed write: cut the file back to its first ``n_events`` events,
        dropping whole lines written since and any part of a line (a full disk
        stops a write half-way), so the file ends at its last whole line."""
        if self._fd is None:
            return
        n_events = min(n_events, self.n_events)
        self._offsets = self._offsets[: n_events + 1]
        os.ftruncate(self._fd, self._offsets[-1])

    def sync(self) -> None:
        """Make what was written durable (fsync): before the file is renamed."""
        if self._fd is not None:
            os.fsync(self._fd)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
