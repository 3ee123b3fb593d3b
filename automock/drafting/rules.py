"""The offline drafter: a plan from the touchpoints and the source, no network, no key.

Heuristics, each usually right and a reasonable mistake if not:

- time: wall-clock reads (``datetime.now``, ``time.time``, ``date.today``) are
  frozen at the plan's ``clock.at``; monotonic clocks and sleeps get the
  virtual clock (reads advance by ``clock.tick``, sleeps return at once);
- random: one seed for every generator (``random``, ``uuid4``, ``secrets``,
  ``os.urandom``, numpy);
- environment: a fixed environment; ``os.environ["X"]``/``os.getenv("X",
  default)`` get the default or a plausible value, listed in ``guessed``;
- network: one ``stub_http`` entry per call site with the response shape
  inferred from the code (:mod:`automock.drafting.shapes`) and the URL as a
  pattern (:mod:`automock.drafting.urls`); a client constructor needs no stub
  of its own (``deny``: its requests are stubbed where they are sent);
  sockets, DNS, SMTP are denied;
- databases: ``sqlite3.connect`` -> an in-memory SQLite with a schema and
  rows inferred from the module's SQL literals (:mod:`automock.drafting.sql`);
  SQLAlchemy engines -> SQLite; Redis -> fakeredis; MongoDB -> mongomock;
  servers we cannot fake (PostgreSQL, MySQL) are denied;
- process: threads and thread pools are allowed (they are deterministic under
  the frozen clock often enough); subprocesses and forks are denied;
- filesystem: directory listings are sorted, temp names seeded, timestamps
  and ``gettempdir`` allowed (the sandbox runs in a fresh temp directory).
"""

from __future__ import annotations

import ast
import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from automock.analysis.model import Touchpoint
from automock.drafting._source import Module, env_read, parse_module
from automock.drafting.env_values import shaped_values
from automock.drafting.http_calls import CALL_NAMES, CLIENT_STATE
from automock.drafting.shapes import HttpShape, infer_http
from automock.drafting.sql import draft_sql, sql_literals
from automock.plan.model import DEFAULT_SEED, Plan, PlanEntry

__all__ = ["BASE_ENV", "draft_rules", "strategy_for", "url_unknown"]

BASE_ENV = {"LANG": "C.UTF-8", "TZ": "UTC"}

_VIRTUAL = (
    "monotonic",
    "monotonic_ns",
    "perf_counter",
    "perf_counter_ns",
    "process_time",
    "process_time_ns",
    "thread_time",
    "thread_time_ns",
    "sleep",
    "clock_gettime",
    "clock_gettime_ns",
)
_CLIENT_SUFFIXES = (
    "Session",
    "session",
    "Client",
    "AsyncClient",
    "ClientSession",
    "PoolManager",
    "HTTPConnection",
    "HTTPSConnection",
    "build_opener",
    "Request",
)
_HTTP_ROOTS = ("requests", "httpx", "aiohttp", "urllib", "urllib3")
# the last name of an API that sends a request; anything else (a client, ``headers``,
# ``mount``) is not one, and a drafted stub for it would answer requests nobody drafted
_REQUEST_CALLS = (*CALL_NAMES, "fetch", "send")
_ALLOWED_PROCESS = (
    "threading.",
    "_thread.",
    "concurrent.futures.ThreadPoolExecutor",
    "multiprocessing.pool.ThreadPool",
)
_LISTINGS = ("listdir", "scandir", "walk", "fwalk", "glob", "iglob", "iterdir", "rglob")


def strategy_for(touchpoint: Touchpoint) -> str:
    """The strategy the offline drafter picks for a touchpoint (before its data)."""
    api, kind = touchpoint.api, touchpoint.kind
    last = api.rsplit(".", 1)[-1]
    if kind == "time":
        return "virtual_clock" if last in _VIRTUAL else "freeze"
    if kind == "random":
        return "seed"
    if kind == "environment":
        return "fixed_env"
    if kind == "network":
        parts = api.split(".")
        http_call = parts[0] in _HTTP_ROOTS and not CLIENT_STATE.intersection(parts[1:-1])
        return "stub_http" if http_call and last in _REQUEST_CALLS else "deny"
    if kind == "database":
        if api.startswith(("sqlite3.", "aiosqlite.")):
            return "sqlite_memory"
        if api.startswith("sqlalchemy."):
            return "sqlalchemy_sqlite"
        if api.startswith("redis."):
            return "fake_redis"
        if api.startswith(("pymongo.", "motor.")):
            return "fake_mongo"
        return "deny"
    if kind == "process":
        return "allow" if api.startswith(_ALLOWED_PROCESS) else "deny"
    if kind == "filesystem":
        if last in _LISTINGS:
            return "sorted_listing"
        return "seed" if api.startswith("tempfile.") and last != "gettempdir" else "allow"
    return "deny"


