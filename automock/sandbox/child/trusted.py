"""A pair's trusted code (its tests and its problem's prompt), compiled once per problem.

The tests and the prompt are the same for every sample of a problem, and they are
trusted: the pool compiles each once (:func:`pack`, cached by text) and hands the
test process the code objects, ``marshal``-ed, behind the candidate's own fields
(:func:`automock.sandbox.batch.task.encode_task`). The test process reads them only
after it forked the candidate's process, as it read the tests' text before, and
loads them (:func:`unpack`) instead of compiling: a sample's pair no longer pays
for parsing and compiling the same tests again.

The code objects are named after the problem (``HumanEval/0 (test)``), not the
sample, so one compile serves every sample; their lines are put in ``linecache``
by the test process, so a failing test's traceback shows them. What cannot be
compiled (a syntax error in the tests) is sent as text only: the test process
compiles it and reports the error where the tests would run, as before. The pool
compiles with ``optimize=0`` and none of its own ``__future__`` flags: the tests'
asserts stay even when the pool runs under ``python -O``.

The tests are compiled with a count of the checks they execute
(:func:`compile_tests`): before each ``assert`` statement, each call of an
``assert*`` function or method (``self.assertEqual``, ``assert_allclose``), each
``with pytest.raises(...)``/``assertRaises(...)`` block and each
``if <condition>: raise ...`` with nothing else in its body, a call of
:data:`COUNTER` is inserted, which the test process binds to its own counter. A
pair whose tests executed no check is not ``passed``: the count lives in the test
process, never on the candidate's word.
"""

from __future__ import annotations

import ast
import linecache
import marshal
import types
from typing import Any

__all__ = [
    "COUNTER",
    "CheckCounter",
    "TrustedCode",
    "cache_lines",
    "compile_tests",
    "filename",
    "pack",
    "unpack",
]

COUNTER = "__automock_check__"  # the name the tests' checks call; bound by the test process
_RAISES = frozenset({"raises", "warns", "deprecated_call"})  # pytest's checking blocks

_CACHE_LIMIT = 4096  # problems' compiled tests and prompts kept in the pool's process
_compiled: dict[tuple[str, str], bytes | None] = {}


def filename(task_id: str, part: str) -> str:
    """The name the trusted ``part`` (``"test"`` or ``"prompt"``) of a problem is compiled under."""
    return f"{task_id} ({part})"


def _checking(call: ast.expr) -> bool:
    """Whether ``call`` is a call of a checking function: ``assert*`` (unittest's methods,
    numpy's ``assert_allclose``) or pytest's ``raises``/``warns``."""
    if not isinstance(call, ast.Call):
        return False
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name.startswith("assert") or name in _RAISES


def _counted(body: list[ast.stmt]) -> list[ast.stmt]:
    """``body`` with a call of :data:`COUNTER` before each statement that checks something,
    nested blocks included. Only statements are walked (an ``assert`` is one): the tests'
    expressions, often long literal tables of cases, are never visited."""
    out: list[ast.stmt] = []
    for stmt in body:
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                setattr(stmt, field, _counted(inner))
        for block in (*getattr(stmt, "handlers", ()), *getattr(stmt, "cases", ())):
            block.body = _counted(block.body)
        if _checks(stmt):  # located at the statement (no pass over the whole tree after)
            name = ast.copy_location(ast.Name(COUNTER, ast.Load()), stmt)
            call = ast.copy_location(ast.Call(name, [], []), stmt)
            out.append(ast.copy_location(ast.Expr(call), stmt))
        out.append(stmt)
    return out


def _checks(stmt: ast.stmt) -> bool:
    if isinstance(stmt, ast.Assert):
        return True
    if isinstance(stmt, ast.Expr):
        return _checking(stmt.value)
    if isinstance(stmt, ast.With | ast.AsyncWith):
        return any(_checking(item.context_expr) for item in stmt.items)
    # ``if wrong: raise AssertionError(...)``: a check written without ``assert``
    return isinstance(stmt, ast.If) and len(stmt.body) == 1 and isinstance(stmt.body[0], ast.Raise)


class CheckCounter:
    """What :data:`COUNTER` is bound to in the test process: the count of checks the tests
    executed. It lives there, where the candidate cannot reach."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self) -> None:
        self.count += 1


def compile_tests(text: str, name: str) -> types.CodeType:
    """The tests compiled with their checks counted (see the module doc); ``optimize=0``,
    so asserts stay whatever flags this process runs under. Raises what ``compile``
    raises."""
    tree = ast.parse(text, name, "exec")
    tree.body = _counted(tree.body)
    return compile(tree, name, "exec", dont_inherit=True, optimize=0)


def _marshalled(text: str | None, name: str, *, tests: bool = False) -> bytes | None:
    if not text:
        return None
    key = (text, name)
    if key not in _compiled:
        if len(_compiled) >= _CACHE_LIMIT:
            _compiled.clear()
        try:
            # optimize=0: asserts stay, whatever flags the pool runs under (-O strips them)
            if tests:
                code = compile_tests(text, name)
            else:
                code = compile(text, name, "exec", dont_inherit=True, optimize=0)
            _compiled[key] = marshal.dumps(code)
        except (SyntaxError, ValueError, MemoryError, RecursionError):
            _compiled[key] = None  # the test process compiles it and reports the error
    return _compiled[key]


def pack(task_id: str, test: str, prompt: str | None) -> bytes:
    """The tests' text and the compiled tests and prompt, as the test process reads them."""
    return marshal.dumps(
        (
            test,
            _marshalled(test, filename(task_id, "test"), tests=True),
            _marshalled(prompt, filename(task_id, "prompt")),
        )
    )


class TrustedCode:
    """What the test process got: the tests' text and code, the prompt's code."""

    __slots__ = ("prompt", "test", "test_code")

    def __init__(self, test: str, test_code: types.CodeType | None, prompt: types.CodeType | None):
        self.test, self.test_code, self.prompt = test, test_code, prompt


def unpack(data: bytes, task_id: str, prompt_text: str | None) -> TrustedCode:
    """Load what :func:`pack` made; put the trusted sources in ``linecache`` for tracebacks."""
    test, test_code, prompt_code = marshal.loads(data)
    for text, code, part in ((test, test_code, "test"), (prompt_text, prompt_code, "prompt")):
        if code is not None and text:
            cache_lines(text, filename(task_id, part))
    return TrustedCode(test, _code(test_code), _code(prompt_code))


def _code(data: Any) -> types.CodeType | None:
    if data is None:
        return None
    code = marshal.loads(data)
    return code if isinstance(code, types.CodeType) else None


def cache_lines(text: str, name: str) -> None:
    """Put ``text`` in ``linecache`` as file ``name``: tracebacks and ``inspect.getsource``
    show code compiled from it."""
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    linecache.cache[name] = (len(text), None, lines, name)
