"""The operator's files and commands: the systemd unit and the nginx site that
contrib/ ships are accepted by their own tools and run a command line that
``tarocchi serve`` accepts; ``tarocchi serve-backup`` copies a running server's
store, the copy whole and readable, while a game goes on."""

from __future__ import annotations

import argparse
import asyncio
import configparser
import json
import shlex
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trustme

from online.serve_options import add_serve_arguments
from online.server import start_background
from online.sqlite_store import read_events
from tests.support.online_harness import four_people_game
from tests.support.pg_cluster import free_port

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "contrib" / "tarocchi.service"
NGINX = ROOT / "contrib" / "nginx-tarocchi.conf"


def _exec_start() -> list[str]:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(UNIT)
    return shlex.split(unit["Service"]["ExecStart"])


def test_the_units_command_is_one_that_serve_accepts() -> None:
    argv = _exec_start()
    assert Path(argv[0]).name == "tarocchi" and argv[1] == "serve"
    p = argparse.ArgumentParser(exit_on_error=False)
    add_serve_arguments(p)
    args = p.parse_args(argv[2:])
    assert args.data == "/var/lib/tarocchi" and args.port == 8765
    # the proxy's upstream is the unit's port
    assert "server 127.0.0.1:8765;" in NGINX.read_text()


@pytest.mark.requires_program("systemd-analyze", "systemd")
def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    tarocchi = shutil.which("tarocchi") or str(Path(sys.executable).parent / "tarocchi")
    unit = tmp_path / "tarocchi.service"
    unit.write_text(UNIT.read_text().replace("/opt/tarocchi/bin/tarocchi", tarocchi))
    r = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True,
                       timeout=60, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr


def _nginx_main(tmp_path: Path, site: Path) -> Path:
    """A main nginx.conf that includes ``site``, its files all in ``tmp_path``."""
    main = tmp_path / "nginx.conf"
    temp = tmp_path / "temp"
    temp.mkdir(exist_ok=True)
    main.write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{\n  access_log off;\n  client_body_temp_path {temp}/body;\n"
        f"  proxy_temp_path {temp}/proxy;\n  fastcgi_temp_path {temp}/fastcgi;\n"
        f"  uwsgi_temp_path {temp}/uwsgi;\n  scgi_temp_path {temp}/scgi;\n"
        f"  include {site};\n}}\n")
    return main


