"""Every command refuses nonsense in one line.

Every numeric and path option of every command is fed bad values of each kind
(zero, negative, huge, not a number, nan and inf, a file for a folder, a folder
for a file, a folder that does not exist): argparse must refuse each with exit
code 2, no traceback, and one error line naming the option, at once.  The
parser runs in-process (fast, drawn by hypothesis); the cases that once gave a
traceback, a hang or a nonsense run run as a user would, in a subprocess with a
timeout."""

from __future__ import annotations

import atexit
import contextlib
import io
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import argtypes
from game.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "match-seed-7.jsonl"

#: scratch paths: a file, a folder, a folder that does not exist
SCRATCH = Path(tempfile.mkdtemp(prefix="tarocchi-badargs-"))
atexit.register(shutil.rmtree, SCRATCH, True)
A_FILE = SCRATCH / "a-file.txt"
A_FILE.write_text("x")
A_FOLDER = SCRATCH / "a-folder"
A_FOLDER.mkdir()
MISSING = SCRATCH / "missing" / "deeper"

# (command words, options needed to parse, option, kind)
OPTIONS: list[tuple[list[str], list[str], str, str]] = [
    (["check", str(GOLDEN)], [], "--at", "index"),
    (["simulate"], ["--games", "1", "--seed", "1", "--out", str(A_FOLDER)], "--games", "count"),
    (["simulate"], ["--games", "1", "--seed", "1", "--out", str(A_FOLDER)], "--seed", "seed"),
    (["simulate"], ["--games", "1", "--seed", "1", "--out", str(A_FOLDER)], "--out", "out_dir"),
    (["simulate"], ["--games", "1", "--seed", "1", "--out", str(A_FOLDER)], "--budget-ms", "count"),
    (["simulate"], ["--games", "1", "--seed", "1", "--out", str(A_FOLDER)], "--budget-rounds", "count"),
    (["simulate"], ["--games", "1", "--seed", "1", "--out", str(A_FOLDER)], "--jobs", "count"),
    (["review", str(GOLDEN)], [], "--seat", "seat"),
    (["review", str(GOLDEN)], [], "--seed", "seed"),
    (["bench", "engine"], [], "--seconds", "seconds"),
    (["tournament"], ["--a", "easy", "--b", "easy", "--deals", "1", "--seed", "1"], "--deals", "count"),
    (["tournament"], ["--a", "easy", "--b", "easy", "--deals", "1", "--seed", "1"], "--seed", "seed"),
    (["tournament"], ["--a", "easy", "--b", "easy", "--deals", "1", "--seed", "1"], "--budget-ms", "count"),
    (["tournament"], ["--a", "easy", "--b", "easy", "--deals", "1", "--seed", "1"], "--replays", "out_dir"),
    (["tournament"], ["--a", "easy", "--b", "easy", "--deals", "1", "--seed", "1"], "--budget-rounds",
     "count"),
    (["tournament"], ["--a", "easy", "--b", "easy", "--deals", "1", "--seed", "1"], "--workers", "count"),
    (["bench", "ai"], ["--level", "easy"], "--decisions", "count"),
    (["bench", "ai"], ["--level", "easy"], "--budget-ms", "count"),
    (["bench", "ai"], ["--level", "easy"], "--budget-rounds", "count"),
    (["bench", "ai"], ["--level", "easy"], "--seed", "seed"),
    (["autoplay"], [], "--deals", "count"),
    (["autoplay"], [], "--seed", "seed"),
    (["autoplay"], [], "--speed", "speed"),
    (["autoplay"], [], "--screenshots", "new_dir"),
    (["replay", str(GOLDEN)], [], "--at", "index"),
    (["replay", str(GOLDEN)], [], "--screenshot", "out_file"),
    # online play: the server, the bot, the server's bench
    (["serve"], [], "--port", "index"),
    (["serve"], [], "--ai-workers", "count"),
    (["serve"], [], "--data", "out_dir"),
    (["bot"], ["--server", "ws://127.0.0.1:1", "--code", "ABCDEF"], "--seat", "seat"),
    (["bench", "server"], ["--tables", "1"], "--tables", "count"),
    (["bench", "server"], ["--tables", "1"], "--timeout", "seconds"),
    (["bench", "server"], ["--tables", "1"], "--out", "out_dir"),
    (["serve"], [], "--per-address-connections", "count"),
    (["serve"], [], "--per-address-lobbies", "count"),
    (["serve"], [], "--wrong-codes", "count"),
    (["bench", "soak"], [], "--games", "count"),
    (["bench", "soak"], [], "--at-once", "count"),
]

