"""``tarocchi serve --tls-cert --tls-key``: the port speaks wss:// (and https://).

Certificates are made here by ``trustme`` (a throw-away authority): whole games
over wss:// by headless seats and by the desktop game's client (the Play online
screen's lobby and its remote session), the certificate checked against the
authority the player chose to trust; an untrusted or misnamed certificate, a
plain ws:// client at the TLS port and a wss:// client at a plain port each get
one clear line, quickly; bad certificate files stop ``tarocchi serve`` with one
line and exit 1.
"""

from __future__ import annotations

import asyncio
import http.client
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import trustme

from engine.ruleset import ruleset
from online.client import ClientError, SeatClient
from online.server import ServerHandle, start_background
from online.sqlite_store import read_events
from online.tls import TlsError, client_context, server_context
from tests.support.online_harness import four_people_game

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def pems(tmp_path: Path) -> dict[str, Path]:
    """An authority, a certificate for 127.0.0.1 and localhost, its key; and a
    certificate of the same authority for another name."""
    ca = trustme.CA()
    out = {k: tmp_path / f"{k}.pem" for k in ("ca", "cert", "key", "other_cert", "other_key")}
    ca.cert_pem.write_to_path(str(out["ca"]))
    cert = ca.issue_cert("127.0.0.1", "localhost")
    cert.cert_chain_pems[0].write_to_path(str(out["cert"]))
    cert.private_key_pem.write_to_path(str(out["key"]))
    other = ca.issue_cert("tarocchi.example")
    other.cert_chain_pems[0].write_to_path(str(out["other_cert"]))
    other.private_key_pem.write_to_path(str(out["other_key"]))
    return out


@pytest.fixture
def tls_server(tmp_path: Path, pems: dict[str, Path]) -> Iterator[ServerHandle]:
    handle = start_background(tmp_path / "srv", port=0, tls_cert=str(pems["cert"]),
                              tls_key=str(pems["key"]))
    try:
        yield handle
    finally:
        handle.stop()


def test_a_whole_game_over_wss_between_four_headless_seats(tls_server: ServerHandle,
                                                           pems: dict[str, Path]) -> None:
    assert tls_server.url.startswith("wss://")
    code, clients = asyncio.run(four_people_game(tls_server.url,
                                                 client_context([pems["ca"]])))
    stored = read_events(tls_server.data_dir / "tarocchi.sqlite3", code)
    assert all(c.over is not None for c in clients)
    assert all(c.last_seq == len(stored) for c in clients) and len(stored) > 40
    # the plain routes are https on the same port
    conn = http.client.HTTPSConnection("127.0.0.1", tls_server.port, timeout=10,
                                       context=client_context([pems["ca"]]))
    conn.request("GET", "/no/such/page")
    assert conn.getresponse().status == 404
    conn.close()


def _play_desktop_seat(sess, seconds: float = 120.0) -> None:  # noqa: ANN001 - a RemoteSession
    """Poll the desktop's remote session, playing the first legal command on turn."""
    end = time.monotonic() + seconds
    asked = -1
    while sess.over is None:
        assert time.monotonic() < end, "the game did not end over wss://"
        sess.poll()
        view = sess.view_at(sess.cursor)
        legal = view.legal()
        if legal and view.turn == 0 and asked != sess.cursor:
            asked = sess.cursor
            sess.submit(legal[0])
        time.sleep(0.005)


def test_the_desktop_game_plays_a_whole_game_over_wss(tls_server: ServerHandle,
                                                      pems: dict[str, Path], home: Path) -> None:
    from game.screens import online_lobby

    address = f"wss://127.0.0.1:{tls_server.port}"
    # not trusted until the player puts the server's authority in certificates/
    with pytest.raises(online_lobby.OnlineError) as refused:
        online_lobby.host(address, "piedicavallo", 1, ["random"] * 3)
    folder = online_lobby.certificates_dir()
    assert "not trusted" in str(refused.value) and str(folder) in str(refused.value)
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(pems["ca"], folder / "club.pem")
    lobby = online_lobby.host(address, "piedicavallo", 1, ["random"] * 3)
    try:
        end = time.monotonic() + 20
        while not lobby.seats():
            assert time.monotonic() < end
            lobby.poll()
            time.sleep(0.01)
        lobby.start()
        sess = lobby.session()
        _play_desktop_seat(sess)
        full = sess.full_game()
        stored = read_events(tls_server.data_dir / "tarocchi.sqlite3", lobby.code)
        assert full is not None and len(full.log) == len(stored)
        assert full.state.scores and len(full.state.scores) == 1
        assert sess.rules == ruleset("piedicavallo")
    finally:
        lobby.leave()


async def _refused(url: str, tls=None, timeout: float = 5.0) -> tuple[ClientError, float]:  # noqa: ANN001
    c = SeatClient(url, "x", tls=tls, reconnect=False)
    t0 = time.monotonic()
    with pytest.raises(ClientError) as err:
        await c.connect(timeout)
    return err.value, time.monotonic() - t0


