"""Follow HTTP responses through a module: a small abstract interpreter over :mod:`ast`.

Each call site yields a symbolic response (:class:`Ref`), followed through ``r.json()``,
subscripts, ``.get``, loops, comprehensions, assignments, ``return``, arguments,
``min/max/sorted(key=...)``, ``next`` and ``asyncio.gather``: it records every access path
(``json.items.index.name``, ``attr:status_code``), type hints from use (``:.1f``, sums,
comparisons, ``.get`` defaults) and the response values a call sends to (``links``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from typing import Any

from automock.drafting._source import Module
from automock.drafting.bound_names import note_bound
from automock.drafting.call_flow import NOT_A_PASS, bind_call, passed_through, thunk_result
from automock.drafting.cookie_flow import jar_lookup
from automock.drafting.http_calls import (
    CLIENT_STATE,
    CLIENT_TYPES,
    HTTP_MODULES,
    classify_call,
    import_aliases,
    named_like_client,
    qualname,
)
from automock.drafting.link_flow import requested
from automock.drafting.literals import (
    KEY_SEP,
    Lits,
    Ref,
    constant_hint,
    constant_lits,
    literal_strings,
    looks_like_index,
    loop_literals,
    str_constant,
)
from automock.drafting.operand_hints import binop_hints, held_hint
from automock.drafting.scrape_flow import (
    MARKUP_ROOTS,
    STR_METHODS,
    bind_key_function,
    fetches_feed,
    lines_of,
    markup_attribute,
    markup_method,
    note_position,
    parse_call,
    reads_text,
    record_variant,
    string_method,
    text_calls,
)
from automock.drafting.text_filters import string_use
from automock.drafting.text_probes import compared_literals, text_method
from automock.drafting.unpacking import unpacked
from automock.drafting.url_joins import format_hints, slash_joins

__all__ = ["CLIENT_TYPES", "HTTP_MODULES", "Ref", "ResponseFlow", "import_aliases"]

_PASSES = 3
_CLIENT = object()
_NUMBER_HINTS = {"int": "int", "float": "float"}


class ResponseFlow:
    """Runs over a module (3 passes, to reach fixed points through calls) and records paths."""

    def __init__(self, module: Module, touch_lines: Iterable[int]) -> None:
        self.module = module
        self.touch_lines = set(touch_lines)
        self.aliases = import_aliases(module.tree)
        self.sites: dict[tuple[int, int], int] = {}
        self.calls: list[ast.Call] = []
        self.paths: dict[int, dict[tuple[str, ...], None]] = {}
        self.hints: dict[tuple[int, tuple[str, ...]], str] = {}
        self.returns: dict[str, Any] = {}
        self.params: dict[tuple[str, str], Any] = {}
        self.variants: dict[int, tuple[str, str, tuple[str, ...]]] = {}
        self.regexes: dict[tuple[int, tuple[str, ...]], str] = {}
        self.links: dict[int, Ref] = {}  # call site -> the response value it sends to
        self.memo_inlining: set[str] = set()  # helpers being followed for one call

    # -- driver -----------------------------------------------------------------
    def run(self) -> None:
        for _ in range(_PASSES):
            top: dict[str, Any] = {}
            self.block(self.module.tree.body, top)
            for name, func in self.module.functions.items():
                env = dict(top)  # the module's globals (``body = get(URL).text`` read inside)
                for arg in (*func.args.posonlyargs, *func.args.args, *func.args.kwonlyargs):
                    if (
                        arg.annotation is not None
                        and qualname(arg.annotation, self.aliases) in CLIENT_TYPES
                    ):
                        env[arg.arg] = _CLIENT
                    if (name, arg.arg) in self.params:
                        env[arg.arg] = self.params[(name, arg.arg)]
                self.block(func.body, env)

    def is_http_call(self, call: ast.Call, env: dict[str, Any]) -> bool:
        base = classify_call(call, self.aliases)
        if isinstance(base, bool):
            return base
        if isinstance(base, ast.Attribute) and base.attr in CLIENT_STATE:
            return False  # ``s.headers.get("X")`` reads the client's state, sends nothing
        value = self.eval(base, env) if not isinstance(base, ast.Call) else None
        if value is _CLIENT:
            return True
        if isinstance(value, Ref):
            return False
        if call.lineno in self.touch_lines and call.args:
            return True
        return named_like_client(base, call)

    def site(self, call: ast.Call) -> int:
        key = (call.lineno, call.col_offset)
        if key not in self.sites:
            self.sites[key] = len(self.calls)
            self.calls.append(call)
            self.paths[self.sites[key]] = {}
        return self.sites[key]

    def note(self, ref: Ref, hint: str | None = None) -> None:
        if ref.wrap == 0:
            self.paths[ref.site][ref.path] = None
            key = (ref.site, ref.path)
            if hint is not None and self.hints.get(key, "number") == "number":
                self.hints[key] = hint

    # -- statements -------------------------------------------------------------
    def block(self, body: list[ast.stmt], env: dict[str, Any]) -> None:
        for stmt in body:
            self.stmt(stmt, env)

    def stmt(self, stmt: ast.stmt, env: dict[str, Any]) -> None:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            return
        if isinstance(stmt, ast.Assign):
            value = self.eval(stmt.value, env)
            for target in stmt.targets:
                self.bind(target, value, env)
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            self.bind(stmt.target, self.eval(stmt.value, env), env)
        elif isinstance(stmt, ast.AugAssign):
            value = self.eval(stmt.value, env)
            if isinstance(value, Ref):
                self.note(value, "number")
        elif isinstance(stmt, ast.Expr):
            self.eval(stmt.value, env)
        elif isinstance(stmt, ast.Return) and stmt.value is not None:
            value = self.eval(stmt.value, env)
            func = self.module.enclosing_function(stmt)
            if func is not None and value is not None:
                self.returns.setdefault(func.name, value)
        elif isinstance(stmt, ast.For | ast.AsyncFor):
            self.bind(stmt.target, self.iterate(stmt.iter, env), env)
            env.update(loop_literals(self.module, stmt))  # ``for city in CITIES``
            self.block(stmt.body, env)
            self.block(stmt.orelse, env)
        elif isinstance(stmt, ast.While | ast.If):
            self.eval(stmt.test, env)
            self.block(stmt.body, env)
            self.block(stmt.orelse, env)
        elif isinstance(stmt, ast.With | ast.AsyncWith):
            for item in stmt.items:
                value = self.eval(item.context_expr, env)
                if item.optional_vars is not None:
                    self.bind(item.optional_vars, value, env)
            self.block(stmt.body, env)
        elif isinstance(stmt, ast.Try):
            self.block(stmt.body, env)
            for handler in stmt.handlers:
                self.block(handler.body, env)
            self.block(stmt.orelse, env)
            self.block(stmt.finalbody, env)

    def bind(self, target: ast.expr, value: Any, env: dict[str, Any]) -> None:
        if isinstance(target, ast.Name):
            note_bound(self, target.id, value)  # ``usd = cells[1].text``: the cell's name
            if value is None:
                env.pop(target.id, None)
            else:
                env[target.id] = value
        elif isinstance(target, ast.Tuple | ast.List):  # ``a, b = pair``, ``for s, p in rows``
            for sub, item in zip(target.elts, unpacked(self, target, value), strict=False):
                self.bind(sub, item, env)

    def iterate(self, node: ast.expr, env: dict[str, Any]) -> Any:
        """The value of one element when iterating over ``node``."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
            if node.func.id == "enumerate":
                return (None, self.iterate(node.args[0], env))
            if node.func.id == "zip":  # ``for a, b in zip(xs, ys)``: one element of each
                return tuple(self.iterate(arg, env) for arg in node.args)
            if node.func.id in ("sorted", "reversed", "list", "tuple", "iter"):
                return self.iterate(node.args[0], env)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("items", "values", "keys")
        ):
            base = self.eval(node.func.value, env)
            if isinstance(base, Ref):
                self.note(base, "dict")
                child = base.child("key:*")
                self.note(child)  # the loop reads each entry: an empty object would skip it
                if node.func.attr == "items":
                    return (None, child)
                return child if node.func.attr == "values" else None
            return None
        value = self.eval(node, env)
        if isinstance(value, Lits):  # one of the literal strings
            return value
        value = lines_of(self, value)
        if isinstance(value, Ref):
            if value.wrap:
                return Ref(value.site, value.path, value.wrap - 1)
            self.note(value, "list")
            return value.child("index")
        return None

    # -- expressions ------------------------------------------------------------
    def eval(self, node: ast.expr, env: dict[str, Any]) -> Any:
        if isinstance(node, ast.Compare | ast.Subscript | ast.Call):
            jar_lookup(self, node, env)  # ``"sid" in client.cookies``: a Set-Cookie to draft
        if isinstance(node, ast.Name):
            return env.get(node.id, constant_lits(self.module, node.id))
        if isinstance(node, ast.Await):
            return self.eval(node.value, env)
        if isinstance(node, ast.Call):  # ``str(APP_ID)``: a key the code looks a record up by
            return str_constant(self.module, node) or self.call(node, env)
        if isinstance(node, ast.Subscript):
            base = self.eval(node.value, env)
            known = self.eval(node.slice, env)
            if not isinstance(base, Ref):
                return None
            note_position(self, base, node.slice)  # ``row[8]``, ``text.split()[2]``
            if base.wrap:
                return Ref(base.site, base.path, base.wrap - 1)
            key = node.slice
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                ref = base.child(f"key:{key.value}")
            elif isinstance(key, ast.Slice):
                self.note(base, "list")
                return base
            elif isinstance(known, Lits):
                ref = base.child(f"key:{KEY_SEP.join(known.values)}")
            else:
                ref = base.child("index" if looks_like_index(key) else "key:*")
            self.note(ref)
            return ref
        if isinstance(node, ast.Attribute):
            base = self.eval(node.value, env)
            if isinstance(base, Ref) and base.path == () and not base.wrap:
                ref = base.child(f"attr:{node.attr}")
                self.note(ref)
                return ref
            if isinstance(base, Ref) and base.path[:1] in MARKUP_ROOTS and not base.wrap:
                return markup_attribute(self, base, node.attr)
            return None
        if isinstance(node, ast.JoinedStr):
            format_hints(self, node, env)
            return None
        if isinstance(node, ast.BinOp):  # ``n + 1``, ``"a" + s``, ``"%d" % n``
            binop_hints(node, lambda part: self.eval(part, env), self.note)
            slash_joins(self, node, env)
            return None
        if isinstance(node, ast.Compare):
            sides = (node.left, *node.comparators)
            values = [self.eval(n, env) for n in sides]
            consts = [n.value for n in sides if isinstance(n, ast.Constant)]
            compared_literals(self, node, values, env)  # ``"ID=" in body``, ``len(x) > 3``
            for i, value in enumerate(values):
                held = i and isinstance(node.ops[i - 1], ast.In | ast.NotIn)  # text, dict, list
                if isinstance(value, Ref) and consts:
                    hint = held_hint(value, sides[i - 1]) if held else None
                    self.note(value, hint if held else constant_hint(consts[0]))
            return None
        if isinstance(node, ast.BoolOp | ast.IfExp):
            found = [
                self.eval(n, env) for n in ast.iter_child_nodes(node) if isinstance(n, ast.expr)
            ]
            return next((v for v in found if isinstance(v, Ref)), None)
        if isinstance(node, ast.ListComp | ast.GeneratorExp | ast.SetComp):
            inner = dict(env)
            for gen in node.generators:
                self.bind(gen.target, self.iterate(gen.iter, inner), inner)
                for cond in gen.ifs:
                    self.eval(cond, inner)
            elt = self.eval(node.elt, inner)
            return Ref(elt.site, elt.path, elt.wrap + 1) if isinstance(elt, Ref) else None
        if isinstance(node, ast.DictComp):
            inner = dict(env)
            for gen in node.generators:
                self.bind(gen.target, self.iterate(gen.iter, inner), inner)
            self.eval(node.key, inner)
            self.eval(node.value, inner)
            return None
        if isinstance(node, ast.Starred):
            return self.eval(node.value, env)
        if isinstance(node, ast.List | ast.Tuple) and (strs := literal_strings(self.module, node)):
            return Lits(strs)  # ``fetch(["https://a", "https://b"])``: the URLs a loop sends to
        if isinstance(node, ast.Tuple):  # ``a, b = x, y``: each name gets its own side
            return tuple(self.eval(e, env) for e in node.elts)
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.eval(child, env)
        return None

    def call(self, node: ast.Call, env: dict[str, Any]) -> Any:
        found = self.call_value(node, env)
        text_calls(self, node, env)  # ``PATTERN.findall(text)``, ``f.write(r.text)``
        return thunk_result(self, node, env) if found is None else found

    def call_value(self, node: ast.Call, env: dict[str, Any]) -> Any:
        func = node.func
        args = [self.eval(a, env) for a in node.args]
        kwargs = {kw.arg: self.eval(kw.value, env) for kw in node.keywords}
        qual = qualname(func, self.aliases)
        if fetches_feed(self, node, qual, args):  # ``feedparser.parse(url)``: its body is a feed
            return Ref(record_variant(self, self.site(node), node, env).site, ("feed",))
        if self.is_http_call(node, env):
            return requested(self, node, env, record_variant(self, self.site(node), node, env))
        if reads_text(qual):  # ``ElementTree(file=urlopen(u))``: the file is the source
            return parse_call(self, qual, node, args or [kwargs.get("file", kwargs.get("source"))])
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Constant):
            string_method(self, func, node, args, env)
        if qual in CLIENT_TYPES:
            return _CLIENT
        passed = passed_through(self, qual, node, args, env)
        if passed is not NOT_A_PASS:
            return passed
        if isinstance(func, ast.Attribute):
            base = self.eval(func.value, env)
            if isinstance(base, Ref) and not base.wrap:
                if base.path[:1] in MARKUP_ROOTS:
                    return markup_method(self, base, func.attr, node, env)
                return self.method(base, func.attr, node, env)
        if isinstance(func, ast.Name):
            name = func.id
            if name in ("sorted", "min", "max", "filter") and args:
                bind_key_function(self, node, env)
            if name in ("sorted", "list", "reversed", "tuple", "dict") and args:
                return args[0]
            iterated = name in ("min", "max", "next") and len(node.args) == 1
            inner = getattr(getattr(node.args[0], "func", None), "id", None) if iterated else None
            if iterated and (isinstance(args[0], Ref) or inner == "iter"):
                return self.iterate(node.args[0], env)  # ``next(iter(d.values()))``
            if name in ("len",) and isinstance(args[0] if args else None, Ref):
                self.note(args[0], "list")
            numeric = name in ("sum", "min", "max", "round", "abs", "float", "int")
            if numeric and args and isinstance(value := args[0], Ref):
                self.note(Ref(value.site, value.path), _NUMBER_HINTS.get(name, "number"))
            if name in self.module.functions:
                return bind_call(self, node, name, (args, kwargs), skip=0)
        if (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id in ("self", "cls")
            and func.attr in self.module.functions
        ):
            return bind_call(self, node, func.attr, (args, kwargs), skip=1)  # ``self.fetch()``
        return None

    def method(self, base: Ref, name: str, node: ast.Call, env: dict[str, Any]) -> Any:
        if base.path == ():
            if name == "json":
                ref = base.child("json")
                self.note(ref)
                return ref
            if name in ("text", "read", "readall", "iter_lines", "readlines"):
                ref = base.child("attr:text")
                self.note(ref)
                return ref
            return None
        if base.path[0] in ("attr:text", "attr:content"):  # ``r.text.find("ID=")``
            return text_method(self, base, name, node, env)
        if name == "get" and node.args:
            key = node.args[0]
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                ref = base.child(f"key:{key.value}")
                hint = None
                if len(node.args) > 1 and isinstance(node.args[1], ast.Constant):
                    hint = constant_hint(node.args[1].value)
                self.note(ref, hint)
                return ref
        if name in ("items", "keys", "values"):
            self.note(base, "dict")
        if name in STR_METHODS:  # a text; ``if row["code"].startswith("A"):`` keeps "A..."
            string_use(self, base, name, node)
        return None
