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

A long call (a deal's review: seconds of search) goes through :class:`LongCall`:
it reports its progress and can be stopped between two of its steps, so leaving
the screen that asked for it frees the helper within one step.

No arcade import here: the helper process imports only this module, the engine
and what a call names (e.g. ``game.theatre.review_model``, pure Python as well).
"""

from __future__ import annotations

import atexit
import multiprocessing
import multiprocessing.util  # registers its exit hook now, so ours (later) runs first
import os
import pickle
import shutil
import signal
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from multiprocessing.connection import Connection
from typing import Any

AI_NICENESS = 10


def _shutdown_search_pool() -> None:
    try:
        from engine.ai import pool
    except ImportError:  # pragma: no cover - the AI package is part of the install
        return
    pool.shutdown()


class CallNotLoadable(Exception):
    """The helper could not unpickle a call (e.g. a function it cannot import)."""


def _exit_on_term(signum: int, frame: object) -> None:
    raise SystemExit(0)  # so the finally below stops the search workers too


def _serve(conn: Connection) -> None:
    """The helper's loop: receive ``(fn, args)``, send ``(ok, value)``, until told to stop."""
    try:
        signal.signal(signal.SIGTERM, _exit_on_term)
        # Below the window in priority: the frame (the main thread and the GL
        # rasteriser's threads) takes the cores when it needs them, the search
        # the rest.  Counts, not clocks, set the AI's work, so its play is unchanged.
        os.nice(AI_NICENESS)
    except (AttributeError, OSError, ValueError):
        pass
    try:
        while True:
            try:
                data = conn.recv_bytes()
            except (EOFError, OSError):
                break  # the window's process closed the pipe or died
            try:
                msg = pickle.loads(data)
            except Exception as exc:  # noqa: BLE001 - the caller runs it itself
                conn.send((False, CallNotLoadable(f"{type(exc).__name__}: {exc}")))
                continue
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

    Calls run one at a time, in order, on the link thread, which alone uses the
    pipe.  ``use_process=False`` runs them on that thread in this process (the
    fallback, and what tests may ask for).  After :meth:`close`, ``submit``
    raises ``RuntimeError``.
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
        self._futures: list[Future[Any]] = []  # submitted and maybe not done
        self.fallback_reason = "" if use_process else "switched off"

    # --- the helper process -------------------------------------------------------

    def start(self) -> None:
        """Start the helper now (it takes a moment to import the engine); idempotent."""
        with self._lock:
            if self._proc is not None or not self.use_process or self._closed:
                return
            try:
                ctx = multiprocessing.get_context("spawn")
                parent, child = ctx.Pipe()
                proc = ctx.Process(target=_serve, args=(child,), name="tarocchi-ai", daemon=False)
                proc.start()
                child.close()
            except (OSError, ValueError, RuntimeError) as exc:
                self.use_process = False
                self.fallback_reason = f"could not start the AI process: {exc}"
                return
            self._proc, self._conn = proc, parent

    @property
    def in_process(self) -> bool:
        """True while calls run in the helper process."""
        return self.use_process and self._proc is not None

    @property
    def closed(self) -> bool:
        return self._closed

    # --- calls --------------------------------------------------------------------

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        if self._closed:
            raise RuntimeError("the AI service is closed")
        self.start()
        fut = self._link.submit(self._call, fn, args)
        self._futures = [f for f in self._futures if not f.done()] + [fut]
        return fut

    def _call(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        """On the link thread."""
        conn = self._conn if self.use_process else None
        if conn is None:
            return fn(*args)
        try:
            conn.send((fn, args))
        except (pickle.PicklingError, TypeError, AttributeError):
            return fn(*args)  # this call cannot travel; the helper stays for the others
        except OSError as exc:
            return self._after_failure(f"the AI process stopped: {exc}", fn, args)
        try:
            ok, value = conn.recv()
        except (EOFError, OSError) as exc:
            return self._after_failure(f"the AI process stopped: {exc or 'pipe closed'}", fn, args)
        if ok:
            return value
        if isinstance(value, CallNotLoadable):
            return fn(*args)
        raise value

    def _after_failure(self, reason: str, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        """On the link thread: the helper is gone; run here from now on."""
        if self._closed:
            raise RuntimeError("the AI service was closed during the call")
        with self._lock:
            proc, conn = self._proc, self._conn
            self._proc = self._conn = None
            self.use_process = False
            self.fallback_reason = reason
        if conn is not None:
            conn.close()
        if proc is not None:
            proc.join(1.0)
        return fn(*args)

    # --- closing ------------------------------------------------------------------

    def close(self, timeout: float = 3.0) -> None:
        """Cancel the calls not started, let the one in hand finish (up to
        ``timeout`` seconds, then stop the helper), and stop the helper."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._link.shutdown(wait=False, cancel_futures=True)
        running = [f for f in self._futures if not f.done()]
        if running:
            wait(running, timeout=timeout)
        proc, conn = self._proc, self._conn
        if proc is not None and any(not f.done() for f in running):
            proc.terminate()  # the helper stops its search workers, then exits
            proc.join(3.0)
            wait(running, timeout=1.0)  # the link thread sees the pipe close
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
                proc.join(3.0)
            if proc.is_alive():
                proc.kill()
                proc.join(1.0)


# --- long calls: progress, and a stop --------------------------------------------------


class Stopped(Exception):
    """A long call stopped because its caller asked (it no longer wants the answer)."""


_PROGRESS, _STOP = "progress", "stop"


class Reporter:
    """Given to a long call as its ``progress`` callback, wherever the call runs:
    ``reporter(done, total)`` records how far it is (a small file, replaced whole)
    and raises :class:`Stopped` once the caller has asked it to stop (another file).
    Two files in a folder of their own: they cross the process boundary with no
    shared memory and no change to the pipe's one-call-one-answer protocol."""

    def __init__(self, folder: str) -> None:
        self.folder = folder

    def stopped(self) -> bool:
        return os.path.exists(os.path.join(self.folder, _STOP))

    def __call__(self, done: int, total: int) -> None:
        try:
            tmp = os.path.join(self.folder, _PROGRESS + ".tmp")
            with open(tmp, "w", encoding="ascii") as f:
                f.write(f"{int(done)} {int(total)}")
            os.replace(tmp, os.path.join(self.folder, _PROGRESS))
        except OSError:
            raise Stopped("the caller's folder is gone") from None
        if self.stopped():
            raise Stopped("asked to stop")


def _run_long(folder: str, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """In the helper (or the link thread): run ``fn`` with a :class:`Reporter`."""
    reporter = Reporter(folder)
    if reporter.stopped():
        raise Stopped("asked to stop before it began")
    return fn(*args, progress=reporter, **kwargs)


class LongCall:
    """A call that reports its progress and can be stopped, e.g. a deal's review
    (seconds to a minute of search): ``fn(*args, progress=cb, **kwargs)`` runs in
    the AI process like any call; ``cb(done, total)`` is :class:`Reporter`.

    :meth:`progress` reads how far it is (cheap: one small file; call it a few
    times a second); :meth:`stop` asks it to stop at its next report (a queued
    call is simply cancelled), so the AI process is free again within one step
    and the result is never waited for.  ``future`` ends with the result,
    :class:`Stopped`, or the call's error; its folder is removed when it ends.
    """

    def __init__(self, svc: AIService, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        self.folder = tempfile.mkdtemp(prefix="tarocchi-call-")
        self._over = threading.Event()  # set once the call has ended and its folder is gone
        try:
            self.future: Future[Any] = svc.submit(_run_long, self.folder, fn, args, kwargs)
        except BaseException:
            shutil.rmtree(self.folder, ignore_errors=True)
            raise
        self.future.add_done_callback(self._ended)

    def _ended(self, _fut: Future[Any]) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
        self._over.set()

    def progress(self) -> tuple[int, int] | None:
        """``(done, total)`` as last reported, or None before the first report."""
        try:
            with open(os.path.join(self.folder, _PROGRESS), encoding="ascii") as f:
                done, total = f.read().split()
            return int(done), int(total)
        except (OSError, ValueError):
            return None

    def stop(self) -> None:
        """Ask the call to stop (idempotent); never waits."""
        if self.future.done():
            return
        try:
            with open(os.path.join(self.folder, _STOP), "w", encoding="ascii"):
                pass
        except OSError:
            pass  # it has just ended and its folder is gone
        self.future.cancel()

    def done(self) -> bool:
        """Whether the call has ended (its folder removed)."""
        return self._over.is_set()

    def result(self, timeout: float | None = None) -> Any:
        """Wait for the end (up to ``timeout`` seconds) and return the answer, or raise
        its error, :class:`Stopped`, or ``CancelledError`` if it never began."""
        self._over.wait(timeout)
        return self.future.result(timeout=0 if self._over.is_set() else timeout)


def submit_long(fn: Callable[..., Any], *args: Any, svc: AIService | None = None, **kwargs: Any) -> LongCall:
    """Start a :class:`LongCall` on the application's AI service (or ``svc``)."""
    return LongCall(svc or service(), fn, *args, **kwargs)


_service: AIService | None = None
_service_lock = threading.Lock()
_exiting = False


def _at_exit() -> None:
    global _exiting
    with _service_lock:
        _exiting = True
        current = _service
    if current is not None:
        current.close()


atexit.register(_at_exit)  # registered after multiprocessing's: runs before it joins children


def service() -> AIService:
    """The application's one AI service, started on first use and closed at exit.

    Once the program is exiting it stays closed (its ``submit`` raises), so a
    late call from a daemon thread cannot start a helper nobody would stop."""
    global _service
    with _service_lock:
        if _service is None or (_service.closed and not _exiting):
            _service = AIService()
        return _service
