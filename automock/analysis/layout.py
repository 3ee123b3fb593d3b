"""Units of selection for the pre-filter, and the map from text offsets to them.

The pre-filter selects whole units (see :class:`Layout`), then hands their
line ranges to libcst; a unit therefore always starts and ends on a line
boundary of a complete statement (or class header).
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_right
from itertools import accumulate

__all__ = ["Layout", "statement_start"]


class Layout:
    """Units of selection and an offset -> unit map.

    A unit is a top-level statement, except that a class is split into its
    header and each statement of its body (recursively), so one method that
    reads the clock does not drag a whole large class into the libcst parse.
    """

    def __init__(self, source: str, tree: ast.Module) -> None:
        if "\r" in source.replace("\r\n", ""):  # old Mac newlines: the slow, exact way
            self.line_starts = [0, *(m.end() for m in re.finditer(r"\r\n?|\n", source))]
        else:
            self.line_starts = [0, *accumulate(len(line) + 1 for line in source.split("\n"))]
        self.by_line: list[int | None] = [None] * (len(self.line_starts) + 2)
        self.ranges: list[tuple[int, int]] = []
        self.statements: list[ast.stmt | None] = []  # None for a class header
        self.header_of: dict[int, int] = {}  # unit -> header unit of its class
        self.members: dict[int, list[int]] = {}  # header unit -> its body units
        self.class_nodes: dict[int, ast.ClassDef] = {}  # header unit -> its class
        self._add(tree.body, None)

    def _add(self, body: list[ast.stmt], header: int | None) -> None:
        for statement in body:
            start = statement_start(statement)
            end = statement.end_lineno or start
            if (
                isinstance(statement, ast.ClassDef)
                and statement_start(statement.body[0]) > statement.lineno
            ):
                unit = self._unit((start, statement_start(statement.body[0]) - 1), None, header)
                self.members[unit] = []
                self.class_nodes[unit] = statement
                self._add(statement.body, unit)
            else:
                self._unit((start, end), statement, header)

    def _unit(self, lines: tuple[int, int], statement: ast.stmt | None, header: int | None) -> int:
        index = len(self.ranges)
        self.ranges.append(lines)
        self.statements.append(statement)
        if header is not None:
            self.header_of[index] = header
            self.members[header].append(index)
        start, end = lines  # inner units are added later and win
        self.by_line[start : end + 1] = [index] * (end - start + 1)
        return index

    def statement_at(self, offset: int) -> int | None:
        line = bisect_right(self.line_starts, offset)
        return self.by_line[line] if line < len(self.by_line) else None

    def unit_nodes(self, index: int) -> list[ast.AST]:
        """The ``ast`` nodes of a unit: its statement, or a class header's parts."""
        statement = self.statements[index]
        if statement is not None:
            return [statement]
        header = self.class_nodes[index]  # a class header: decorators, bases, keywords
        return [*header.decorator_list, *header.bases, *header.keywords]

    def complete(self, needed: set[int]) -> set[int]:
        """Add class headers of needed members, and whole classes whose header is needed."""
        out = set(needed)
        for unit in needed:
            header = self.header_of.get(unit)
            while header is not None:
                out.add(header)
                header = self.header_of.get(header)
        stack = [u for u in out if u in self.members]
        while stack:
            header = stack.pop()
            if header in needed or not any(m in out for m in self.members[header]):
                for member in self.members[header]:
                    if member not in out:
                        out.add(member)
                        if member in self.members:
                            stack.append(member)
        return out


def statement_start(statement: ast.stmt) -> int:
    """First line of ``statement``, counting its decorators."""
    decorators = getattr(statement, "decorator_list", ())
    return (
        min(statement.lineno, *(d.lineno for d in decorators)) if decorators else statement.lineno
    )
