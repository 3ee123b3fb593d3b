"""``automock check`` holds a function to what its docstring and names state (issue 30)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from automock.cli import main
from tests.conftest import written_module

SOURCE = '''
import random


def roll(count, num_sides):
    return [random.randint(1, num_sides + 1) for _ in range(count)]


def roll_ok(count, num_sides):
    return [random.randint(1, num_sides) for _ in range(count)]


def roll_zero_based(count, num_sides):
    return [random.randrange(num_sides) for _ in range(count)]


def totals(count, sides):
    return [random.randint(1, sides) + random.randint(1, sides) for _ in range(count)]


def level(top):
    """A level between 1 and top."""
    return random.randint(1, top + 1)


def level_quoted(top):
    """A level between ``1`` and `top`."""
    return random.randint(1, top + 1)


def level_quoted_ok(top):
    """A level between ``1`` and `top`."""
    return random.randint(1, top)


def key(size):
    """Return a random permutation of the digits below size."""
    return random.choices(list(range(size)), k=size)


def key_ok(size):
    """Return a random permutation of the digits below size."""
    digits = list(range(size))
    random.shuffle(digits)
    return digits


def rolls_of_a_d(count, dice):
    return [random.randint(1, dice + 1) for _ in range(count)]


def rolls_of_a_d_ok(count, dice):
    return [random.randint(1, dice) for _ in range(count)]


def dice_total(dice):
    return sum(random.randint(1, 6) for _ in range(dice))


def throw(n, d):
    """Throw `n` dice, each having `d` sides."""
    return [random.randint(0, d) for _ in range(n)]


def throw_ok(n, d):
    """Throw `n` dice, each having `d` sides."""
    return [random.randint(1, d) for _ in range(n)]


def throw_total(n, d):
    """The total of `n` dice, each having `d` sides."""
    return sum(random.randint(1, d) for _ in range(n))


def seeded_shuffle(deck, seed):
    rng = random.Random(seed)
    rng.shuffle(deck)


def swap_mutation(ind, rate):
    if random.random() < rate:
        i, j = random.sample(range(len(ind)), 2)
        ind[i] = ind[j]
    return ind
'''


module = written_module("stated.py", SOURCE)


def _check(
    module: Path, function: str, capsys: pytest.CaptureFixture[str], examples: int = 30
) -> tuple[int, dict]:  # type: ignore[type-arg]
    code = main(["check", f"{module}::{function}", "--examples", str(examples), "--json"])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    "function",
    ["roll", "level", "level_quoted", "key", "swap_mutation", "rolls_of_a_d", "throw"],
)
def test_a_bug_that_breaks_what_the_function_states_is_caught(
    module: Path, capsys: pytest.CaptureFixture[str], function: str
) -> None:
    code, report = _check(module, function, capsys)
    assert code == 1, report["properties"]
    assert not report["passed"]


@pytest.mark.parametrize(
    "function",
    # seeded_shuffle is decided by its seed: no fairness over runs of the list alone
    [
        "roll_ok",
        "level_quoted_ok",
        "roll_zero_based",
        "totals",
        "key_ok",
        "rolls_of_a_d_ok",
        "dice_total",
        "seeded_shuffle",
        "throw_ok",
        "throw_total",
    ],
)
def test_correct_code_or_words_about_something_else_raise_no_alarm(
    module: Path, capsys: pytest.CaptureFixture[str], function: str
) -> None:
    code, report = _check(module, function, capsys)
    assert code == 0, report["results"]


def test_the_evidence_names_the_words(module: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, report = _check(module, "level", capsys)
    (bounds,) = [p for p in report["properties"] if p["property"] == "bounds"]
    assert bounds["source"] == "stated"
    assert bounds["evidence"] == "docstring: 'between 1 and top'"
    assert bounds["options"] == {"low": 1, "high": "top"}


SAMPLERS = """
import random


def reservoir_sampling(arr, k):
    sample = [arr[i] for i in range(k)]
    for i in range(k - 1, len(arr)):  # one too early: arr[k - 1] may be kept twice
        j = random.randint(0, i)
        if j < k:
            sample[j] = arr[i]
    return sample


def thin_sampling(arr, k):
    n = len(arr)
    sample = []
    for el in arr:
        if random.random() < k / n:
            sample.append(el)
            k -= 1
    return sample


def bootstrap_sampling(arr, k):
    return random.choices(arr, k=k)
"""


@pytest.mark.parametrize(
    ("function", "code"),
    [("reservoir_sampling", 1), ("thin_sampling", 1), ("bootstrap_sampling", 0)],
)
def test_a_sampling_name_with_an_untyped_k_is_checked_as_a_draw_of_k(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], function: str, code: int
) -> None:
    path = tmp_path / "samplers.py"
    path.write_text(SAMPLERS, encoding="utf-8")
    got, report = _check(path, function, capsys, examples=200)
    assert got == code, report["results"]


DEFAULTS = """
import random


def roll(num_dice=1, num_sides=6):
    return [random.randint(1, num_sides + 1) for _ in range(num_dice)]
"""


def test_a_die_left_at_its_default_faces_is_held_to_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "defaults.py"
    path.write_text(DEFAULTS, encoding="utf-8")
    code, report = _check(path, "roll", capsys)
    assert code == 1, report["results"]


RANGES = """
import random


def between(low, high):
    return random.randint(low, high + 1)


def below(low, high):
    return random.randrange(low, high)


def grid(rows, random_from=1, random_to=9):
    return [[random.randint(random_from, random_to) for _ in range(rows)] for _ in range(rows)]


def grid_past(rows, random_from=1, random_to=9):
    return [[random.randint(random_from, random_to + 1) for _ in range(rows)] for _ in range(rows)]
"""


@pytest.mark.parametrize(("function", "code"), [("between", 1), ("below", 0)])
def test_low_and_high_parameters_state_an_inclusive_range(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], function: str, code: int
) -> None:
    path = tmp_path / "ranges.py"
    path.write_text(RANGES, encoding="utf-8")
    got, report = _check(path, function, capsys)
    assert got == code, report["results"]
    (bounds,) = [p for p in report["properties"] if p["property"] == "bounds"]
    assert bounds["options"] == {"low": "low", "high": "high"}
    assert bounds["source"] == ("stated" if code else "inferred")  # the words, where needed


def test_words_the_tests_contradict_are_not_checked(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tests = module.parent / "test_stated.py"
    tests.write_text("def test_level():\n    assert level(5) == 6\n", encoding="utf-8")
    main(["check", f"{module}::level", "--examples", "30", "--tests", str(tests), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert not [p for p in report["properties"] if p["source"] == "stated"]
    assert any("contradicted by the tests" in s for s in report["skipped"]), report


@pytest.mark.parametrize(("function", "code"), [("grid", 0), ("grid_past", 1)])
def test_from_and_to_parameters_state_a_range_at_their_defaults(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], function: str, code: int
) -> None:
    """``random_from=1, random_to=9`` (batch t's matrix) name a range as low/high do."""
    path = tmp_path / "ranges.py"
    path.write_text(RANGES, encoding="utf-8")
    got, report = _check(path, function, capsys, examples=15)
    bounds = [p["options"] for p in report["properties"] if p["property"] == "bounds"]
    assert {"low": "random_from", "high": "random_to"} in bounds, report["properties"]
    assert got == code, report["results"]
