"""Small ``ast`` helpers the drafters share: constants, scopes, call sites.

The drafters read a module once with :mod:`ast` (stdlib, fast) and ask simple
questions of it: what string does this expression evaluate to, if it is built
from literals and module-level constants; which function encloses this line;
which arguments do the callers of that function pass.
"""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Module", "Rendered", "env_read", "parse_module"]

PLACEHOLDER = "\x00"  # stands for an unresolved part of a rendered string
_PERCENT = re.compile(r"%%|%[-#0 +]*\d*(?:\.\d+)?[sdirfgexXo]")


@dataclass(frozen=True, slots=True)
class Rendered:
    """A string expression rendered as far as static analysis allows.

    ``text`` holds :data:`PLACEHOLDER` where a part could not be resolved.
    """

    text: str

    @property
    def complete(self) -> bool:
        return PLACEHOLDER not in self.text

    @property
    def parts(self) -> list[str]:
        return self.text.split(PLACEHOLDER)


@dataclass
class Module:
    """A parsed module with its module-level constants and functions indexed."""

    tree: ast.Module
    constants: dict[str, ast.expr] = field(default_factory=dict)
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict)
    parents: dict[int, ast.AST] = field(default_factory=dict)
    by_line: dict[int, list[ast.AST]] = field(default_factory=dict)
    calls_by_name: dict[str, list[ast.Call]] = field(default_factory=dict)
    # ``self.name(...)``/``cls.name(...)`` calls: a method called on its own object
    calls_on_self: dict[str, list[ast.Call]] = field(default_factory=dict)
    memo: dict[str, Any] = field(default_factory=dict)  # per-module results drafters reuse
    # (function, parameter) -> literal texts other project modules pass for it
    outside: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)

    def walk(self) -> Iterator[ast.AST]:
        return ast.walk(self.tree)

    def nodes_on_line(self, line: int) -> list[ast.AST]:
        return self.by_line.get(line, [])

    def calls_on_line(self, line: int) -> list[ast.Call]:
        found = [n for n in self.nodes_on_line(line) if isinstance(n, ast.Call)]
        return sorted(found, key=lambda n: (n.lineno, n.col_offset))

    def enclosing_function(self, node: ast.AST) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        current = self.parents.get(id(node))
        while current is not None:
            if isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef):
                return current
            current = self.parents.get(id(current))
        return None

    def callers_args(
        self, func: ast.FunctionDef | ast.AsyncFunctionDef, param: str
    ) -> list[ast.expr]:
        """Expressions passed for ``param`` at every direct call ``func(...)`` in the module.

        A method is found through ``self.method(...)`` calls, its first
        parameter (``self``) being the object the call is made on.
        """
        names = [a.arg for a in (*func.args.posonlyargs, *func.args.args)]
        calls = self.calls_by_name.get(func.name, [])
        if isinstance(self.parents.get(id(func)), ast.ClassDef) and names:
            names, calls = names[1:], self.calls_on_self.get(func.name, [])
        if param not in names:
            return []
        index = names.index(param)
        found: list[ast.expr] = []
        for node in calls:
            if index < len(node.args) and not isinstance(node.args[index], ast.Starred):
                found.append(node.args[index])
            found.extend(kw.value for kw in node.keywords if kw.arg == param)
        return found

    def render(self, node: ast.expr, *, _depth: int = 0) -> Rendered:
        """Render a str expression built from literals, constants and f-strings."""
        if _depth > 8:
            return Rendered(PLACEHOLDER)
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return Rendered(node.value)
        if isinstance(node, ast.Name):
            return self._render_name(node, _depth)
        if isinstance(node, ast.JoinedStr):
            out = []
            for value in node.values:
                if isinstance(value, ast.FormattedValue):
                    out.append(self.render(value.value, _depth=_depth + 1).text)
                else:
                    out.append(self.render(value, _depth=_depth + 1).text)
            return Rendered("".join(out))
        if (
            isinstance(node, ast.Call)
            and node.args
            and (ast.unparse(node.func).rpartition(".")[2] == "Request")
        ):  # urllib.request.Request(url, ...): the URL a later urlopen(request) sends to
            return self.render(node.args[0], _depth=_depth + 1)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            # a long ``a + b + c + …`` chain is finite: only names followed count as depth
            left = self.render(node.left, _depth=_depth).text
            right = self.render(node.right, _depth=_depth).text
            return Rendered(left + right)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):  # "…%s…" % (x,)
            values = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
            rendered = [self.render(v, _depth=_depth + 1).text for v in values]
            template = self.render(node.left, _depth=_depth + 1).text
            return Rendered(_percent(template, rendered))
        if (read := env_read(node)) is not None:  # the drafted value (drafting/env_values.py)
            value = self.memo.get("env", {}).get(read[0], read[1])
            return Rendered(value if isinstance(value, str) else PLACEHOLDER)
        if isinstance(node, ast.Call):
            return self._render_call(node, _depth)
        return Rendered(PLACEHOLDER)

    def bound_value(self, node: ast.Name) -> ast.expr | None:
        """The one value the name ``node`` is assigned in its scope, else None."""
        func = self.enclosing_function(node)
        local = _assignments(func if func is not None else self.tree, node.id)
        return local[0] if len(local) == 1 else None

    def _render_name(self, node: ast.Name, _depth: int) -> Rendered:
        """A name: its constant, its one assignment, the one just above, or the one value
        every assignment and caller agrees on."""
        if node.id in self.constants:
            return self.render(self.constants[node.id], _depth=_depth + 1)
        func = self.enclosing_function(node)
        local = _assignments(func if func is not None else self.tree, node.id)
        if len(local) == 1:
            return self.render(local[0], _depth=_depth + 1)
        # ``url = TOP`` … ``url = ITEM + str(n)`` then ``get(url)``: the one just above
        earlier = [v for v in local if v.lineno < node.lineno]
        if earlier:
            last = max(earlier, key=lambda v: (v.lineno, v.col_offset))
            above = self.render(last, _depth=_depth + 1)
            if above.text.strip(PLACEHOLDER):
                return above
        # ``url = "/v2/items"`` then ``url = page["next"]``: the one value known statically
        known = {r.text for v in local if (r := self.render(v, _depth=_depth + 1)).complete}
        if len(known) == 1:
            return Rendered(known.pop())
        # ``url = BASE.format(term)`` then ``url = page.get("next")``: the one with a form
        formed = {r.text for v in local if (r := self.render(v, _depth=_depth + 1)).text}
        formed.discard(PLACEHOLDER)
        if len(formed) == 1 and not known:
            return Rendered(formed.pop())
        if func is not None:
            options = {
                self.render(a, _depth=_depth + 1).text for a in self.callers_args(func, node.id)
            }
            options.update(self.outside.get((func.name, node.id), ()))
            if len(options) == 1:
                return Rendered(options.pop())
        return Rendered(PLACEHOLDER)

    def _render_call(self, node: ast.Call, depth: int) -> Rendered:
        """``template.format(...)``, and ``Request(url, …)`` as the URL it carries."""
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "format":
            template = self.render(func.value, _depth=depth + 1).text
            args = [self.render(a, _depth=depth + 1).text for a in node.args]
            kwargs = {
                kw.arg: self.render(kw.value, _depth=depth + 1).text
                for kw in node.keywords
                if kw.arg is not None
            }
            return Rendered(_format(template, args, kwargs))
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name == "Request":
            url = next((kw.value for kw in node.keywords if kw.arg == "url"), None)
            url = url if url is not None else node.args[0] if node.args else None
            if url is not None:
                return self.render(url, _depth=depth + 1)
        return Rendered(PLACEHOLDER)


