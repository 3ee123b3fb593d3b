"""``automock check`` infers ``estimates`` from how an output converges (issue 30).

An output that changes with the seed, whose spread shrinks as its count of trials grows,
towards one value under every seed, is an estimate. When that value is a well-known
constant (here e, as the mean number of uniform draws whose sum passes 1), the estimate is
held to it; when it is none, the one constant the module's own words name is (a needle
drop "approximating pi" whose gap is doubled converges to 2 pi; of e and 1/e named, the
one within a factor of 2.5 of what the output converges to). A converging mean of dice
names no constant and is held to none."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SOURCE = '''
"""Needle drops approximating pi."""
import math
import random


def draws_past_one(trials=1000):
    total = 0
    for _ in range(trials):
        reached, count = 0.0, 0
        while reached < 1:
            reached += random.random()
            count += 1
        total += count
    return total / trials


def needles(throws, length=1.0, gap=1.0):
    crossed = 0
    for _ in range(throws):
        centre = random.uniform(0, gap)
        angle = random.uniform(0, math.pi / 2)
        if length / 2 * math.sin(angle) >= centre:
            crossed += 1
    return None if crossed == 0 else 2 * length * throws / (gap * crossed)
'''

HALVED = '''"""Euler's number from uniform draws; 36% is roughly 1/e."""
import random


def draws_past_one(trials=1000):
    total = 0
    for _ in range(trials):
        reached, count = 0.0, 0
        while reached < 1:
            reached += random.random() / 2
            count += 1
        total += count
    return total / trials
'''

DICE = """
import random


def mean_roll(rolls=500):
    return sum(random.randint(1, 6) for _ in range(rolls)) / rolls
"""


def _check(tmp_path: Path, source: str, function: str) -> tuple[int, dict[str, object]]:
    from automock.cli import main

    path = tmp_path / "estimators.py"
    path.write_text(source, encoding="utf-8")
    code = main(["check", f"{path}::{function}", "--examples", "20", "--runs", "300", "--json"])
    return code, {}


def _inferred(out: str) -> dict[str, object]:
    report = json.loads(out)
    return {p["property"]: p["options"] for p in report["properties"]}


def test_a_converging_mean_of_a_known_constant_is_held_to_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = _check(tmp_path, SOURCE, "draws_past_one")
    inferred = _inferred(capsys.readouterr().out)
    assert code == 0
    assert inferred["estimates"]["value"] == pytest.approx(2.718281828)  # type: ignore[index]


def test_a_biased_estimate_is_held_to_the_constant_its_module_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = _check(tmp_path, SOURCE, "needles")
    inferred = _inferred(capsys.readouterr().out)
    assert inferred["estimates"]["value"] == pytest.approx(3.14159265)  # type: ignore[index]
    assert code == 1


def test_a_converging_mean_of_no_named_constant_is_no_estimate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = _check(tmp_path, DICE, "mean_roll")
    assert code == 0
    assert "estimates" not in _inferred(capsys.readouterr().out)


def test_of_two_named_constants_the_one_near_the_estimate_is_held(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = _check(tmp_path, HALVED, "draws_past_one")
    inferred = _inferred(capsys.readouterr().out)
    assert inferred["estimates"]["value"] == pytest.approx(2.718281828)  # type: ignore[index]
    assert code == 1
