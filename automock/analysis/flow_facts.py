"""The values the cross-module flow pass works with (:mod:`automock.analysis.flow`).

:class:`FlowModule` is one parsed project module; :class:`Known` what an
expression is known to be (a qualified name, or an instance of a type);
:class:`Facts` what the pass has learned about the project so far;
:func:`import_table` what each imported name of a module means.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

__all__ = ["Ctx", "Facts", "FlowModule", "Known", "import_table"]


@dataclass(frozen=True, slots=True)
class FlowModule:
    """One parsed project module: its dotted name, shown path, source and tree."""

    name: str
    path: str
    source: str
    tree: ast.Module
    package: bool = False


@dataclass(frozen=True, slots=True)
class Known:
    """A qualified name, or an instance of a type; ``flowed`` once a fact carried it."""

    name: str
    instance: bool = False
    flowed: bool = False


@dataclass(slots=True)
class Facts:
    returns: dict[str, Known] = field(default_factory=dict)
    values: dict[str, Known] = field(default_factory=dict)
    params: dict[tuple[str, str], Known] = field(default_factory=dict)
    # qualified name -> (its def, its class or None, its module's name)
    functions: dict[str, tuple[ast.FunctionDef | ast.AsyncFunctionDef, str | None, str]] = field(
        default_factory=dict
    )
    classes: set[str] = field(default_factory=set)
    # module name -> its functions and methods: (qualified name, def, class or None)
    by_module: dict[str, list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef, str | None]]] = (
        field(default_factory=dict)
    )
    # the calls inside each statement head, walked once for every pass
    calls: dict[int, list[ast.Call]] = field(default_factory=dict)

    # ``pkg.make_session`` -> ``pkg.http.make_session``: names a project module imports
    reexports: dict[str, str] = field(default_factory=dict)

    def origin(self, qualified: str) -> str:
        """Where a name a package re-exports (``from .http import make_session``) is defined."""
        for _ in range(8):
            if qualified in self.functions or qualified in self.classes:
                return qualified
            target = self.reexports.get(qualified)
            if target is None or target == qualified:
                return qualified
            qualified = target
        return qualified

    def size(self) -> int:
        return len(self.returns) + len(self.values) + len(self.params)


@dataclass(slots=True)
class Ctx:
    module: FlowModule
    names: dict[str, str]  # module-level name -> qualified (imports, defs, classes)
    function: str | None = None
    cls: str | None = None


def import_table(tree: ast.Module, name: str, package: bool = False) -> dict[str, str]:
    """What each imported name means in module ``name``: relative imports made absolute."""
    package_name = name if package else name.rpartition(".")[0]
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                out[alias.asname or alias.name.split(".")[0]] = (
                    alias.name if alias.asname else alias.name.split(".")[0]
                )
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package_name.split(".") if package_name else []
                anchor = anchor[: max(0, len(anchor) - (node.level - 1))]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                if alias.name != "*" and base:
                    out[alias.asname or alias.name] = f"{base}.{alias.name}"
    return out
