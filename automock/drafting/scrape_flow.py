"""The scraper half of the response flow: parsers, selectors, regexes and literal values.

:class:`automock.drafting.flow.ResponseFlow` hands over calls it does not
handle itself: ``BeautifulSoup(r.text)`` / ``lxml.html.fromstring`` /
``ElementTree.fromstring`` start an ``html``/``xml`` root; ``find``,
``select``, ``xpath``, ``findall`` and attribute reads on it extend the path
(see :mod:`automock.drafting.markup`); ``re.search(pattern, r.text)`` records
the pattern; ``"{a} {b}".format(**d)`` and ``", ".join(xs)`` type what they use.
"""

from __future__ import annotations

import ast
import string
from typing import Any

from automock.drafting._source import PLACEHOLDER
from automock.drafting.csv_columns import note_cell, note_column
from automock.drafting.literals import Lits, Ref, range_stop
from automock.drafting.markup import TEXT_ATTRS, css_of_find, css_of_path
from automock.drafting.regex_flow import compiled, note_regex, text_calls
from automock.drafting.saved_text import saved_response
from automock.drafting.text_filters import converted, note_filter, split_piece
from automock.drafting.text_probes import text_method

__all__ = [
    "CSV_CALLS",
    "MARKUP_ROOTS",
    "PARSERS",
    "REGEX_CALLS",
    "STR_METHODS",
    "bind_key_function",
    "fetches_feed",
    "format_fields",
    "lines_of",
    "markup_attribute",
    "markup_method",
    "note_position",
    "parse_call",
    "reads_text",
    "record_variant",
    "string_method",
    "text_calls",
]

PARSERS = {
    "bs4.BeautifulSoup": "html",
    "BeautifulSoup": "html",
    "lxml.html.fromstring": "html",
    "lxml.html.document_fromstring": "html",
    "lxml.etree.HTML": "html",
    "lxml.etree.fromstring": "xml",
    "lxml.etree.XML": "xml",
    "xml.etree.ElementTree.fromstring": "xml",
    "xml.etree.ElementTree.XML": "xml",
    "xml.etree.ElementTree.parse": "xml",
    "lxml.etree.parse": "xml",
    "xml.dom.minidom.parseString": "xml",
    "xml.etree.ElementTree.ElementTree": "xml",  # ``ElementTree(file=urlopen(u))``
    "lxml.objectify.fromstring": "xml",
    "lxml.objectify.parse": "xml",
    "feedparser.parse": "feed",
}
# the roots whose reads are elements and attributes (``feed``: feedparser's result, whose
# attributes are its keys)
MARKUP_ROOTS = (("html",), ("xml",), ("feed",))
# what feedparser's result says of itself, never an element of the feed
_FEED_API = (
    "bozo", "bozo_exception", "version", "headers", "status", "href", "encoding", "namespaces",
    "etag", "modified", "keys", "get", "items", "values",
)  # fmt: skip
# a CSV reader over the response's text, or a text buffer made of it, passed to one
# wrappers that read a file-like response as text: ``csv.reader(codecs.iterdecode(u, "utf-8"))``
_TEXT_WRAPPERS = ("io.TextIOWrapper", "codecs.iterdecode", "codecs.getreader")
CSV_CALLS = ("csv.reader", "csv.DictReader", "io.StringIO", "io.BytesIO", *_TEXT_WRAPPERS)
REGEX_CALLS = ("re.search", "re.match", "re.findall", "re.finditer", "re.fullmatch")
STR_METHODS = (
    "lower", "upper", "strip", "lstrip", "rstrip", "split", "replace", "startswith",
    "endswith", "title", "capitalize", "encode", "splitlines", "zfill", "casefold", "isdigit",
    "isnumeric", "isdecimal",
)  # fmt: skip
_ONE = ("find", "select_one", "find_next", "find_parent", "findChild")
_MANY = (
    "find_all",
    "findAll",
    "findall",
    "select",
    "findChildren",
    "find_all_next",
    "iter",
    "iterfind",
)
_NEUTRAL = ("attrs", "attrib", "parent", "next_sibling", "previous_sibling", "getroot")
_SIBLINGS = ("next_siblings", "previous_siblings")  # more of its own tag, drawn after it
_API = ("name", "tag", "children", "contents", "descendants", "strings", "stripped_strings")


