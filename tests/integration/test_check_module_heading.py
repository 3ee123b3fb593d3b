"""``automock check`` reads a lone function's module heading as its doc (issue 30).

A module that defines one function and opens with a comment saying what it draws
("six distinct numbers") states that function's promise: a draw with replacement there
(``random.choices`` for ``random.sample``) is held to ``unique`` and fails; behaviour alone,
with its repeats, proposed only bounds. The same comment in a module of two
functions says nothing about either."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SOURCE = """# Draw six distinct whole numbers from 1 to 49

import random


def numbers():
    return random.choices(range(1, 50), k=6)
"""

SECOND = """

def other(n):
    return n
"""


@pytest.mark.parametrize(("extra", "expected"), [("", 1), (SECOND, 0)])
def test_a_lone_functions_heading_is_its_doc(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: str, expected: int
) -> None:
    from automock.cli import main

    path = tmp_path / "draws.py"
    path.write_text(SOURCE + extra, encoding="utf-8")
    code = main(["check", f"{path}::numbers", "--runs", "200", "--json"])
    report = json.loads(capsys.readouterr().out)
    inferred = {p["property"] for p in report["properties"]}
    assert code == expected, report["results"]
    assert ("unique" in inferred) == (not extra)
