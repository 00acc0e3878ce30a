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
from pathlib import Path

import pytest
import trustme

from online.bot import play, random_chooser
from online.client import SeatClient
from online.serve_options import add_serve_arguments
from online.server import start_background
from online.sqlite_store import read_events

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
    main = tmp_path / "nginx.conf"
    temp = tmp_path / "temp"
    temp.mkdir()
    main.write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{\n  access_log off;\n  client_body_temp_path {temp}/body;\n"
        f"  proxy_temp_path {temp}/proxy;\n  fastcgi_temp_path {temp}/fastcgi;\n"
        f"  uwsgi_temp_path {temp}/uwsgi;\n  scgi_temp_path {temp}/scgi;\n"
        f"  include {site};\n}}\n")
    r = subprocess.run(["nginx", "-t", "-p", str(tmp_path), "-c", str(main)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "syntax is ok" in r.stderr, r.stderr


async def _a_game(url: str) -> str:
    clients = [SeatClient(url, f"p{s}") for s in range(4)]
    for c in clients:
        await c.connect(10)
    code, _ = await clients[0].create("piedicavallo", 1, ["human"] * 4)
    for s, c in enumerate(clients):
        await c.join(code, s)
    await clients[0].host("start")
    await asyncio.gather(*(play(c, random_chooser(s), timeout=120)
                           for s, c in enumerate(clients)))
    for c in clients:
        await c.close()
    return code


def _backup(data: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "game.cli", "serve-backup", str(out),
                           "--data", str(data)], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)


@pytest.mark.slow
def test_serve_backup_copies_a_running_servers_store(tmp_path: Path) -> None:
    data = tmp_path / "srv"
    handle = start_background(data, port=0)
    try:
        code = asyncio.run(_a_game(handle.url))
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
