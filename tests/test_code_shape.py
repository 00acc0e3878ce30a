"""The shape of the code, counted on its syntax tree: every class readable in one
sitting (at most 400 lines, its methods and nested classes included), the
table asking its session what it needs instead of asking what class it is, no
parameter or field that defaults to a game, and the games and the AI levels
each listed in one place, where they are found by name.

Functions have their own count (at most 60 lines, outside the AI's measured
kernels): ``tests/test_function_length.py``.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

MAX_CLASS_LINES = 400

#: The packages walked: all of the project's Python.
SCOPE: tuple[str, ...] = ("engine", "online", "art", "sounds", "game", "tests")

#: (file, class): the classes still over MAX_CLASS_LINES while they are being split
#: into rooms of their own.  Each is taken off the list once it fits (a test says so).
STILL_TO_SPLIT: tuple[tuple[str, str], ...] = ()


def class_lengths(packages: tuple[str, ...], root: Path = ROOT) -> list[tuple[str, str, int, int]]:
    """(file, qualified class name, first line, length in lines) of every class
    under ``packages``, nested ones too (counted inside their parent as well)."""
    out = []
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            tree = ast.parse(path.read_text(encoding="utf-8"), rel)
            out += [(rel, name, line, n) for name, line, n in _classes(tree, "")]
    return out


def _classes(node: ast.AST, prefix: str) -> list[tuple[str, int, int]]:
    out = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.ClassDef):
            assert child.end_lineno is not None
            out.append((prefix + child.name, child.lineno, child.end_lineno - child.lineno + 1))
            out += _classes(child, prefix + child.name + ".")
        elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
            out += _classes(child, prefix + child.name + ".")
        else:
            out += _classes(child, prefix)
    return out


def classes_over(packages: tuple[str, ...], root: Path = ROOT) -> list[tuple[str, str, int, int]]:
    """The classes longer than MAX_CLASS_LINES that are not listed as still to split."""
    listed = set(STILL_TO_SPLIT)
    return [x for x in class_lengths(packages, root) if x[3] > MAX_CLASS_LINES and x[:2] not in listed]


@pytest.mark.slow
def test_every_class_reads_in_one_sitting() -> None:
    offenders = classes_over(SCOPE)
    for rel, name, line, length in offenders:
        print(f"{rel}:{line}: class {name} is {length} lines (at most {MAX_CLASS_LINES})")
    assert not offenders, f"{len(offenders)} classes over {MAX_CLASS_LINES} lines (printed above)"


@pytest.mark.slow
def test_each_class_still_to_split_exists_and_is_still_long() -> None:
    """A class that fits now (split, renamed, removed) is taken off the list, so
    the list stays the truth."""
    lengths = {(rel, name): n for rel, name, _line, n in class_lengths(SCOPE)}
    for rel, name in STILL_TO_SPLIT:
        assert (rel, name) in lengths, f"{rel}: no class {name} (take it off STILL_TO_SPLIT)"
        assert lengths[rel, name] > MAX_CLASS_LINES, f"{rel}: {name} fits now (take it off STILL_TO_SPLIT)"


def isinstance_of(tree: ast.AST, class_name: str) -> list[int]:
    """The lines of ``tree`` that call ``isinstance(x, ...)`` naming ``class_name``
    (alone, in a tuple, or as an attribute ``module.class_name``)."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance" \
                and len(node.args) == 2:
            names = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)}
            names |= {n.attr for n in ast.walk(node.args[1]) if isinstance(n, ast.Attribute)}
            if class_name in names:
                lines.append(node.lineno)
    return lines


@pytest.mark.slow
def test_the_table_asks_its_session_not_its_class() -> None:
    """The session protocol (game/table/table_session.py) says everything the table
    needs (its AI seats, undo, the file it is logged to): no code of game/ asks
    whether a session is a LocalSession."""
    found = []
    for path in sorted((ROOT / "game").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{path.relative_to(ROOT)}:{line}" for line in isinstance_of(tree, "LocalSession")]
    assert not found, found


def test_the_counts_find_long_classes_and_isinstance_checks(tmp_path: Path) -> None:
    """The counts themselves: a 401-line class is over, a 400-line one is not, a
    class nested in a function is found by its qualified name; isinstance with
    the class alone, in a tuple or through its module is found, a mere mention
    is not."""
    body = "".join(f"    x{i} = {i}\n" for i in range(399))
    nested = "".join(f"        x{i} = {i}\n" for i in range(400))
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.py").write_text(
        f"class Long:\n{body}    y = 0\n\n\nclass Short:\n{body}\n\n"
        f"def f():\n    class Inner:\n{nested}    return Inner\n"
    )
    found = {(name, n) for _rel, name, _line, n in classes_over(("pkg",), tmp_path)}
    assert found == {("Long", 401), ("f.Inner", 401)}
    code = ("isinstance(s, LocalSession)\nisinstance(s, (Game, LocalSession))\n"
            "isinstance(s, table_session.LocalSession)\nisinstance(s, Game)\nLocalSession(g)\n")
    assert isinstance_of(ast.parse(code), "LocalSession") == [1, 2, 3]


