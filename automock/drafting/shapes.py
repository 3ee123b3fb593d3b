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

import copy
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from itertools import cycle
from typing import Any

from automock.drafting._source import Module, parse_module
from automock.drafting.catalog import Known, around, fits, keys_of, known_body, sibling
from automock.drafting.compared import wanted_values
from automock.drafting.created import created
from automock.drafting.flow import ResponseFlow
from automock.drafting.joins import joined
from automock.drafting.json_talk import speaks_json
from automock.drafting.link_flow import link_prefix
from automock.drafting.literals import KEY_SEP, Ref
from automock.drafting.markup import render_csv, render_feed, render_markup
from automock.drafting.paging import caught_keys, end_value, is_paging_key, pages, served_url
from automock.drafting.regex_sample import sample
from automock.drafting.stub_requests import literal_query, sent_payload, variant_pattern
from automock.drafting.text_probes import probes_of, searched_text
from automock.drafting.twins import shared
from automock.drafting.urls import UrlPattern, request_method, url_argument, url_pattern
from automock.drafting.values import as_text, plausible
from automock.drafting.whole import leaf_key, whole_body, whole_page, whole_record, whole_text
from automock.plan.model import HttpStub

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
    query: dict[str, str] = field(default_factory=dict)
    pages: tuple[Any, ...] = ()  # JSON bodies served in turn (paging), the last repeating
    known: str = ""  # the well-known API whose shape the body starts from (catalog.py)

    def stub_data(self) -> dict[str, Any]:
        """The ``stub_http`` entry data: the plan's own HTTP stub serialisation."""
        extra: dict[str, Any] = {"query": dict(self.query)} if self.query else {}
        stub = HttpStub(
            method=self.method,
            url=self.url,
            match=self.match,
            status=self.status,
            headers=dict(self.headers),
            json=self.json,
            text=self.text,
            **extra,
        )
        data = stub.to_dict()
        if self.pages:
            data.pop("json", None)
            data["sequence"] = [{"json": body} for body in self.pages]
        return data


def _shapes(flow: ResponseFlow) -> list[HttpShape]:
    out = []
    for key, site in sorted(flow.sites.items()):
        call = flow.calls[site]
        variant = flow.variants.get(site)
        values: tuple[str | None, ...] = variant[2] if variant else (None,)
        for number, value in enumerate(values):
            pattern = url_pattern(flow.module, call)
            query: dict[str, str] = {}
            if variant is not None and value is not None:
                pattern, query = variant_pattern(flow, call, variant, value, pattern)
            query = query or literal_query(flow.module, call, pattern)
            if site in flow.links:  # it sends to a string of another response: its links
                pattern = UrlPattern(_link_prefix(flow, flow.links[site]), "prefix")
            guessed: list[str] = ["/url"] if pattern.guessed else []
            method = request_method(flow.module, call)
            if method == "*":  # a drafted stub never answers every method: guess, and say so
                method = "GET"
                guessed.append("/method")
            request = f"{method} {pattern.url}"  # salts below: multiples of 7, coprime to words
            argument = url_argument(call)  # a prefix the code adds to: its tail is unknown
            tail = argument is not None and len(flow.module.render(argument).parts) > 1
            asked = {**sent_payload(flow.module, call).get("args", {}), **query}  # params=
            known = known_body(served_url(pattern.url, pattern.match, asked), tail)
            headers, body, text = _body(flow, site, guessed, (number * 7, known), query, request)
            out.append(
                HttpShape(
                    line=key[0],
                    col=key[1],
                    method=method,
                    url=pattern.url,
                    match=pattern.match,
                    headers=headers,
                    json=body,
                    text=text,
                    guessed=tuple(guessed),
                    query=query,
                    known=known.api if known is not None and (body or text) else "",
                )
            )
    return out


def _link_prefix(flow: ResponseFlow, link: Ref, depth: int = 0) -> str:
    """The prefix of the links drafted at ``link`` (:mod:`automock.drafting.link_flow`), on
    the host of the stub serving its response (itself a link's stub in a chain of them)."""
    pattern = url_pattern(flow.module, flow.calls[link.site])
    if link.site in flow.links and depth < 8:  # that response was fetched from a link too
        pattern = UrlPattern(_link_prefix(flow, flow.links[link.site], depth + 1), "prefix")
    return link_prefix(pattern.url, pattern.match, {}, link.path[1:])


