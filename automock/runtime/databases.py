"""Fake databases: the database the code names is never contacted.

``faked_databases(fixtures)`` redirects, for the length of the block:

- ``sqlite3.connect(path)`` to a shared in-memory database per path. If the
  file exists its content is copied in (read-only open, so the real file is
  never modified and no new file appears); fixtures whose ``target`` matches
  (``"*"``, the path, or its file name) are applied on top: ``schema``
  statements first, then ``rows`` (a row is an object column -> value, or a
  list of values in column order). ``":memory:"`` stays private per
  connection, seeded the same way.
- SQLAlchemy ``create_engine(url)`` with any URL (postgres, mysql, sqlite
  file) to a seeded sqlite in-memory engine (``StaticPool``; a sqlite file URL
  shares the database with ``sqlite3.connect`` of the same path).
  Backend-specific options (``pool_size``, ...) are dropped.
- ``redis.Redis`` / ``StrictRedis`` / ``from_url`` to fakeredis on one fake
  server per block, seeded from ``engine: redis`` fixtures (key -> one value
  is a string, several values a list, an object a hash).
- ``pymongo.MongoClient`` to mongomock sharing one store per block, seeded
  from ``engine: mongo`` fixtures (``"db.collection"`` or ``"collection"`` in
  database ``test`` -> documents).
- ``psycopg2`` / ``psycopg`` / ``pymysql`` ``connect``: refused with
  :class:`~automock.errors.UnmockedAccessError` (raw drivers speak their own
  SQL dialect and paramstyle; use SQLAlchemy, which is redirected).

fakeredis and mongomock are optional extras: without them the redirected
constructor raises :class:`~automock.errors.MissingExtraError` with the
``pip install`` to run. Libraries are patched only when the program imports
them.
"""

from __future__ import annotations

import importlib
import itertools
import os
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

from automock.errors import MissingExtraError, UnmockedAccessError
from automock.plan.model import DatabaseFixture
from automock.runtime._base import Patch, Undo
from automock.runtime._imports import when_imported
from automock.runtime.events import record

if TYPE_CHECKING:
    import sqlite3

__all__ = ["DatabaseSession", "faked_databases", "seed_sqlite"]


def _real_sqlite_connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
    """The C ``connect`` (whatever ``sqlite3.connect`` is patched to)."""
    return cast("sqlite3.Connection", importlib.import_module("_sqlite3").connect(*args, **kwargs))


_names = itertools.count()
_ENGINE_OPTIONS = ("echo", "echo_pool", "future", "json_serializer", "json_deserializer")


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def seed_sqlite(conn: sqlite3.Connection, fixture: DatabaseFixture) -> None:
    """Run the fixture's schema statements, then insert its rows."""
    for statement in fixture.schema:
        conn.executescript(statement)
    for table, rows in fixture.rows.items():
        for row in rows:
            if isinstance(row, dict):
                cols = ", ".join(_quote(str(c)) for c in row)
                marks = ", ".join("?" for _ in row)
                sql = f"INSERT INTO {_quote(table)} ({cols}) VALUES ({marks})"
                conn.execute(sql, tuple(row.values()))
            else:
                values = tuple(row) if isinstance(row, list | tuple) else (row,)
                marks = ", ".join("?" for _ in values)
                conn.execute(f"INSERT INTO {_quote(table)} VALUES ({marks})", values)
    conn.commit()


def _matches(fixture: DatabaseFixture, target: str) -> bool:
    if fixture.target in ("*", target):
        return True
    from pathlib import Path  # here: entering the runtime stays free of pathlib

    return Path(fixture.target).name == Path(target).name and "://" not in fixture.target


def _redact(url: str) -> str:
    head, sep, tail = url.rpartition("@")
    if not sep or "://" not in head:
        return url
    scheme, _, creds = head.partition("://")
    user = creds.split(":", 1)[0]
    return f"{scheme}://{user}:***@{tail}"


