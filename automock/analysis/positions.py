"""libcst positions for a few statements, without generating code for the whole module.

``MetadataWrapper(module).resolve(PositionProvider)`` deep-copies the tree,
runs a visitor pass and generates code for every node. The scanner needs
positions only for the statements holding touchpoints, so it generates code
for those alone, starting each at the line ``ast`` reports for it, with the
indentation of its enclosing blocks. The property tests check the result
against ``PositionProvider`` on generated programs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import ast

    import libcst as cst
    from libcst.metadata import CodeRange

__all__ = ["positions_for"]


def positions_for(
    module: cst.Module, source: str, paths: set[tuple[int, ...]]
) -> Mapping[cst.CSTNode, CodeRange]:
    """Syntactic positions of the nodes in the statements at ``paths``.

    Same numbers as ``MetadataWrapper(module).resolve(PositionProvider)``, but
    code generation runs only over the innermost def/class-body statements
    that hold touchpoints: each starts at a line known from ``ast`` (its first
    token's line minus the comment/blank lines libcst attaches in front of it)
    with its enclosing blocks' indentation. Falls back to the whole-module
    pass if the two parsers disagree or libcst internals change.
    """
    from libcst.metadata import MetadataWrapper, PositionProvider
    from libcst.metadata.position_provider import PositionProvidingCodegenState

    def fresh_state(provider: PositionProvider) -> PositionProvidingCodegenState:
        return PositionProvidingCodegenState(
            default_indent=module.default_indent,
            default_newline=module.default_newline,
            provider=provider,
        )

    try:
        provider = PositionProvider()
        located = _locate(module, source, paths)
        if located is None:
            module._codegen(fresh_state(provider))
        else:
            for statement, line, indents in located:
                state = fresh_state(provider)
                state.line = line
                state.indent_tokens = indents
                statement._codegen(state)
        return provider._computed  # type: ignore[return-value]
    except (AttributeError, TypeError):  # pragma: no cover - libcst internals changed
        return MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)


def _locate(
    module: cst.Module, source: str, paths: set[tuple[int, ...]]
) -> list[tuple[cst.CSTNode, int, list[str]]] | None:
    """For each statement path: the libcst statement, its first line, its indentation."""
    import ast

    import libcst as cst

    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    out = []
    for path in sorted(paths):
        cst_body: Sequence[cst.CSTNode] = module.body
        ast_body: list[ast.stmt] = tree.body
        indents: list[str] = []
        for depth, index in enumerate(path):
            found = _pair(cst_body, ast_body, index)
            if found is None:
                return None
            statement, node = found
            if depth == len(path) - 1:
                out.append((statement, _first_line(statement, node), list(indents)))
                break
            block = getattr(statement, "body", None)
            if not isinstance(block, cst.IndentedBlock) or not hasattr(node, "body"):
                return None
            indents.append(module.default_indent if block.indent is None else block.indent)
            cst_body, ast_body = block.body, node.body
    return out


def _pair(
    cst_body: Sequence[cst.CSTNode], ast_body: list[ast.stmt], index: int
) -> tuple[cst.CSTNode, ast.stmt] | None:
    """The libcst statement at ``index`` and the ``ast`` statement it starts with."""
    import libcst as cst

    position = 0
    for statement in cst_body[:index]:
        position += len(statement.body) if isinstance(statement, cst.SimpleStatementLine) else 1
    if index >= len(cst_body) or position >= len(ast_body):
        return None
    return cst_body[index], ast_body[position]


def _first_line(statement: cst.CSTNode, node: ast.stmt) -> int:
    """Line where libcst's code for ``statement`` starts (its leading comment lines)."""
    import libcst as cst

    first = node.lineno
    decorators = getattr(node, "decorator_list", ())
    if decorators and not isinstance(statement, cst.SimpleStatementLine):
        first = min(first, *(d.lineno for d in decorators))
    lead = len(getattr(statement, "leading_lines", ()))
    if isinstance(statement, cst.FunctionDef | cst.ClassDef) and statement.decorators:
        lead += len(statement.decorators[0].leading_lines)
    return first - lead
