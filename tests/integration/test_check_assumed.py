"""``automock check`` keeps to what a docstring assumes of a number (issue 30): a function
documented for positive counts is not held to its properties on a negative one, where it
returns what nobody asked of it; an input inside what it assumes still catches its bug."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import check_json, written_module

SOURCE = '''
import random


def share_of_sixes(rolls):
    """Assumes rolls a positive int; the share of sixes in that many rolls of a die."""
    rolls = min(rolls, 500)
    sixes = 0
    for _ in range(rolls):
        if random.randint(1, 6) == 6:
            sixes += 1
    return sixes / rolls


def share_of_sixes_scaled(rolls):
    """Assumes rolls a positive int; the share of sixes in that many rolls of a die."""
    rolls = min(rolls, 500)
    sixes = 0
    for _ in range(rolls):
        if random.randint(1, 6) == 6:
            sixes += 1
    return sixes * 6 / rolls  # scaled by the die's sides: the share passes 1
'''


module = written_module("dice.py", SOURCE)


def _check(
    capsys: pytest.CaptureFixture[str], module: Path, function: str, *extra: str
) -> tuple[int, dict]:  # type: ignore[type-arg]
    return check_json(capsys, module, function, 40, *extra)


@pytest.mark.parametrize("seed", ["0", "1"])
def test_an_input_its_docstring_rules_out_is_no_failure(
    module: Path, capsys: pytest.CaptureFixture[str], seed: str
) -> None:
    code, report = _check(capsys, module, "share_of_sixes", "--seed", seed)
    assert code == 0, report["results"]


def test_a_stated_bound_still_catches_the_bug_inside_the_domain(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _check(
        capsys,
        module,
        "share_of_sixes_scaled",
        "-p",
        "bounds",
        "--option",
        "low=0",
        "--option",
        "high=1",
    )
    assert code == 1, report["results"]


IN_PLACE = '''
import random


def random_sampling(k, items):
    """Move a random sample of k items to the front of items, in place."""
    for i in range(min(k, len(items))):
        j = random.randint(i, len(items) - 1)
        items[i], items[j] = items[j], items[i]


def random_sampling_copying(k, items):
    for i in range(min(k, len(items))):
        j = random.randint(i, len(items) - 1)
        items[i] = items[j]  # copies instead of swapping: an item is lost
'''


def test_an_in_place_sampler_keeps_every_item_and_is_not_held_to_k(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "front.py"
    path.write_text(IN_PLACE, encoding="utf-8")
    code, report = _check(capsys, path, "random_sampling")
    assert code == 0, report["results"]
    code, report = _check(capsys, path, "random_sampling_copying")
    assert code == 1, report["results"]


STRETCH = '''
import random


def _split(xs, lo, hi, at):
    xs[at], xs[hi] = xs[hi], xs[at]
    edge = lo
    for i in range(lo, hi):
        if xs[i] < xs[hi]:
            xs[i], xs[edge] = xs[edge], xs[i]
            edge += 1
    xs[edge], xs[hi] = xs[hi], xs[edge]
    return edge


def select_between(lst, left, right, n):
    """The n-th smallest (0-based position n) of lst[left..right]."""
    while left != right:
        at = _split(lst, left, right, random.randint(left, right))
        if n == at:
            return lst[n]
        if n < at:
            right = at - 1
        else:
            left = at + 1
    return lst[left]
'''


def test_positions_that_happen_to_hold_the_items_are_not_their_bounds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "stretch.py"
    path.write_text(STRETCH, encoding="utf-8")
    code, report = _check(capsys, path, "select_between")
    assert code == 0, report["results"]


COUNTDOWN = """
import random
import string


def token(length: int):
    out = ""
    while length:
        out += random.choice(string.ascii_letters)
        length -= 1
    return out
"""


def test_a_count_a_loop_counts_down_to_zero_is_never_negative(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``while n: ... n -= 1`` never ends for a negative ``n``: that input is outside the
    function's domain (batch l's password generator), not a hang to report."""
    path = tmp_path / "tokens.py"
    path.write_text(COUNTDOWN, encoding="utf-8")
    code, report = _check(capsys, path, "token")
    assert code == 0, report["results"]
    assert "length" in {p["property"] for p in report["properties"]}
