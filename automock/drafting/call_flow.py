"""Library calls a response passes through unchanged, or as one of its elements.

``json.loads(r.text)`` is the response's JSON; ``conn.getresponse()`` (http.client) the
response to the request last sent on ``conn``; ``asyncio.run``/``wait_for``
hand back their argument and ``asyncio.gather`` a list of results;
``random.choice(items)`` (on any generator) is one element of ``items`` and
``sample``/``choices`` a list of them, so ``random.choice(r.json()["items"])["id"]``
puts ``id`` into each drafted item. Used by
:class:`automock.drafting.flow.ResponseFlow`.
"""

from __future__ import annotations

import ast
from typing import Any

from automock.drafting.literals import Lits, Ref

__all__ = ["NOT_A_PASS", "bind_call", "passed_through", "thunk_result"]

NOT_A_PASS = object()
_WHOLE_TEXT = (("attr:text",), ("attr:content",))
_JSON_LOADS = ("json.loads", "json.load", "orjson.loads", "ujson.loads")
_JSON_DUMPS = ("json.dumps", "orjson.dumps", "ujson.dumps")
_PICKS = ("choice", "sample", "choices")


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _last_sent(flow: Any, receiver: ast.expr) -> Ref | None:
    """``conn.getresponse()`` (http.client): the response to the request last sent on
    ``conn`` above it (``conn.request("GET", "/users")``), the call the plan stubs."""
    shape = ast.dump(receiver)
    for call in reversed(flow.calls):
        func = call.func
        if (
            isinstance(func, ast.Attribute)
            and ast.dump(func.value) == shape
            and (call.lineno, call.col_offset) in flow.sites
        ):
            return Ref(flow.sites[(call.lineno, call.col_offset)], ())
    return None


def _collect(flow: Any, node: ast.Call, first: Any, env: dict[str, Any]) -> None:
    """``urls.append(item["url"])``, ``urls.extend([...])`` on a local list: the list then
    holds response values, so a loop over it yields one (``for url in urls: get(url)``)."""
    func = node.func
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and node.args):
        return
    name, arg = func.value.id, node.args[0]
    if name in env or func.attr not in ("append", "extend", "add"):
        return  # a list already followed (a response's own, or one collected above)
    if func.attr == "extend" and isinstance(arg, ast.List | ast.Tuple) and arg.elts:
        first, func_attr = flow.eval(arg.elts[0], env), "append"
    else:
        func_attr = func.attr
    if isinstance(first, Ref):
        wrap = first.wrap + 1 if func_attr in ("append", "add") else first.wrap
        env[name] = Ref(first.site, first.path, wrap)


_CASES = ("upper", "lower", "strip", "title", "casefold", "capitalize")


def passed_through(
    flow: Any, qual: str, node: ast.Call, args: list[Any], env: dict[str, Any]
) -> Any:
    """What ``node`` returns when it passes a response along; :data:`NOT_A_PASS` if it does not."""
    first = args[0] if args else None
    _collect(flow, node, first, env)
    if _name(node.func) == "getresponse" and isinstance(node.func, ast.Attribute):
        sent = _last_sent(flow, node.func.value)
        if sent is not None:
            return sent
    if _name(node.func) in _PICKS and isinstance(first, Ref):
        return flow.iterate(node.args[0], env) if _name(node.func) == "choice" else first
    if qual in _JSON_DUMPS and isinstance(first, Ref) and first.path[:1] == ("json",):
        return first  # ``json.loads(json.dumps(items))`` hands back the same data
    if qual == "str" and isinstance(first, Ref) and first.path in _WHOLE_TEXT:
        return first  # ``re.findall(p, str(resp.read()))`` searches the body
    if qual in _JSON_LOADS and isinstance(first, Ref):
        if first.path[:1] == ("json",):
            return first
        a_line = first.path in (("attr:text", "index"), ("attr:content", "index"))
        decoded = Ref(first.site, ("jsonl",) if a_line else ("json",))  # one JSON value a line
        flow.note(decoded)  # decoded as JSON: the body is JSON even when no key of it is read
        return decoded
    if isinstance(node.func, ast.Attribute) and node.func.attr in _CASES:
        base = flow.eval(node.func.value, env)
        if isinstance(base, Lits):  # ``code.upper()``: one of those literals, upper-cased
            return Lits(tuple(getattr(v, node.func.attr)() for v in base.values))
    if _name(node.func) == "get_unicode_from_response" and isinstance(first, Ref):
        return flow.method(first, "text", node, env) if not first.path else NOT_A_PASS
    if qual in ("asyncio.run", "asyncio.wait_for") and args:
        return first
    if qual == "asyncio.gather":
        found = next((a for a in args if isinstance(a, Ref)), None)
        if found is not None:
            starred = any(isinstance(a, ast.Starred) for a in node.args)
            return found if starred else Ref(found.site, found.path, found.wrap + 1)
    return NOT_A_PASS


