"""Every source of randomness, derived from one seed.

``seeded_random(seed)`` makes these repeat exactly for the same seed:

- the ``random`` module's global generator (seeded; state restored on exit),
  ``random.randbytes`` included;
- ``random.Random()`` instances created without a seed (and ``random.seed()``
  with no argument, the module function included): each gets ``derive(seed, "Random", n)`` for the n-th
  creation, so creation order, not wall time, decides the stream;
- ``os.urandom``, ``os.getrandom`` and ``random``'s private ``_urandom``: a
  seeded byte stream. ``random.SystemRandom``, ``secrets.*`` and
  ``uuid.uuid4`` read from these, so they follow;
- ``uuid.uuid1`` and ``uuid.getnode``: node and clock sequence derived from the
  seed, the timestamp from the (frozen, if active) clock plus a counter;
- ``tempfile`` names (a fresh ``_RandomNameSequence`` seeded as above);
- numpy, only if the program imports it (no import just to patch):
  ``np.random.seed`` legacy global state, ``np.random.default_rng()`` and
  ``np.random.RandomState()`` with no seed. Bit generators built directly
  without a seed (``np.random.PCG64()``) read OS entropy in C and are not
  covered.

Access log: the first call of each module-level ``random`` function
(``random.random``, ``randint``, ``choice``, ``shuffle``, ``sample``, ...) and,
when numpy is seeded, of each ``numpy.random`` legacy function is recorded
(kind ``random``), through a wrapper that then puts the seeded original back
(:func:`~automock.runtime.events.record_first_call`), so later calls cost
nothing extra and draw the same values.

Re-seeding: :func:`reseed` puts the innermost active block in the state
``seeded_random(new_seed)`` would have started from (all of the above), without
leaving it. The batch pool uses it to give each forked sample its own seed.

Hash randomisation cannot change inside a running interpreter:
:func:`hash_seed_for` gives the ``PYTHONHASHSEED`` a fresh child should get.
"""

from __future__ import annotations

import contextlib
import os
import random
import sys
import threading
import uuid
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

from automock._seed import derive, hash_seed_for
from automock.runtime._base import Patch, Undo
from automock.runtime._imports import when_imported
from automock.runtime.events import record, record_first_calls

__all__ = ["EntropySource", "derive", "hash_seed_for", "reseed", "seeded_random"]

_UUID_EPOCH_OFFSET = 0x01B21DD213814000  # 100-ns intervals 1582-10-15 -> 1970-01-01
_DEFAULT_UUID1_NS = 1_704_067_200 * 10**9  # 2024-01-01T00:00:00Z

# module-level functions of ``random`` that draw from its global generator (bound methods of it)
_RANDOM_APIS = tuple(
    (name, f"random.{name}")
    for name in random.__all__
    if getattr(getattr(random, name), "__self__", None) is getattr(random, "_inst", None)
    and name not in ("seed", "getstate", "setstate")
)
# numpy.random legacy functions (bound methods of its global RandomState)
_NUMPY_FUNCTIONS = (
    "random",
    "random_sample",
    "rand",
    "randn",
    "randint",
    "choice",
    "shuffle",
    "permutation",
    "uniform",
    "normal",
    "standard_normal",
    "bytes",
)


