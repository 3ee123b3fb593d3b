"""Bugs consistent with themselves that a function's name or parameters give away (issue 30).

Each function below draws the same way on every call, so behaviour alone shows nothing
wrong; what it is called says what it should do:

* ``rselect`` is a randomized select (``quickselect`` spelled short): held to the k-th
  smallest element even where most calls, not all, gave it;
* ``randperm(n)`` and ``random_subset(n, k)`` make a permutation or subset: each item once;
  a count ``k`` the output misses by one on every call is one missing;
* ``sample_without_replacement`` says it does not put items back: ``sample``; so does a
  ``random_combination`` of a list (batch r), unless it says "with replacement";
* ``p1``, ``p2`` are a crossover's parents: the child has their length;
* weights called ``probabilities`` sum to 1: the weighted check passes them so.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import check_json, verdicts, written_module

SOURCE = """
import bisect
import itertools
import random


def rselect(numbers, i):
    numbers = list(numbers)
    return _select(numbers, 0, len(numbers) - 1, i)


def rselect_short(numbers, i):
    numbers = list(numbers)
    return _select(numbers, 0, len(numbers) - 2, i)


def _select(numbers, left, right, i):
    if left >= right:
        return numbers[right]
    pivot = random.randint(left, right)
    numbers[left], numbers[pivot] = numbers[pivot], numbers[left]
    edge = left + 1
    for j in range(left + 1, right + 1):
        if numbers[j] < numbers[left]:
            numbers[edge], numbers[j] = numbers[j], numbers[edge]
            edge += 1
    numbers[left], numbers[edge - 1] = numbers[edge - 1], numbers[left]
    if edge - 1 == i:
        return numbers[i]
    if edge - 1 > i:
        return _select(numbers, left, edge - 2, i)
    return _select(numbers, edge, right, i)


def randperm(n):
    out = list(range(n))
    for i in range(n - 1, 0, -1):
        j = random.randint(0, i)
        out[i], out[j] = out[j], out[i]
    return out


def randperm_repeats(n):
    return [random.randrange(n) for _ in range(n)]


def random_subset(n, k):
    pool = list(range(n))
    for i in range(k):
        j = random.randrange(i, n)
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:k]


def random_subset_short(n, k):
    pool = list(range(n))
    for i in range(k):
        j = random.randrange(i, n)
        pool[i], pool[j] = pool[j], pool[i]
    return pool[: k - 1]


def sample_without_replacement(items, amount):
    return [random.choice(items) for _ in range(amount)]


def random_combination(items, r):
    chosen = sorted(random.sample(range(len(items)), r))
    return tuple(items[i] for i in chosen)


def random_combination_puts_back(items, r):
    chosen = sorted(random.choices(range(len(items)), k=r))
    return tuple(items[i] for i in chosen)


def random_combination_with_replacement(items, r):
    chosen = sorted(random.choices(range(len(items)), k=r))
    return tuple(items[i] for i in chosen)


def crossover(p1, p2):
    a, b = sorted(random.sample(range(len(p1)), 2))
    middle = p1[a : b + 1]
    rest = [gene for gene in p2 if gene not in middle]
    return rest[:a] + middle + rest[a:]


def crossover_loses_one(p1, p2):
    a, b = sorted(random.sample(range(len(p1)), 2))
    middle = p1[a : b + 1]
    rest = [gene for gene in p2 if gene not in middle]
    return rest[:a] + middle + rest[a + 1 :]


def pick(values, probabilities):
    sums = list(itertools.accumulate(probabilities))
    return values[bisect.bisect(sums, random.random())]


def pick_one_early(values, probabilities):
    sums = list(itertools.accumulate(probabilities))
    return values[bisect.bisect(sums, random.random()) - 1]
"""

module = written_module("named.py", SOURCE)


@pytest.mark.parametrize(
    ("function", "code", "failing"),
    [
        ("rselect", 0, None),
        ("rselect_short", 1, "order_statistic"),
        ("randperm", 0, None),
        ("randperm_repeats", 1, "unique"),
        ("random_subset", 0, None),
        ("random_subset_short", 1, "length"),
        ("sample_without_replacement", 1, "sample"),
        ("random_combination", 0, None),
        ("random_combination_puts_back", 1, "sample"),
        ("random_combination_with_replacement", 0, None),
        ("crossover", 0, None),
        ("crossover_loses_one", 1, "length"),
        ("pick", 0, None),
        ("pick_one_early", 1, "proportional"),
    ],
)
def test_what_a_function_is_called_decides_what_it_is_held_to(
    module: Path, capsys: pytest.CaptureFixture[str], function: str, code: int, failing: str
) -> None:
    got, report = check_json(capsys, module, function, 60)
    assert got == code, report
    if failing is not None:
        assert verdicts(report).get(failing) is False, report
