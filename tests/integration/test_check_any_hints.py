"""``automock check`` on functions hinted with ``Any`` inside a container (``Iterable[Any]``,
``list[Any]``): Hypothesis has no strategy for ``Any`` itself, so such a hint was an internal
error; its elements are now drawn as an untyped generic's are (ints)."""

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
