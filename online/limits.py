"""Limits per client address: one address cannot spoil the server for the others.

A server left running on the internet meets strangers; each limit here bounds
what one address can take, so everyone else plays on (docs/SERVER.md,
PROTOCOL.md "Limits per address"):

- **connections** open at once (websocket and plain HTTP alike);
- **lobbies**: tables it created that have not started;
- **hello**: a connection that has not said ``hello`` after a few seconds is
  closed (the server does it; the setting is here);
- **messages** a second across all its connections (a token bucket per
  address, beside each connection's own);
- **wrong table codes**: a short burst is forgiven, then each wrong code starts
  a pause that doubles (no new burst until every wrong code is forgiven, one a
  minute); during it every lookup by code is answered
  ``rate_limited`` with ``retry_after``, unless the message holds a valid token
  of that table (a player coming back is never kept out by a scanner sharing
  their address).

An address is the client's IP; IPv6 addresses count by their /64 (one home or
one machine gets a whole /64).  Behind a reverse proxy every connection comes
from the proxy: the client's address is then read from ``Forwarded`` or
``X-Forwarded-For``, but only when the connection comes from a proxy the
operator named trusted (``--trusted-proxy``); anyone else could write any
address there.

No I/O here, a clock passed in: the server calls it, the tests drive it.
:attr:`Limits.hits` counts each limit hit (the server's metrics read it).
"""

from __future__ import annotations

import ipaddress
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

#: an abandoned lobby (nobody at it, its host gone) expires after this many seconds
#: (``tarocchi serve --lobby-expiry``)
LOBBY_EXPIRY = 1800.0

#: the names of the limits (the keys of :attr:`Limits.hits`; ``rate``, a connection's
#: own bucket, is counted by the server)
LIMITS = ("connections", "lobbies", "hello", "messages", "codes")

IpNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True)
class LimitSettings:
    """Each limit's setting (``tarocchi serve`` options; defaults for a club's server:
    a family of four behind one home router fits with room to spare, see
    docs/SERVER.md)."""

    #: connections one address may hold open (websocket and plain HTTP)
    connections: int = 32
    #: tables one address created that have not started yet
    lobbies: int = 8
    #: seconds a connection has to say hello
    hello_seconds: float = 10.0
    #: messages a second across one address's connections, and the burst
    rate: float = 60.0
    burst: float = 120.0
    #: wrong table codes forgiven at once, and seconds until one more is forgiven
    wrong_codes: int = 10
    forgive_seconds: float = 60.0
    #: the first pause after the burst, doubled by each wrong code after a pause, up to the max
    pause_seconds: float = 1.0
    pause_max_seconds: float = 300.0
    #: proxies whose forwarded-for headers are believed (addresses or networks)
    trusted_proxies: tuple[str, ...] = field(default=())


