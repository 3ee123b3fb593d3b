"""libcst positions for a few statements, without generating code for the whole module.

``MetadataWrapper(module).resolve(PositionProvider)`` deep-copies the tree,
runs a visitor pass and generates code for every node. The scanner needs
positions only for the statements holding touchpoints, so it generates code
for those alone, starting each at the line ``ast`` reports for it, with the
indentation of its enclosing blocks. The property tests check the result
against ``PositionProvider`` on generated programs.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import ast

    import libcst as cst
    from libcst.metadata import CodeRange

__all__ = ["Outline", "outline", "positions_for"]


@dataclass(frozen=True, slots=True)
class Outline:
    """An ``ast`` statement reduced to what locating it needs: its line, its first line
    counting decorators, and its body's statements (``None``: no body). Much lighter than
    the tree, which the scanner can drop before libcst parses the file."""

    line: int
    decorated: int
    body: tuple[Outline, ...] | None


def outline(body: list[ast.stmt]) -> tuple[Outline, ...]:
    """The :class:`Outline` of each statement of an ``ast`` body (a module's ``tree.body``)."""
    out = []
    for node in body:
        inner = getattr(node, "body", None)
        decorators = getattr(node, "decorator_list", ())
        first = min(node.lineno, *(d.lineno for d in decorators)) if decorators else node.lineno
        out.append(Outline(node.lineno, first, outline(inner) if type(inner) is list else None))
    return tuple(out)


def positions_for(
    module: cst.Module,
    source: str,
    paths: set[tuple[int, ...]],
    wanted: Collection[cst.CSTNode] | None = None,
    outlined: tuple[Outline, ...] | None = None,
) -> Mapping[cst.CSTNode, CodeRange]:
    """Syntactic positions of ``wanted`` nodes (default: all) in the statements at ``paths``.

    Same numbers as ``MetadataWrapper(module).resolve(PositionProvider)``, but
    code generation runs only over the innermost def/class-body statements
    that hold touchpoints: each starts at a line known from ``ast`` (its first
    token's line minus the comment/blank lines libcst attaches in front of it)
    with its enclosing blocks' indentation. With ``wanted``, a sparse codegen
    state records only those nodes (no per-node context managers or position
    objects for the rest). Falls back to the whole-module pass if the two
    parsers disagree, and to libcst's provider if its internals change. ``outlined``:
    the :func:`outline` of ``source``'s statements when known (not parsed again).
    """
    from libcst.metadata import MetadataWrapper, PositionProvider
    from libcst.metadata.position_provider import PositionProvidingCodegenState

    provider = PositionProvider()
    wanted_ids = None if wanted is None else {id(n) for n in wanted}

    def fresh_state(line: int, indents: list[str]) -> PositionProvidingCodegenState:
        state: PositionProvidingCodegenState
        if wanted is None:
            state = PositionProvidingCodegenState(
                default_indent=module.default_indent,
                default_newline=module.default_newline,
                provider=provider,
            )
        else:
            state = _sparse_state_class(PositionProvidingCodegenState)(module, provider, wanted_ids)
        state.line = line
        state.indent_tokens = indents
        return state

    try:
        located = _locate(module, source, paths, outlined)
        if located is None:
            module._codegen(fresh_state(1, []))
        else:
            for statement, line, indents in located:
                statement._codegen(fresh_state(line, indents))
        return provider._computed  # type: ignore[return-value]
    except (AttributeError, TypeError):  # pragma: no cover - libcst internals changed
        return MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)


