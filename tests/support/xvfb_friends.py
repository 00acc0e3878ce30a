"""Two friends at one online table, driven as a person would, under Xvfb: two real
game windows (two data folders, as two players have), clicked and typed into with
xdotool, while another program already listens on the game's preferred port.

The host opens **Play online**, types a name the first time it is asked, hosts a
table (the game's own server, which must take another port and say which); the
guest names that server in **Play online > Server**, joins by the code and types
a name; the host starts; both play the whole deal with the keyboard (Right to
walk the hand, Enter to play the card under the cursor or to go on after a
trick) until the deal is scored; the score sheet stays until a choice (Enter only
counts it up).  The guest sits East in either game.  Screenshots of each window
at each stage go to the output folder.

    python tests/support/xvfb_friends.py OUT --language fr [--variant scarto] [--port 8765]

``--port``: the preferred port, which a plain web server (another program) takes
first (default: a free port; 8765 is the game's own, for a check by hand: if a
program holds it already, that program is the other one).  Prints one JSON line:
the server's address as the host wrote it, the code, the replay files both
windows filed, the screenshots.  A check run by hand (some minutes: the whole
deal played by keys), not a test module; it needs Xvfb, xdotool and ImageMagick's
``import``.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
W, H = 1280, 720
#: where each window sits on the virtual screen (side by side)
PLACES = ((0, 0), (1300, 0))
SCREEN = "2600x760x24"
HOST, GUEST = 0, 1  # the windows, in the order they open


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def positions(language: str, variant: str) -> dict[str, tuple[float, float]]:
    """Where the buttons are, in window pixels (top-left origin): the views built
    headless in a child process, so the clicks follow the code's layout."""
    n_seats = {"piedicavallo": 4, "scarto": 3}[variant]
    code = f"""
import json
import arcade
from game.common import i18n
from game.common.settings import Settings
from game.router import install
from game.screens.menu import MenuView
from game.screens.online import OnlineView
i18n.set_language({language!r})
win = install(arcade.Window({W}, {H}, "p", visible=False))
win.settings = Settings(variant={variant!r}, match=False)
menu = MenuView(win)
online = OnlineView(win)
out = {{}}
for b in menu.buttons:
    if b.label == i18n._("Play online"):
        out["play_online"] = b.rect[:2]
out["host"] = online.b_host.rect[:2]
out["join"] = online.b_join.rect[:2]
out["server"] = online.b_server.rect[:2]
from game.screens.online import LobbyView, ROW_H, ROW_GAP
top = {H} - 232
out["start"] = ({W} / 2, top - ({n_seats} + 0.4) * (ROW_H + ROW_GAP))
print(json.dumps(out))
"""
    env = {**os.environ, "ARCADE_HEADLESS": "1", "PYTHONPATH": str(ROOT)}
    env.pop("DISPLAY", None)
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=120, cwd=ROOT)
    if r.returncode:
        raise SystemExit(r.stderr[-2000:])
    got = json.loads(r.stdout.strip().splitlines()[-1])
    return {k: (x, H - y) for k, (x, y) in got.items()}


