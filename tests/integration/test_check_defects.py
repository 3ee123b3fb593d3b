"""``automock check`` defects of issue 30, each through ``automock.cli.main``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from automock.cli import main

SOURCE = """
import random
from typing import Iterable, TypeVar

T = TypeVar("T")


def shuffled(items: Iterable[T]) -> list[T]:
    out = list(items)
    if len(out) > 2:
        out.pop()
    random.shuffle(out)
    return out


def sometimes_drops(xs: list[int]) -> list[int]:
    out = list(xs)
    if out and random.random() < 0.5:
        out.pop()
    return out


def reseeding_shuffle(xs: list[int]) -> list[int]:
    random.seed()
    out = list(xs)
    random.shuffle(out)
    return out


def spins(xs: list[int]) -> list[int]:
    while len(xs) > 2:
        try:
            pass
        except Exception:
            pass
    return list(xs)


def draw(pool: list[int], k: int) -> list[int]:
    if k < 0:
        raise ValueError("k must not be negative")
    return random.sample(pool, min(k, len(pool)))
"""


@pytest.fixture
def mod(tmp_path: Path) -> Path:
    path = tmp_path / "mod.py"
    path.write_text(SOURCE, encoding="utf-8")
    return path


def _report(capsys: pytest.CaptureFixture[str]) -> dict:  # type: ignore[type-arg]
    return json.loads(capsys.readouterr().out)


def test_json_report_of_an_iterable_parameter(
    mod: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["check", f"{mod}::shuffled", "-p", "permutation", "--examples", "40", "--json"])
    report = _report(capsys)
    assert code == 1
    (result,) = report["results"]
    assert result["verdict"] == "fail"
    assert isinstance(result["counterexample"][0], list) and len(result["counterexample"][0]) == 3


@pytest.mark.parametrize("seed", range(4))
def test_counterexample_replays_the_run_that_failed(
    mod: Path, capsys: pytest.CaptureFixture[str], seed: int
) -> None:
    argv = ["check", f"{mod}::sometimes_drops", "-p", "permutation", "--seed", str(seed)]
    code = main([*argv, "--examples", "60", "--json"])
    (result,) = _report(capsys)["results"]
    assert code == 1
    # the detail shows the failing output (a passing replay has nothing to show)
    assert "returned" in result["detail"], result["detail"]


def test_function_calling_random_seed_gives_the_same_uniform_verdict(
    mod: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["check", f"{mod}::reseeding_shuffle", "-p", "uniform", "--runs", "400", "--json"]
    first = (main(argv), _report(capsys))
    second = (main(argv), _report(capsys))
    assert first == second
    assert first[1]["results"][0]["passed"] is True


def test_a_hang_is_its_own_verdict_every_time(
    mod: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["check", f"{mod}::spins", "-p", "permutation", "--call-timeout", "0.2", "--json"]
    first = (main(argv), _report(capsys))
    second = (main(argv), _report(capsys))
    assert first == second
    code, report = first
    assert code == 124
    (result,) = report["results"]
    assert result["verdict"] == "timeout" and "did not finish" in result["detail"]
    assert len(result["counterexample"][0]) > 2


def test_a_raised_value_error_is_a_precondition(
    mod: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["check", f"{mod}::draw", "-p", "sample", "--option", "k=k", "--examples", "60"])
    out = capsys.readouterr().out
    assert code == 0, out


def test_call_timeout_must_be_positive(mod: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", f"{mod}::spins", "-p", "permutation", "--call-timeout", "0"])
    err = capsys.readouterr().err
    assert code == 2 and "--call-timeout" in err and "Traceback" not in err