class DatabaseSession:
    """The state behind one ``faked_databases`` block."""

    def __init__(self, fixtures: Iterable[DatabaseFixture]) -> None:
        self.fixtures = tuple(fixtures)
        self._memory: dict[str, str] = {}
        self._keepers: list[sqlite3.Connection] = []
        self.redis_server: Any = None
        self.mongo_store: Any = None

    def sqlite_fixtures(self, target: str) -> tuple[DatabaseFixture, ...]:
        return tuple(f for f in self.fixtures if f.engine == "sqlite" and _matches(f, target))

    def memory_uri(self, key: str, source_file: str | None = None) -> str:
        """A shared in-memory database for ``key``, created and seeded on first use."""
        name = self._memory.get(key)
        if name is None:
            name = f"file:automock-{os.getpid()}-{next(_names)}?mode=memory&cache=shared"
            keeper = _real_sqlite_connect(name, uri=True, check_same_thread=False)
            if source_file is not None and os.path.isfile(source_file):
                from pathlib import Path

                ro = Path(source_file).resolve().as_uri() + "?mode=ro"
                source = _real_sqlite_connect(ro, uri=True)
                try:
                    source.backup(keeper)
                finally:
                    source.close()
            for fixture in self.sqlite_fixtures(key):
                seed_sqlite(keeper, fixture)
            self._keepers.append(keeper)
            self._memory[key] = name
        return name

    def close(self) -> None:
        for keeper in self._keepers:
            keeper.close()
        self._keepers.clear()
        self._memory.clear()


class faked_databases(Patch[DatabaseSession]):
    """Redirect sqlite3, SQLAlchemy, redis, pymongo (and refuse raw drivers)."""

    def __init__(self, fixtures: Iterable[DatabaseFixture] = ()) -> None:
        super().__init__()
        self.fixtures = tuple(fixtures)

    def _start(self, undo: Undo) -> DatabaseSession:
        session = DatabaseSession(self.fixtures)
        undo.push(session.close)
        refuse = {name: _refuser(undo, name) for name in ("psycopg2", "psycopg", "pymysql")}
        when_imported(
            undo,
            {
                "sqlite3": lambda m: _patch_sqlite3(undo, session, m),
                "sqlalchemy": lambda m: _patch_sqlalchemy(undo, session, m),
                "redis": lambda m: _patch_redis(undo, session, m),
                "pymongo": lambda m: _patch_pymongo(undo, session, m),
                **refuse,
            },
        )
        return session