class Desk:
    """The virtual screen, the two windows and the keyboard and mouse on them."""

    def __init__(self, out: Path) -> None:
        self.out = out
        r, w = os.pipe()
        self.xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", SCREEN, "-nolisten", "tcp"],
                                     pass_fds=(w,), stderr=subprocess.DEVNULL)
        os.close(w)
        with os.fdopen(r) as f:
            self.display = ":" + f.readline().strip()
        self.env = {**os.environ, "DISPLAY": self.display}
        self.env.pop("ARCADE_HEADLESS", None)
        self.procs: list[subprocess.Popen[bytes]] = []
        self.windows: list[str] = []

    def x(self, *args: str) -> str:
        return subprocess.run(["xdotool", *args], env=self.env, capture_output=True, text=True,
                              timeout=30).stdout.strip()

    def open(self, home: Path, port: int | None, log: Path) -> int:
        env = {**self.env, "TAROCCHI_HOME": str(home), "PYTHONPATH": str(ROOT)}
        if port is not None:
            env["TAROCCHI_SERVER_PORT"] = str(port)
        else:
            env.pop("TAROCCHI_SERVER_PORT", None)
        p = subprocess.Popen([sys.executable, "-m", "game.cli", "play"], env=env, cwd=ROOT,
                             stdout=log.open("wb"), stderr=subprocess.STDOUT)
        self.procs.append(p)
        end = time.monotonic() + 120
        while time.monotonic() < end:
            ids = [i for i in self.x("search", "--onlyvisible", "--name", "Tarocchi").split()
                   if i and i not in self.windows]  # the one window not seen before
            if ids:
                wid = ids[-1]
                i = len(self.windows)
                self.x("windowmove", wid, str(PLACES[i][0]), str(PLACES[i][1]))
                self.windows.append(wid)
                time.sleep(2)
                return i
            time.sleep(0.5)
        raise SystemExit(f"no window for {log}")

    def drawn(self, i: int, seconds: float = 120) -> None:
        """Wait until window ``i`` shows its menu (its first frames drawn)."""
        from PIL import Image

        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.point(i, W / 2, 20)  # a move over it: the window redraws
            path = Path(self.shot(i, f".probe-{i}"))
            px = Image.open(path).convert("RGB").getpixel((W // 2, 100))
            path.unlink()
            if px != (0, 0, 0):
                return
            time.sleep(1)
        raise SystemExit(f"window {i} never drew")

    def point(self, i: int, x: float, y: float) -> None:
        self.x("mousemove", str(round(PLACES[i][0] + x)), str(round(PLACES[i][1] + y)))

    def click(self, i: int, where: tuple[float, float]) -> None:
        self.point(i, *where)
        time.sleep(0.15)
        self.x("click", "1")
        time.sleep(0.6)

    def focus(self, i: int) -> None:
        """The keyboard to window ``i`` (no window manager here: X's own focus)."""
        self.point(i, W / 2, 20)
        self.x("windowfocus", "--sync", self.windows[i])

    def keys(self, i: int, *keys: str) -> None:
        self.focus(i)
        self.x("key", "--delay", "40", *keys)

    def type(self, i: int, text: str) -> None:
        self.focus(i)
        self.x("type", "--delay", "60", text)

    def shot(self, i: int, name: str) -> str:
        path = self.out / f"{name}.png"
        x, y = PLACES[i]
        subprocess.run(["import", "-display", self.display, "-window", "root", "-crop", f"{W}x{H}+{x}+{y}",
                        str(path)], env=self.env, check=True, timeout=60)
        return str(path)

    def close(self) -> None:
        for p in self.procs:
            p.terminate()
        for p in self.procs:
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()
        self.xvfb.terminate()
        self.xvfb.wait(20)


def _settings(home: Path, language: str, variant: str) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.json").write_text(json.dumps({"language": language, "sound": False, "variant": variant,
                                                    "match": False}))


def _wait(cond, seconds: float, what: str):  # type: ignore[no-untyped-def]
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        got = cond()
        if got:
            return got
        time.sleep(0.3)
    raise SystemExit(f"timed out: {what}")


def _table(home: Path) -> tuple[str, str] | None:
    """The code and seats of the table in the host's server store, once there."""
    db = home / "server" / "tarocchi.sqlite3"
    if not db.exists():
        return None
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        row = con.execute("SELECT code, seats FROM tables ORDER BY id DESC LIMIT 1").fetchone()
    except sqlite3.Error:
        return None
    finally:
        con.close()
    return (str(row[0]), str(row[1])) if row else None


def _replay(home: Path) -> list[str]:
    folder = home / "replays"
    return sorted(str(p) for p in folder.rglob("*.jsonl")) if folder.exists() else []


