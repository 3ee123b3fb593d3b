"""Drafted fixtures fit the program: sqlite schemas, keys the code reads, environment values.

Each program runs through ``automock run`` with no plan (the offline drafter
writes one) and must reach its main path; where the program is deterministic
on its own, its output must equal plain Python's.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from textwrap import dedent

import pytest

from tests.conftest import run_json

NOTES = dedent(
    '''
    import sqlite3

    SCHEMA = """
    CREATE TABLE IF NOT EXISTS notes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        body TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS tags (
        note_id INTEGER REFERENCES notes(id),
        tag TEXT NOT NULL
    );
    """

    conn = sqlite3.connect("notes.db")
    conn.executescript(SCHEMA)
    conn.execute("INSERT INTO notes (body) VALUES (?)", ("buy milk",))
    conn.execute("INSERT INTO notes (body) VALUES (?)", ("call mum",))
    conn.execute("INSERT INTO tags (note_id, tag) VALUES (?, ?)", (1, "home"))
    conn.execute("UPDATE notes SET body = ? WHERE id = 1", ("buy oat milk",))
    conn.commit()
    for row in conn.execute("SELECT id, body FROM notes ORDER BY id"):
        print(row)
    for row in conn.execute("SELECT note_id, tag FROM tags"):
        print(row)
    '''
)

READER = dedent(
    '''
    import sqlite3

    conn = sqlite3.connect("shop.db")
    conn.executescript("""
        CREATE TABLE IF NOT EXISTS products (id INTEGER PRIMARY KEY, name TEXT, price REAL);
        CREATE TABLE IF NOT EXISTS orders (id INTEGER PRIMARY KEY, product_id INTEGER, qty INTEGER);
    """)
    names = [r[0] for r in conn.execute("SELECT name FROM products ORDER BY id")]
    conn.execute("INSERT INTO orders (product_id, qty) VALUES (?, ?)", (1, 2))
    total = conn.execute("SELECT SUM(qty) FROM orders").fetchone()[0]
    print("products", len(names), "ordered", total)
    '''
)

KEYS = dedent(
    """
    import random
    import requests

    r = requests.get("https://api.example.com/items")
    items = r.json()["items"]
    pick = random.choice(items)["id"]
    print("picked", pick + 0)

    m = requests.get("https://meals.example.com/search")
    meal = dict(m.json())["meals"][0]
    print("meal", meal["strMeal"].title())

    data = requests.get("https://api.example.com/pairs").json()
    for name, score in zip(data["names"], data["scores"]):
        print("pair", name["first"].upper(), score["points"] + 1)
    for i, (a, b) in enumerate(zip(data["left"], data["right"])):
        print("zip", i, a["x"].lower(), b["y"].lower())
    for i, item in enumerate(data["rows"]):
        print("row", i, item["label"].upper())
    """
)

ENVIRON = dedent(
    """
    import os
    import requests

    API = os.environ["BBC_API"]
    MAX_ITEMS = int(os.environ["MAX_ITEMS"])
    THRESHOLD = float(os.getenv("THRESHOLD"))
    FEED = os.environ["FEED_ENDPOINT"]
    REGION = os.environ["DEPLOY_REGION"].lower()
    if REGION not in ("eu-west", "us-east"):
        raise SystemExit(f"unknown region {REGION}")

    r = requests.get(f"{API}/news", params={"limit": MAX_ITEMS})
    for item in r.json()["items"][:MAX_ITEMS]:
        print("headline", item["title"].upper())
    print("feed", requests.get(FEED).json()["name"].upper())
    print("threshold", THRESHOLD * 2)
    """
)


def _run(tmp_path: Path, name: str, source: str, capsys: pytest.CaptureFixture[str]) -> dict:
    (tmp_path / name).write_text(source)
    code, report = run_json(capsys, name, "--repeat", "2")
    assert code == 0, report
    return report


@pytest.fixture
def here(here: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    return here


def test_a_two_table_script_and_a_table_the_program_fills_run_as_in_plain_python(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = _run(here, "notes.py", NOTES, capsys)
    plain = subprocess.run(
        [sys.executable, str(here / "notes.py")],
        cwd=here / "fixtures",  # a fresh directory: no notes.db yet
        capture_output=True,
        text=True,
        check=True,
    )
    assert report["stdout"] == plain.stdout
    assert "(1, 'buy oat milk')" in report["stdout"]


def test_a_table_read_but_never_written_is_seeded_and_one_written_is_not(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = _run(here, "shop.py", READER, capsys)
    assert "products 3 ordered 2" in report["stdout"]
    plan = json.loads((here / "fixtures" / "shop.automock.json").read_text())
    (entry,) = [e for e in plan["entries"] if e["strategy"] == "sqlite_memory"]
    assert set(entry["data"]["rows"]) == {"products"}
    assert len(entry["data"]["schema"]) == 2


def test_keys_reached_through_choice_dict_zip_and_enumerate_are_drafted(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _run(here, "keys.py", KEYS, capsys)["stdout"]
    for line in ("picked ", "meal ", "pair ", "zip 1 ", "row 1 "):
        assert line in out, out


def test_environment_values_take_the_shape_their_use_needs(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = _run(here, "news.py", ENVIRON, capsys)
    out = report["stdout"]
    assert "headline " in out and "feed " in out and "threshold " in out, out
    plan = json.loads((here / "fixtures" / "news.automock.json").read_text())
    assert plan["env"]["BBC_API"].startswith("https://")
    assert int(plan["env"]["MAX_ITEMS"]) >= 1
    float(plan["env"]["THRESHOLD"])
    assert plan["env"]["DEPLOY_REGION"] == "eu-west"
    urls = [e["data"]["url"] for e in plan["entries"] if e["strategy"] == "stub_http"]
    assert any(u.startswith(plan["env"]["BBC_API"]) for u in urls), urls
