"""``automock check`` holds cards dealt from a deck to a sample (issue 30).

A function of a deck and a count only deals that many cards, none put back: it is held to
``sample`` of that count, so a deal that repeats a card it already dealt fails; behaviour
alone, with its repeats, proposed only a subset. A correct deal (popping the cards dealt)
passes. A deal seen returning more cards than the deck holds puts them back (a blackjack
draw from an endless deck, batch l): the name was only a guess, and the draw is checked for
what it does, a subset of that count."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import check_json

SOURCE = """
import random


def hand_again(deck, num):
    return [deck[random.randint(0, len(deck) - 1)] for _ in range(num)]


def hand_again_not_first(deck, num):
    return [deck[random.randint(1, len(deck) - 1)] for _ in range(num)]


def hand(deck, num):
    return [deck.pop(random.randint(0, len(deck) - 1)) for _ in range(num)]


def hand_first_twice(deck, num):
    cards = [deck.pop(random.randint(0, len(deck) - 1)) for _ in range(num)]
    return cards[:1] + cards[:-1] if len(cards) > 1 else cards
"""


@pytest.mark.parametrize(("function", "expected"), [("hand_first_twice", 1), ("hand", 0)])
def test_cards_dealt_from_a_deck_are_a_sample(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], function: str, expected: int
) -> None:
    path = tmp_path / "cards.py"
    path.write_text(SOURCE, encoding="utf-8")
    code, report = check_json(capsys, path, function, 40, "--runs", "300")
    assert code == expected, report["results"]
    assert {"property": "sample", "k": "num"} in [
        {"property": p["property"], "k": p["options"].get("k")} for p in report["properties"]
    ]


@pytest.mark.parametrize(("function", "expected"), [("hand_again", 0), ("hand_again_not_first", 1)])
def test_a_deal_that_puts_cards_back_is_checked_for_what_it_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], function: str, expected: int
) -> None:
    """Each card of a deal that puts them back is a fair choice of the deck: one that never
    deals the first card fails that, though it is a subset of the right length."""
    path = tmp_path / "cards.py"
    path.write_text(SOURCE, encoding="utf-8")
    code, report = check_json(capsys, path, function, 40, "--runs", "600")
    assert code == expected, report["results"]
    checked = {p["property"]: p["options"] for p in report["properties"]}
    assert "sample" not in checked
    assert checked["length"].get("n") == "num" and "subset" in checked
    assert checked["uniform"].get("draws") == {"list": "deck", "size": "num"}
    failed = {r["name"] for r in report["results"] if not r["passed"]}
    assert failed == ({"uniform"} if expected else set())