def _host(desk: Desk, at: dict[str, tuple[float, float]], home: Path, tag: str,
          shots: list[str]) -> tuple[dict[str, object], str]:
    """The host: Play online, Host a table, a name the first time, the lobby;
    the server's address as written for other windows, and the table's code."""
    desk.click(HOST, at["play_online"])
    desk.click(HOST, at["host"])
    shots.append(desk.shot(HOST, f"1-host-name-{tag}"))
    desk.type(HOST, "Anna")
    desk.keys(HOST, "Return")
    info_file = home / "server" / "server.json"
    info = _wait(lambda: json.loads(info_file.read_text()) if info_file.exists() else None, 60,
                 "the host's server")
    code, _seats = _wait(lambda: _table(home), 60, "the table")
    time.sleep(1.5)
    shots.append(desk.shot(HOST, f"2-host-lobby-{tag}"))
    return info, code


def _guest(desk: Desk, at: dict[str, tuple[float, float]], port: int, code: str) -> None:
    """The guest: names the host's server, joins by the code, types a name."""
    desk.click(GUEST, at["play_online"])
    desk.click(GUEST, at["server"])
    desk.type(GUEST, f"127.0.0.1:{port}")
    desk.keys(GUEST, "Return")
    desk.click(GUEST, at["join"])
    desk.type(GUEST, code)
    desk.keys(GUEST, "Return")
    time.sleep(1)
    desk.type(GUEST, "Bruno")
    desk.keys(GUEST, "Return")
    time.sleep(3)


def _play(desk: Desk, homes: tuple[Path, Path], tag: str, shots: list[str]) -> int:
    """Both windows play the deal with the keyboard until both filed its replay;
    the rounds of keys it took."""
    end = time.monotonic() + 1200
    rounds = 0
    while not (_replay(homes[0]) and _replay(homes[1])):
        if time.monotonic() > end:
            raise SystemExit("the deal did not end")
        for i in (HOST, GUEST):
            desk.keys(i, "Right", "Return")
        rounds += 1
        if rounds == 12:
            shots += [desk.shot(HOST, f"6-host-play-{tag}"), desk.shot(GUEST, f"6-guest-play-{tag}")]
    time.sleep(4)
    desk.keys(HOST, "Return")  # the score panel counted up to its end
    desk.keys(GUEST, "Return")
    time.sleep(3)
    return rounds


def run(out: Path, language: str, port: int, variant: str = "piedicavallo") -> dict[str, object]:
    out.mkdir(parents=True, exist_ok=True)
    squatter = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=out)
    desk = Desk(out)
    homes = (out / "host-home", out / "guest-home")
    for h in homes:
        _settings(h, language, variant)
    shots: list[str] = []
    tag = f"{variant[:5]}-{language}"
    try:
        at = positions(language, variant)
        time.sleep(1)  # the other program listens before the game starts
        for h in homes:
            desk.open(h, None if port == 8765 else port, out / f"{h.name}.log")
        desk.drawn(HOST)
        desk.drawn(GUEST)
        info, code = _host(desk, at, homes[0], tag, shots)
        _guest(desk, at, int(str(info["port"])), code)
        shots += [desk.shot(GUEST, f"3-guest-lobby-{tag}"), desk.shot(HOST, f"4-host-lobby-full-{tag}")]
        desk.click(HOST, at["start"])
        time.sleep(4)
        shots += [desk.shot(HOST, f"5-host-table-{tag}"), desk.shot(GUEST, f"5-guest-table-{tag}")]
        rounds = _play(desk, homes, tag, shots)
        shots += [desk.shot(HOST, f"7-host-score-{tag}"), desk.shot(GUEST, f"7-guest-score-{tag}")]
        return {"language": language, "variant": variant, "squatted_port": port, "server": info, "code": code,
                "replays": _replay(homes[0]) + _replay(homes[1]), "screenshots": shots,
                "keyboard_rounds": rounds}
    finally:
        desk.close()
        squatter.terminate()
        squatter.wait(20)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--language", default="en")
    ap.add_argument("--port", type=int, default=None)
    ap.add_argument("--variant", default="piedicavallo", choices=("piedicavallo", "scarto"))
    args = ap.parse_args()
    print(json.dumps(run(Path(args.out), args.language, args.port or free_port(), args.variant)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
