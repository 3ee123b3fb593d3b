"""Texts the code keeps, compares or converts, and the drafted texts that pass.

``if href.startswith("http"):`` or a comprehension's ``if a["href"].endswith(".pdf")``
keeps only the values with that affix, ``if cell.text.isdigit():`` only digits
(:func:`note_filter`); ``if cur.find("Code").text == "USD":`` only that literal
(:func:`equal_text`); each becomes a pattern the drafted text matches
(:func:`automock.drafting.regex_flow.note_regex`). A negated test, or one whose
branch gives up (``continue``, ``return``, an exit: :func:`leaves`), keeps nothing.
``float(row["Close"].replace(",", ""))`` makes a CSV cell a number's text (:func:`converted`)
and ``cell.text.replace(",", ".")`` a number with a decimal comma (:func:`decimal_comma`);
``el.text.split()[2]`` needs three words (:func:`split_piece`), ``len(cells) >= 4`` four
cells and ``len(title) > 12`` a long enough text (:func:`length_test`).
"""

from __future__ import annotations

import ast
import re
from typing import Any

from automock.drafting.literals import Lits, Ref
from automock.drafting.regex_flow import note_regex

__all__ = [
    "FAILURE",
    "constant",
    "converted",
    "decimal_comma",
    "equal_text",
    "kept",
    "leaves",
    "length_test",
    "note_filter",
    "split_piece",
    "string_use",
]

# what a failed response says: the code looks for it to give up, never to find its data
FAILURE = re.compile(
    r"(?i)error|fail|denied|invalid|not found|captcha|forbidden|unauthori[sz]ed|exception"
    r"|too many|blocked|unavailable|sorry|warning"
)
# string methods whose result is still the text (``.replace(",", "").strip()``)
_STEPS = (
    "decode", "strip", "lstrip", "rstrip", "lower", "upper", "casefold", "replace", "title",
    "capitalize", "split", "rsplit", "partition", "rpartition",
)  # fmt: skip
_DIGITS = ("isdigit", "isnumeric", "isdecimal")
_TURNED: dict[type[ast.cmpop], ast.cmpop] = {
    ast.Lt: ast.Gt(), ast.Gt: ast.Lt(), ast.LtE: ast.GtE(), ast.GtE: ast.LtE(),
}  # fmt: skip
_NEGATED: dict[type[ast.cmpop], ast.cmpop] = {
    ast.Lt: ast.GtE(), ast.LtE: ast.Gt(), ast.NotEq: ast.Eq(),
}  # fmt: skip


def constant(node: ast.expr) -> Any:
    """The value of a literal (None for anything else)."""
    return node.value if isinstance(node, ast.Constant) else None


def string_use(flow: Any, base: Ref, name: str, node: ast.Call) -> None:
    """``value.name(...)`` with a string method: the value is a text, kept by a filter; a
    CSV cell the code converts after the method (``float(row["Close"].replace(",", ""))``)
    is a number's text."""
    if base.path[:1] == ("csv",):
        flow.note(base, converted(flow, node))
    flow.note(base, "str")
    note_filter(flow, base, name, node)
    decimal_comma(flow, base, name, node)


def decimal_comma(flow: Any, base: Any, name: str, node: ast.Call) -> None:
    """``cell.text.replace(",", ".")`` on one value (not a whole body): a number written
    with a decimal comma, as many countries write them (``77,4512``)."""
    if name != "replace" or len(node.args) < 2 or not isinstance(base, Ref) or base.wrap:
        return
    if [constant(a) for a in node.args[:2]] != [",", "."] or base.path[:1] == ("json",):
        return
    if len(base.path) > 1 and base.path[-1] != "index":  # a field, a cell, an element's text
        note_regex(flow, base, r"^[1-9]\d,\d{2,4}$")


def converted(flow: Any, call: ast.expr) -> str | None:
    """``int``/``float`` when the text ``call`` gives (through string methods) is converted
    to a number."""
    parents = flow.module.parents
    node: Any = call
    parent = parents.get(id(node))
    while isinstance(parent, ast.Attribute) and parent.attr in _STEPS:
        node = parents.get(id(parent))  # ``.replace(",", "").strip()``
        parent = parents.get(id(node)) if isinstance(node, ast.Call) else None
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and node in parent.args:
        return parent.func.id if parent.func.id in ("int", "float") else None
    return None


def note_filter(flow: Any, base: Any, name: str, node: ast.Call) -> None:
    """``if href.startswith("http"):`` keeps the values that start with the literal (a
    condition, a comprehension's filter): the drafted text matches a pattern that does.
    A negated test, or one that gives up (``continue``), is left alone."""
    if not isinstance(base, Ref) or base.wrap:
        return
    if name in _DIGITS and kept(flow, node):  # ``if cell.text.strip().isdigit():``
        note_regex(flow, base, r"^[1-9]\d{1,3}$")
        return
    if name not in ("startswith", "endswith"):
        return
    arg = node.args[0] if node.args else None
    if isinstance(arg, ast.Tuple) and arg.elts:  # ``startswith(("http", "//"))``: the first
        arg = arg.elts[0]
    literal = constant(arg) if arg is not None else None
    if not isinstance(literal, str) or not literal or not kept(flow, node):
        return
    if name == "endswith":
        note_regex(flow, base, r"[a-z]{3,8}" + re.escape(literal) + "$")
        return
    for scheme in ("https://", "http://"):
        if scheme.startswith(literal.lower()):  # ``startswith("http")``: an absolute URL
            note_regex(flow, base, "^" + re.escape(scheme) + r"example\.com/[a-z]{3,8}/\d{1,3}$")
            return
    note_regex(flow, base, "^" + re.escape(literal) + r"[a-z]{3,8}")