@pytest.mark.requires_program("nginx", "nginx-light")
def test_nginx_accepts_the_site(tmp_path: Path) -> None:
    ca = trustme.CA()
    cert = ca.issue_cert("tarocchi.example.org")
    chain, key = tmp_path / "fullchain.pem", tmp_path / "privkey.pem"
    cert.private_key_pem.write_to_path(str(key))
    chain.write_bytes(b"".join(c.bytes() for c in cert.cert_chain_pems))
    site = tmp_path / "tarocchi.conf"
    site.write_text(NGINX.read_text()
                    .replace("/etc/letsencrypt/live/tarocchi.example.org/fullchain.pem", str(chain))
                    .replace("/etc/letsencrypt/live/tarocchi.example.org/privkey.pem", str(key)))
    main = _nginx_main(tmp_path, site)
    r = subprocess.run(["nginx", "-t", "-p", str(tmp_path), "-c", str(main)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "syntax is ok" in r.stderr, r.stderr


def _backup(data: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "game.cli", "serve-backup", str(out),
                           "--data", str(data)], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)


@pytest.mark.slow
def test_serve_backup_copies_a_running_servers_store(tmp_path: Path) -> None:
    data = tmp_path / "srv"
    handle = start_background(data, port=0)
    try:
        code, _ = asyncio.run(four_people_game(handle.url))
        out = tmp_path / "backups" / "tarocchi-1.sqlite3"
        out.parent.mkdir()
        r = _backup(data, out)  # the server still runs
        assert r.returncode == 0, r.stderr
        said = json.loads(r.stdout)
        live = read_events(data / "tarocchi.sqlite3", code)
    finally:
        handle.stop()
    assert said["tables"] == 1 and said["events"] == len(live) > 40
    assert read_events(out, code) == live  # the copy holds the whole log
    with sqlite3.connect(out) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert not out.with_name(out.name + ".part").exists()


@pytest.mark.slow
def test_serve_backup_refuses_in_one_line(tmp_path: Path) -> None:
    r = _backup(tmp_path / "nothing", tmp_path / "b.sqlite3")
    assert r.returncode == 1 and "no server store here" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    data = tmp_path / "srv"
    handle = start_background(data, port=0)
    handle.stop()
    r = _backup(data, data / "tarocchi.sqlite3")
    assert r.returncode == 1 and "the store itself" in r.stderr


def _nginx_site_for_test(tmp_path: Path, upstream: int, tls_port: int, plain_port: int,
                         ca: trustme.CA) -> Path:
    """contrib's site with loopback ports, the test's certificate and its server."""
    cert = ca.issue_cert("tarocchi.example.org", "127.0.0.1")
    chain, key = tmp_path / "fullchain.pem", tmp_path / "privkey.pem"
    cert.private_key_pem.write_to_path(str(key))
    chain.write_bytes(b"".join(c.bytes() for c in cert.cert_chain_pems))
    text = NGINX.read_text()
    for old, new in (
            ("/etc/letsencrypt/live/tarocchi.example.org/fullchain.pem", str(chain)),
            ("/etc/letsencrypt/live/tarocchi.example.org/privkey.pem", str(key)),
            ("listen 443 ssl;", f"listen 127.0.0.1:{tls_port} ssl;"),
            ("listen 80;", f"listen 127.0.0.1:{plain_port};"),
            ("server 127.0.0.1:8765;", f"server 127.0.0.1:{upstream};")):
        assert old in text
        text = text.replace(old, new)
    site = tmp_path / "tarocchi.conf"
    site.write_text("\n".join(line for line in text.splitlines() if "[::]" not in line))
    return _nginx_main(tmp_path, site)


async def _through_the_proxy(url: str, ca: Path, peers: Callable[[], set[str]]
                             ) -> tuple[str, dict[str, Any]]:
    """A whole game through the proxy, while a player from another address, who
    names a third one in both headers, is connected; ``peers()`` read meanwhile."""
    from websockets.asyncio.client import connect

    from online.protocol import PROTOCOL_VERSION
    from online.tls import client_context

    tls = client_context([ca])
    sly = await connect(url, ssl=tls, local_addr=("127.0.0.2", 0), open_timeout=10,
                        additional_headers={"Forwarded": "for=9.9.9.9",
                                            "X-Forwarded-For": "8.8.8.8"})
    await sly.send(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION, "name": "sly"}))
    welcome = json.loads(await asyncio.wait_for(sly.recv(), 10))
    code, _ = await four_people_game(url, tls)
    seen = {"welcome": welcome, "addresses": peers()}
    await sly.close()
    return code, seen


@pytest.mark.requires_program("nginx", "nginx-light")
def test_a_game_through_the_nginx_site_with_the_players_addresses(tmp_path: Path) -> None:
    from online.limits import LimitSettings

    handle = start_background(tmp_path / "srv", port=0,
                              limits=LimitSettings(trusted_proxies=("127.0.0.1",)))
    ca = trustme.CA()
    ca.cert_pem.write_to_path(str(tmp_path / "ca.pem"))
    tls_port = free_port()
    main = _nginx_site_for_test(tmp_path, handle.port, tls_port, free_port(), ca)
    nginx = subprocess.Popen(["nginx", "-p", str(tmp_path), "-c", str(main), "-g", "daemon off;"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        import socket
        import time

        end = time.monotonic() + 20
        while True:  # nginx listens
            try:
                socket.create_connection(("127.0.0.1", tls_port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < end and nginx.poll() is None, nginx.stderr
                time.sleep(0.05)
        url = f"wss://127.0.0.1:{tls_port}"
        code, seen = asyncio.run(_through_the_proxy(
            url, tmp_path / "ca.pem", lambda: {p.addr for p in handle.server.peers}))
        assert seen["welcome"]["type"] == "welcome"
        # the server counted the players by the address nginx saw, not by nginx's
        # own, and no client could name another address through it
        assert "127.0.0.2" in seen["addresses"], seen
        assert seen["addresses"] <= {"127.0.0.1", "127.0.0.2"}, seen
        stored = read_events(tmp_path / "srv" / "tarocchi.sqlite3", code)
        assert len(stored) > 40
    finally:
        nginx.terminate()
        nginx.wait(20)
        handle.stop()
