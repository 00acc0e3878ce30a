"""The table's sounds in a real browser: a switch named in every language, off
by default on a phone and on a touch tablet, on at a desktop, operated by
keyboard and remembered; nothing fetched while sound is off, every sound file
once it is switched on; the page decodes the files to the samples Python reads
from them; and at a desktop table the sounds follow the play (cards, the Matto,
tricks, the deals, each deal's verdict and the game's)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from online.server import ServerHandle, start_background
from sounds.web import WEB_OUT, WEB_SOUNDS, unmulaw, web_name
from tests.support.browser import Seat, chromium, needs_chromium
from tests.support.mulaw_wav import read_mulaw

#: every sound started by the page, as the length of its buffer (each sound's is its own)
PLAYED_JS = """(() => {
  window.__played = [];
  const start = AudioBufferSourceNode.prototype.start;
  AudioBufferSourceNode.prototype.start = function (...args) {
    window.__played.push(this.buffer ? this.buffer.length : -1);
    return start.apply(this, args);
  };
})();"""

#: the page's own module, imported into the page as it is
MODULE_JS = """async () => import(JSON.parse(document.body.dataset.assets)["sound.js"])"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    h = start_background(tmp_path_factory.mktemp("sound") / "server")
    yield h
    h.stop()


def lengths() -> dict[int, str]:
    """Each sound's number of samples -> its name."""
    out = {len(read_mulaw((WEB_OUT / web_name(n)).read_bytes())[1]): n for n in WEB_SOUNDS}
    assert len(out) == len(WEB_SOUNDS)
    return out


def sound_of(url: str) -> str | None:
    name = url.rsplit("/", 1)[-1]
    return name[len("sound-"):-len(".wav")] if name.startswith("sound-") else None


def watch(seat: Seat) -> tuple[list[str], dict[str, int]]:
    """The sounds the page asks for, and the answers' statuses."""
    asked: list[str] = []
    answered: dict[str, int] = {}
    seat.page.on("request", lambda r: asked.append(n) if (n := sound_of(r.url)) else None)
    seat.page.on("response", lambda r: answered.__setitem__(n, r.status) if (n := sound_of(r.url)) else None)
    seat.page.add_init_script(PLAYED_JS)
    return asked, answered


def played(seat: Seat) -> list[str]:
    names = lengths()
    return [names.get(n, "?") for n in seat.page.evaluate("() => window.__played")]


def play_moves(seat: Seat, moves: int, timeout: float = 120) -> None:
    end = time.monotonic() + timeout
    while moves > 0 and not seat.over():
        assert time.monotonic() < end, "the table did not ask for moves"
        if seat.step():
            moves -= 1
        else:
            time.sleep(0.02)


def switch_by_keyboard(seat: Seat) -> None:
    """Shift+Tab back to the sound switch, then Enter."""
    for _ in range(60):
        if seat.page.evaluate("() => document.activeElement && document.activeElement.id === 'sound'"):
            seat.page.keyboard.press("Enter")
            return
        seat.page.keyboard.press("Shift+Tab")
    raise AssertionError("the sound switch is not reached by keyboard")