def kept(flow: Any, call: ast.expr) -> bool:
    """Whether ``call`` is a condition whose true branch reads on (not negated, no ``continue``)."""
    parents = flow.module.parents
    node: Any = call
    while isinstance(parents.get(id(node)), ast.BoolOp):
        node = parents[id(node)]
    parent = parents.get(id(node))
    if isinstance(parent, ast.If | ast.While | ast.IfExp) and parent.test is node:
        return not leaves(flow, node)
    return isinstance(parent, ast.comprehension) and any(c is node for c in parent.ifs)


def equal_text(flow: Any, ref: Any, other: Any) -> None:
    """``if cur.find("Code").text == "USD":`` (or a module constant): the element's or the
    CSV cell's text is that literal (JSON values: :mod:`automock.drafting.compared`)."""
    if not isinstance(ref, Ref) or ref.wrap or ref.path[:1] not in (("html",), ("xml",), ("csv",)):
        return
    if ref.path[0] != "csv" and ref.path[-1] != "attr:text":
        return
    if not isinstance(other, Lits) or len(other.values) != 1 or not other.values[0].strip():
        return
    if not FAILURE.search(other.values[0]):
        note_regex(flow, ref, "^" + re.escape(other.values[0]) + "$")


def leaves(flow: Any, test: ast.expr) -> bool:
    """Whether ``if <test>:`` gives up (its body ends in return, raise, break, continue or
    an exit): the literal tested marks a reply the code will not read."""
    parents = flow.module.parents
    node: Any = test
    while isinstance(parents.get(id(node)), ast.BoolOp | ast.UnaryOp):
        node = parents[id(node)]
    branch = parents.get(id(node))
    if not isinstance(branch, ast.If) or branch.test is not node or not branch.body:
        return False
    last = branch.body[-1]
    searched = {n.id for n in ast.walk(test) if isinstance(n, ast.Name)}
    if isinstance(last, ast.Return) and last.value is not None:  # ``return float(chunk...)``
        return not any(isinstance(n, ast.Name) and n.id in searched for n in ast.walk(last.value))
    if isinstance(last, ast.Return | ast.Raise | ast.Break | ast.Continue):
        return True
    call = last.value if isinstance(last, ast.Expr) else None
    return isinstance(call, ast.Call) and ast.unparse(call.func) in ("exit", "quit", "sys.exit")


def split_piece(flow: Any, base: Ref, key: ast.expr) -> None:
    """``el.text.split()[2]`` (or ``split(" - ")[1]``) on a field, a cell or an element's
    text: a text of that many pieces, the one read a number when the code converts it."""
    read = flow.module.parents.get(id(key))
    split = read.value if isinstance(read, ast.Subscript) else None
    if isinstance(split, ast.Name):  # ``parts = a.text.split("/")``, then ``parts[1]``
        split = _assigned_once(flow, split.id)
    if not (isinstance(key, ast.Constant) and type(key.value) is int and 0 < key.value < 8):
        return
    if not isinstance(split, ast.Call) or not isinstance(split.func, ast.Attribute):
        return
    sep = constant(split.args[0]) if split.args else " "
    if split.func.attr not in ("split", "rsplit") or not isinstance(sep, str) or not sep:
        return
    if len(base.path) < 2 or base.path[-1] == "index" or base.path[:1] == ("json",):
        return  # a whole body split in lines or words is the probes' (text_probes)
    piece = r"\d{1,3}" if converted(flow, read) else "[a-z]{3,7}"
    words = ["[A-Z][a-z]{2,6}", *(["[a-z]{3,7}"] * (key.value - 1)), piece]
    note_regex(flow, base, "^" + re.escape(sep).join(words) + "$")


def _assigned_once(flow: Any, name: str) -> ast.expr | None:
    """The value of the module's one assignment to ``name`` (None if not exactly one)."""
    found = [
        node.value
        for node in flow.module.walk()
        if isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == [name]
    ]
    return found[0] if len(found) == 1 else None


def length_test(flow: Any, node: ast.Compare, env: dict[str, Any]) -> None:
    """``if len(cells) >= 4:`` (or ``if len(cells) < 4: continue``) on a list of elements:
    that many drafted; ``if len(title) > 12:`` on a field's, a cell's or an element's text:
    a text that long."""
    sides = [node.left, node.comparators[0]]
    op: ast.cmpop = node.ops[0]
    if isinstance(sides[1], ast.Call):  # ``3 < len(cells)``: the same test turned round
        sides.reverse()
        op = _TURNED.get(type(op), op)
    if not kept(flow, node):  # ``if len(cells) < 4: continue``: the rows read have four
        if not leaves(flow, node):
            return
        op = _NEGATED.get(type(op), ast.NotEq())
    call, bound = sides[0], constant(sides[1])
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.args):
        return
    if call.func.id != "len" or type(bound) is not int or not 0 < bound < 60:
        return
    need = bound + 1 if isinstance(op, ast.Gt) else bound if isinstance(op, ast.GtE | ast.Eq) else 0
    ref = flow.eval(call.args[0], env)
    if not need or not isinstance(ref, Ref) or ref.path[:1] == ("json",):
        return
    if not ref.wrap and ref.path[-1].startswith("els:") and need > 2:
        flow.note(ref.child(f"count:{min(need, 12)}"))
    elif (
        not ref.wrap and len(ref.path) > 1 and (ref.path[-1] == "attr:text" or ref.path[0] == "csv")
    ):
        words = max(0, -(-(need - 3) // 4))  # a capitalised word, then words of 3 or more
        note_regex(flow, ref, "^[A-Z][a-z]{2,6}" + " [a-z]{3,7}" * words + "$")
