"""Touchpoints that only show across functions and modules of one project.

The per-file scanner resolves a name to what its own file binds it to. Real
programs hand their session, client, RNG or connection around: a helper
returns it (``s = make_session(); s.get(url)``), a constructor stores it
(``self.session = requests.Session()``), a caller passes it in
(``fetch(session, url)``), or a default picks it (``rng = rng or random``).
This pass follows those shapes over every module of a project with ``ast``:

* facts, gathered to a fixed point: what each project function returns, what
  each class stores on ``self``, what each module-level name holds, and what
  each parameter receives at any call site;
* then every method call whose receiver got its type through such a fact and
  whose qualified name the catalog knows is a touchpoint.

Calls the per-file scanner finds (a name bound in the same function) are not
reported twice: only receivers that got their type through a fact count.
Ambiguity stays silent, as in the scanner: the first known value wins.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import replace

from automock.analysis import catalog
from automock.analysis.flow_facts import Ctx, Facts, FlowModule, Known, import_table
from automock.analysis.model import Touchpoint

__all__ = ["FlowModule", "flow_touchpoints", "import_table"]

_PASSES = 6
_TRACKED_TYPES = frozenset(catalog.RETURNS.values())


def _callable_defs(
    module: FlowModule, facts: Facts
) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef, str | None]]:
    for node in module.tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield f"{module.name}.{node.name}", node, None
        elif isinstance(node, ast.ClassDef):
            cls = f"{module.name}.{node.name}"
            facts.classes.add(cls)
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    yield f"{cls}.{item.name}", item, cls


class _Pass:
    """One walk over every module; ``report`` collects touchpoints on the last one."""

    def __init__(self, facts: Facts, report: bool = False) -> None:
        self.facts = facts
        self.report = report
        self.found: list[tuple[FlowModule, ast.Call, str, catalog.Api]] = []

    def module(self, module: FlowModule, names: dict[str, str]) -> None:
        ctx = Ctx(module, names)
        self.block(module.tree.body, {}, ctx)
        for qualified, node, cls in self.facts_of(module):
            env = self.parameters(node, qualified, cls, ctx)
            self.block(node.body, env, Ctx(module, names, qualified, cls))

    def facts_of(
        self, module: FlowModule
    ) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef, str | None]]:
        return self.facts.by_module.get(module.name, [])

    def parameters(
        self,
        node: ast.FunctionDef | ast.AsyncFunctionDef,
        qualified: str,
        cls: str | None,
        ctx: Ctx,
    ) -> dict[str, Known]:
        env: dict[str, Known] = {}
        args = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
        defaults: list[ast.expr | None] = [None] * (
            len(node.args.posonlyargs) + len(node.args.args)
        )
        defaults[len(defaults) - len(node.args.defaults) :] = node.args.defaults
        defaults += node.args.kw_defaults
        for index, (arg, default) in enumerate(zip(args, defaults, strict=False)):
            known = self.facts.params.get((qualified, arg.arg))
            if index == 0 and cls is not None and not _is_static(node):
                known = Known(cls, instance=True, flowed=True)
            elif known is None and default is not None:
                known = self.type_of(default, {}, ctx)
            elif known is None and arg.annotation is not None:
                declared = self.type_of(arg.annotation, {}, ctx)
                if declared is not None and declared.name in _TRACKED_TYPES:
                    known = Known(declared.name, instance=True)
            if known is not None:
                env[arg.arg] = known
        return env

    # -- statements -------------------------------------------------------------
    def block(self, body: Iterable[ast.stmt], env: dict[str, Known], ctx: Ctx) -> None:
        for stmt in body:
            self.stmt(stmt, env, ctx)

    def stmt(self, stmt: ast.stmt, env: dict[str, Known], ctx: Ctx) -> None:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            return  # walked on their own (methods, functions) or not at all (nested)
        heads: list[ast.AST] = [stmt]
        bodies: list[list[ast.stmt]] = []
        if isinstance(stmt, ast.If | ast.While | ast.For | ast.AsyncFor | ast.With | ast.AsyncWith):
            heads = [getattr(stmt, n) for n in ("test", "iter", "target") if hasattr(stmt, n)]
            heads += [i.context_expr for i in getattr(stmt, "items", ())]
            bodies = [stmt.body, getattr(stmt, "orelse", [])]
        elif isinstance(stmt, ast.Try | ast.TryStar):
            heads = []
            bodies = [stmt.body, *(h.body for h in stmt.handlers), stmt.orelse, stmt.finalbody]
        for head in heads:
            self.calls(head, env, ctx)
        self.bind(stmt, env, ctx)
        for body in bodies:
            self.block(body, env, ctx)

    def bind(self, stmt: ast.stmt, env: dict[str, Known], ctx: Ctx) -> None:
        if isinstance(stmt, ast.Assign | ast.AnnAssign) and stmt.value is not None:
            value = self.type_of(stmt.value, env, ctx)
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for target in targets:
                self.assign(target, value, env, ctx)
        elif isinstance(stmt, ast.With | ast.AsyncWith):
            for item in stmt.items:
                if item.optional_vars is not None:
                    value = self.type_of(item.context_expr, env, ctx)
                    self.assign(item.optional_vars, value, env, ctx)
        elif isinstance(stmt, ast.Return) and stmt.value is not None and ctx.function:
            value = self.type_of(stmt.value, env, ctx)
            if value is not None:
                self.facts.returns.setdefault(ctx.function, replace(value, flowed=True))

    def assign(
        self, target: ast.expr, value: Known | None, env: dict[str, Known], ctx: Ctx
    ) -> None:
        if value is None:
            return
        if isinstance(target, ast.Name):
            env[target.id] = value
            if ctx.function is None:
                self.facts.values.setdefault(f"{ctx.module.name}.{target.id}", value)
        elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
            owner = env.get(target.value.id)
            if owner is not None and owner.instance and owner.name in self.facts.classes:
                self.facts.values.setdefault(f"{owner.name}.{target.attr}", value)

    # -- calls -----------------------------------------------------------------
    def calls(self, node: ast.AST, env: dict[str, Known], ctx: Ctx) -> None:
        found = self.facts.calls.get(id(node))
        if found is None:
            found = [n for n in ast.walk(node) if isinstance(n, ast.Call)]
            self.facts.calls[id(node)] = found
        for call in found:
            self.call(call, env, ctx)

    def call(self, call: ast.Call, env: dict[str, Known], ctx: Ctx) -> None:
        func = self.type_of(call.func, env, ctx)
        if func is None:
            return
        target, shift = func.name, 0
        if target in self.facts.classes:
            target, shift = f"{target}.__init__", 1
        elif (
            isinstance(call.func, ast.Attribute) and func.flowed and target in self.facts.functions
        ):
            shift = 1  # a bound method: ``self`` is not among the arguments
        if target in self.facts.functions:
            self.arguments(target, shift, call, env, ctx)
        elif self.report and isinstance(call.func, ast.Attribute):
            self.check(call, env, ctx)

    def arguments(
        self, target: str, shift: int, call: ast.Call, env: dict[str, Known], ctx: Ctx
    ) -> None:
        node = self.facts.functions[target][0]
        names = [a.arg for a in (*node.args.posonlyargs, *node.args.args)][shift:]
        pairs = list(zip(names, call.args, strict=False))
        pairs += [(k.arg, k.value) for k in call.keywords if k.arg is not None]
        for name, arg in pairs:
            value = self.type_of(arg, env, ctx)
            if value is not None and not isinstance(arg, ast.Starred):
                self.facts.params.setdefault((target, name), replace(value, flowed=True))

    def check(self, call: ast.Call, env: dict[str, Known], ctx: Ctx) -> None:
        assert isinstance(call.func, ast.Attribute)
        base = self.type_of(call.func.value, env, ctx)
        if base is None or not base.flowed or base.name in self.facts.classes:
            return
        name = f"{base.name}.{call.func.attr}"
        match = catalog.lookup(name)
        if match is None or (
            match[0] != name and match[0] in _TRACKED_TYPES and match[1].kind == "network"
        ):
            return  # ``s.headers.update(...)`` is no request
        if not _pure(call, match[1]):
            self.found.append((ctx.module, call, name, match[1]))

    # -- values ----------------------------------------------------------------
    def type_of(self, node: ast.expr, env: dict[str, Known], ctx: Ctx) -> Known | None:
        if isinstance(node, ast.Name):
            return self.name(node.id, env, ctx)
        if isinstance(node, ast.Attribute):
            base = self.type_of(node.value, env, ctx)
            return None if base is None else self.member(base, node.attr)
        if isinstance(node, ast.Call):
            return self.result(node, env, ctx)
        if isinstance(node, ast.BoolOp | ast.IfExp):
            parts = node.values if isinstance(node, ast.BoolOp) else [node.body, node.orelse]
            for part in parts:
                value = self.type_of(part, env, ctx)
                if value is not None:
                    return replace(value, flowed=True)
        if isinstance(node, ast.Await):
            return self.type_of(node.value, env, ctx)
        return None

    def name(self, name: str, env: dict[str, Known], ctx: Ctx) -> Known | None:
        if name in env:
            return env[name]
        qualified = ctx.names.get(name)
        if qualified is None:
            own = self.facts.values.get(f"{ctx.module.name}.{name}")
            return None if own is None else replace(own, flowed=True)
        qualified = self.facts.origin(qualified)
        known = self.facts.values.get(qualified)
        return replace(known, flowed=True) if known is not None else Known(qualified)

    def member(self, base: Known, attr: str) -> Known | None:
        key = f"{base.name}.{attr}" if base.instance else self.facts.origin(f"{base.name}.{attr}")
        if base.name in self.facts.classes:
            if key in self.facts.values:
                return replace(self.facts.values[key], flowed=True)
            return Known(key, flowed=True) if key in self.facts.functions else None
        if key in self.facts.values:
            return replace(self.facts.values[key], flowed=True)
        if base.instance and key in catalog.PROPERTIES:
            return Known(catalog.RETURNS[key], instance=True, flowed=base.flowed)
        return Known(key, flowed=base.flowed)

    def result(self, node: ast.Call, env: dict[str, Known], ctx: Ctx) -> Known | None:
        func = self.type_of(node.func, env, ctx)
        if func is None:
            return None
        if func.name in self.facts.functions:
            known = self.facts.returns.get(func.name)
            return None if known is None else replace(known, flowed=True)
        if func.name in self.facts.classes:
            return Known(func.name, instance=True, flowed=True)
        if func.instance or func.name not in catalog.RETURNS:
            return None
        match = catalog.lookup(func.name)
        if match is not None and _pure(node, match[1]):
            return None
        return Known(catalog.RETURNS[func.name], instance=True, flowed=func.flowed)


def _is_static(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)


def _pure(call: ast.Call, api: catalog.Api) -> bool:
    """The argument rule of :func:`automock.analysis.resolve.is_pure_call`, on an ``ast`` call."""
    if api.pure_args == 0 or any(isinstance(a, ast.Starred) for a in call.args):
        return False
    if any(k.arg in api.pure_kw for k in call.keywords):
        return True
    first = call.args[0] if call.args else None
    is_none = isinstance(first, ast.Constant) and first.value is None
    return len(call.args) >= api.pure_args and not is_none


def _column(lines: list[str], line: int, offset: int) -> int:
    """A character column from ``ast``'s UTF-8 byte offset."""
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return len(text.encode("utf-8")[:offset].decode("utf-8", "replace"))