@pytest.mark.slow
def test_a_misspelt_kind_fails_the_type_check(tmp_path: Path) -> None:
    """The table's kinds are Literal types: a notice, a step, a scene, a wait, a tone,
    a page or a choice spelt wrong is an error of mypy (strict), one spelt right is
    not."""
    import subprocess
    import sys

    code = '''from game.table.deal_end import DealEnd
from game.table.table_api import Step
from game.table.table_controller import TableController
from game.table.table_session import Notice


def right(c: TableController, s: Step, e: DealEnd) -> bool:
    Notice("refused")
    c.say(None, "error")
    e.choose("tricks")
    return s.kind == "take" or c.scene == "exchange" or c.waiting == "trick-go" or e.page == "piles"


def wrong(c: TableController, s: Step, e: DealEnd) -> bool:
    Notice("refuesd")
    c.say(None, "eror")
    e.choose("trick")
    return s.kind == "deall" or c.scene == "exchang" or c.waiting == "trick_go" or e.page == "pile"
'''
    path = tmp_path / "kinds.py"
    path.write_text(code)
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-incremental",
                        str(path)], cwd=ROOT, capture_output=True, text=True)
    print(r.stdout)
    lines = {int(line.split(":")[1]) for line in r.stdout.splitlines() if line.startswith(str(path))}
    first_wrong = code.splitlines().index("def wrong(c: TableController, s: Step, e: DealEnd) -> bool:") + 1
    assert lines and min(lines) > first_wrong, "a kind spelt right was refused"
    assert lines == {first_wrong + 1, first_wrong + 2, first_wrong + 3, first_wrong + 4}, r.stdout


# --- the engine knows no game by default ------------------------------------------------

#: the packages where no parameter or field defaults to a game
GAME_AGNOSTIC = ("engine", "online", "game")


