"""deterministic(plan): the whole plan in-process, identical output, clean exit."""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import random
import runpy
import socket
import sqlite3
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from automock.errors import UnmockedAccessError
from automock.plan.model import ClockSettings, Plan, PlanEntry
from automock.runtime import RuntimeSession, deterministic
from automock.runtime.env import fixed_environment

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def _weather_plan(seed: int = 0) -> Plan:
    stub = PlanEntry(
        line=12,
        col=8,
        kind="network",
        api="requests.get",
        strategy="stub_http",
        data={
            "method": "GET",
            "url": "https://api.weather.example.com/v1/current",
            "json": {
                "current": {"temp": 21.5, "conditions": [{"description": "sunny"}]},
                "station": {"name": "LIS"},
            },
        },
    )
    return Plan(seed=seed, entries=(stub,))


def _run_example(name: str, plan: Plan, tmp_path: Path) -> str:
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        with deterministic(plan), contextlib.redirect_stdout(out):
            runpy.run_path(str(EXAMPLES / name), run_name="__main__")
    finally:
        os.chdir(cwd)
    return out.getvalue()


@pytest.mark.parametrize(
    "name", ["raffle.py", "job_scheduler.py", "weather_report.py", "ledger.py"]
)
def test_examples_give_identical_output_twice(name: str, tmp_path: Path) -> None:
    plan = _weather_plan()
    first = _run_example(name, plan, tmp_path)
    second = _run_example(name, plan, tmp_path)
    assert first == second
    assert first.strip()
    assert list(tmp_path.iterdir()) == []  # ledger.db never created


def test_async_example_is_fail_closed_without_stubs(tmp_path: Path) -> None:
    with pytest.raises(
        UnmockedAccessError, match=r"GET https://api\.code\.example\.com/repos/octo/"
    ):
        _run_example("async_client.py", Plan(), tmp_path)


def test_seed_changes_random_output(tmp_path: Path) -> None:
    outputs = {_run_example("raffle.py", Plan(seed=s), tmp_path) for s in range(4)}
    assert len(outputs) > 1


def test_session_exposes_plan_seed_and_log() -> None:
    plan = Plan(seed=5, clock=ClockSettings(at="2030-05-06T00:00:00Z"))
    with deterministic(plan, seed=9) as session:
        assert isinstance(session, RuntimeSession)
        assert session.seed == 9
        assert session.plan is plan
        time.sleep(1)
        with contextlib.suppress(UnmockedAccessError):
            socket.create_connection(("example.com", 80))
    assert time.gmtime(0).tm_year == 1970
    assert [a.api for a in session.log.unmocked] == ["socket.create_connection"]
    assert any(a.api == "time.sleep" for a in session.log.accesses)


def _patched_state() -> tuple[object, ...]:
    """Everything the runtime patches, as seen from outside."""
    return (
        time.time.__name__,
        time.monotonic,
        time.sleep,
        asyncio.sleep,
        os.urandom,
        random.Random.seed,
        uuid.uuid1,
        socket.socket.connect,
        socket.getaddrinfo,
        sqlite3.connect,
        list(sys.meta_path),
        dict(os.environ),
    )


def test_everything_is_restored_after_exit() -> None:
    before = _patched_state()
    with deterministic(Plan(env={"ONLY": "this"}), apply_env=True):
        # the frozen clock pins TZ to the instant's zone (UTC) for localtime()
        assert dict(os.environ) == {"ONLY": "this", "TZ": "UTC"}
        assert sys.meta_path != before[10]
    assert _patched_state() == before
    assert abs(time.time() - 1_704_067_200) > 86_400


def test_restored_even_when_the_body_raises() -> None:
    connect = socket.socket.connect
    with pytest.raises(ZeroDivisionError), deterministic(Plan()):
        _ = 1 / 0
    assert socket.socket.connect is connect


def test_nested_blocks_restore_the_outer_state() -> None:
    with deterministic(Plan(seed=1)):
        outer = random.random()
        with deterministic(Plan(seed=2, clock=ClockSettings(at="2031-01-01T00:00:00Z"))):
            assert time.gmtime().tm_year == 2031
        assert time.gmtime().tm_year == 2024
        follow = random.random()
    with deterministic(Plan(seed=1)):
        assert (random.random(), random.random()) == (outer, follow)


def test_decorator_forms_sync_and_async() -> None:
    plan = Plan(seed=3)

    @deterministic(plan)
    def sync_values() -> tuple[float, str, float]:
        return time.time(), uuid.uuid4().hex, random.random()

    @deterministic(plan)
    async def async_values() -> tuple[float, str, float]:
        await asyncio.sleep(0)
        return time.time(), uuid.uuid4().hex, random.random()

    assert sync_values() == sync_values() == asyncio.run(async_values())


def test_fixed_environment_replaces_and_restores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AUTOMOCK_PARENT_SECRET", "hunter2")
    with fixed_environment({"LANG": "C.UTF-8"}):
        assert "AUTOMOCK_PARENT_SECRET" not in os.environ
        child = subprocess.run(
            [sys.executable, "-c", "import os; print(sorted(os.environ))"],
            capture_output=True,
            text=True,
            check=True,
        )
        assert "AUTOMOCK_PARENT_SECRET" not in child.stdout
    assert os.environ["AUTOMOCK_PARENT_SECRET"] == "hunter2"


def test_import_and_enter_import_nothing_heavy() -> None:
    code = (
        f"import sys; sys.path.insert(0, {str(ROOT)!r})\n"
        "import automock.runtime\n"
        "from automock.plan.model import Plan\n"
        "with automock.runtime.deterministic(Plan()):\n"
        "    pass\n"
        "heavy = {'requests', 'httpx', 'aiohttp', 'numpy', 'responses', 'freezegun', 'vcr',\n"
        "         'sqlalchemy', 'redis', 'pymongo', 'pytest', 'hypothesis', 'libcst'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_joins_an_active_recording() -> None:
    from automock.runtime.events import recording

    with recording() as outer, deterministic(Plan()) as session:
        time.sleep(1)
    assert session.log is outer
    assert [a.api for a in outer.accesses] == ["time.sleep"]


LATE_IMPORTS = """
import sys
sys.path.insert(0, {root!r})
from automock.plan.model import Plan
from automock.runtime import deterministic
from automock.errors import UnmockedAccessError
late = ("asyncio", "socket", "sqlite3")
with deterministic(Plan()):
    assert not [m for m in late if m in sys.modules], [m for m in late if m in sys.modules]
    import asyncio, socket, sqlite3

    async def main():
        try:
            await asyncio.wait_for(asyncio.Event().wait(), timeout=10_000)
        except TimeoutError:
            return asyncio.get_running_loop().time()

    print("loop", round(asyncio.run(main())))
    try:
        socket.create_connection(("127.0.0.1", 9))
    except UnmockedAccessError as exc:
        print("socket", exc.api)
    sqlite3.connect("late.db").execute("CREATE TABLE t (x)")
import os
print("file", os.path.exists("late.db"))
"""


def test_modules_imported_inside_the_block_are_patched(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-c", LATE_IMPORTS.format(root=str(ROOT))],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.split("\n")
    assert int(lines[0].split()[1]) >= 10_000  # virtual time jumped to the timeout
    assert lines[1:4] == ["socket socket.create_connection", "file False", ""]
