"""pytest plugin: deterministic tests with the automock runtime.

Registered through the ``pytest11`` entry point, so installing automock is
enough. It adds:

* fixture ``automock``: inside the test the clock is frozen, every RNG
  (``random``, numpy, ``uuid``, ``os.urandom``, ``secrets``) is seeded from a
  per-test seed, the network fails closed (stubs from the plan are served)
  and databases are faked; yields the runtime session (``.seed``, ``.log``);
* fixtures ``frozen_clock``, ``seeded_random``, ``mocked_network``: thin
  wrappers over the runtime context managers of the same names;
* marker ``@pytest.mark.automock(plan=..., seed=..., at=..., allow_hosts=[...])``: turns
  the ``automock`` fixture on for the test and configures it; inline HTTP stubs with
  ``automock.http.get(url, json=...)`` (:mod:`automock.runtime.http_stubs`);
* option ``--automock-seed N|random|last``: the session seed (default 0, as
  ``automock run``, so sessions repeat with no flags; ``random`` explores a
  fresh one, printed in the header; ``last`` replays the previous run's).
  Under pytest-xdist the controller's seed is handed to every worker.

A test's seed is derived from the session seed and the test's node id
(:func:`derive_seed`, 32 bits), so tests get different seeds, and the same session seed replays all of them.
Inside the ``automock``/``seeded_random`` fixtures (and the marker) the ``random``
and numpy global generators follow automock's seed even when another plugin
(pytest-randomly) reseeds them in its setup/call/teardown hooks: the state
is carried over each such reseed (:func:`pytest_runtest_call` and neighbours).

A failing test that used automock gets an ``automock`` report section with
the command that reproduces it and any access the plan did not mock.

This module is imported by pytest at startup in every project that has
automock installed, so it imports nothing heavy at module level: the runtime
loads when a fixture first runs.
"""

from __future__ import annotations

import sys
from collections.abc import Generator, Iterator
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest

from automock._pytest_network import allow_hosts_of, cassette_beside
from automock._pytest_reseeds import entropy_of_test, restore, seeded, snapshot
from automock._pytest_seeds import DEFAULT_SEED, SEED_CACHE_KEY, choose_session_seed
from automock._seed import derive

if TYPE_CHECKING:  # pragma: no cover
    from automock.plan.model import Plan
    from automock.runtime import RuntimeSession
    from automock.runtime.clock import VirtualClock
    from automock.runtime.entropy import EntropySource
    from automock.runtime.events import AccessLog
    from automock.runtime.http_session import NetworkSession

__all__ = ["DEFAULT_SEED", "SEED_CACHE_KEY", "derive_seed", "session_seed"]

MARKER = "automock"

_SESSION_SEED = pytest.StashKey[int]()
_SEED_NOTE = pytest.StashKey[str]()
_USED = pytest.StashKey[tuple[int, Any]]()  # (test seed, access log or None)
_WORKER_SEED = "automock_seed"  # pytest-xdist workerinput keys
_WORKER_NOTE = "automock_seed_note"


def derive_seed(session_seed: int, nodeid: str) -> int:
    """The per-test seed: ``automock._seed.derive(session_seed, "pytest test", nodeid, bits=32)``."""
    return derive(session_seed, "pytest test", nodeid, bits=32)


def session_seed(config: pytest.Config) -> int:
    """The seed of this pytest session (``--automock-seed``, or the one chosen for it)."""
    return config.stash[_SESSION_SEED]


# -- hooks ----------------------------------------------------------------------


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("automock", "deterministic tests (automock)")
    group.addoption(
        "--automock-seed",
        action="store",
        default=None,
        metavar="N|random|last",
        help=f"session seed for automock tests (default {DEFAULT_SEED}, as 'automock run'): "
        "an integer, 'random' for a fresh one (shown in the report header for replay), "
        "or 'last' for the previous run's",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARKER}(plan=None, seed=None, at=None, allow_hosts=()): run the test under automock "
        '(frozen clock, seeded RNGs, fail-closed network); plan="fixtures/x.automock.json" '
        '(or an entry script, plan="app.py": its project plan, as automock run finds or '
        "drafts it) adds "
        'its stubs and fakes, seed=N, at="2024-01-01T00:00:00Z", allow_hosts=["127.0.0.1"]',
    )
    workerinput: dict[str, Any] | None = getattr(config, "workerinput", None)
    if workerinput is not None and _WORKER_SEED in workerinput:
        # a pytest-xdist worker: the controller chose the seed (and wrote the cache)
        config.stash[_SESSION_SEED] = int(workerinput[_WORKER_SEED])
        config.stash[_SEED_NOTE] = str(workerinput.get(_WORKER_NOTE, ""))
        return
    seed, note = choose_session_seed(
        config.getoption("--automock-seed"), getattr(config, "cache", None)
    )
    config.stash[_SESSION_SEED] = seed
    config.stash[_SEED_NOTE] = note
    cache = getattr(config, "cache", None)
    if cache is not None:
        cache.set(SEED_CACHE_KEY, seed)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """pytest-xdist, on the controller: every worker gets the session seed chosen here."""
    node.workerinput[_WORKER_SEED] = node.config.stash[_SESSION_SEED]
    node.workerinput[_WORKER_NOTE] = node.config.stash.get(_SEED_NOTE, "")


