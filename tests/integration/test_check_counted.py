"""``automock check`` on outputs whose length a count parameter gives (issue 30).

``rolls(count)`` returns ``count`` draws: ``length`` is inferred and holds. The same
generator looping ``range(count - 1)`` drops one draw on every call; it passed every
check inferred before (its values stay in bounds). A fence of ``gaps`` gaps has
``gaps + 1`` posts: one past a count is not taken for a missing item. But one past a
parameter named for the output's size (a token of ``length`` characters, built over
``range(length + 1)``) is one too many, unless the function is a walk (a walk of
``length`` steps visits ``length + 1`` places) that starts at one place: a series of coin
flips one too long (batch r) starts anywhere, and fails."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import written_module

SOURCE = """
import random


def rolls(count):
    return [random.randint(1, 6) for _ in range(count)]


def rolls_short(count):
    return [random.randint(1, 6) for _ in range(count - 1)]


def fence(gaps):
    return [random.choice("ab") for _ in range(gaps + 1)]  # a post at both ends of each gap


def token(length):
    return "".join(random.choice("abcdef") for _ in range(length + 1))


def random_walk(length):
    places = [0]
    for _ in range(length):
        places.append(places[-1] + random.choice((-1, 1)))
    return places


def combo_one_short(pool, r):
    chosen = sorted(random.sample(range(len(pool)), r))
    return tuple(pool[i] for i in chosen[1:])


def series_of_tosses(n):
    return [random.choice("HT") for _ in range(n + 1)]
"""


module = written_module("counted.py", SOURCE)


def _check(capsys: pytest.CaptureFixture[str], module: Path, function: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    from automock.cli import main

    code = main(["check", f"{module}::{function}", "--examples", "30", "--json"])
    return code, json.loads(capsys.readouterr().out)


def _names(report: dict) -> set[str]:  # type: ignore[type-arg]
    return {p["property"] for p in report["properties"]}


def test_a_list_of_count_draws_has_count_items(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _check(capsys, module, "rolls")
    assert "length" in _names(report)
    assert code == 0, report["results"]


def test_a_generator_one_item_short_of_its_count_fails(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _check(capsys, module, "rolls_short")
    assert "length" in _names(report)
    assert code == 1, report["results"]
    assert "expected 1 items, got 0" in json.dumps(report["results"])


def test_one_item_past_a_count_is_no_missing_item(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from automock.cli import main

    code = main(["check", f"{module}::fence", "--examples", "30", "--json"])
    assert code == 2  # nothing held that a check could hold it to, a length least of all
    assert "no property is known for fence()" in capsys.readouterr().err


def test_one_item_past_a_size_named_parameter_is_one_too_many(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _check(capsys, module, "token")
    assert "length" in _names(report)
    assert code == 1, report["results"]
    assert "one is too many" in json.dumps(report["properties"])


def test_a_walk_visits_one_place_more_than_its_length(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, report = _check(capsys, module, "random_walk")
    assert "length" not in _names(report)


def test_a_series_that_starts_anywhere_is_no_walk(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _check(capsys, module, "series_of_tosses")
    assert "length" in _names(report)
    assert code == 1, report["results"]
    assert "one is too many" in json.dumps(report["properties"])


def test_an_r_length_draw_one_item_short_fails(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``r``, as itertools names a combination's length (batch s's ``rando(it, r)``)."""
    code, report = _check(capsys, module, "combo_one_short")
    assert "length" in _names(report)
    assert code == 1, report["results"]
    assert "one is missing" in json.dumps(report["properties"])
