"""The game's own Tarocchi server, without arcade: the one "Host a table" uses
when no server is named in **Play online > Server**.

It runs in the background of this program (``online.server.start_background``),
its store in the data folder's ``server/``, and listens either on this computer
only (127.0.0.1) or on the home network too (every address of the computer:
friends in the house join with this computer's address, :func:`lan_address`).
It takes port 8765, or when another program has that port the first free one
after it (or any free one): the lobby says which.  A table is never hosted on
whatever else answers at a port: only on a server this game started.

One Tarocchi process a data folder runs it.  That process holds an exclusive
lock on ``server/server.lock`` for its lifetime (the kernel drops it when the
process ends, however it ends) and writes the server's address in
``server/server.json``; a second window on the same data folder cannot take the
lock, so it reads the address there: that server is the game's own too (a live
Tarocchi holds the lock), and both windows sit at the same tables.  Two servers
never share one store.
"""

from __future__ import annotations

import errno
import json
import os
import socket
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.files import atomic_write
from game.common import paths

#: the port the game's own server takes when it is free
DEFAULT_PORT = 8765
#: the ports tried after it (8766, 8767, ...) before any free one
PORT_TRIES = 10
#: the environment variable that sets another port to try first (0: any free one;
#: the test suite sets it, so that no test ever takes 8765)
PORT_VARIABLE = "TAROCCHI_SERVER_PORT"
LOCK_NAME = "server.lock"
INFO_NAME = "server.json"
#: how long a second window waits for the first one to write its server's address
WAIT_FOR_OTHER = 10.0


class ServerError(Exception):
    """The game's own server cannot be started or found; ``str()`` says why."""


@dataclass(frozen=True)
class OwnServer:
    """The game's own server: how this computer reaches it (``url``), its
    ``port``, the port it wanted (``wanted``: another program had it when they
    differ), and whether it listens on the home network (``lan``)."""

    url: str
    port: int
    wanted: int
    lan: bool
    handle: Any = None  # the running server, when this process runs it

    @property
    def mine(self) -> bool:
        """Whether this process runs it (else another window on the data folder does)."""
        return self.handle is not None

    def friends_address(self) -> str:
        """``host:port`` friends in the house put in Play online > Server ("" when
        the server listens on this computer only)."""
        return f"{lan_address()}:{self.port}" if self.lan else ""


_mutex = threading.Lock()
_lock_fd: int | None = None  # this process's hold of server.lock
_running: OwnServer | None = None


def wanted_port() -> int:
    """The port to try first: :data:`DEFAULT_PORT`, or the one in the
    ``TAROCCHI_SERVER_PORT`` environment variable (0: any free port)."""
    text = os.environ.get(PORT_VARIABLE, "").strip()
    if text.isdigit() and int(text) <= 65535:
        return int(text)
    return DEFAULT_PORT


def lan_address() -> str:
    """This computer's address on its network (the one its default route leaves
    by; nothing is sent), or 127.0.0.1 when it has none."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: only the route is looked up
            return str(s.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def port_free(host: str, port: int) -> bool:
    """Whether a server could listen at ``host:port`` now (as asyncio binds it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        if os.name != "nt":
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def _ports(wanted: int) -> list[int]:
    """The ports to try, in order: the wanted one and the few after it, then any."""
    if wanted == 0:
        return [0]
    return [p for p in range(wanted, min(65536, wanted + PORT_TRIES))] + [0]


def _folder() -> Path:
    folder = paths.home() / "server"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def own_server(lan: bool | None) -> OwnServer:
    """The game's own server, listening on the home network too if ``lan``
    (``None``: wherever it listens already, else on this computer only): started
    by this process on first use (or started again to listen where asked), or
    the one another window on this data folder runs."""
    global _running
    with _mutex:
        if _running is not None and lan in (None, _running.lan):
            return _running
        if _running is not None:  # ours, listening elsewhere than asked: again, on the same port
            _running.handle.stop()
            _running = _start(bool(lan), _running.port, _running.wanted)
            return _running
        if not _hold_lock():
            other = _read_other()
            if lan is not None and other.lan != lan:
                raise ServerError(_other_window_text(other))
            return other
        _running = _start(bool(lan), wanted_port(), wanted_port())
        return _running


def stop() -> None:
    """Stop the server this process runs, if any, and let the data folder's
    lock go (another window may start its own)."""
    global _running, _lock_fd
    with _mutex:
        if _running is not None and _running.handle is not None:
            _running.handle.stop()
        _running = None
        if _lock_fd is not None:
            os.close(_lock_fd)
            _lock_fd = None


def _other_window_text(other: OwnServer) -> str:
    from game.common.i18n import _

    if other.lan:
        return _("The other Tarocchi window runs this computer's server on the home network: "
                 "host from that window, or close it first.")
    return _("The other Tarocchi window runs this computer's server for this computer only: "
             "host from that window, or close it first.")


def _hold_lock() -> bool:
    """Take ``server/server.lock`` for this process (True), or find it held by
    another Tarocchi (False)."""
    global _lock_fd
    if _lock_fd is not None:
        return True
    folder = _folder()
    try:
        fd = os.open(folder / LOCK_NAME, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
    except OSError as exc:
        raise ServerError(f"cannot open {folder / LOCK_NAME}: {exc.strerror or exc}") from None
    if not paths.try_lock(fd):
        os.close(fd)
        return False
    _lock_fd = fd
    return True


def _start(lan: bool, first: int, wanted: int) -> OwnServer:
    """Start the server at the first free port from ``first`` (see :func:`_ports`)
    and write its address for the other windows."""
    from online.server import start_background

    host = "0.0.0.0" if lan else "127.0.0.1"  # noqa: S104 - the home network, as the host chose
    last: OSError | None = None
    for port in _ports(first):
        if port and not port_free(host, port):
            continue
        try:
            handle = start_background(_folder(), host=host, port=port)
        except OSError as exc:  # taken between the look and the start
            if exc.errno != errno.EADDRINUSE:
                raise ServerError(f"the server cannot start: {exc.strerror or exc}") from None
            last = exc
            continue
        got = OwnServer(f"ws://127.0.0.1:{handle.port}", handle.port, wanted, lan, handle)
        info = {"url": got.url, "port": got.port, "wanted": wanted, "lan": lan, "pid": os.getpid()}
        atomic_write(_folder() / INFO_NAME, json.dumps(info) + "\n")
        return got
    raise ServerError(f"no free port for the server ({last})")


def _read_other() -> OwnServer:
    """The server of the other window that holds the lock: its address, once
    written (it may be starting)."""
    path = _folder() / INFO_NAME
    end = time.monotonic() + WAIT_FOR_OTHER
    while True:
        try:
            info = json.loads(path.read_text(encoding="utf-8"))
            pid = int(info["pid"])
            if pid != os.getpid() and _alive(pid):
                return OwnServer(str(info["url"]), int(info["port"]), int(info["wanted"]),
                                 bool(info["lan"]))
        except (OSError, ValueError, KeyError, TypeError):
            pass
        if time.monotonic() > end:
            raise ServerError(f"another Tarocchi window holds this computer's server but has not "
                              f"said where it listens ({path})")
        time.sleep(0.1)


def _alive(pid: int) -> bool:
    if os.name == "nt":  # pragma: no cover - signal 0 would end it there: the lock says enough
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process: alive
    return True


__all__ = ["DEFAULT_PORT", "OwnServer", "ServerError", "lan_address", "own_server", "port_free",
           "stop", "wanted_port"]