def _literal(node: ast.expr | None) -> Any:
    try:
        return ast.literal_eval(node) if node is not None else None
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def _find_css(node: ast.Call, constants: dict[str, ast.expr]) -> str:
    name = _literal(node.args[0]) if node.args else _literal(_kw(node, "name"))
    given = node.args[1] if len(node.args) > 1 else _kw(node, "attrs")
    if isinstance(given, ast.Name):  # ``find_all("table", TABLE_ATTRS)``
        given = constants.get(given.id, given)
    attrs = _literal(given)  # a string there is a class: ``find_all("div", "card")``
    attrs = dict(attrs) if isinstance(attrs, dict) else {"class": attrs} if attrs else {}
    if isinstance(name, list | tuple) and name:
        name = name[0]
    for kw in node.keywords:
        if kw.arg not in (None, "name", "attrs", "recursive", "limit", "string", "text"):
            attrs[kw.arg] = _literal(kw.value)
    return css_of_find(name, attrs)


def _kw(node: ast.Call, name: str) -> ast.expr | None:
    return next((kw.value for kw in node.keywords if kw.arg == name), None)


def markup_method(
    flow: Any, base: Any, name: str, node: ast.Call, env: dict[str, Any] | None = None
) -> Any:
    """The value of ``base.name(...)`` where ``base`` is inside an html/xml root."""
    if base.path[-1:] == ("attr:text",):  # a string: ``soup.text.find("Weather:")``
        return text_method(flow, base, name, node, env or {})
    if name in ("startswith", "endswith", "isdigit"):  # ``a["href"].startswith("http")``
        note_filter(flow, base, name, node)
        return None
    first = _literal(node.args[0]) if node.args else None
    held = (
        (env or {}).get(node.args[0].id)
        if node.args and isinstance(node.args[0], ast.Name)
        else None
    )
    if first is None and isinstance(held, Lits) and len(held.values) == 1:
        first = held.values[0]  # a selector passed in: ``_text(card, "h2.title")``
    if first is None and node.args and isinstance(node.args[0], ast.Name):
        first = _literal(flow.module.constants.get(node.args[0].id))  # ``XPATH = '//p'``
    if first is None and node.args:  # ``ATOM + "title"``, ``f"{ATOM}entry"``
        built = flow.module.render(node.args[0]).text
        first = built if PLACEHOLDER not in built else None
    if name == "getroot":  # ``ET.parse(f).getroot()``: the document's root
        return base
    if name in _ONE or name in _MANY:
        xml = base.path[0] == "xml"
        if name in ("select", "select_one"):
            css = first if isinstance(first, str) else "div"
        elif xml or name in ("iter", "iterfind"):  # ``namespaces=NS``: the code's prefixes
            ns = _kw(node, "namespaces") or (node.args[1] if len(node.args) > 1 else None)
            ns = flow.module.constants.get(ns.id, ns) if isinstance(ns, ast.Name) else ns
            css = css_of_path(first, _literal(ns))[0] if isinstance(first, str) else "item"
        else:
            css = _find_css(node, flow.module.constants)
        return _noted(flow, base.child(f"{'el' if name in _ONE else 'els'}:{css}"))
    if name == "xpath" and isinstance(first, str):
        css, take = css_of_path(first)
        ref = _noted(flow, base.child(f"els:{css}"))
        if take is None:
            return ref
        leaf = ref.child("attr:text" if take == "text" else f"key:{take[1:]}")
        flow.note(leaf)
        return type(leaf)(leaf.site, leaf.path, 1)
    if name in ("findtext",) and isinstance(first, str):
        ref = base.child(f"el:{css_of_path(first)[0]}").child("attr:text")
        flow.note(ref)
        return ref
    if name in TEXT_ATTRS:
        ref = base.child("attr:text") if base.path[-1:] != ("attr:text",) else base
        flow.note(ref)
        return ref
    if name == "get" and isinstance(first, str):
        ref = base.child(f"key:{first}")
        flow.note(ref)
        return ref
    return None


def markup_attribute(flow: Any, base: Any, attr: str) -> Any:
    """The value of ``base.attr`` inside an html/xml root (``soup.title``, ``tag.text``)."""
    if base.path[0] == "feed":  # ``entry.title`` is ``entry["title"]``
        return None if attr in _FEED_API else _noted(flow, base.child(f"key:{attr}"))
    if base.path[-1:] == ("attr:text",):
        return None
    if attr in TEXT_ATTRS:
        ref = base.child("attr:text")
        flow.note(ref)
        return ref
    if attr in _NEUTRAL:
        return base
    if attr in _SIBLINGS and base.path[-1].startswith("el:"):  # ``table.tr.next_siblings``
        return _noted(flow, Ref(base.site, base.path[:-1]).child("els:" + base.path[-1][3:]))
    if attr in ("tag", "name"):  # compared with a literal: a child of that tag (text_probes)
        return base.child(f"attr:{attr}")
    if attr in _API or attr.startswith("_"):
        return None
    return _noted(flow, base.child(f"el:{attr}"))


