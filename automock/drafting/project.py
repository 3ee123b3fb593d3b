"""One plan per entry point: the entry script and every project module it imports.

:func:`draft_project` scans the project (:func:`automock.analysis.follow.scan_project`),
drafts each module with touchpoints by the same offline rules as a single file
(:func:`automock.drafting.rules.draft_rules`, with that module's own source),
and merges the drafts into one plan: each entry names its module, and
``modules`` records the sha256 of every project module.

:func:`redraft_changed` brings an existing plan up to date module by module:
only the entries of modules whose content changed (or that the project newly
imports, or no longer does) are re-drafted; every other entry, hand edits
included, is kept as it is, and so are the plan's global settings.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from automock.analysis.flow import import_table
from automock.analysis.follow import scan_project
from automock.analysis.model import Touchpoint
from automock.analysis.project import ProjectModule
from automock.drafting._source import Module, parse_module
from automock.drafting.flow import ResponseFlow
from automock.drafting.literals import Ref
from automock.drafting.rules import draft_rules
from automock.errors import InputError
from automock.plan.io import text_sha256
from automock.plan.model import DEFAULT_SEED, Plan, PlanEntry

__all__ = ["ProjectDraft", "Redraft", "draft_project", "recorded_modules", "redraft_changed"]


@dataclass(frozen=True, slots=True)
class ProjectDraft:
    """Every module's fresh draft: entries and env by module path, the hashes, the touchpoints."""

    entry_rel: str
    hashes: Mapping[str, str]
    entries: Mapping[str, tuple[PlanEntry, ...]]
    env: Mapping[str, str]
    touchpoints: tuple[Touchpoint, ...]
    notes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Redraft:
    """A plan brought up to date, and what changed: re-drafted, added and dropped modules."""

    plan: Plan
    changed: tuple[str, ...]
    replaced: int  # entries of changed modules that were dropped for fresh ones

    @property
    def up_to_date(self) -> bool:
        return not self.changed


def _read(path: Path) -> str:
    from automock._source import read_source

    return read_source(path)


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


