"""The contracts of docs/architecture.md that import-linter does not express.

import-linter (``lint-imports`` in .ci/run, contracts in pyproject.toml) checks the layers;
these check what it cannot: private modules stay inside their package, no import cycles
between modules, and the size limits of the style guide (with the reason for each exception).
"""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[2] / "automock"

# function -> why it is longer than ~60 lines
LONG_FUNCTIONS = {
    "automock/drafting/flow.py:eval": "one match over expression kinds; splitting scatters it",
    "automock/commands/run.py:run": "the run command's flag handling, in order, in one place",
    "automock/commands/run.py:_add_options": "the argparse table of `automock run`",
    "automock/properties/runner.py:evaluate": "dispatch over the property table",
    "automock/analysis/scanner.py:_touchpoints": "the fast path and its libcst fallback",
    "automock/sandbox/batch/task.py:child_main": "a forked child's steps, in order, before it runs a candidate",
    "automock/sandbox/child/program.py:execute": "the run child's steps, in order, around the program",
    "automock/sandbox/run/watch.py:finish": "watching one run to its end, then judging it",
}


def _graph() -> grimp.ImportGraph:
    return grimp.build_graph("automock", exclude_type_checking_imports=True)


def _package(module: str) -> str:
    return module.rsplit(".", 1)[0]


def test_private_modules_are_imported_only_inside_their_package() -> None:
    """``automock.x._y`` is x's own; the top-level ``automock._*`` are the shared helpers."""
    graph = _graph()
    crossing = []
    for module in graph.modules:
        last = module.rsplit(".", 1)[-1]
        if not last.startswith("_") or last.startswith("__") or _package(module) == "automock":
            continue
        package = _package(module)
        for importer in graph.find_modules_that_directly_import(module):
            if importer != package and not importer.startswith(package + "."):
                crossing.append(f"{importer} -> {module}")
    assert not crossing


def test_no_import_cycles_between_modules() -> None:
    """Counting imports inside functions too: a cycle hidden in a function is still a cycle."""
    graph = _graph()
    cycles = []
    for module in sorted(graph.modules):
        for imported in graph.find_modules_directly_imported_by(module):
            if _package(module) == imported:  # a module importing its own package's __init__
                continue
            if module != imported and graph.chain_exists(imported, module, as_packages=False):
                chain = graph.find_shortest_chain(imported, module)
                if chain and not any(_package(m) == n for m, n in itertools.pairwise(chain)):
                    cycles.append(" -> ".join([module, *chain]))
    assert not cycles, "\n".join(cycles[:10])


def test_modules_stay_under_400_lines() -> None:
    long = {
        str(p.relative_to(ROOT.parent)): n
        for p in ROOT.rglob("*.py")
        if (n := len(p.read_text().splitlines())) > 400
    }
    assert not long


def test_functions_stay_under_60_lines_or_say_why() -> None:
    found = {}
    for path in ROOT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > 60:
                    found[f"{path.relative_to(ROOT.parent)}:{node.name}"] = length
    unexplained = {name: n for name, n in found.items() if name not in LONG_FUNCTIONS}
    assert not unexplained
    stale = set(LONG_FUNCTIONS) - set(found)
    assert not stale, f"no longer long: drop them from LONG_FUNCTIONS: {sorted(stale)}"
