"""The browser seat's files: served from the package's own folder only, with
content-hashed names and the security headers on every answer; the committed
catalog, sprite sheets and sounds are what their generators make; the page's
code uses no HTML sinks and type-checks."""

from __future__ import annotations

import builtins
import gzip
import http.client
import io
import json
import math
import os
import re
import shutil
import subprocess
import wave
from array import array
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from art.web import GAMES, draw_sprite, sprite_codes, sprite_layout, sprite_name
from game.common import i18n
from game.i18n_tools import web_entries
from game.web_catalog import CATALOG, render
from online.http import CSP
from online.server import ServerHandle, start_background
from online.web_routes import IMMUTABLE, WEB_DIR, WebFiles
from sounds import SOUNDS_DIR
from sounds.web import WEB_RATE, WEB_SOUNDS, halve, mulaw, unmulaw, web_name, web_sound
from tests.support.mulaw_wav import read_mulaw

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ROOT / "web-tools"
#: the first load's budget over the wire: the page, its modules, style, catalog
#: and one game's cards
FIRST_LOAD_MAX = 1_500_000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerHandle]:
    h = start_background(tmp_path_factory.mktemp("web") / "server")
    yield h
    h.stop()


def get(port: int, path: str, headers: dict[str, str] | None = None
        ) -> tuple[int, dict[str, str], bytes]:
    """A raw GET: the path goes out exactly as given (no client-side normalising)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.putrequest("GET", path, skip_accept_encoding=True)
        for k, v in (headers or {}).items():
            conn.putheader(k, v)
        conn.endheaders()
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def test_the_page_and_a_table_s_link_are_the_same_page_with_the_security_headers(server) -> None:
    status, h, body = get(server.port, "/")
    assert status == 200 and h["content-type"].startswith("text/html")
    assert h["content-security-policy"] == CSP
    assert "'unsafe-inline'" not in CSP and "unsafe-eval" not in CSP
    assert h["x-content-type-options"] == "nosniff" and h["x-frame-options"] == "DENY"
    assert h["cache-control"] == "no-cache"
    assert "set-cookie" not in h
    for path in ("/t/ABC234", "/t/abc234", "/t/ABC234/", "/t/ABC234?x=1"):
        s2, h2, b2 = get(server.port, path)
        assert (s2, b2) == (200, body), path
        assert h2["content-security-policy"] == CSP
    html = body.decode()
    # no inline script, no inline style, no inline handler: the CSP would block them
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)
    assert not re.search(r"\sstyle=|<style|\son\w+=", html)


def test_each_file_has_a_content_hashed_name_and_is_kept_a_year(server) -> None:
    web = WebFiles()
    assert set(web.urls) >= {"app.js", "style.css", "catalog.json", *map(sprite_name, GAMES)}
    for name, url in web.urls.items():
        status, h, body = get(server.port, url)
        assert status == 200, url
        assert body == (WEB_DIR / name).read_bytes()
        assert h["cache-control"] == IMMUTABLE
        assert h["content-security-policy"] == CSP and "set-cookie" not in h
        digest = url.split("/")[2]
        assert re.fullmatch(r"[0-9a-f]{16}", digest)
    # a module's name changes with any module (they import each other by relative names)
    js = {u.split("/")[2] for n, u in web.urls.items() if n.endswith(".js")}
    assert len(js) == 1
    assert web.urls["style.css"].split("/")[2] not in js
    # the page names the files of this version
    page = get(server.port, "/")[2].decode()
    assert web.urls["app.js"] in page and web.urls["style.css"] in page


def test_text_files_go_gzipped_to_a_browser_that_accepts_it(server) -> None:
    web = WebFiles()
    url = web.urls["catalog.json"]
    status, h, body = get(server.port, url, {"Accept-Encoding": "gzip, br"})
    assert status == 200 and h["content-encoding"] == "gzip" and "Accept-Encoding" in h["vary"]
    assert gzip.decompress(body) == CATALOG.read_bytes()
    status, h, body = get(server.port, web.urls[sprite_name("scarto")], {"Accept-Encoding": "gzip"})
    assert "content-encoding" not in h  # WebP is compressed already


TRAVERSALS = [
    "/static/../online/server.py", "/static/..%2f..%2fonline%2fserver.py",
    "/static/%2e%2e/%2e%2e/pyproject.toml", "/static/%2E%2E%2F%2E%2E%2Fpyproject.toml",
    "/static//etc/passwd", "/static/%2fetc%2fpasswd", "/static/web_routes.py",
    "/static/app.js", "/static/0123456789abcdef/../web_routes.py", "/t/../../pyproject.toml",
    "/t/ABC234/../../server.py", "/t/%2e%2e%2fserver.py", "/../../../../etc/passwd",
    "/%2e%2e/%2e%2e/etc/passwd", "//etc/passwd", "/index.html", "/online/web/app.js",
    "/static/./app.js", "/static/%00", "/t/ABCDE", "/t/ABC2345", "/t/ABC1O0",
]


@pytest.mark.parametrize("path", TRAVERSALS)
def test_a_path_outside_the_allow_list_is_404_and_reads_nothing(server, path: str,
                                                                 monkeypatch) -> None:
    opened: list[str] = []
    real_open, real_io_open, real_os_open = builtins.open, io.open, os.open

    def spy_open(file, *a, **k):  # type: ignore[no-untyped-def]
        opened.append(str(file))
        return real_open(file, *a, **k)

    def spy_os_open(file, *a, **k):  # type: ignore[no-untyped-def]
        opened.append(str(file))
        return real_os_open(file, *a, **k)

    monkeypatch.setattr(builtins, "open", spy_open)
    monkeypatch.setattr(io, "open", spy_open)
    monkeypatch.setattr(os, "open", spy_os_open)
    try:
        status, h, body = get(server.port, path)
    finally:
        monkeypatch.setattr(builtins, "open", real_open)
        monkeypatch.setattr(io, "open", real_io_open)
        monkeypatch.setattr(os, "open", real_os_open)
    assert status == 404, path
    assert body == b"not found\n"
    assert h["content-security-policy"] == CSP
    assert not [p for p in opened if "tarocchi.sqlite3" not in p], opened


def test_the_first_load_fits_its_budget() -> None:
    web = WebFiles()
    for game in GAMES:
        names = [n for n in web.urls if n.endswith((".js", ".css", ".json"))] + [sprite_name(game)]
        total = len(web.page) + sum(len((WEB_DIR / n).read_bytes()) for n in names)
        print(f"first load of a {game} table, uncompressed: {total} bytes")
        assert total <= FIRST_LOAD_MAX


def test_the_page_s_code_uses_no_html_sink_nor_eval() -> None:
    for path in WEB_DIR.glob("*.js"):
        text = path.read_text(encoding="utf-8")
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
                     "new Function", "setAttribute(\"style\"", "localStorage.setItem(\"tarocchi.table",
                     "document.cookie"):
            assert sink not in text, (path.name, sink)
    # the tab's storage holds the seat; localStorage only preferences (the
    # language, sound on or off), each module's PREF
    code = "".join(p.read_text(encoding="utf-8") for p in WEB_DIR.glob("*.js"))
    assert set(re.findall(r"localStorage\.setItem\(([^,]+),", code)) == {"PREF"}
    assert sorted(re.findall(r'const PREF = "([^"]+)"', code)) == ["tarocchi.language", "tarocchi.sound"]


# --- generated files -------------------------------------------------------------------


def test_the_catalog_is_what_the_generator_makes() -> None:
    assert CATALOG.read_text(encoding="utf-8") == render(), \
        "online/web/catalog.json is stale: run python -m game.web_catalog"


def test_every_word_of_the_page_is_in_every_language() -> None:
    data = json.loads(CATALOG.read_text(encoding="utf-8"))
    entries = web_entries()
    assert len(entries) > 100
    for lang in ("en", "fr", "it"):
        words = data["words"][lang]
        assert set(words) == set(entries), lang
        po = i18n.po_path(lang).read_text(encoding="utf-8")
        translated = i18n.parse_po(po)
        missing = [m for m in entries if m not in translated]
        assert not missing, (lang, missing[:5])
        for m, plural in entries.items():
            got = words[m]
            fields = set(re.findall(r"{\w+}", m if plural is None else plural))
            if plural is None:
                assert set(re.findall(r"{\w+}", got)) == fields, (lang, m)
            else:
                assert len(got) == 2 and set(re.findall(r"{\w+}", got[1])) == fields, (lang, m)
        assert len(data["cards"][lang]) == 78
    assert data["words"]["fr"]["The trick"] == "Le pli"
    assert data["cards"]["it"]["DN"] == "Cavallo di Denari"


def test_the_page_s_sounds_are_what_sounds_web_makes() -> None:
    web = WebFiles()
    total = 0
    for name in WEB_SOUNDS:
        committed = WEB_DIR / web_name(name)
        data = committed.read_bytes()
        assert data == web_sound(name), f"{committed.name} is stale: run python -m sounds.generate"
        asset = web.assets[web.urls[committed.name]]
        assert asset.content_type == "audio/wav"
        total += len(asset.gzipped or asset.body)
    print(f"the page's {len(WEB_SOUNDS)} sounds: {total} bytes over the wire (gzipped)")
    assert total < 200_000


@pytest.mark.parametrize("name", WEB_SOUNDS)
def test_a_page_s_sound_is_its_source_at_half_the_rate_in_mu_law(name: str) -> None:
    rate, data = read_mulaw((WEB_DIR / web_name(name)).read_bytes())
    with wave.open(str(SOUNDS_DIR / f"{name}.wav"), "rb") as w:
        source = array("h", w.readframes(w.getnframes()))
    assert rate == WEB_RATE and len(data) == (len(source) + 1) // 2
    decoded = [unmulaw(b) for b in data]
    filtered = halve(source)

    def rms(x: list[float]) -> float:
        return math.sqrt(math.fsum(v * v for v in x) / len(x))

    # as loud as the source (what the low-pass takes above 10 kHz is a little
    # of the noisy sounds), and mu-law's error far under the sound
    assert abs(20 * math.log10(rms(decoded) / rms([v / 32768 for v in source]))) < 1.5
    noise = rms([a - b for a, b in zip(decoded, filtered, strict=True)])
    assert 20 * math.log10(rms(filtered) / noise) > 30


def test_mu_law_round_trips_within_its_step() -> None:
    for v in range(-32768, 32768, 3):
        x = v / 32768
        back = unmulaw(mulaw(x))
        # half a step of its segment: the step doubles with each of the 8 segments
        assert abs(back - x) <= abs(x) / 32 + 5 / 32768, v
    assert unmulaw(mulaw(0.0)) == 0.0 and mulaw(0.0) == 0xFF


def _mean_difference(a: Image.Image, b: Image.Image) -> float:
    diff = ImageChops.difference(a.convert("RGBA"), b.convert("RGBA"))
    return sum(ImageStat.Stat(diff).mean) / 4


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_the_sprite_sheets_are_what_art_generate_draws(game: str, tmp_path: Path) -> None:
    layout = sprite_layout(game)
    codes = sprite_codes(game)
    assert len(codes) == len(layout["index"]) and layout["index"]["back"] == len(codes) - 1
    drawn = draw_sprite(game)
    drawn.save(tmp_path / "new.webp", format="WEBP", quality=82, method=6)
    committed = WEB_DIR / sprite_name(game)
    if committed.read_bytes() == (tmp_path / "new.webp").read_bytes():
        return
    # another libwebp may encode differently: the pictures must still match closely
    with Image.open(committed) as old, Image.open(tmp_path / "new.webp") as new:
        assert old.size == new.size == drawn.size
        assert _mean_difference(old, new) < 1.0, f"{committed.name} is stale: run python -m art.generate"
    with Image.open(committed) as old:
        assert _mean_difference(old, drawn) < 3.0


@pytest.mark.slow
@pytest.mark.requires_program("node", "nodejs")
@pytest.mark.requires_program("npm", "npm")
def test_the_page_s_modules_type_check() -> None:
    if not (TOOLS / "node_modules" / ".bin" / "tsc").exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=TOOLS, check=True,
                       timeout=600, capture_output=True)
    npx = shutil.which("npx") or "npx"
    out = subprocess.run([npx, "--no-install", "tsc", "-p", "tsconfig.json"], cwd=TOOLS,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
