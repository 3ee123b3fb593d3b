"""Infer the shape of HTTP responses from how the code uses them.

:mod:`automock.drafting.flow` follows each response through the module and
records every access path (``json.current.temp``, ``json.items.index.name``,
``attr:status_code``). Here the paths become a JSON body with plausible values
(:mod:`automock.drafting.values`); every invented leaf is listed as a JSON
pointer in ``guessed``.

Heuristics, usually right, a reasonable mistake if not: a string subscript
means an object, an int subscript or iteration means a list (drafted with two
elements), a ``:.1f`` format or arithmetic means a number.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from automock.drafting._source import Module, parse_module
from automock.drafting.flow import ResponseFlow
from automock.drafting.urls import method_of, url_pattern
from automock.drafting.values import plausible

__all__ = ["HttpShape", "infer_http", "infer_shapes"]


@dataclass(frozen=True, slots=True)
class HttpShape:
    """One HTTP call site and the response drafted for it."""

    line: int
    col: int
    method: str
    url: str
    match: str
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    json: Any = None
    text: str | None = None
    guessed: tuple[str, ...] = ()

    def stub_data(self) -> dict[str, Any]:
        """The ``stub_http`` entry data: the plan's own HTTP stub serialisation."""
        from automock.plan.model import HttpStub

        stub = HttpStub(
            method=self.method,
            url=self.url,
            match=self.match,
            status=self.status,
            headers=dict(self.headers),
            json=self.json,
            text=self.text,
        )
        return stub.to_dict()


def _shapes(flow: ResponseFlow) -> list[HttpShape]:
    out = []
    for key, site in sorted(flow.sites.items()):
        call = flow.calls[site]
        paths = list(flow.paths[site])
        pattern = url_pattern(flow.module, call)
        guessed: list[str] = ["/url"] if pattern.guessed else []
        headers: dict[str, str] = {}
        header_keys = [
            p[1][4:]
            for p in paths
            if len(p) > 1 and p[0] == "attr:headers" and p[1].startswith("key:")
        ]
        for name in header_keys:
            headers[name] = str(plausible(name))
            guessed.append(f"/headers/{_escape(name)}")
        json_paths = [p[1:] for p in paths if p[:1] == ("json",)]
        text = None
        body: Any = None
        if json_paths:
            tree = _build_tree(json_paths)
            body = _render(tree, (), site, flow.hints, "/json", guessed, "", 0)
        elif any(p[:1] == ("attr:text",) or p[:1] == ("attr:content",) for p in paths):
            text = "example response text"
            guessed.append("/text")
        out.append(
            HttpShape(
                line=key[0],
                col=key[1],
                method=method_of(call),
                url=pattern.url,
                match=pattern.match,
                headers=headers,
                json=body,
                text=text,
                guessed=tuple(guessed),
            )
        )
    return out


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _build_tree(paths: list[tuple[str, ...]]) -> dict[str, Any]:
    root: dict[str, Any] = {}
    for path in paths:
        node = root
        for segment in path:
            node = node.setdefault(segment, {})
    return root


def _render(
    tree: dict[str, Any],
    path: tuple[str, ...],
    site: int,
    hints: dict[tuple[int, tuple[str, ...]], str],
    pointer: str,
    guessed: list[str],
    name: str,
    index: int,
) -> Any:
    keys = [k for k in tree if k.startswith("key:")]
    hint = hints.get((site, ("json", *path)))
    if keys:
        obj: dict[str, Any] = {}
        for k in keys:
            key = k[4:] if k != "key:*" else "example"
            obj[key] = _render(
                tree[k], (*path, k), site, hints, f"{pointer}/{_escape(key)}", guessed, key, index
            )
        return obj
    if "index" in tree or hint == "list":
        child = tree.get("index", {})
        element = name[:-1] if name.endswith("s") and len(name) > 3 else name
        return [
            _render(
                child,
                (*path, "index"),
                site,
                hints,
                f"{pointer}/{i}",
                guessed,
                element or "item",
                i,
            )
            for i in range(2)
        ]
    if hint == "dict":
        guessed.append(pointer)
        return {}
    guessed.append(pointer)
    value = plausible(name or "value", index, hint if hint in ("float", "int", "bool") else None)
    if hint == "number" and (isinstance(value, bool) or not isinstance(value, int | float)):
        value = plausible(name or "value", index, "float")
    if hint == "str" and not isinstance(value, str):
        value = str(value)
    return value


def infer_http(module: Module, touch_lines: Iterable[int] = ()) -> list[HttpShape]:
    """Every HTTP call site of ``module`` with a drafted response, in source order."""
    interpreter = ResponseFlow(module, touch_lines)
    interpreter.run()
    return _shapes(interpreter)


def infer_shapes(source: str, touch_lines: Iterable[int] = ()) -> list[HttpShape]:
    """Convenience wrapper over :func:`infer_http` for a source string."""
    return infer_http(parse_module(source), touch_lines)
