"""Cheap stages before libcst: which parts of a file can hold touchpoints at all.

The answer must be conservative: every statement the libcst analysis could
report from, or whose bindings could change what it reports, is selected.
Stages, cheapest first:

1. ``ast.parse`` -- the syntax check (good error messages) and the line
   ranges of the top-level statements;
2. regexes over the text find the import statements and the names they bind
   to catalog modules/objects (``np`` -> ``numpy``); none -> no touchpoints;
3. a regex finds every dotted chain rooted at such a name (``np.random.rand``)
   and keeps the units (top-level statements, class members: see
   :mod:`automock.analysis.layout`) where a chain can reach the catalog
   (strings and comments count too: over-approximation is safe);
4. closure: imports, statements that rebind a root name at module scope, and
   statements using names assigned by selected statements (``rng = ...``).

The selected statements are parsed by libcst as one smaller module with a line
map back to the file (see :mod:`automock.analysis.scanner`).
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_right
from collections.abc import Container, Iterable

from automock.analysis import catalog
from automock.analysis.layout import Layout

__all__ = ["Selection", "select", "select_parsed"]

# A selection: merged, 1-based inclusive line ranges to analyze, or ``None``
# when the file cannot have touchpoints.
Selection = tuple[tuple[int, int], ...] | None

# Patterns start with a literal so the regex engine can skip ahead quickly;
# the "not preceded by a word character or dot" check is done in Python.
_FROM = re.compile(r"from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]*(\([^)]*\)|(?:[^\n;#\\]|\\\r?\n)*)")
_IMPORT = re.compile(r"import[ \t]+((?:[^\n;#\\(]|\\\r?\n)*)")
_GLOBAL = re.compile(r"(?<![\w.])global[ \t]+([\w, \t]+)")
_SPACE = re.compile(r"\s+")


def _bindings(source: str) -> tuple[dict[str, set[str]], list[tuple[int, int]]]:
    """Names bound by any import in ``source`` to catalog-relevant names, and import spans."""
    prefixes = catalog.all_prefixes()
    bound: dict[str, set[str]] = {}
    spans: list[tuple[int, int]] = []

    def add(name: str, qualified: str) -> None:
        if qualified in prefixes and name.isidentifier():
            bound.setdefault(name, set()).add(qualified)

    for match in _FROM.finditer(source):
        if _glued(source, match.start()):
            continue
        spans.append(match.span())
        module, names = match.group(1), match.group(2)
        if module.startswith(".") or not module:
            continue
        for part in names.strip("()").replace("\\", " ").split(","):
            words = part.split()
            if words == ["*"]:
                from automock.analysis.imports import star_names

                for name in star_names(module):
                    add(name, f"{module}.{name}")
            elif len(words) == 3 and words[1] == "as":
                add(words[2], f"{module}.{words[0]}")
            elif len(words) == 1:
                add(words[0], f"{module}.{words[0]}")
    from_spans = list(spans)
    for match in _IMPORT.finditer(source):
        if _glued(source, match.start()) or _inside(from_spans, match.start()):
            continue
        spans.append(match.span())
        for part in match.group(1).replace("\\", " ").split(","):
            words = part.split()
            if len(words) == 3 and words[1] == "as":
                add(words[2], _SPACE.sub("", words[0]))
            elif len(words) == 1:
                root = words[0].split(".", 1)[0]
                add(root, root)
    for name in catalog.BUILTIN_NAMES:
        bound.setdefault(name, set()).add(f"builtins.{name}")
    return bound, spans


def _glued(source: str, offset: int) -> bool:
    """True if the keyword at ``offset`` is part of a longer name or an attribute."""
    if offset == 0:
        return False
    before = source[offset - 1]
    return before == "." or before.isalnum() or before == "_"


def _inside(spans: list[tuple[int, int]], offset: int) -> bool:
    """``offset`` within one of the sorted, non-overlapping ``spans``."""
    index = bisect_right(spans, (offset, float("inf"))) - 1
    return index >= 0 and spans[index][0] <= offset < spans[index][1]


def _relevant(qualified: str, called: bool) -> bool:
    if catalog.lookup(qualified) is not None or qualified in catalog.RETURNS:
        return True
    # A bare reference to a catalog namespace may be an alias (``clock = time``).
    return not called and qualified in catalog.all_prefixes()


def _names_pattern(names: Iterable[str]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<![\w.])({alternatives})\b((?:[ \t]*\.[ \t]*\w+)*)([ \t]*[(\[]?)")


def _target_names(node: ast.expr | None, out: set[str]) -> None:
    if isinstance(node, ast.Name):
        out.add(node.id)
    elif isinstance(node, ast.Tuple | ast.List):
        for element in node.elts:
            _target_names(element, out)
    elif isinstance(node, ast.Starred):
        _target_names(node.value, out)


def _module_bindings(
    statement: ast.stmt, out: set[str], values: set[str], imported: Container[str] = ()
) -> None:
    """Names ``statement`` binds at module scope.

    ``values`` receives the subset bound to an expression the resolver can
    follow (an alias, a tracked constructor call, a path join): only uses of
    those names elsewhere can change what libcst reports.
    """
    if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        out.add(statement.name)
        return
    found: set[str] = set()
    followed: set[str] = set()
    if isinstance(statement, ast.Assign):
        for target in statement.targets:
            _target_names(target, found)
        if _trackable(statement.value, imported):
            followed = found
    elif isinstance(statement, ast.AnnAssign):
        _target_names(statement.target, found)
        if statement.value is not None and _trackable(statement.value, imported):
            followed = found
    elif isinstance(statement, ast.AugAssign):
        _target_names(statement.target, found)
    elif isinstance(statement, ast.Import | ast.ImportFrom):
        for alias in statement.names:
            found.add(alias.asname or alias.name.split(".", 1)[0])
    elif isinstance(statement, ast.For | ast.AsyncFor):
        _target_names(statement.target, found)
    elif isinstance(statement, ast.With | ast.AsyncWith):
        for item in statement.items:
            names: set[str] = set()
            _target_names(item.optional_vars, names)
            found |= names
            if _trackable(item.context_expr, imported):
                followed = followed | names
    elif isinstance(statement, ast.Try | ast.TryStar):
        for handler in statement.handlers:
            if handler.name:
                found.add(handler.name)
            for inner in handler.body:
                _module_bindings(inner, out, values, imported)
    elif isinstance(statement, ast.Match):
        for case in statement.cases:
            for inner in case.body:
                _module_bindings(inner, out, values, imported)
    out.update(found)
    values.update(followed)
    for field in ("body", "orelse", "finalbody"):
        for inner in getattr(statement, field, ()):
            _module_bindings(inner, out, values, imported)


_TRACKED_LEAVES = frozenset(name.rsplit(".", 1)[1] for name in catalog.RETURNS)


def _trackable(node: ast.expr, imported: Container[str]) -> bool:
    """Could the resolver follow a name bound to ``node`` (see ``resolve.value_of``)?

    ``imported``: names bound by catalog imports (``_SystemRandom`` from
    ``from random import SystemRandom as _SystemRandom``).
    """
    if isinstance(node, ast.Await):
        node = node.value
    if isinstance(node, ast.Name | ast.Attribute):
        return True
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in _TRACKED_LEAVES:
            return True
        while isinstance(func, ast.Attribute):
            func = func.value
        return isinstance(func, ast.Name) and (func.id in _TRACKED_LEAVES or func.id in imported)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        return _trackable(node.left, imported)
    return False


def select(source: str) -> Selection | SyntaxError:
    """Line ranges of ``source`` to analyze; ``None`` if it cannot have touchpoints."""
    return select_parsed(source)[0]


def select_parsed(source: str) -> tuple[Selection | SyntaxError, ast.Module | None]:
    """:func:`select`, and the ``ast`` tree it parsed (so the positions pass need not
    parse the whole file again)."""
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        return exc, None
    except (ValueError, RecursionError, MemoryError) as exc:  # NUL bytes, deep nesting
        return SyntaxError(str(exc) or type(exc).__name__), None
    return _select(source, tree), tree


def _select(source: str, tree: ast.Module) -> Selection:
    bound, import_spans = _bindings(source)
    layout = Layout(source, tree)
    candidates: set[int] = set()
    checked: set[int] = set()
    roots: set[str] = set()
    in_import = sorted(import_spans)
    for match in _names_pattern(bound).finditer(source):
        if _inside(in_import, match.start()):
            continue
        root, rest, after = match.groups()
        attrs = _SPACE.sub("", rest)
        called = after.strip() == "("
        if any(_relevant(q + attrs, called) for q in bound[root]):
            index = layout.statement_at(match.start())
            if index is not None and index not in checked:
                checked.add(index)
                found = _unit_roots(layout, index, bound)
                if found:
                    candidates.add(index)
                    roots |= found
    if not candidates:
        return None
    needed = set(candidates)
    for start, _ in import_spans:
        index = layout.statement_at(start)
        if index is not None:
            needed.add(index)
    values: set[str] = set()
    for index, statement in enumerate(layout.statements):
        if statement is None:
            continue
        names: set[str] = set()
        assigned: set[str] = set()
        _module_bindings(statement, names, assigned, bound)
        if names & roots:
            needed.add(index)
        if index in candidates:
            values |= assigned
    _close_over_uses(source, layout, needed, values, roots, bound)
    return _merge(layout.ranges[i] for i in sorted(layout.complete(needed)))


def _unit_roots(layout: Layout, index: int, bound: dict[str, set[str]]) -> set[str]:
    """Root names of the chains in a unit that can reach the catalog (text matched, code?).

    The regex also matches inside strings and comments; this ``ast`` check
    keeps only real references.
    """
    roots: set[str] = set()
    inner: set[int] = set()
    called: set[int] = set()
    for top in layout.unit_nodes(index):
        for node in ast.walk(top):
            node_type = type(node)
            if node_type is ast.Call:
                called.add(id(node.func))  # type: ignore[attr-defined]
            elif node_type is ast.Attribute:
                inner.add(id(node.value))  # type: ignore[attr-defined]
                if id(node) not in inner:
                    _check_chain(node, id(node) in called, bound, roots)  # type: ignore[arg-type]
            elif node_type is ast.Name and id(node) not in inner:
                _check_chain(node, id(node) in called, bound, roots)  # type: ignore[arg-type]
    return roots


def _check_chain(
    node: ast.Attribute | ast.Name, called: bool, bound: dict[str, set[str]], roots: set[str]
) -> None:
    parts: list[str] = []
    current: ast.expr = node
    while isinstance(current, ast.Attribute):
        parts.append(current.attr)
        current = current.value
    if isinstance(current, ast.Call):  # Path(x).iterdir(): the callee decides
        current = current.func
        parts.clear()
        while isinstance(current, ast.Attribute):
            parts.append(current.attr)
            current = current.value
        called = True
    if not isinstance(current, ast.Name) or current.id not in bound:
        return
    rest = "".join(f".{p}" for p in reversed(parts))
    if any(_relevant(q + rest, called) for q in bound[current.id]):
        roots.add(current.id)


def _close_over_uses(
    source: str,
    layout: Layout,
    needed: set[int],
    values: set[str],
    roots: set[str],
    imported: Container[str],
) -> None:
    """Add statements that use names assigned by selected ones, or rebind roots via ``global``."""
    for match in _GLOBAL.finditer(source):
        if set(match.group(1).replace(",", " ").split()) & (roots | values):
            index = layout.statement_at(match.start())
            if index is not None:
                needed.add(index)
    seen: set[str] = set()
    while values - seen:
        fresh = values - seen
        seen |= fresh
        pattern = re.compile(rf"(?<![\w.])(?:{'|'.join(re.escape(n) for n in sorted(fresh))})\b")
        for match in pattern.finditer(source):
            index = layout.statement_at(match.start())
            if index is None or index in needed:
                continue
            needed.add(index)
            statement = layout.statements[index]
            if statement is not None:
                _module_bindings(statement, set(), values, imported)


def _merge(ranges: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    merged: list[tuple[int, int]] = []
    for start, end in ranges:
        if merged and start <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return tuple(merged)
