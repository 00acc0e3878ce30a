"""Play online, without arcade: host a table or join one by its code, and the
lobby in which the seats fill (the view, :mod:`game.screens.online`, only draws).

Hosting uses the server address in Settings, or, with none, the game's own
server (:mod:`game.screens.home_server`: on this computer only, or on the home
network too when the host chooses it; friends elsewhere need a server they can
reach, ``tarocchi serve --host 0.0.0.0`` on a machine of yours, whose address
goes in Settings).  The host creates the table (the game, its length, who sits where: a friend or an AI
level) and takes South; the code is shared by word of mouth; a friend joins by
it and takes the first free friend's seat.  In the lobby the host may give an
empty seat to the AI and starts the game once every friend's seat is taken;
then every table gets a :class:`game.table.remote_session.RemoteSession`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.ruleset import Ruleset, ruleset
from game.common import paths
from game.common.settings import clean_name
from game.screens.home_server import DEFAULT_PORT, OwnServer, ServerError, own_server

if TYPE_CHECKING:  # loaded when a table is hosted or joined
    import ssl

    from game.table.remote_session import RemoteSession
    from online.client import ThreadedClient

FRIEND = "human"
#: tries to reach the server again after the connection drops (the wait between
#: two doubles up to 2 s: about a minute) before the table says it is gone
RECONNECT_ATTEMPTS = 30
#: a friend whose connection is gone for two minutes is played by the AI (medium)
#: until they come back; no turn clock (friends wait for each other)
TABLE_SETTINGS = {"ai_takeover_seconds": 120, "turn_seconds": 0, "fallback_level": "medium"}


class OnlineError(Exception):
    """Hosting or joining failed; ``str()`` is one line saying why."""


def player_name(name: str) -> str:
    """The name sent to the table: the one in Settings, else "Player"."""
    return clean_name(name) or "Player"


def server_url(address: str, lan: bool | None = None) -> tuple[str, OwnServer | None]:
    """The server's websocket URL: the address named in Settings; with none, the
    game's own server (listening on the home network too if ``lan``; ``None``:
    wherever it already listens), returned too."""
    address = address.strip()
    if address:
        return (address if "://" in address else "ws://" + address), None
    try:
        own = own_server(lan)
    except (ServerError, OSError, paths.DataFolderError) as exc:
        raise OnlineError(str(exc)) from None
    return own.url, own


def table_link(url: str, code: str) -> str:
    """The table's page for a browser, on the same server: ``ws://host:port`` gives
    ``http://host:port/t/CODE`` (``wss://``: ``https://``)."""
    scheme, _sep, rest = url.partition("://")
    host = rest.split("/", 1)[0]
    return f"{'https' if scheme == 'wss' else 'http'}://{host}/t/{code}"


@dataclass
class Lobby:
    """A table being filled (or under way), as this client sees it."""

    client: ThreadedClient
    joined: dict[str, Any]
    url: str
    is_host: bool
    code: str
    seat: int
    variant: str
    #: the game's own server, when the table is on it (None: a server named in Settings)
    own: OwnServer | None = None
    info: dict[str, Any] = field(default_factory=dict)  # the server's last ``lobby``
    backlog: list[dict[str, Any]] = field(default_factory=list)
    started: bool = False
    error: str = ""
    #: the connection was given up (``error`` says why): the server is gone
    gone: bool = False

    @property
    def rules(self) -> Ruleset:
        return ruleset(self.variant)

    @property
    def share_url(self) -> str:
        """The server's address for friends: on the home network, this computer's
        address there; else the one this window uses."""
        if self.own is not None and self.own.lan:
            return f"ws://{self.own.friends_address()}"
        return self.url

    @property
    def link(self) -> str:
        """The link friends open in a browser to sit at this table."""
        return table_link(self.share_url, self.code)

    def seats(self) -> list[dict[str, Any]]:
        return list(self.info.get("seats", []))

    def poll(self) -> bool:
        """Take in the server's messages; True once the game has started."""
        for m in self.client.poll():
            kind = m.get("type")
            if kind == "lobby":
                self.info = m
                self.started = self.started or bool(m.get("started"))
            elif kind == "connection" and m.get("state") in ("lost", "closed"):
                self.error = str(m.get("reason") or "lost")
                self.gone = m.get("state") == "closed"
            elif kind == "connection":
                self.error = ""
            self.backlog.append(m)  # the table's session reads them again, in order
            if kind == "event":
                self.started = True
        return self.started

    @property
    def can_start(self) -> bool:
        """Every friend's seat is taken (the host may give the others to the AI)."""
        seats = self.seats()
        return (self.is_host and not self.started and bool(seats)
                and all(s["kind"] != FRIEND or s.get("taken") for s in seats))

    def start(self) -> None:
        try:
            self.info = self.client.start()
        except Exception as exc:  # noqa: BLE001 - the server's word, in one line
            raise OnlineError(str(exc)) from None

    def cycle_seat(self, seat: int, levels: list[str]) -> None:
        """The host turns an empty seat: a friend, then each AI level."""
        seats = self.seats()
        if not self.is_host or self.started or not 0 <= seat < len(seats) or seats[seat].get("taken"):
            return
        cur = seats[seat]["kind"] if seats[seat]["kind"] == FRIEND else seats[seat].get("level")
        order = [FRIEND, *levels]
        nxt = order[(order.index(cur) + 1) % len(order)] if cur in order else order[0]
        try:
            self.info = self.client.set_seat(seat, nxt)
        except Exception as exc:  # noqa: BLE001
            raise OnlineError(str(exc)) from None

    def session(self) -> RemoteSession:
        """The table's session once the game has started."""
        from game.table.remote_session import RemoteSession

        seats = self.seats()
        players = tuple(FRIEND if s["kind"] == FRIEND else str(s.get("level")) for s in seats)
        names = tuple(str(s.get("name") or "") if s["kind"] == FRIEND else "" for s in seats)
        sess = RemoteSession(self.client, self.joined, players=players, names=names,
                             backlog=self.backlog)
        self.backlog = []
        return sess

    def leave(self) -> None:
        self.client.close()


