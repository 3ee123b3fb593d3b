"""Clock and random reads inside the runtime are recorded as mocked accesses, once per API."""

from __future__ import annotations

import datetime as dt
import random
import time
import warnings
from collections import Counter
from datetime import date, datetime
from random import random as bound_random  # bound before any block
from time import time as bound_time  # bound before any block

import pytest

from automock._seed import derive
from automock.plan.model import DEFAULT_INSTANT, Plan
from automock.runtime import RuntimeSession, deterministic

EPOCH = dt.datetime.fromisoformat(DEFAULT_INSTANT.replace("Z", "+00:00")).timestamp()


def _apis(session: RuntimeSession, kind: str) -> Counter[str]:
    return Counter(a.api for a in session.log.accesses if a.kind == kind and a.mocked)


def _seeded(seed: int) -> random.Random:
    """The stream the runtime's global generator draws from for ``seed``."""
    return random.Random(derive(seed, "random"))


def test_clock_reads_recorded_once_each_and_still_frozen() -> None:
    with deterministic(Plan()) as session:
        values = {time.time() for _ in range(5)}
        assert values == {EPOCH}
        assert time.time_ns() == int(EPOCH) * 10**9
        assert dt.datetime.now(dt.UTC).timestamp() == EPOCH
        for _ in range(3):
            dt.datetime.now()
        dt.date.today()
    apis = _apis(session, "time")
    for api in ("time.time", "time.time_ns", "datetime.datetime.now", "datetime.date.today"):
        assert apis[api] == 1, (api, apis)


def test_datetime_call_sites_are_told_apart() -> None:
    def only_time() -> float:
        if False:  # names ``now`` but never calls it
            return datetime.now().timestamp()
        return time.time()

    with deterministic(Plan()) as session:
        only_time()
        assert "datetime.datetime.now" not in _apis(session, "time")
        datetime.today()
        date.today()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            datetime.utcnow()
    apis = _apis(session, "time")
    assert {"datetime.datetime.today", "datetime.date.today", "datetime.datetime.utcnow"} <= set(
        apis
    )
    assert "datetime.datetime.now" not in apis


def test_random_draws_recorded_once_each_with_the_seeded_values() -> None:
    expected = _seeded(11)
    want = [expected.random(), expected.random(), expected.randint(1, 100)]
    items = list(range(10))
    expected.shuffle(items)
    want_choice = expected.choice("abcdef")
    want_sample = expected.sample(range(100), 3)
    with deterministic(Plan(), seed=11) as session:
        got = [random.random(), random.random(), random.randint(1, 100)]
        shuffled = list(range(10))
        random.shuffle(shuffled)
        assert (got, shuffled) == (want, items)
        assert random.choice("abcdef") == want_choice
        assert random.sample(range(100), 3) == want_sample
    apis = _apis(session, "random")
    for api in ("random.random", "random.randint", "random.shuffle", "random.choice"):
        assert apis[api] == 1, (api, apis)
    assert apis["random.sample"] == 1


def test_after_the_first_read_the_original_is_back_and_all_restored_on_exit() -> None:
    originals = (time.time, time.time_ns, random.random, random.randint, random.choice)
    with deterministic(Plan()):
        assert time.time is not originals[0]  # the recording wrapper
        assert random.random is not originals[2]
        time.time()
        random.random()
        assert time.time is originals[0]  # stepped aside: no per-call cost
        assert random.random is originals[2]
        assert random.randint is not originals[3]  # not read yet
    assert (time.time, time.time_ns, random.random, random.randint, random.choice) == originals


def test_reference_taken_in_the_block_records_once_and_draws_the_stream() -> None:
    expected = _seeded(5)
    with deterministic(Plan(), seed=5) as session:
        draw = random.random  # the wrapper itself, kept
        values = [draw() for _ in range(4)]
    assert values == [expected.random() for _ in range(4)]
    assert _apis(session, "random")["random.random"] == 1


def test_references_bound_before_the_block_stay_frozen_and_seeded() -> None:
    expected = _seeded(3)
    with deterministic(Plan(), seed=3):
        assert bound_time() == EPOCH
        assert [bound_random(), random.random()] == [expected.random(), expected.random()]
    assert abs(bound_time() - EPOCH) > 3600


def test_nested_blocks_share_the_log_and_restore() -> None:
    original = random.random
    with deterministic(Plan()) as outer:
        with deterministic(Plan()) as inner:
            random.random()
            time.time()
        assert inner.log is outer.log
        assert random.random is original
        random.random()
    assert random.random is original
    assert _apis(outer, "random")["random.random"] == 1
    assert _apis(outer, "time")["time.time"] == 1


def test_numpy_legacy_functions_recorded_when_numpy_is_loaded() -> None:
    np = pytest.importorskip("numpy")
    original = np.random.random
    with deterministic(Plan(), seed=2) as first:
        a = [np.random.random(), np.random.random(), int(np.random.randint(0, 1000))]
        assert np.random.random is original
    with deterministic(Plan(), seed=2):
        b = [np.random.random(), np.random.random(), int(np.random.randint(0, 1000))]
    assert a == b
    assert np.random.random is original
    apis = _apis(first, "random")
    assert apis["numpy.random.random"] == 1 and apis["numpy.random.randint"] == 1
