"""What an input costs: a call that would allocate gigabytes is too costly, not a failure (issue 30).

So is a size past what the platform's integers hold (``OverflowError``).

Hypothesis draws an ``int`` parameter from the whole integer range, so a size
argument can ask for a list of billions of items. The checked call runs under a
memory bound: running out of it says the input costs too much, like a hang
says it takes too long, and never that the property broke.

The test caps the whole process's address space first (restored after), so a
checker without its own bound meets a ``MemoryError`` here instead of taking
the machine's memory.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator

import pytest

from automock.properties.infer import AppliedProperty
from automock.properties.suite import check_function

resource = pytest.importorskip("resource")

_GIB = 1024**3


@contextlib.contextmanager
def _address_space_cap(extra: int) -> Iterator[None]:
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/statm", encoding="ascii") as statm:
        used = int(statm.read().split()[0]) * resource.getpagesize()
    cap = used + extra if hard == resource.RLIM_INFINITY else min(used + extra, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def permutation_key(block_size: int) -> list[int]:
    digits = list(range(block_size))  # a huge block_size asks for gigabytes at once
    random.shuffle(digits)
    return digits


@pytest.mark.skipif(not __import__("os").path.exists("/proc/self/statm"), reason="Linux only")
def test_a_size_that_would_allocate_gigabytes_is_too_costly_not_a_failure() -> None:
    given = (AppliedProperty("unique", {}, "flag"),)
    with _address_space_cap(6 * _GIB):
        # under seed 3 the search draws block_size=1099873030795 (8 TB of list)
        report = check_function(permutation_key, given, max_examples=60, seed=3, call_seconds=2.0)
    result = report.results[0]
    assert report.passed, result.detail
    assert "MemoryError" not in result.detail


def test_a_size_past_the_platform_s_integers_is_too_costly_not_a_failure() -> None:
    given = (AppliedProperty("unique", {}, "flag"),)
    with _address_space_cap(6 * _GIB):
        # under seed 2 the search draws block_size=2**63: range() cannot even hold it
        report = check_function(permutation_key, given, max_examples=60, seed=2, call_seconds=2.0)
    result = report.results[0]
    assert report.passed, result.detail
    assert "OverflowError" not in result.detail
