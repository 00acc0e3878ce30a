"""A warm pool of worker processes for the hard level (both CPU cores).

One module-level pool, created on first use under a lock (the table calls the AI
from a worker thread), shut down at exit.  If no pool can be created, or
parallel search is switched off (tournaments run whole games in parallel
instead), work runs in-process.  Results never depend on timing: the caller
splits a fixed list of deals into fixed chunks and merges them in order.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

_lock = threading.Lock()
_pool: Executor | None = None
_failed = False
_enabled = os.environ.get("TAROCCHI_AI_PARALLEL", "1") != "0"
WORKERS = max(1, min(2, os.cpu_count() or 1))


def set_parallel(enabled: bool) -> None:
    """Switch process-parallel search on or off (off inside tournament workers)."""
    global _enabled
    _enabled = enabled


def parallel_enabled() -> bool:
    return _enabled and WORKERS > 1 and not _failed


def _get_pool() -> Executor | None:
    global _pool, _failed
    if not parallel_enabled():
        return None
    with _lock:
        if _pool is None and not _failed:
            try:
                ctx = multiprocessing.get_context("fork")
                # Workers are made by the calling thread; tie their lives to it only
                # when that is the main thread (PR_SET_PDEATHSIG fires at thread exit).
                main = threading.current_thread() is threading.main_thread()
                _pool = ProcessPoolExecutor(WORKERS, mp_context=ctx, initializer=_worker_init,
                                            initargs=(main,))
                atexit.register(shutdown)
            except (OSError, ValueError, ImportError):
                _failed = True
                _pool = None
        return _pool


def _worker_init(made_by_main_thread: bool = False) -> None:
    set_parallel(False)
    if made_by_main_thread:
        _die_with_parent()


def _die_with_parent() -> None:
    """Linux: a search worker gets SIGTERM when the process that made it dies, so
    none is left waiting for work if its parent is killed."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        if os.getppid() == 1:  # the parent died before the line above
            os._exit(0)
    except (OSError, AttributeError):
        pass


def shutdown() -> None:
    global _pool
    with _lock:
        if _pool is not None:
            _pool.shutdown(wait=True, cancel_futures=True)
            _pool = None


def map_chunks(fn: Callable[..., T], chunks: list[tuple[Any, ...]]) -> list[T]:
    """``[fn(*c) for c in chunks]``, across the pool when there is one."""
    pool = _get_pool() if len(chunks) > 1 else None
    if pool is None:
        return [fn(*c) for c in chunks]
    try:
        futures = [pool.submit(fn, *c) for c in chunks]
        return [f.result() for f in futures]
    except Exception:  # a broken pool (killed worker): search in-process from now on
        global _failed
        _failed = True
        return [fn(*c) for c in chunks]


def executor() -> Executor | None:
    """The pool to submit single calls to (the anytime search keeps both workers
    busy with rounds), or None to work in-process."""
    return _get_pool()


def mark_broken() -> None:
    """A worker died or a call failed there: search in-process from now on."""
    global _failed
    _failed = True


def worker_pids() -> list[int]:
    """Process ids of the pool's workers (started if need be); empty without a pool."""
    warm()
    pool = _pool
    procs = getattr(pool, "_processes", None) or {}
    return sorted(int(pid) for pid in procs)


def warm() -> None:
    """Start the workers now (so the first decision is not slowed by a fork)."""
    pool = _get_pool()
    if pool is not None:
        list(pool.map(abs, range(WORKERS * 2)))