NOT_NUMBERS = ["", " ", "abc", "1.5x", "0x10", "--", "1e", "None", "[]", "½"]
NON_FINITE = ["nan", "NaN", "inf", "-inf", "Infinity", "1e999", "-1e999"]
HUGE = ["10" + "0" * 30, "9" * 400, "1" + "0" * 5000, str(2**63), str(2**64)]


def _bad_values(kind: str) -> st.SearchStrategy[str]:
    """Text values each option of ``kind`` must refuse."""
    texts = st.sampled_from(NOT_NUMBERS) | st.text(
        st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=12
    ).filter(lambda t: not _is_int(t) and not _is_float(t))
    if kind in ("count", "index", "seed", "seat"):
        lo = {"count": 1, "index": 0, "seed": 0, "seat": 0}[kind]
        cap = {"count": 10**5 * 100, "index": argtypes.MAX_EVENTS, "seed": argtypes.MAX_SEED, "seat": 3}[kind]
        return (st.integers(max_value=lo - 1).map(str) | st.integers(min_value=cap + 1).map(str)
                | st.sampled_from(HUGE + NON_FINITE + ["1.5", "2.0", "1e3", "-0.5"]) | texts)
    if kind in ("seconds", "speed"):
        lo, hi = (0.0, argtypes.MAX_SECONDS) if kind == "seconds" else (0.0, argtypes.MAX_SPEED)
        low = st.floats(max_value=lo, allow_nan=False) if kind == "seconds" else \
            st.floats(max_value=argtypes.MIN_SPEED, exclude_max=True, allow_nan=False)
        high = st.floats(min_value=hi, exclude_min=True, allow_nan=False)
        return low.map(repr) | high.map(repr) | st.sampled_from(NON_FINITE + HUGE + ["0", "-1", "0.0"]) | texts
    if kind == "out_dir":  # a folder to write into: not a file, nor under one
        return st.sampled_from([str(A_FILE), str(A_FILE / "sub"), str(A_FILE / "a" / "b"), ""])
    if kind == "new_dir":  # a folder made only inside an existing one
        return st.sampled_from([str(A_FILE), str(A_FILE / "sub"), str(MISSING), ""])
    if kind == "out_file":  # a file to write, its folder existing
        return st.sampled_from([str(A_FOLDER), str(A_FOLDER) + "/", str(MISSING / "x.png"),
                                str(A_FILE / "x.png"), "", "/dev/null/x.png"])
    raise AssertionError(kind)


def _is_int(t: str) -> bool:
    try:
        int(t.strip().replace("_", ""))
    except ValueError:
        return False
    return True


def _is_float(t: str) -> bool:
    try:
        float(t)
    except ValueError:
        return False
    return True


def _parse(argv: list[str]) -> tuple[int | None, str]:
    """Parse ``argv`` as ``tarocchi`` does; (exit code or None if accepted, stderr)."""
    err = io.StringIO()
    code: int | None = None
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            build_parser(argv).parse_args(argv)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    return code, err.getvalue()


def _assert_refused(argv: list[str], option: str, value: str) -> None:
    t0 = time.perf_counter()
    code, err = _parse(argv)
    assert time.perf_counter() - t0 < 5, argv
    assert code == 2, (argv, err)
    assert "Traceback" not in err
    errors = [line for line in err.splitlines() if "error:" in line]
    assert len(errors) == 1, err
    assert err.rstrip("\n").splitlines()[-1] == errors[0]  # the last line says it
    assert f"argument {option}:" in errors[0], errors[0]
    assert len(errors[0]) < 400  # a 5,000-digit value is cut short


@pytest.mark.parametrize("words,needed,option,kind", OPTIONS, ids=[f"{' '.join(o[0][:2])} {o[2]}" for o in OPTIONS])
def test_sensible_values_are_accepted(words, needed, option, kind) -> None:
    good = {"count": "1", "index": "0", "seed": "7", "seat": "1", "seconds": "0.5", "speed": "2",
            "out_dir": str(SCRATCH / "new" / "folder"), "new_dir": str(SCRATCH / "shots"),
            "out_file": str(SCRATCH / "out.png")}[kind]
    code, err = _parse([*words, *needed, option, good])
    assert code is None, err
    assert not (SCRATCH / "new").exists() and not (SCRATCH / "shots").exists()  # checked, not made


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), case=st.sampled_from(OPTIONS))
def test_every_option_refuses_nonsense_in_one_line(data, case) -> None:
    words, needed, option, kind = case
    value = data.draw(_bad_values(kind), label="value")
    # the option given last (the parser takes the last of a repeated option)
    _assert_refused([*words, *needed, option, value], option, value)


