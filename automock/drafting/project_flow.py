"""What the modules of one program tell each other: texts passed in, reads of what is returned.

A module's own code rarely says everything its requests need. The entry
script passes the URL (``latest("https://news.example.com/latest")``), and
the caller reads the body (``data = search(...); data["meals"][0]["name"]``).
:func:`passed_literals` collects the texts each module's functions receive
from other modules, :func:`returned_paths` the response paths other modules
read on what its functions return, so :mod:`automock.drafting.project`
drafts each module with what the rest of the program shows about it.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from automock.analysis.flow import import_table
from automock.analysis.project import ProjectModule
from automock.drafting._source import Module, parse_module
from automock.drafting.flow import ResponseFlow
from automock.drafting.literals import Ref

__all__ = ["Paths", "passed_literals", "returned_paths"]


def _definitions(parsed: Iterable[tuple[ProjectModule, Module]]) -> dict[str, str]:
    """Each name a project module imports (``digest.latest``) -> where it is defined.

    A package that re-exports (``from .feed import latest`` in ``digest/__init__.py``)
    leads to the module that defines the function (``digest.feed.latest``).
    """
    listed = list(parsed)
    defined = {f"{m.name}.{f}" for m, source in listed for f in source.functions}
    imported: dict[str, str] = {}
    for module, source in listed:
        for local, qualified in import_table(source.tree, module.name, module.package).items():
            imported[f"{module.name}.{local}"] = qualified
    out: dict[str, str] = {}
    for name, target in imported.items():
        for _ in range(8):
            if target in defined or target not in imported:
                break
            target = imported[target]
        out[name] = target
    return out


def _methods(parsed: Iterable[tuple[ProjectModule, Module]]) -> dict[str, str]:
    """Public method name -> ``module.method``, for a name only one class of the project defines.

    ``fetcher.soup(url)`` on an object of another module's class (passed in,
    made elsewhere: its type is not written down) is taken as a call of the one
    method by that name.
    """
    seen: dict[str, list[str]] = {}
    for module, source in parsed:
        for node in source.tree.body:
            for item in node.body if isinstance(node, ast.ClassDef) else ():
                public = not getattr(item, "name", "_").startswith("_")
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and public:
                    seen.setdefault(item.name, []).append(f"{module.name}.{item.name}")
    return {name: found[0] for name, found in seen.items() if len(found) == 1}


def _callee(func: ast.expr, names: Mapping[str, str], methods: Mapping[str, str]) -> str | None:
    """The qualified name a call's function has through the caller's imports."""
    if isinstance(func, ast.Name):
        return names.get(func.id)
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        base = names.get(func.value.id)
        if base is not None:
            return f"{base}.{func.attr}"
    return methods.get(func.attr) if isinstance(func, ast.Attribute) else None


def _params(source: Module, func: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """The parameters a caller passes positionally (a method's ``self`` left out)."""
    params = [a.arg for a in (*func.args.posonlyargs, *func.args.args)]
    return params[1:] if isinstance(source.parents.get(id(func)), ast.ClassDef) else params


def passed_literals(
    modules: Sequence[tuple[ProjectModule, str]],
) -> dict[str, dict[tuple[str, str], tuple[str, ...]]]:
    """By module: the literal texts other modules pass to its functions' parameters.

    ``latest("https://news.example.com/latest")`` in the entry script gives
    ``digest/feed.py``: ``{("latest", "url"): ("https://news.example.com/latest",)}``,
    so the URL of the request ``latest`` sends is drafted from it. A text with
    unknown parts (``BASE + page``) is passed with them left open.
    """

    parsed = {m.name: (m, parse_module(text)) for m, text in modules}
    definitions = _definitions(parsed.values())
    methods = _methods(parsed.values())
    out: dict[str, dict[tuple[str, str], set[str]]] = {}
    for _ in range(3):  # a text passed on through a module in between: entry -> parse -> fetch
        for module, source in parsed.values():
            source.outside.update({k: tuple(sorted(v)) for k, v in out.get(module.rel, {}).items()})
        out = {}
        for module, source in parsed.values():
            _passed_by(module, source, parsed, definitions, methods, out)
    return {rel: {k: tuple(sorted(v)) for k, v in m.items()} for rel, m in out.items()}


def _passed_by(
    module: ProjectModule,
    source: Module,
    parsed: Mapping[str, tuple[ProjectModule, Module]],
    definitions: Mapping[str, str],
    methods: Mapping[str, str],
    out: dict[str, dict[tuple[str, str], set[str]]],
) -> None:
    """Add to ``out`` the texts ``module`` passes to other modules' functions."""
    names = {
        local: definitions.get(f"{module.name}.{local}", q)
        for local, q in import_table(source.tree, module.name, module.package).items()
    }
    for call in ast.walk(source.tree):
        if not isinstance(call, ast.Call):
            continue
        qualified = _callee(call.func, names, methods)
        owner, _, func_name = (qualified or "").rpartition(".")
        if owner not in parsed or owner == module.name:
            continue
        target, target_source = parsed[owner]
        func = target_source.functions.get(func_name)
        if func is None:
            continue
        pairs = [*zip(_params(target_source, func), call.args, strict=False)]
        pairs += [(k.arg, k.value) for k in call.keywords if k.arg is not None]
        for param, arg in pairs:
            rendered = source.render(arg)
            if any(rendered.parts) and not isinstance(arg, ast.Starred):
                slot = out.setdefault(target.rel, {}).setdefault((func_name, param), set())
                slot.add(rendered.text)


Paths = dict[tuple[str, ...], str | None]


class _ReaderFlow(ResponseFlow):
    """The response flow of a module that calls another module's response-returning functions.

    ``external``: local name -> the :class:`Ref` a call to it returns (a site of
    its own, negative, whose paths are read back after the run).
    """

    def __init__(
        self,
        module: Module,
        external: Mapping[str, Ref],
        callee: Callable[[ast.expr], str | None] = lambda _: None,
    ) -> None:
        super().__init__(module, ())
        self.external = dict(external)
        self.callee = callee
        # (qualified function, parameter, value): a returned response handed on to a
        # function of a third module (``soup = fetch(url); parse_jobs(soup)``)
        self.handed: dict[tuple[str, int | str], Ref] = {}
        for ref in self.external.values():
            self.paths.setdefault(ref.site, {})

    def call(self, node: ast.Call, env: dict[str, Any]) -> Any:
        func = node.func
        qualified = self.callee(func)
        if qualified is not None:
            passed: list[tuple[int | str, ast.expr]] = [*enumerate(node.args)]
            passed += [(k.arg, k.value) for k in node.keywords if k.arg is not None]
            for key, arg in passed:
                value = self.eval(arg, env)
                if isinstance(value, Ref) and value.site < 0 and not value.wrap:
                    self.handed.setdefault((qualified, key), value)
        name = func.id if isinstance(func, ast.Name) else None
        if isinstance(func, ast.Attribute) and "." + func.attr in self.external:
            name = "." + func.attr  # ``fetcher.soup(url)``: a method of another module's class
        if name in self.external and name not in self.module.functions:
            for arg in (*node.args, *(k.value for k in node.keywords)):
                self.eval(arg, env)
            return self.external[name]
        return super().call(node, env)


def returned_paths(
    modules: Sequence[tuple[ProjectModule, str, frozenset[int]]],
) -> dict[str, dict[str, Paths]]:
    """By module: the response paths other modules read on what its functions return.

    ``data = fetch_digest(); data["items"][0]["title"]`` in the entry script,
    with ``def fetch_digest(): return session.get(URL).json()`` in
    ``digest/api.py``, gives ``digest/api.py``: ``{"fetch_digest": {json.items...}}``,
    so the stub drafted for that request has the keys its callers read.
    ``modules``: each module, its text, and the lines of its network touchpoints.
    """
    parsed = [(m, parse_module(text), lines) for m, text, lines in modules]
    definitions = _definitions((m, source) for m, source, _ in parsed)
    methods = _methods((m, source) for m, source, _ in parsed)
    out: dict[str, dict[str, Paths]] = {}
    for owner, source, lines in parsed:
        if not lines:
            continue
        sender = ResponseFlow(source, lines)
        sender.run()
        refs = {n: r for n, r in sender.returns.items() if isinstance(r, Ref) and not r.wrap}
        for reader, reader_source, _ in parsed if refs else ():
            names = {
                local: definitions.get(f"{reader.name}.{local}", q)
                for local, q in import_table(
                    reader_source.tree, reader.name, reader.package
                ).items()
            }
            imported = {
                local: q.rpartition(".")[2]
                for local, q in names.items()
                if reader is not owner
                and q.rpartition(".")[0] == owner.name
                and q.rpartition(".")[2] in refs
            }
            imported.update(
                {
                    "." + method: method
                    for method, q in methods.items()
                    if reader is not owner and q.rpartition(".")[0] == owner.name and method in refs
                }
            )
            if not imported:
                continue
            external = {
                local: Ref(-1 - i, refs[fn].path) for i, (local, fn) in enumerate(imported.items())
            }
            flow = _ReaderFlow(
                reader_source, external, _resolver(reader, reader_source, definitions, methods)
            )
            flow.run()
            flows = [flow, *_handed_on(flow, {m.name: (m, src) for m, src, _ in parsed})]
            for local, ref in external.items():
                found = out.setdefault(owner.rel, {}).setdefault(imported[local], {})
                for read in flows:
                    _collect(read, ref.site, found)
    return out


def _resolver(
    module: ProjectModule,
    source: Module,
    definitions: Mapping[str, str],
    methods: Mapping[str, str],
) -> Callable[[ast.expr], str | None]:
    """The qualified project function a call in ``module`` reaches, if it is another module's."""
    names = {
        local: definitions.get(f"{module.name}.{local}", q)
        for local, q in import_table(source.tree, module.name, module.package).items()
    }

    def resolve(func: ast.expr) -> str | None:
        found = _callee(func, names, methods)
        return found if found is not None and not found.startswith(module.name + ".") else None

    return resolve


def _handed_on(
    reader: _ReaderFlow, parsed: Mapping[str, tuple[ProjectModule, Module]]
) -> list[_ReaderFlow]:
    """The flows of third modules' functions a returned response was handed to, one level on."""
    flows = []
    for (qualified, key), ref in reader.handed.items():
        owner, _, name = qualified.rpartition(".")
        target = parsed.get(owner)
        func = target[1].functions.get(name) if target is not None else None
        if target is None or func is None:
            continue
        params = _params(target[1], func)
        param = params[key] if isinstance(key, int) and key < len(params) else key
        if not isinstance(param, str):
            continue
        flow = _ReaderFlow(target[1], {})
        flow.paths.setdefault(ref.site, {})
        flow.params[(name, param)] = ref
        flow.run()
        flows.append(flow)
    return flows


def _collect(flow: ResponseFlow, site: int, found: Paths) -> None:
    """Add the paths ``flow`` read at ``site`` to ``found``, with their hints or regexes."""
    for path in flow.paths.get(site, {}):
        pattern = flow.regexes.get((site, path))  # a text searched with a regex
        hint = f"re:{pattern}" if pattern else flow.hints.get((site, path))
        found.setdefault(path, hint)
