"""Helpers of the browser seat's tests: Debian's chromium driven by Playwright
(never a browser of Playwright's own), and a page as a seat: what it received
(every websocket frame), what it holds (its DOM and its tab's storage), and the
moves a person makes on it (clicks or keys), chosen from what the page lights.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from engine.cards import mask_cards
from engine.ruleset import ruleset
from engine.view import SPECTATOR, seat_view
from online.protocol import view_cards
from tests.support.online_harness import check_messages, truth

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
#: the mark of every test that drives the browser
needs_chromium = pytest.mark.requires_program("chromium", "chromium")
AXE = Path(__file__).resolve().parent.parent.parent / "web-tools" / "node_modules" / "axe-core" / "axe.min.js"

#: what a page holds at one moment, read in one go (so the DOM and the seq agree)
SNAPSHOT_JS = """() => {
  const q = (s) => [...document.querySelectorAll(s)];
  const key = Object.keys(sessionStorage).find((k) => k.startsWith("tarocchi.table."));
  const stored = key ? JSON.parse(sessionStorage.getItem(key)) : null;
  const body = document.body.cloneNode(true);
  body.querySelectorAll("#live").forEach((n) => n.remove());
  const confirm = document.getElementById("confirm");
  const sheet = document.querySelector(".sheet");
  return {
    seq: stored ? stored.lastSeq : 0, view: stored ? stored.view : null,
    hand: q(".hand .card").map((b) => b.dataset.card),
    lit: q(".hand .card.lit").map((b) => b.dataset.card),
    chosen: q(".hand .card.chosen").map((b) => b.dataset.card),
    trick: q("[data-trick-card]").map((n) => n.dataset.trickCard),
    labels: q("[aria-label]").map((n) => n.getAttribute("aria-label")),
    text: body.textContent,
    confirm: Boolean(confirm && !confirm.hidden),
    confirmEnabled: Boolean(confirm && !confirm.hidden && !confirm.disabled),
    sheet: sheet ? sheet.querySelector("h2").textContent : null,
    final: Boolean(sheet && sheet.querySelector("button") && sheet.dataset.kind === "over"),
    focus: document.activeElement ? (document.activeElement.dataset.card || document.activeElement.id || document.activeElement.tagName) : null,
  };
}"""

#: records, in the page's own clock (ms since the epoch), when each trick card
#: first appears and when each card is clicked
TIMING_JS = """() => {
  window.__shown = []; window.__clicked = [];
  new MutationObserver((list) => {
    const now = performance.timeOrigin + performance.now();
    for (const m of list) for (const n of m.addedNodes) {
      if (n.dataset && n.dataset.trickCard) window.__shown.push([n.dataset.trickCard, now]);
    }
  }).observe(document.body, {childList: true, subtree: true});
  document.addEventListener("click", (e) => {
    const b = e.target.closest && e.target.closest(".hand .card");
    if (b) window.__clicked.push([b.dataset.card, performance.timeOrigin + performance.now()]);
  }, true);
}"""


READY_JS = """new MutationObserver((_, obs) => {
  if (document.querySelector("#create, button.sit, .hand .card")) {
    window.__ready = performance.now();
    obs.disconnect();
  }
}).observe(document, {childList: true, subtree: true});"""


@contextmanager
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


class Seat:
    """One browser tab playing one seat."""

    def __init__(self, browser: Any, base: str, *, viewport: dict[str, int] | None = None,
                 lang: str = "en-GB", seed: int = 0, touch: bool = False) -> None:
        # touch: a phone's or a tablet's browser (a touch screen, a coarse pointer)
        self.context = browser.new_context(viewport=viewport or {"width": 1280, "height": 720},
                                           locale=lang, has_touch=touch, is_mobile=touch)
        self.page = self.context.new_page()
        self.base = base
        self.frames: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.snapshots: list[dict[str, Any]] = []
        self.rnd = random.Random(seed)
        self.seat = -1
        #: (url, bytes over the wire) of every HTTP answer the tab received
        self.responses: list[tuple[str, int]] = []
        self.page.on("response", self._response)
        self.page.on("websocket", self._socket)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("dialog", self._dialog)
        # when the page is first usable, in its own clock (ms from the navigation)
        self.page.add_init_script(READY_JS)

    def _socket(self, ws: Any) -> None:
        ws.on("framereceived", lambda payload: self.frames.append(json.loads(payload)))

    def _response(self, response: Any) -> None:
        size = response.headers.get("content-length")
        self.responses.append((response.url, int(size) if size else 0))

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def open(self, path: str = "/") -> None:
        self.page.goto(self.base + path)

    def snap(self) -> dict[str, Any]:
        s: dict[str, Any] = self.page.evaluate(SNAPSHOT_JS)
        self.snapshots.append(s)
        return s

    # --- the start page and the lobby ------------------------------------------------------

    def create(self, name: str, variant: str, deals: int, others: list[str]) -> str:
        """Create a table on the start page; returns the table's link."""
        page = self.page
        page.wait_for_selector("#create")
        page.fill("#name", name)
        page.select_option("#game", variant)
        page.select_option("#length", str(deals))
        for i, kind in enumerate(others, start=1):
            page.select_option(f"#seat-{i}", kind)
        page.click("#create")
        page.wait_for_selector("#link")
        self.seat = 0
        return str(page.input_value("#link"))

    def sit(self, link: str | None, name: str, seat: int) -> None:
        """Take a seat by the table's link (None: the page is at it already)."""
        if link is not None:
            self.page.goto(link)
        self.page.wait_for_selector(f"button.sit[data-seat='{seat}']")
        self.page.fill("#name", name)
        self.page.click(f"button.sit[data-seat='{seat}']")
        self.page.wait_for_selector("#link")
        self.page.wait_for_function("() => !document.querySelector('button.sit')")
        self.seat = seat

    def start(self) -> None:
        self.page.wait_for_selector("#start:not([disabled])")
        self.page.click("#start")
        self.page.wait_for_selector(".hand")

    # --- playing -----------------------------------------------------------------------

    def step(self, s: dict[str, Any] | None = None) -> bool:
        """One move if the page asks for one (chosen at random among the lit
        cards, as a person would); True when it did something.  ``s``: a snapshot
        just taken and looked at, so that the move answers exactly that screen."""
        if s is None:
            s = self.snap()
        if s["sheet"] and not s["final"]:
            self.page.click(".sheet button.primary")
            return True
        if s["confirm"]:
            if s["confirmEnabled"]:
                self.page.click("#confirm")
                return True
            if s["lit"]:
                self.page.click(f".hand .card[data-card='{self.rnd.choice(s['lit'])}']")
                return True
            return False
        if s["lit"]:
            self.page.click(f".hand .card[data-card='{self.rnd.choice(s['lit'])}']")
            return True
        return False

    def over(self) -> bool:
        return bool(self.page.evaluate("() => document.documentElement.dataset.over === 'true'"))

    def close(self) -> None:
        self.context.close()


