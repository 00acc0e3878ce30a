"""Whole games in a real browser (Debian's chromium, driven by Playwright): a
Piedicavallo match with two browser seats, a desktop seat (the bot on the
client library) and an AI; a Scarto game with three browser seats.  Each page
plays only the cards it lights (the server's options); what each page ever
received and held is checked against its seat's view; a page reloaded in the
middle of a trick comes back at the same position; the server's replay files
are accepted by ``tarocchi check``.  The page's first load, its time to be
usable and the time from a command to the card shown in every other browser
are printed (never asserted)."""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from online.bot import play, random_chooser
from online.client import SeatClient
from online.server import ServerHandle, start_background
from tests.support.browser import TIMING_JS, Seat, check_seat, chromium, needs_chromium
from tests.support.online_harness import check_frames, table_row, truth

ROOT = Path(__file__).resolve().parent.parent


def _replay_checks(server: ServerHandle, code: str) -> None:
    data = server.data_dir
    rid = table_row(data, code)["id"]
    path = data / "replays" / f"{code}-{rid}.jsonl"
    end = time.monotonic() + 20
    while not path.exists() and time.monotonic() < end:
        time.sleep(0.05)
    out = subprocess.run(
        [sys.executable, "-c", "import sys; from game.cli import main; sys.exit(main())",
         "check", str(path)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr


def _latencies(seats: list[Seat]) -> list[float]:
    """For each card clicked in one page, the time until it showed in every other
    (the clicks since the last page load: a reloaded page's record starts again)."""
    shown = {id(s): s.page.evaluate("() => window.__shown || []") for s in seats}
    since = max(s.page.evaluate("() => performance.timeOrigin") for s in seats)
    out = []
    for s in seats:
        for card, t in s.page.evaluate("() => window.__clicked || []"):
            if t < since:
                continue
            worst = 0.0
            for o in seats:
                if o is s:
                    continue
                after = [u for c, u in shown[id(o)] if c == card and u >= t]
                if not after:
                    break
                worst = max(worst, min(after) - t)
            else:
                out.append(worst)
    return out


def _report(seats: list[Seat], first: Seat, ready_ms: float) -> None:
    lat = sorted(_latencies(seats))
    if lat:
        p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))]
        print(f"command to the card shown in every other browser: {len(lat)} commands, "
              f"median {statistics.median(lat):.1f} ms, p95 {p95:.1f} ms")
    # the sounds come later, once sound is on at the table (test_web_sound.py)
    loads = [(u, n) for u, n in first.responses if "/sound-" not in u]
    wire = sum(n for _, n in loads)
    print(f"first load of a table's link, art included: {wire} bytes over the wire "
          f"({len(loads)} answers); usable {ready_ms:.0f} ms after the navigation began")


def _desktop_seat(url: str, code: str, seat: int, box: dict[str, Any]) -> threading.Thread:
    """The desktop's client library (the bot's loop) on its own thread."""
    joined = threading.Event()

    async def main() -> None:
        c = SeatClient(url, "Desk", record=True)
        await c.connect()
        await c.join(code, seat)
        box["client"] = c
        joined.set()
        try:
            await play(c, random_chooser(seat), timeout=600)
        finally:
            await c.close()

    def run() -> None:
        try:
            asyncio.run(main())
        except BaseException as exc:  # reported by the test
            box["error"] = exc
            joined.set()

    th = threading.Thread(target=run, daemon=True)
    th.start()
    joined.wait(30)
    return th


def _reload_mid_trick(seat: Seat) -> dict[str, Any]:
    """Reload the page while it is on turn with cards on the table: nothing can
    move until it plays, so it must come back at exactly the same position."""
    before = seat.snap()
    seat.page.reload()
    seat.page.evaluate(TIMING_JS)
    seat.page.wait_for_function("(n) => document.querySelectorAll('.hand .card.lit').length > 0 "
                                "&& document.querySelectorAll('[data-trick-card]').length === n",
                                arg=len(before["view"]["trick"]), timeout=15000)
    after = seat.snap()
    for key in ("seq", "view", "hand", "trick", "lit"):
        assert after[key] == before[key], key
    return before