def env_read(node: ast.AST) -> tuple[str, str | None] | None:
    """``(variable, literal default)`` when ``node`` reads the environment by a literal name."""
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Constant)
        and isinstance(node.slice.value, str)
        and ast.unparse(node.value).endswith("environ")
    ):
        return node.slice.value, None
    if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
        name = ast.unparse(node.func)
        first = node.args[0].value
        if name.endswith(("getenv", "environ.get", "environ.setdefault")) and isinstance(
            first, str
        ):
            default = node.args[1] if len(node.args) > 1 else None
            literal = (
                default.value
                if isinstance(default, ast.Constant) and isinstance(default.value, str)
                else None
            )
            return first, literal
    return None


def _percent(template: str, values: list[str]) -> str:
    """``template % values`` with each conversion replaced by its rendered value (or unknown)."""
    rest = iter(values)
    return _PERCENT.sub(lambda m: "%" if m.group(0) == "%%" else next(rest, PLACEHOLDER), template)


def _format(template: str, args: list[str], kwargs: dict[str, str]) -> str:
    """``template.format(*args, **kwargs)`` with unknown fields as :data:`PLACEHOLDER`."""
    out: list[str] = []
    auto = 0
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError:
        return PLACEHOLDER
    for literal, field_name, _, _ in parsed:
        out.append(literal)
        if field_name is None:
            continue
        key = field_name.split(".")[0].split("[")[0]
        if key == "":
            key, auto = str(auto), auto + 1
        value = args[int(key)] if key.isdigit() and int(key) < len(args) else kwargs.get(key)
        plain = not any(c in field_name for c in ".[")
        out.append(value if value is not None and plain else PLACEHOLDER)
    return "".join(out)