def play_until_over(seats: list[Seat], timeout: float = 300.0, on_step: Any = None) -> int:
    """Round-robin over the pages until every one shows the game's end; returns
    the moves made."""
    end = time.monotonic() + timeout
    moves = 0
    while not all(s.over() for s in seats):
        if time.monotonic() > end:
            raise TimeoutError(f"the game did not end in {timeout} s")
        acted = False
        for s in seats:
            if s.step():
                acted = True
                moves += 1
                if on_step is not None:
                    on_step(s, moves)
        if not acted:
            time.sleep(0.01)
    return moves


def card_names_en() -> dict[str, re.Pattern[str]]:
    """Each card's English name as the page words it, as a whole-word pattern."""
    data = json.loads((Path(__file__).resolve().parents[2] / "online" / "web" / "catalog.json")
                      .read_text(encoding="utf-8"))
    return {code: re.compile(r"(?<![\w])" + re.escape(name) + r"(?![\w])", re.IGNORECASE)
            for code, name in data["cards"]["en"].items()}


def check_seat(seat: Seat, data: Path, code: str) -> tuple[int, int]:
    """What the page ever received (its frames) and held (each snapshot of its
    DOM and storage) against what its seat could know: the frames as the online
    clients' are checked; at each snapshot the hand shown is the seat's hand,
    the trick shows only cards played, and no card in another hand or in a
    hidden discard is named anywhere on the page.  Returns (frames, snapshots)."""
    rules, _, states, _ = truth(data, code)
    # a page that came by the table's link watched it before it took its seat
    sat = next((i for i, f in enumerate(seat.frames) if f["type"] == "seated"), 0)
    frames = check_messages(seat.frames[:sat], SPECTATOR, data, code)
    frames += check_messages(seat.frames[sat:], seat.seat, data, code)
    names = card_names_en()
    pack = rules.pack
    checked = 0
    for s in seat.snapshots:
        if not s["view"] or s["seq"] == 0:
            continue
        view = seat_view(states[s["seq"]], seat.seat)
        known = view_cards(view)
        assert sorted(s["hand"]) == sorted(pack.mask_codes(view.hand)), (seat.seat, s["seq"])
        for c in s["trick"]:
            assert known >> pack.parse(c) & 1, (seat.seat, s["seq"], c)
        words = s["text"] + "\n" + "\n".join(s["labels"])
        for card in mask_cards(pack.all_mask & ~known):
            assert not names[pack.codes[card]].search(words), (seat.seat, s["seq"], pack.codes[card])
        checked += 1
    return frames, checked


def variant_of(code: str, data: Path) -> str:
    return truth(data, code)[0].name


__all__ = ["AXE", "CHROMIUM", "Seat", "check_seat", "chromium", "needs_chromium",
           "play_until_over", "ruleset"]
