"""A table anyone can use, safe as a web page must be, in a real browser: a whole
deal played with the keyboard alone; axe-core's check on the start page, the
lobby and the table; a player's name full of markup shown as text; a refusal
explained in words; a friend who drops and comes back, and the AI that takes a
seat, said to the others; nothing in cookies, the seat's token only in the
tab's storage."""

from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from online.server import ServerHandle, start_background
from tests.support.browser import AXE, Seat, check_seat, chromium, needs_chromium

TOOLS = Path(__file__).resolve().parent.parent / "web-tools"
MARKUP = "<img src=x onerror=alert(1)>"


@pytest.fixture
def server(tmp_path: Path):
    h = start_background(tmp_path / "server")
    yield h
    h.stop()


def _axe(seat: Seat) -> list[tuple[str, str, int]]:
    """axe-core's serious and critical violations on the page as it is now."""
    if not AXE.exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=TOOLS, check=True,
                       timeout=600, capture_output=True)
    # injected through the devtools protocol: the page's own CSP rightly refuses
    # a script tag that is not its own
    cdp = seat.context.new_cdp_session(seat.page)
    cdp.send("Runtime.evaluate", {"expression": AXE.read_text(encoding="utf-8")})
    cdp.detach()
    found = seat.page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map((v) => [v.id, v.impact, v.nodes.length])")
    return [tuple(v) for v in found if v[1] in ("serious", "critical")]


def _key_until(seat: Seat, key: str, pred: str, limit: int = 80) -> None:
    """Press ``key`` until ``pred`` (a JS expression) holds of the focus."""
    for _ in range(limit):
        if seat.page.evaluate(f"() => {{ const a = document.activeElement; return Boolean({pred}); }}"):
            return
        seat.page.keyboard.press(key)
    raise AssertionError(f"{key} never reached {pred}")


def _keyboard_move(seat: Seat) -> bool:
    """One move with keys only: into the hand, along it to a lit card, Enter
    (Space to choose a card to lay aside, then the confirmation)."""
    s = seat.snap()
    if s["sheet"] and not s["final"]:
        _key_until(seat, "Tab", "a && a.closest('.sheet') && a.classList.contains('primary')")
        seat.page.keyboard.press("Enter")
        return True
    if s["confirmEnabled"]:
        _key_until(seat, "Tab", "a && a.id === 'confirm'")
        seat.page.keyboard.press("Enter")
        return True
    if not s["lit"]:
        return False
    _key_until(seat, "Tab", "a && a.classList.contains('card')")
    seat.page.keyboard.press("Home")
    _key_until(seat, "ArrowRight", "a && a.classList.contains('lit')", limit=40)
    seat.page.keyboard.press("Space" if s["confirm"] else "Enter")
    return True


@pytest.mark.slow
@needs_chromium
def test_a_whole_deal_by_keyboard_alone_and_axe_finds_nothing_serious(server: ServerHandle) -> None:
    with chromium() as browser:
        seat = Seat(browser, f"http://127.0.0.1:{server.port}", seed=7)
        seat.open("/")
        seat.page.wait_for_selector("#create")
        assert _axe(seat) == [], "start page"
        # the start page by keys: the name, then Enter submits the form
        _key_until(seat, "Tab", "a && a.id === 'name'")
        seat.page.keyboard.type("Kay")
        _key_until(seat, "Tab", "a && a.id === 'game'")
        seat.page.keyboard.press("ArrowDown")  # Scarto
        seat.page.wait_for_selector("#seat-2")
        for i in (1, 2):
            _key_until(seat, "Tab", f"a && a.id === 'seat-{i}'")
            seat.page.keyboard.press("ArrowDown")  # a friend -> AI: random
        _key_until(seat, "Tab", "a && a.id === 'length'")
        seat.page.keyboard.press("ArrowUp")  # a single deal
        _key_until(seat, "Tab", "a && a.id === 'create'")
        seat.page.keyboard.press("Enter")
        seat.page.wait_for_selector("#start:not([disabled])")
        seat.seat = 0
        assert _axe(seat) == [], "lobby"
        _key_until(seat, "Tab", "a && a.id === 'start'")
        seat.page.keyboard.press("Enter")
        seat.page.wait_for_selector(".hand .card")
        checked_table = False
        end = time.monotonic() + 180
        while not seat.over():
            assert time.monotonic() < end, "the deal did not end"
            if not _keyboard_move(seat):
                time.sleep(0.02)
            elif not checked_table and seat.snap()["trick"]:
                assert _axe(seat) == [], "table"
                checked_table = True
        assert checked_table
        assert _axe(seat) == [], "score sheet"
        assert seat.page.mouse is not None and not seat.errors
        code = seat.page.url.rsplit("/", 1)[1]
        frames, snaps = check_seat(seat, server.data_dir, code)
        assert snaps > 20
        # plays were announced in the live region
        live = seat.page.inner_text("#live")
        assert re.search(r"plays|take the trick|takes the trick", live), live


