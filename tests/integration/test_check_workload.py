"""A default that sets the function's own workload (issue 30).

``def estimate_pi(n_samples: int = 1_000_000)``, seen in a real repository, is called
thousands of times by a check: once per seeded run, many times while observing it. At
its default one check took twelve minutes. A count of trials or items above 1000 in a
default is now called as 1000, the report says so in ``notes``, and a biased estimator
with the same default still fails.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from tests.conftest import check_json, verdicts, written_module

SOURCE = '''
import random


def pi_by_darts(n_samples: int = 1_000_000) -> float:
    """Estimate pi from random points in the unit square."""
    hits = 0
    for _ in range(n_samples):
        if random.random() ** 2 + random.random() ** 2 <= 1:
            hits += 1
    return 4 * hits / n_samples


def pi_one_axis(n_samples: int = 1_000_000) -> float:
    """Estimate pi from random points in the unit square."""
    hits = 0
    for _ in range(n_samples):
        x = random.random()
        if x ** 2 + x ** 2 <= 1:
            hits += 1
    return 4 * hits / n_samples


def walk(steps=5, *, rounds=50_000):
    position = 0
    for _ in range(rounds):
        position += random.choice((-1, 1))
    return position
'''

module = written_module("darts.py", SOURCE)


@pytest.mark.parametrize(("function", "code"), [("pi_by_darts", 0), ("pi_one_axis", 1)])
def test_a_million_default_trials_are_called_as_a_thousand(
    module: Path, capsys: pytest.CaptureFixture[str], function: str, code: int
) -> None:
    got, report = check_json(capsys, module, function, 30)
    assert got == code, report
    assert "estimates" in verdicts(report), report
    assert verdicts(report)["estimates"] is (code == 0), report
    assert report["notes"] == [
        "n_samples=1000000 called as n_samples=1000: a count above 1000 in a default is "
        "taken for a workload, not a size the properties depend on"
    ]


def test_the_lighter_function_is_the_same_function_with_lower_defaults(module: Path) -> None:
    from automock.properties.workload import lightened

    namespace: dict[str, object] = {"__name__": "darts"}
    exec(compile(module.read_text(), str(module), "exec"), namespace)
    walk = namespace["walk"]
    light, notes = lightened(walk)  # type: ignore[arg-type]
    assert light is not walk
    assert [n.split(" ")[0] for n in notes] == ["rounds=50000"]
    assert inspect.signature(light).parameters["rounds"].default == 1000
    assert inspect.signature(light).parameters["steps"].default == 5  # no workload: as written
    assert inspect.getsource(light) == inspect.getsource(walk)  # type: ignore[arg-type]
    assert light.__globals__ is namespace  # type: ignore[attr-defined]
    assert lightened(light)[1] == ()  # already light: nothing more to lower
    assert lightened(print) == (print, ())  # no Python function: as it is
