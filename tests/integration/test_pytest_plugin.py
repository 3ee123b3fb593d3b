"""The pytest plugin, driven through ``pytester`` (inner pytest sessions)."""

from __future__ import annotations

import importlib.metadata
import json
import re
from pathlib import Path

import pytest

from automock.pytest_plugin import derive_seed

pytest_plugins = ["pytester"]


@pytest.fixture(scope="module", autouse=True)
def _warm_modules() -> None:
    """Import the heavy modules once, out here.

    ``runpytest`` runs in this process and restores ``sys.modules`` after each
    inner session, so anything first imported inside one (hypothesis via its
    pytest plugin, the runtime's backends, requests) would be imported again,
    with assertion rewriting, for every inner run.
    """
    import hypothesis  # noqa: F401
    import requests  # noqa: F401

    from automock.plan.model import Plan
    from automock.runtime import deterministic

    with deterministic(Plan(), seed=0):
        pass


def _plugin_args() -> list[str]:
    """Load the plugin explicitly when the pytest11 entry point is not installed."""
    installed = any(
        ep.value == "automock.pytest_plugin"
        for ep in importlib.metadata.entry_points(group="pytest11")
    )
    return [] if installed else ["-p", "automock.pytest_plugin"]


def run(pytester: pytest.Pytester, *args: str, randomly: bool = False) -> pytest.RunResult:
    """An inner session; pytest-randomly (installed for the dev env) only with ``randomly``."""
    plugins = ["-p", "randomly"] if randomly else ["-p", "no:randomly"]
    return pytester.runpytest(
        "-s", "-o", "asyncio_default_fixture_loop_scope=function", *_plugin_args(), *plugins, *args
    )


def values(result: pytest.RunResult) -> dict[str, str]:
    """``VALUE <test> <payload>`` lines printed by the inner tests."""
    found = {}
    for line in result.outlines:
        match = re.search(r"VALUE (\S+) (.*)$", line)
        if match:
            found[match.group(1)] = match.group(2)
    return found


RANDOM_TESTS = """
import datetime, os, random, secrets, time, uuid
import pytest

def _sample():
    return [random.random(), str(uuid.uuid4()), os.urandom(4).hex(), secrets.token_hex(4),
            datetime.datetime.now().isoformat(), time.time()]

@pytest.mark.automock
def test_alpha():
    print("VALUE alpha", _sample())

@pytest.mark.automock
def test_beta():
    print("VALUE beta", _sample())

def test_fixture_direct(automock):
    print("VALUE direct", [automock.seed, random.random()])
"""