class _Noop:
    """A reusable do-nothing context manager."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


_NOOP = _Noop()


@cache
def _sparse_state_class(base: type[Any]) -> type[Any]:
    """A ``PositionProvidingCodegenState`` (``base``) that records only wanted nodes.

    Built lazily so importing this module does not import libcst, and once per
    ``base``: libcst imported afresh (pytester's in-process runs drop modules first
    imported inside a session) has new classes, and ranges built from the old ones
    would not equal its own (a dataclass compares its class too).
    """
    from libcst._position import CodePosition, CodeRange

    class Span:
        __slots__ = ("node", "start", "state")

        def __init__(self, state: Any, node: cst.CSTNode) -> None:
            self.state, self.node = state, node

        def __enter__(self) -> None:
            self.start = CodePosition(self.state.line, self.state.column)

        def __exit__(self, *exc: object) -> None:
            end = CodePosition(self.state.line, self.state.column)
            self.state.provider._computed[self.node] = CodeRange(self.start, end)

    class SparseState(base):  # type: ignore[misc]
        def __init__(self, module: cst.Module, provider: Any, wanted: set[int]) -> None:
            super().__init__(
                default_indent=module.default_indent,
                default_newline=module.default_newline,
                provider=provider,
            )
            self.wanted = wanted

        def add_token(self, value: str) -> None:
            self.tokens.append(value)
            if "\n" in value or "\r" in value:
                self._update_position(value)
            else:
                self.column += len(value)

        def before_codegen(self, node: cst.CSTNode) -> None:
            return None

        def after_codegen(self, node: cst.CSTNode) -> None:
            return None

        def record_syntactic_position(
            self,
            node: cst.CSTNode,
            *,
            start_node: cst.CSTNode | None = None,
            end_node: cst.CSTNode | None = None,
        ) -> Any:
            return Span(self, node) if id(node) in self.wanted else _NOOP

    return SparseState


def _locate(
    module: cst.Module,
    source: str,
    paths: set[tuple[int, ...]],
    outlined: tuple[Outline, ...] | None,
) -> list[tuple[cst.CSTNode, int, list[str]]] | None:
    """For each statement path: the libcst statement, its first line, its indentation."""
    import ast

    import libcst as cst

    if outlined is None:
        try:
            outlined = outline(ast.parse(source).body)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
    starts: dict[int, list[int]] = {}  # id of a libcst body -> its statements' ``ast`` indexes
    out = []
    for path in sorted(paths):
        cst_body: Sequence[cst.CSTNode] = module.body
        ast_body: tuple[Outline, ...] = outlined
        indents: list[str] = []
        for depth, index in enumerate(path):
            found = _pair(cst_body, ast_body, index, starts)
            if found is None:
                return None
            statement, node = found
            if depth == len(path) - 1:
                out.append((statement, _first_line(statement, node), list(indents)))
                break
            block = getattr(statement, "body", None)
            if not isinstance(block, cst.IndentedBlock) or node.body is None:
                return None
            indents.append(module.default_indent if block.indent is None else block.indent)
            cst_body, ast_body = block.body, node.body
    return out


def _pair(
    cst_body: Sequence[cst.CSTNode],
    ast_body: tuple[Outline, ...],
    index: int,
    starts: dict[int, list[int]],
) -> tuple[cst.CSTNode, Outline] | None:
    """The libcst statement at ``index`` and the ``ast`` statement it starts with.

    ``starts`` memoises, per libcst body, where each of its statements starts among the
    ``ast`` statements (a line of ``a; b`` is one libcst statement, two ``ast`` ones), so
    locating many statements of one body costs one pass over it.
    """
    import libcst as cst

    positions = starts.get(id(cst_body))
    if positions is None:
        positions = [0]
        for statement in cst_body:
            step = len(statement.body) if isinstance(statement, cst.SimpleStatementLine) else 1
            positions.append(positions[-1] + step)
        starts[id(cst_body)] = positions
    if index >= len(cst_body) or positions[index] >= len(ast_body):
        return None
    return cst_body[index], ast_body[positions[index]]


def _first_line(statement: cst.CSTNode, node: Outline) -> int:
    """Line where libcst's code for ``statement`` starts (its leading comment lines)."""
    import libcst as cst

    first = node.line
    if not isinstance(statement, cst.SimpleStatementLine):
        first = node.decorated
    lead = len(getattr(statement, "leading_lines", ()))
    if isinstance(statement, cst.FunctionDef | cst.ClassDef) and statement.decorators:
        lead += len(statement.decorators[0].leading_lines)
    return first - lead
