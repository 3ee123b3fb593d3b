"""entropy.reseed: an active block starts over from a new seed, exactly as if entered with it."""

from __future__ import annotations

import os
import random
import secrets
import tempfile
import uuid
from typing import Any

import pytest

from automock.runtime import deterministic
from automock.runtime.entropy import reseed, seeded_random


def _draw() -> dict[str, Any]:
    return {
        "random": [random.random(), random.randint(0, 10**9), random.randbytes(4)],
        "instances": [random.Random().random(), random.Random().getrandbits(32)],
        "system": random.SystemRandom().random(),
        "uuid4": uuid.uuid4(),
        "uuid1": uuid.uuid1(),
        "urandom": os.urandom(8),
        "secrets": [secrets.token_hex(8), secrets.randbelow(10**9)],
        "tempfile": os.path.basename(tempfile.mktemp()),
    }


def test_reseed_equals_entering_with_the_new_seed() -> None:
    with seeded_random(21):
        fresh = _draw()
    with seeded_random(7):
        before = _draw()  # consume every source, so nothing is left at its start
        reseed(21)
        after = _draw()
    assert after == fresh
    assert before != fresh


def test_reseed_twice_repeats_and_other_seeds_differ() -> None:
    with deterministic(seed=3):
        reseed(100)
        first = _draw()
        reseed(100)
        again = _draw()
        reseed(101)
        other = _draw()
    assert first == again
    assert all(first[key] != other[key] for key in first)


def test_reseed_covers_numpy() -> None:
    np = pytest.importorskip("numpy")

    def draw() -> list[float]:
        return [float(np.random.rand()), float(np.random.default_rng().random())]

    with seeded_random(5):
        fresh = draw()
    with seeded_random(6):
        draw()
        reseed(5)
        assert draw() == fresh


def test_exit_after_reseed_restores_the_outside_state() -> None:
    random.seed(42)
    expected = random.random()
    random.seed(42)
    original = os.urandom
    with seeded_random(1):
        reseed(2)
        random.random()
    assert random.random() == expected
    assert os.urandom is original


def test_reseed_outside_a_block_is_an_error() -> None:
    with pytest.raises(RuntimeError, match="active seeded_random"):
        reseed(1)
