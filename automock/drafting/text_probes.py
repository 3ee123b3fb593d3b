"""Literals the code looks for in a response's text, and a text that holds them.

``i = text.find("Weather report:") + 15`` then ``text[i:i + 30]``, ``text.split("<Code>")[1]``,
``"ID=" in body``: each literal is a *probe* on the text it searches, kept in the order
the code uses them, with the width the code reads before it (``text[i - 8:i]``) and after
it (``text[i + 15:i + 45]``), from the arithmetic on the position found. The drafted text
(:func:`probe_records`) holds two records, each with every probe in that order: numbers
right before a probe read backwards, a value right after it (closed like a tag when the
probe opens one), padded to the width read. A literal that says a reply failed, or one an
``if`` tests to give up, is not a probe. Literals compared with a child's tag
(``child.tag == "temperature"``) name the children drafted (:func:`compared_literals`).
Texts a condition keeps or the code converts: :mod:`automock.drafting.text_filters`.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from automock.drafting.literals import Lits, Ref
from automock.drafting.text_filters import FAILURE as _FAILURE
from automock.drafting.text_filters import constant as _constant
from automock.drafting.text_filters import (
    decimal_comma,
    equal_text,
    kept,
    leaves,
    length_test,
    note_filter,
)
from automock.drafting.text_tables import note_split, split_table
from automock.drafting.values import plausible

__all__ = [
    "TEXT_ROOTS",
    "Probe",
    "compared_literals",
    "note_probe",
    "probe_records",
    "probes_of",
    "searched_text",
    "text_method",
]

TEXT_ROOTS = (("attr:text",), ("attr:content",))
# methods whose literal argument must be in the text for the code's main path
_SEARCHES = ("find", "index", "rfind", "rindex", "split", "rsplit", "partition", "rpartition")
_PIECES = ("split", "rsplit", "partition", "rpartition")
_KEEPS = (
    "decode", "strip", "splitlines", "lstrip", "rstrip", "lower", "upper", "casefold",
    "replace", "encode", "title", "capitalize",
)  # fmt: skip
_STR = ("startswith", "endswith", "zfill", "count", "isdigit", "isnumeric", "isdecimal")
_OPEN_TAG = re.compile(r"<([\w:-]+)[^<>/]*>$")


@dataclass(frozen=True, slots=True)
class Probe:
    """A literal searched in a text; ``before``/``after``: how far the code reads around it."""

    literal: str
    before: int = 0
    after: int = 0


def probes_of(flow: Any) -> dict[tuple[int, tuple[str, ...]], dict[Probe, None]]:
    """The probes recorded so far, by (site, path of the text searched), in use order."""
    found: dict[tuple[int, tuple[str, ...]], dict[Probe, None]]
    found = flow.module.memo.setdefault("text_probes", {})
    return found


def note_probe(flow: Any, target: Any, literal: Any, node: ast.expr | None = None) -> None:
    """Record that the text at ``target`` is searched for ``literal`` (at ``node``)."""
    if not isinstance(target, Ref) or not isinstance(literal, str) or not literal.strip():
        return
    if _FAILURE.search(literal):
        return
    before, after = _window(flow, node) if node is not None else (0, 0)
    path = target.path  # a piece of the text (``text.split("X")[1]``) is the same text
    for end in ("attr:text", "attr:content"):
        path = path[: path.index(end) + 1] if end in path else path
    found = probes_of(flow).setdefault((target.site, path), {})
    if not any(p.literal == literal for p in found):
        found[Probe(literal, before, after)] = None


def _literal_arg(flow: Any, node: ast.Call, env: dict[str, Any]) -> str | None:
    if not node.args:
        return None
    arg = node.args[0]
    if isinstance(arg, ast.Name):
        arg = flow.module.constants.get(arg.id, arg)
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    return None


def text_method(flow: Any, base: Ref, name: str, node: ast.Call, env: dict[str, Any]) -> Any:
    """``text.name(...)`` on a response's text: a probe for a literal it searches; the
    pieces of a ``split`` are texts of the same body (a list of them)."""
    literal = _literal_arg(flow, node, env)
    note_split(flow, base, name, literal)  # ``text.split("\r\n")``, ``line.split("\t")``
    if name in _SEARCHES and literal is not None:
        note_probe(flow, base, literal, node)
    if name in _PIECES:
        return Ref(base.site, base.path, 1)
    if name in _KEEPS:
        decimal_comma(flow, base, name, node)
        return base
    if name in _STR:
        flow.note(base, "str")
        note_filter(flow, base, name, node)
    return None


def _offset(node: ast.expr, names: dict[str, int], anchor: ast.expr | None = None) -> int | None:
    """``pos + 15`` / ``pos - 8`` / ``pos`` as an offset from the position found."""
    if node is anchor:
        return 0
    if isinstance(node, ast.Name):
        return names.get(node.id)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
        left, right = node.left, node.right
        sign = 1 if isinstance(node.op, ast.Add) else -1
        if isinstance(right, ast.Constant) and type(right.value) is int:
            inner = _offset(left, names, anchor)
            return None if inner is None else inner + sign * right.value
        if sign == 1 and isinstance(left, ast.Constant) and type(left.value) is int:
            inner = _offset(right, names, anchor)
            return None if inner is None else inner + left.value
    return None


def _window(flow: Any, call: ast.expr) -> tuple[int, int]:
    """(chars read before, chars read after the start) of the position ``call`` finds:
    the offsets of the names assigned from it by ``+``/``-`` constants in its scope."""
    parents = flow.module.parents
    top: ast.expr = call
    while isinstance(parents.get(id(top)), ast.BinOp):
        top = parents[id(top)]
    first = _offset(top, {}, call)
    if first is None:
        return 0, 0
    stmt = parents.get(id(top))
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
        return _widths([first])
    target = stmt.targets[0]
    if not isinstance(target, ast.Name):
        return _widths([first])
    known = {target.id: first}
    scope = flow.module.enclosing_function(stmt) or flow.module.tree
    for later in ast.walk(scope):
        if isinstance(later, ast.Assign) and len(later.targets) == 1 and later is not stmt:
            name = later.targets[0]
            found = _offset(later.value, known)
            if isinstance(name, ast.Name) and found is not None and name.id not in known:
                known[name.id] = found
    used = [_offset(n, known) for n in ast.walk(scope) if isinstance(n, ast.BinOp)]
    return _widths([*known.values(), *(o for o in used if o is not None)])


def _widths(offsets: list[int]) -> tuple[int, int]:
    return max([0, *(-o for o in offsets)]), max([0, *offsets])


def _numbers(width: int, index: int, spaced: bool) -> str:
    """Numbers separated by spaces, right-aligned in ``width`` chars."""
    room = width - 1 if spaced and width > 2 else width
    tokens: list[str] = []
    value = 12 + index * 3
    while True:
        token = str(value + len(tokens) * 2)
        text = " ".join([token, *tokens])
        if len(text) > room:
            break
        tokens.insert(0, token)
    body = " ".join(tokens)[-room:] if tokens else ""
    return body.rjust(room) + (" " if room < width else "")


def _label(literal: str) -> str:
    words = re.findall(r"[A-Za-z]+", literal)
    return "_".join(w.lower() for w in words[-2:]) or "value"


def _after(probe: Probe, index: int) -> str:
    tag = _OPEN_TAG.search(probe.literal)
    name = tag[1].split(":")[-1] if tag else _label(probe.literal)
    value = str(plausible(name, index))
    value = value.split(" ")[0] if value.endswith(".") else value  # a token, not a sentence
    lead = " " if probe.literal[-1:].isalnum() or probe.literal.endswith(":") else ""
    text = lead + value
    if tag:
        return text + f"</{tag[1]}>"
    return text.ljust(max(0, probe.after - len(probe.literal)))


# a literal a link starts with: the line the code looks for holds a link
_LINK_STARTS = ("http", "https", "http:", "https:", "http://", "https://", "www", "www.", "://")


def _link_line(literal: str, index: int) -> str | None:
    """``"http" in line``: a line holding a link (``See https://www.example.com/page/1``)."""
    if literal not in _LINK_STARTS:
        return None
    scheme = "http://" if literal.startswith("http:") else "https://"
    return f"See {scheme}www.example.com/page/{index + 1} for details"


def probe_records(probes: Mapping[Probe, None] | None, salt: int = 0, count: int = 2) -> str:
    """``count`` records holding every probe in order (empty when there are none)."""
    if not probes:
        return ""
    records = []
    for i in range(count):
        parts = []
        for probe in probes:
            spaced = not probe.literal[:1].isspace()
            lead = _numbers(probe.before, i + salt, spaced) if probe.before else ""
            link = None if probe.before else _link_line(probe.literal, i + salt)
            parts.append(link or lead + probe.literal + _after(probe, i + salt))
        records.append("\n".join(parts))
    return "\n".join(records) + "\n"


def searched_text(flow: Any, site: int, salt: int) -> str:
    """The text of ``site`` drafted from how the code searches it: records holding its
    probes, else the table it splits by hand (:mod:`.text_tables`), else empty."""
    found = probes_of(flow).items()
    probed = "".join(probe_records(p, salt) for (where, _), p in found if where == site)
    return probed or split_table(flow, site, salt)


def compared_literals(
    flow: Any, node: ast.Compare, values: list[Any], env: dict[str, Any] | None = None
) -> None:
    """``"ID=" in body``: a probe on the body; ``child.tag == "temperature"`` (or ``in`` a
    tuple of tags) over the children of an element: a child with that tag is drafted."""
    sides = (node.left, *node.comparators)
    for i, op in enumerate(node.ops):
        left, right = values[i], values[i + 1]
        searched = isinstance(right, Ref) and right.path[:1] in TEXT_ROOTS
        if isinstance(op, ast.In) and searched and not leaves(flow, node):
            found = left.values if isinstance(left, Lits) else (_constant(sides[i]),)
            for literal in found:  # ``code in chunk`` with ``code`` one of several literals
                note_probe(flow, right, literal)
        if isinstance(op, ast.Eq | ast.In):
            for ref, other in ((left, sides[i + 1]), (right, sides[i])):
                _child_tag(flow, ref, other)
        if isinstance(op, ast.Eq) and kept(flow, node):
            for ref, other, node_ in ((left, right, sides[i + 1]), (right, left, sides[i])):
                literal = _constant(node_)
                equal_text(flow, ref, Lits((literal,)) if isinstance(literal, str) else other)
    if len(node.ops) == 1 and env is not None:
        length_test(flow, node, env)


def _child_tag(flow: Any, ref: Any, other: ast.expr) -> None:
    if not isinstance(ref, Ref) or ref.wrap or ref.path[-2:-1] != ("index",):
        return
    if ref.path[-1] not in ("attr:tag", "attr:name") or ref.path[0] not in ("html", "xml"):
        return
    tags = [_constant(other)]
    if isinstance(other, ast.Tuple | ast.List | ast.Set):
        tags = [_constant(e) for e in other.elts]
    for tag in tags:
        if isinstance(tag, str) and re.fullmatch(r"[\w:-]+", tag):
            flow.note(Ref(ref.site, (*ref.path[:-2], f"el:{tag.split('}')[-1]}")))
