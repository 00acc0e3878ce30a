"""AI decisions in a separate process, so that a search never holds the frame loop's GIL.

A medium or hard decision is tens to hundreds of milliseconds of pure Python.
Run on a thread of the window's process it competes with the frame loop for the
GIL, and frames stutter while the AI thinks.  Here one long-lived helper process
(started with ``spawn``, so it inherits no GL context and no threads) runs the
calls; the window's side only waits on a pipe, which releases the GIL.  The hard
level still uses both cores: inside the helper, ``engine.ai.pool`` forks its own
search workers.

Results are the same wherever a call runs (a decision depends only on the view,
the legal commands and the event index), so when the process cannot be used (it
failed to start, it died, or a call cannot be pickled) the call simply runs on
the link thread instead, and ``TAROCCHI_AI_PROCESS=0`` asks for that from the
start.  The helper exits when it is told to, when the window's process closes the
pipe, or when that process dies; it shuts its search workers down first, so
nothing is left behind and nothing waits at exit.

No arcade import here: the helper process imports only this module and the engine.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import pickle
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any

AI_NICENESS = 10


def _shutdown_search_pool() -> None:
    try:
        from engine.ai import pool
    except ImportError:  # pragma: no cover - the AI package is part of the install
        return
    pool.shutdown()


def _serve(conn: Connection) -> None:
    """The helper's loop: receive ``(fn, args)``, send ``(ok, value)``, until told to stop."""
    try:
        # Below the window in priority: the frame (the main thread and the GL
        # rasteriser's threads) takes the cores when it needs them, the search
        # the rest.  Counts, not clocks, set the AI's work, so its play is unchanged.
        os.nice(AI_NICENESS)
    except (AttributeError, OSError):
        pass
    try:
        while True:
            try:
                msg = conn.recv()
            except (EOFError, OSError):
                break  # the window's process closed the pipe or died
            if msg is None:
                break
            fn, args = msg
            try:
                reply: tuple[bool, Any] = (True, fn(*args))
            except Exception as exc:  # noqa: BLE001 - sent back and raised there
                reply = (False, exc)
            try:
                conn.send(reply)
            except (pickle.PicklingError, TypeError, AttributeError) as exc:
                conn.send((False, RuntimeError(f"AI result could not be sent back: {exc}")))
            except (OSError, EOFError):
                break
    finally:
        _shutdown_search_pool()
        conn.close()


class AIService:
    """Submit AI calls; each returns a :class:`concurrent.futures.Future`.

    Calls run one at a time, in order.  ``use_process=False`` runs them on the
    link thread in this process (the fallback, and what tests may ask for).
    """

    def __init__(self, use_process: bool | None = None) -> None:
        if use_process is None:
            use_process = os.environ.get("TAROCCHI_AI_PROCESS", "1") != "0"
        self.use_process = use_process
        self._lock = threading.Lock()
        self._link = ThreadPoolExecutor(1, thread_name_prefix="ai-link")
        self._proc: Any = None
        self._conn: Connection | None = None
        self._closed = False
        self.fallback_reason = "" if use_process else "switched off"

    # --- the helper process -------------------------------------------------------

    def start(self) -> None:
        """Start the helper now (it takes a moment to import the engine); idempotent."""
        with self._lock:
            self._start_locked()

    def _start_locked(self) -> None:
        if self._proc is not None or not self.use_process or self._closed:
            return
        try:
            ctx = multiprocessing.get_context("spawn")
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=_serve, args=(child,), name="tarocchi-ai", daemon=False)
            proc.start()
            child.close()
        except (OSError, ValueError, RuntimeError) as exc:
            self._fall_back(f"could not start the AI process: {exc}")
            return
        self._proc, self._conn = proc, parent

    def _fall_back(self, reason: str) -> None:
        self.use_process = False
        self.fallback_reason = reason
        self._stop_locked()

    @property
    def in_process(self) -> bool:
        """True while calls run in the helper process."""
        return self.use_process and self._proc is not None

    # --- calls --------------------------------------------------------------------

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        if not self._closed:
            self.start()
        return self._link.submit(self._call, fn, args)

    def _call(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        with self._lock:
            conn = self._conn if self.use_process else None
        if conn is None:
            return fn(*args)
        try:
            conn.send((fn, args))
        except (pickle.PicklingError, TypeError, AttributeError):
            return fn(*args)  # this call cannot travel; the helper stays for the others
        except OSError as exc:
            with self._lock:
                self._fall_back(f"the AI process stopped: {exc}")
            return fn(*args)
        try:
            ok, value = conn.recv()
        except (EOFError, OSError) as exc:
            if self._closed:
                raise RuntimeError("the AI service was closed during the call") from exc
            with self._lock:
                self._fall_back(f"the AI process stopped: {exc or 'pipe closed'}")
            return fn(*args)
        if ok:
            return value
        raise value

    # --- closing ------------------------------------------------------------------

    def _stop_locked(self, timeout: float = 3.0) -> None:
        proc, conn = self._proc, self._conn
        self._proc = self._conn = None
        if conn is not None:
            try:
                conn.send(None)
            except OSError:
                pass
            conn.close()
        if proc is not None:
            proc.join(timeout)
            if proc.is_alive():
                proc.terminate()
                proc.join(1.0)

    def close(self) -> None:
        """Stop the helper (it finishes the call in hand first); later calls run here."""
        with self._lock:
            self._closed = True
            self._stop_locked()
        self._link.shutdown(wait=False, cancel_futures=True)


_service: AIService | None = None
_service_lock = threading.Lock()


def service() -> AIService:
    """The application's one AI service, started on first use and closed at exit."""
    global _service
    with _service_lock:
        if _service is None or _service._closed:
            _service = AIService()
            atexit.register(_service.close)  # runs before multiprocessing joins children
        return _service