def _patch_sqlite3(undo: Undo, session: DatabaseSession, module: ModuleType) -> None:
    def connect(database: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        path = os.fsdecode(database) if not isinstance(database, str) else database
        uri = bool(kwargs.pop("uri", False))
        if uri and path.startswith("file:"):
            path = path[5:].split("?", 1)[0]
        record("database", "sqlite3.connect", path, mocked=True)
        if path in (":memory:", ""):
            conn = _real_sqlite_connect(":memory:", *args, **kwargs)
            for fixture in session.sqlite_fixtures(":memory:"):
                seed_sqlite(conn, fixture)
            return conn
        name = session.memory_uri(path, source_file=path)
        return _real_sqlite_connect(name, *args, uri=True, **kwargs)

    undo.setattr(module, "connect", connect)
    undo.setattr(module.dbapi2, "connect", connect)


def _patch_sqlalchemy(undo: Undo, session: DatabaseSession, sqlalchemy: ModuleType) -> None:
    import sqlalchemy.engine
    from sqlalchemy.pool import StaticPool

    original = sqlalchemy.create_engine

    def create_engine(url: Any, *args: Any, **kwargs: Any) -> Any:
        if hasattr(url, "render_as_string"):
            text = url.render_as_string(hide_password=False)
        else:
            text = str(url)
        record("database", "sqlalchemy.create_engine", _redact(text), mocked=True)
        source_file = None
        if text.startswith("sqlite") and "///" in text:
            source_file = text.split("///", 1)[1].split("?", 1)[0] or None
        key = source_file if source_file and source_file != ":memory:" else text
        name = session.memory_uri(key, source_file=source_file)
        options = {k: v for k, v in kwargs.items() if k in _ENGINE_OPTIONS}

        def creator() -> sqlite3.Connection:
            return _real_sqlite_connect(name, uri=True, check_same_thread=False)

        return original("sqlite://", creator=creator, poolclass=StaticPool, **options)

    undo.setattr(sqlalchemy, "create_engine", create_engine)
    undo.setattr(sqlalchemy.engine, "create_engine", create_engine)


def _seed_redis(client: Any, fixtures: Iterable[DatabaseFixture]) -> None:
    for fixture in fixtures:
        for key, values in fixture.rows.items():
            if len(values) == 1 and isinstance(values[0], dict):
                client.hset(key, mapping=values[0])
            elif len(values) == 1:
                client.set(key, values[0])
            elif values:
                client.rpush(key, *values)


def _patch_redis(undo: Undo, session: DatabaseSession, redis: ModuleType) -> None:
    try:
        import fakeredis
    except ImportError:
        fail = _missing("fakeredis", "redis", "redis.Redis under automock")
        for name in ("Redis", "StrictRedis", "from_url"):
            undo.setattr(redis, name, fail)
        return
    fixtures = [f for f in session.fixtures if f.engine == "redis"]

    class Redis(fakeredis.FakeRedis):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            record("database", "redis.Redis", str(kwargs.get("host", "localhost")), mocked=True)
            kwargs.pop("connection_pool", None)
            first = session.redis_server is None
            if first:
                session.redis_server = fakeredis.FakeServer()
            kwargs["server"] = session.redis_server
            super().__init__(*args, **kwargs)
            if first:
                _seed_redis(self, fixtures)

        @classmethod
        def from_url(cls, url: str, **kwargs: Any) -> Redis:
            record("database", "redis.from_url", _redact(url), mocked=True)
            return cls(**kwargs)

    for name in ("Redis", "StrictRedis"):
        undo.setattr(redis, name, Redis)
    undo.setattr(redis, "from_url", Redis.from_url)


def _patch_pymongo(undo: Undo, session: DatabaseSession, pymongo: ModuleType) -> None:
    try:
        import mongomock
        import mongomock.store
    except ImportError:
        undo.setattr(
            pymongo, "MongoClient", _missing("mongomock", "mongo", "pymongo under automock")
        )
        return
    fixtures = [f for f in session.fixtures if f.engine == "mongo"]

    class MongoClient(mongomock.MongoClient):  # type: ignore[type-arg,misc,unused-ignore]
        def __init__(self, host: Any = None, port: Any = None, *args: Any, **kwargs: Any) -> None:
            record(
                "database", "pymongo.MongoClient", _redact(str(host or "localhost")), mocked=True
            )
            first = session.mongo_store is None
            if first:
                session.mongo_store = mongomock.store.ServerStore()  # type: ignore[no-untyped-call]
            kwargs["_store"] = session.mongo_store
            super().__init__(host, port, *args, **kwargs)
            if first:
                for fixture in fixtures:
                    for name, docs in fixture.rows.items():
                        db, _, coll = name.rpartition(".")
                        if docs:
                            self[db or "test"][coll].insert_many([dict(d) for d in docs])

    undo.setattr(pymongo, "MongoClient", MongoClient)


def _missing(package: str, extra: str, purpose: str) -> Callable[..., Any]:
    def fail(*args: Any, **kwargs: Any) -> Any:
        raise MissingExtraError(package, extra, purpose)

    return fail


def _refuser(undo: Undo, module_name: str) -> Callable[[ModuleType], None]:
    fix = (
        "connect through SQLAlchemy (redirected to a seeded sqlite database) and add a "
        "sqlalchemy_sqlite entry with the schema and rows to the plan"
    )

    def patch(module: ModuleType) -> None:
        def connect(*args: Any, **kwargs: Any) -> Any:
            api = f"{module_name}.connect"
            target = _redact(str(args[0])) if args else str(kwargs.get("host", ""))
            record("database", api, target, mocked=False, fix=fix)
            raise UnmockedAccessError(
                f"unmocked database connection {api}({target!r}): automock never contacts a "
                "real database",
                kind="database",
                api=api,
                target=target,
                fix=fix,
            )

        undo.setattr(module, "connect", connect)

    return patch
