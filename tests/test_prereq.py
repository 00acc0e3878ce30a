"""The rule for system programs the tests need (tests/support/prereq.py): missing, a test
is skipped with one summary line naming the package to install, except under CI,
where it fails.  Tried on the real window tests with Xvfb hidden from PATH."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.prereq import find_program, require_program

ROOT = Path(__file__).resolve().parent.parent
WINDOW_TESTS = (
    "test_resized_window_is_letterboxed_and_f11_goes_fullscreen",
    "test_autoplay_under_xvfb",
    "test_table_in_a_window_redrawn_in_pieces_shows_the_whole_picture[retained-1280x720]",
    "test_table_in_a_window_redrawn_in_pieces_shows_the_whole_picture[fbo-1920x1080]",
)


def _pytest_without_xvfb(tmp_path: Path, ci: str | None) -> subprocess.CompletedProcess[str]:
    """tests/test_xvfb.py in a fresh pytest, its settings from pyproject.toml, with
    a PATH holding no program at all (so no xvfb-run, Xvfb or xauth)."""
    empty = tmp_path / "bin"
    empty.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTEST_ADDOPTS", "DISPLAY")}
    env["PATH"] = str(empty)
    if ci is not None:
        env["CI"] = ci
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                           "tests/test_xvfb.py"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.slow
def test_without_xvfb_the_window_tests_are_skipped_one_line_each(tmp_path: Path) -> None:
    r = _pytest_without_xvfb(tmp_path, ci=None)
    out = r.stdout
    assert r.returncode == 0, out + r.stderr
    assert "4 skipped" in out and "passed" not in out and "error" not in out, out
    skips = [line for line in out.splitlines() if line.startswith("SKIPPED")]
    assert len(skips) == len(WINDOW_TESTS), out
    for name, line in zip(WINDOW_TESTS, skips, strict=True):
        assert "tests/test_xvfb.py" in line and f": {name}: " in line, line
        assert "xvfb-run, Xvfb, xauth not found" in line, line
        assert line.endswith("`apt-get install -y xvfb xauth`"), line


@pytest.mark.slow
@pytest.mark.parametrize("ci", ["true", "1"])
def test_under_ci_a_missing_xvfb_fails_the_run_naming_the_packages(tmp_path: Path, ci: str) -> None:
    r = _pytest_without_xvfb(tmp_path, ci=ci)
    out = r.stdout
    assert r.returncode == 1, out + r.stderr
    assert "4 errors" in out and "skipped" not in out, out
    errors = [line for line in out.splitlines() if line.startswith("ERROR tests/test_xvfb.py::")]
    assert len(errors) == len(WINDOW_TESTS), out
    for line in errors:
        assert "apt-get install -y xvfb xauth" in line and "CI is set" in line, line


@pytest.mark.slow
def test_an_empty_ci_variable_is_not_ci(tmp_path: Path) -> None:
    r = _pytest_without_xvfb(tmp_path, ci="")
    assert r.returncode == 0 and "4 skipped" in r.stdout, r.stdout + r.stderr


def _program(folder: Path, name: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_find_program_searches_path_then_the_extra_folders_newest_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "path"))
    pg = tmp_path / "postgresql"
    old = _program(pg / "9.6" / "bin", "initdb")
    new = _program(pg / "16" / "bin", "initdb")
    assert find_program("initdb") is None
    assert find_program("initdb", [str(pg / "*" / "bin")]) == str(new)
    assert find_program("initdb", [str(pg / "9.6" / "bin")]) == str(old)
    assert find_program("initdb", [str(tmp_path / "nowhere" / "*")]) is None
    on_path = _program(tmp_path / "path", "initdb")
    assert find_program("initdb", [str(pg / "*" / "bin")]) == str(on_path)


def test_require_program_in_a_fixture_skips_or_fails_under_ci(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "path"))
    outcomes = (pytest.skip.Exception, pytest.fail.Exception)  # caught, so neither ends this test
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(outcomes) as missing:
        require_program("initdb", "postgresql", ["/nonexistent/*/bin"])
    assert missing.type is pytest.skip.Exception
    assert str(missing.value) == "initdb not found: install with `apt-get install -y postgresql`"
    monkeypatch.setenv("CI", "true")
    with pytest.raises(outcomes) as missing:
        require_program("initdb", "postgresql", ["/nonexistent/*/bin"])
    assert missing.type is pytest.fail.Exception
    assert "apt-get install -y postgresql" in str(missing.value) and "CI is set" in str(missing.value)
    found = _program(tmp_path / "pg" / "15" / "bin", "initdb")
    assert require_program("initdb", "postgresql", [str(tmp_path / "pg" / "*" / "bin")]) == str(found)


# Headless OpenGL (EGL) and a font are system libraries and files: without EGL the
# GUI test modules fail to import arcade, without a font any text fails.  The rule
# is applied to failures that show pyglet's or arcade's message, when the thing
# really is missing here: tried on tiny test files that raise those messages, with
# the check of the system faked (a plugin).
FAKE_GUI_MODULE = """raise ImportError('Library "EGL" not found.')  # as pyglet says it
"""
FAKE_WINDOW_TESTS = """import pytest

