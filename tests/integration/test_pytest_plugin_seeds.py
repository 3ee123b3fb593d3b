"""The plugin's session seed: fixed by default, opt-in exploration, xdist workers, pytest-randomly.

Inner sessions (pytester) write what their tests draw to ``values/<name>.json`` next to the
test file, so the same check reads a plain session and an xdist one (whose workers' output
``-s`` does not show).
"""

from __future__ import annotations

import json
import re

import pytest

from automock.pytest_plugin import DEFAULT_SEED, derive_seed

pytest_plugins = ["pytester"]

pytest.importorskip("xdist")
pytest.importorskip("pytest_randomly")


@pytest.fixture(scope="module", autouse=True)
def _warm_modules() -> None:
    """Import what inner sessions would import once out here (see test_pytest_plugin.py)."""
    import numpy  # noqa: F401
    import requests  # noqa: F401

    from automock.plan.model import Plan
    from automock.runtime import deterministic

    with deterministic(Plan(), seed=0):
        pass


DRAWING_TESTS = """
import json, os, pathlib, random, uuid
import numpy as np
import pytest

OUT = pathlib.Path(__file__).parent / "values"

def record(name, payload):
    OUT.mkdir(exist_ok=True)
    (OUT / f"{name}.json").write_text(json.dumps(payload))

def _sample():
    return [random.random(), str(uuid.uuid4()), os.urandom(4).hex(), float(np.random.random())]

@pytest.fixture
def drawn(automock):
    before = random.random()
    yield before
    record("teardown", [random.random()])

@pytest.mark.automock
def test_marker():
    record("marker", _sample())

def test_fixture(automock):
    record("fixture", [automock.seed, *_sample()])

def test_setup_and_teardown(drawn):
    record("setup", [drawn, *_sample()])

def test_seeded_random(seeded_random):
    record("seeded", [seeded_random.seed, random.random(), str(uuid.uuid4())])

@pytest.mark.automock(seed=5)
def test_pinned():
    record("pinned", _sample())
"""
QUIET = ("-o", "asyncio_default_fixture_loop_scope=function")
NAMES = {"marker", "fixture", "setup", "teardown", "seeded", "pinned"}


def session(pytester: pytest.Pytester, *args: str, randomly: bool = False) -> pytest.RunResult:
    out = pytester.path / "values"
    for old in out.glob("*.json") if out.exists() else ():
        old.unlink()
    plugins = ["-p", "randomly"] if randomly else ["-p", "no:randomly"]
    result = pytester.runpytest(*QUIET, *plugins, *args)
    result.assert_outcomes(passed=5)
    return result


def drawn(pytester: pytest.Pytester) -> dict[str, object]:
    out = pytester.path / "values"
    found = {p.stem: json.loads(p.read_text()) for p in out.glob("*.json")}
    assert set(found) == NAMES
    return found


def header_seed(result: pytest.RunResult) -> int:
    match = re.search(r"^automock: seed=(\d+)", result.stdout.str(), re.MULTILINE)
    assert match, result.stdout.str()
    return int(match.group(1))


def test_no_flags_gives_the_same_values_in_every_session(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_draws=DRAWING_TESTS)
    first = session(pytester)
    a = drawn(pytester)
    session(pytester)
    assert drawn(pytester) == a
    assert header_seed(first) == DEFAULT_SEED == 0
    first.stdout.fnmatch_lines(["automock: seed=0 (replay with --automock-seed=0)"])
    assert a["fixture"][0] == derive_seed(0, "test_draws.py::test_fixture")
    assert a["marker"] != a["fixture"][1:]  # each test its own stream
    session(pytester, "--automock-seed=0")
    assert drawn(pytester) == a


def test_random_is_opt_in_and_printed_for_replay(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_draws=DRAWING_TESTS)
    session(pytester)
    default = drawn(pytester)
    explored = session(pytester, "--automock-seed=random")
    seed = header_seed(explored)
    explored.stdout.fnmatch_lines(
        [f"automock: seed={seed} (random) (replay with --automock-seed={seed})"]
    )
    values = drawn(pytester)
    assert values["fixture"] != default["fixture"] and values["pinned"] == default["pinned"]
    session(pytester, f"--automock-seed={seed}")
    assert drawn(pytester) == values
    session(pytester, "--automock-seed=last")
    assert drawn(pytester) == values


def test_xdist_workers_use_the_controllers_seed(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_draws=DRAWING_TESTS)
    session(pytester, "-n", "0")
    serial = drawn(pytester)
    session(pytester, "-n", "2")
    assert drawn(pytester) == serial
    explored = session(pytester, "-n", "2", "--automock-seed=random")
    seed = header_seed(explored)
    values = drawn(pytester)
    assert values["fixture"][0] == derive_seed(seed, "test_draws.py::test_fixture")
    assert values["seeded"][0] == derive_seed(seed, "test_draws.py::test_seeded_random")
    session(pytester, "-n", "0", f"--automock-seed={seed}")
    assert drawn(pytester) == values


@pytest.mark.parametrize("workers", ["0", "2"])
def test_automock_wins_over_pytest_randomly(pytester: pytest.Pytester, workers: str) -> None:
    pytester.makepyfile(test_draws=DRAWING_TESTS)
    session(pytester)
    without = drawn(pytester)
    for randomly_seed in ("1", "2"):
        result = session(pytester, "-n", workers, f"--randomly-seed={randomly_seed}", randomly=True)
        result.stdout.fnmatch_lines([f"Using --randomly-seed={randomly_seed}"])
        assert drawn(pytester) == without, randomly_seed


def test_pytest_randomly_still_seeds_tests_without_automock(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_plain="""
        import random

        def test_plain():
            print("VALUE", random.random())
        """
    )
    a = pytester.runpytest(*QUIET, "-p", "randomly", "-s", "--randomly-seed=3")
    b = pytester.runpytest(*QUIET, "-p", "randomly", "-s", "--randomly-seed=3")
    c = pytester.runpytest(*QUIET, "-p", "randomly", "-s", "--randomly-seed=4")

    def value(result: pytest.RunResult) -> str:
        return next(line for line in result.outlines if "VALUE" in line)

    assert value(a) == value(b) != value(c)