@pytest.mark.parametrize("words,needed,option,kind", OPTIONS, ids=[f"{' '.join(o[0][:2])} {o[2]}" for o in OPTIONS])
def test_every_option_refuses_each_kind(words, needed, option, kind) -> None:
    """Each kind of nonsense at least once for every option (hypothesis draws more)."""
    if kind in ("count", "index", "seed", "seat"):
        values = ["-1", "1.5", "nan", "abc", "9" * 400, "1" + "0" * 5000]
        if kind in ("count",):
            values.append("0")
    elif kind in ("seconds", "speed"):
        values = ["0", "-1", "nan", "inf", "-inf", "1e999", "abc", "1e9"]
    else:
        values = {"out_dir": [str(A_FILE), str(A_FILE / "sub"), ""],  # made with its parents
                  "new_dir": [str(A_FILE), str(MISSING / "x"), ""],  # made only in an existing folder
                  "out_file": [str(A_FOLDER), str(MISSING / "x.png"), str(A_FILE / "x.png"), ""]}[kind]
    for v in values:
        _assert_refused([*words, *needed, option, v], option, v)


# --- as a user would: the cases the trials found -------------------------------------------------


def _run(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ARCADE_HEADLESS": "1"}
    return subprocess.run([sys.executable, "-m", "game.cli", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


KNOWN = [
    (["bench", "engine", "--seconds", "nan"], "--seconds"),  # never ended
    (["bench", "engine", "--seconds", "-1"], "--seconds"),  # ran
    (["tournament", "--a", "hard", "--b", "easy", "--deals", "1", "--seed", "1",
      "--budget-rounds", "1000000000000"], "--budget-rounds"),  # never ended
    (["bench", "ai", "--level", "easy", "--decisions", "0"], "--decisions"),  # traceback
    (["simulate", "--games", "0", "--seed", "1", "--out", str(A_FOLDER)], "--games"),  # ran
    (["simulate", "--games", "1", "--seed", "1", "--out", str(A_FILE)], "--out"),  # traceback
    (["tournament", "--a", "easy", "--b", "easy", "--deals", "-1", "--seed", "1"], "--deals"),
    (["tournament", "--a", "easy", "--b", "easy", "--deals", "1", "--seed", "1", "--workers", "-2"],
     "--workers"),
    (["autoplay", "--speed", "0"], "--speed"),  # traceback
    (["autoplay", "--speed", "nan"], "--speed"),  # traceback
    (["autoplay", "--deals", "9" * 30], "--deals"),  # traceback
    (["replay", str(GOLDEN), "--screenshot", str(MISSING / "x.png")], "--screenshot"),  # folder made
]


@pytest.mark.slow
@pytest.mark.parametrize("argv,option", KNOWN, ids=[" ".join(a[:1] + [o]) for a, o in KNOWN])
def test_the_cases_found_are_refused_as_a_user_would_see(argv, option) -> None:
    r = _run(*argv)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    last = r.stderr.rstrip("\n").splitlines()[-1]
    assert last.startswith(f"tarocchi {argv[0]}") and f"error: argument {option}:" in last, r.stderr
    assert not MISSING.parent.exists()  # nothing made for a refused path


def test_the_validators_read_numbers_as_people_type_them() -> None:
    c = argtypes.count(100)
    assert [c(t) for t in ("1", " 7 ", "+7", "007", "0" * 5000 + "5", "1_0", "100")] == [1, 7, 7, 7, 5, 10, 100]
    assert argtypes.seed(str(argtypes.MAX_SEED)) == argtypes.MAX_SEED
    assert argtypes.index(3)("-0") == 0
    assert argtypes.speed("0.25") == 0.25 and argtypes.speed("8") == 8.0
    assert argtypes.seconds("1e-3") == 0.001
    for bad, why in [("", "must be a whole number"), ("-", "must be a whole number"),
                     ("101", "must be at most 100"), ("9" * 5000, "must be at most 100"),
                     ("-" + "9" * 5000, "must be a positive whole number")]:
        with pytest.raises(argtypes.Error, match=why):
            c(bad)
