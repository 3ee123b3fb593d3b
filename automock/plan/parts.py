"""The value types a plan is made of: clock, cassette, HTTP stub, database, property.

(``HttpStub`` lives in :mod:`automock.plan.http_stub`, re-exported here.)

Each parses itself with ``from_dict(data, where)`` and raises a
:class:`~automock.errors.PlanError` naming the field (``where``) and the
expected form; :mod:`automock.plan.model` composes them into a ``Plan``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from automock._serialize import JsonMixin
from automock.errors import PlanError
from automock.plan.http_stub import MATCH_MODES, HttpStub, StubResponse
from automock.plan.keys import refuse_unknown

__all__ = [
    "DEFAULT_INSTANT",
    "DEFAULT_SEED",
    "MATCH_MODES",
    "NETWORK_MODES",
    "PLAN_VERSION",
    "READABLE_VERSIONS",
    "RECORD_MODES",
    "STRATEGIES",
    "CassetteSettings",
    "ClockSettings",
    "DatabaseFixture",
    "HttpStub",
    "PropertySpec",
    "StubResponse",
]

PLAN_VERSION = 2
# Version 1 (no ``modules``, entries without ``module``) loads as is: every entry is the entry's.
READABLE_VERSIONS = (1, 2)
DEFAULT_SEED = 0
DEFAULT_INSTANT = "2024-01-01T00:00:00+00:00"

# strategy -> kinds it applies to
STRATEGIES: Mapping[str, tuple[str, ...]] = {
    "freeze": ("time",),
    "virtual_clock": ("time",),
    "seed": ("random", "filesystem"),
    "stub_http": ("network",),
    "cassette": ("network",),
    "deny": ("network", "database", "process", "filesystem", "environment"),
    "allow": ("network", "process", "filesystem", "environment", "database"),
    "sqlite_memory": ("database",),
    "sqlalchemy_sqlite": ("database",),
    "fake_redis": ("database",),
    "fake_mongo": ("database",),
    "fixed_env": ("environment",),
    "sorted_listing": ("filesystem",),
}
NETWORK_MODES = ("deny", "allow")
RECORD_MODES = ("none", "once", "new_episodes", "all")


def _fail(where: str, message: str) -> PlanError:
    return PlanError(f"{where}: {message}")


def _expect(value: Any, typ: type | tuple[type, ...], where: str, form: str) -> Any:
    if isinstance(value, bool) and typ in (int, float, (int, float)):
        raise _fail(where, f"expected {form}, got {value!r}")
    if not isinstance(value, typ):
        raise _fail(where, f"expected {form}, got {type(value).__name__} {value!r}"[:200])
    return value


@dataclass(frozen=True, slots=True)
class ClockSettings(JsonMixin):
    """``at``: the frozen wall-clock instant (ISO 8601; its offset is the local zone, none is UTC).

    ``tick``: seconds the virtual monotonic clock advances on each read, so
    ``while time.monotonic() < deadline`` loops still end.
    """

    at: str = DEFAULT_INSTANT
    tick: float = 0.001

    @property
    def instant(self) -> datetime:
        parsed = datetime.fromisoformat(self.at.replace("Z", "+00:00"))
        return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)

    @classmethod
    def from_dict(cls, data: Any, where: str = "clock") -> ClockSettings:
        _expect(data, dict, where, 'an object like {"at": "2024-01-01T00:00:00Z"}')
        refuse_unknown(data, ("at", "tick"), where)
        at = _expect(data.get("at", DEFAULT_INSTANT), str, f"{where}.at", "an ISO 8601 string")
        try:
            datetime.fromisoformat(at.replace("Z", "+00:00"))
        except ValueError:
            raise _fail(
                f"{where}.at", f"expected an ISO 8601 instant like {DEFAULT_INSTANT!r}, got {at!r}"
            ) from None
        tick = _expect(
            data.get("tick", 0.001), (int, float), f"{where}.tick", "a number of seconds >= 0"
        )
        if tick < 0:
            raise _fail(f"{where}.tick", f"expected a number of seconds >= 0, got {tick!r}")
        return cls(at=at, tick=float(tick))


@dataclass(frozen=True, slots=True)
class CassetteSettings(JsonMixin):
    """A vcrpy cassette replayed (``record_mode="none"``) or recorded with ``--record``."""

    path: str
    record_mode: str = "none"

    @classmethod
    def from_dict(cls, data: Any, where: str = "cassette") -> CassetteSettings:
        _expect(data, dict, where, 'an object like {"path": "fixtures/x.yaml"}')
        refuse_unknown(data, ("path", "record_mode"), where)
        path = _expect(data.get("path"), str, f"{where}.path", "a file path string")
        mode = data.get("record_mode", "none")
        if mode not in RECORD_MODES:
            raise _fail(
                f"{where}.record_mode", f"expected one of {', '.join(RECORD_MODES)}, got {mode!r}"
            )
        return cls(path=path, record_mode=mode)


@dataclass(frozen=True, slots=True)
class DatabaseFixture(JsonMixin):
    """A fake database standing in for the one the code names.

    ``engine``: ``sqlite`` (sqlite3 / SQLAlchemy redirected to sqlite),
    ``redis`` (fakeredis) or ``mongo`` (mongomock). ``target`` is the path or
    URL as written in the code (``"*"`` = any). ``schema`` holds SQL
    statements run first; ``rows`` maps a table (or redis key / mongo
    collection) to its seeded rows.
    """

    engine: str
    target: str = "*"
    schema: tuple[str, ...] = ()
    rows: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: Any, where: str) -> DatabaseFixture:
        _expect(
            data, dict, where, 'an object like {"engine": "sqlite", "schema": [...], "rows": {}}'
        )
        refuse_unknown(data, ("engine", "target", "schema", "rows"), where)
        engine = data.get("engine", "sqlite")
        if engine not in ("sqlite", "redis", "mongo"):
            raise _fail(f"{where}.engine", f"expected one of sqlite, redis, mongo, got {engine!r}")
        target = _expect(data.get("target", "*"), str, f"{where}.target", "a path or URL string")
        schema = _expect(
            data.get("schema", []), list, f"{where}.schema", "a list of SQL statements"
        )
        for i, stmt in enumerate(schema):
            _expect(stmt, str, f"{where}.schema[{i}]", "an SQL statement string")
        rows = _expect(
            data.get("rows", {}), dict, f"{where}.rows", "an object mapping table -> list of rows"
        )
        for table, table_rows in rows.items():
            _expect(table_rows, list, f"{where}.rows.{table}", "a list of rows")
        return cls(
            engine=engine,
            target=target,
            schema=tuple(schema),
            rows={k: tuple(v) for k, v in rows.items()},
        )


@dataclass(frozen=True, slots=True)
class PropertySpec(JsonMixin):
    """A property check proposed for a function whose output has no single right answer."""

    function: str
    property: str
    args: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: Any, where: str) -> PropertySpec:
        _expect(
            data, dict, where, 'an object like {"function": "shuffle", "property": "permutation"}'
        )
        refuse_unknown(data, ("function", "property", "args"), where)
        fn = _expect(data.get("function"), str, f"{where}.function", "a function name")
        prop = _expect(data.get("property"), str, f"{where}.property", "a property name")
        args = _expect(data.get("args", {}), dict, f"{where}.args", "an object")
        return cls(function=fn, property=prop, args=args)