def _body(
    flow: ResponseFlow,
    site: int,
    guessed: list[str],
    drafted: tuple[int, Known | None],
    query: Mapping[str, str],
    request: str = "",
) -> tuple[dict[str, str], Any, str | None]:
    """(headers, json body, text body) drafted from every path the code reads of ``site``
    (``drafted``: the salt of its values, and the well-known API's body it starts from)."""
    salt, known = drafted
    paths = list(flow.paths[site])
    headers = _headers(paths, guessed)
    json_paths = [p[1:] for p in paths if p[:1] == ("json",)]
    if json_paths:
        if "Content-Type" in headers:
            headers["Content-Type"] = "application/json"
        tree = _build_tree(json_paths)
        links = {r.path[1:]: _link_prefix(flow, r) for r in flow.links.values() if r.site == site}
        wanted = wanted_values(flow.module)
        payload = sent_payload(flow.module, flow.calls[site])
        echo = {**payload.get("args", {}), **query, **payload}
        ctx = _Ctx(site, flow.hints, guessed, salt, links, wanted, echo, request, known)
        return headers, _render(ctx, tree, (), "/json", "", 0, known.body if known else _NONE), None
    if any(p[:1] == ("jsonl",) for p in paths):
        guessed.append("/text")
        headers["Content-Type"] = "application/x-ndjson"
        return headers, None, _json_lines(flow, site, paths, salt)
    feed = [p[1:] for p in paths if p[:1] == ("feed",)]
    if feed:
        guessed.append("/text")
        headers["Content-Type"] = "application/rss+xml; charset=utf-8"
        return headers, None, render_feed(_build_tree(feed), salt, request.rpartition(" ")[2])
    rows = [p[1:] for p in paths if p[:1] == ("csv",)]
    if rows:
        guessed.append("/text")
        headers["Content-Type"] = "text/csv; charset=utf-8"
        return headers, None, render_csv(_build_tree(rows), site, flow.hints, salt, flow.regexes)
    for root in ("html", "xml"):
        markup = [p[1:] for p in paths if p[:1] == (root,)]
        if markup:
            guessed.append("/text")
            tree = _build_tree(markup)
            headers["Content-Type"] = f"text/{root}; charset=utf-8"
            probes = probes_of(flow)
            page = request.rpartition(" ")[2]
            text = render_markup(tree, root, site, flow.hints, flow.regexes, salt, probes, page)
            return headers, None, text
    if any(p[:1] in (("attr:text",), ("attr:content",)) for p in paths):
        return _plain_text(flow, (site, request), guessed, drafted, headers)
    return headers, None, None


def _headers(paths: list[tuple[str, ...]], guessed: list[str]) -> dict[str, str]:
    """The headers the code reads, and a ``Set-Cookie`` line per cookie it looks for."""
    headers: dict[str, str] = {}
    for p in paths:
        if len(p) > 1 and p[0] == "attr:headers" and p[1].startswith("key:"):
            name = p[1][4:]
            if name.lower() == "content-type":  # the body's own type (below), or plain text
                headers.setdefault("Content-Type", "text/plain; charset=utf-8")
                guessed.append("/headers/Content-Type")
                continue
            headers[name] = str(plausible(name))
            guessed.append(f"/headers/{_escape(p[1][4:])}")
    cookies = sorted({p[1][4:] for p in paths if len(p) > 1 and p[0] == "attr:cookies"})
    if cookies:  # one line per cookie the code looks for (drafting/cookie_flow.py)
        lines = [f"{c}={plausible(c.lower())}; Path=/" for c in cookies if c.strip()]
        headers["Set-Cookie"] = "\n".join(lines)
        guessed.append("/headers/Set-Cookie")
    return headers