def pytest_report_header(config: pytest.Config) -> str:
    seed = config.stash[_SESSION_SEED]
    note = config.stash.get(_SEED_NOTE, "")
    return f"automock: seed={seed}{note} (replay with --automock-seed={seed})"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, Any, Any]:
    report = yield
    used = item.stash.get(_USED, None)
    if used is not None and report.failed:
        seed, log = used
        replay = item.config.stash[_SESSION_SEED]
        lines = [
            f"reproduce with: pytest {_shell_quote(item.nodeid)} --automock-seed={replay}",
            f"test seed: {seed}",
        ]
        for access in getattr(log, "unmocked", ()) if log is not None else ():
            target = f" {access.target}" if access.target else ""
            lines.append(f"unmocked {access.kind}: {access.api}{target}; {access.fix}")
        report.sections.append(("automock", "\n".join(lines)))
    return report


# -- automock's seed wins over other plugins' reseeds (automock._pytest_reseeds) ------------


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    snapshot(item)
    return (yield)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> Generator[None, object, object]:
    restore(pyfuncitem)
    return (yield)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None, None, None]:
    if seeded(item):
        snapshot(item)
        item.addfinalizer(lambda: restore(item))
    return (yield)


def _shell_quote(text: str) -> str:
    """Single-quote for POSIX shells, always (node ids hold ``[`` and spaces)."""
    return "'" + text.replace("'", "'\"'\"'") + "'"


# -- settings from the marker ----------------------------------------------------------


def _marker_kwargs(request: pytest.FixtureRequest) -> dict[str, Any]:
    marker = request.node.get_closest_marker(MARKER)
    if marker is None:
        return {}
    if marker.args:
        raise pytest.UsageError(
            f"{request.node.nodeid}: @pytest.mark.automock takes keywords only "
            '(plan="fixtures/x.automock.json", seed=1, at="2024-01-01T00:00:00Z")'
        )
    unknown = sorted(set(marker.kwargs) - {"plan", "seed", "at", "tick", "allow_hosts"})
    if unknown:
        raise pytest.UsageError(
            f"{request.node.nodeid}: unknown @pytest.mark.automock keyword {unknown[0]!r}; "
            "expected plan, seed, at, tick, allow_hosts"
        )
    return dict(marker.kwargs)


def _find_plan_file(request: pytest.FixtureRequest, value: str | Path) -> Path:
    path = Path(value)
    if path.is_absolute():
        candidates = [path]
    else:
        candidates = [
            Path(request.node.path).parent / path,
            request.config.rootpath / path,
            Path.cwd() / path,
        ]
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    looked = ", ".join(str(c) for c in dict.fromkeys(candidates))
    pytest.fail(
        f"automock: plan file {str(value)!r} not found (looked in {looked}); "
        "draft one with: automock draft <source.py>",
        pytrace=False,
    )


def _load_plan_file(path: Path) -> Plan:
    from automock.errors import AutomockError

    try:
        try:
            from automock.plan.io import load_plan
        except ImportError:  # plan I/O not available: parse and validate directly
            import json

            from automock.plan.model import Plan

            return Plan.from_dict(json.loads(path.read_text(encoding="utf-8")), where=str(path))
        return cassette_beside(load_plan(path), path)
    except AutomockError as exc:
        pytest.fail(f"automock: {exc}", pytrace=False)
    except ValueError as exc:
        pytest.fail(f"automock: {path}: not valid JSON: {exc}", pytrace=False)


def _program_plan(entry: Path) -> Plan:
    """``plan="run_digest.py"``: the plan ``automock run`` would use for that entry point.

    Found as ``automock run`` finds it (``fixtures/<stem>.automock.json``), else
    drafted over the entry and every project module it imports, and not saved.
    """
    from automock.errors import AutomockError
    from automock.pipeline import load_or_draft

    try:
        loaded = load_or_draft(entry, save=False)
        return cassette_beside(loaded.plan, loaded.path)
    except AutomockError as exc:
        pytest.fail(f"automock: {exc}", pytrace=False)


def _plan_for(request: pytest.FixtureRequest, kwargs: dict[str, Any]) -> Plan:
    from dataclasses import replace

    from automock.errors import AutomockError
    from automock.plan.model import ClockSettings, Plan

    value = kwargs.get("plan")
    if value is None:
        plan = Plan()
    elif isinstance(value, Plan):
        plan = value
    elif isinstance(value, dict):
        try:
            plan = Plan.from_dict(value)
        except AutomockError as exc:
            pytest.fail(f"automock: {exc}", pytrace=False)
    elif str(value).endswith(".py"):
        plan = _program_plan(_find_plan_file(request, value))
    else:
        plan = _load_plan_file(_find_plan_file(request, value))
    if "at" in kwargs or "tick" in kwargs:
        from automock.runtime.instants import parse_instant

        try:  # any form the clock takes (datetime, date, epoch, "Jan 14th, 2012"), kept as ISO
            at = parse_instant(kwargs.get("at", plan.clock.at), "@pytest.mark.automock at").iso()
            clock = {"at": at, "tick": kwargs.get("tick", plan.clock.tick)}
            plan = replace(plan, clock=ClockSettings.from_dict(clock, "@pytest.mark.automock"))
        except AutomockError as exc:
            pytest.fail(f"automock: {exc}", pytrace=False)
    return plan


