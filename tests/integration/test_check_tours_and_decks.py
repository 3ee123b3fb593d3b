"""``automock check`` knows a 2-opt move, a shift mutation and a new deck by name (issue 30).

A 2-opt move (``twoOpt``, ``two_opt``) of local search reverses a stretch of a tour: its
output is a permutation of the tour, so one that drops the stretch's last city fails;
behaviour alone saw a sub-list and proposed a subset. A shift mutation moves one gene
elsewhere: one that overwrites a gene with another is no tour. A deck made by the function
(``new_deck()``) holds each card once: one with a card repeated fails ``unique``, where
behaviour alone saw a fixed multiset in varying order and proposed nothing it breaks."""

from __future__ import annotations

from pathlib import Path

import pytest

SOURCE = """
import random


def twoOpt(tour):
    t = list(tour)
    if len(t) < 2:
        return t
    i, j = sorted(random.sample(range(len(t)), 2))
    return t[:i] + t[i:j][::-1] + t[j + 1:]


def two_opt(tour):
    t = list(tour)
    if len(t) < 2:
        return t
    i, j = sorted(random.sample(range(len(t)), 2))
    return t[:i] + t[i:j + 1][::-1] + t[j + 1:]


def shift_mutation(genes):
    g = list(genes)
    if len(g) < 2:
        return g
    i, j = random.sample(range(len(g)), 2)
    g[j] = g[i]
    return g


def mutation_shift(genes):
    g = list(genes)
    if len(g) < 2:
        return g
    i, j = random.sample(range(len(g)), 2)
    g.insert(j, g.pop(i))
    return g


def new_deck():
    cards = [suit + value for suit in "CSDH" for value in "A23456789TJQK"]
    cards[5] = cards[4]
    random.shuffle(cards)
    return cards


def newdeck():
    cards = [suit + value for suit in "CSDH" for value in "A23456789TJQK"]
    random.shuffle(cards)
    return cards
"""


@pytest.mark.parametrize(
    ("function", "expected", "prop"),
    [
        ("twoOpt", 1, "permutation"),
        ("two_opt", 0, "permutation"),
        ("shift_mutation", 1, "permutation"),
        ("mutation_shift", 0, "permutation"),
        ("new_deck", 1, "unique"),
        ("newdeck", 0, "unique"),
    ],
)
def test_a_named_move_or_deck_is_held_to_its_shape(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], function: str, expected: int, prop: str
) -> None:
    from automock.cli import main

    path = tmp_path / "moves.py"
    path.write_text(SOURCE, encoding="utf-8")
    code = main(["check", f"{path}::{function}", "--examples", "40", "--runs", "200"])
    out = capsys.readouterr().out
    assert code == expected, out
    assert f"{prop}:" in out
