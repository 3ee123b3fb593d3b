"""``automock check`` infers what to check from observed behaviour (issue 30)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from automock.cli import main

SOURCE = """
import random


def fisher_yates(deck):
    for i in range(len(deck) - 1, 0, -1):
        j = random.randint(0, i)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def naive(deck):
    n = len(deck)
    for i in range(n):
        j = random.randint(0, n - 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def mix(deck):
    random.shuffle(deck)


def deal(pool, k):
    if k < 0:
        raise ValueError("k must not be negative")
    return random.sample(pool, min(k, len(pool)))


def between(low, high):
    return random.randint(low, high)


def lotto():
    return sorted(random.sample(range(1, 50), 6))


def total(xs):
    return sum(xs)
"""


@pytest.fixture
def cards(tmp_path: Path) -> Path:
    path = tmp_path / "cards.py"
    path.write_text(SOURCE, encoding="utf-8")
    return path


def _inferred(report: dict) -> dict[str, dict]:  # type: ignore[type-arg]
    return {p["property"]: p for p in report["properties"] if p["source"] == "inferred"}


@pytest.mark.parametrize(
    ("function", "expected"),
    [
        ("fisher_yates", {"permutation", "uniform"}),
        ("mix", {"permutation", "uniform"}),
        ("deal", {"sample", "uniform"}),  # a fair draw: each element as often
        ("between", {"bounds"}),
        ("lotto", {"sorted", "unique", "bounds"}),
    ],
)
def test_correct_functions_get_their_properties_and_pass(
    cards: Path, capsys: pytest.CaptureFixture[str], function: str, expected: set[str]
) -> None:
    argv = ["check", f"{cards}::{function}", "--runs", "800", "--examples", "40", "--json"]
    code = main(argv)
    report = json.loads(capsys.readouterr().out)
    assert set(_inferred(report)) == expected
    assert all("seeds" in p["evidence"] for p in _inferred(report).values())
    assert code == 0, report["results"]


def test_parameter_relative_bounds_are_named(
    cards: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["check", f"{cards}::between", "--examples", "30", "--json"])
    options = _inferred(json.loads(capsys.readouterr().out))["bounds"]["options"]
    assert options == {"low": "low", "high": "high"}


def test_file_alone_checks_the_seed_dependent_functions(
    cards: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["check", str(cards), "--runs", "800", "--examples", "30", "--json"])
    reports = {r["function"]: r for r in json.loads(capsys.readouterr().out)}
    assert "total" not in reports
    assert {"fisher_yates", "naive", "mix", "deal", "between", "lotto"} <= set(reports)
    assert code == 1
    failed = {name for name, r in reports.items() if not r["passed"]}
    assert failed == {"naive"}
    (uniform,) = [r for r in reports["naive"]["results"] if r["name"] == "uniform"]
    assert uniform["passed"] is False and "not uniform" in uniform["detail"]


def test_a_file_with_nothing_random_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "plain.py"
    path.write_text("def total(xs):\n    return sum(xs)\n", encoding="utf-8")
    code = main(["check", str(path)])
    err = capsys.readouterr().err
    assert code == 2 and "depends on the seed" in err and "Traceback" not in err


BOGO = """
import random


def bogo(xs):
    while any(a > b for a, b in zip(xs, xs[1:])):
        random.shuffle(xs)
    return xs
"""


def test_a_costly_function_is_searched_on_inputs_as_small_as_observed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bogo.py"
    path.write_text(BOGO, encoding="utf-8")
    code = main(["check", f"{path}::bogo", "--call-timeout", "2", "--examples", "30", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert {r["verdict"] for r in report["results"]} == {"pass"}, report["results"]
    assert code == 0
    assert all(p["options"]["max_size"] == 8 for p in _inferred(report).values())


PICKS = """
import random


def pick_in_list(items):
    return [items[int(random.random() * len(items))]]


def pick_in_list_off(items):
    return [items[int(random.random() * (len(items) - 1))]]  # never the last


def by_weight(items, weights):
    return random.choices(items, weights)[0]


def by_weight_off(items, weights):
    total, x = sum(weights), random.random() / 2  # never the upper half of the weight
    for item, weight in zip(items, weights):
        x -= weight / total
        if x < 0:
            return item
    return items[-1]


def in_list_by_weight_off(items, weights=None):
    if weights is None:
        return [random.choice(items)]
    return [random.choices(items[:-1], weights[:-1])[0]]  # the last never picked
"""


@pytest.mark.parametrize(
    ("function", "fair"), [("pick_in_list", True), ("pick_in_list_off", False)]
)
def test_a_choice_handed_back_in_a_list_is_checked_for_fairness(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], function: str, fair: bool
) -> None:
    path = tmp_path / "picks.py"
    path.write_text(PICKS, encoding="utf-8")
    code = main(["check", f"{path}::{function}", "--runs", "800", "--examples", "30", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert set(_inferred(report)) == {"subset", "uniform"}
    (uniform,) = [r for r in report["results"] if r["name"] == "uniform"]
    assert uniform["passed"] is fair, uniform
    assert code == (0 if fair else 1)


@pytest.mark.parametrize(
    ("function", "fair"),
    [("by_weight", True), ("by_weight_off", False), ("in_list_by_weight_off", False)],
)
def test_a_pick_given_weights_is_checked_for_picking_by_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], function: str, fair: bool
) -> None:
    path = tmp_path / "picks.py"
    path.write_text(PICKS, encoding="utf-8")
    code = main(["check", f"{path}::{function}", "--runs", "800", "--examples", "30", "--json"])
    report = json.loads(capsys.readouterr().out)
    (weighted,) = [p for p in report["properties"] if p["property"] == "proportional"]
    assert "'weights' holds the weights" in weighted["evidence"]
    (result,) = [r for r in report["results"] if r["name"] == "proportional"]
    assert result["passed"] is fair, result
    assert code == (0 if fair else 1)