class EntropySource:
    """The per-block state: a seed, counters and a seeded byte stream."""

    def __init__(self, seed: int) -> None:
        self._lock = threading.Lock()
        self.numpy: ModuleType | None = None  # numpy.random, once patched
        self.tempfile: ModuleType | None = None  # tempfile, once patched
        self.reset(seed)

    def reset(self, seed: int) -> None:
        """Start over from ``seed``: counters, byte stream and uuid1 sequence (see :func:`reseed`)."""
        with self._lock:
            self.seed = int(seed)
            self._counters: dict[str, int] = {}
            self._bytes = random.Random(derive(self.seed, "urandom"))
            self._uuid1_last = 0

    @contextlib.contextmanager
    def aside(self) -> Iterator[None]:
        """Run a block that draws nothing for the program: its draws leave the counters and
        the byte stream as they were (a library's own setup, once per process)."""
        with self._lock:
            counters, state = dict(self._counters), self._bytes.getstate()
        try:
            yield
        finally:
            with self._lock:
                self._counters = counters
                self._bytes.setstate(state)

    def next_seed(self, label: str) -> int:
        """The seed for the next object of kind ``label`` (0, 1, 2, ... in creation order)."""
        with self._lock:
            n = self._counters.get(label, 0)
            self._counters[label] = n + 1
        return derive(self.seed, label, n)

    def urandom(self, size: int) -> bytes:
        if size < 0:
            raise ValueError("negative argument not allowed")
        with self._lock:
            return self._bytes.randbytes(size)

    def uuid1(self, node: int | None = None, clock_seq: int | None = None) -> uuid.UUID:
        from automock.runtime.clock import _WALL_TIME_NS, current_clock

        ns = _WALL_TIME_NS() if current_clock() is not None else _DEFAULT_UUID1_NS
        with self._lock:
            timestamp = max(ns // 100 + _UUID_EPOCH_OFFSET, self._uuid1_last + 1)
            self._uuid1_last = timestamp
        if node is None:
            node = self.node()
        if clock_seq is None:
            clock_seq = derive(self.seed, "uuid1.clock_seq") & 0x3FFF
        fields = (
            timestamp & 0xFFFFFFFF,
            (timestamp >> 32) & 0xFFFF,
            (timestamp >> 48) & 0x0FFF,
            (clock_seq >> 8) & 0x3F,
            clock_seq & 0xFF,
            node,
        )
        return uuid.UUID(fields=fields, version=1)

    def node(self) -> int:
        # a random node id with the multicast bit set, as RFC 4122 asks
        return (derive(self.seed, "uuid.getnode") & 0xFFFFFFFFFFFF) | 0x010000000000


class seeded_random(Patch[EntropySource]):
    """Derive every random source from ``seed``; restore all of them on exit."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__()
        self.seed = int(seed)

    def _start(self, undo: Undo) -> EntropySource:
        source = EntropySource(self.seed)
        _ACTIVE.append(source)
        undo.push(lambda: _ACTIVE.remove(source))
        _patch_bytes(undo, source)
        _patch_random(undo, source)
        _patch_uuid(undo, source)
        when_imported(
            undo,
            {
                "tempfile": lambda module: _patch_tempfile(undo, source, module),
                "numpy.random": lambda module: _patch_numpy(undo, source, module),
            },
        )
        return source


_ACTIVE: list[EntropySource] = []  # the sources of the seeded_random blocks entered, innermost last


def reseed(seed: int) -> EntropySource:
    """Re-seed the innermost active :class:`seeded_random` block (so also ``deterministic``)
    as if it had been entered with ``seed``: ``random``'s global generator, the seeds of
    unseeded ``Random()`` objects (counted from 0 again), the ``os.urandom``/``secrets``/
    ``uuid4`` stream, ``uuid1``, ``tempfile`` names and numpy, if it was patched.

    The block is not left: its patches stay, and its exit still restores what was there
    before it. Raises ``RuntimeError`` outside such a block.
    """
    if not _ACTIVE:
        raise RuntimeError("reseed() needs an active seeded_random (or deterministic) block")
    source = _ACTIVE[-1]
    source.reset(seed)
    random.seed(derive(source.seed, "random"))
    if source.numpy is not None:
        source.numpy.seed(derive(source.seed, "numpy.random") % 2**32)
    if source.tempfile is not None and sys.modules.get("tempfile") is source.tempfile:
        source.tempfile._name_sequence = None  # type: ignore[attr-defined]
    return source


def _patch_tempfile(undo: Undo, source: EntropySource, tempfile: ModuleType) -> None:
    # tempfile picks its default directory once per process, creating a Random() on the
    # way: set aside, so the first block of a process counts its Random()s as later ones do
    with source.aside():
        tempfile.gettempdir()
    undo.setattr(tempfile, "_name_sequence", None)
    source.tempfile = tempfile


def _patch_bytes(undo: Undo, source: EntropySource) -> None:
    def urandom(size: int, /) -> bytes:
        record("random", "os.urandom", mocked=True)
        return source.urandom(size)

    def getrandom(size: int, flags: int = 0) -> bytes:
        record("random", "os.getrandom", mocked=True)
        return source.urandom(size)

    undo.setattr(os, "urandom", urandom)
    undo.setattr(random, "_urandom", urandom)  # SystemRandom / secrets read this
    if hasattr(os, "getrandom"):
        undo.setattr(os, "getrandom", getrandom)


def _patch_random(undo: Undo, source: EntropySource) -> None:
    state = random.getstate()
    undo.push(lambda: random.setstate(state))
    original_seed: Callable[..., None] = random.Random.seed

    def seed(self: random.Random, a: Any = None, version: int = 2) -> None:
        if a is None:
            record("random", "random.Random", mocked=True)
            # the innermost block's counter: a `from random import seed` bound in an earlier
            # block (a module imported under it) reseeds as the block it is called in says
            a = (_ACTIVE[-1] if _ACTIVE else source).next_seed("random.Random")
        original_seed(self, a, version)

    undo.setattr(random.Random, "seed", seed)
    # the module's ``random.seed`` is the global instance's method bound at import, so the
    # class patch above misses it: ``random.seed()`` would reseed from the OS
    instance = random._inst

    def module_seed(a: Any = None, version: int = 2) -> None:
        seed(instance, a, version)

    undo.setattr(random, "seed", module_seed)
    random.seed(derive(source.seed, "random"))
    record_first_calls(undo, random, _RANDOM_APIS, "random")


def _patch_uuid(undo: Undo, source: EntropySource) -> None:
    def uuid1(node: int | None = None, clock_seq: int | None = None) -> uuid.UUID:
        record("random", "uuid.uuid1", mocked=True)
        return source.uuid1(node, clock_seq)

    undo.setattr(uuid, "uuid1", uuid1)
    undo.setattr(uuid, "getnode", source.node)


def _patch_numpy(undo: Undo, source: EntropySource, np_random: ModuleType) -> None:
    state = np_random.get_state()
    undo.push(lambda: np_random.set_state(state))
    np_random.seed(derive(source.seed, "numpy.random") % 2**32)
    source.numpy = np_random
    original_default_rng = np_random.default_rng
    original_random_state = np_random.RandomState

    def default_rng(seed: Any = None) -> Any:
        if seed is None:
            record("random", "numpy.random.default_rng", mocked=True)
            seed = source.next_seed("numpy.random.default_rng")
        return original_default_rng(seed)

    class RandomState(original_random_state):  # type: ignore[misc, valid-type]
        __doc__ = original_random_state.__doc__

        def __init__(self, seed: Any = None) -> None:
            if seed is None:
                seed = source.next_seed("numpy.random.RandomState") % 2**32
            super().__init__(seed)

    RandomState.__module__ = original_random_state.__module__
    RandomState.__qualname__ = original_random_state.__qualname__
    undo.setattr(np_random, "default_rng", default_rng)
    undo.setattr(np_random, "RandomState", RandomState)
    present = [name for name in _NUMPY_FUNCTIONS if callable(getattr(np_random, name, None))]
    record_first_calls(
        undo, np_random, [(name, f"numpy.random.{name}") for name in present], "random"
    )
