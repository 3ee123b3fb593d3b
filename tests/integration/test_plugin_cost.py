"""What automock costs where it is installed but not used (issue 26).

pytest loads the plugin in every session of a venv with automock in it, and tools such as
freezegun walk the attributes of every loaded module. Neither may pull in automock's heavy
parts (the scanner and libcst, hypothesis, anthropic, the sandbox). Checked in fresh
interpreters, from what ``sys.modules`` holds afterwards.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

pytest_plugins = ["pytester"]

HEAVY = (
    "libcst",
    "hypothesis",
    "anthropic",
    "automock.analysis",
    "automock.drafting",
    "automock.properties",
    "automock.sandbox",
    "automock.pipeline",
)


def _loaded_after(code: str) -> list[str]:
    probe = code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return [m for m in json.loads(done.stdout.splitlines()[-1]) if m.startswith(HEAVY)]


def test_enumerating_the_package_imports_nothing_heavy() -> None:
    assert (
        _loaded_after(
            "import automock\n"
            "for name in dir(automock):\n"
            "    getattr(automock, name)\n"
            "vars(automock)\n"
        )
        == []
    )


def test_enumerating_the_plugin_and_the_runtime_imports_nothing_heavy() -> None:
    assert (
        _loaded_after(
            "import automock.pytest_plugin, automock.runtime, automock.runtime.clock\n"
            "import automock.runtime.http_stubs\n"
            "for module in (automock.pytest_plugin, automock.runtime, automock.runtime.clock,\n"
            "               automock.runtime.http_stubs, automock):\n"
            "    for name in dir(module):\n"
            "        getattr(module, name)\n"
        )
        == []
    )


def test_the_whole_api_stays_reachable_by_name() -> None:
    import automock

    for name in automock.__all__:
        assert getattr(automock, name) is not None
    assert set(automock.__all__) <= set(dir(automock))  # all loaded now, so all listed


def test_a_freezegun_session_does_not_load_automocks_heavy_parts(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        test_freeze=textwrap.dedent(
            f"""
            import datetime
            import sys

            import freezegun

            HEAVY = {HEAVY!r}


            def test_frozen():
                assert "automock.pytest_plugin" in sys.modules  # the plugin is loaded
                with freezegun.freeze_time("2024-01-01"):
                    assert datetime.date.today() == datetime.date(2024, 1, 1)
                with freezegun.freeze_time("2025-01-01"):  # walks the modules again
                    pass
                assert [m for m in sys.modules if m.startswith(HEAVY)] == []
            """
        )
    )
    result = pytester.runpytest_subprocess("-p", "no:randomly", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
