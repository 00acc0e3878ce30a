"""The one-way arrows (docs/ARCHITECTURE.md), kept by import-linter: the
contracts in pyproject.toml's ``[tool.importlinter]`` (game over online over
engine; inside game/ the commands over the window over the router over the
screens over the table over the shared pieces; no screen importing another;
engine/ and online/ importing no arcade, pyglet, PIL nor game/).  And no import
circle between modules (``python -m tests.import_cycles``).  The two runtime
tests check what importing engine/ and online/ really loads."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from tests import import_cycles

ROOT = Path(__file__).resolve().parent.parent
#: import-linter's command (``lint-imports``), run by this interpreter
LINT_IMPORTS = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"


def test_the_import_contracts_are_kept() -> None:
    r = subprocess.run([sys.executable, "-c", LINT_IMPORTS, "--no-cache"], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Contracts: 7 kept, 0 broken." in r.stdout, r.stdout  # every contract was read and checked


def test_no_import_cycle_between_modules() -> None:
    """game/, online/ and engine/: no strongly connected component of more than one module."""
    report = import_cycles.report(("game", "online", "engine"))
    assert report["count"] == 0, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in report["cycles"])


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}, "f": {"d"}}
    assert import_cycles.cycles(graph) == [["a", "b", "c"]]


def test_engine_runs_without_ui_modules() -> None:
    code = (
        "import sys, engine.cli, engine.game, engine.replay, engine.players\n"
        "engine.players.level_names()\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('arcade', 'pyglet', 'PIL')]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_online_runs_without_ui_modules() -> None:
    code = (
        "import sys, online.server, online.client, online.bot, online.bench, online.cli\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('arcade', 'pyglet', 'PIL', 'game')]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


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


def test_the_games_and_levels_are_listed_in_one_place_each() -> None:
    """Code that goes over every game or level asks the lists
    (``variant_names()``, ``level_names()``): a new game or level is added in
    one place."""
    from engine.players import level_names
    from engine.ruleset import variant_names

    assert every_name_lists(GAME_AGNOSTIC, set(variant_names())) == []
    assert every_name_lists(GAME_AGNOSTIC, set(level_names()) - {"random"}) == []