def _seat_name_shown(seat: Seat) -> bool:
    return MARKUP in seat.page.inner_text("body")


@pytest.mark.slow
@needs_chromium
def test_markup_in_a_name_is_text_refusals_are_words_and_presence_is_told(server: ServerHandle) -> None:
    with chromium() as browser:
        base = f"http://127.0.0.1:{server.port}"
        a = Seat(browser, base, seed=11)
        a.open("/")
        link = a.create("Ann", "scarto", 1, ["human", "random"])
        b = Seat(browser, base, seed=12, viewport={"width": 390, "height": 844})
        b.sit(link, MARKUP, 1)
        a.page.wait_for_function(f"() => document.body.innerText.includes({json.dumps(MARKUP)})")
        assert a.page.evaluate("() => document.querySelectorAll('img').length") == 0
        a.start()
        a.page.wait_for_selector(".plate[data-seat='1']")
        assert _seat_name_shown(a) and not a.dialogs and not b.dialogs
        # a refusal, in words: play a card the server did not light
        refused = _refuse_once([a, b])
        assert refused and not re.search(r"\b(R|S)\d\b|illegal_move", refused), refused
        # b drops (its tab leaves the page) and comes back by the same tab
        b.page.goto("about:blank")
        a.page.wait_for_function("() => document.getElementById('live').textContent.includes('reconnecting')")
        b.page.go_back()
        b.page.wait_for_selector(".hand .card")
        a.page.wait_for_function(f"() => document.getElementById('live').textContent.includes({json.dumps(MARKUP + ' is back')})")
        # storage: nothing in cookies, the token in the tab's storage only
        for s in (a, b):
            assert s.context.cookies() == []
            local = s.page.evaluate("() => Object.keys(localStorage)")
            assert set(local) <= {"tarocchi.language"}
            stored = s.page.evaluate("() => Object.entries(sessionStorage)")
            tokens = [json.loads(v)["token"] for k, v in stored if k.startswith("tarocchi.table.")]
            assert len(tokens) == 1 and len(tokens[0]) == 43
        assert not a.errors and not b.errors, a.errors + b.errors
        # b leaves for good: the host lets the AI play for it, and a is told
        b.close()
        a.page.wait_for_selector("button.takeover[data-seat='1']", timeout=15000)
        a.page.click("button.takeover[data-seat='1']")
        a.page.wait_for_function("() => document.getElementById('live').textContent.includes('played by the AI')")


def _refuse_once(seats: list[Seat], timeout: float = 60.0) -> str:
    """Play until a page on turn holds a card it may not play, click that card,
    and return the refusal the page shows."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for s in seats:
            snap: dict[str, Any] = s.snap()
            unlit = [c for c in snap["hand"] if c not in snap["lit"]]
            if snap["lit"] and not snap["confirm"] and unlit:
                s.page.click(f".hand .card[data-card='{unlit[0]}']")
                s.page.wait_for_function("() => document.querySelector('.refusal').textContent.length > 0")
                return str(s.page.inner_text(".refusal"))
            s.step()
    raise AssertionError("no page ever held a card it could not play")
