"""Read the inputs and expected outputs of a function's tests without running them.

Two shapes of test file are understood:

- pytest-style calls by the function's name: ``assert sort([3, 1, 2]) == [1, 2, 3]``
  (also ``module.sort(...)``);
- human-eval-style ``def check(candidate): assert candidate([1, 2, 3]) == 6``:
  calls through the first parameter of a function named ``check``.

A small evaluator follows what such files do with plain data: names bound
to literals (``lst = list(range(-99, 100, 2))``), ``for`` loops over literal
sequences (each iteration is read with its loop variables bound),
subscripts, comprehensions and a few pure builtins (``range``, ``sorted``,
``sum``, ...). Anything else (a call to an unknown function, ``random``) is
*unknown*: a call whose arguments are unknown is skipped, never guessed.

Expected outputs come from ``assert`` statements: ``f(x) == y`` (either
side; ``is`` too), ``abs(f(x) - y) < tol`` (``math.fabs`` too),
``assert f(x)`` / ``assert not f(x)`` (truthiness), with one pure builtin
around the call (``tuple(f(x)) == (1, 2)``, ``round(f(x), 2) == 0.5``).
"""

from __future__ import annotations

import ast
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from automock._serialize import JsonMixin
from automock.errors import InputError
from automock.properties._literal import BUILTINS, UNKNOWN, WRAPPERS, bind, evaluate_literal, forget

__all__ = ["TestCase", "cases_from_tests", "distinct_args"]

_MAX_CASES = 2_000  # calls read from one test file
_MAX_LOOP = 1_000  # iterations of one literal loop that are read


@dataclass(frozen=True, slots=True)
class TestCase(JsonMixin):
    """One call the tests make; ``compare`` says how its output is judged.

    ``compare`` is ``"=="``, ``"is"``, ``"approx"`` (``abs(out - expected) <
    tolerance``), ``"truthy"`` (``bool(out) == expected``) or ``""`` (no
    expected output known: an input only). ``wrapper`` names the builtin the
    test applies to the output first, with its extra literal arguments.
    """

    __test__ = False  # not a pytest class

    args: tuple[Any, ...]
    expected: Any = None
    compare: str = ""
    tolerance: float = 0.0
    wrapper: str = ""
    wrapper_args: tuple[Any, ...] = ()
    line: int = 0

    @property
    def has_expected(self) -> bool:
        return bool(self.compare)

    def matches(self, output: Any) -> bool:
        """Whether ``output`` passes this case's assertion (always True without one)."""
        if not self.compare:
            return True
        try:
            if self.wrapper:
                output = BUILTINS[self.wrapper](output, *self.wrapper_args)
            if self.compare == "approx":
                return bool(abs(output - self.expected) < self.tolerance)
            if self.compare == "truthy":
                return bool(output) == bool(self.expected)
            if self.compare == "is":
                return output is self.expected
            return bool(output == self.expected) and type(output) is not type(UNKNOWN)
        except Exception:  # an output the assertion cannot even compare fails it
            return False

    def describe(self) -> str:
        shown = ", ".join(repr(a) for a in self.args)
        shown = shown if len(shown) <= 100 else shown[:97] + "..."
        what = {"approx": f"within {self.tolerance} of", "truthy": "truthy ==", "is": "is"}
        return f"({shown}) -> {what.get(self.compare, '==')} {self.expected!r}"


