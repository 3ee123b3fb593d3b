"""``automock check`` holds cards dealt from a deck to a sample (issue 30).

A function of a deck and a count only deals that many cards, none put back: it is held to
``sample`` of that count, so a deal that indexes the deck without removing what it dealt
(a draw with replacement) fails; behaviour alone, with its repeats, proposed only a
subset. A correct deal (popping the cards dealt) passes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SOURCE = """
import random


def hand_again(deck, num):
    return [deck[random.randint(0, len(deck) - 1)] for _ in range(num)]


def hand(deck, num):
    return [deck.pop(random.randint(0, len(deck) - 1)) for _ in range(num)]
"""


@pytest.mark.parametrize(("function", "expected"), [("hand_again", 1), ("hand", 0)])
def test_cards_dealt_from_a_deck_are_a_sample(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], function: str, expected: int
) -> None:
    from automock.cli import main

    path = tmp_path / "cards.py"
    path.write_text(SOURCE, encoding="utf-8")
    code = main(["check", f"{path}::{function}", "--examples", "40", "--runs", "300", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == expected, report["results"]
    assert {"property": "sample", "k": "num"} in [
        {"property": p["property"], "k": p["options"].get("k")} for p in report["properties"]
    ]
