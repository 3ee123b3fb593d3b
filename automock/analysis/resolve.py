"""Name resolution over a recorded scope tree, independent of the parse tree.

The libcst collector (``collect.py``) records, in source order, every scope,
every binding (import, local assignment, tracked object) and every reference
site. This module then answers "what does this expression name?" with Python's
scoping rules (class bodies are skipped by nested functions, ``global`` goes to
the module) and looks the answer up in the catalog.

Ambiguity is resolved towards silence: when a name has conflicting bindings
that source order cannot decide, nothing is reported for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from automock.analysis import catalog

__all__ = [
    "AttrExpr",
    "Binding",
    "CallExpr",
    "DivExpr",
    "Expr",
    "InstanceOf",
    "NameExpr",
    "Scope",
    "Value",
    "value_of",
]

ScopeKind = Literal["module", "class", "function", "lambda", "comprehension"]


@dataclass(slots=True, eq=False)
class Scope:
    kind: ScopeKind
    parent: Scope | None
    bindings: dict[str, list[tuple[int, Binding]]] = field(default_factory=dict)
    globals: set[str] = field(default_factory=set)

    def bind(self, name: str, order: int, binding: Binding) -> None:
        target = self.module() if name in self.globals else self
        target.bindings.setdefault(name, []).append((order, binding))

    def module(self) -> Scope:
        scope = self
        while scope.parent is not None:
            scope = scope.parent
        return scope


@dataclass(frozen=True, slots=True)
class NameExpr:
    name: str
    scope: Scope
    order: int


@dataclass(frozen=True, slots=True)
class AttrExpr:
    base: Expr
    attr: str


@dataclass(frozen=True, slots=True)
class CallExpr:
    func: Expr
    positional: int  # number of plain positional arguments
    first_is_none: bool
    keywords: tuple[str, ...]
    starred: bool


@dataclass(frozen=True, slots=True)
class DivExpr:
    """``left / right``: a path join when ``left`` is a path."""

    left: Expr


@dataclass(frozen=True, slots=True)
class InstanceOf:
    """A parameter annotated with a tracked type (``client: httpx.AsyncClient``)."""

    annotation: Expr


Expr = NameExpr | AttrExpr | CallExpr | DivExpr | InstanceOf


@dataclass(frozen=True, slots=True)
class Binding:
    """What an assignment made a name mean.

    ``qualified`` for imports (``time`` -> ``time``, ``DT`` ->
    ``datetime.datetime``); ``value`` for a local bound to an expression worth
    following (``rng = np.random.default_rng()``); neither for any other local.
    """

    qualified: str | None = None
    value: Expr | None = None


LOCAL = Binding()


@dataclass(frozen=True, slots=True)
class Value:
    """A resolved expression: a qualified name, or an instance of a catalog type."""

    name: str
    instance: bool = False


_TRACKED_TYPES = frozenset(catalog.RETURNS.values())


def is_pure_call(call: CallExpr, api: catalog.Api) -> bool:
    """True when the arguments make a catalogued call deterministic (a seed, a timestamp)."""
    if api.pure_args == 0 or call.starred:
        return False
    if any(k in api.pure_kw for k in call.keywords):
        return True
    return call.positional >= api.pure_args and not call.first_is_none


def _binding_value(binding: Binding, depth: int) -> Value | None:
    if binding.qualified is not None:
        return Value(binding.qualified)
    if binding.value is not None:
        return _value(binding.value, depth + 1)
    return None


def _pick(bindings: list[tuple[int, Binding]], order: int | None, depth: int) -> Value | None:
    if order is not None:
        before = [b for o, b in bindings if o < order]
        if before:
            return _binding_value(before[-1], depth)
    values = {_binding_value(b, depth) for _, b in bindings}
    return values.pop() if len(values) == 1 else None


def _resolve_name(expr: NameExpr, depth: int) -> Value | None:
    scope: Scope | None = expr.scope
    direct = True
    while scope is not None:
        if scope.kind == "class" and not direct:
            scope = scope.parent
            continue
        if expr.name in scope.globals:
            scope = scope.module()
            direct = False
        bindings = scope.bindings.get(expr.name)
        if bindings:
            return _pick(bindings, expr.order if direct else None, depth)
        direct = False
        scope = scope.parent
    if expr.name in catalog.BUILTIN_NAMES:
        return Value(f"builtins.{expr.name}")
    return None


def value_of(expr: Expr, depth: int = 0) -> Value | None:
    """Resolve ``expr`` to a qualified name or a tracked instance type."""
    return _value(expr, depth)


def _value(expr: Expr, depth: int) -> Value | None:
    if depth > 40:  # pathological self-referencing assignments
        return None
    if isinstance(expr, NameExpr):
        return _resolve_name(expr, depth)
    if isinstance(expr, AttrExpr):
        base = _value(expr.base, depth + 1)
        if base is None:
            return None
        name = f"{base.name}.{expr.attr}"
        if base.instance and name in catalog.PROPERTIES:
            return Value(catalog.RETURNS[name], instance=True)
        return Value(name)
    if isinstance(expr, CallExpr):
        func = _value(expr.func, depth + 1)
        if func is None or func.instance or func.name not in catalog.RETURNS:
            return None
        found = catalog.lookup(func.name)
        if found is not None and is_pure_call(expr, found[1]):
            return None
        return Value(catalog.RETURNS[func.name], instance=True)
    if isinstance(expr, InstanceOf):
        declared = _value(expr.annotation, depth + 1)
        if declared is None or declared.instance or declared.name not in _TRACKED_TYPES:
            return None
        return Value(declared.name, instance=True)
    left = _value(expr.left, depth + 1)
    if left is not None and left.instance and left.name == "pathlib.Path":
        return left
    return None
