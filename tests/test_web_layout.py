"""The browser seat at every screen size, in every language: phone portrait
(390x844) and landscape (844x390), a tablet (768x1024), 1280x720 and 1920x1080.
On the start page, the lobby, the discard, a trick and the score sheet the
elements' boxes are measured in the browser (getBoundingClientRect, as
tests/test_layout.py measures the desktop's): nothing overlaps, nothing is cut
or off the screen's width, the table fits the screen's height, and on a phone
every control is at least 44 px.
With TAROCCHI_WEB_SHOTS=<folder> each screen is also saved as a PNG, to look at.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from online.server import ServerHandle, start_background
from tests.support.browser import Seat, chromium, needs_chromium

VIEWPORTS = [(390, 844), (844, 390), (768, 1024), (1280, 720), (1920, 1080)]
#: each language with a game: the most cards in a hand (Scarto's dealer holds 28)
#: in two of them
CASES = [("en", "scarto"), ("fr", "piedicavallo"), ("it", "scarto")]

MEASURE_JS = """(phone) => {
  const problems = [];
  const W = window.innerWidth;
  const shown = (e) => {
    const r = e.getBoundingClientRect();
    const cs = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && cs.visibility !== "hidden" && cs.display !== "none";
  };
  const label = (e) => e.id || e.dataset.card || e.dataset.trickCard || e.dataset.seat || e.className || e.tagName;
  if (document.documentElement.scrollWidth > W + 1) problems.push(["wider than the screen", document.documentElement.scrollWidth]);
  for (const e of document.querySelectorAll("button, select, input")) {
    if (!shown(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.left < -1 || r.right > W + 1) problems.push(["off the screen", label(e), Math.round(r.left), Math.round(r.right)]);
    if (phone && (r.width < 43.5 || r.height < 43.5)) problems.push(["under 44 px", label(e), Math.round(r.width), Math.round(r.height)]);
  }
  for (const e of document.querySelectorAll("h1, h2, p, label, span, li, th, td, button:not(.card), select")) {
    if (!shown(e) || e.closest(".card")) continue;
    const cs = getComputedStyle(e);
    if (cs.overflowX !== "visible" && e.scrollWidth > e.clientWidth + 1) problems.push(["text cut", label(e), e.textContent]);
  }
  // at the table, the hand and the buttons are on the screen without scrolling
  if (document.querySelector(".hand") && !document.querySelector(".sheet")) {
    for (const e of document.querySelectorAll(".hand .card, #confirm, .plate, .slot")) {
      if (shown(e) && e.getBoundingClientRect().bottom > window.innerHeight + 1) {
        problems.push(["below the screen", label(e), Math.round(e.getBoundingClientRect().bottom)]);
      }
    }
  }
  const sheet = document.querySelector(".sheet");
  const sel = sheet ? ".sheet h2, .sheet .verdict, .sheet table, .sheet button"
    : document.querySelector(".hand") ? ".plate, .slot, .status, .refusal, .banner, .piles li, .hand .card, #confirm, .bar .title, .bar .standing, .bar select"
    : "h1, h2, label, input, select, button, p, .who";
  const ink = (e) => {
    if (e.matches("p, h1, h2, label, li, .who, .status, .standing")) {
      const range = document.createRange();
      range.selectNodeContents(e);
      return range.getBoundingClientRect();
    }
    return e.getBoundingClientRect();
  };
  const items = [...document.querySelectorAll(sel)].filter((e) => shown(e) && e.textContent !== null
    && !(e.matches("p, .status, .refusal, .banner") && !e.textContent.trim()));
  const boxes = items.map((e) => [e, ink(e)]);
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, ra] = boxes[i];
      const [b, rb] = boxes[j];
      if (a.contains(b) || b.contains(a)) continue;
      const dx = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
      const dy = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
      if (dx > 1 && dy > 1) problems.push(["overlap", label(a), label(b), Math.round(dx), Math.round(dy)]);
    }
  }
  return problems;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    h = start_background(tmp_path_factory.mktemp("layout") / "server")
    yield h
    h.stop()