def _plain_text(
    flow: ResponseFlow,
    sent: tuple[int, str],
    guessed: list[str],
    drafted: tuple[int, Known | None],
    headers: dict[str, str],
) -> tuple[dict[str, str], Any, str | None]:
    """A body read as text: lines its regexes match and the literals it looks for, or JSON
    when it is printed whole and the request talks JSON, or a page (``sent``: the call
    site, and the method and URL of its request)."""
    site, request = sent
    salt, known = drafted
    lines = [
        sample(pattern, salt + i) or ""
        for (where, path), pattern in sorted(flow.regexes.items())
        if where == site and path[:1] in (("attr:text",), ("attr:content",))
        for i in range(2)
    ]
    # JSON, printed as text: the request talks JSON, or goes to a well-known JSON API
    if not lines and (known is not None or speaks_json(flow.module, flow.calls, site)):
        headers["Content-Type"] = "application/json"
        whole = _whole(_Ctx(site, flow.hints, guessed, salt, url=request, known=known), "/json")
        return headers, whole, None
    guessed.append("/text")
    text = "\n".join(lines) + "\n" if lines else ""
    probed = searched_text(flow, site, salt)
    page = None if probed or text else whole_page(request.rpartition(" ")[2], salt)
    if page is not None:  # a web page printed or saved whole
        headers["Content-Type"] = "text/html; charset=utf-8"
    return headers, None, (probed + text) or page or whole_text(salt)


def _json_lines(flow: ResponseFlow, site: int, paths: list[tuple[str, ...]], salt: int) -> str:
    """``json.loads(line)`` on each line of the text: two lines of JSON."""
    tree = _build_tree([p[1:] for p in paths if p[:1] == ("jsonl",)])
    ctx = _Ctx(site, flow.hints, [], salt)
    return "".join(json.dumps(_render(ctx, tree, (), "/text", "", i)) + "\n" for i in range(2))


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _build_tree(paths: list[tuple[str, ...]]) -> dict[str, Any]:
    root: dict[str, Any] = {}
    for path in paths:
        node = root
        for segment in path:
            node = node.setdefault(segment, {})
    return root


@dataclass(frozen=True, slots=True)
class _Ctx:
    site: int
    hints: dict[tuple[int, tuple[str, ...]], str]
    guessed: list[str]
    salt: int
    links: Mapping[tuple[str, ...], str] = field(default_factory=dict)  # path -> URL prefix
    wanted: Mapping[str, str] = field(default_factory=dict)  # key -> the string looked for
    echo: Mapping[str, Any] = field(default_factory=dict)  # its literal query and payloads
    url: str = ""  # the request's method and URL: what a body read whole holds
    known: Known | None = None  # the well-known API's body the request gets (catalog.py)


_NONE = object()  # no catalog value at this path


def _render(
    ctx: _Ctx,
    tree: dict[str, Any],
    path: tuple[str, ...],
    pointer: str,
    name: str,
    index: int,
    known: Any = _NONE,
) -> Any:
    """The value at ``path``: what the code reads of it, over the catalog's ``known``."""
    keys = [k for k in tree if k.startswith("key:")]
    hint = ctx.hints.get((ctx.site, ("json", *path)))
    if keys:
        shown = known if isinstance(known, dict) else {}
        obj: dict[str, Any] = {}
        like = sibling(shown)  # a rate the map lacks: a rate
        for k in keys:
            names = k[4:].split(KEY_SEP) if k != "key:*" else keys_of(shown, name)
            for key in names:
                at = f"{pointer}/{_escape(key)}"
                got = shown.get(key, like[0] if like else _NONE)
                obj[key] = _render(ctx, tree[k], (*path, k), at, key, index, got)
        return around(obj, shown, pointer, ctx.guessed)
    text = isinstance(known, str) and not tree.get("index") and path not in ctx.links
    if text and hint in (None, "list", "str"):
        ctx.guessed.append(pointer)  # a text sliced, indexed or iterated stays a text
        return known
    if "index" in tree or hint == "list":
        child = tree.get("index", {})
        element = name[:-1] if name.endswith("s") and len(name) > 3 else name
        size = max([2, *(int(k[6:]) for k in tree if k.startswith("count:"))])  # ``row[5]``
        items = known if isinstance(known, list) and known else [_NONE]
        return [
            _render(ctx, child, (*path, "index"), f"{pointer}/{i}", element or "item", i, item)
            for i, item in zip(range(min(size, 24)), cycle(items))
        ]
    if not path and hint is None and known is _NONE:  # read only whole (printed, returned)
        return _whole(ctx, pointer)
    ctx.guessed.append(pointer)
    if path in ctx.links:  # a string the program requests: a URL the linked stub answers
        return f"{ctx.links[path]}{index + 1}"
    if hint == "dict":
        return copy.deepcopy(known) if isinstance(known, dict) else whole_record(ctx, path)
    if index == 0 and name in ctx.wanted and hint in (None, "str"):  # the value looked for
        return ctx.wanted[name]
    if _echoed(ctx, name, hint, known):  # the API answers about what was asked
        return ctx.echo[name]
    if is_paging_key(name):  # the last page; :func:`_paged` drafts the ones before it
        return end_value(name)
    if known is not _NONE and fits(known, hint):  # the well-known API's own value
        return copy.deepcopy(known)
    return _plausible_leaf(leaf_key(ctx.url, name), index + ctx.salt, hint)


