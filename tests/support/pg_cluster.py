"""A throw-away PostgreSQL cluster for the tests (and tests/support/online_pg_kill.py):
``initdb`` into a temporary folder, ``pg_ctl start`` on a free loopback port
with its unix socket in that folder, stopped and removed afterwards.

PostgreSQL refuses to run as root: when the tests run as root, the folder is
given to the ``postgres`` user and the programs run as that user (``runuser``).
Every wait is bounded (pg_ctl's own ``-w -t``, subprocess timeouts).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from tests.support.prereq import POSTGRESQL_DIRS, find_program

START_TIMEOUT_S = 30


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = int(s.getsockname()[1])
    s.close()
    return port


class PgCluster:
    """``dsn``: a ``postgresql://`` URL of the cluster's database ``tarocchi``."""

    def __init__(self, initdb: str) -> None:
        self.bin = Path(os.path.realpath(initdb)).parent  # Debian: /usr/lib/postgresql/N/bin
        # as root, in /tmp: the postgres user must reach the folder (a TMPDIR under
        # /root it could not), and the socket's path stays short (107 bytes at most)
        self.root = Path(tempfile.mkdtemp(prefix="tarocchi-pg-",
                                          dir="/tmp" if os.geteuid() == 0 else None))
        self.data = self.root / "data"
        self.port = free_port()
        self.as_user: str | None = None
        if os.geteuid() == 0:
            self.as_user = "postgres"
            pw = pwd.getpwnam("postgres")
            os.chmod(self.root, 0o700)
            os.chown(self.root, pw.pw_uid, pw.pw_gid)
        self.user = self.as_user or pwd.getpwuid(os.geteuid()).pw_name
        self.dsn = f"postgresql://{self.user}@127.0.0.1:{self.port}/tarocchi"

    def _run(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        cmd = list(args)
        if self.as_user:
            cmd = ["runuser", "-u", self.as_user, "--", *cmd]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                              cwd=self.root, check=False)

    def _check(self, r: subprocess.CompletedProcess[str], what: str) -> None:
        if r.returncode != 0:
            raise RuntimeError(f"{what} failed ({r.returncode}): {r.stderr.strip() or r.stdout}")

    def start(self) -> None:
        r = self._run(str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U",
                      self.user, "-E", "UTF8", "--no-sync", timeout=120)
        self._check(r, "initdb")
        self.resume()
        r = self._run(str(self.bin / "createdb"), "-h", str(self.root), "-p", str(self.port),
                      "tarocchi")
        self._check(r, "createdb")

    def resume(self) -> None:
        """``pg_ctl start`` (again, after :meth:`halt`), waiting until it accepts."""
        opts = (f"-c listen_addresses=127.0.0.1 -c port={self.port} "
                f"-c unix_socket_directories={self.root} -c max_connections=200 "
                "-c shared_buffers=32MB")
        r = self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l",
                      str(self.root / "log"), "-o", opts, "-w", "-t", str(START_TIMEOUT_S),
                      "start", timeout=START_TIMEOUT_S + 10)
        self._check(r, "pg_ctl start")

    def halt(self) -> None:
        """Stop the server (``-m fast``: its connections are cut), keeping its data."""
        r = self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w",
                      "-t", "20", "stop", timeout=30)
        self._check(r, "pg_ctl stop")

    def new_database(self, name: str) -> str:
        """Another empty database of this cluster; returns its URL."""
        r = self._run(str(self.bin / "createdb"), "-h", str(self.root), "-p", str(self.port), name)
        self._check(r, "createdb")
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w",
                      "-t", "20", "stop", timeout=30)
        shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def pg_cluster() -> Iterator[PgCluster]:
    initdb = find_program("initdb", POSTGRESQL_DIRS)
    if initdb is None:
        raise RuntimeError("initdb not found: apt-get install -y postgresql")
    c = PgCluster(initdb)
    try:
        c.start()
        yield c
    finally:
        c.stop()
