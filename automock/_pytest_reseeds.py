"""The pytest plugin's seed wins over other plugins' reseeds (pytest-randomly).

pytest-randomly calls ``random.seed(...)`` (and numpy's) in plain ``pytest_runtest_setup``,
``_call`` and ``_teardown`` hooks. Setup's runs before the fixtures, so the fixture's own
seeding comes after it; for call and teardown, a wrapper (which runs before every plain
hook) snapshots the generators (:func:`snapshot`) and the state is put back after the plain
hooks (:func:`restore`): in ``pytest_pyfunc_call`` (inside ``item.runtest()``) and in an item
finalizer (the first one teardown runs, before any fixture's). The test sees one continuous
stream. Like the plugin, this imports nothing heavy.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:  # pragma: no cover
    from automock.runtime.entropy import EntropySource

__all__ = ["entropy_of_test", "restore", "seeded", "snapshot"]

_ENTROPY = pytest.StashKey["EntropySource"]()  # the test's seeded block, while it is active
_RANDOM_STATE = pytest.StashKey[tuple[Any, Any]]()  # (random state, numpy state or None)


def seeded(item: pytest.Item) -> bool:
    """Whether a seeded block of automock's is active for ``item``."""
    return item.stash.get(_ENTROPY, None) is not None


def snapshot(item: pytest.Item) -> None:
    source = item.stash.get(_ENTROPY, None)
    if source is not None:
        import random

        numpy_state = source.numpy.get_state() if source.numpy is not None else None
        item.stash[_RANDOM_STATE] = (random.getstate(), numpy_state)


def restore(item: pytest.Item) -> None:
    source = item.stash.get(_ENTROPY, None)
    saved = item.stash.get(_RANDOM_STATE, None)
    if source is not None and saved is not None:
        import random

        random.setstate(saved[0])
        if source.numpy is not None and saved[1] is not None:
            source.numpy.set_state(saved[1])


@contextmanager
def entropy_of_test(request: pytest.FixtureRequest, source: EntropySource | None) -> Iterator[None]:
    """Mark ``source`` as the test's seeded block while it is active (see :func:`restore`)."""
    if source is None:
        yield
        return
    outer = request.node.stash.get(_ENTROPY, None)  # the automock fixture's, under seeded_random
    request.node.stash[_ENTROPY] = source
    try:
        yield
    finally:
        if outer is None:
            del request.node.stash[_ENTROPY]
        else:
            request.node.stash[_ENTROPY] = outer
