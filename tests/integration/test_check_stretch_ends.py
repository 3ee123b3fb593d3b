"""``automock check`` on a selection over a stretch ``arr[lo:hi]`` whose high end is one
past its last item (issue 30, batch s): its ends are fitted to ``0`` and ``len`` where
its code reads ``hi`` so (``randrange(lo, hi)``, ``hi - 1``), and ``lo``/``hi`` are
positions, not bounds on the values. Before, ``hi`` was ``len - 1``: the last item was
never looked at, and a correct quickselect failed both ``order_statistic`` and a bound
its parameter names were taken to state."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import check_json, verdicts, written_module

SOURCE = """
import random


def select_kth(arr, lo, hi, k):
    if hi - lo == 1:
        return arr[lo]
    p = random.randrange(lo, hi)
    arr[p], arr[hi - 1] = arr[hi - 1], arr[p]
    pivot, store = arr[hi - 1], lo
    for i in range(lo, hi - 1):
        if arr[i] < pivot:
            arr[i], arr[store] = arr[store], arr[i]
            store += 1
    arr[store], arr[hi - 1] = arr[hi - 1], arr[store]
    if k == store:
        return arr[store]
    if k < store:
        return select_kth(arr, lo, store, k)
    return select_kth(arr, store + 1, hi, k)


def select_kth_skipping(arr, lo, hi, k):
    if hi - lo <= 1:
        return arr[lo]
    p = random.randrange(lo, hi)
    arr[p], arr[hi - 1] = arr[hi - 1], arr[p]
    pivot, store = arr[hi - 1], lo
    for i in range(lo, hi - 1):
        if arr[i] < pivot:
            arr[i], arr[store] = arr[store], arr[i]
            store += 1
    arr[store], arr[hi - 1] = arr[hi - 1], arr[store]
    if k == store:
        return arr[store]
    if k < store:
        return select_kth_skipping(arr, lo, store, k)
    return select_kth_skipping(arr, store + 2, hi, k)
"""


module = written_module("stretch.py", SOURCE)


def test_a_selection_over_lo_to_one_before_hi_passes(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = check_json(capsys, module, "select_kth", 60)
    names = {p["property"] for p in report["properties"]}
    assert "order_statistic" in names, report["properties"]
    assert "bounds" not in names, report["properties"]
    assert code == 0, report["results"]


def test_a_selection_that_skips_an_item_fails(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = check_json(capsys, module, "select_kth_skipping", 60)
    assert code == 1, report["results"]
    assert verdicts(report).get("order_statistic") is False, report


def test_given_order_statistic_reads_the_stretch_the_same_way(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = check_json(
        capsys, module, "select_kth", 60, "--property", "order_statistic", "--option", "k=k"
    )
    assert code == 0, report["results"]
