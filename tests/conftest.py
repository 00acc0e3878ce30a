"""Test setup.  For the GUI tests (tests/test_gui*.py): EGL when there is no
display, no sound device, and a temporary user data folder, all set before
arcade is first imported (docs/HEADLESS.md traps 1-2).  The hidden window is a
session fixture used only by GUI tests, so engine tests never open one.

Tests that need a system program (Xvfb...) carry the ``requires_program``
marker: skipped with the package to install when it is missing, failed under
CI (tests/support/prereq.py).  The same for headless OpenGL (EGL) and the font,
recognised from the failures their absence causes."""

from __future__ import annotations

import os
import tempfile

if not os.environ.get("DISPLAY"):
    os.environ.setdefault("ARCADE_HEADLESS", "1")
# Always a temporary data folder, even if TAROCCHI_HOME is set: the suite never
# touches the user's autosave, replays or settings.
os.environ["TAROCCHI_HOME"] = tempfile.mkdtemp(prefix="tarocchi-test-home-")
# The game's own server (Play online) takes a free port, never 8765: the suite must
# not take the port a player's game, or another program, may be using.
os.environ["TAROCCHI_SERVER_PORT"] = "0"

try:
    import pyglet

    pyglet.options.audio = ("silent",)
except ImportError:  # engine-only environments
    pyglet = None

import pytest

from tests.support.prereq import find_program, outcome_for_missing, under_ci, window_needs_missing

_FAIL_AT_SETUP = pytest.StashKey[str]()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "requires_program(name, debian_package, extra_dirs=()): the test needs a system "
        "program; missing, the test is skipped naming the package, or fails under CI "
        "(tests/support/prereq.py)",
    )
    config.addinivalue_line(
        "markers",
        "requires_file(path, debian_package): the same for a file a system package "
        "installs (a font...)",
    )
    config.addinivalue_line(
        "markers",
        "slow: a long test (a whole game drawn, a window under Xvfb, a server killed, "
        "thousands of files); `python -m pytest -m \"not slow\"` leaves them out for a "
        "quick run, `python -m pytest` runs everything",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Apply ``requires_program`` and ``requires_file``: a skip mark (so the
    summary line points at the test itself), or under CI a failure at set-up,
    naming the missing packages."""
    found: dict[tuple[str, str, tuple[str, ...]], bool] = {}
    for item in items:
        missing: list[tuple[str, str]] = []
        for mark in item.iter_markers():
            if mark.name not in ("requires_program", "requires_file"):
                continue
            name, package = mark.args
            extra = tuple(mark.kwargs.get("extra_dirs", ()))
            key = (mark.name, name, extra)
            if key not in found:
                found[key] = (find_program(name, extra) is not None if mark.name == "requires_program"
                              else os.path.isfile(name))
            if not found[key] and (name, package) not in missing:
                missing.append((name, package))
        if missing:
            outcome, reason = outcome_for_missing(missing)
            if outcome == "skip":
                # the test's name in the reason: pytest folds identical skip lines
                # of a file into one, and the summary names each skipped test
                item.add_marker(pytest.mark.skip(reason=f"{item.name}: {reason}"))
            else:
                item.stash[_FAIL_AT_SETUP] = reason


def pytest_runtest_setup(item: pytest.Item) -> None:
    reason = item.stash.get(_FAIL_AT_SETUP, None)
    if reason is not None:
        pytest.fail(reason, pytrace=False)


def _window_needs_rule(report: pytest.TestReport | pytest.CollectReport, name: str) -> None:
    """A module or test that failed because the system has no headless OpenGL or
    no font (tests/support/prereq.py): skipped naming the packages, or under CI still a
    failure, with the packages named under its traceback."""
    if not report.failed:
        return
    reason = window_needs_missing(report.longreprtext)
    if reason is None:
        return
    if under_ci():
        reason = f"{reason} (CI is set: every test must run)"
        text = getattr(report.longrepr, "longrepr", None)
        if isinstance(text, str):  # an import error while collecting (CollectErrorRepr)
            report.longrepr.longrepr = f"{text}\n{reason}"  # type: ignore[union-attr]
        elif hasattr(report.longrepr, "addsection"):
            report.longrepr.addsection("missing system packages", reason)
        return
    report.outcome = "skipped"
    report.longrepr = (report.nodeid.split("::")[0], None, f"{name}: {reason}")


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> pytest.CollectReport:
    report = yield
    if isinstance(collector, pytest.Module):
        _window_needs_rule(report, "the whole module")
    return report


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> pytest.TestReport:
    report = yield
    _window_needs_rule(report, item.name)
    return report


@pytest.fixture(scope="session")
def window():
    """One hidden 1280x720 window for every GUI test."""
    import arcade

    from game.common.settings import Settings
    from game.common.sound import SoundBoard
    from game.router import install

    win = install(arcade.Window(1280, 720, "Tarocchi tests", visible=False, antialiasing=False, vsync=False))
    win.settings = Settings()
    win.sound = SoundBoard(enabled=False)
    yield win
    win.close()


@pytest.fixture()
def home(tmp_path, monkeypatch):
    """A fresh user data folder for one test."""
    monkeypatch.setenv("TAROCCHI_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.fixture(scope="session")
def postgres():
    """A throw-away PostgreSQL cluster for the session (tests/support/pg_cluster.py): initdb
    in a temporary folder (as the ``postgres`` user when root), pg_ctl start on a
    free loopback port, stopped and removed at the end.  Without PostgreSQL the
    test is skipped naming the package (failed under CI: tests/support/prereq.py)."""
    from tests.support.pg_cluster import PgCluster
    from tests.support.prereq import POSTGRESQL_DIRS, require_program

    initdb = require_program("initdb", "postgresql", extra_dirs=POSTGRESQL_DIRS)
    require_program("pg_ctl", "postgresql", extra_dirs=POSTGRESQL_DIRS)
    cluster = PgCluster(initdb)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


_pg_databases = iter(range(1, 1_000_000))


@pytest.fixture
def pg_dsn(postgres) -> str:
    """A new empty database of the session's cluster (its URL)."""
    return postgres.new_database(f"t{next(_pg_databases)}")