def _test_seed(request: pytest.FixtureRequest, kwargs: dict[str, Any]) -> int:
    seed = kwargs.get("seed")
    if seed is not None:
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise pytest.UsageError(
                f"{request.node.nodeid}: automock seed must be an integer >= 0, got {seed!r}"
            )
        return seed
    return derive_seed(request.config.stash[_SESSION_SEED], request.node.nodeid)


def _mark_used(request: pytest.FixtureRequest, seed: int, log: AccessLog | None) -> None:
    if _USED not in request.node.stash:
        request.node.stash[_USED] = (seed, log)


# -- fixtures -------------------------------------------------------------------


@pytest.fixture
def automock(request: pytest.FixtureRequest) -> Iterator[RuntimeSession]:
    """The whole runtime for this test: frozen clock, seeded RNGs, fail-closed network, fake DBs.

    Yields the runtime session (``.seed`` is the test seed, ``.log`` what the test touched).
    """
    from automock.runtime import deterministic

    kwargs = _marker_kwargs(request)
    seed = _test_seed(request, kwargs)
    plan = _plan_for(request, kwargs)
    hosts = allow_hosts_of(request.node.nodeid, kwargs)
    with deterministic(plan.with_seed(seed), seed=seed, allow_hosts=hosts) as session:
        request.node.stash[_USED] = (seed, session.log)
        with entropy_of_test(request, session.entropy):
            yield session


@pytest.fixture(autouse=True)
def _automock_marker(request: pytest.FixtureRequest) -> None:
    """Apply the ``automock`` fixture to tests carrying ``@pytest.mark.automock``."""
    if request.node.get_closest_marker(MARKER) is not None:
        request.getfixturevalue("automock")


@pytest.fixture(scope="class", autouse=True)
def _automock_class_clock(request: pytest.FixtureRequest) -> Iterator[None]:
    """A marked ``unittest.TestCase``'s ``setUpClass``/``tearDownClass`` run on the frozen clock."""
    unittest = sys.modules.get("unittest")
    cls = request.cls
    testcase = unittest is not None and isinstance(cls, type) and issubclass(cls, unittest.TestCase)
    yield from _frozen_around(request, testcase)


@pytest.fixture(scope="module", autouse=True)
def _automock_module_clock(request: pytest.FixtureRequest) -> Iterator[None]:
    """A marked module's ``setUpModule``/``tearDownModule`` run on the frozen clock."""
    module = getattr(request.node, "obj", None)  # None for a doctest text file
    names = vars(module) if isinstance(module, ModuleType) else {}
    yield from _frozen_around(request, "setUpModule" in names or "tearDownModule" in names)


def _frozen_around(request: pytest.FixtureRequest, wanted: bool) -> Iterator[None]:
    if not wanted or request.node.get_closest_marker(MARKER) is None:
        yield
        return
    from automock.runtime.clock import frozen_clock as clock_patch

    plan = _plan_for(request, _marker_kwargs(request))
    with clock_patch(plan.clock.at, tick=plan.clock.tick):
        yield


@pytest.fixture
def frozen_clock(request: pytest.FixtureRequest) -> Iterator[VirtualClock]:
    """``automock.runtime.clock.frozen_clock`` at the marker's ``at`` (default 2024-01-01 UTC)."""
    from automock.runtime.clock import frozen_clock as clock_patch

    plan = _plan_for(request, _marker_kwargs(request))
    with clock_patch(plan.clock.at, tick=plan.clock.tick) as clock:
        yield clock


@pytest.fixture
def seeded_random(request: pytest.FixtureRequest) -> Iterator[EntropySource]:
    """``automock.runtime.entropy.seeded_random`` with this test's seed."""
    from automock.runtime.entropy import seeded_random as entropy_patch

    seed = _test_seed(request, _marker_kwargs(request))
    _mark_used(request, seed, None)
    with entropy_patch(seed) as source, entropy_of_test(request, source):
        yield source


@pytest.fixture
def mocked_network(request: pytest.FixtureRequest) -> Iterator[NetworkSession]:
    """``automock.runtime.http.mocked_network`` with the marker plan's stubs; fails closed."""
    from automock.runtime.events import recording
    from automock.runtime.http import mocked_network as network_patch

    kwargs = _marker_kwargs(request)
    plan = _plan_for(request, kwargs)
    with recording() as log:
        _mark_used(request, _test_seed(request, kwargs), log)
        with network_patch(
            plan.http_stubs(),
            cassette=plan.cassette,
            allow=plan.network == "allow",
            allow_hosts=allow_hosts_of(request.node.nodeid, kwargs),
        ) as net:
            yield net