def test_same_session_seed_gives_identical_values(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(RANDOM_TESTS)
    first = run(pytester, "--automock-seed=1234")
    second = run(pytester, "--automock-seed=1234")
    first.assert_outcomes(passed=3)
    second.assert_outcomes(passed=3)
    assert set(values(first)) == {"alpha", "beta", "direct"}
    assert values(first) == values(second)


def test_each_test_gets_its_own_seed(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(RANDOM_TESTS)
    seen = values(run(pytester, "--automock-seed=1234"))
    assert seen["alpha"] != seen["beta"]
    # the clock is frozen at the same instant for both
    assert seen["alpha"].split(", ")[-2:] == seen["beta"].split(", ")[-2:]
    expected = derive_seed(1234, "test_each_test_gets_its_own_seed.py::test_fixture_direct")
    assert seen["direct"].startswith(f"[{expected}, ")


def test_different_session_seeds_give_different_values(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(RANDOM_TESTS)
    a = values(run(pytester, "--automock-seed=1"))
    b = values(run(pytester, "--automock-seed=2"))
    assert a["alpha"] != b["alpha"] and a["beta"] != b["beta"]


def test_seed_in_header_and_last_replays_it(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(RANDOM_TESTS)
    first = run(pytester, "--automock-seed=random")
    match = re.search(
        r"automock: seed=(\d+) \(random\) \(replay with --automock-seed=(\d+)\)",
        first.stdout.str(),
    )
    assert match and match.group(1) == match.group(2)
    replay = run(pytester, "--automock-seed=last")
    replay.stdout.fnmatch_lines([f"automock: seed={match.group(1)} (last) (replay with*"])
    assert values(replay) == values(first)


def test_last_without_a_cache_uses_the_default_seed(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(RANDOM_TESTS)
    result = run(pytester, "--automock-seed=last", "-p", "no:cacheprovider")
    result.stdout.fnmatch_lines(
        ["automock: seed=0 (no previous seed in the cache; using the default)*"]
    )
    result.assert_outcomes(passed=3)


def test_bad_seed_option_is_a_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(RANDOM_TESTS)
    result = run(pytester, "--automock-seed=banana")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*--automock-seed: expected an integer, 'random' or 'last', got 'banana'*"]
    )


def test_marker_seed_and_instant(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import datetime, random
        import pytest

        @pytest.mark.automock(seed=42, at="2020-02-29T12:00:00Z")
        def test_pinned(automock):
            assert automock.seed == 42
            assert datetime.datetime.now(datetime.timezone.utc).isoformat().startswith("2020-02-29T12:00:00")
            print("VALUE pinned", random.random())
        """
    )
    a = values(run(pytester, "--automock-seed=1"))
    b = values(run(pytester, "--automock-seed=2"))
    assert a["pinned"] == b["pinned"]


def test_unplanned_request_fails_closed_with_the_fix_and_the_replay_command(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        test_net="""
        import pytest
        import requests

        @pytest.mark.automock
        def test_fetch():
            requests.get("http://127.0.0.1:9/forecast")
        """
    )
    result = run(pytester, "--automock-seed=99")
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "UnmockedAccessError" in out
    assert "GET http://127.0.0.1:9/forecast" in out
    result.stdout.fnmatch_lines(
        [
            "*- automock -*",
            "reproduce with: pytest 'test_net.py::test_fetch' --automock-seed=99",
            "test seed: *",
            "unmocked network: *GET http://127.0.0.1:9/forecast*stub_http*",
        ]
    )


def test_module_marker_and_parametrized_ids_in_the_replay_command(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        test_params="""
        import datetime
        import pytest

        pytestmark = pytest.mark.automock(at="2021-06-01T00:00:00Z")

        @pytest.mark.parametrize("label", ["it's", "ok"])
        def test_year(label):
            assert datetime.datetime.now().year == 2020, label
        """
    )
    result = run(pytester, "--automock-seed=4")
    result.assert_outcomes(failed=2)
    out = result.stdout.str()
    assert "assert 2021 == 2020" in out
    assert "reproduce with: pytest 'test_params.py::test_year[ok]' --automock-seed=4" in out
    assert (
        """reproduce with: pytest 'test_params.py::test_year[it'"'"'s]' --automock-seed=4""" in out
    )


def test_passing_tests_get_no_automock_section(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(RANDOM_TESTS)
    assert "reproduce with" not in run(pytester, "--automock-seed=3").stdout.str()


def test_stubs_from_a_plan_file_are_served(pytester: pytest.Pytester) -> None:
    plan = {
        "automock": 1,
        "entries": [
            {
                "line": 1,
                "col": 0,
                "kind": "network",
                "api": "requests.get",
                "strategy": "stub_http",
                "data": {
                    "method": "GET",
                    "url": "https://api.example.com/v1/",
                    "json": {"temp": 21.5},
                },
            }
        ],
    }
    fixtures = pytester.mkdir("fixtures")
    (fixtures / "weather.automock.json").write_text(json.dumps(plan), encoding="utf-8")
    pytester.makepyfile(
        test_weather="""
        import pytest
        import requests

        @pytest.mark.automock(plan="fixtures/weather.automock.json")
        def test_weather():
            body = requests.get("https://api.example.com/v1/today").json()
            assert body == {"temp": 21.5}
        """
    )
    run(pytester).assert_outcomes(passed=1)


def test_databases_from_a_plan_are_faked(pytester: pytest.Pytester) -> None:
    plan = {
        "automock": 1,
        "entries": [
            {
                "line": 1,
                "col": 0,
                "kind": "database",
                "api": "sqlite3.connect",
                "strategy": "sqlite_memory",
                "data": {
                    "engine": "sqlite",
                    "target": "ledger.db",
                    "schema": ["CREATE TABLE entries (amount INTEGER)"],
                    "rows": {"entries": [[5], [7]]},
                },
            }
        ],
    }
    (pytester.path / "ledger.automock.json").write_text(json.dumps(plan), encoding="utf-8")
    pytester.makepyfile(
        test_ledger="""
        import sqlite3
        import pytest

        @pytest.mark.automock(plan="ledger.automock.json")
        def test_total():
            con = sqlite3.connect("ledger.db")
            assert con.execute("select sum(amount) from entries").fetchone() == (12,)
            con.execute("insert into entries values (1)")
            con.commit()
        """
    )
    run(pytester).assert_outcomes(passed=1)
    assert not (pytester.path / "ledger.db").exists(), "the real database file was touched"


def test_missing_or_broken_plan_file_is_named(pytester: pytest.Pytester) -> None:
    pytester.makefile(".json", broken='{"automock": 1, "network": "sometimes"}')
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.automock(plan="fixtures/nope.automock.json")
        def test_missing():
            pass

        @pytest.mark.automock(plan="broken.json")
        def test_broken():
            pass
        """
    )
    result = run(pytester)
    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines(["*plan file 'fixtures/nope.automock.json' not found*"])
    result.stdout.fnmatch_lines(["*network*expected one of deny, allow*"])


def test_async_tests_run_under_the_runtime(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import asyncio, datetime, random, time
        import pytest

        @pytest.mark.asyncio
        @pytest.mark.automock
        async def test_sleepy():
            start = time.monotonic()
            await asyncio.sleep(30)  # virtual: returns at once, the clock moves
            elapsed = time.monotonic() - start
            assert 30 <= elapsed < 31
            print("VALUE sleepy", random.random(), datetime.datetime.now().year)
        """
    )
    first = run(pytester, "--automock-seed=8")
    first.assert_outcomes(passed=1)
    second = run(pytester, "--automock-seed=8")
    assert values(first)["sleepy"] == values(second)["sleepy"]
    assert values(first)["sleepy"].endswith(" 2024")


def test_narrow_fixtures(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import datetime, random
        import pytest
        import requests
        from automock.errors import UnmockedAccessError

        def test_clock(frozen_clock):
            assert datetime.datetime.now().isoformat().startswith("2024-01-01T00:00:00")

        @pytest.mark.automock(seed=5)
        def test_seeded_marker(seeded_random):
            print("VALUE marked", random.random())

        def test_seeded(seeded_random):
            print("VALUE seeded", random.random())

        def test_network(mocked_network):
            with pytest.raises(UnmockedAccessError, match="GET http://127.0.0.1:9/"):
                requests.get("http://127.0.0.1:9/")
        """
    )
    a = run(pytester, "--automock-seed=10")
    a.assert_outcomes(passed=4)
    b = run(pytester, "--automock-seed=10")
    assert values(a) == values(b)
    c = run(pytester, "--automock-seed=11")
    assert values(a)["seeded"] != values(c)["seeded"]
    assert values(a)["marked"] == values(c)["marked"]


def test_marker_rejects_unknown_keywords(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.automock(seeds=3)
        def test_typo():
            pass
        """
    )
    result = run(pytester)
    assert (
        "unknown @pytest.mark.automock keyword 'seeds'" in result.stdout.str() + result.stderr.str()
    )


def test_marker_is_registered(pytester: pytest.Pytester) -> None:
    result = run(pytester, "--markers")
    result.stdout.fnmatch_lines(
        ["@pytest.mark.automock(plan=None, seed=None, at=None, allow_hosts=())*"]
    )


def test_state_is_restored_after_the_test(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import datetime, random
        import pytest

        @pytest.mark.automock
        def test_inside():
            assert datetime.datetime.now().year == 2024

        def test_after():
            assert datetime.datetime.now().year >= 2025
            assert random.random() != random.random()
        """
    )
    run(pytester).assert_outcomes(passed=2)


DOC = Path(__file__).resolve().parents[2] / "docs" / "pytest.md"


def test_the_examples_in_docs_pytest_md_pass(pytester: pytest.Pytester) -> None:
    text = DOC.read_text(encoding="utf-8")
    (plan_json,) = re.findall(r"```json\n(.*?)```", text, flags=re.S)
    fixtures = pytester.mkdir("fixtures")
    (fixtures / "weather.automock.json").write_text(plan_json, encoding="utf-8")
    files = tests = 0
    for block in re.findall(r"```python\n(.*?)```", text, flags=re.S):
        name = re.match(r"# (test_\w+\.py)", block)
        assert name, f"each python example in {DOC.name} starts with '# test_<name>.py'"
        (pytester.path / name.group(1)).write_text(block, encoding="utf-8")
        files += 1
        tests += len(re.findall(r"^(?:async )?def test_", block, flags=re.M))
    result = run(pytester)
    outcomes = result.parseoutcomes()
    assert files >= 4 and tests >= 9
    assert outcomes == {"passed": tests}, result.stdout.str()


def test_an_entry_script_as_the_plan_serves_stubs_for_its_imported_modules(
    pytester: pytest.Pytester,
) -> None:
    pytester.mkpydir("weather")
    pytester.path.joinpath("weather", "api.py").write_text(
        "import requests\n\n\n"
        "def temperature(city):\n"
        '    url = "https://api.weather.example.com/v1/current"\n'
        '    return requests.get(url, params={"city": city}).json()["temp"]\n',
        encoding="utf-8",
    )
    pytester.makepyfile(
        report="from weather.api import temperature\n\nprint(temperature('Oslo'))\n",
        test_report="""
        import pytest

        from weather.api import temperature

        @pytest.mark.automock(plan="report.py")
        def test_temperature_comes_from_the_drafted_plan():
            first = temperature("Oslo")
            assert isinstance(first, float) and temperature("Oslo") == first
        """,
    )
    run(pytester).assert_outcomes(passed=1)
    assert not pytester.path.joinpath("fixtures").exists()  # drafted, not saved
