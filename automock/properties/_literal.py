"""A tiny evaluator for the plain data a test file builds: literals, names, pure builtins.

Used by :mod:`automock.properties.testcases` to read test inputs without
running the tests. Anything it cannot build safely is :data:`UNKNOWN`:
calls to functions other than a few pure builtins, oversized results
(sequences over 10,000 items, huge powers), errors.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping
from typing import Any

__all__ = ["BUILTINS", "UNKNOWN", "WRAPPERS", "bind", "evaluate_literal", "forget"]

_MAX_ITEMS = 10_000  # the largest sequence the evaluator builds


class _Unknown:
    def __repr__(self) -> str:
        return "<unknown>"


UNKNOWN: Any = _Unknown()

BUILTINS: Mapping[str, Callable[..., Any]] = {
    "range": range,
    "list": list,
    "tuple": tuple,
    "set": set,
    "frozenset": frozenset,
    "sorted": sorted,
    "len": len,
    "abs": abs,
    "str": str,
    "int": int,
    "float": float,
    "bool": bool,
    "sum": sum,
    "min": min,
    "max": max,
    "round": round,
    "reversed": lambda xs: list(reversed(xs)),
}
# applied to the output before comparing: ``tuple(candidate(x)) == (1, 2)``
WRAPPERS = frozenset({"tuple", "list", "set", "frozenset", "sorted", "round", "str", "int"})
WRAPPERS |= frozenset({"float", "bool", "len", "abs"})
_BINOPS: Mapping[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.FloorDiv: lambda a, b: a // b,
    ast.Mod: lambda a, b: a % b,
    ast.Pow: lambda a, b: a**b,
}


def _guarded(value: Any) -> Any:
    sized = (str, bytes, list, tuple, set, frozenset, dict, range)
    if isinstance(value, sized) and len(value) > _MAX_ITEMS:
        return UNKNOWN
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4096:
        return UNKNOWN
    return value


def evaluate_literal(node: ast.expr, env: Mapping[str, Any]) -> Any:
    """The value of ``node`` built from literals, ``env`` and pure builtins, else UNKNOWN."""
    try:
        return _guarded(_eval(node, env))
    except (ArithmeticError, TypeError, ValueError, IndexError, KeyError, RecursionError):
        return UNKNOWN
    except MemoryError:  # pragma: no cover - guarded sizes make this unlikely
        return UNKNOWN


def _eval(node: ast.expr, env: Mapping[str, Any]) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return env.get(node.id, UNKNOWN)
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        if any(isinstance(e, ast.Starred) for e in node.elts):
            return UNKNOWN
        items = [evaluate_literal(e, env) for e in node.elts]
        if any(i is UNKNOWN for i in items):
            return UNKNOWN
        kind = {ast.List: list, ast.Tuple: tuple, ast.Set: set}[type(node)]
        return kind(items)
    if isinstance(node, ast.Dict):
        if any(k is None for k in node.keys):
            return UNKNOWN
        keys = [evaluate_literal(k, env) for k in node.keys if k is not None]
        values = [evaluate_literal(v, env) for v in node.values]
        if any(x is UNKNOWN for x in keys + values):
            return UNKNOWN
        return dict(zip(keys, values, strict=True))
    if isinstance(node, ast.UnaryOp):
        operand = evaluate_literal(node.operand, env)
        if operand is UNKNOWN:
            return UNKNOWN
        ops: dict[type[ast.unaryop], Callable[[Any], Any]] = {
            ast.USub: lambda v: -v,
            ast.UAdd: lambda v: +v,
            ast.Not: lambda v: not v,
            ast.Invert: lambda v: ~v,
        }
        return ops[type(node.op)](operand)
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        left, right = evaluate_literal(node.left, env), evaluate_literal(node.right, env)
        if left is UNKNOWN or right is UNKNOWN or not _small_operation(node.op, left, right):
            return UNKNOWN
        return _BINOPS[type(node.op)](left, right)
    if isinstance(node, ast.Subscript):
        value, index = evaluate_literal(node.value, env), _index(node.slice, env)
        if value is UNKNOWN or index is UNKNOWN:
            return UNKNOWN
        return value[index]
    if isinstance(node, ast.Call):
        return _call(node, env)
    if isinstance(node, ast.BoolOp | ast.Compare):
        return _logic(node, env)
    if isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp):
        items = _comprehension(node, env)
        if items is UNKNOWN:
            return UNKNOWN
        return set(items) if isinstance(node, ast.SetComp) else items
    return UNKNOWN


_COMPARE: Mapping[type[ast.cmpop], Callable[[Any, Any], bool]] = {
    ast.Eq: lambda a, b: a == b,
    ast.NotEq: lambda a, b: a != b,
    ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b,
    ast.Gt: lambda a, b: a > b,
    ast.GtE: lambda a, b: a >= b,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}


def _logic(node: ast.BoolOp | ast.Compare, env: Mapping[str, Any]) -> Any:
    if isinstance(node, ast.BoolOp):
        values = [evaluate_literal(v, env) for v in node.values]
        if any(v is UNKNOWN for v in values):
            return UNKNOWN
        return all(values) if isinstance(node.op, ast.And) else any(values)
    left = evaluate_literal(node.left, env)
    for op, right_node in zip(node.ops, node.comparators, strict=True):
        right = evaluate_literal(right_node, env)
        if left is UNKNOWN or right is UNKNOWN or type(op) not in _COMPARE:
            return UNKNOWN
        if not _COMPARE[type(op)](left, right):
            return False
        left = right
    return True


def _small_operation(op: ast.operator, left: Any, right: Any) -> bool:
    if isinstance(op, ast.Pow):
        return isinstance(right, int | float) and abs(right) <= 256
    if isinstance(op, ast.Mult):
        sized = [v for v in (left, right) if isinstance(v, str | bytes | list | tuple)]
        counts = [v for v in (left, right) if isinstance(v, int)]
        if sized and counts:
            return len(sized[0]) * max(counts[0], 0) <= _MAX_ITEMS
    return True


def _index(node: ast.expr, env: Mapping[str, Any]) -> Any:
    if isinstance(node, ast.Slice):
        parts = [None if p is None else evaluate_literal(p, env) for p in (node.lower, node.upper)]
        step = None if node.step is None else evaluate_literal(node.step, env)
        if any(p is UNKNOWN for p in (*parts, step)):
            return UNKNOWN
        return slice(parts[0], parts[1], step)
    return evaluate_literal(node, env)


def _call(node: ast.Call, env: Mapping[str, Any]) -> Any:
    func = node.func
    if not isinstance(func, ast.Name) or func.id in env or func.id not in BUILTINS:
        return UNKNOWN
    if any(isinstance(a, ast.Starred) for a in node.args):
        return UNKNOWN
    args = [evaluate_literal(a, env) for a in node.args]
    kwargs = {k.arg: evaluate_literal(k.value, env) for k in node.keywords if k.arg}
    if len(kwargs) != len(node.keywords) or any(v is UNKNOWN for v in [*args, *kwargs.values()]):
        return UNKNOWN
    if func.id == "range" and len(range(*args)) > _MAX_ITEMS:
        return UNKNOWN
    return BUILTINS[func.id](*args, **kwargs)


def _comprehension(
    node: ast.ListComp | ast.SetComp | ast.GeneratorExp, env: Mapping[str, Any]
) -> Any:
    if len(node.generators) != 1 or node.generators[0].is_async:
        return UNKNOWN
    gen = node.generators[0]
    iterable = evaluate_literal(gen.iter, env)
    if iterable is UNKNOWN or not isinstance(iterable, Iterable):
        return UNKNOWN
    items = []
    for item in iterable:
        scope = dict(env)
        if not bind(gen.target, item, scope):
            return UNKNOWN
        conditions = [evaluate_literal(c, scope) for c in gen.ifs]
        if any(c is UNKNOWN for c in conditions):
            return UNKNOWN
        if all(conditions):
            value = evaluate_literal(node.elt, scope)
            if value is UNKNOWN:
                return UNKNOWN
            items.append(value)
    return items


def bind(target: ast.expr, value: Any, env: dict[str, Any]) -> bool:
    """Bind ``target`` to ``value`` in ``env``; False (names left unknown) if it does not fit."""
    if isinstance(target, ast.Name):
        env[target.id] = value
        return value is not UNKNOWN
    if isinstance(target, ast.Tuple | ast.List):
        try:
            parts = list(value) if value is not UNKNOWN else None
        except TypeError:
            parts = None
        if parts is None or len(parts) != len(target.elts):
            forget(target, env)
            return False
        return all([bind(t, p, env) for t, p in zip(target.elts, parts, strict=True)])
    forget(target, env)
    return False


def forget(node: ast.AST, env: dict[str, Any]) -> None:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
            env.pop(sub.id, None)