@pytest.fixture(scope="session")
def window():
    raise ImportError('Library "GL" not found.')

def test_needs_the_window(window):
    pass

def test_no_driver():
    raise RuntimeError("Unable to create an OpenGL 3.3+ context. Check to make sure ...")

def test_no_font():
    raise RuntimeError("Could not match font 'None'")  # as pyglet says it

def test_another_missing_library_is_a_failure():
    raise ImportError('Library "foo" not found.')

def test_passes():
    pass
"""
NO_GL_HERE = """import tests.support.prereq

tests.support.prereq.headless_gl_probe = lambda: 'Library "EGL" not found'
tests.support.prereq.font_probe = lambda: 'no DejaVuSans.ttf'
"""
GL_INSTALL = "`apt-get install -y libegl1 libgl1 libgl1-mesa-dri`"


def _pytest_on_fakes(tmp_path: Path, files: list[str], ci: str | None,
                     gl_here: bool = False) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_fake_gui.py").write_text(FAKE_GUI_MODULE)
    (tmp_path / "test_fake_window.py").write_text(FAKE_WINDOW_TESTS)
    (tmp_path / "no_gl_here.py").write_text(NO_GL_HERE)
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTEST_ADDOPTS")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(tmp_path)])
    if ci is not None:
        env["CI"] = ci
    plugins = ["-p", "tests.conftest"] + ([] if gl_here else ["-p", "no_gl_here"])
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *plugins,
                           "-rfEs", "--rootdir", str(tmp_path), *files], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_without_headless_opengl_the_gui_tests_are_skipped_naming_the_packages(tmp_path: Path) -> None:
    r = _pytest_on_fakes(tmp_path, ["test_fake_gui.py", "test_fake_window.py"], ci=None)
    out = r.stdout
    assert r.returncode == 1, out + r.stderr  # the unrelated failure stays one
    assert "1 failed, 1 passed, 4 skipped" in out, out
    skips = sorted(line for line in out.splitlines() if line.startswith("SKIPPED"))
    reason = f'no headless OpenGL (Library "EGL" not found): install with {GL_INSTALL}'
    assert skips == [
        f"SKIPPED [1] test_fake_gui.py: the whole module: {reason}",
        f"SKIPPED [1] test_fake_window.py: test_needs_the_window: {reason}",
        f"SKIPPED [1] test_fake_window.py: test_no_driver: {reason}",
        "SKIPPED [1] test_fake_window.py: test_no_font: no font (no DejaVuSans.ttf): "
        "install with `apt-get install -y fonts-dejavu-core`",
    ], out
    assert "FAILED test_fake_window.py::test_another_missing_library_is_a_failure" in out, out


@pytest.mark.slow
def test_under_ci_missing_headless_opengl_fails_naming_the_packages(tmp_path: Path) -> None:
    r = _pytest_on_fakes(tmp_path, ["test_fake_gui.py"], ci="true")
    assert r.returncode == 2 and "1 error during collection" in r.stdout, r.stdout + r.stderr
    assert f"install with {GL_INSTALL} (CI is set" in r.stdout, r.stdout
    r = _pytest_on_fakes(tmp_path, ["test_fake_window.py"], ci="true")
    out = r.stdout
    assert r.returncode == 1 and "3 failed, 1 passed, 1 error" in out and "skipped" not in out, out
    assert out.count(f"install with {GL_INSTALL} (CI is set") == 2, out
    assert out.count("install with `apt-get install -y fonts-dejavu-core` (CI is set") == 1, out


@pytest.mark.slow
def test_where_a_window_opens_and_the_font_is_there_those_messages_are_failures(tmp_path: Path) -> None:
    # here (the suite's own machine) the check opens a real headless window, and
    # the font is installed
    r = _pytest_on_fakes(tmp_path, ["test_fake_window.py"], ci=None, gl_here=True)
    out = r.stdout
    assert r.returncode == 1 and "3 failed, 1 passed, 1 error" in out and "skipped" not in out, out