def note_position(flow: Any, base: Any, key: ast.expr) -> None:
    """``cols[3]`` on a list of elements: at least four of them are drafted (``count:4``);
    ``row[8]`` on a CSV row: at least nine columns; ``text.split()[2]``: three words."""
    if isinstance(base, Ref) and base.wrap == 1:
        split_piece(flow, base, key)
        if base.path[:1] in MARKUP_ROOTS and base.path[-1:] == ("index",):  # ``[x for x in l]``
            base = Ref(base.site, base.path[:-1])
    if not isinstance(base, Ref) or base.wrap:
        return
    if isinstance(key, ast.Slice) and base.path[:1] == ("json",):  # ``ids[:3]``: three
        stop = key.upper
        if isinstance(stop, ast.Constant) and type(stop.value) is int and stop.value > 2:
            flow.note(base.child(f"count:{min(stop.value, 12)}"))
        return
    walked = range_stop(flow.module, key)  # ``for i in range(14): items[i]``: fourteen
    if walked is not None and walked > 2 and base.path[:1] in (*MARKUP_ROOTS, ("json",)):
        flow.note(base.child(f"count:{min(walked, 24)}"))
    read = flow.module.parents.get(id(key))  # ``float(row[2])``: that column holds numbers
    number = converted(flow, read) if isinstance(read, ast.Subscript) else None
    note_column(flow, base, key, number)  # ``row[col["city"]]``: the column ``city``
    note_cell(flow, base, key)  # ``if row[1] == "Norway":``: that cell holds ``Norway``
    if not isinstance(key, ast.Constant) or type(key.value) is not int:
        return
    if base.path[:1] == ("csv",) and base.path[-1] == "index" and number:
        flow.hints.setdefault((base.site, (*base.path, f"pos:{key.value}")), number)
    if key.value < 2:
        return
    if base.path[:1] in (*MARKUP_ROOTS, ("json",)) or (
        base.path[:1] == ("csv",) and base.path[-1] == "index"
    ):  # ``row[5]`` on a JSON array: six items
        flow.note(base.child(f"count:{key.value + 1}"))


def _noted(flow: Any, ref: Ref) -> Ref:
    flow.note(ref)
    return ref


def format_fields(template: str) -> list[str]:
    """The named top-level fields of a ``str.format`` template."""
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError:
        return []
    names = [f[1].split(".")[0].split("[")[0] for f in parsed if f[1]]
    return [n for n in names if n and not n.isdigit()]


def string_method(
    flow: Any, func: ast.Attribute, node: ast.Call, args: list[Any], env: dict[str, Any]
) -> None:
    """``", ".join(xs)`` (a list of strings) and ``"{a}".format(**d)`` (keys of ``d``)."""
    template = func.value.value if isinstance(func.value, ast.Constant) else None
    if func.attr == "join" and args and isinstance(args[0], Ref):
        element = flow.iterate(node.args[0], env)
        if isinstance(element, Ref):
            flow.note(element, "str")
    if func.attr == "format" and isinstance(template, str):
        for kw in node.keywords:
            value = flow.eval(kw.value, env) if kw.arg is None else None
            if isinstance(value, Ref) and not value.wrap:
                flow.note(value, "dict")
                for field_name in format_fields(template):
                    flow.note(value.child(f"key:{field_name}"))


def record_variant(flow: Any, site: int, node: ast.Call, env: dict[str, Any]) -> Ref:
    """The request's response; one whose ``params=`` value or URL part holds several literals: one stub each."""
    if site in flow.variants:
        return Ref(site)
    params = next((kw.value for kw in node.keywords if kw.arg == "params"), None)
    if isinstance(params, ast.Dict):
        for key, value in zip(params.keys, params.values, strict=False):
            found = flow.eval(value, env)
            if isinstance(key, ast.Constant) and isinstance(found, Lits) and len(found.values) > 1:
                flow.variants[site] = ("query", str(key.value), found.values)
                return Ref(site)
    from automock.drafting.urls import url_argument

    url = url_argument(node)
    whole = flow.eval(url, env) if isinstance(url, ast.Name) else None
    if isinstance(whole, Lits):  # the URL itself is one of several literals
        flow.variants[site] = ("url", "", whole.values)
        return Ref(site)
    if isinstance(url, ast.JoinedStr):
        for index, part in enumerate(url.values):
            found = flow.eval(part.value, env) if isinstance(part, ast.FormattedValue) else None
            if isinstance(found, Lits) and len(found.values) > 1:
                flow.variants[site] = ("path", str(index), found.values)
                return Ref(site)
    return Ref(site)


def bind_key_function(flow: Any, node: ast.Call, env: dict[str, Any]) -> None:
    """``sorted(xs, key=lambda x: x["k"])``: the lambda's parameter is an element of ``xs``."""
    lambdas = [kw.value for kw in node.keywords if kw.arg == "key"]
    if isinstance(node.func, ast.Name) and node.func.id == "filter" and node.args:
        lambdas, source = [node.args[0]], node.args[1:]
    else:
        source = node.args[:1]
    for fn in lambdas:
        if isinstance(fn, ast.Lambda) and fn.args.args and source:
            inner = dict(env)
            inner[fn.args.args[0].arg] = flow.iterate(source[0], env)
            flow.eval(fn.body, inner)