def _echoed(ctx: _Ctx, name: str, hint: str | None, known: Any) -> bool:
    """Whether the leaf is what the request sent (an echo service's ``form``, a ``?name=``);
    a query's text never stands for the API's own object (open-meteo's ``current``)."""
    if name not in ctx.echo or hint not in (None, "str") or is_paging_key(name):
        return False
    return isinstance(ctx.echo[name], dict | list) or not isinstance(known, dict | list)


def _plausible_leaf(name: str, salt: int, hint: str | None) -> Any:
    value = plausible(name or "value", salt, hint if hint in ("float", "int", "bool") else None)
    if hint == "number" and (isinstance(value, bool) or not isinstance(value, int | float)):
        value = plausible(name or "value", salt, "float")
    if hint == "str" and not isinstance(value, str):
        value = as_text(name, value)
    return value


def _whole(ctx: _Ctx, pointer: str) -> Any:
    """A JSON body the code never looks inside (:func:`automock.drafting.whole.whole_body`)."""
    if ctx.known is not None:
        ctx.guessed.append(pointer)
        return ctx.known.body
    return whole_body(ctx.url, ctx.salt, pointer, ctx.guessed)


def _paged(shape: HttpShape, module: Module) -> HttpShape:
    """A body with a paging key becomes two pages (:mod:`automock.drafting.paging`)."""
    here, absent = served_url(shape.url, shape.match, shape.query), caught_keys(module.tree)
    found = pages(shape.json, here, absent)
    if found is None:
        return shape
    guessed = [g for g in shape.guessed if not g.startswith("/json")]
    for number in range(len(found)):
        guessed += [f"/sequence/{number}" + g for g in shape.guessed if g.startswith("/json")]
    return replace(shape, pages=found, guessed=tuple(guessed))


def infer_http(
    module: Module,
    touch_lines: Iterable[int] = (),
    returned: Mapping[str, Mapping[tuple[str, ...], str | None]] | None = None,
) -> list[HttpShape]:
    """Every HTTP call site of ``module`` with a drafted response, in source order.

    ``returned``: paths other modules read on what a function of this module
    returns (``{"fetch": {("json", "items"): None}}``), by function name; a
    hint ``re:PATTERN`` says the text there is searched with that regex.
    """
    interpreter = ResponseFlow(module, touch_lines)
    interpreter.run()
    for name, paths in (returned or {}).items():
        ref = interpreter.returns.get(name)
        if isinstance(ref, Ref) and not ref.wrap:
            for path, hint in paths.items():
                interpreter.paths[ref.site][path] = None
                if hint is not None and hint.startswith("re:"):  # searched with this pattern
                    interpreter.regexes.setdefault((ref.site, path), hint[3:])
                elif hint is not None:
                    interpreter.hints.setdefault((ref.site, path), hint)
    return [_paged(created(s, module), module) for s in _joined(shared(_shapes(interpreter)))]


def _joined(shapes: list[HttpShape]) -> list[HttpShape]:
    """Fields named after another stub's resource hold its ids (:mod:`.joins`)."""
    bodies = joined([(s.url, s.match, copy.deepcopy(s.json)) for s in shapes])
    return [replace(s, json=body) for s, body in zip(shapes, bodies, strict=True)]


def infer_shapes(source: str, touch_lines: Iterable[int] = ()) -> list[HttpShape]:
    return infer_http(parse_module(source), touch_lines)  # infer_http over a source string