@pytest.mark.slow
@needs_chromium
def test_a_piedicavallo_match_with_two_browsers_a_desktop_seat_and_an_ai(tmp_path: Path) -> None:
    server = start_background(tmp_path / "server")
    box: dict[str, Any] = {}
    try:
        with chromium() as browser:
            a = Seat(browser, f"http://127.0.0.1:{server.port}", seed=1)
            a.open("/")
            link = a.create("Ann", "piedicavallo", 4, ["human", "human", "random"])
            code = link.rsplit("/", 1)[1]
            b = Seat(browser, a.base, seed=2, viewport={"width": 390, "height": 844})
            b.page.goto(link)
            b.page.wait_for_selector("button.sit")
            ready_ms = b.page.evaluate("() => window.__ready")
            b.sit(None, "Bea", 2)
            desk = _desktop_seat(server.url, code, 1, box)
            assert "error" not in box, box.get("error")
            for s in (a, b):
                s.page.evaluate(TIMING_JS)
            a.start()
            reloaded: dict[str, Any] = {}
            moves = 0
            end = time.monotonic() + 400
            while not (a.over() and b.over()):
                assert time.monotonic() < end, "the match did not end"
                acted = False
                for s in (a, b):
                    if not reloaded and s is a:
                        snap = a.snap()
                        # cards on the table of the trick being played (not the last
                        # trick, shown a moment after it was taken)
                        if snap["lit"] and snap["view"]["trick"] and snap["view"]["deal_no"] >= 2:
                            reloaded = _reload_mid_trick(a)
                    if s.step():
                        acted = True
                        moves += 1
                if not acted:
                    time.sleep(0.01)
            desk.join(60)
            _report([a, b], b, ready_ms)
            assert reloaded, "the page was never reloaded mid-trick"
            assert not a.errors and not b.errors, a.errors + b.errors
            rules, events, _, _ = truth(server.data_dir, code)
            assert sum(1 for e in events if type(e).__name__ == "DealScored") == 4
            for s in (a, b):
                frames, snaps = check_seat(s, server.data_dir, code)
                assert frames > len(events) and snaps > 50
                assert any(f["type"] == "options" for f in s.frames)
            check_frames(box["client"], 1, server.data_dir, code)
            _replay_checks(server, code)
            print(f"{moves} moves in the browsers")
    finally:
        server.stop()


@pytest.mark.slow
@needs_chromium
def test_a_scarto_game_with_three_browser_seats(tmp_path: Path) -> None:
    server = start_background(tmp_path / "server")
    try:
        with chromium() as browser:
            base = f"http://127.0.0.1:{server.port}"
            a = Seat(browser, base, seed=3, viewport={"width": 844, "height": 390})
            a.open("/")
            link = a.create("Ann", "scarto", 3, ["human", "human"])
            code = link.rsplit("/", 1)[1]
            b = Seat(browser, base, seed=4, viewport={"width": 768, "height": 1024})
            c = Seat(browser, base, seed=5, viewport={"width": 1920, "height": 1080})
            b.page.goto(link)
            b.page.wait_for_selector("button.sit")
            ready_ms = b.page.evaluate("() => window.__ready")
            b.sit(None, "Bea", 1)
            c.sit(link, "Cid", 2)
            seats = [a, b, c]
            for s in seats:
                s.page.evaluate(TIMING_JS)
            a.start()
            end = time.monotonic() + 400
            while not all(s.over() for s in seats):
                assert time.monotonic() < end, "the game did not end"
                if not any([s.step() for s in seats]):
                    time.sleep(0.01)
            _report(seats, b, ready_ms)
            for s in seats:
                assert not s.errors, s.errors
            rules, events, _, _ = truth(server.data_dir, code)
            assert sum(1 for e in events if type(e).__name__ == "DealScored") == 3
            for s in seats:
                frames, snaps = check_seat(s, server.data_dir, code)
                assert frames > len(events) and snaps > 50
                sheet = s.snap()["text"]
                assert "Final score" in sheet
            _replay_checks(server, code)
    finally:
        server.stop()
