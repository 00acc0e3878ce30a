"""System programs the tests need that ``pip install -e '.[test]'`` cannot bring.

A few tests drive programs that come from the system's packages, not from pip:
``xvfb-run``, ``Xvfb`` and ``xauth`` for the window tests (tests/test_xvfb.py),
and later ``initdb``/``pg_ctl`` for PostgreSQL.  The rule for all of them:

- the program is found (on ``PATH``, or in one of the extra folders given):
  the test runs;
- it is missing and ``CI`` is set (non-empty) in the environment: the test
  fails, naming the Debian package to install (CI must run every test; .ci/run
  installs the packages);
- it is missing otherwise (a newcomer's machine): the test is skipped, and the
  reason names the package, printed in pytest's short summary (``-rfEs`` in
  pyproject.toml), one line per test.

Two ways to ask for a program, both applying the rule above:

- the marker, for whole tests or modules (the usual way)::

      pytestmark = pytest.mark.requires_program("xvfb-run", "xvfb")

      @pytest.mark.requires_program("initdb", "postgresql", extra_dirs=PG_BIN)
      def test_...

  ``tests/conftest.py`` checks it at collection: a skip is reported at the
  test's own line, a failure under CI at the test's set-up.  Several markers on
  one test give one line naming everything missing.  ``requires_file(path,
  package)`` does the same for a file a package installs (the DejaVu fonts of
  art/generate.py: ``DEJAVU``);
- ``require_program(name, package, extra_dirs=...)`` inside a fixture or a
  test, which also returns the program's full path (e.g. a PostgreSQL fixture
  that runs ``initdb``).  A skip is then reported at this module's line.

``extra_dirs`` are folders searched after ``PATH``, for programs that Debian
installs off it; they may hold glob patterns, the newest match first, e.g.
``("/usr/lib/postgresql/*/bin",)`` for ``initdb`` and ``pg_ctl`` (package
``postgresql``).

Headless OpenGL (``libegl1 libgl1 libgl1-mesa-dri``) and a font
(``fonts-dejavu-core``) follow the same rule, but as libraries that ``import
arcade`` or any text needs, they are not asked for: a module or test that fails
with pyglet's or arcade's message for them, where they really are missing, is
skipped (failed under CI) by ``tests/conftest.py``; see ``window_needs_missing``.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable, Sequence

import pytest

# The window tests' programs and the Debian packages that bring them.
XVFB = (("xvfb-run", "xvfb"), ("Xvfb", "xvfb"), ("xauth", "xauth"))
# The fonts art/generate.py draws the cards with (without them it falls back to
# Pillow's own font, and its pictures differ from the committed ones).
DEJAVU = (("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", "fonts-dejavu-core"),
          ("/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf", "fonts-dejavu-core"))
# PostgreSQL's server programs are not on PATH in Debian: search these too.
POSTGRESQL_DIRS = ("/usr/lib/postgresql/*/bin",)


def under_ci() -> bool:
    """True when ``CI`` is set to anything non-empty (as CI services and .ci/run do)."""
    return bool(os.environ.get("CI"))


def _version_key(path: str) -> list[tuple[int, str]]:
    # "/usr/lib/postgresql/16/bin" after ".../9.6/bin": numbers compared as numbers
    return [(int(part), "") if part.isdigit() else (-1, part) for part in re.split(r"(\d+)", path)]


def _folders(extra_dirs: Iterable[str]) -> list[str]:
    found: list[str] = []
    for pattern in extra_dirs:
        wild = any(c in pattern for c in "*?[")
        matches = sorted(glob.glob(pattern), key=_version_key, reverse=True) if wild else [pattern]
        found.extend(m for m in matches if os.path.isdir(m))
    return found


def find_program(name: str, extra_dirs: Iterable[str] = ()) -> str | None:
    """The full path of program ``name`` on ``PATH`` or in ``extra_dirs``, or None."""
    path = shutil.which(name)
    if path:
        return path
    for folder in _folders(extra_dirs):
        path = shutil.which(name, path=folder)
        if path:
            return path
    return None


def missing_message(missing: Sequence[tuple[str, str]]) -> str:
    """One line: the missing programs (or files) and the apt command that installs
    them.  ``missing`` holds (program or file, Debian package) pairs."""
    programs = ", ".join(name for name, _ in missing)
    packages = " ".join(dict.fromkeys(package for _, package in missing))
    return f"{programs} not found: install with `apt-get install -y {packages}`"


def outcome_for_missing(missing: Sequence[tuple[str, str]]) -> tuple[str, str]:
    """("fail" under CI, else "skip") and the one-line reason, for missing programs."""
    message = missing_message(missing)
    if under_ci():
        return "fail", f"{message} (CI is set: every test must run)"
    return "skip", message


def require_program(name: str, debian_package: str, extra_dirs: Iterable[str] = ()) -> str:
    """The path of program ``name``; if it is missing, skip the test, or fail it under CI.

    For use in a fixture or a test; see the module's docstring (and the
    ``requires_program`` marker for whole tests)."""
    path = find_program(name, extra_dirs)
    if path:
        return path
    outcome, reason = outcome_for_missing([(name, debian_package)])
    if outcome == "fail":
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


# What the table's window needs from the system: headless OpenGL (EGL) and a
# font.  These are libraries that ``import arcade`` or any text drawn needs, in
# most GUI tests, so they are not asked for by a marker: the rule is applied to
# the failures (conftest.py's report hooks).  A failure that shows pyglet's or
# arcade's own message for one of them, on a system where it really is missing
# (checked once), means "install".
HEADLESS_GL_PACKAGES = ("libegl1", "libgl1", "libgl1-mesa-dri")
_HEADLESS_GL_ERRORS = re.compile(
    r'Library "(?:EGL|GL)" not found'  # pyglet: libEGL.so.1 / libGL.so.1 missing
    r"|Unable to create an OpenGL 3\.3\+ context"  # arcade: no Mesa driver
)
_NO_FONT_ERROR = re.compile(r"Could not match font")  # pyglet: no font at all
DEJAVU_SANS = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"  # the table's font
_PROBE = "import arcade; arcade.Window(64, 64, 'probe', visible=False).close()"
_probed: list[str | None] = []


def headless_gl_probe() -> str | None:
    """None if an Arcade window opens here (as the GUI tests open it), else the
    message saying why not.  Run once, in a subprocess (a second or two)."""
    if not _probed:
        r = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True,
                           timeout=120)
        found = _HEADLESS_GL_ERRORS.search(r.stderr)
        # a window that fails for another reason is not a missing package
        _probed.append(found.group(0) if r.returncode != 0 and found else None)
    return _probed[0]


def font_probe() -> str | None:
    """None if the table's font is installed, else why not."""
    return None if os.path.isfile(DEJAVU_SANS) else f"no {os.path.basename(DEJAVU_SANS)}"


def window_needs_missing(text: str) -> str | None:
    """The one-line reason if ``text`` (a failure's report) says headless OpenGL or
    the font is missing and it really is missing from the system, else None."""
    for errors, probe, what, packages in (
            (_HEADLESS_GL_ERRORS, headless_gl_probe, "no headless OpenGL", HEADLESS_GL_PACKAGES),
            (_NO_FONT_ERROR, font_probe, "no font", ("fonts-dejavu-core",))):
        if errors.search(text):
            missing = probe()
            if missing is not None:
                return f"{what} ({missing}): install with `apt-get install -y {' '.join(packages)}`"
    return None