@pytest.mark.slow
@needs_chromium
def test_on_a_phone_sound_is_off_and_nothing_is_fetched_until_it_is_switched_on(
        server: ServerHandle) -> None:
    with chromium() as browser:
        seat = Seat(browser, f"http://127.0.0.1:{server.port}", viewport={"width": 390, "height": 844},
                    touch=True, seed=11)
        asked, answered = watch(seat)
        seat.open("/")
        seat.create("Pia", "piedicavallo", 1, ["random"] * 3)
        seat.start()
        for lang, name in (("fr", "Son"), ("it", "Suono"), ("en", "Sound")):
            seat.page.select_option("#language", lang)
            switch = seat.page.get_by_role("button", name=name, exact=True)
            assert switch.count() == 1, lang
            assert switch.get_attribute("aria-pressed") == "false", lang
        box = seat.page.locator("#sound").bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44
        play_moves(seat, 6)  # taps on the cards: gestures, but sound is off
        seat.page.wait_for_timeout(300)
        assert asked == [] and played(seat) == []
        switch_by_keyboard(seat)
        assert seat.page.locator("#sound").get_attribute("aria-pressed") == "true"
        end = time.monotonic() + 20
        while set(answered) != set(WEB_SOUNDS):
            assert time.monotonic() < end, f"sounds fetched: {sorted(answered)}"
            seat.page.wait_for_timeout(50)
        assert sorted(asked) == sorted(WEB_SOUNDS) and set(answered.values()) == {200}
        play_moves(seat, 40)
        heard = set(played(seat))
        assert {"play", "trick"} <= heard, heard
        # the choice is a preference of this browser, kept across a reload
        assert seat.page.evaluate("() => localStorage.getItem('tarocchi.sound')") == "on"
        seat.page.reload()
        seat.page.wait_for_selector("#sound")
        assert seat.page.locator("#sound").get_attribute("aria-pressed") == "true"
        if seat.page.locator(".sheet").count():
            seat.page.click(".sheet button.primary")
        seat.page.click("#sound")
        assert seat.page.locator("#sound").get_attribute("aria-pressed") == "false"
        assert seat.page.evaluate("() => localStorage.getItem('tarocchi.sound')") == "off"
        assert not seat.errors, seat.errors


def _default_on(browser: Any, base: str, viewport: dict[str, int], touch: bool) -> bool:
    seat = Seat(browser, base, viewport=viewport, touch=touch)
    seat.open("/")
    seat.page.wait_for_selector("#create")
    on = bool(seat.page.evaluate(f"async () => new (await ({MODULE_JS})()).Sounds({{}}).on"))
    seat.close()
    return on


def _frames(seat: Seat, kind: str) -> list[dict[str, Any]]:
    return [f for f in seat.frames if f["type"] == kind]


@pytest.mark.slow
@needs_chromium
def test_at_a_desktop_sound_is_on_and_follows_the_play(server: ServerHandle) -> None:
    base = f"http://127.0.0.1:{server.port}"
    with chromium() as browser:
        assert not _default_on(browser, base, {"width": 768, "height": 1024}, touch=True)
        assert _default_on(browser, base, {"width": 1920, "height": 1080}, touch=False)
        seat = Seat(browser, base, seed=12)
        asked, answered = watch(seat)
        seat.open("/")
        seat.create("Dora", "piedicavallo", 4, ["random"] * 3)
        assert asked == []  # nothing before the table
        seat.start()
        assert seat.page.locator("#sound").get_attribute("aria-pressed") == "true"
        play_moves(seat, 10_000, timeout=400)
        assert seat.over()
        seat.page.wait_for_timeout(200)
        heard = played(seat)
        assert {"play", "matto", "trick", "shuffle", "deal"} <= set(heard), set(heard)
        # each deal's verdict for seat 0's side (side 0), and the game's
        ends = _frames(seat, "deal_end")
        assert len(ends) == 4
        assert heard.count("deal_won") == sum(0 in m["outcome"]["winners"] for m in ends)
        assert heard.count("deal_lost") == sum(0 in m["outcome"]["losers"] for m in ends)
        over = _frames(seat, "game_over")[0]
        assert heard.count("match_won") == (0 in over["outcome"]["winners"])
        _decoded_as_python_reads(seat)
        assert not seat.errors, seat.errors


def _decoded_as_python_reads(seat: Seat) -> None:
    """The page's decoding of each file: the rate and samples Python reads."""
    for name in WEB_SOUNDS:
        url = seat.page.evaluate(f"() => JSON.parse(document.body.dataset.assets)['{web_name(name)}']")
        rate, samples = seat.page.evaluate(
            f"async (url) => {{ const m = await ({MODULE_JS})(); const r = await fetch(url);"
            " const d = m.decodeWav(await r.arrayBuffer()); return [d.rate, Array.from(d.samples)]; }", url)
        want_rate, data = read_mulaw(Path(WEB_OUT / web_name(name)).read_bytes())
        assert rate == want_rate == 22050
        assert len(samples) == len(data)
        assert max(abs(a - unmulaw(b)) for a, b in zip(samples, data, strict=True)) < 1e-6, name
