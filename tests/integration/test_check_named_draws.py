"""``automock check`` holds a dealt hand, a ticket and a ``min``..``max`` draw to what their
names say (issue 30).

Behaviour alone learns a bug that is consistent with itself: a hand dealt with a card
repeated in every deal is never seen unique, so ``unique`` is not proposed; a draw over
``range(min, max + 2)`` is seen reaching ``max + 1``, so that is the bound it learns. The
names say more: a hand dealt from a deck the function makes holds each card once, a
ticket's numbers do not repeat, and two parameters ``min`` and ``max`` are the ends of the
range drawn from (as ``lo``/``hi`` and ``min_value``/``max_value`` already were)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import check_json, verdicts, written_module

SOURCE = """
import random

SUITS = "SHDC"
RANKS = "23456789TJQKA"


def deal_hand(players):
    deck = [rank + suit for suit in SUITS for rank in RANKS]
    random.shuffle(deck)
    return deck[:5]


def deal_hand_twice(players):
    deck = [rank + suit for suit in SUITS for rank in RANKS]
    random.shuffle(deck)
    return deck[:4] + deck[:1]


def draw_ticket(count):
    return sorted(random.sample(range(1, 7), count))


def draw_ticket_back(count):
    return sorted(random.choices(range(1, 7), k=count))


def pick_between(min, max, amount):
    return [random.randint(min, max) for _ in range(amount)]


def pick_between_past(min, max, amount):
    return [random.choice(range(min, max + 2)) for _ in range(amount)]


def pick_scaled(min_num, max_num):
    return random.randint(min_num, max_num + 1)
"""


module = written_module("named.py", SOURCE)


@pytest.mark.parametrize(
    ("function", "code", "prop"),
    [
        ("deal_hand", 0, "unique"),
        ("deal_hand_twice", 1, "unique"),
        ("draw_ticket", 0, "unique"),
        ("draw_ticket_back", 1, "unique"),
        ("pick_between", 0, "bounds"),
        ("pick_between_past", 1, "bounds"),
        ("pick_scaled", 1, "bounds"),
    ],
)
def test_a_name_states_what_behaviour_learned_wrong(
    module: Path, capsys: pytest.CaptureFixture[str], function: str, code: int, prop: str
) -> None:
    got, report = check_json(capsys, module, function, 60)
    assert got == code, report
    passed = verdicts(report)
    assert passed.get(prop) is (code == 0), report
    sources = {a["source"] for a in report["properties"] if a["property"] == prop}
    # the bug's own behaviour never showed the property: the name put it there
    assert sources == ({"stated"} if code else sources) and sources, report
