"""``automock check`` on shuffles of a string (issue 30, batch r): ``shuffle_string(word)``
returns the word's letters rearranged. Its fairness is inferred and checked on a string of
distinct letters; before, nothing proposed it, and ``--property uniform`` handed the
function a list of ints (a correct shuffle failed with a TypeError) and read each string
as one pick."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import check_json, written_module

SOURCE = """
import random


def shuffle_word(word):
    letters = list(word)
    for i in range(len(letters) - 1, 0, -1):
        j = random.randint(0, i)
        letters[i], letters[j] = letters[j], letters[i]
    return "".join(letters)


def shuffle_word_naive(word):
    letters = list(word)
    for i in range(len(letters)):
        j = random.randint(0, len(letters) - 1)
        letters[i], letters[j] = letters[j], letters[i]
    return "".join(letters)


def scramble_inside(word):
    if len(word) < 4:
        return word
    inside = list(word[1:-1])
    random.shuffle(inside)
    return word[0] + "".join(inside) + word[-1]
"""


module = written_module("words.py", SOURCE)


def _text_uniform(report: dict) -> list[dict]:  # type: ignore[type-arg]
    return [p for p in report["properties"] if p["property"] == "uniform"]


def test_a_string_shuffle_is_checked_for_fairness(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = check_json(capsys, module, "shuffle_word", 40)
    fair = _text_uniform(report)
    assert [p["options"].get("text") for p in fair] == [True], report["properties"]
    assert code == 0, report["results"]


def test_a_biased_string_shuffle_fails(module: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, report = check_json(capsys, module, "shuffle_word_naive", 40)
    assert _text_uniform(report), report["properties"]
    assert code == 1, report["results"]
    assert any(r["name"] == "uniform" and not r["passed"] for r in report["results"])


@pytest.mark.parametrize(("function", "code"), [("shuffle_word", 0), ("shuffle_word_naive", 1)])
def test_uniform_given_reads_a_string_shuffle_as_a_shuffle(
    module: Path, capsys: pytest.CaptureFixture[str], function: str, code: int
) -> None:
    got, report = check_json(capsys, module, function, 40, "--property", "uniform")
    assert got == code, report["results"]
    assert "TypeError" not in str(report["results"])


def test_a_word_scrambled_inside_its_first_and_last_letters_is_no_shuffle(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two letters always in place: it does not mix like a shuffle, and is not held to one."""
    _, report = check_json(capsys, module, "scramble_inside", 40)
    assert _text_uniform(report) == [], report["properties"]
