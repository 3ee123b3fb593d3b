"""Where digests are kept: two tables, one row per digest and one per article in it."""

import sqlite3

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS digests (
        id TEXT PRIMARY KEY,
        created_at TEXT NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS picks (
        digest_id TEXT NOT NULL REFERENCES digests(id),
        article_id INTEGER NOT NULL,
        topic TEXT NOT NULL,
        title TEXT NOT NULL,
        score REAL NOT NULL
    )""",
]


def open_store(path="digest.db"):
    conn = sqlite3.connect(path)
    for statement in SCHEMA:
        conn.execute(statement)
    return conn


def save_digest(conn, digest_id, created_at, articles):
    conn.execute(
        "INSERT INTO digests (id, created_at) VALUES (?, ?)", (digest_id, created_at)
    )
    conn.executemany(
        "INSERT INTO picks (digest_id, article_id, topic, title, score) VALUES (?, ?, ?, ?, ?)",
        [(digest_id, a.id, a.topic, a.title, a.score) for a in articles],
    )
    conn.commit()


def topic_totals(conn, digest_id):
    rows = conn.execute(
        "SELECT topic, COUNT(*), ROUND(AVG(score), 2) FROM picks "
        "WHERE digest_id = ? GROUP BY topic ORDER BY topic",
        (digest_id,),
    ).fetchall()
    return [(topic, count, average) for topic, count, average in rows]