def _entry(
    tp: Touchpoint, strategy: str, data: dict[str, Any] | None = None, guessed: Sequence[str] = ()
) -> PlanEntry:
    return PlanEntry(
        line=tp.line,
        col=tp.col,
        kind=tp.kind,
        api=tp.api,
        strategy=strategy,
        symbol=tp.symbol,
        data=data or {},
        guessed=tuple(guessed),
    )


def _call_at(module: Module, tp: Touchpoint) -> ast.Call | None:
    calls = [c for c in module.calls_on_line(tp.line) if c.col_offset >= tp.col - 1]
    exact = [c for c in calls if c.col_offset == tp.col]
    found = exact or calls
    return found[0] if found else None


def _env_name(module: Module, tp: Touchpoint) -> tuple[str | None, str | None]:
    """``(variable, default)`` read at the touchpoint; a default is kept when it renders.

    ``os.environ.get("TOPICS", DEFAULT_TOPICS)`` keeps the constant's text, so
    the program runs on the fallback its author wrote rather than a made-up value.
    """
    for node in module.nodes_on_line(tp.line):
        if (read := env_read(node)) is not None:
            name, default = read
            fallback = _fallback(module, node)
            if default is None and fallback is not None:
                rendered = module.render(fallback)
                default = rendered.text if rendered.complete else None
            return name, default
    return None, None


def _fallback(module: Module, node: ast.AST) -> ast.expr | None:
    """The fallback the code gives an environment read, written beside it.

    ``os.getenv("X", DEFAULT)``, ``os.environ.get("X") or DEFAULT``, and
    ``os.environ["X"].strip() if "X" in os.environ else DEFAULT``.
    """
    if isinstance(node, ast.Call) and len(node.args) > 1:
        return node.args[1]
    current = node
    for _ in range(4):  # through ``.rstrip("/")``-like calls on the value read
        parent = module.parents.get(id(current))
        if isinstance(parent, ast.IfExp) and parent.body is current:
            return parent.orelse
        if isinstance(parent, ast.BoolOp) and isinstance(parent.op, ast.Or):
            return parent.values[-1] if parent.values[0] is current else None
        if not isinstance(parent, ast.Attribute | ast.Call):
            return None
        current = parent
    return None


def _env_values(module: Module, touchpoints: Sequence[Touchpoint]) -> dict[str, str]:
    """The value drafted for each variable read: its default, else shaped by its use."""
    defaults: dict[str, str | None] = {}
    for tp in touchpoints:
        if tp.kind == "environment" and tp.api.startswith(("os.environ", "os.getenv")):
            name, default = _env_name(module, tp)
            if name is not None and defaults.get(name) is None:
                defaults[name] = default
    network = {tp.line for tp in touchpoints if tp.kind == "network"}
    shaped = shaped_values(module, [n for n, d in defaults.items() if d is None], network)
    return {n: d if d is not None else shaped[n] for n, d in defaults.items()}


def _database(module: Module, tp: Touchpoint, strategy: str) -> tuple[dict[str, Any], list[str]]:
    engine = {
        "sqlite_memory": "sqlite",
        "sqlalchemy_sqlite": "sqlite",
        "fake_redis": "redis",
        "fake_mongo": "mongo",
    }[strategy]
    call = _call_at(module, tp)
    target = "*"
    if call is not None and call.args:
        rendered = module.render(call.args[0])
        target = rendered.text if rendered.complete else "*"
    for kw in call.keywords if call is not None else ():
        if kw.arg in ("database", "url", "host") and target == "*":
            rendered = module.render(kw.value)
            target = rendered.text if rendered.complete else "*"
    data: dict[str, Any] = {"engine": engine, "target": target, "schema": [], "rows": {}}
    guessed: list[str] = []
    if engine == "sqlite":
        if "sql" not in module.memo:
            module.memo["sql"] = draft_sql(sql_literals(module.tree))
        sql = module.memo["sql"]
        data["schema"] = list(sql.schema)
        data["rows"] = {k: list(v) for k, v in sql.rows.items()}
        guessed = list(sql.guessed)
    return data, guessed


_UNKNOWN_URL = (
    "no stub drafted: the URL this call sends to is not known from the source; "
    "add a stub_http entry with its method and URL (a drafted stub never matches every request)"
)


def url_unknown(entry: PlanEntry) -> bool:
    """An HTTP call the rules left denied because its URL is not in the source: a trial run
    shows the URL (:mod:`automock.drafting.repair_requests`)."""
    return entry.strategy == "deny" and entry.data.get("note") == _UNKNOWN_URL


_DRAFTED_BODY = ("headers", "json", "text", "sequence")


