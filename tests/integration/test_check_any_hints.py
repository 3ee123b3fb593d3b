"""``automock check`` on hints Hypothesis cannot draw from.

* ``Any`` inside a container (``Iterable[Any]``, ``list[Any]``): Hypothesis has no strategy
  for ``Any`` itself, so such a hint was an internal error; its elements are now drawn as an
  untyped generic's are (ints).
* An annotation that is no type (``def bogo_sort(arr: [])``, seen in a real repository):
  ``from_type([])`` raised ``InvalidArgument`` as an internal error, with a property given
  or inferred. It is now read as no annotation, and the function is checked from its
  parameters' names and use.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SOURCE = """
import random
from typing import Any, Iterable


def keep_some(stream: Iterable[Any], k: int) -> list[Any]:
    kept: list[Any] = []
    for seen, item in enumerate(stream):
        if seen < k:
            kept.append(item)
        elif (slot := random.randint(0, seen)) < k:
            kept[slot] = item
    return kept


def mix(items: list[Any]) -> list[Any]:
    items = list(items)
    random.shuffle(items)
    return items
"""


@pytest.mark.parametrize("function", ["keep_some", "mix"])
def test_a_container_of_any_is_checked_not_an_internal_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], function: str
) -> None:
    from automock.cli import main

    path = tmp_path / "anything.py"
    path.write_text(SOURCE, encoding="utf-8")
    code = main(["check", f"{path}::{function}", "--examples", "30", "--json"])
    captured = capsys.readouterr()
    assert "internal error" not in captured.err, captured.err
    assert code == 0, captured.out
    assert json.loads(captured.out)["results"], captured.out


NOT_TYPES = """
import random


def mix(arr: []) -> []:
    arr = list(arr)
    for i in range(len(arr) - 1, 0, -1):
        j = random.randint(0, i)
        arr[i], arr[j] = arr[j], arr[i]
    return arr


def mix_any_index(arr: []) -> []:
    arr = list(arr)
    for i in range(len(arr)):
        j = random.randint(0, len(arr) - 1)
        arr[i], arr[j] = arr[j], arr[i]
    return arr


def roll(sides: 6):
    return random.randint(1, sides)
"""


@pytest.mark.parametrize(
    ("function", "flags", "code"),
    [
        ("mix", (), 0),
        ("mix", ("--property", "permutation"), 0),
        ("mix_any_index", (), 1),
        ("mix_any_index", ("--property", "uniform"), 1),
        ("roll", ("--property", "bounds", "--option", "low=1", "--option", "high=sides"), 0),
    ],
)
def test_an_annotation_that_is_no_type_is_read_as_none(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    function: str,
    flags: tuple[str, ...],
    code: int,
) -> None:
    from automock.cli import main

    path = tmp_path / "literal_hints.py"
    path.write_text(NOT_TYPES, encoding="utf-8")
    got = main(["check", f"{path}::{function}", "--examples", "30", *flags, "--json"])
    captured = capsys.readouterr()
    assert "internal error" not in captured.err, captured.err
    report = json.loads(captured.out)
    assert got == code, captured.out
    assert report["results"], captured.out
