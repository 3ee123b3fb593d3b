"""What a function costs, as inference reads it: by an input's cheapest call, so a pause that
lands on one call does not shrink the whole search (issue 30).

The property search runs no larger inputs than those seen when a small input already cost a
noticeable share of the call bound. Reading that cost from a single call made inference
depend on the process: a first call's one-time setup, or a full garbage collection in a large
process (a test worker), looked like an expensive function and set ``max_size``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import check_json, written_module

SOURCE = """
import random

_calls = []


def pick_with_a_pause(items):
    _calls.append(1)
    if len(_calls) == 12:  # one call pays for a pause, as a full garbage collection would
        sum(i * i for i in range(6_000_000))
    return random.choice(items)
"""


module = written_module("costs.py", SOURCE)


def _options(report: dict) -> dict[str, dict]:  # type: ignore[type-arg]
    return {p["property"]: p["options"] for p in report["properties"]}


def test_a_pause_on_one_call_does_not_limit_the_search(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = check_json(capsys, module, "pick_with_a_pause", examples=20)
    assert code == 0, report["results"]
    options = _options(report)
    assert "subset" in options, options
    assert all("max_size" not in o for o in options.values()), options