def _touchpoint(
    module: FlowModule, lines: list[str], call: ast.Call, name: str, api: catalog.Api
) -> Touchpoint:
    """``lines``: the module's source lines, split once per module (not once per call)."""
    end_line = call.end_lineno or call.lineno
    return Touchpoint(
        path=module.path,
        line=call.lineno,
        col=_column(lines, call.lineno, call.col_offset),
        end_line=end_line,
        end_col=_column(lines, end_line, call.end_col_offset or call.col_offset),
        kind=api.kind,
        api=name,
        symbol=" ".join((ast.get_source_segment(module.source, call.func) or name).split()),
        reason=api.reason,
    )


def flow_touchpoints(modules: Iterable[FlowModule]) -> dict[str, tuple[Touchpoint, ...]]:
    """Touchpoints reached through project facts, by module path (sorted by position)."""
    listed = list(modules)
    facts = Facts()
    tables: list[dict[str, str]] = []
    for module in listed:
        names = import_table(module.tree, module.name, module.package)
        facts.reexports.update({f"{module.name}.{k}": v for k, v in names.items()})
        for qualified, func, cls in _callable_defs(module, facts):
            facts.functions[qualified] = (func, cls, module.name)
            facts.by_module.setdefault(module.name, []).append((qualified, func, cls))
            if cls is None:
                names.setdefault(func.name, qualified)
        for top in module.tree.body:
            if isinstance(top, ast.ClassDef):
                names.setdefault(top.name, f"{module.name}.{top.name}")
        tables.append(names)
    for _ in range(_PASSES):
        before = facts.size()
        for module, names in zip(listed, tables, strict=True):
            _Pass(facts).module(module, names)
        if facts.size() == before:
            break
    final = _Pass(facts, report=True)
    for module, names in zip(listed, tables, strict=True):
        final.module(module, names)
    out: dict[str, list[Touchpoint]] = {}
    lines: dict[str, list[str]] = {}
    for module, call, name, api in final.found:
        if module.path not in lines:
            lines[module.path] = module.source.splitlines()
        found = _touchpoint(module, lines[module.path], call, name, api)
        out.setdefault(module.path, []).append(found)
    return {
        path: tuple(sorted(set(tps), key=lambda t: (t.line, t.col, t.api)))
        for path, tps in out.items()
    }
