"""Plain HTTP beside the websocket, on the server's one port.

``tarocchi serve`` answers two kinds of request on the same port: a websocket
upgrade (the game, PROTOCOL.md) and a plain ``GET`` (the health check, the
metrics, the browser seat's page and its files).  websockets hands every request
to :meth:`Routes.process_request` before its handshake: an upgrade goes on to the
websocket handler, anything else is answered here and the connection closed.

A route is a path (``/healthz``) or a prefix (``/static/``) and a handler that
takes the :class:`websockets.http11.Request` and returns a
:class:`websockets.http11.Response` (or a coroutine of one); :func:`response`
makes one with the headers every answer carries.  A path that no route claims is
``404``; a method other than ``GET`` never reaches here (websockets refuses it).

Every answer carries a strict Content-Security-Policy (no inline script, no
``eval``, nothing from another origin but the websocket), ``nosniff``, no
referrer and no framing: the same headers on a page, a file, a 404 or the
metrics, so no route can forget them.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable
from http import HTTPStatus

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

log = logging.getLogger("tarocchi.online")

Handler = Callable[[Request], "Response | Awaitable[Response]"]

#: what a page of ours may load: its own files, and the websocket of its own server
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self' ws: wss:; media-src 'self'; "
       "manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")

SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


def response(status: int, body: bytes | str = b"", content_type: str = "text/plain; charset=utf-8",
             headers: dict[str, str] | None = None) -> Response:
    """An answer with our headers: the body's type and length, the security
    headers, ``Connection: close`` and whatever ``headers`` adds (or overrides,
    e.g. ``Cache-Control``)."""
    data = body.encode() if isinstance(body, str) else bytes(body)
    h = Headers()
    h["Content-Type"] = content_type
    h["Content-Length"] = str(len(data))
    h["Cache-Control"] = "no-store"
    for k, v in SECURITY_HEADERS.items():
        h[k] = v
    h["Connection"] = "close"
    for k, v in (headers or {}).items():
        if k in h:
            del h[k]
        h[k] = v
    return Response(status, HTTPStatus(status).phrase, h, data)


def not_found() -> Response:
    return response(404, "not found\n")


def is_upgrade(request: Request) -> bool:
    """True for a websocket handshake (``Upgrade: websocket``)."""
    return any(v.strip().lower() == "websocket"
               for v in request.headers.get_all("Upgrade"))


class Routes:
    """The plain-HTTP routes of one server: exact paths, then prefixes (the longest
    first).  The query string is not part of the path a route sees."""

    def __init__(self) -> None:
        self._exact: dict[str, Handler] = {}
        self._prefix: list[tuple[str, Handler]] = []

    def add(self, path: str, handler: Handler) -> None:
        """Answer ``GET path`` (the exact path, query string aside) with ``handler``."""
        if not path.startswith("/"):
            raise ValueError(f"a route's path starts with '/': {path!r}")
        self._exact[path] = handler

    def add_prefix(self, prefix: str, handler: Handler) -> None:
        """Answer every ``GET`` whose path starts with ``prefix`` with ``handler``."""
        if not prefix.startswith("/"):
            raise ValueError(f"a route's prefix starts with '/': {prefix!r}")
        self._prefix.append((prefix, handler))
        self._prefix.sort(key=lambda ph: -len(ph[0]))

    def find(self, path: str) -> Handler | None:
        path = path.split("?", 1)[0].split("#", 1)[0]
        handler = self._exact.get(path)
        if handler is not None:
            return handler
        for prefix, h in self._prefix:
            if path.startswith(prefix):
                return h
        return None

    async def process_request(self, connection: object, request: Request) -> Response | None:
        """websockets' hook: ``None`` lets a websocket handshake go on; any other
        request is answered here (404 when no route claims its path)."""
        if is_upgrade(request):
            return None
        handler = self.find(request.path)
        if handler is None:
            return not_found()
        try:
            result = handler(request)
            if inspect.isawaitable(result):
                result = await result
        except Exception:  # a fault of ours: logged, answered 500, the server goes on
            log.exception("HTTP %s failed", request.path[:200])
            return response(500, "internal error\n")
        return result


__all__ = ["CSP", "SECURITY_HEADERS", "Routes", "is_upgrade", "not_found", "response"]