def _stub(tp: Touchpoint | None, shape: HttpShape, api: str = "") -> PlanEntry:
    """The drafted stub for one call site, or a deny note when its URL is unknown."""
    line, col = (tp.line, tp.col) if tp is not None else (shape.line, shape.col)
    api = tp.api if tp is not None else api
    symbol = tp.symbol if tp is not None else ""
    if "/url" in shape.guessed:  # the body drafted from its reads, for when a run shows the URL
        body = {k: v for k, v in shape.stub_data().items() if k in _DRAFTED_BODY and v}
        if "/json" in shape.guessed:  # read only whole: shaped by the URL the run shows
            body["whole"] = True
        return PlanEntry(
            line,
            col,
            "network",
            api,
            "deny",
            symbol,
            {"note": _UNKNOWN_URL},
            provenance={"body": body} if body else {},
        )
    return PlanEntry(
        line,
        col,
        "network",
        api,
        "stub_http",
        symbol,
        shape.stub_data(),
        shape.guessed,
        drafted=True,
        provenance={"catalog": shape.known} if shape.known else {},
    )


def _network(tps: list[Touchpoint], shapes: list[HttpShape]) -> list[PlanEntry]:
    entries: list[PlanEntry] = []
    claimed: set[tuple[int, int]] = set()
    by_line: dict[int, list[HttpShape]] = {}
    for shape in shapes:
        by_line.setdefault(shape.line, []).append(shape)
    for tp in tps:
        strategy = strategy_for(tp)
        candidates = [s for s in by_line.get(tp.line, []) if (s.line, s.col) not in claimed]
        if strategy == "stub_http" and candidates:
            nearest = min(candidates, key=lambda s: abs(s.col - tp.col))
            claimed.add((nearest.line, nearest.col))
            for shape in candidates:  # one stub per literal value the request is sent with
                if shape.col == nearest.col:
                    entries.append(_stub(tp, shape))
        elif strategy == "stub_http":
            entries.append(_entry(tp, "deny", {"note": _UNKNOWN_URL}))
        else:
            last = tp.api.rsplit(".", 1)[-1]
            note = (
                "requests through this client are stubbed where they are sent"
                if last in _CLIENT_SUFFIXES
                else "not a request: nothing to stub"
                if tp.api.split(".")[0] in _HTTP_ROOTS
                else "no stub: denied in the sandbox"
            )
            entries.append(_entry(tp, "deny", {"note": note}))
    clients = [tp.api for tp in tps if tp.api.rsplit(".", 1)[-1] in _CLIENT_SUFFIXES]
    for shape in shapes:
        if (shape.line, shape.col) in claimed:
            continue
        api = f"{clients[0]}.{shape.method.lower()}" if clients else "http.request"
        entries.append(_stub(None, shape, api))
    return entries


def draft_rules(
    source: str,
    touchpoints: Sequence[Touchpoint],
    *,
    path: str | None = None,
    seed: int = DEFAULT_SEED,
    outside: Mapping[tuple[str, str], tuple[str, ...]] | None = None,
    returned: Mapping[str, Mapping[tuple[str, ...], str | None]] | None = None,
) -> Plan:
    """Draft a complete plan for ``source`` offline. ``SyntaxError`` propagates.

    ``outside``: literal texts other modules of the project pass to this
    module's functions, by (function, parameter); ``returned``: the paths other
    modules read on what its functions return (:mod:`automock.drafting.project`).
    """
    module = parse_module(source)
    module.outside.update(outside or {})
    env = dict(BASE_ENV)
    module.memo["env"] = drafted_env = _env_values(module, touchpoints)
    entries: list[PlanEntry] = []
    network = [tp for tp in touchpoints if tp.kind == "network"]
    if network:
        lines = {tp.line for tp in network}
        entries.extend(_network(network, infer_http(module, lines, returned)))
    for tp in touchpoints:
        strategy = strategy_for(tp)
        if tp.kind == "network":
            continue
        if tp.kind == "environment" and tp.api.startswith(("os.environ", "os.getenv")):
            name, default = _env_name(module, tp)
            if name is None:
                entries.append(_entry(tp, strategy))
                continue
            value = default if default is not None else drafted_env[name]
            env.setdefault(name, value)
            entries.append(
                _entry(
                    tp,
                    strategy,
                    {"name": name, "value": value},
                    [] if default is not None else ["/value"],
                )
            )
        elif strategy in ("sqlite_memory", "sqlalchemy_sqlite", "fake_redis", "fake_mongo"):
            data, guessed = _database(module, tp, strategy)
            entries.append(_entry(tp, strategy, data, guessed))
        else:
            entries.append(_entry(tp, strategy))
    entries.sort(key=lambda e: (e.line, e.col, e.api))
    return Plan(
        source_path=path,
        source_sha256=hashlib.sha256(source.encode("utf-8")).hexdigest(),
        drafter="rules",
        seed=seed,
        env=env,
        entries=tuple(entries),
    )