def _shots() -> Path | None:
    folder = os.environ.get("TAROCCHI_WEB_SHOTS")
    if not folder:
        return None
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    return path


def _measure(seat: Seat, lang: str, screen: str, found: dict[str, Any]) -> None:
    """The screen at every size: its problems (none expected) and its picture."""
    shots = _shots()
    for w, h in VIEWPORTS:
        seat.page.set_viewport_size({"width": w, "height": h})
        # a card just played is still on its way to the trick: measure where it lands
        seat.page.evaluate("() => Promise.all(document.getAnimations().map((a) => a.finished))")
        seat.page.wait_for_timeout(60)
        phone = min(w, h) < 600
        problems = seat.page.evaluate(MEASURE_JS, phone)
        if problems:
            found[f"{lang} {screen} {w}x{h}"] = problems[:6]
        if shots is not None:
            seat.page.screenshot(path=str(shots / f"{lang}-{screen}-{w}x{h}.png"))


def _play_to_every_screen(seat: Seat, lang: str, found: dict[str, Any]) -> set[str]:
    """Play (lit cards only) until the discard, a trick and the score sheet have
    each been measured; returns the screens measured."""
    done: set[str] = set()
    end = time.monotonic() + float(os.environ.get("TAROCCHI_WEB_PLAY_SECONDS", 480))
    s: dict[str, Any] = {}
    while done != {"discard", "trick", "sheet"}:
        if time.monotonic() > end:
            shots = _shots()
            if shots is not None:
                seat.page.screenshot(path=str(shots / f"{lang}-stuck.png"))
            raise AssertionError(f"never reached {({'discard', 'trick', 'sheet'} - done)}; last: "
                                 f"{ {k: s.get(k) for k in ('seq', 'lit', 'confirm', 'chosen', 'sheet', 'trick')} } "
                                 f"turn {s.get('view', {}).get('turn')} phase {s.get('view', {}).get('phase')}")
        s = seat.snap()
        screen = None
        if s["sheet"] and not s["final"]:
            screen = "sheet"
        elif s["confirm"] and not s["chosen"]:
            screen = "discard"
        elif s["lit"] and len(s["trick"]) >= 2:
            screen = "trick"
        if screen and screen not in done:
            _measure(seat, lang, screen, found)
            done.add(screen)
            seat.page.set_viewport_size({"width": 1280, "height": 720})
            continue  # the screen looked at again before any move: measuring took time
        if not seat.step(s):
            time.sleep(0.02)
    return done


@pytest.mark.slow
@needs_chromium
@pytest.mark.parametrize("lang,variant", CASES, ids=[f"{la}-{v}" for la, v in CASES])
def test_nothing_overlaps_nor_is_cut_at_any_size(server: ServerHandle, lang: str, variant: str) -> None:
    found: dict[str, Any] = {}
    with chromium() as browser:
        seat = Seat(browser, f"http://127.0.0.1:{server.port}", lang=f"{lang}-{lang.upper()}", seed=21)
        seat.open("/")
        seat.page.wait_for_selector("#create")
        assert seat.page.evaluate("() => document.documentElement.lang") == lang
        _measure(seat, lang, "start", found)
        n_others = 3 if variant == "piedicavallo" else 2
        seat.page.set_viewport_size({"width": 1280, "height": 720})
        full = 4 if variant == "piedicavallo" else 3
        seat.create("Maria Vittoria", variant, full, ["random"] * n_others)
        seat.page.wait_for_selector("#start:not([disabled])")
        _measure(seat, lang, "lobby", found)
        seat.page.set_viewport_size({"width": 1280, "height": 720})
        seat.start()
        _play_to_every_screen(seat, lang, found)
        assert not seat.errors, seat.errors
    assert not found, found
