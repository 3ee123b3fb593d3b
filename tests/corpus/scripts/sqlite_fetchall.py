# corpus: sqlite_fetchall (sqlite)
# pattern seen in: github.com/vklimin/Tech-Interview-Junior-Python-Developer-01 :: sqlite3.py
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import sqlite3

conn = sqlite3.connect("test.db")
cursor = conn.cursor()
cursor.execute("CREATE TABLE IF NOT EXISTS test (id INTEGER, name TEXT)")
cursor.execute("INSERT INTO test VALUES (1, 'Alice')")
cursor.execute("SELECT * FROM test")
for row in cursor.fetchall():
    print(row)
conn.commit()
conn.close()
