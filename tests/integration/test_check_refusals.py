"""What ``automock check`` counts as a refused input and what as a failure (issue 30)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from automock.cli import main

SOURCE = """
import random


def reservoir(stream, size: int):
    kept = []
    items = iter(stream)
    while len(kept) < size:
        kept.append(next(items))
    for seen, item in enumerate(items, start=size):
        slot = random.randint(0, seen)
        if slot < size:
            kept[slot] = item
    return kept


def reservoir_overfull(stream, size: int):
    kept = []
    items = iter(stream)
    while len(kept) <= size:
        kept.append(next(items))
    for seen, item in enumerate(items, start=size):
        slot = random.randint(0, seen)
        if slot < size:
            kept[slot] = item
    return kept


def tickets():
    slots = [0] * 10
    for number in range(1, 12):
        place = random.randint(0, number - 1)
        slots[number - 1], slots[place] = slots[place], number
    return slots
"""


@pytest.fixture
def mod(tmp_path: Path) -> Path:
    path = tmp_path / "refusals.py"
    path.write_text(SOURCE, encoding="utf-8")
    return path


def _check(mod: Path, function: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:  # type: ignore[type-arg]
    argv = ["check", f"{mod}::{function}", "--runs", "400", "--examples", "40", "--json"]
    code = main(argv)
    return code, json.loads(capsys.readouterr().out)


def test_a_stream_shorter_than_the_size_asked_for_is_refused(
    mod: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `next()` on the exhausted input: like random.sample, it cannot keep more than there is
    code, report = _check(mod, "reservoir", capsys)
    assert "sample" in {p["property"] for p in report["properties"]}
    assert code == 0, report["results"]


def test_keeping_one_too_many_is_still_caught(
    mod: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a name saying it samples keeps its `sample` guess, held to len == min(size, len)
    code, report = _check(mod, "reservoir_overfull", capsys)
    assert code == 1, report["results"]


def test_a_function_of_nothing_that_always_raises_fails(
    mod: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # it takes no input, so no input of it is outside its domain: the error is the bug
    code, report = _check(mod, "tickets", capsys)
    assert code == 1, report
    failed = [r for r in report["results"] if not r["passed"]]
    assert failed and "IndexError" in failed[0]["detail"]


SWAP_ANY = """
import random


def mix_up(cards):
    for i in range(len(cards)):
        j = random.randint(0, len(cards) - 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards
"""


def test_the_swap_with_any_index_shuffle_is_caught_under_every_checker_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # its bias is slight on five cards (about two runs in three find it with 1000 runs);
    # on eight the chi-square has the power to find it under every seed tried
    path = tmp_path / "swap_any.py"
    path.write_text(SWAP_ANY, encoding="utf-8")
    verdicts = []
    for seed in range(6):
        argv = ["check", f"{path}::mix_up", "--runs", "1000", "--examples", "20"]
        verdicts.append(main([*argv, "--seed", str(seed), "--json"]))
        report = json.loads(capsys.readouterr().out)
        assert "uniform" in {p["property"] for p in report["properties"]}
    assert verdicts == [1] * 6
