"""SQL inference: tables and columns from string literals, a schema and rows that really load."""

from __future__ import annotations

import ast
import sqlite3

from automock.drafting.sql import SqlDraft, draft_sql, sql_literals


def load(draft: SqlDraft) -> sqlite3.Connection:
    """Apply the draft to a real in-memory SQLite, as the runtime does."""
    conn = sqlite3.connect(":memory:")
    for statement in draft.schema:
        conn.execute(statement)
    for table, rows in draft.rows.items():
        for row in rows:
            cols = ", ".join(row)
            conn.execute(
                f"INSERT INTO {table} ({cols}) VALUES ({', '.join('?' * len(row))})",
                tuple(row.values()),
            )
    return conn


def test_create_if_not_exists_is_reused_and_rows_seeded() -> None:
    create = "CREATE TABLE IF NOT EXISTS entries (id INTEGER PRIMARY KEY, account TEXT, amount REAL, booked_on TEXT)"
    draft = draft_sql([create, "SELECT account, SUM(amount) FROM entries GROUP BY account"])
    assert draft.schema == (create,)
    rows = draft.rows["entries"]
    assert len(rows) == 3
    assert [r["id"] for r in rows] == [1, 2, 3]
    assert all(type(r["amount"]) is float for r in rows)
    assert set(rows[0]) == {"id", "account", "amount", "booked_on"}
    conn = load(draft)
    # the code's own CREATE ... IF NOT EXISTS still runs on top of the fixture
    conn.execute(create)
    assert conn.execute("SELECT COUNT(*) FROM entries").fetchone()[0] == 3


def test_unconditional_create_is_left_to_the_code() -> None:
    draft = draft_sql(["CREATE TABLE t (a TEXT)", "INSERT INTO t (a) VALUES (?)"])
    assert draft.empty
    conn = load(draft)
    conn.execute("CREATE TABLE t (a TEXT)")  # would fail if the fixture had created it


def test_schema_is_drafted_from_select_insert_update_delete() -> None:
    draft = draft_sql(
        [
            "SELECT u.name, u.email FROM users u WHERE u.is_active = 1 ORDER BY created_at DESC",
            "UPDATE users SET email = ? WHERE id = ?",
            "DELETE FROM sessions WHERE expires_at < ?",
            "INSERT OR REPLACE INTO orders (user_id, total) VALUES (?, ?)",
        ]
    )
    conn = load(draft)
    users = conn.execute("SELECT name, email, is_active, created_at, id FROM users").fetchall()
    assert len(users) == 3 and all("@" in u[1] for u in users)
    # the program writes orders itself: the table exists, and starts empty as on a fresh database
    assert conn.execute("SELECT user_id, total FROM orders").fetchall() == []
    assert conn.execute("SELECT expires_at FROM sessions").fetchall()
    # the drafted schema statements and every seeded table are marked for review
    assert "/schema/0" in draft.guessed and "/rows/users" in draft.guessed


def test_aggregates_and_star_are_not_columns() -> None:
    draft = draft_sql(["SELECT COUNT(*), MAX(score) AS best FROM results WHERE player = ?"])
    assert set(draft.rows["results"][0]) == {"score", "player"}


def test_literals_are_found_in_source_order_and_non_sql_ignored() -> None:
    tree = ast.parse(
        '"""Select the best option."""\n'
        'q1 = "SELECT a FROM t"\n'
        'msg = "hello"\n'
        'q2 = """\n  INSERT INTO t (a) VALUES (1)"""\n'
    )
    found = sql_literals(tree)
    assert found[0] == "SELECT a FROM t"
    assert "INSERT INTO t" in found[1]
    assert len(found) == 2


def test_types_follow_column_names() -> None:
    draft = draft_sql(["SELECT price, is_paid, sku FROM items"])
    row = draft.rows["items"][0]
    assert type(row["price"]) is float
    assert "INTEGER" in draft.schema[0] and "REAL" in draft.schema[0]
    assert isinstance(row["sku"], str)
