"""``automock check`` holds a string built to a count to that many characters (issue 30).

A password or token generator ``make(length)`` returns a string, not a list: the
``length`` check used to refuse any string ("expected a sequence"), so even the correct
generator failed when the property was given, and inference never proposed it. A string
counts its characters now: the correct generator passes, one a character short fails."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import check_json

SOURCE = """
import random
import string

ALPHABET = string.ascii_letters + string.digits


def token(length):
    return "".join(random.choice(ALPHABET) for _ in range(length))


def token_short(length):
    return "".join(random.choice(ALPHABET) for _ in range(length - 1))
"""


@pytest.mark.parametrize(("function", "expected"), [("token", 0), ("token_short", 1)])
def test_a_string_of_a_count_is_held_to_that_many_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], function: str, expected: int
) -> None:
    path = tmp_path / "tokens.py"
    path.write_text(SOURCE, encoding="utf-8")
    code, report = check_json(capsys, path, function, 40, "--runs", "200")
    assert code == expected, report["results"]
    assert {"property": "length", "n": "length"} in [
        {"property": p["property"], "n": p["options"].get("n")} for p in report["properties"]
    ]


def test_a_given_length_counts_a_strings_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "tokens.py"
    path.write_text(SOURCE, encoding="utf-8")
    flags = ("--property", "length", "--option", "n=length")
    code, report = check_json(capsys, path, "token", 30, *flags)
    assert code == 0, report["results"]
