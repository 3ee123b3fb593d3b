# corpus: sqlite_users_param (sqlite)
# pattern seen in: github.com/theamishdev/python_full_stack_learning :: Flask/Database/database.py
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import sqlite3

conn = sqlite3.connect("test.db")
cursor = conn.cursor()
cursor.execute("CREATE TABLE IF NOT EXISTS users (id INTEGER PRIMARY KEY, name TEXT)")
cursor.execute("INSERT INTO users (name) VALUES (?)", ("Amish",))
conn.commit()
cursor.execute("SELECT * FROM users")
print(cursor.fetchall())
conn.close()