class _Reader:
    """Walks a test module statement by statement, with the names bound to known values."""

    def __init__(self, function: str) -> None:
        self.function = function
        self.cases: list[TestCase] = []

    def block(self, body: list[ast.stmt], env: dict[str, Any], names: frozenset[str]) -> None:
        for node in body:
            if len(self.cases) >= _MAX_CASES:
                return
            self.statement(node, env, names)

    def statement(self, node: ast.stmt, env: dict[str, Any], names: frozenset[str]) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            params = node.args.posonlyargs + node.args.args
            inner = names | {params[0].arg} if node.name == "check" and params else names
            self.block(node.body, {}, inner)
        elif isinstance(node, ast.ClassDef):
            self.block(node.body, {}, names)
        elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            self.calls(node.value, env, names)
            value = evaluate_literal(node.value, env)
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                bind(target, value, env)
        elif isinstance(node, ast.For):
            self.calls(node.iter, env, names)
            items = evaluate_literal(node.iter, env)
            if isinstance(items, Iterable) and items is not UNKNOWN:
                for item in list(items)[:_MAX_LOOP]:
                    scope = dict(env)
                    bind(node.target, item, scope)
                    self.block(node.body, scope, names)
            else:
                scope = dict(env)
                forget(node.target, scope)
                self.block(node.body, scope, names)
            self.block(node.orelse, dict(env), names)
            forget(node, env)
        elif isinstance(node, ast.Assert):
            self.assertion(node.test, env, names)
        elif isinstance(node, ast.Expr):
            self.calls(node.value, env, names)
        else:  # if / while / with / try / match / augmented assignment ...
            for value in ast.iter_fields(node):
                self._nested(value[1], env, names)
            forget(node, env)

    def _nested(self, value: Any, env: dict[str, Any], names: frozenset[str]) -> None:
        if isinstance(value, ast.expr):
            self.calls(value, env, names)
        elif isinstance(value, list) and value and isinstance(value[0], ast.stmt):
            self.block(value, dict(env), names)
        elif isinstance(value, list):
            for item in value:  # except handlers, match cases, with items
                if isinstance(item, ast.ExceptHandler | ast.match_case):
                    self.block(item.body, dict(env), names)
                elif isinstance(item, ast.withitem):
                    self.calls(item.context_expr, env, names)

    def _target(self, node: ast.AST, names: frozenset[str]) -> bool:
        if not isinstance(node, ast.Call) or node.keywords:
            return False
        func = node.func
        named = isinstance(func, ast.Name) and func.id in names
        return named or (isinstance(func, ast.Attribute) and func.attr == self.function)

    def _targets(self, node: ast.AST, names: frozenset[str]) -> list[ast.Call]:
        found = [n for n in ast.walk(node) if isinstance(n, ast.Call) and self._target(n, names)]
        return sorted(found, key=lambda n: (n.lineno, n.col_offset))

    def calls(self, node: ast.expr, env: dict[str, Any], names: frozenset[str]) -> None:
        for call in self._targets(node, names):
            self.add(call, env, {})

    def add(self, call: ast.Call, env: dict[str, Any], expectation: dict[str, Any]) -> None:
        if any(isinstance(a, ast.Starred) for a in call.args):
            return
        args = tuple(evaluate_literal(a, env) for a in call.args)
        if not any(a is UNKNOWN for a in args) and len(self.cases) < _MAX_CASES:
            self.cases.append(TestCase(args, line=call.lineno, **expectation))

    def assertion(self, test: ast.expr, env: dict[str, Any], names: frozenset[str]) -> None:
        if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
            for value in test.values:
                self.assertion(value, env, names)
            return
        primary, expectation = self._expectation(test, env, names)
        for call in self._targets(test, names):
            self.add(call, env, expectation if call is primary else {})

    def _wrapped(
        self, node: ast.expr, env: dict[str, Any], names: frozenset[str]
    ) -> tuple[ast.Call, dict[str, Any]] | None:
        """The call in ``f(x)`` or ``tuple(f(x))`` / ``round(f(x), 2)``, with the wrapper."""
        if self._target(node, names):
            return node, {}  # type: ignore[return-value]
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args):
            return None
        if node.func.id not in WRAPPERS or node.keywords or not self._target(node.args[0], names):
            return None
        extra = tuple(evaluate_literal(a, env) for a in node.args[1:])
        if any(e is UNKNOWN for e in extra):
            return None
        return node.args[0], {"wrapper": node.func.id, "wrapper_args": extra}  # type: ignore[return-value]

    def _expectation(
        self, test: ast.expr, env: dict[str, Any], names: frozenset[str]
    ) -> tuple[ast.Call | None, dict[str, Any]]:
        negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
        wrapped = self._wrapped(test.operand if negated else test, env, names)  # type: ignore[attr-defined]
        if wrapped is not None:
            call, how = wrapped
            return call, {**how, "expected": not negated, "compare": "truthy"}
        if not isinstance(test, ast.Compare) or len(test.ops) != 1:
            return None, {}
        op, left, right = test.ops[0], test.left, test.comparators[0]
        if isinstance(op, ast.Eq | ast.Is):
            compare = "==" if isinstance(op, ast.Eq) else "is"
            return self._versus(left, right, env, names, {"compare": compare})
        if isinstance(op, ast.Lt | ast.LtE) and _is_abs(left):
            tolerance = evaluate_literal(right, env)
            difference = left.args[0]  # type: ignore[attr-defined]
            if isinstance(tolerance, int | float) and isinstance(difference, ast.BinOp):
                if isinstance(op, ast.LtE):
                    tolerance = math.nextafter(tolerance, math.inf)
                how = {"compare": "approx", "tolerance": float(tolerance)}
                return self._versus(difference.left, difference.right, env, names, how)
        return None, {}

    def _versus(
        self,
        left: ast.expr,
        right: ast.expr,
        env: dict[str, Any],
        names: frozenset[str],
        how: dict[str, Any],
    ) -> tuple[ast.Call | None, dict[str, Any]]:
        for side, other in ((left, right), (right, left)):
            wrapped = self._wrapped(side, env, names)
            if wrapped is None or self._targets(other, names):
                continue
            expected = evaluate_literal(other, env)
            if expected is UNKNOWN:
                continue
            if how["compare"] == "approx" and not isinstance(expected, int | float | complex):
                continue
            return wrapped[0], {**wrapped[1], **how, "expected": expected}
        return None, {}


def _is_abs(node: ast.expr) -> bool:
    """``abs(...)`` or ``math.fabs(...)`` / ``fabs(...)`` of one argument."""
    if not isinstance(node, ast.Call) or len(node.args) != 1 or node.keywords:
        return False
    func = node.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
    return name in ("abs", "fabs")


def cases_from_tests(source: str, function: str, *, path: str = "<tests>") -> list[TestCase]:
    """Every call of ``function`` in ``source`` with known arguments, with its expectation.

    Calls are found by the function's name (``sort(...)``, ``m.sort(...)``)
    and through the first parameter of a ``def check(candidate)``.
    Duplicate argument tuples are kept (each may assert something else).
    """
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError as exc:
        raise InputError(f"{path}:{exc.lineno}: cannot parse the test file: {exc.msg}") from None
    reader = _Reader(function)
    reader.block(tree.body, {}, frozenset({function}))
    return reader.cases


def distinct_args(cases: Sequence[TestCase]) -> list[tuple[Any, ...]]:
    """The cases' argument tuples, each once, in order (arguments may be unhashable)."""
    found: list[tuple[Any, ...]] = []
    for case in cases:
        if case.args not in found:
            found.append(case.args)
    return found