class Bucket:
    """A token bucket: ``take()`` is False when tokens run out (``rate`` a second
    come back, up to ``burst``)."""

    __slots__ = ("rate", "burst", "level", "t", "clock")

    def __init__(self, rate: float, burst: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst = rate, burst
        self.level = burst
        self.clock = clock
        self.t = clock()

    def _refill(self) -> None:
        now = self.clock()
        self.level = min(self.burst, self.level + (now - self.t) * self.rate)
        self.t = now

    def take(self) -> bool:
        self._refill()
        if self.level < 1:
            return False
        self.level -= 1
        return True

    def wait(self) -> float:
        """Seconds until one token is back (0: there is one)."""
        self._refill()
        return 0.0 if self.level >= 1 else (1 - self.level) / self.rate

    def full(self) -> bool:
        self._refill()
        return self.level >= self.burst


class HeaderSource(Protocol):
    """What :func:`client_address` reads of a request's headers (websockets'
    ``Headers``)."""

    def get_all(self, key: str) -> list[str]: ...


def address_key(ip: str) -> str:
    """The key an address counts under: an IPv4 address as it is, an IPv6 one by
    its /64 (an IPv4-mapped one as the IPv4 address); anything else as given."""
    try:
        a = ipaddress.ip_address(ip.split("%", 1)[0])
    except ValueError:
        return ip[:64]
    if isinstance(a, ipaddress.IPv6Address):
        if a.ipv4_mapped is not None:
            return str(a.ipv4_mapped)
        return str(ipaddress.ip_network(f"{a}/64", strict=False))
    return str(a)


def parse_networks(texts: Iterable[str]) -> list[IpNetwork]:
    """``--trusted-proxy`` values: addresses or networks (``10.0.0.0/8``);
    ValueError names a bad one."""
    out: list[IpNetwork] = []
    for t in texts:
        try:
            out.append(ipaddress.ip_network(t.strip(), strict=False))
        except ValueError:
            raise ValueError(f"{t[:60]!r} is not an IP address or network") from None
    return out


def _hop(text: str) -> str | None:
    """One hop of a forwarded chain as an IP (port, brackets and quotes taken
    off); None when it is not an address (``unknown``, an obfuscated name)."""
    t = text.strip().strip('"')
    if t.startswith("["):  # [2001:db8::1]:4711
        t = t[1:].split("]", 1)[0]
    elif t.count(":") == 1:  # 192.0.2.1:4711
        t = t.split(":", 1)[0]
    try:
        return str(ipaddress.ip_address(t))
    except ValueError:
        return None


def forwarded_chain(headers: HeaderSource) -> list[str | None]:
    """The addresses a request passed through, client first: ``Forwarded``'s
    ``for=`` (RFC 7239) if present, else ``X-Forwarded-For``."""
    chain: list[str | None] = []
    for value in headers.get_all("Forwarded"):
        for element in value.split(","):
            for pair in element.split(";"):
                k, _, v = pair.partition("=")
                if k.strip().lower() == "for":
                    chain.append(_hop(v))
    if chain:
        return chain
    for value in headers.get_all("X-Forwarded-For"):
        chain += [_hop(x) for x in value.split(",") if x.strip()]
    return chain


def client_address(peer: str, headers: HeaderSource, trusted: list[IpNetwork]) -> str:
    """The client's address key: the TCP peer's, unless the peer is a trusted
    proxy; then the last hop of the forwarded chain that is not a trusted proxy
    (the proxies append; the hops left of the first untrusted one could be made up)."""
    if not trusted or not _within(peer, trusted):
        return address_key(peer)
    for hop in reversed(forwarded_chain(headers)):
        if hop is None:
            break  # a hop the proxy could not name: the proxy's own address
        if not _within(hop, trusted):
            return address_key(hop)
    return address_key(peer)


def _within(ip: str, nets: list[IpNetwork]) -> bool:
    try:
        a = ipaddress.ip_address(ip.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(a, ipaddress.IPv6Address) and a.ipv4_mapped is not None:
        a = a.ipv4_mapped
    return any(a.version == n.version and a in n for n in nets)


class _Address:
    """What one address holds and has spent."""

    __slots__ = ("conns", "bucket", "codes", "strikes", "until", "lobbies")

    def __init__(self, s: LimitSettings, clock: Callable[[], float]) -> None:
        self.conns = 0
        self.bucket = Bucket(s.rate, s.burst, clock)
        self.codes = Bucket(1.0 / s.forgive_seconds, float(s.wrong_codes), clock)
        self.strikes = 0
        self.until = 0.0
        self.lobbies: set[str] = set()


class Limits:
    """Every address's counts.  ``is_lobby(code)`` says whether a table is still a
    lobby (not started, not expired): a lobby stops counting against its
    creator once it starts or expires."""

    def __init__(self, settings: LimitSettings | None = None, *,
                 clock: Callable[[], float] = time.monotonic,
                 is_lobby: Callable[[str], bool] = lambda code: False,
                 on_hit: Callable[[str, str], None] | None = None) -> None:
        self.settings = s = settings or LimitSettings()
        if s.wrong_codes < 1 or s.forgive_seconds <= 0 or s.rate <= 0 or s.burst < 1:
            raise ValueError("a limit's burst is at least 1 and its rate above 0")
        self.clock = clock
        self.is_lobby = is_lobby
        self.trusted = parse_networks(s.trusted_proxies)
        self._by: dict[str, _Address] = {}
        #: limit name -> times it was hit (see :data:`LIMITS`)
        self.hits: Counter[str] = Counter()
        #: told each hit (limit, address): the server's metrics count and log it
        self.on_hit = on_hit

    def _get(self, addr: str) -> _Address:
        a = self._by.get(addr)
        if a is None:
            a = self._by[addr] = _Address(self.settings, self.clock)
        return a

    def hit(self, name: str, addr: str) -> None:
        """Count a limit hit, and tell :attr:`on_hit`."""
        self.hits[name] += 1
        if self.on_hit is not None:
            self.on_hit(name, addr)

    def address(self, peer: str, headers: HeaderSource) -> str:
        return client_address(peer, headers, self.trusted)

    # --- connections ---------------------------------------------------------------

    def connect(self, addr: str) -> bool:
        """A connection opens: False (nothing counted) if the address holds its share."""
        a = self._get(addr)
        if a.conns >= self.settings.connections:
            self.hit("connections", addr)
            return False
        a.conns += 1
        return True

    def disconnect(self, addr: str) -> None:
        a = self._by.get(addr)
        if a is not None and a.conns > 0:
            a.conns -= 1

    def connections(self, addr: str) -> int:
        a = self._by.get(addr)
        return a.conns if a else 0

    # --- messages ------------------------------------------------------------------

    def message(self, addr: str) -> float:
        """A message arrives: 0 if the address may send it, else the seconds until
        it may send again."""
        a = self._get(addr)
        if a.bucket.take():
            return 0.0
        self.hit("messages", addr)
        return max(a.bucket.wait(), 0.001)

    # --- table codes ---------------------------------------------------------------

    def code_pause(self, addr: str) -> float:
        """Seconds left of the address's pause after wrong codes (0: none)."""
        a = self._by.get(addr)
        if a is None:
            return 0.0
        return max(0.0, a.until - self.clock())

    def wrong_code(self, addr: str) -> None:
        """A code that names no table: past the burst, a pause that doubles."""
        a = self._get(addr)
        if a.codes.full():
            a.strikes = 0  # every wrong code forgiven: the pauses start again from the first
        if a.strikes == 0 and a.codes.take():
            return  # within the burst (once past it, only a full pardon gives a new one)
        s = self.settings
        a.strikes += 1
        pause = min(s.pause_max_seconds, s.pause_seconds * 2.0 ** min(a.strikes - 1, 60))
        a.until = self.clock() + pause
        self.hit("codes", addr)

    # --- lobbies -------------------------------------------------------------------

    def lobbies(self, addr: str) -> int:
        """Tables this address created that are still lobbies."""
        a = self._by.get(addr)
        if a is None:
            return 0
        a.lobbies = {c for c in a.lobbies if self.is_lobby(c)}
        return len(a.lobbies)

    def may_create(self, addr: str) -> bool:
        if self.lobbies(addr) < self.settings.lobbies:
            return True
        self.hit("lobbies", addr)
        return False

    def created(self, addr: str, code: str) -> None:
        self._get(addr).lobbies.add(code)

    # --- memory --------------------------------------------------------------------

    def sweep(self) -> int:
        """Forget the addresses that hold nothing and owe nothing (their state is
        what a new address starts with); returns how many are kept."""
        now = self.clock()
        for addr in list(self._by):
            a = self._by[addr]
            if (a.conns == 0 and not self.lobbies(addr) and a.until <= now and a.codes.full()
                    and a.bucket.full()):
                del self._by[addr]
        return len(self._by)

    def __len__(self) -> int:
        return len(self._by)


__all__ = ["LIMITS", "LOBBY_EXPIRY", "Bucket", "LimitSettings", "Limits", "address_key", "client_address",
           "forwarded_chain", "parse_networks"]