def thunk_result(flow: Any, node: ast.Call, env: dict[str, Any]) -> Any:
    """``retrying(lambda: client.get(url))``: what the thunk returns, when nothing else is known.

    A helper handed a callable with no parameters (a retry loop, a timer, a
    circuit breaker) gives back what that callable returns.
    """
    for arg in node.args:
        if isinstance(arg, ast.Lambda) and not arg.args.args and not arg.args.vararg:
            value = flow.eval(arg.body, env)
            if isinstance(value, Ref):
                return value
    return None


def bind_call(
    flow: Any,
    node: ast.Call,
    name: str,
    passed: tuple[list[Any], dict[str | None, Any]],
    skip: int,
) -> Any:
    """A call of the module's own function ``name``: bind its parameters, give its return.

    ``skip`` is 1 for a method called on its own object (``self.fetch(...)``).
    A call handing a response and a literal text to a helper
    (``_text(card, "h2.title")``) is also followed on its own, with that text.
    """
    args, kwargs = passed
    target = flow.module.functions[name]
    if target.name != name and isinstance(flow.module.parents.get(id(target)), ast.ClassDef):
        skip = 1  # ``Rates(body)``: the class's ``__init__``, its ``self`` left out
    params = [a.arg for a in (*target.args.posonlyargs, *target.args.args)][skip:]
    for param, value, arg in zip(params, args, node.args, strict=False):
        if value is not None:
            flow.params.setdefault((name, param), value)
        elif isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            _add_literal(flow.params, (name, param), arg.value)
    for key, value in kwargs.items():
        if key is not None and isinstance(value, Ref | Lits):
            flow.params.setdefault((name, key), value)
    texts = [a for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    if texts and any(isinstance(v, Ref) for v in args) and name not in flow.memo_inlining:
        return _inlined(flow, node, target, params, args)
    return flow.returns.get(name)


def _add_literal(params: dict[tuple[str, str], Any], key: tuple[str, str], text: str) -> None:
    """``rate("USD")`` then ``rate("EUR")``: the parameter is one of those literals."""
    known = params.get(key)
    if known is None or isinstance(known, Lits):
        params[key] = Lits(tuple(dict.fromkeys((*(known.values if known else ()), text))))


def _inlined(
    flow: Any,
    node: ast.Call,
    target: ast.FunctionDef | ast.AsyncFunctionDef,
    params: list[str],
    args: list[Any],
) -> Any:
    """Follow ``target``'s body for this one call; the first response its returns give."""
    env: dict[str, Any] = {}
    for param, value, arg in zip(params, args, node.args, strict=False):
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            env[param] = Lits((arg.value,))
        elif value is not None:
            env[param] = value
    flow.memo_inlining.add(target.name)
    try:
        flow.block(target.body, env)
        returns = [n.value for n in ast.walk(target) if isinstance(n, ast.Return) and n.value]
        found = [flow.eval(value, env) for value in returns]
    finally:
        flow.memo_inlining.discard(target.name)
    return next((v for v in found if isinstance(v, Ref)), None)
