# corpus: sqlite_users_param (sqlite)
# pattern seen in: github.com/theamishdev/python_full_stack_learning :: Flask/Database/database.py
# our own program written for automock's corpus; no text taken from the source
"""Add a user with a bound parameter, then list the table."""

from __future__ import annotations

import sqlite3

db = sqlite3.connect("test.db")
db.execute("CREATE TABLE IF NOT EXISTS members (id INTEGER PRIMARY KEY, name TEXT)")
db.execute("INSERT INTO members (name) VALUES (?)", ("Amish",))
db.commit()
print(db.execute("SELECT * FROM members").fetchall())
db.close()
