"""Where digests are kept: two tables, one row per digest and one per article in it."""

import logging
import sqlite3

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS digests (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    article_count INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS picks (
    digest_id TEXT NOT NULL REFERENCES digests(id),
    article_id INTEGER NOT NULL,
    topic TEXT NOT NULL,
    title TEXT NOT NULL,
    score REAL NOT NULL
);
"""


def open_store(path):
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA)
    return conn


def save_digest(conn, digest_id, created_at, total, articles):
    with conn:
        conn.execute(
            "INSERT INTO digests (id, created_at, article_count) VALUES (?, ?, ?)",
            (digest_id, created_at, total),
        )
        conn.executemany(
            "INSERT INTO picks (digest_id, article_id, topic, title, score) VALUES (?, ?, ?, ?, ?)",
            [(digest_id, a.id, a.topic, a.title, a.score) for a in articles],
        )
    log.info("saved digest %s with %d picks", digest_id, len(articles))


def topic_totals(conn, digest_id):
    rows = conn.execute(
        "SELECT topic, COUNT(*), ROUND(AVG(score), 2) FROM picks "
        "WHERE digest_id = ? GROUP BY topic ORDER BY topic",
        (digest_id,),
    ).fetchall()
    return [(topic, count, average) for topic, count, average in rows]


def digest_count(conn):
    (count,) = conn.execute("SELECT COUNT(*) FROM digests").fetchone()
    return count
