"""pytest-style tests in a pair's test process: found, parametrized and run, in order.

Tests written as pytest collects them, ``def test_...():`` functions and the
``test_...`` methods of ``Test...`` classes (a ``unittest.TestCase`` too), run
after the tests' module and its ``check(<entry point>)``. Only what the trusted
tests define counts (a function compiled from the tests' own file), never a proxy
of a function the candidate defines. A test's parameters are filled from its
``@pytest.mark.parametrize`` marks (read as data, without importing pytest), or,
for a parameter named ``candidate`` or after the entry point, with the
candidate's entry point; ``skip`` and ``skipif(True)`` skip a test, ``xfail``
lets it fail. A parameter that is anything else (a pytest fixture such as
``tmp_path``) cannot be provided in a pair: :class:`NotRunnable` names it.
"""

from __future__ import annotations

import inspect
import itertools
import types
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["NotRunnable", "run_collected"]


class NotRunnable(Exception):
    """A collected test needs what a pair cannot give it (names the test and the fixture)."""


def run_collected(namespace: dict[str, Any], test_file: str, given: dict[str, Any]) -> int:
    """Run every test the tests define, in definition order; how many were run.

    ``given``: the values a parameter may take by its name (the candidate's entry
    point, as ``candidate`` and by its own name). The first failing test's exception
    propagates: the pair's verdict is its failure.
    """
    ran = 0
    for label, test, owner in list(_found(namespace, test_file)):
        marks = _marks(test) + (_marks(owner) if owner is not None else [])
        if _skipped(marks):
            continue
        for arguments in _parameters(label, test, marks, given, method=owner is not None):
            instance = owner() if owner is not None else None
            function = test.__get__(instance) if instance is not None else test
            _run_one(function, instance, arguments, "xfail" in {m[0] for m in marks})
            ran += 1
    return ran


def _defined_in(obj: Any, test_file: str) -> bool:
    code = getattr(obj, "__code__", None)
    return isinstance(code, types.CodeType) and code.co_filename == test_file


def _found(
    namespace: dict[str, Any], test_file: str
) -> Iterator[tuple[str, Callable[..., Any], type | None]]:
    for name, value in namespace.items():
        if name.startswith("test") and _defined_in(value, test_file):
            yield name, value, None
        elif name.startswith("Test") and isinstance(value, type) and _own_class(value, test_file):
            for attr, method in vars(value).items():
                if attr.startswith("test") and _defined_in(method, test_file):
                    yield f"{name}.{attr}", method, value


def _own_class(cls: type, test_file: str) -> bool:
    """A class of the tests' own that pytest would collect (no ``__init__`` of its own,
    unless it is a ``unittest.TestCase``, built with the method's name)."""
    if not any(_defined_in(v, test_file) for v in vars(cls).values()):
        return False
    return "__init__" not in vars(cls) or _is_test_case(cls)


def _is_test_case(cls: type) -> bool:
    return any(base.__name__ == "TestCase" for base in cls.__mro__[1:])


def _marks(obj: Any) -> list[tuple[str, tuple[Any, ...], dict[str, Any]]]:
    """pytest's marks on ``obj`` as ``(name, args, kwargs)``: pytest keeps them in
    ``pytestmark``; read here as plain attributes (nothing of pytest is imported)."""
    found = getattr(obj, "pytestmark", None)
    marks = found if isinstance(found, list) else [found] if found is not None else []
    out = []
    for mark in marks:
        name, args, kwargs = (getattr(mark, k, None) for k in ("name", "args", "kwargs"))
        if isinstance(name, str) and isinstance(args, tuple) and isinstance(kwargs, dict):
            out.append((name, args, kwargs))
    return out


def _skipped(marks: list[tuple[str, tuple[Any, ...], dict[str, Any]]]) -> bool:
    for name, args, kwargs in marks:
        if name == "skip":
            return True
        condition = args[0] if args else kwargs.get("condition", False)
        if name == "skipif" and isinstance(condition, bool) and condition:
            return True
    return False


def _parameters(
    label: str,
    test: Callable[..., Any],
    marks: list[tuple[str, tuple[Any, ...], dict[str, Any]]],
    given: dict[str, Any],
    *,
    method: bool,
) -> list[dict[str, Any]]:
    """One dict of arguments per run of ``test``: the product of its parametrize marks."""
    axes: list[list[dict[str, Any]]] = []
    for name, args, kwargs in marks:
        if name == "parametrize":
            axes.append(_axis(label, args, kwargs))
    runs = [_merged(combo) for combo in itertools.product(*axes)]
    wanted = list(inspect.signature(test).parameters)[1 if method else 0 :]
    for arguments in runs:
        for parameter in wanted:
            if parameter in arguments:
                continue
            if parameter not in given:
                raise NotRunnable(
                    f"the test {label}() takes {parameter!r}, a pytest fixture a pair does not "
                    "provide: parametrize it, or write the test without fixtures"
                )
            arguments[parameter] = given[parameter]
    return runs


def _axis(label: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[dict[str, Any]]:
    names = args[0] if args else kwargs.get("argnames")
    values = args[1] if len(args) > 1 else kwargs.get("argvalues")
    if isinstance(names, str):
        names = [n.strip() for n in names.split(",") if n.strip()]
    if not isinstance(names, list | tuple) or values is None:
        raise NotRunnable(f"the test {label}() has a parametrize mark automock cannot read")
    axis = []
    for value in values:
        if type(value).__name__ == "ParameterSet":  # pytest.param(...): its values, as a row
            row = tuple(value.values)
        else:
            row = (value,) if len(names) == 1 else tuple(value)
        axis.append(dict(zip(names, row, strict=False)))
    return axis


def _merged(combo: tuple[dict[str, Any], ...]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for part in combo:
        merged.update(part)
    return merged


def _run_one(
    function: Callable[..., Any], instance: Any, arguments: dict[str, Any], xfail: bool
) -> None:
    setup = [getattr(instance, n, None) for n in ("setup_method", "setUp")]
    teardown = [getattr(instance, n, None) for n in ("teardown_method", "tearDown")]
    try:
        for step in setup:
            if callable(step):
                _call_hook(step, function)
        function(**arguments)
        for step in teardown:
            if callable(step):
                _call_hook(step, function)
    except Exception:
        if not xfail:
            raise


def _call_hook(hook: Callable[..., Any], function: Callable[..., Any]) -> None:
    """``setup_method(method)`` takes the method; ``setUp()`` nothing."""
    if len(inspect.signature(hook).parameters) == 1:
        hook(function)
    else:
        hook()