def certificates_dir() -> Path:
    """Where a player puts the certificate files of servers they trust beyond the
    system's authorities (a club's self-signed one): ``certificates/`` in the data folder."""
    return paths.home() / "certificates"


def _tls_context(url: str) -> ssl.SSLContext | None:
    """For a wss:// address: the system's trust store and the player's certificate files."""
    if not url.startswith("wss://"):
        return None
    from online.tls import client_context, trusted_files

    return client_context(trusted_files(certificates_dir()))


def _connect(address: str, name: str, lan: bool | None = None) -> tuple[ThreadedClient, str, OwnServer | None]:
    from online.client import ThreadedClient

    url, own = server_url(address, lan)
    try:
        client = ThreadedClient(tls=_tls_context(url), max_attempts=RECONNECT_ATTEMPTS)
    except OSError as exc:  # a certificate file of certificates/ that is not one
        raise OnlineError(str(exc)) from None
    try:
        client.connect(url, player_name(name), timeout=5.0)
    except Exception as exc:  # noqa: BLE001 - unreachable, refused, not a Tarocchi server
        client.close()
        text = f"cannot reach the server at {url}: {exc}"
        if getattr(exc, "code", "") == "tls_untrusted":
            from game.common.i18n import _

            text += "\n" + _("The server's certificate is not signed by an authority this "
                             "computer trusts. If it is your club's own certificate, copy its "
                             "file (.pem or .crt) into {folder} and try again.").format(
                folder=certificates_dir())
        raise OnlineError(text) from None
    return client, url, own


def host(address: str, variant: str, deals: int, others: list[str], *, name: str = "",
         lan: bool = False) -> Lobby:
    """Create a table (South is the host; ``others``: the other seats, ``human``
    for a friend or an AI level) and sit at it as ``name``; with no server
    named, on the game's own, listening on the home network too if ``lan``."""
    client, url, own = _connect(address, name, lan)
    try:
        code, _token = client.create(variant, deals, [FRIEND, *others], dict(TABLE_SETTINGS))
        reply = client.join(code, 0)
    except Exception as exc:  # noqa: BLE001
        client.close()
        raise OnlineError(str(exc)) from None
    return Lobby(client, reply, url, True, code, 0, variant, own)


def join(address: str, code: str, *, name: str = "") -> Lobby:
    """Join the table of ``code`` at its first free friend's seat, as ``name``."""
    code = code.strip().upper()
    client, url, own = _connect(address, name)
    last = "no free seat"
    for seat in range(4):
        try:
            reply = client.join(code, seat)
        except Exception as exc:  # noqa: BLE001 - taken, an AI's, or no such seat or table
            last = str(exc)
            if getattr(exc, "code", "") == "seat_taken":
                continue
            break
        variant = reply["seat_view"].rules.name
        return Lobby(client, reply, url, False, code, seat, variant, own)
    client.close()
    raise OnlineError(f"cannot join table {code}: {last}")


__all__ = ["Lobby", "OnlineError", "clean_name", "host", "join", "player_name", "server_url",
           "table_link", "DEFAULT_PORT"]
