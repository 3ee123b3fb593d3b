"""Cheap stages before libcst: decide whether a file can have touchpoints at all.

The answer must be conservative: ``True`` whenever the libcst analysis could
report something; ``False`` only when it certainly cannot. Stages:

1. ``ast.parse`` (also the syntax check that gives good error messages);
2. a regex over import statements: a file importing no catalog module and
   using no catalogued builtin (``hash``) has no touchpoints;
3. an ``ast`` walk that resolves attribute chains through the file's imports,
   ignoring scopes (so shadowing can only make it say ``True`` more often).
"""

from __future__ import annotations

import ast
import re
from functools import cache

from automock.analysis import catalog

__all__ = ["check"]

_IMPORT_LINE = re.compile(
    r"(?:^|;)[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import\b|import[ \t]+([^#\n;]*))", re.M
)


@cache
def _builtin_pattern() -> re.Pattern[str]:
    names = "|".join(sorted(catalog.BUILTIN_NAMES)) or "(?!)"
    return re.compile(rf"\b(?:{names})\b")


def _imports_catalog(source: str) -> bool:
    roots = catalog.ROOT_MODULES
    for match in _IMPORT_LINE.finditer(source):
        module, names = match.groups()
        if module is not None:
            if module.split(".", 1)[0] in roots:
                return True
            continue
        if names.rstrip().endswith("\\") or "(" in names:
            return True
        for part in names.split(","):
            if part.strip().split(".", 1)[0].split(" ", 1)[0] in roots:
                return True
    return False


def check(source: str) -> bool | SyntaxError:
    """``True`` if ``source`` may have touchpoints; a ``SyntaxError`` if it is not Python."""
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        return exc
    except (ValueError, RecursionError, MemoryError) as exc:  # NUL bytes, deep nesting
        return SyntaxError(str(exc) or type(exc).__name__)
    if _builtin_pattern().search(source):
        return True
    if not _imports_catalog(source):
        return False
    return _walk(tree)


def _chain(node: ast.expr) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Call):  # Path(x).iterdir(): resolve the callee
        return _chain(node.func)
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def _relevant(qualified: str) -> bool:
    return catalog.lookup(qualified) is not None or qualified in catalog.RETURNS


def _walk(tree: ast.Module) -> bool:
    from automock.analysis.collect import star_names

    bound: dict[str, set[str]] = {}
    refs: list[ast.expr] = []
    inner: set[int] = set()
    prefixes = catalog.all_prefixes()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            if id(node) not in inner:
                refs.append(node)
            inner.add(id(node.value))
        elif isinstance(node, ast.Name):
            if id(node) not in inner:
                refs.append(node)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    bound.setdefault(alias.asname, set()).add(alias.name)
                else:
                    root = alias.name.split(".", 1)[0]
                    bound.setdefault(root, set()).add(root)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            for alias in node.names:
                if alias.name == "*":
                    for name in star_names(node.module):
                        bound.setdefault(name, set()).add(f"{node.module}.{name}")
                else:
                    qualified = f"{node.module}.{alias.name}"
                    bound.setdefault(alias.asname or alias.name, set()).add(qualified)
    if not bound:
        return False
    for ref in refs:
        if isinstance(ref, ast.Name):
            # A bare reference to an imported catalog module or object may be
            # an alias (``clock = time``): let libcst decide.
            if any(q in prefixes for q in bound.get(ref.id, ())):
                return True
            continue
        dotted = _chain(ref)
        if dotted is None:
            continue
        root, _, rest = dotted.partition(".")
        for qualified in bound.get(root, ()):
            full = f"{qualified}.{rest}" if rest else qualified
            if _relevant(full):
                return True
    return False
