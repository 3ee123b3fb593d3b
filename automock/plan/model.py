"""The plan: one JSON document per target that says how to mock each touchpoint.

Shape (``"automock": 2``; a version 1 plan, which has no ``modules``, loads as is)::

    {
      "automock": 2,
      "source": {"path": "examples/weather_report.py", "sha256": "..."},
      "modules": {"weather_report.py": "<sha256>"},
      "drafter": "rules",
      "seed": 1234,
      "clock": {"at": "2024-01-01T00:00:00+00:00", "tick": 0.001},
      "env": {"LANG": "C.UTF-8", "TZ": "UTC"},
      "network": "deny",
      "cassette": null,
      "entries": [
        {"module": "weather_report.py", "line": 12, "col": 8, "kind": "network", "api": "requests.get",
         "symbol": "requests.get", "strategy": "stub_http",
         "data": {"method": "GET", "url": "https://api.example.com/v1/", "match": "prefix",
                  "status": 200, "headers": {}, "json": {"temp": 21.5}},
         "guessed": ["/json/temp"]}
      ],
      "properties": []
    }

``modules`` lists every project module the plan covers (the entry script and
the project modules it imports, entry first) with the sha256 each was drafted
from; each entry names its ``module``. A module whose hash changed has its
entries re-drafted by ``automock draft`` while every other entry is kept.

Global concerns (the clock, the seed, the environment) are set once at the top
level; their entries only name the strategy. Per-call concerns (HTTP stubs,
databases) carry their data in the entry. ``guessed`` lists JSON pointers
(into ``data``) of values a drafter invented, for a person to check.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from automock._positions import position
from automock._serialize import JsonMixin, to_jsonable
from automock.plan.keys import closest, refuse_unknown
from automock.plan.parts import (
    DEFAULT_INSTANT,
    DEFAULT_SEED,
    NETWORK_MODES,
    PLAN_VERSION,
    READABLE_VERSIONS,
    RECORD_MODES,
    STRATEGIES,
    CassetteSettings,
    ClockSettings,
    DatabaseFixture,
    HttpStub,
    PropertySpec,
    StubResponse,
    _expect,
    _fail,
)

_OWN_DATA = (
    "stub_http",
    "sqlite_memory",
    "sqlalchemy_sqlite",
    "fake_redis",
    "fake_mongo",
    "fixed_env",
)

__all__ = [
    "DEFAULT_INSTANT",
    "DEFAULT_SEED",
    "PLAN_VERSION",
    "RECORD_MODES",
    "STRATEGIES",
    "CassetteSettings",
    "ClockSettings",
    "DatabaseFixture",
    "HttpStub",
    "Plan",
    "PlanEntry",
    "PropertySpec",
    "StubResponse",
]


_PLAN_FIELDS = (
    "automock",
    "source",
    "modules",
    "drafter",
    "seed",
    "clock",
    "env",
    "network",
    "cassette",
    "entries",
    "properties",
    "$schema",
    "comment",
    "generated",
)
_ENTRY_FIELDS = (
    "module",
    "line",
    "col",
    "kind",
    "api",
    "strategy",
    "symbol",
    "data",
    "guessed",
    "drafted",
    "provenance",
)
# the data each strategy takes (stub_http and the databases validate theirs in their own types)
_DATA_FIELDS: Mapping[str, tuple[str, ...]] = {
    "fixed_env": ("name", "value"),
    **{s: () for s in STRATEGIES if s not in _OWN_DATA},
}


@dataclass(frozen=True, slots=True)
class PlanEntry(JsonMixin):
    """How one touchpoint is mocked."""

    line: int
    col: int
    kind: str
    api: str
    strategy: str
    symbol: str = ""
    data: Mapping[str, Any] = field(default_factory=dict)
    guessed: tuple[str, ...] = ()
    module: str | None = None  # the module's path from the project root; None: the entry
    drafted: bool = False
    # who drafted it and what the drafting loop repaired, and why (docs/plans.md)
    provenance: Mapping[str, Any] = field(default_factory=dict)

    @property
    def location(self) -> str:
        """``line:column`` as printed (1-based column, :func:`automock._positions.position`)."""
        return position(self.line, self.col)

    def http_stub(self, where: str = "entry") -> HttpStub:
        return HttpStub.from_dict(dict(self.data), f"{where}.data")

    def database(self, where: str = "entry") -> DatabaseFixture:
        return DatabaseFixture.from_dict(dict(self.data), f"{where}.data")

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "line": self.line,
            "col": self.col,
            "kind": self.kind,
            "api": self.api,
            "strategy": self.strategy,
            "symbol": self.symbol,
            "data": to_jsonable(self.data),
            "guessed": list(self.guessed),
        }
        if self.drafted:
            data["drafted"] = True
        if self.provenance:
            data["provenance"] = dict(self.provenance)
        if self.module is not None:
            data = {"module": self.module, **data}
        return data

    @classmethod
    def from_dict(cls, data: Any, where: str) -> PlanEntry:
        _expect(data, dict, where, "an object with line, col, kind, api, strategy")
        refuse_unknown(data, _ENTRY_FIELDS, where)
        line = _expect(data.get("line"), int, f"{where}.line", "a line number")
        col = _expect(data.get("col", 0), int, f"{where}.col", "a column number")
        kind = _expect(data.get("kind"), str, f"{where}.kind", "a touchpoint kind")
        api = _expect(data.get("api"), str, f"{where}.api", "a qualified API name")
        strategy = _expect(data.get("strategy"), str, f"{where}.strategy", "a strategy name")
        module = data.get("module")
        if module is not None:
            _expect(module, str, f"{where}.module", "a module path from the project root")
        if strategy not in STRATEGIES:
            raise _fail(
                f"{where}.strategy",
                f"expected one of {', '.join(STRATEGIES)}, got {strategy!r}"
                + closest(strategy, STRATEGIES),
            )
        payload = _expect(data.get("data", {}), dict, f"{where}.data", "an object")
        if strategy in _DATA_FIELDS:  # stubs and databases check their own fields
            refuse_unknown(
                payload, _DATA_FIELDS[strategy], f"{where}.data", f"field for {strategy}"
            )
        guessed = _expect(
            data.get("guessed", []), list, f"{where}.guessed", "a list of JSON pointers"
        )
        drafted = _expect(data.get("drafted", False), bool, f"{where}.drafted", "true or false")
        provenance = _expect(data.get("provenance", {}), dict, f"{where}.provenance", "an object")
        entry = cls(
            line=line,
            col=col,
            kind=kind,
            api=api,
            strategy=strategy,
            symbol=str(data.get("symbol", "")),
            data=payload,
            guessed=tuple(guessed),
            module=module,
            drafted=drafted,
            provenance=provenance,
        )
        if strategy == "stub_http":
            stub = entry.http_stub(where)
            wide = stub.catch_all() if drafted else None
            if wide is not None:
                raise _fail(
                    f"{where}.data",
                    f"a drafted stub must answer only the call it was drafted for ({wide}); "
                    'write the method and URL this call sends, or remove "drafted" '
                    "if you mean a catch-all",
                )
        elif strategy in ("sqlite_memory", "sqlalchemy_sqlite", "fake_redis", "fake_mongo"):
            entry.database(where)
        return entry


@dataclass(frozen=True, slots=True)
class Plan(JsonMixin):
    """Everything the runtime needs to run one target deterministically."""

    source_path: str | None = None
    source_sha256: str | None = None
    # every project module the plan covers (entry first): path from the project root -> sha256
    modules: Mapping[str, str] = field(default_factory=dict)
    drafter: str = "rules"
    seed: int = DEFAULT_SEED
    clock: ClockSettings = field(default_factory=ClockSettings)
    env: Mapping[str, str] = field(default_factory=dict)
    network: str = "deny"
    cassette: CassetteSettings | None = None
    entries: tuple[PlanEntry, ...] = ()
    properties: tuple[PropertySpec, ...] = ()

    # -- views the runtime uses ------------------------------------------------
    def http_stubs(self) -> tuple[HttpStub, ...]:
        """The HTTP stubs in plan order, each labelled with its entry (``entries[3], line 12``)."""
        entry_module = next(iter(self.modules), None)
        return tuple(
            replace(e.http_stub(), label=f"entries[{i}], {_where(e, entry_module)}")
            for i, e in enumerate(self.entries)
            if e.strategy == "stub_http"
        )

    def databases(self) -> tuple[DatabaseFixture, ...]:
        strategies = ("sqlite_memory", "sqlalchemy_sqlite", "fake_redis", "fake_mongo")
        return tuple(e.database() for e in self.entries if e.strategy in strategies)

    def kinds(self) -> frozenset[str]:
        return frozenset(e.kind for e in self.entries)

    def with_seed(self, seed: int) -> Plan:
        return replace(self, seed=seed)

    # -- (de)serialisation -------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "automock": PLAN_VERSION,
            "source": {"path": self.source_path, "sha256": self.source_sha256},
            "modules": dict(self.modules),
            "drafter": self.drafter,
            "seed": self.seed,
            "clock": self.clock.to_dict(),
            "env": dict(self.env),
            "network": self.network,
            "cassette": self.cassette.to_dict() if self.cassette else None,
            "entries": [e.to_dict() for e in self.entries],
            "properties": [p.to_dict() for p in self.properties],
        }

    @classmethod
    def from_dict(cls, data: Any, where: str = "plan") -> Plan:
        _expect(data, dict, where, 'a JSON object with "automock": 2')
        version = data.get("automock")
        if version not in READABLE_VERSIONS or isinstance(version, bool):
            raise _fail(
                f"{where}.automock", f"expected the schema version {PLAN_VERSION}, got {version!r}"
            )
        refuse_unknown(data, _PLAN_FIELDS, where)
        source = _expect(
            data.get("source", {}) or {}, dict, f"{where}.source", 'an object {"path", "sha256"}'
        )
        refuse_unknown(source, ("path", "sha256"), f"{where}.source")
        modules = _modules(data.get("modules", {}), f"{where}.modules")
        seed = _expect(data.get("seed", DEFAULT_SEED), int, f"{where}.seed", "an integer seed")
        env = _expect(data.get("env", {}), dict, f"{where}.env", "an object of string values")
        for k, v in env.items():
            _expect(v, str, f"{where}.env.{k}", "a string")
        network = data.get("network", "deny")
        if network not in NETWORK_MODES:
            raise _fail(
                f"{where}.network", f"expected one of {', '.join(NETWORK_MODES)}, got {network!r}"
            )
        cassette_data = data.get("cassette")
        entries = _expect(data.get("entries", []), list, f"{where}.entries", "a list of entries")
        props = _expect(data.get("properties", []), list, f"{where}.properties", "a list")
        return cls(
            source_path=source.get("path"),
            source_sha256=source.get("sha256"),
            modules=modules,
            drafter=str(data.get("drafter", "rules")),
            seed=seed,
            clock=ClockSettings.from_dict(data.get("clock", {}), f"{where}.clock"),
            env=dict(env),
            network=network,
            cassette=CassetteSettings.from_dict(cassette_data, f"{where}.cassette")
            if cassette_data
            else None,
            entries=tuple(
                PlanEntry.from_dict(e, f"{where}.entries[{i}]") for i, e in enumerate(entries)
            ),
            properties=tuple(
                PropertySpec.from_dict(p, f"{where}.properties[{i}]") for i, p in enumerate(props)
            ),
        )


def _where(entry: PlanEntry, entry_module: str | None) -> str:
    """``line 12``, or ``app/feed.py line 12`` for an entry of another module than the entry's."""
    if entry.module is None or entry.module == entry_module:
        return f"line {entry.line}"
    return f"{entry.module} line {entry.line}"


def _modules(value: Any, where: str) -> dict[str, str]:
    """The ``modules`` map (absent in version 1 plans: only the entry, as ``source``)."""
    _expect(value, dict, where, "an object: module path -> sha256")
    for name, digest in value.items():
        _expect(digest, str, f"{where}.{name}", "the module's sha256 (hex)")
    return dict(value)
