"""Plain HTTP on the server's port, beside the websocket (online/http.py)."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.sync.client import connect

from online.http import CSP, Routes, response
from online.protocol import PROTOCOL_VERSION
from online.server import ServerHandle, start_background


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerHandle]:
    handle = start_background(tmp_path / "srv", port=0)
    try:
        yield handle
    finally:
        handle.stop()


def _get(port: int, path: str) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def test_an_unknown_path_is_404_with_the_security_headers(server: ServerHandle) -> None:
    status, headers, body = _get(server.port, "/no/such/thing")
    assert status == 404
    assert body == b"not found\n"
    assert headers["content-security-policy"] == CSP
    assert "unsafe-inline" not in CSP and "unsafe-eval" not in CSP
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["content-length"] == str(len(body))


def test_a_route_answers_and_the_websocket_still_plays(server: ServerHandle) -> None:
    seen: list[str] = []

    def hello_route(request: object) -> object:
        seen.append(getattr(request, "path", ""))
        return response(200, "hi\n", headers={"Cache-Control": "max-age=60"})

    server.server.http.add("/hi", hello_route)
    status, headers, body = _get(server.port, "/hi?x=1")
    assert (status, body) == (200, b"hi\n")
    assert headers["cache-control"] == "max-age=60"
    assert headers["content-security-policy"] == CSP
    assert seen == ["/hi?x=1"]
    # the same port still speaks the game's websocket
    with connect(f"ws://127.0.0.1:{server.port}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION, "name": "Anna"}))
        welcome = json.loads(ws.recv(timeout=10))
    assert welcome["type"] == "welcome"


def test_a_failing_route_is_500_and_the_server_goes_on(server: ServerHandle) -> None:
    def broken(request: object) -> object:
        raise RuntimeError("boom")

    server.server.http.add("/broken", broken)
    assert _get(server.port, "/broken")[0] == 500
    assert _get(server.port, "/other")[0] == 404


def test_prefixes_match_longest_first() -> None:
    routes = Routes()
    routes.add_prefix("/s/", lambda r: response(200, "short"))
    routes.add_prefix("/s/deep/", lambda r: response(200, "deep"))
    routes.add("/s/exact", lambda r: response(200, "exact"))
    for path, body in (("/s/x", b"short"), ("/s/deep/x", b"deep"), ("/s/exact?q", b"exact")):
        handler = routes.find(path)
        assert handler is not None
        assert handler(None).body == body  # type: ignore[arg-type, union-attr]
    assert routes.find("/t") is None
    with pytest.raises(ValueError):
        routes.add("healthz", lambda r: response(200))
