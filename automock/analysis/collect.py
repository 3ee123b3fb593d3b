"""One libcst pass that records scopes, bindings and reference sites.

No libcst metadata providers are used for resolution: the collector tracks
imports, aliases and scopes itself (cheaper than QualifiedNameProvider, which
deep-copies the tree and builds full scope graphs). Resolution happens after
the walk, in :mod:`automock.analysis.resolve`, once every binding is known.
What each import binds is read by :mod:`automock.analysis.imports`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import libcst as cst

from automock.analysis.cstwalk import child_fields, handlers, is_node
from automock.analysis.imports import import_bindings
from automock.analysis.resolve import (
    LOCAL,
    AttrExpr,
    Binding,
    CallExpr,
    DivExpr,
    Expr,
    InstanceOf,
    NameExpr,
    Scope,
    ScopeKind,
)

__all__ = ["Collector", "Site"]


@dataclass(frozen=True, slots=True)
class Site:
    """A reference worth resolving: ``expr`` as written at ``ref``.

    ``span`` is the node whose source range is reported (the whole call when
    the reference is called); ``call`` describes that call's arguments.
    """

    ref: cst.CSTNode
    span: cst.CSTNode
    expr: Expr
    call: CallExpr | None
    # Statement path: index in ``Module.body``, then in the body of each
    # enclosing def/class (the innermost statement holding the site).
    path: tuple[int, ...]


_COMPREHENSIONS = frozenset({cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp})


class Collector:
    """Walks a module once; afterwards ``sites`` lists every candidate reference.

    A hand-rolled walk rather than ``CSTVisitor`` (see
    :mod:`automock.analysis.cstwalk` for why). Handlers keep libcst's
    ``visit_X``/``leave_X`` names.
    """

    def __init__(self) -> None:
        self.module_scope = Scope("module", None)
        self.scope = self.module_scope
        self.order = 0
        self.sites: list[Site] = []
        self._skip: set[int] = set()  # ids of Name/Attribute nodes that are not load sites
        self._called: dict[int, cst.Call] = {}  # func node id -> its Call
        self._suppress = 0  # inside annotations, except clauses, isinstance()
        self._muted: set[int] = set()
        self._pending: dict[int, list[tuple[str, Binding]]] = {}
        self._path: list[int] = []
        self._blocks: set[int] = set()  # ids of def/class bodies continuing the path
        self._direct: set[int] = set()  # ids of statements that end the current path

    # -- helpers ----------------------------------------------------------
    def _next(self) -> int:
        self.order += 1
        return self.order

    def _push(self, kind: ScopeKind) -> None:
        self.scope = Scope(kind, self.scope)

    def _pop(self) -> None:
        assert self.scope.parent is not None
        self.scope = self.scope.parent

    def _bind(self, name: str, binding: Binding = LOCAL) -> None:
        self.scope.bind(name, self._next(), binding)

    def _bind_target(self, target: cst.BaseExpression, value: Expr | None = None) -> None:
        for name, binding in self._targets(target, value):
            self._bind(name, binding)

    def _targets(
        self, target: cst.BaseExpression, value: Expr | None = None
    ) -> list[tuple[str, Binding]]:
        """Names bound by an assignment target (marked as non-sites)."""
        if isinstance(target, cst.Name):
            self._skip.add(id(target))
            return [(target.value, Binding(value=value) if value is not None else LOCAL)]
        out: list[tuple[str, Binding]] = []
        if isinstance(target, cst.Tuple | cst.List):
            for element in target.elements:
                out.extend(self._targets(element.value))
        elif isinstance(target, cst.StarredElement):
            out.extend(self._targets(target.value))
        return out

    def _defer(self, node: cst.CSTNode, target: cst.BaseExpression, value: Expr | None) -> None:
        """Bind after the right-hand side is visited (``time = time.time()``)."""
        self._pending.setdefault(id(node), []).extend(self._targets(target, value))

    def _flush(self, node: cst.CSTNode) -> None:
        for name, binding in self._pending.pop(id(node), ()):
            self._bind(name, binding)

    def expr(self, node: cst.BaseExpression) -> Expr | None:
        """The trackable form of ``node`` (names, attributes, calls, path joins)."""
        if isinstance(node, cst.Name):
            return NameExpr(node.value, self.scope, self.order + 1)
        if isinstance(node, cst.Attribute):
            base = self.expr(node.value)
            return None if base is None else AttrExpr(base, node.attr.value)
        if isinstance(node, cst.Call):
            func = self.expr(node.func)
            return None if func is None else call_expr(func, node)
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Divide):
            left = self.expr(node.left)
            return None if left is None else DivExpr(left)
        if isinstance(node, cst.Await):
            return self.expr(node.expression)
        return None

    def _site(self, node: cst.Name | cst.Attribute) -> None:
        if self._suppress:
            return
        expr = self.expr(node)
        if expr is None:
            return
        call = self._called.get(id(node))
        call_info = call_expr(expr, call) if call is not None else None
        span = call if call is not None else node
        self.sites.append(Site(node, span, expr, call_info, tuple(self._path)))

    # -- imports --------------------------------------------------------------
    def visit_Import(self, node: cst.Import) -> bool:
        for name, binding in import_bindings(node):
            self._bind(name, binding)
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        for name, binding in import_bindings(node):
            self._bind(name, binding)
        return False

    def visit_Global(self, node: cst.Global) -> bool:
        self.scope.globals.update(item.name.value for item in node.names)
        return False

    def visit_Nonlocal(self, node: cst.Nonlocal) -> bool:
        return False

    # -- scopes -----------------------------------------------------------------
    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if id(node) in self._direct:
            self._blocks.add(id(node.body))
        self._skip.add(id(node.name))
        self._bind(node.name.value)
        self._push("function")

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._pop()

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        if id(node) in self._direct:
            self._blocks.add(id(node.body))
        self._skip.add(id(node.name))
        self._bind(node.name.value)
        self._push("class")

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self._pop()

    def visit_Lambda(self, node: cst.Lambda) -> None:
        self._push("lambda")

    def leave_Lambda(self, original_node: cst.Lambda) -> None:
        self._pop()

    def visit_Param(self, node: cst.Param) -> None:
        self._skip.add(id(node.name))
        declared = None
        if node.annotation is not None:
            annotation = self.expr(node.annotation.annotation)
            declared = None if annotation is None else InstanceOf(annotation)
        self._bind(node.name.value, LOCAL if declared is None else Binding(value=declared))

    def collect(self, module: cst.Module) -> None:
        """Walk ``module``, recording each site's statement path."""
        self._walk_body(module.body)

    def _walk_body(self, body: Sequence[cst.CSTNode]) -> None:
        for index, statement in enumerate(body):
            self._path.append(index)
            self._direct.add(id(statement))
            self.walk(statement)
            self._path.pop()

    def walk(self, node: cst.CSTNode) -> None:
        node_type = type(node)
        muted = id(node) in self._muted
        if muted:
            self._suppress += 1
        comprehension = node_type in _COMPREHENSIONS
        if comprehension:
            self._push("comprehension")
        enter = _ENTER.get(node_type)
        if node_type is cst.IndentedBlock and id(node) in self._blocks:
            self._walk_body(node.body)  # type: ignore[attr-defined]
        elif enter is None or enter(self, node) is not False:
            for name in child_fields(node_type):
                value = getattr(node, name)
                if type(value) is tuple or type(value) is list:
                    for item in value:
                        if is_node(item):
                            self.walk(item)
                elif is_node(value):
                    self.walk(value)
        leave = _LEAVE.get(node_type)
        if leave is not None:
            leave(self, node)
        if comprehension:
            self._pop()
        if muted:
            self._suppress -= 1

    # -- bindings -----------------------------------------------------------------
    def visit_Assign(self, node: cst.Assign) -> None:
        value = self.expr(node.value) if len(node.targets) == 1 else None
        for target in node.targets:
            self._defer(node, target.target, value)

    def leave_Assign(self, original_node: cst.Assign) -> None:
        self._flush(original_node)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        value = self.expr(node.value) if node.value is not None else None
        self._defer(node, node.target, value)

    def leave_AnnAssign(self, original_node: cst.AnnAssign) -> None:
        self._flush(original_node)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.target, cst.Name):
            self._defer(node, node.target, None)

    def leave_AugAssign(self, original_node: cst.AugAssign) -> None:
        self._flush(original_node)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._defer(node, node.target, self.expr(node.value))

    def leave_NamedExpr(self, original_node: cst.NamedExpr) -> None:
        self._flush(original_node)

    def visit_For(self, node: cst.For) -> None:
        self._bind_target(node.target)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._bind_target(node.target)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._defer(node, node.asname.name, self.expr(node.item))

    def leave_WithItem(self, original_node: cst.WithItem) -> None:
        self._flush(original_node)

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        if node.name is not None:
            self._bind_target(node.name.name)
        if node.type is not None:
            self._mute(node.type)

    def visit_ExceptStarHandler(self, node: cst.ExceptStarHandler) -> None:
        if node.name is not None:
            self._bind_target(node.name.name)
        self._mute(node.type)

    def visit_MatchAs(self, node: cst.MatchAs) -> None:
        if node.name is not None:
            self._bind_target(node.name)

    def visit_MatchStar(self, node: cst.MatchStar) -> None:
        if node.name is not None:
            self._bind_target(node.name)

    def visit_MatchMapping(self, node: cst.MatchMapping) -> None:
        if node.rest is not None:
            self._bind_target(node.rest)

    def visit_Del(self, node: cst.Del) -> bool:
        return False

    # -- suppression: names that are types, not uses -----------------------------
    def _mute(self, node: cst.CSTNode) -> None:
        self._muted.add(id(node))

    def visit_Annotation(self, node: cst.Annotation) -> None:
        self._suppress += 1

    def leave_Annotation(self, original_node: cst.Annotation) -> None:
        self._suppress -= 1

    # -- reference sites ------------------------------------------------------------
    def visit_Call(self, node: cst.Call) -> None:
        self._called[id(node.func)] = node
        if isinstance(node.func, cst.Name) and node.func.value in ("isinstance", "issubclass"):
            for arg in node.args[1:]:
                self._mute(arg)
        for arg in node.args:
            if arg.keyword is not None:
                self._skip.add(id(arg.keyword))

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._skip.add(id(node.attr))
        self._skip.add(id(node.value))
        if id(node) not in self._skip:
            self._site(node)

    def visit_Name(self, node: cst.Name) -> None:
        if id(node) not in self._skip:
            self._site(node)

    def visit_Decorator(self, node: cst.Decorator) -> None:
        return None

    def visit_MatchKeywordElement(self, node: cst.MatchKeywordElement) -> None:
        self._skip.add(id(node.key))


def call_expr(func: Expr, node: cst.Call) -> CallExpr:
    positional = 0
    first_is_none = False
    keywords: list[str] = []
    starred = False
    for arg in node.args:
        if arg.star:
            starred = True
        elif arg.keyword is not None:
            keywords.append(arg.keyword.value)
        else:
            if positional == 0:
                first_is_none = isinstance(arg.value, cst.Name) and arg.value.value == "None"
            positional += 1
    return CallExpr(func, positional, first_is_none, tuple(keywords), starred)


_ENTER = handlers(Collector, "visit_")
_LEAVE = handlers(Collector, "leave_")
