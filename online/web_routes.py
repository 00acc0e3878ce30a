"""The browser seat's page and files, on the server's port (online/http.py).

``/`` is the start page, ``/t/CODE`` a table's own link (the same page: it reads
the code from its path), and ``/static/<hash>/<name>`` the page's files.  The
files are the package's own folder ``online/web/``, read once when the server
starts: a request's path is looked up in that table of names and never reaches
the filesystem, so ``..``, ``%2e%2e``, ``%2f`` or an absolute path can only
miss (404) and nothing is read.

A file's URL carries a hash of its content, so a browser may keep it for a year
(``immutable``) and a new version is never mixed with an old one: each file has
its own hash, but the ES modules share one, taken over all of them (they import
each other by relative names, so they change together).  The page itself is
``no-cache``: it names the files of the version the server runs.  Text files
are sent gzipped to a browser that accepts it.
"""

from __future__ import annotations

import gzip
import hashlib
import html
import json
import re
from dataclasses import dataclass
from pathlib import Path

from websockets.http11 import Request, Response

from .http import Routes, not_found, response
from .protocol import CODE_ALPHABET, CODE_LENGTH

WEB_DIR = Path(__file__).resolve().parent / "web"

IMMUTABLE = "public, max-age=31536000, immutable"
TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".webp": "image/webp",
    ".png": "image/png",
    ".svg": "image/svg+xml",
    ".wav": "audio/wav",
}
#: gzipped for a browser that accepts it (the sounds too: 8-bit mu-law shrinks by a third)
COMPRESS = (".js", ".css", ".json", ".html", ".svg", ".wav")
_TABLE_PATH = re.compile(f"^/t/[{CODE_ALPHABET}{CODE_ALPHABET.lower()}]{{{CODE_LENGTH}}}/?$")
_PLACEHOLDER = re.compile(r"\{\{([A-Za-z0-9_.-]+)\}\}")


@dataclass(frozen=True)
class Asset:
    body: bytes
    gzipped: bytes | None
    content_type: str


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def _zipped(name: str, body: bytes) -> bytes | None:
    if not name.endswith(COMPRESS):
        return None
    small = gzip.compress(body, compresslevel=9, mtime=0)
    return small if len(small) < len(body) else None


class WebFiles:
    """The page and its files, read from ``folder`` once: ``urls`` maps each file's
    name to its content-hashed URL, ``assets`` each URL to what is sent."""

    def __init__(self, folder: Path = WEB_DIR) -> None:
        files = {p.name: p.read_bytes() for p in sorted(folder.iterdir())
                 if p.is_file() and p.suffix in TYPES}
        modules = _digest(b"".join(name.encode() + b"\0" + data for name, data in files.items()
                                   if name.endswith(".js")))
        self.urls: dict[str, str] = {}
        self.assets: dict[str, Asset] = {}
        for name, data in files.items():
            url = f"/static/{modules if name.endswith('.js') else _digest(data)}/{name}"
            self.urls[name] = url
            self.assets[url] = Asset(data, _zipped(name, data), TYPES[Path(name).suffix])
        page = (folder / "index.html").read_text(encoding="utf-8")
        self.page = _PLACEHOLDER.sub(self._fill, page).encode()
        self.page_gzipped = _zipped(".html", self.page)

    def _fill(self, m: re.Match[str]) -> str:
        key = m.group(1)
        if key == "assets":
            return html.escape(json.dumps(self.urls, separators=(",", ":")), quote=True)
        return html.escape(self.urls[key], quote=True)

    def bytes_of_page(self) -> int:
        """Bytes of the page and every file it names (uncompressed)."""
        return len(self.page) + sum(len(a.body) for a in self.assets.values())


def _accepts_gzip(request: Request) -> bool:
    return any("gzip" in v.lower() for v in request.headers.get_all("Accept-Encoding"))


def _send(request: Request, body: bytes, zipped: bytes | None, content_type: str,
          cache: str) -> Response:
    headers = {"Cache-Control": cache, "Vary": "Accept-Encoding"}
    if zipped is not None and _accepts_gzip(request):
        headers["Content-Encoding"] = "gzip"
        body = zipped
    return response(200, body, content_type, headers)


def add_web_routes(routes: Routes, files: WebFiles | None = None) -> WebFiles:
    """Register the page (``/``, ``/t/CODE``) and its files (``/static/``) on
    ``routes``; returns the files (read now, once)."""
    web = files or WebFiles()

    def page(request: Request) -> Response:
        return _send(request, web.page, web.page_gzipped, "text/html; charset=utf-8", "no-cache")

    def table_page(request: Request) -> Response:
        path = request.path.split("?", 1)[0]
        if not _TABLE_PATH.match(path):
            return not_found()
        return page(request)

    def static(request: Request) -> Response:
        asset = web.assets.get(request.path.split("?", 1)[0])
        if asset is None:
            return not_found()
        return _send(request, asset.body, asset.gzipped, asset.content_type, IMMUTABLE)

    routes.add("/", page)
    routes.add_prefix("/t/", table_page)
    routes.add_prefix("/static/", static)
    return web


__all__ = ["WEB_DIR", "WebFiles", "add_web_routes"]
