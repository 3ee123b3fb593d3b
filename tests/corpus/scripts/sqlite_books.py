# corpus: sqlite_books (sqlite)
# pattern seen in: github.com/maciejwieczorek/python :: lekcja_7/zad1.py
# our own program written for automock's corpus; no text taken from the source
"""A small table of books in an SQLite file, printed in id order."""

from __future__ import annotations

import sqlite3

SHELF = [(1, "Pan Tadeusz", "Adam Mickiewicz"), (2, "Potop", "Henryk Sienkiewicz")]

db = sqlite3.connect("example3.db")
db.execute("CREATE TABLE IF NOT EXISTS books (id integer, title text, writer text)")
db.executemany("INSERT INTO books VALUES (?, ?, ?)", SHELF)
db.commit()
for record in db.execute("SELECT * FROM books ORDER BY id"):
    print(record)
db.close()
