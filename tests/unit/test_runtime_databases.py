"""faked_databases: sqlite3, SQLAlchemy, redis, mongo are faked and seeded; real ones untouched."""

from __future__ import annotations

import asyncio
import hashlib
import sqlite3
from pathlib import Path

import pytest

from automock.errors import UnmockedAccessError
from automock.plan.model import DatabaseFixture
from automock.runtime.databases import faked_databases
from automock.runtime.events import recording

USERS = DatabaseFixture(
    engine="sqlite",
    schema=("CREATE TABLE IF NOT EXISTS users (id INTEGER PRIMARY KEY, name TEXT)",),
    rows={"users": ({"id": 1, "name": "ana"}, [2, "bo"])},
)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_sqlite_file_is_copied_never_modified(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    real = sqlite3.connect(db)
    real.execute("CREATE TABLE entries (amount REAL)")
    real.execute("INSERT INTO entries VALUES (1.5)")
    real.commit()
    real.close()
    before = _digest(db)
    with recording() as log, faked_databases([USERS]):
        conn = sqlite3.connect(str(db))
        conn.execute("INSERT INTO entries VALUES (2.5)")
        conn.execute("DELETE FROM users WHERE id = 2")
        conn.commit()
        conn.close()
        again = sqlite3.connect(db)  # a second connection sees the same fake database
        assert again.execute("SELECT SUM(amount) FROM entries").fetchone() == (4.0,)
        assert again.execute("SELECT name FROM users").fetchall() == [("ana",)]
    assert _digest(db) == before
    assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM entries").fetchone() == (1,)
    assert [a.api for a in log.accesses] == ["sqlite3.connect"]


def test_sqlite_new_path_creates_no_file_and_is_fresh_per_block(tmp_path: Path) -> None:
    target = tmp_path / "new.db"
    for _ in range(2):
        with faked_databases([USERS]):
            conn = sqlite3.connect(target)
            conn.execute("INSERT INTO users (name) VALUES ('cy')")
            assert conn.execute("SELECT COUNT(*) FROM users").fetchone() == (3,)
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []


def test_sqlalchemy_postgres_url_runs_on_seeded_sqlite() -> None:
    sqlalchemy = pytest.importorskip("sqlalchemy")
    with recording() as log, faked_databases([USERS]):
        engine = sqlalchemy.create_engine(
            "postgresql+psycopg2://app:s3cret@db.internal:5432/prod", pool_size=10
        )
        with engine.begin() as conn:
            conn.execute(sqlalchemy.text("INSERT INTO users (name) VALUES ('cy')"))
        with engine.connect() as conn:
            names = conn.execute(sqlalchemy.text("SELECT name FROM users ORDER BY id")).all()
    assert [n for (n,) in names] == ["ana", "bo", "cy"]
    (access,) = log.accesses
    assert access.target == "postgresql+psycopg2://app:***@db.internal:5432/prod"
    assert "s3cret" not in access.to_json()


def test_sqlalchemy_sqlite_file_url_shares_with_sqlite3(tmp_path: Path) -> None:
    sqlalchemy = pytest.importorskip("sqlalchemy")
    path = tmp_path / "app.db"
    with faked_databases([USERS]):
        sqlite3.connect(path).execute("INSERT INTO users (name) VALUES ('dee')").connection.commit()
        engine = sqlalchemy.create_engine(f"sqlite:///{path}")
        with engine.connect() as conn:
            count = conn.execute(sqlalchemy.text("SELECT COUNT(*) FROM users")).scalar()
    assert count == 3
    assert not path.exists()


def test_redis_is_fakeredis_seeded_from_the_plan() -> None:
    redis = pytest.importorskip("redis")
    pytest.importorskip("fakeredis")
    fixture = DatabaseFixture(
        engine="redis",
        target="redis://cache.internal:6379/0",
        rows={"greeting": ("hello",), "queue": ("a", "b"), "user:1": ({"name": "ana"},)},
    )
    with faked_databases([fixture]):
        client = redis.Redis(host="cache.internal", port=6379, decode_responses=True)
        assert client.get("greeting") == "hello"
        assert client.lrange("queue", 0, -1) == ["a", "b"]
        assert client.hgetall("user:1") == {"name": "ana"}
        client.set("new", "1")
        other = redis.from_url("redis://cache.internal:6379/0")
        assert other.get("new") == b"1"  # one fake server per block
        assert isinstance(client, redis.client.Redis)
    assert redis.Redis is redis.client.Redis


def test_mongo_is_mongomock_seeded_from_the_plan() -> None:
    pymongo = pytest.importorskip("pymongo")
    pytest.importorskip("mongomock")
    fixture = DatabaseFixture(engine="mongo", rows={"shop.items": ({"sku": "a", "qty": 2},)})
    original = pymongo.MongoClient
    with faked_databases([fixture]):
        client = pymongo.MongoClient("mongodb://user:pw@mongo.internal:27017")
        client.shop.items.insert_one({"sku": "b", "qty": 1})
        second = pymongo.MongoClient("mongodb://mongo.internal")
        skus = sorted(d["sku"] for d in second.shop.items.find())
    assert skus == ["a", "b"]
    assert pymongo.MongoClient is original


def test_raw_postgres_driver_is_refused() -> None:
    import sys
    import types

    fake_driver = types.ModuleType("psycopg2")
    fake_driver.connect = lambda *a, **k: pytest.fail("the real driver was called")  # type: ignore[attr-defined]
    sys.modules["psycopg2"] = fake_driver
    try:
        with (
            recording() as log,
            faked_databases(),
            pytest.raises(UnmockedAccessError, match="never contacts a real database"),
        ):
            fake_driver.connect("dbname=prod host=db.internal")
        (access,) = log.unmocked
        assert access.api == "psycopg2.connect"
        assert "SQLAlchemy" in access.fix
    finally:
        del sys.modules["psycopg2"]


def test_restored_after_exit_and_decorators(tmp_path: Path) -> None:
    original = sqlite3.connect

    @faked_databases([USERS])
    def count() -> int:
        return int(
            sqlite3.connect(tmp_path / "x.db").execute("SELECT COUNT(*) FROM users").fetchone()[0]
        )

    @faked_databases([USERS])
    async def acount() -> int:
        await asyncio.sleep(0)
        return int(sqlite3.connect(":memory:").execute("SELECT COUNT(*) FROM users").fetchone()[0])

    assert count() == asyncio.run(acount()) == 2
    assert sqlite3.connect is original
    assert not (tmp_path / "x.db").exists()