def _assignments(func: ast.AST, name: str) -> list[ast.expr]:
    """Every value assigned to ``name`` in the scope, ``a, b = x, y`` unpacked."""
    values: list[ast.expr] = []
    for stmt in ast.walk(func):
        if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1:
            continue
        target, value = stmt.targets[0], stmt.value
        if isinstance(target, ast.Name) and target.id == name:
            values.append(value)
        elif (
            isinstance(target, ast.Tuple)
            and isinstance(value, ast.Tuple)
            and len(target.elts) == len(value.elts)
        ):
            values.extend(
                v
                for t, v in zip(target.elts, value.elts, strict=True)
                if isinstance(t, ast.Name) and t.id == name
            )
    return values


def _module_constants(tree: ast.Module) -> dict[str, ast.expr]:
    constants: dict[str, ast.expr] = {}
    assigned: dict[str, int] = {}
    for stmt in tree.body:
        targets: list[ast.expr] = []
        value: ast.expr | None = None
        if isinstance(stmt, ast.Assign):
            targets, value = list(stmt.targets), stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            targets, value = [stmt.target], stmt.value
        for target in targets:
            if isinstance(target, ast.Name) and value is not None:
                assigned[target.id] = assigned.get(target.id, 0) + 1
                constants[target.id] = value
    for name in _rebound_in_blocks(tree):  # ``for n in ids: url = ITEM + str(n)``
        assigned[name] = assigned.get(name, 0) + 1
    # a name assigned twice at module level is not a constant
    return {k: v for k, v in constants.items() if assigned[k] == 1}


def _rebound_in_blocks(tree: ast.Module) -> list[str]:
    """Names assigned inside the module's own loops, ``if``s, ``with``s and ``try``s."""
    found: list[str] = []
    todo: list[ast.AST] = [s for s in tree.body if not isinstance(s, ast.Assign | ast.AnnAssign)]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found += [t.id for t in targets if isinstance(t, ast.Name)]
        todo.extend(ast.iter_child_nodes(node))
    return found


def parse_module(source: str) -> Module:
    """Parse ``source``; a syntax error propagates (callers turn it into InputError)."""
    tree = ast.parse(source)
    module = Module(tree=tree, constants=_module_constants(tree))
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            module.parents[id(child)] = node
        line = getattr(node, "lineno", None)
        if isinstance(line, int):
            module.by_line.setdefault(line, []).append(node)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            module.calls_by_name.setdefault(node.func.id, []).append(node)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id in ("self", "cls")
        ):
            module.calls_on_self.setdefault(node.func.attr, []).append(node)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            module.functions.setdefault(node.name, node)
        if isinstance(node, ast.ClassDef):  # ``Rates(body)`` runs ``Rates.__init__``
            for init in node.body:
                if isinstance(init, ast.FunctionDef) and init.name == "__init__":
                    module.functions.setdefault(node.name, init)
    return module
