"""The C kernels (``engine/ai/_native.c``) where they are built, the pure-Python
ones otherwise: which path the AI takes, and the ruleset's tables for C.

The C module is an optional part of the install (``setup.py``: pip builds it
with the system's C compiler; without one the install still succeeds and the
AI runs on the pure-Python kernels, the reference).  ``TAROCCHI_PURE_AI=1`` in
the environment, or :func:`pure` around a piece of work, takes the
pure-Python path even where C is built: the tests compare the two, and the
tuning variant ``hard:native=0`` is the hard level on the pure-Python kernels.

Why C and not tighter Python (measured with ``python -m engine.ai.kernel_bench``):
the solver and the playouts are nine tenths of a hard decision, and their Python
is as tight as it goes (locals, tables indexed by card, no objects in the loops);
mypyc cannot type the closures over the ruleset's tables the kernels are made
of, and Cython would be a build dependency of its own.  The C is the same
algorithms line for line (the same cards, values and node counts), on masks
of up to 128 cards.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_native: Any
try:
    # By its full name: ``from . import _native`` reads, to the import graph of
    # tests/import_cycles.py, as an import of the package ``engine.ai`` (whose
    # __init__ imports the players, which import this module): a false cycle.
    _native = importlib.import_module("engine.ai._native")
except ImportError:  # not built (no C compiler at install time): pure Python
    _native = None

class OutOfTime(Exception):
    """A search passed its deadline; its partial result is thrown away (raised
    by the pure-Python solver and by the C one alike)."""


#: Set by :func:`pure` (per process: rounds run one at a time in a worker), and
#: from the start by ``TAROCCHI_PURE_AI`` (read once: the check is on a hot path).
_FORCED_PURE = [bool(os.environ.get("TAROCCHI_PURE_AI"))]


def built() -> bool:
    """Whether the C kernels were built and import."""
    return _native is not None


def active() -> bool:
    """Whether the AI uses the C kernels now."""
    return _native is not None and not _FORCED_PURE[0]


@contextmanager
def pure(flag: bool = True) -> Iterator[None]:
    """Within the block, the pure-Python kernels (when ``flag``)."""
    old = _FORCED_PURE[0]
    _FORCED_PURE[0] = flag or old
    try:
        yield
    finally:
        _FORCED_PURE[0] = old


def deal_fn() -> Any:
    """The C loop of :func:`engine.ai.worlds._deal` (None on the pure-Python path)."""
    return _native.deal if active() and _native is not None else None


def policy_type() -> type | None:
    """The type of the C policies (None when not built)."""
    return None if _native is None else _native.Policy


def make_tables(**tables: Any) -> Any:
    """The C kernels' tables of one ruleset (see :func:`engine.ai.fast.c_tables`,
    which gives them)."""
    assert _native is not None
    return _native.Tables(**tables, out_of_time=OutOfTime)
