"""Two defects a function shows on every call, which inference took for its nature (issue 30).

* Each item drawn twice in a row (``choice(alphabet) * 2 for _ in range(length)``): the
  output is always ``2 * length`` long and consistent with itself. Twice a count, every
  pair the same item, is no draw of ``length`` items: ``length`` is proposed and fails.
* ``roll = roll.randint(1, 6)`` (or ``roll: int = ...``): the loop reads ``roll`` in its
  own first assignment, and every call that rolls raises ``UnboundLocalError``. An error an
  input raises under every seed had been taken for a limit of the domain; one raised by a
  statement that assigns the name it reads is a defect, while ``return last`` after a loop
  over nothing is still a limit, even where ``last = last + 1`` follows the loop that binds it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import check_json, verdicts, written_module

SOURCE = """
import random
import string

ALPHABET = string.ascii_letters + string.digits


def password(length=12):
    return "".join(random.choice(ALPHABET) for _ in range(length))


def password_doubled(length=12):
    return "".join(random.choice(ALPHABET) * 2 for _ in range(length))


def rolls(count):
    return [random.randint(1, 6) for _ in range(count)]


def rolls_doubled(count):
    out = []
    for _ in range(count):
        face = random.randint(1, 6)
        out += [face, face]
    return out


def dice(dice_num, dice_type):
    total = 0
    for _ in range(dice_num):
        roll = roll.randint(1, dice_type)
        total += roll
    return total


def last_draw(n):
    for _ in range(n):
        last = random.randint(1, 6)
    return last


def last_bumped(n):
    for last in [random.randint(1, 6) for _ in range(n)]:
        pass
    last = last + 1
    return last


def dice_annotated(dice_num, dice_type):
    total = 0
    for _ in range(dice_num):
        roll: int = roll.randint(1, dice_type)
        total += roll
    return total
"""


module = written_module("drawn.py", SOURCE)


@pytest.mark.parametrize(
    ("function", "code"),
    [("password", 0), ("password_doubled", 1), ("rolls", 0), ("rolls_doubled", 1)],
)
def test_each_item_twice_in_a_row_breaks_the_count(
    module: Path, capsys: pytest.CaptureFixture[str], function: str, code: int
) -> None:
    got, report = check_json(capsys, module, function, 60)
    assert got == code, report
    assert verdicts(report).get("length") is (code == 0), report


@pytest.mark.parametrize("function", ["dice", "dice_annotated"])
def test_a_local_read_in_its_own_assignment_is_a_defect(
    module: Path, capsys: pytest.CaptureFixture[str], function: str
) -> None:
    got, report = check_json(capsys, module, function, 60)
    assert got == 1, report  # it passed before: every call that rolls was "outside the domain"
    assert not any(verdicts(report).values()), report


@pytest.mark.parametrize("function", ["last_draw", "last_bumped"])
def test_a_loop_over_nothing_is_still_a_limit_of_the_domain(
    module: Path, capsys: pytest.CaptureFixture[str], function: str
) -> None:
    got, report = check_json(capsys, module, function, 60)
    assert got == 0, report
