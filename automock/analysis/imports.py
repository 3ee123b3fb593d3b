"""What an import statement binds, read from its libcst node.

``import a.b`` binds ``a`` to ``a``; ``import a.b as c`` binds ``c`` to
``a.b``; ``from m import x as y`` binds ``y`` to ``m.x`` (to nothing known
when the import is relative); ``from m import *`` binds the names of ``m``
that the catalog knows (:func:`star_names`, which the pre-filter's regex
import scan uses too).
"""

from __future__ import annotations

import libcst as cst

from automock.analysis import catalog
from automock.analysis.resolve import Binding

__all__ = ["dotted", "import_bindings", "star_names"]


def dotted(node: cst.BaseExpression) -> str | None:
    """``a.b.c`` for a chain of names and attributes, else ``None``."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted(node.value)
        return None if base is None else f"{base}.{node.attr.value}"
    return None


_STAR_CHILDREN: dict[str, tuple[str, ...]] = {}


def star_names(module: str) -> tuple[str, ...]:
    """Names ``from module import *`` can bring in that the catalog knows."""
    cached = _STAR_CHILDREN.get(module)
    if cached is None:
        prefix = module + "."
        cached = tuple(
            sorted(
                {
                    name[len(prefix) :].split(".", 1)[0]
                    for name in catalog.all_prefixes()
                    if name.startswith(prefix) and not name[len(prefix) :].startswith("_")
                }
            )
        )
        _STAR_CHILDREN[module] = cached
    return cached


def import_bindings(node: cst.Import | cst.ImportFrom) -> list[tuple[str, Binding]]:
    """``(name, binding)`` for each name ``node`` binds, in source order."""
    if isinstance(node, cst.Import):
        return _import(node)
    return _import_from(node)


def _import(node: cst.Import) -> list[tuple[str, Binding]]:
    out: list[tuple[str, Binding]] = []
    for alias in node.names:
        full = dotted(alias.name)
        if full is None:
            continue
        if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
            out.append((alias.asname.name.value, Binding(qualified=full)))
        else:
            root = full.split(".", 1)[0]
            out.append((root, Binding(qualified=root)))
    return out


def _import_from(node: cst.ImportFrom) -> list[tuple[str, Binding]]:
    module = dotted(node.module) if node.module is not None else None
    relative = bool(node.relative) or module is None
    if isinstance(node.names, cst.ImportStar):
        if relative or module is None:
            return []
        return [(name, Binding(qualified=f"{module}.{name}")) for name in star_names(module)]
    out: list[tuple[str, Binding]] = []
    for alias in node.names:
        imported = dotted(alias.name)
        if imported is None:
            continue
        bound = imported
        if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
            bound = alias.asname.name.value
        qualified = None if relative else f"{module}.{imported}"
        out.append((bound, Binding(qualified=qualified)))
    return out
