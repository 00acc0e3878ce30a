"""The import circles between modules: ``python -m tests.import_cycles [PACKAGE ...]``.

Builds the import graph of ``game``, ``online`` and ``engine`` (or the packages
named) with grimp, import-linter's own graph builder, which also counts the
imports made inside functions, and prints the module-level cycles (the strongly
connected components of more than one module) as JSON:
``{"packages": [...], "cycles": [[module, ...], ...], "count": N}``.  Exit status 1
if there is any.  A package ``__init__`` that imported its submodules would make a
cycle with each of them: the ``__init__``s import nothing."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable

PACKAGES = ("game", "online", "engine")


def import_graph(packages: Iterable[str]) -> dict[str, set[str]]:
    """Module -> the modules of ``packages`` it imports (anywhere in its file)."""
    import grimp

    graph = grimp.build_graph(*packages, cache_dir=None)
    return {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's
    algorithm, iterative), each sorted, biggest first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    component.append(m)
                    if m == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found, key=lambda c: (-len(c), c))


def report(packages: Iterable[str] = PACKAGES) -> dict:
    packages = list(packages)
    found = cycles(import_graph(packages))
    return {"packages": packages, "cycles": found, "count": len(found)}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out = report(args or PACKAGES)
    print(json.dumps(out, indent=1))
    return 1 if out["count"] else 0


if __name__ == "__main__":
    sys.exit(main())
