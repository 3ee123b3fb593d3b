"""A tiny sqlite-backed ledger: record today's transactions and print balances."""

import sqlite3
from datetime import date

DB_PATH = "ledger.db"


def open_ledger(path: str) -> sqlite3.Connection:
    conn = sqlite3.connect(path)
    conn.execute(
        "CREATE TABLE IF NOT EXISTS entries (id INTEGER PRIMARY KEY, account TEXT, amount REAL, booked_on TEXT)"
    )
    return conn


def main() -> None:
    conn = open_ledger(DB_PATH)
    today = date.today().isoformat()
    conn.execute("INSERT INTO entries (account, amount, booked_on) VALUES (?, ?, ?)", ("coffee", -3.5, today))
    conn.commit()
    rows = conn.execute(
        "SELECT account, SUM(amount) FROM entries GROUP BY account ORDER BY account"
    ).fetchall()
    print(f"balances on {today}:")
    for account, total in rows:
        print(f"  {account:<12} {total:8.2f}")
    count = conn.execute("SELECT COUNT(*) FROM entries").fetchone()[0]
    print(f"{count} entries")
    conn.close()


if __name__ == "__main__":
    main()
