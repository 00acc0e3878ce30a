"""TLS for ``tarocchi serve`` and its clients (``wss://``).

The server: ``tarocchi serve --tls-cert FILE --tls-key FILE`` wraps its one port
in TLS (the websocket and the plain HTTP routes alike: ``wss://`` and
``https://``).  :func:`server_context` reads the two PEM files and refuses a
missing, unreadable or mismatched one with one line naming the file.

The clients (``SeatClient``, ``tarocchi bot``, the desktop game) check a
``wss://`` server's certificate against the system's trust store and its host
name, always.  A certificate that no authority signed (a club's self-signed one)
is trusted only when the user hands over that certificate's file: ``tarocchi bot
--cafile FILE``, or, for the desktop game, the file copied into the data
folder's ``certificates/`` (:func:`client_context` adds each such file to the
trust store; the host name is still checked).  Nothing ever turns checking off.
"""

from __future__ import annotations

import os
import ssl
from collections.abc import Iterable
from pathlib import Path

#: how long a connection may take to finish its TLS handshake (then it is closed)
HANDSHAKE_SECONDS = 10.0


class TlsError(OSError):
    """A certificate or key that cannot be used; ``str()`` is one line naming it."""


def _readable(path: str, what: str) -> None:
    p = Path(path)
    if not p.exists():
        raise TlsError(f"{what} {path}: no such file")
    if not p.is_file():
        raise TlsError(f"{what} {path}: not a file")
    if not os.access(p, os.R_OK):
        raise TlsError(f"{what} {path}: not readable by this user")


def _reason(exc: ssl.SSLError) -> str:
    return str(exc.reason or exc.strerror or exc).replace("_", " ").lower()


def _encrypted_key() -> str:
    raise TlsError("the key is protected by a passphrase: give an unencrypted key file "
                   "(readable by the server's user only)")


def server_context(cert: str | None, key: str | None) -> ssl.SSLContext | None:
    """The server's TLS context (None without ``--tls-cert``): TLS 1.2 or later,
    the certificate chain of ``cert`` with the private key of ``key``."""
    if not cert and not key:
        return None
    if not cert or not key:
        raise TlsError("TLS needs both --tls-cert FILE and --tls-key FILE")
    _readable(cert, "--tls-cert")
    _readable(key, "--tls-key")
    probe = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    try:
        probe.load_verify_locations(cafile=cert)
    except (ssl.SSLError, ValueError) as exc:
        raise TlsError(f"--tls-cert {cert}: not a PEM certificate "
                       f"({_reason(exc) if isinstance(exc, ssl.SSLError) else exc})") from None
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        ctx.load_cert_chain(cert, key, password=_encrypted_key)
    except ssl.SSLError as exc:
        raise TlsError(f"--tls-key {key}: not the private key of {cert}, or not a PEM key "
                       f"({_reason(exc)})") from None
    return ctx


def client_context(cafiles: Iterable[str | os.PathLike[str]] = ()) -> ssl.SSLContext:
    """A client's context: the system's trust store, host names checked, and each
    of ``cafiles`` (PEM certificates the user chose to trust) added to the store."""
    ctx = ssl.create_default_context()
    for f in cafiles:
        try:
            ctx.load_verify_locations(cafile=os.fspath(f))
        except (OSError, ValueError) as exc:
            if isinstance(exc, ssl.SSLError):
                why = _reason(exc)
            else:
                why = (exc.strerror if isinstance(exc, OSError) else None) or str(exc)
            raise TlsError(f"the certificate file {os.fspath(f)} cannot be trusted: "
                           f"{why}") from None
    return ctx


def trusted_files(folder: Path) -> list[Path]:
    """The certificate files (``*.pem``, ``*.crt``) a user put in ``folder``."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir()
                  if p.suffix.lower() in (".pem", ".crt") and p.is_file())


def handshake_error(url: str, exc: BaseException) -> str | None:
    """One line saying why a connection to ``url`` failed in its TLS handshake or
    because one side speaks TLS and the other does not (None: another failure)."""
    if isinstance(exc, ssl.SSLCertVerificationError):
        return (f"the certificate of {url} is not trusted ({exc.verify_message}): if it is "
                "your server's self-signed certificate, trust its file (see docs/SERVER.md)")
    if isinstance(exc, ssl.SSLError):
        if url.startswith("wss://"):
            return (f"{url} does not answer in TLS ({_reason(exc)}): is it a plain server? "
                    "then use ws://")
        return f"TLS failed with {url}: {_reason(exc)}"
    return None


__all__ = ["HANDSHAKE_SECONDS", "TlsError", "client_context", "handshake_error",
           "server_context", "trusted_files"]