def _passed_literals(
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

    def __init__(self, module: Module, external: Mapping[str, Ref]) -> None:
        super().__init__(module, ())
        self.external = dict(external)
        for ref in self.external.values():
            self.paths.setdefault(ref.site, {})

    def call(self, node: ast.Call, env: dict[str, Any]) -> Any:
        func = node.func
        name = func.id if isinstance(func, ast.Name) else None
        if isinstance(func, ast.Attribute) and "." + func.attr in self.external:
            name = "." + func.attr  # ``fetcher.soup(url)``: a method of another module's class
        if name in self.external and name not in self.module.functions:
            for arg in (*node.args, *(k.value for k in node.keywords)):
                self.eval(arg, env)
            return self.external[name]
        return super().call(node, env)


def _returned_paths(
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
            flow = _ReaderFlow(reader_source, external)
            flow.run()
            for local, ref in external.items():
                found = out.setdefault(owner.rel, {}).setdefault(imported[local], {})
                for path in flow.paths.get(ref.site, {}):
                    pattern = flow.regexes.get((ref.site, path))  # a text searched with a regex
                    hint = f"re:{pattern}" if pattern else flow.hints.get((ref.site, path))
                    found.setdefault(path, hint)
    return out


def _draft_modules(entry: Path, seed: int, shown: str) -> ProjectDraft:
    project = scan_project(entry)
    by_module = project.by_module()
    texts = {
        m.rel: _read(m.path) for m in project.project.modules if by_module[m.rel].error is None
    }
    listed = [m for m in project.project.modules if m.rel in texts]
    passed = _passed_literals([(m, texts[m.rel]) for m in listed])
    returned = _returned_paths(
        [
            (
                m,
                texts[m.rel],
                frozenset(t.line for t in by_module[m.rel].touchpoints if t.kind == "network"),
            )
            for m in listed
        ]
    )
    hashes: dict[str, str] = {}
    entries: dict[str, tuple[PlanEntry, ...]] = {}
    env: dict[str, str] = {}
    notes: list[str] = []
    found: list[Touchpoint] = []
    for module in project.project.modules:
        scan = by_module[module.rel]
        if scan.error is not None:
            if module is project.project.entry:
                raise InputError(scan.error)
            notes.append(f"{module.rel}: not drafted ({scan.error})")
            continue
        text = texts[module.rel]
        hashes[module.rel] = text_sha256(text)
        if not scan.touchpoints:
            continue
        try:
            drafted = draft_rules(
                text,
                scan.touchpoints,
                path=module.rel,
                seed=seed,
                outside=passed.get(module.rel),
                returned=returned.get(module.rel),
            )
        except SyntaxError as exc:
            notes.append(f"{module.rel}:{exc.lineno}: not drafted (syntax error: {exc.msg})")
            continue
        entries[module.rel] = tuple(replace(e, module=module.rel) for e in drafted.entries)
        for name, value in drafted.env.items():
            env.setdefault(name, value)
        found.extend(scan.touchpoints)
    return ProjectDraft(project.project.entry.rel, hashes, entries, env, tuple(found), tuple(notes))


def draft_project(
    entry: str | os.PathLike[str], *, seed: int = DEFAULT_SEED, shown: str | None = None
) -> tuple[Plan, ProjectDraft]:
    """A fresh plan for the program that starts at ``entry`` (offline rules).

    ``shown`` is the entry's path as the plan records it (``source.path``).
    """
    path = Path(entry)
    label = shown or os.fspath(entry)
    draft = _draft_modules(path, seed, label)
    plan = Plan(
        source_path=label,
        source_sha256=draft.hashes.get(draft.entry_rel),
        modules=dict(draft.hashes),
        drafter="rules",
        seed=seed,
        env=dict(draft.env),
        entries=_ordered(draft.entries, draft.hashes),
    )
    return plan, draft


def _ordered(
    entries: Mapping[str, Iterable[PlanEntry]], modules: Iterable[str]
) -> tuple[PlanEntry, ...]:
    """Entries module by module (the plan's module order), each by line."""
    out: list[PlanEntry] = []
    for rel in modules:
        out.extend(sorted(entries.get(rel, ()), key=lambda e: (e.line, e.col, e.api)))
    return tuple(out)


def recorded_modules(plan: Plan, entry_rel: str) -> dict[str, str]:
    """The module hashes a plan records (a version 1 plan: only its entry, from ``source``)."""
    if plan.modules:
        return dict(plan.modules)
    return {entry_rel: plan.source_sha256} if plan.source_sha256 else {}


def redraft_changed(
    plan: Plan, entry: str | os.PathLike[str], *, shown: str | None = None
) -> Redraft:
    """``plan`` with the entries of every changed module re-drafted and all others kept."""
    fresh, draft = draft_project(entry, seed=plan.seed, shown=shown or plan.source_path)
    old = recorded_modules(plan, draft.entry_rel)
    changed = tuple(
        rel for rel in dict.fromkeys([*draft.hashes, *old]) if old.get(rel) != draft.hashes.get(rel)
    )
    if not changed:
        return Redraft(plan, (), 0)
    kept: dict[str, list[PlanEntry]] = {}
    replaced = 0
    for e in plan.entries:
        rel = e.module or draft.entry_rel
        if rel in changed:
            replaced += 1
        else:
            kept.setdefault(rel, []).append(e)
    for rel in changed:
        if rel in draft.entries:
            kept[rel] = list(draft.entries[rel])
    env = dict(plan.env)
    for name, value in fresh.env.items():
        env.setdefault(name, value)
    updated = replace(
        plan,
        source_path=fresh.source_path,
        source_sha256=fresh.source_sha256,
        modules=dict(draft.hashes),
        env=env,
        entries=_ordered(kept, [*draft.hashes, *(r for r in kept if r not in draft.hashes)]),
    )
    return Redraft(updated, changed, replaced)
