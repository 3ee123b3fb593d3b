# corpus: sqlite_fetchall (sqlite)
# source: github.com/vklimin/Tech-Interview-Junior-Python-Developer-01 :: sqlite3.py
# licence: reconstruction of the real pattern (licence not stated; not copied verbatim)
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