def test_untrusted_or_misnamed_certificates_are_refused_in_one_line(
        tmp_path: Path, tls_server: ServerHandle, pems: dict[str, Path]) -> None:
    # the system's trust store alone: trustme's authority is in none
    err, _ = asyncio.run(_refused(tls_server.url))
    assert err.code == "tls_untrusted" and "not trusted" in str(err) and "\n" not in str(err)
    # trusted authority, but a certificate for another host name
    other = start_background(tmp_path / "other", port=0, tls_cert=str(pems["other_cert"]),
                             tls_key=str(pems["other_key"]))
    try:
        err, _ = asyncio.run(_refused(other.url, client_context([pems["ca"]])))
        assert err.code == "tls_untrusted" and "127.0.0.1" in str(err)
    finally:
        other.stop()


def test_a_plain_client_at_the_tls_port_is_told_at_once(tls_server: ServerHandle) -> None:
    plain = tls_server.url.replace("wss://", "ws://")
    err, took = asyncio.run(_refused(plain))
    assert "wss://" in str(err) and "TLS" in str(err)
    print(f"plain ws:// client at a TLS port refused in {took * 1000:.0f} ms")
    assert took < 5.0  # the client's own bound: refused, not timed out
    # the server's side: plain HTTP bytes on the TLS port get the connection closed
    with socket.create_connection(("127.0.0.1", tls_server.port), timeout=10) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n\r\n")
        try:
            data = s.recv(4096)
        except ConnectionResetError:
            data = b""
    assert data == b""  # closed (no HTTP answer in clear, no hang)


def test_a_tls_client_at_a_plain_port_is_told_to_use_ws(tmp_path: Path) -> None:
    plain = start_background(tmp_path / "plain", port=0)
    try:
        err, _ = asyncio.run(_refused(plain.url.replace("ws://", "wss://")))
    finally:
        plain.stop()
    assert "ws://" in str(err) and "plain server" in str(err)


def _serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "game.cli", "serve", "--port", "0", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)


@pytest.mark.slow
def test_bad_certificate_files_stop_serve_with_one_line(tmp_path: Path,
                                                        pems: dict[str, Path]) -> None:
    garbage = tmp_path / "garbage.pem"
    garbage.write_text("not a certificate\n")
    data = ["--data", str(tmp_path / "data")]
    cases = [
        (["--tls-cert", str(tmp_path / "missing.pem"), "--tls-key", str(pems["key"])],
         "missing.pem: no such file"),
        (["--tls-cert", str(garbage), "--tls-key", str(pems["key"])], "not a PEM certificate"),
        (["--tls-cert", str(pems["cert"]), "--tls-key", str(pems["other_key"])],
         "not the private key"),
        (["--tls-cert", str(pems["cert"])], "both --tls-cert"),
    ]
    for args, said in cases:
        r = _serve(*data, *args)
        assert r.returncode == 1, (args, r.stderr)
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and said in lines[0], (args, r.stderr)
        assert "Traceback" not in r.stderr


def test_server_context_refuses_an_encrypted_key_without_asking(tmp_path: Path,
                                                                pems: dict[str, Path]) -> None:
    from cryptography.hazmat.primitives import serialization

    key = serialization.load_pem_private_key(pems["key"].read_bytes(), password=None)
    locked = tmp_path / "locked.pem"
    locked.write_bytes(key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(b"secret")))
    with pytest.raises(TlsError, match="passphrase"):
        server_context(str(pems["cert"]), str(locked))


@pytest.mark.slow
def test_the_bot_plays_over_wss_with_its_cafile(tls_server: ServerHandle,
                                                pems: dict[str, Path]) -> None:
    async def host_and_wait() -> tuple[str, str]:
        host = SeatClient(tls_server.url, "host", tls=client_context([pems["ca"]]))
        await host.connect(10)
        code, _ = await host.create("piedicavallo", 1, ["human", "random", "random", "random"])
        await host.join(code, None)  # watching: the lobby comes as the seat fills
        bot = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "game.cli", "bot", "--server", tls_server.url, "--code", code,
            "--seat", "0", "--cafile", str(pems["ca"]), cwd=ROOT,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        end = time.monotonic() + 60
        while not (host.lobby and host.lobby["seats"][0]["taken"]):
            assert time.monotonic() < end and bot.returncode is None
            await asyncio.sleep(0.05)
        await host.host("start")
        out, err = await asyncio.wait_for(bot.communicate(), 120)
        await host.close()
        assert bot.returncode == 0, err.decode()
        return out.decode(), code

    out, code = asyncio.run(host_and_wait())
    assert "game over" in out
    assert read_events(tls_server.data_dir / "tarocchi.sqlite3", code)
