# corpus: sqlite_fetchall (sqlite)
# pattern seen in: github.com/vklimin/Tech-Interview-Junior-Python-Developer-01 :: sqlite3.py
# our own program written for automock's corpus; no text taken from the source
"""Insert one person into SQLite and read every row back with fetchall()."""

from __future__ import annotations

import sqlite3

link = sqlite3.connect("test.db")
cur = link.cursor()
cur.execute("CREATE TABLE IF NOT EXISTS people (id INTEGER, name TEXT)")
cur.execute("INSERT INTO people VALUES (1, 'Alice')")
rows = cur.execute("SELECT * FROM people").fetchall()
link.commit()
link.close()
for row in rows:
    print(row)
