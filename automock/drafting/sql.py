"""Infer tables and columns from the SQL string literals in a module.

Recognised: ``CREATE TABLE [IF NOT EXISTS] t (...)``, ``SELECT a, SUM(b) FROM
t [JOIN ...] WHERE c = ?``, ``INSERT [OR ...] INTO t (a, b)``, ``UPDATE t SET a
= ? WHERE b = ?`` and ``DELETE FROM t WHERE a = ?``.

Policy (usually right, a reasonable mistake if not):

- a literal may hold several statements (``executescript(SCHEMA)``): each is
  parsed on its own, so one table never takes another's columns;
- the code creates the table with ``IF NOT EXISTS``: that statement is the
  fixture schema;
- the code creates it unconditionally: the fixture leaves it alone (creating
  it first would make the code's own ``CREATE`` fail) and seeds nothing;
- the code never creates it: a schema is drafted from the columns the queries
  name (types from column names);
- rows are seeded only into a table the program reads and never writes
  (``INSERT``): a table it fills itself starts empty, as it would on a fresh
  database, so its own ``UPDATE ... WHERE id = 1`` changes its own row. Drafted
  schema statements and every seeded table are listed in ``guessed``.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Any

from automock.drafting.values import plausible, sql_type_for

__all__ = ["SqlDraft", "Table", "draft_sql", "split_statements", "sql_literals"]

ROWS_PER_TABLE = 3
_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
_NAME = rf"[\"`\[]?({_IDENT})[\"`\]]?"
_CREATE = re.compile(
    rf"^\s*CREATE\s+(?:TEMP(?:ORARY)?\s+)?TABLE\s+(IF\s+NOT\s+EXISTS\s+)?{_NAME}\s*\((.*)\)",
    re.I | re.S,
)
_SELECT = re.compile(rf"^\s*SELECT\s+(?:DISTINCT\s+)?(.*?)\s+FROM\s+{_NAME}(.*)$", re.I | re.S)
_INSERT = re.compile(
    rf"^\s*(?:INSERT|REPLACE)\s+(?:OR\s+\w+\s+)?INTO\s+{_NAME}\s*(?:\(([^)]*)\))?", re.I | re.S
)
_UPDATE = re.compile(rf"^\s*UPDATE\s+{_NAME}\s+SET\s+(.*?)(?:\s+WHERE\s+(.*))?$", re.I | re.S)
_DELETE = re.compile(rf"^\s*DELETE\s+FROM\s+{_NAME}(?:\s+WHERE\s+(.*))?$", re.I | re.S)
_JOIN = re.compile(rf"\bJOIN\s+{_NAME}", re.I)
_COND = re.compile(
    rf"(?:(\w+)\.)?({_IDENT})\s*(?:=|<>|!=|<=|>=|<|>|\bLIKE\b|\bIN\b|\bIS\b|\bBETWEEN\b)", re.I
)
_ORDER = re.compile(
    r"\b(?:ORDER|GROUP)\s+BY\s+(.*?)(?:\bLIMIT\b|\bHAVING\b|\bOFFSET\b|$)", re.I | re.S
)
_KEYWORDS = frozenset(
    [
        "select",
        "from",
        "where",
        "and",
        "or",
        "not",
        "null",
        "is",
        "in",
        "like",
        "between",
        "order",
        "group",
        "by",
        "limit",
        "offset",
        "having",
        "as",
        "on",
        "join",
        "inner",
        "left",
        "right",
        "outer",
        "distinct",
        "count",
        "sum",
        "avg",
        "min",
        "max",
        "asc",
        "desc",
        "case",
        "when",
        "then",
        "else",
        "end",
        "values",
        "set",
    ]
)
_LOOKS_LIKE_SQL = re.compile(
    r"\s*(SELECT\s.+\sFROM\s|(INSERT|REPLACE)\s.*\bINTO\s|UPDATE\s+\S+\s+SET\s|DELETE\s+FROM\s"
    r"|CREATE\s.*\bTABLE\s)",
    re.I | re.S,
)
_CONSTRAINTS = ("PRIMARY", "UNIQUE", "FOREIGN", "CONSTRAINT", "CHECK")


@dataclass
class Table:
    name: str
    columns: dict[str, str] = field(default_factory=dict)  # column -> SQL type ("" unknown)
    declared: dict[str, str] = field(default_factory=dict)  # columns of the code's CREATE
    create: str | None = None
    create_if_not_exists: bool = False
    written: bool = False  # the code INSERTs into it: its rows are the code's own

    def add(self, column: str, sql_type: str = "") -> None:
        if column.lower() in _KEYWORDS or column == "*" or column.isdigit():
            return
        if column not in self.columns or (sql_type and not self.columns[column]):
            self.columns[column] = sql_type


@dataclass(frozen=True, slots=True)
class SqlDraft:
    schema: tuple[str, ...] = ()
    rows: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    guessed: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.schema and not self.rows


def split_statements(text: str) -> list[str]:
    """The statements of an SQL script, split at ``;`` outside quotes; ``--`` comments dropped."""
    statements: list[str] = []
    current: list[str] = []
    quote = ""
    lines = [line.split("--", 1)[0] if "'" not in line else line for line in text.splitlines()]
    for ch in "\n".join(lines):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"`":
            quote = ch
        elif ch == ";":
            statements.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
    statements.append("".join(current).strip())
    return [s for s in statements if s]


def sql_literals(tree: ast.AST) -> list[str]:
    """String literals that hold SQL statements (one or a script), in source order."""
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and any(_LOOKS_LIKE_SQL.match(s) for s in split_statements(node.value))
        ):
            found.append((node.lineno, node.col_offset, node.value))
    return [text for _, _, text in sorted(found)]


def _split_top(text: str) -> list[str]:
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    if "".join(current).strip():
        parts.append("".join(current).strip())
    return parts


def _expr_columns(expr: str) -> list[str]:
    expr = re.sub(r"\s+AS\s+\w+\s*$", "", expr.strip(), flags=re.I)
    expr = re.sub(r"'[^']*'", "", expr)
    return [m.group(2) for m in re.finditer(rf"(?:(\w+)\.)?({_IDENT})\b(?!\s*\()", expr)]


def _parse(statement: str, tables: dict[str, Table]) -> None:
    def table(name: str) -> Table:
        return tables.setdefault(name, Table(name))

    if m := _CREATE.match(statement):
        t = table(m.group(2))
        t.create = statement.strip().rstrip(";")
        t.create_if_not_exists = bool(m.group(1))
        for column_def in _split_top(m.group(3)):
            words = column_def.split()
            if words and words[0].upper() not in _CONSTRAINTS:
                t.declared[words[0].strip('"`[]')] = " ".join(words[1:2]).upper()
    elif m := _SELECT.match(statement):
        t = table(m.group(2))
        for expr in _split_top(m.group(1)):
            for column in _expr_columns(expr):
                t.add(column)
        rest = m.group(3)
        for join in _JOIN.finditer(rest):
            table(join.group(1))
        for cond in _COND.finditer(rest):
            t.add(cond.group(2))
        for order in _ORDER.finditer(rest):
            for expr in _split_top(order.group(1)):
                for column in _expr_columns(re.sub(r"\b(ASC|DESC)\b", "", expr, flags=re.I)):
                    t.add(column)
    elif m := _INSERT.match(statement):
        t = table(m.group(1))
        t.written = True
        for column in _split_top(m.group(2) or ""):
            t.add(column.strip('"`[] '))
    elif m := _UPDATE.match(statement):
        t = table(m.group(1))
        for assignment in _split_top(m.group(2)):
            t.add(assignment.split("=")[0].strip('"`[] '))
        for cond in _COND.finditer(m.group(3) or ""):
            t.add(cond.group(2))
    elif m := _DELETE.match(statement):
        t = table(m.group(1))
        for cond in _COND.finditer(m.group(2) or ""):
            t.add(cond.group(2))


def _value(column: str, sql_type: str, index: int, primary: bool) -> Any:
    if primary:
        return index + 1
    kind = sql_type.upper()
    if "INT" in kind:
        value = plausible(column, index)
        if not isinstance(value, int):
            value = plausible(column, index, "int")
        value = int(value)
    elif any(k in kind for k in ("REAL", "FLOA", "DOUB", "NUMERIC", "DECIMAL")):
        value = plausible(column, index, "float")
    elif any(k in kind for k in ("BOOL",)):
        value = plausible(column, index, "bool")
    else:
        value = plausible(column, index)
        if kind and not isinstance(value, str):
            value = str(value)
    return value


def draft_sql(statements: list[str]) -> SqlDraft:
    """A fixture (schema + seeded rows) for the tables ``statements`` use."""
    tables: dict[str, Table] = {}
    for literal in statements:
        for statement in split_statements(literal):
            _parse(statement, tables)
    schema: list[str] = []
    rows: dict[str, list[dict[str, Any]]] = {}
    guessed: list[str] = []
    for name, t in tables.items():
        if t.create is not None and not t.create_if_not_exists:
            continue
        if t.create is not None:
            schema.append(t.create)
            t.columns = t.declared
        else:
            if not t.columns:
                continue
            columns = {c: (v or sql_type_for(c)) for c, v in t.columns.items()}
            defs = [f"{c} {typ}{' PRIMARY KEY' if c == 'id' else ''}" for c, typ in columns.items()]
            t.columns = columns
            guessed.append(f"/schema/{len(schema)}")
            schema.append(f"CREATE TABLE IF NOT EXISTS {name} ({', '.join(defs)})")
        if t.written:  # the program fills it: seeded rows would not be in plain Python's run
            continue
        primary = {
            c
            for c in t.columns
            if c == "id"
            or (
                t.create
                and re.search(rf"\b{re.escape(c)}\s+INTEGER\s+PRIMARY\s+KEY", t.create, re.I)
            )
        }
        rows[name] = [
            {c: _value(c, typ, i, c in primary) for c, typ in t.columns.items()}
            for i in range(ROWS_PER_TABLE)
        ]
        guessed.append(f"/rows/{name}")
    return SqlDraft(schema=tuple(schema), rows=rows, guessed=tuple(guessed))