def reads_text(qual: str) -> bool:
    """Whether ``qual`` parses, searches or reads a response's text (handled by :func:`parse_call`)."""
    return (
        qual in PARSERS
        or qual in REGEX_CALLS
        or qual in CSV_CALLS
        or qual.endswith("BeautifulSoup")
    )


def parse_call(flow: Any, qual: str, node: ast.Call, args: list[Any]) -> Ref | None:
    """``BeautifulSoup(r.text)`` starts a markup root; ``re.search(p, r.text)`` records ``p``."""
    if qual in REGEX_CALLS:
        pattern = _literal(node.args[0]) if node.args else None
        if pattern is None and node.args and isinstance(node.args[0], ast.Name):
            pattern = compiled(flow.module.constants.get(node.args[0].id))  # ``re.findall(P, t)``
            if pattern is None:  # ``regex = '<div>(.+?)</div>'`` in the same scope
                rendered = flow.module.render(node.args[0])
                pattern = rendered.text if rendered.complete else None
        note_regex(flow, args[1] if len(args) > 1 else None, pattern)
        return None
    source = args[0] if args else None
    source = saved_response(flow, node) or source  # ``ET.parse("dump.xml")`` after a save
    if qual in CSV_CALLS:
        return _csv_root(flow, qual, node, source)
    # a parser reads a file-like response itself: ``parse(urlopen(u))``, ``BeautifulSoup(page)``
    file_like = qual.endswith((".parse", "BeautifulSoup", ".ElementTree"))
    raw = isinstance(source, Ref) and source.path == () and file_like
    if isinstance(source, Ref) and (raw or source.path[:1] in (("attr:text",), ("attr:content",))):
        root = "html" if _html_parser(flow, node) else PARSERS.get(qual, "html")
        return _noted(flow, Ref(source.site, (root,)))
    return None


def fetches_feed(flow: Any, node: ast.Call, qual: str, args: list[Any]) -> bool:
    """``feedparser.parse(url)``: feedparser fetches it (a URL, not a file or a response)."""
    if qual != "feedparser.parse" or not node.args:
        return False
    value = args[0]
    if isinstance(value, Ref):
        return False  # the text of a response
    first = _literal(node.args[0])
    if isinstance(node.args[0], ast.Name):
        first = _literal(flow.module.constants.get(node.args[0].id)) or first
    if isinstance(value, Lits) and len(value.values) == 1:
        first = value.values[0]
    return not isinstance(first, str) or first.startswith(("http://", "https://"))


def _csv_root(flow: Any, qual: str, node: ast.Call, source: Any) -> Ref | None:
    """``csv.reader(r.text.splitlines(), delimiter=";")``: a ``csv`` root (its delimiter
    noted as ``sep:;``); ``io.StringIO(r.text)`` is the text itself, and so is
    ``codecs.iterdecode(urlopen(u), "utf-8")`` (or ``io.TextIOWrapper``) of the response."""
    if qual in _TEXT_WRAPPERS and isinstance(source, Ref) and source.path == () and not source.wrap:
        return _noted(flow, Ref(source.site, ("attr:text",)))
    if not isinstance(source, Ref) or source.path[:1] not in (("attr:text",), ("attr:content",)):
        return source if isinstance(source, Ref) and source.path[:1] == ("csv",) else None
    if qual.startswith("io."):
        return source
    root = Ref(source.site, ("csv",))
    delimiter = _literal(_kw(node, "delimiter"))
    if isinstance(delimiter, str) and len(delimiter) == 1:
        flow.note(root.child(f"sep:{delimiter}"))
    flow.note(root.child("dict" if qual.endswith("DictReader") else "rows"))
    return _noted(flow, root)


def _html_parser(flow: Any, node: ast.Call) -> bool:
    """``etree.fromstring(text, etree.HTMLParser())`` (or a module-level ``parser = ...``)."""
    given = [*node.args[1:], *(kw.value for kw in node.keywords if kw.arg == "parser")]
    for arg in given:
        if isinstance(arg, ast.Name):
            arg = flow.module.constants.get(arg.id, arg)
        if isinstance(arg, ast.Call) and ast.unparse(arg.func).endswith("HTMLParser"):
            return True
    return False


def lines_of(flow: Any, value: Any) -> Any:
    """What is iterated: the body's text for the response itself (``for line in urlopen(u)``)."""
    if isinstance(value, Ref) and value.path == () and not value.wrap:
        value = value.child("attr:text")
        flow.note(value)
    return value