def _default_nodes(tree: ast.AST) -> list[tuple[ast.expr, int]]:
    """Every default in ``tree``, with its line: the parameters' defaults, the
    class-level fields' values (dataclass and NamedTuple fields),
    ``field(default=...)`` and the fallbacks of ``x or fallback``."""
    out: list[tuple[ast.expr, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            for d in [*node.args.defaults, *node.args.kw_defaults]:
                if d is not None:
                    out.append((d, d.lineno))
        elif isinstance(node, ast.ClassDef):
            for stmt in node.body:
                if isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                    out.append((stmt.value, stmt.lineno))
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "field":
            out += [(k.value, k.value.lineno) for k in node.keywords if k.arg == "default"]
        elif isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
            out += [(v, v.lineno) for v in node.values[1:]]
    return out


def _names_a_game(expr: ast.expr, constants: set[str], games: set[str]) -> bool:
    """Whether ``expr`` is a ruleset (a game's constant, ``ruleset(...)``) or a
    game's name."""
    if isinstance(expr, ast.Name | ast.Attribute):
        return (expr.id if isinstance(expr, ast.Name) else expr.attr) in constants
    if isinstance(expr, ast.Call):
        return getattr(expr.func, "id", getattr(expr.func, "attr", "")) == "ruleset"
    return isinstance(expr, ast.Constant) and expr.value in games


def _ruleset_constants() -> set[str]:
    """The module-level names the game modules give their rulesets (PIEDICAVALLO...)."""
    import engine.variants
    from engine.variants import VARIANTS

    out = set()
    for path in (ROOT / "engine" / "variants").glob("*.py"):
        module = __import__(f"engine.variants.{path.stem}", fromlist=["_"])
        out |= {k for k, v in vars(module).items() if any(v is r for r in VARIANTS)}
    out |= {k for k, v in vars(engine.variants).items() if any(v is r for r in VARIANTS)}
    assert {"PIEDICAVALLO", "SCARTO"} <= out, out  # the walk finds the constants
    return out


def games_by_default(packages: tuple[str, ...], root: Path = ROOT,
                     names_too: tuple[str, ...] = ("engine", "online")) -> list[str]:
    """``file:line`` of every default that is a ruleset under ``packages`` (and,
    under ``names_too``, a game's name as a string)."""
    from engine.ruleset import variant_names

    constants = _ruleset_constants()
    out = []
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            games = set(variant_names()) if rel.split("/")[0] in names_too else set()
            for expr, line in _default_nodes(ast.parse(path.read_text(encoding="utf-8"))):
                if _names_a_game(expr, constants, games):
                    out.append(f"{rel}:{line}")
    return out


@pytest.mark.slow
def test_no_parameter_or_field_defaults_to_a_game() -> None:
    """Every ruleset is passed: ``Game(seed, deals, rules=...)``, never a
    Piedicavallo assumed by ``rules: Ruleset = PIEDICAVALLO``."""
    assert games_by_default(GAME_AGNOSTIC) == []


def test_the_default_finder_finds_a_default(tmp_path: Path) -> None:
    pkg = tmp_path / "engine"
    pkg.mkdir()
    (pkg / "bad.py").write_text(
        "from dataclasses import dataclass, field\n"
        "def f(rules=PIEDICAVALLO): ...\n"
        "def g(*, rules=ruleset('scarto')): ...\n"
        "def h(variant: str = 'piedicavallo'): ...\n"
        "@dataclass\nclass S:\n    rules: object = SCARTO\n"
        "    other: object = field(default=variants.PIEDICAVALLO)\n"
        "def k(rules=None, n=4, name='random'):\n    return rules or ruleset('piedicavallo')\n"
        "def ok(rules, n=4, name='random', pack=PACK):\n    return rules or n\n"
    )
    assert games_by_default(("engine",), tmp_path) == [
        "engine/bad.py:2", "engine/bad.py:3", "engine/bad.py:4", "engine/bad.py:7", "engine/bad.py:8",
        "engine/bad.py:10",
    ]


# --- the games and the levels: one list each, found by name -------------------------------

REGISTRY_CHECK = """
import pickle, sys
from engine.ruleset import ruleset, variant_names
from engine.players import level_names, make_player
from engine.cards import CardSet

assert variant_names() == ["piedicavallo", "scarto"], variant_names()
assert level_names() == ["random", "easy", "medium", "hard"], level_names()
assert "engine.ai" not in sys.modules  # the names cost no import of the AI
for name in variant_names():
    rules = ruleset(name)
    assert rules.name == name and pickle.loads(pickle.dumps(rules)) is rules
    assert str(CardSet.parse("SK M", name)) == "M SK"
for level in level_names():
    assert make_player(level).name == level
for find, bad in ((ruleset, "chess"), (make_player, "expert")):
    try:
        find(bad)
    except ValueError as exc:
        print(exc)
    else:
        raise AssertionError(bad)
"""


def test_every_game_and_level_is_found_by_name_in_a_fresh_interpreter() -> None:
    """Nothing needs importing first (no game or level registers itself on import):
    the lists alone find every game and level."""
    r = subprocess.run([sys.executable, "-c", REGISTRY_CHECK], cwd=ROOT, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines() == [
        "unknown variant 'chess': this program plays 'piedicavallo', 'scarto'",
        "unknown player level 'expert'; choose from random, easy, medium, hard",
    ]


def every_name_lists(packages: tuple[str, ...], names: set[str], root: Path = ROOT) -> list[str]:
    """``file:line`` of every tuple, list or set written out under ``packages``
    that holds all of ``names`` (a table keyed by name, one entry a game, is the
    game's own data and is not counted)."""
    out = []
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Tuple | ast.List | ast.Set):
                    held = {e.value for e in node.elts if isinstance(e, ast.Constant)}
                    if names <= held:
                        out.append(f"{path.relative_to(root).as_posix()}:{node.lineno}")
    return out


@pytest.mark.slow
def test_the_games_and_levels_are_listed_in_one_place_each() -> None:
    """Code that goes over every game or level asks the lists
    (``variant_names()``, ``level_names()``): a new game or level is added in
    one place."""
    from engine.players import level_names
    from engine.ruleset import variant_names

    assert every_name_lists(GAME_AGNOSTIC, set(variant_names())) == []
    assert every_name_lists(GAME_AGNOSTIC, set(level_names()) - {"random"}) == []
